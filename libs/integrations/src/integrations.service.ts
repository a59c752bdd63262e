import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { AuditService } from '@svc/audit';
import { DatastoreEndpoint, DatastoreKind } from '@svc/datastores';
import { RelayJobsService, RelaysService } from '@svc/relays';
import {
  AppConfig,
  AuditContext,
  byTimeThenId,
  CredentialCipher,
  CursorCodec,
  InjectScopedRepository,
  InvalidInputError,
  keysetPage,
  newId,
  NotFoundError,
  OutboundClient,
  Page,
  ScopedRepository,
  Timestamp,
} from '@svc/platform';
import { integrationType, IntegrationType, webhookPath } from './catalog/integration-types';
import { IntegrationSchemaValidator } from './catalog/schema-validator';
import { CreateIntegrationDto, ListIntegrationsQueryDto, UpdateIntegrationDto } from './dto/integration.dto';
import { CreatedIntegrationView, IntegrationView, RotationResult } from './dto/integration.view';
import { Integration } from './integration.entity';
import { WebhookReceiver } from './webhooks/webhook-authenticator';
import { hashWebhookSecret, webhookSecretBinding } from './webhooks/webhook-secret';
import { WebhookCredentialsRepository } from './webhooks/webhook-credentials.repository';
import { authorizationHeader, IntegrationVerifier, KubernetesCredentials, lokiTenantHeader, StoredCredentials } from './integration-verifier';
import { DatastoreCredentials, datastoreEndpoint, servicesOf } from './catalog/datastore-endpoint';

const NEWEST_FIRST = byTimeThenId<Integration>('i', 'created_at', (i) => i.createdAt, 'DESC');

/**
 * An enabled integration whose HTTP API can be read, with its credentials as request headers, or
 * a datastore, with its endpoint and sign-in.
 */
export interface ReadableDataSource {
  organizationId: string;
  integrationId: string;
  type: 'prometheus' | 'alertmanager' | 'rabbitmq' | 'loki' | 'kubernetes' | DatastoreKind;
  name: string;
  baseUrl: string;
  /** A Kubernetes API server's CA (PEM) from the stored credentials, when it has one. */
  ca?: string;
  /** The only namespaces a Kubernetes integration's tools read (config.namespaces); undefined for every one. */
  namespaces?: string[];
  /** A datastore's address and sign-in: for the code that reads it, never for a response. */
  endpoint?: DatastoreEndpoint;
  /** The services a datastore or broker says it serves (config.services); empty otherwise. */
  services: string[];
  /** The relay that reads it instead (its configuration holds the URL and credentials); baseUrl is empty then. */
  relayId: string | null;
  /** Authorization headers from the stored credentials: for the code that calls the system, never for a response. */
  headers: Record<string, string>;
  /** When it last verified successfully, if it did. */
  verifiedAt: Timestamp | null;
}

/** A chat integration's stored credentials (decisions §9). */
interface ChatCredentials {
  signingSecret: string;
  botToken: string;
}

/** An enabled chat integration and the secret its events are signed with. */
export interface ChatSigningKey {
  organizationId: string;
  integrationId: string;
  signingSecret: string;
}

/** Where and how replies of a chat integration are posted. */
export interface ChatConnection {
  enabled: boolean;
  apiBaseUrl: string;
  botToken: string;
}

function groupingLabelsOf(config: Record<string, unknown>): string[] | null {
  return Array.isArray(config.groupingLabels) ? (config.groupingLabels as string[]) : null;
}

const BOTH_BINDINGS =
  'Invalid input: config.baseUrl and config.relayId: set one of them, not both (a relay-bound system is reached at the URL in the relay configuration)';

/**
 * Reached directly (config.baseUrl) or through a relay (config.relayId), never both, and a
 * Prometheus one of the two: checked before the schema so that the message names the fields.
 */
