import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AppConfig, CredentialCipher, NotificationChannel } from '@svc/platform';
import { INTEGRATION_CHANGED_CHANNEL } from './webhook-authenticator';
import { WebhookCredentialsRepository } from './webhook-credentials.repository';

/** The workspace and app a chat event names. */
export interface ChatWorkspace {
  teamId: string;
  appId: string;
}

/** The chat integration whose signing secret verified an event. */
export interface ChatEventKey {
  organizationId: string;
  integrationId: string;
  /** The workspace and app the event named, which the integration's config had. */
  workspace: ChatWorkspace;
  signingSecret: string;
  /** The sealed credentials the secret was unsealed from. */
  sealed: Buffer;
  /** Whether it came from this process's cache, not from a read made for this event. */
  cached: boolean;
}

type CachedKey = Omit<ChatEventKey, 'workspace' | 'cached'>;

/** Workspace/app pairs remembered per process at most; past it the cache starts over (only live senders come back). */
const MAX_CACHED = 10_000;

const workspaceKey = (w: ChatWorkspace) => `${w.teamId}\u0000${w.appId}`;

/** A chat integration's stored credentials (decisions §9): only the signing secret matters here. */
interface SealedChatCredentials {
  signingSecret: string;
}

/**
 * Finds the chat integration an event is for, by the workspace and app it names, with a
 * per-process cache of the enabled chat integrations of each workspace/app pair and their
 * unsealed signing secrets. The cache follows WebhookAuthenticator's: it is only used while this
 * process LISTENs on INTEGRATION_CHANGED_CHANNEL, a change to an integration drops every pair that
 * held it, losing or regaining the connection drops them all, and a lookup that was in flight when
 * a change arrived is not remembered.
 *
 * The cache only saves the lookup; it never lets an event in on its own. A signature no cached
 * secret verifies is checked against a fresh read before it is refused (a new integration raises
 * no notification, a rotated secret's may be on its way), and a key served from the cache is
 * confirmed against the database before the event has any effect: under a row lock in the
 * transaction that records the event (`stillCurrent`), or by a fresh read when nothing is
 * recorded (`confirm`). So after a rotation, disable, delete or edit has returned, no process
 * accepts an event signed with the secret it took away.
 */
@Injectable()
export class ChatSigningKeys implements OnApplicationShutdown {
  private readonly cache = new Map<string, CachedKey[]>();
  private generation = 0;
  private readonly changes: NotificationChannel;

  constructor(
    config: AppConfig,
    private readonly credentials: WebhookCredentialsRepository,
    private readonly cipher: CredentialCipher,
  ) {
    this.changes = new NotificationChannel(
      config.DATABASE_URL,
      INTEGRATION_CHANGED_CHANNEL,
      {
        notified: (integrationId) => {
          this.generation += 1;
          for (const [pair, keys] of this.cache) if (keys.some((k) => k.integrationId === integrationId)) this.cache.delete(pair);
        },
        listeningChanged: () => {
          this.generation += 1;
          this.cache.clear();
        },
      },
      'svc-listen-chat-keys',
    );
  }

  /**
   * The chat integration of the workspace and app whose signing secret `verifies` accepts, from the
   * cache when a cached secret does, else from a fresh read; undefined when none does.
   */
  async find(workspace: ChatWorkspace, verifies: (signingSecret: string) => boolean): Promise<ChatEventKey | undefined> {
    this.changes.start();
    const cached = this.cache.get(workspaceKey(workspace))?.find((k) => verifies(k.signingSecret));
    if (cached) return { ...cached, workspace, cached: true };
    const read = (await this.read(workspace)).find((k) => verifies(k.signingSecret));
    return read && { ...read, workspace, cached: false };
  }

  /** Whether the key is still its integration's current one, by a fresh read (for an event that records nothing). */
  async confirm(key: ChatEventKey): Promise<boolean> {
    if (!key.cached) return true;
    return (await this.read(key.workspace)).some((k) => k.integrationId === key.integrationId && k.signingSecret === key.signingSecret);
  }

  /**
   * Which of the keys are still current, read and locked in the recording transaction (see
   * WebhookCredentialsRepository.lockChatIntegrationsAcrossOrganizations): the integration is
   * enabled, still names the workspace and app, and its signing secret is the same.
   */
  async stillCurrent(manager: EntityManager, keys: ChatEventKey[]): Promise<boolean[]> {
    const ids = [...new Set(keys.map((k) => k.integrationId))];
    const rows = ids.length > 0 ? await this.credentials.lockChatIntegrationsAcrossOrganizations(manager, ids) : new Map();
    const secrets = new Map<string, string>();
    return keys.map((key) => {
      const row = rows.get(key.integrationId);
      if (!row || !row.enabled || !row.credentialsSealed || row.teamId !== key.workspace.teamId || row.appId !== key.workspace.appId) return false;
      // Unchanged credentials need no unsealing; changed ones (a new bot token, say) may keep the signing secret.
      if (row.credentialsSealed.equals(key.sealed)) return true;
      if (!secrets.has(key.integrationId))
        secrets.set(key.integrationId, this.cipher.decrypt<SealedChatCredentials>(row.credentialsSealed, key.integrationId).signingSecret);
      return secrets.get(key.integrationId) === key.signingSecret;
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.changes.stop();
  }

  /** The enabled chat integrations of the pair, read now, and remembered when no change overlapped the read. */
  private async read(workspace: ChatWorkspace): Promise<CachedKey[]> {
    const generation = this.generation;
    const rows = await this.credentials.chatIntegrationsAcrossOrganizations(workspace);
    const keys = rows.flatMap((row) =>
      row.credentialsSealed
        ? [
            {
              organizationId: row.organizationId,
              integrationId: row.id,
              signingSecret: this.cipher.decrypt<SealedChatCredentials>(row.credentialsSealed, row.id).signingSecret,
              sealed: row.credentialsSealed,
            },
          ]
        : [],
    );
    if (this.changes.listening && generation === this.generation) {
      if (this.cache.size >= MAX_CACHED) this.cache.clear();
      this.cache.set(workspaceKey(workspace), keys);
    }
    return keys;
  }
}
