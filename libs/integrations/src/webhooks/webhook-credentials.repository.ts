import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';

/** What webhook authentication needs of an integration row. */
export interface WebhookCredentialRow {
  organizationId: string;
  type: string;
  enabled: boolean;
  secretHash: Buffer | null;
  /** The secret sealed, for types whose senders sign with it; null for the others. */
  secretSealed: Buffer | null;
  config: Record<string, unknown>;
}

/**
 * The statements of webhook authentication. Both span Organizations by nature: a webhook URL names
 * the integration, not its Organization, so the integration id is the key and the Organization is
 * what the row says.
 */
@Injectable()
export class WebhookCredentialsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The integration a webhook URL names, in any Organization (by id alone); undefined when there is none. */
  async findByIdAcrossOrganizations(integrationId: string, manager: EntityManager = this.dataSource.manager): Promise<WebhookCredentialRow | undefined> {
    const [found] = (await manager.query(
      'SELECT organization_id, type, enabled, webhook_secret_hash, webhook_secret_sealed, config FROM integrations WHERE id = $1',
      [integrationId],
    )) as {
      organization_id: string;
      type: string;
      enabled: boolean;
      webhook_secret_hash: Buffer | null;
      webhook_secret_sealed: Buffer | null;
      config: Record<string, unknown>;
    }[];
    return (
      found && {
        organizationId: found.organization_id,
        type: found.type,
        enabled: found.enabled,
        secretHash: found.webhook_secret_hash,
        secretSealed: found.webhook_secret_sealed,
        config: found.config,
      }
    );
  }

  /**
   * The current secret hashes of those of the integrations (each with its Organization) that are
   * enabled, read under FOR KEY SHARE in the caller's transaction, by the `webhook_secret_holds`
   * database function that batched admission holds them with too. Every change to an integration
   * takes FOR UPDATE on its row first (a DELETE does so by itself), which conflicts with this lock:
   * a rotation, disable or delete either commits before this read and is seen by it, or waits
   * until the caller's transaction has committed.
   */
  async lockCurrentSecretsAcrossOrganizations(
    manager: EntityManager,
    integrations: Array<{ organizationId: string; integrationId: string }>,
  ): Promise<Map<string, Buffer>> {
    const rows = (await manager.query('SELECT integration_id, secret_hash FROM webhook_secret_holds($1::text[], $2::uuid[])', [
      integrations.map((i) => i.organizationId),
      integrations.map((i) => i.integrationId),
    ])) as { integration_id: string; secret_hash: Buffer }[];
    return new Map(rows.map((r) => [r.integration_id, r.secret_hash]));
  }

  /**
   * The enabled chat integrations, in any Organization, whose config's teamId and appId are the
   * given ones (or all of them, for 'any'). Chat events name the workspace and the app, not the
   * Organization: the row says which it is.
   */
  async chatIntegrationsAcrossOrganizations(
    match: { teamId: string; appId: string } | 'any',
    manager: EntityManager = this.dataSource.manager,
  ): Promise<{ organizationId: string; id: string; credentialsSealed: Buffer | null }[]> {
    const rows = (
      match === 'any'
        ? await manager.query("SELECT organization_id, id, credentials_sealed FROM integrations WHERE type = 'chat' AND enabled ORDER BY id LIMIT 1000")
        : await manager.query(
            "SELECT organization_id, id, credentials_sealed FROM integrations WHERE type = 'chat' AND enabled AND config->>'teamId' = $1 AND config->>'appId' = $2 ORDER BY id",
            [match.teamId, match.appId],
          )
    ) as { organization_id: string; id: string; credentials_sealed: Buffer | null }[];
    return rows.map((r) => ({ organizationId: r.organization_id, id: r.id, credentialsSealed: r.credentials_sealed }));
  }

  /**
   * The chat integrations among those ids (in any Organization) as they are now, read under
   * FOR KEY SHARE in the caller's transaction: every change to an integration takes FOR UPDATE on
   * its row first (a DELETE does so by itself), so a change of its signing secret, workspace or
   * app, a disable or a delete either commits before this read and is seen by it, or waits until
   * the caller's transaction has committed.
   */
  async lockChatIntegrationsAcrossOrganizations(
    manager: EntityManager,
    integrationIds: string[],
  ): Promise<Map<string, { enabled: boolean; teamId: string | null; appId: string | null; credentialsSealed: Buffer | null }>> {
    const rows = (await manager.query(
      "SELECT id, enabled, config->>'teamId' AS team_id, config->>'appId' AS app_id, credentials_sealed FROM integrations WHERE id = ANY($1::uuid[]) AND type = 'chat' ORDER BY id FOR KEY SHARE",
      [integrationIds],
    )) as { id: string; enabled: boolean; team_id: string | null; app_id: string | null; credentials_sealed: Buffer | null }[];
    return new Map(rows.map((r) => [r.id, { enabled: r.enabled, teamId: r.team_id, appId: r.app_id, credentialsSealed: r.credentials_sealed }]));
  }
}