function checkBinding(type: IntegrationType, config: Record<string, unknown>): void {
  const properties = (type.configSchema.properties ?? {}) as Record<string, unknown>;
  if (!('relayId' in properties)) return;
  const field = type.datastore ? 'host' : type.id === 'kubernetes' ? 'server' : 'baseUrl';
  const direct = config[field] !== undefined;
  const relayed = config.relayId !== undefined;
  if (direct && relayed)
    throw new InvalidInputError(
      type.datastore
        ? 'Invalid input: config.host and config.relayId: set one of them, not both (a relay-bound datastore is reached at the address in the relay configuration)'
        : type.id === 'kubernetes'
          ? 'Invalid input: config.server and config.relayId: set one of them, not both (a relay inside the cluster reads the API with its own ServiceAccount)'
          : BOTH_BINDINGS,
    );
  if ((type.id === 'prometheus' || type.id === 'rabbitmq' || type.id === 'loki' || type.id === 'kubernetes' || type.datastore) && !direct && !relayed)
    throw new InvalidInputError(`Invalid input: config.${field} or config.relayId is required (one of them)`);
  // The relay sends the request, so the tenant header is its configuration's to set, like the URL and credentials.
  if (type.id === 'loki' && relayed && config.tenant !== undefined)
    throw new InvalidInputError(
      "Invalid input: config.tenant and config.relayId: a relay-bound Loki's tenant is set in the relay configuration (with its URL and credentials), not here",
    );
}

function mintWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

@Injectable()
export class IntegrationsService {
  constructor(
    @InjectScopedRepository(Integration) private readonly integrations: ScopedRepository<Integration>,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly schemas: IntegrationSchemaValidator,
    private readonly cipher: CredentialCipher,
    private readonly verifier: IntegrationVerifier,
    private readonly cursors: CursorCodec,
    private readonly audit: AuditService,
    private readonly config: AppConfig,
    private readonly outbound: OutboundClient,
    private readonly relays: RelaysService,
    private readonly relayJobs: RelayJobsService,
    private readonly credentials: WebhookCredentialsRepository,
  ) {}

  async create(organizationId: string, input: CreateIntegrationDto, context: AuditContext): Promise<CreatedIntegrationView> {
    const type = integrationType(input.type)!;
    const config = input.config ?? {};
    checkBinding(type, config);
    this.schemas.config(type, config);
    if (input.credentials !== undefined) this.schemas.credentials(type, input.credentials);
    else if (type.credentialsRequired && !config.relayId) throw new InvalidInputError(`Invalid input: ${type.id} integrations need credentials`);
    await this.checkDestination(config, type);
    await this.checkRelay(organizationId, config);
    const id = newId();
    const webhookSecret = type.webhookFormat ? mintWebhookSecret() : undefined;
    return this.dataSource.transaction(async (manager) => {
      const now = Timestamp.now();
      await this.integrations.withManager(manager).insert(organizationId, {
        id,
        type: type.id,
        name: input.name,
        enabled: true,
        config,
        credentialsSealed: input.credentials ? this.cipher.encrypt(input.credentials, id) : null,
        webhookSecretHash: webhookSecret ? hashWebhookSecret(webhookSecret) : null,
        webhookSecretSealed: webhookSecret && type.signedWebhook ? this.sealWebhookSecret(webhookSecret, id) : null,
        webhookSecretRotatedAt: webhookSecret ? now : null,
        lastVerifiedAt: null,
        lastVerifyOutcome: null,
        lastVerifyDetail: null,
        createdBy: context.actorId!,
      });
      await this.audit.record(manager, organizationId, context, {
        action: 'integration.create',
        targetKind: 'integration',
        targetId: id,
        detail: { type: type.id, name: input.name, config, credentials: Boolean(input.credentials) },
      });
      const view = this.view((await this.integrations.withManager(manager).findById(organizationId, id))!);
      return webhookSecret ? { ...view, webhookSecret } : view;
    });
  }

  async list(organizationId: string, query: ListIntegrationsQueryDto): Promise<Page<IntegrationView>> {
    const q = this.integrations.query(organizationId, 'i');
    if (query.type !== undefined) q.andWhere('i.type = :type', { type: query.type });
    if (query.enabled !== undefined) q.andWhere('i.enabled = :enabled', { enabled: query.enabled });
    const page = await keysetPage(
      q,
      this.cursors,
      { scope: organizationId, collection: `integrations?type=${query.type ?? ''}&enabled=${String(query.enabled ?? '')}` },
      NEWEST_FIRST,
      query,
    );
    return { items: page.items.map((i) => this.view(i)), next: page.next };
  }

  async get(organizationId: string, id: string): Promise<IntegrationView> {
    return this.view(await this.require(this.dataSource.manager, organizationId, id));
  }

