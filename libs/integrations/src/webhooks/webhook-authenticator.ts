import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { AppConfig, CredentialCipher, NotificationChannel } from '@svc/platform';
import { integrationType, WebhookFormat } from '../catalog/integration-types';
import { WebhookCredentialRow, WebhookCredentialsRepository } from './webhook-credentials.repository';
import { hashWebhookSecret, webhookSecretBinding } from './webhook-secret';

/** What the webhook route needs to know about the integration a delivery authenticated as. */
export interface WebhookReceiver {
  organizationId: string;
  integrationId: string;
  format: WebhookFormat;
  groupingLabels: string[] | null;
  /**
   * The hash of the secret the delivery presented, when it came over the webhook: admission
   * confirms it is still the integration's current secret inside the transaction that admits it.
   * Absent for a replay, which an Editor started and which authenticates no secret.
   */
  credential?: Buffer;
}

/** Announced by the integrations table's trigger (migration IntegrationChangeNotify) with the integration id. */
export const INTEGRATION_CHANGED_CHANNEL = 'svc_integration_changed';
/** Integrations remembered per process at most; past it the cache starts over (only live senders come back). */
const MAX_CACHED = 10_000;

function groupingLabelsOf(config: Record<string, unknown>): string[] | null {
  return Array.isArray(config.groupingLabels) ? (config.groupingLabels as string[]) : null;
}

/**
 * Webhook authentication with a per-process cache of the integration rows it read. The cache is
 * only used while this process LISTENs on INTEGRATION_CHANGED_CHANNEL: every committed change to
 * an integration drops its entry, and losing or regaining the connection drops them all. A lookup
 * that was in flight when a change arrived is not remembered (the generation check).
 *
 * The cache only saves the lookup; it is never what lets a delivery in. Admission confirms the
 * presented secret against the locked row in the transaction that admits it (`currentCredentials`),
 * so after a rotation, disable or delete has returned, no process admits with the old secret, even
 * one whose notification is still on its way.
 */
@Injectable()
export class WebhookAuthenticator implements OnApplicationShutdown {
  private readonly cache = new Map<string, WebhookCredentialRow>();
  private generation = 0;
  private readonly changes: NotificationChannel;

  constructor(
    config: AppConfig,
    private readonly credentials: WebhookCredentialsRepository,
    private readonly cipher: CredentialCipher,
  ) {
    this.changes = new NotificationChannel(config.DATABASE_URL, INTEGRATION_CHANGED_CHANNEL, {
      notified: (integrationId) => {
        this.generation += 1;
        this.cache.delete(integrationId);
      },
      listeningChanged: () => {
        this.generation += 1;
        this.cache.clear();
      },
    });
  }

  /**
   * The receiver when the cache alone shows the secret is the integration's current one; undefined
   * when it cannot tell (not cached, or another secret, perhaps a rotated one): ask `authenticate`.
   */
  fromCache(integrationId: string, presentedSecret: string | undefined): WebhookReceiver | undefined {
    this.changes.start();
    const row = this.cache.get(integrationId);
    if (!row || presentedSecret === undefined) return undefined;
    return this.receiverOf(integrationId, row, hashWebhookSecret(presentedSecret)) ?? undefined;
  }

  /**
   * The integration a webhook delivery is for, when the presented secret is its current one and it
   * is enabled; null otherwise (unknown, disabled, no or wrong secret: the caller answers all alike).
   */
  async authenticate(integrationId: string, presentedSecret: string | undefined, manager?: EntityManager): Promise<WebhookReceiver | null> {
    this.changes.start();
    const generation = this.generation;
    const row = await this.credentials.findByIdAcrossOrganizations(integrationId, manager);
    if (row && this.changes.listening && generation === this.generation) {
      if (this.cache.size >= MAX_CACHED) this.cache.clear();
      this.cache.set(integrationId, row);
    }
    const presented = hashWebhookSecret(presentedSecret ?? '');
    if (!row || presentedSecret === undefined) {
      // Compared even when there is nothing to compare with, so timing does not tell the cases apart.
      timingSafeEqual(presented, Buffer.alloc(32));
      return null;
    }
    return this.receiverOf(integrationId, row, presented);
  }

  /**
   * The integration a signed webhook delivery is for, when `signedWith` holds for its current
   * secret (the sender signed the body with it: GitHub's X-Hub-Signature-256, Flux's X-Signature)
   * and it is enabled; null otherwise, alike for every failure. Only types with `signedWebhook`
   * keep the secret to check a signature with. The receiver carries the secret's hash, which
   * admission confirms like a presented secret's.
   */
  async authenticateSigned(integrationId: string, signedWith: (secret: string) => boolean, manager?: EntityManager): Promise<WebhookReceiver | null> {
    this.changes.start();
    const generation = this.generation;
    const row = this.cache.get(integrationId) ?? (await this.credentials.findByIdAcrossOrganizations(integrationId, manager));
    if (row && !this.cache.has(integrationId) && this.changes.listening && generation === this.generation) {
      if (this.cache.size >= MAX_CACHED) this.cache.clear();
      this.cache.set(integrationId, row);
    }
    const secret = row?.secretSealed ? this.unseal(integrationId, row.secretSealed) : undefined;
    // Checked even when there is no secret, so timing does not tell the cases apart.
    const signed = signedWith(secret ?? randomBytes(32).toString('base64url'));
    if (!row || secret === undefined || !signed) return null;
    return this.receiverOf(integrationId, row, hashWebhookSecret(secret));
  }

  /**
   * Which of the receivers' credentials are still current, read and locked in the admitting
   * transaction (see WebhookCredentialsRepository.lockCurrentSecretsAcrossOrganizations). A
   * receiver without a credential (a replay) is not the webhook's to judge and counts as current.
   */
  async stillCurrent(manager: EntityManager, receivers: WebhookReceiver[]): Promise<boolean[]> {
    const checked = receivers.filter((r) => r.credential);
    const current = checked.length > 0 ? await this.credentials.lockCurrentSecretsAcrossOrganizations(manager, checked) : new Map<string, Buffer>();
    return receivers.map((r) => {
      if (!r.credential) return true;
      const hash = current.get(r.integrationId);
      return hash !== undefined && hash.length === r.credential.length && timingSafeEqual(hash, r.credential);
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.changes.stop();
  }

  private unseal(integrationId: string, sealed: Buffer): string | undefined {
    try {
      return this.cipher.decrypt<string>(sealed, webhookSecretBinding(integrationId));
    } catch {
      return undefined;
    }
  }

  private receiverOf(integrationId: string, row: WebhookCredentialRow, presented: Buffer): WebhookReceiver | null {
    const expected = row.secretHash ?? Buffer.alloc(32);
    const matches = expected.length === presented.length && timingSafeEqual(presented, expected);
    const format = integrationType(row.type)?.webhookFormat;
    if (!matches || !row.enabled || !row.secretHash || !format) return null;
    return { organizationId: row.organizationId, integrationId, format, groupingLabels: groupingLabelsOf(row.config), credential: row.secretHash };
  }
}