  async update(organizationId: string, id: string, input: UpdateIntegrationDto, context: AuditContext): Promise<IntegrationView> {
    if (input.config) {
      const found = await this.require(this.dataSource.manager, organizationId, id);
      await this.checkDestination(input.config, integrationType(found.type)!);
      await this.checkRelay(organizationId, input.config);
    }
    return this.dataSource.transaction(async (manager) => {
      const current = await this.require(manager, organizationId, id, true);
      const type = integrationType(current.type)!;
      const patch: Partial<Integration> = { updatedAt: Timestamp.now() };
      if (input.name !== undefined) patch.name = input.name;
      if (input.config !== undefined) {
        checkBinding(type, input.config);
        this.schemas.config(type, input.config);
        patch.config = input.config;
      }
      if (input.credentials === null && type.credentialsRequired && !(input.config ?? current.config).relayId)
        throw new InvalidInputError(`Invalid input: ${type.id} integrations need credentials`);
      if (input.credentials === null) patch.credentialsSealed = null;
      else if (input.credentials !== undefined) {
        this.schemas.credentials(type, input.credentials);
        patch.credentialsSealed = this.cipher.encrypt(input.credentials, id);
      }
      await this.integrations.withManager(manager).update(organizationId, { id }, patch);
      await this.audit.record(manager, organizationId, context, {
        action: 'integration.update',
        targetKind: 'integration',
        targetId: id,
        detail: {
          name: input.name,
          config: input.config,
          credentials: input.credentials === undefined ? 'unchanged' : input.credentials === null ? 'removed' : 'replaced',
        },
      });
      return this.view((await this.integrations.withManager(manager).findById(organizationId, id))!);
    });
  }

  async remove(organizationId: string, id: string, context: AuditContext): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const current = await this.require(manager, organizationId, id, true);
      await this.integrations.withManager(manager).delete(organizationId, { id });
      await this.audit.record(manager, organizationId, context, {
        action: 'integration.delete',
        targetKind: 'integration',
        targetId: id,
        detail: { type: current.type, name: current.name },
      });
    });
  }

  async setEnabled(organizationId: string, id: string, enabled: boolean, context: AuditContext): Promise<IntegrationView> {
    return this.dataSource.transaction(async (manager) => {
      const current = await this.require(manager, organizationId, id, true);
      if (current.enabled !== enabled) {
        await this.integrations.withManager(manager).update(organizationId, { id }, { enabled, updatedAt: Timestamp.now() });
        await this.audit.record(manager, organizationId, context, {
          action: enabled ? 'integration.enable' : 'integration.disable',
          targetKind: 'integration',
          targetId: id,
        });
      }
      return this.view((await this.integrations.withManager(manager).findById(organizationId, id))!);
    });
  }

  /** Contacts the system now, with the stored credentials, and records the outcome and time. */
  async verify(organizationId: string, id: string, context: AuditContext): Promise<IntegrationView> {
    const current = await this.require(this.dataSource.manager, organizationId, id);
    const type = integrationType(current.type)!;
    const relayId = typeof current.config.relayId === 'string' ? current.config.relayId : null;
    const throughRelay = relayId
      ? (path: string, signal: AbortSignal, query: ReadonlyArray<readonly [string, string]> = []) =>
          this.relayJobs.read({
            organizationId,
            relayId,
            integrationId: id,
            integrationType: type.id,
            path,
            query,
            signal,
            maxBytes: 64 * 1024,
            timeoutMs: 5000,
          })
      : undefined;
    const result = await this.verifier.verify(type, current.config, this.credentialsOf(current), throughRelay);
    return this.dataSource.transaction(async (manager) => {
      await this.integrations
        .withManager(manager)
        .update(organizationId, { id }, { lastVerifiedAt: Timestamp.now(), lastVerifyOutcome: result.outcome, lastVerifyDetail: result.detail });
      await this.audit.record(manager, organizationId, context, {
        action: 'integration.verify',
        targetKind: 'integration',
        targetId: id,
        outcome: result.outcome === 'succeeded' ? 'allowed' : 'failed',
        detail: { ...result },
      });
      return this.view((await this.require(manager, organizationId, id))!);
    });
  }

  /** A new webhook secret, shown once; the previous one stops working at once. */
  async rotateWebhookSecret(organizationId: string, id: string, context: AuditContext): Promise<RotationResult> {
    return this.dataSource.transaction(async (manager) => {
      const current = await this.require(manager, organizationId, id, true);
      const type = integrationType(current.type)!;
      if (!type.webhookFormat) throw new InvalidInputError(`${current.type} integrations receive no webhooks: there is no secret to rotate`);
      const webhookSecret = mintWebhookSecret();
      await this.integrations.withManager(manager).update(
        organizationId,
        { id },
        {
          webhookSecretHash: hashWebhookSecret(webhookSecret),
          webhookSecretSealed: type.signedWebhook ? this.sealWebhookSecret(webhookSecret, id) : null,
          webhookSecretRotatedAt: Timestamp.now(),
          updatedAt: Timestamp.now(),
        },
      );
      await this.audit.record(manager, organizationId, context, { action: 'integration.rotate_webhook_secret', targetKind: 'integration', targetId: id });
      return { webhookSecret, effect: 'The previous secret stopped working immediately.' };
    });
  }

  /** The receiving side of an integration of this Organization, for re-admitting a stored delivery. */
  async receiverFor(organizationId: string, integrationId: string): Promise<WebhookReceiver & { enabled: boolean }> {
    const found = await this.require(this.dataSource.manager, organizationId, integrationId);
    const format = integrationType(found.type)?.webhookFormat;
    if (!format) throw new InvalidInputError(`${found.type} integrations receive no webhooks`);
    return { organizationId, integrationId, format, groupingLabels: groupingLabelsOf(found.config), enabled: found.enabled };
  }

  /** The Organization's enabled integrations that can be read as data sources (those with a base URL or a relay, and datastores). */
  async readableDataSources(organizationId: string): Promise<ReadableDataSource[]> {
    const found = await this.integrations.find(organizationId, { where: { enabled: true }, order: { createdAt: 'ASC' } });
    return found.flatMap((i): ReadableDataSource[] => {
      const datastore = integrationType(i.type)?.datastore;
      const relayId = typeof i.config.relayId === 'string' ? i.config.relayId : null;
      const verifiedAt = i.lastVerifyOutcome === 'succeeded' ? i.lastVerifiedAt : null;
      const services = servicesOf(i.config);
      if (datastore) {
        // Bound to a relay, the datastore's address and sign-in are in the relay's configuration, not here.
        const endpoint = relayId ? undefined : datastoreEndpoint(datastore, i.config, this.credentialsOf(i) as DatastoreCredentials | null);
        return [{ organizationId, integrationId: i.id, type: datastore, name: i.name, baseUrl: '', endpoint, services, relayId, headers: {}, verifiedAt }];
      }
      if (i.type === 'kubernetes') {
        const server = typeof i.config.server === 'string' ? i.config.server : null;
        const namespaces = Array.isArray(i.config.namespaces) ? (i.config.namespaces as string[]) : undefined;
        if (relayId)
          return [{ organizationId, integrationId: i.id, type: i.type, name: i.name, baseUrl: '', namespaces, services, relayId, headers: {}, verifiedAt }];
        if (!server) return [];
        const credentials = this.credentialsOf(i) as KubernetesCredentials | null;
        return [
          {
            organizationId,
            integrationId: i.id,
            type: i.type,
            name: i.name,
            baseUrl: server,
            ...(credentials?.certificateAuthority ? { ca: credentials.certificateAuthority } : {}),
            namespaces,
            services,
            relayId: null,
            headers: authorizationHeader(credentials),
            verifiedAt,
          },
        ];
      }
      const baseUrl = typeof i.config.baseUrl === 'string' ? i.config.baseUrl : null;
      if ((i.type !== 'prometheus' && i.type !== 'alertmanager' && i.type !== 'rabbitmq' && i.type !== 'loki') || (!baseUrl && !relayId)) return [];
      if (relayId) return [{ organizationId, integrationId: i.id, type: i.type, name: i.name, baseUrl: '', services, relayId, headers: {}, verifiedAt }];
      return [
        {
          organizationId,
          integrationId: i.id,
          type: i.type,
          name: i.name,
          baseUrl: baseUrl!,
          services,
          relayId: null,
          headers: { ...authorizationHeader(this.credentialsOf(i)), ...(i.type === 'loki' ? lokiTenantHeader(i.config) : {}) },
          verifiedAt,
        },
      ];
    });
  }

  /** The Organizations with an enabled integration of `type`: for work the worker does for each of them. */
  async organizationsWithAcrossOrganizations(type: string): Promise<string[]> {
    const rows = (await this.dataSource.query(`SELECT DISTINCT organization_id FROM integrations WHERE type = $1 AND enabled ORDER BY organization_id`, [
      type,
    ])) as Array<{
      organization_id: string;
    }>;
    return rows.map((r) => r.organization_id);
  }

  /**
   * The enabled chat integrations an event may be for, in any Organization, with their signing
   * secrets: those whose teamId and appId equal the event's, or every one (a url_verification
   * names no workspace). Spans Organizations by nature: an event names the workspace, not the
   * Organization.
   */
  async chatSigningKeysAcrossOrganizations(match: { teamId: string; appId: string } | 'any'): Promise<ChatSigningKey[]> {
    const rows = await this.credentials.chatIntegrationsAcrossOrganizations(match);
    return rows.flatMap((row) => {
      if (!row.credentialsSealed) return [];
      const { signingSecret } = this.cipher.decrypt<ChatCredentials>(row.credentialsSealed, row.id);
      return [{ organizationId: row.organizationId, integrationId: row.id, signingSecret }];
    });
  }

  /** What a reply in a chat thread needs: where to post and the bot token (for that code only, never a response). */
  async chatConnection(organizationId: string, integrationId: string): Promise<ChatConnection> {
    const found = await this.require(this.dataSource.manager, organizationId, integrationId);
    if (found.type !== 'chat' || !found.credentialsSealed) throw new NotFoundError('Chat integration');
    const { botToken } = this.cipher.decrypt<ChatCredentials>(found.credentialsSealed, found.id);
    return { enabled: found.enabled, apiBaseUrl: String(found.config.apiBaseUrl), botToken };
  }

  /**
   * A base URL whose host resolves now to an address the outbound policy refuses is bad input.
   * Checked again at every connection (DNS may change); a host that does not resolve now is
   * accepted, verify reports it.
   */
  private async checkDestination(config: Record<string, unknown>, type: IntegrationType): Promise<void> {
    for (const field of ['baseUrl', 'apiBaseUrl', 'server']) {
      const url = config[field];
      if (typeof url !== 'string') continue;
      const refusal = await this.outbound.refusal(url);
      if (refusal) throw new InvalidInputError(`config.${field}: ${refusal.message}`);
    }
    if (type.datastore && typeof config.host === 'string') {
      const endpoint = datastoreEndpoint(type.datastore, config, null);
      const refusal = await this.outbound.refusalOf(endpoint.host, endpoint.port);
      if (refusal) throw new InvalidInputError(`config.host: ${refusal.message}`);
    }
  }

  /** An integration bound to a relay names one of the Organization's relays (404 `Relay not found` otherwise, as an unknown one), and no URL besides. */
  private async checkRelay(organizationId: string, config: Record<string, unknown>): Promise<void> {
    if (typeof config.relayId !== 'string') return;
    if (config.baseUrl !== undefined || config.server !== undefined) throw new InvalidInputError(BOTH_BINDINGS);
    await this.relays.requireExists(organizationId, config.relayId);
  }

  /** The decrypted credentials, for the code that talks to the system (never for a response). */
  credentialsOf(integration: Integration): StoredCredentials | null {
    return integration.credentialsSealed ? this.cipher.decrypt<StoredCredentials>(integration.credentialsSealed, integration.id) : null;
  }

  private async require(manager: EntityManager, organizationId: string, id: string, lock = false): Promise<Integration> {
    const query = this.integrations.withManager(manager).query(organizationId, 'i').andWhere('i.id = :id', { id });
    if (lock) query.setLock('pessimistic_write');
    const found = await query.getOne();
    if (!found) throw new NotFoundError('Integration');
    return found;
  }

  private sealWebhookSecret(secret: string, integrationId: string): Buffer {
    return this.cipher.encrypt(secret, webhookSecretBinding(integrationId));
  }

  private view(i: Integration): IntegrationView {
    const type: IntegrationType | undefined = integrationType(i.type);
    return {
      id: i.id,
      type: i.type,
      name: i.name,
      enabled: i.enabled,
      config: i.config,
      hasCredentials: i.credentialsSealed !== null,
      webhookUrl: type?.webhookFormat
        ? `${this.config.SVC_PUBLIC_URL.replace(/\/$/, '')}/webhooks/v1/integrations/${i.id}/${webhookPath(type.webhookFormat)}`
        : null,
      webhookSecretRotatedAt: i.webhookSecretRotatedAt?.toISOString() ?? null,
      lastVerification: i.lastVerifiedAt ? { at: i.lastVerifiedAt.toISOString(), outcome: i.lastVerifyOutcome!, detail: i.lastVerifyDetail } : null,
      createdAt: i.createdAt.toISOString(),
      updatedAt: i.updatedAt.toISOString(),
    };
  }
}
