import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { storableText, Timestamp } from '@svc/platform';
import type { RelayJobRequest, RelayJobStatus } from './relay-job.entity';

/** The channel every API process listens on for relay session changes. */
export const RELAY_CHANNEL = 'svc_relay';

export interface RelaySummaryCounts {
  total: number;
  connected: number;
  offline: number;
  conflict: number;
}

export interface AdvertisedCapability {
  integrationId: string;
  capabilityId: string;
  capabilityVersion: number;
}

export interface RelayIntegrationRow {
  integrationId: string;
  capabilities: { capabilityId: string; capabilityVersion: number }[];
}

/** A job's relay, integration and capability, to check before it is queued. */
export interface JobTarget {
  organizationId: string;
  relayId: string;
  integrationId: string;
  capabilityId: string;
}

/** What a job's relay is like now. */
export interface JobReadiness {
  name: string;
  /** It holds a session heard from within the lease. */
  live: boolean;
  lastSeenAt: Timestamp | null;
  /** It offers the capability for the integration. */
  advertised: boolean;
}

/** What a relay job reads, and for whom. */
export interface RelayJobDescription {
  organizationId: string;
  id: string;
  relayId: string;
  integrationId: string;
  capabilityId: string;
  capabilityVersion: number;
  /** The path and query read (no origin, no credentials). */
  source: string;
  request: RelayJobRequest;
  /** When it was queued (ms since the epoch): the job's record starts there. */
  queuedAt: number;
}

/** A job's record, written once it has ended. */
export interface JobRecord extends RelayJobDescription {
  status: RelayJobStatus;
  resultStatus: number | null;
  truncated: boolean | null;
  error: string | null;
}

export interface CredentialMatch {
  organizationId: string;
  id: string;
  name: string;
}

/**
 * The relay statements where SQL beats the ORM: the one-use bootstrap token, the session claim
 * (one session per registration, decided by one conditional UPDATE), conflicts, summaries and the
 * per-integration listing. Every statement but the two that find a relay by its secret is
 * bounded by the Organization.
 */
@Injectable()
export class RelaysRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Marks an unused, unexpired bootstrap token used and returns it. The token's hash identifies it
   * across Organizations by nature (a relay presents only the token); a second use finds nothing.
   */
  async consumeBootstrapTokenAcrossOrganizations(
    tokenHash: Buffer,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<{ organizationId: string; id: string; name: string } | undefined> {
    const rows = (await manager.query(
      `UPDATE relay_bootstrap_tokens SET used_at = clock_timestamp()
        WHERE token_hash = $1 AND used_at IS NULL AND expires_at > clock_timestamp()
        RETURNING organization_id, id, name`,
      [tokenHash],
    )) as [{ organization_id: string; id: string; name: string }[], number];
    const row = rows[0][0];
    return row ? { organizationId: row.organization_id, id: row.id, name: row.name } : undefined;
  }

  /** The relay a registration credential belongs to, in whichever Organization (the credential's hash identifies it). */
  async findByCredentialAcrossOrganizations(credentialHash: Buffer, manager: EntityManager = this.dataSource.manager): Promise<CredentialMatch | undefined> {
    const rows = (await manager.query('SELECT organization_id, id, name FROM relays WHERE credential_hash = $1', [credentialHash])) as {
      organization_id: string;
      id: string;
      name: string;
    }[];
    return rows[0] ? { organizationId: rows[0].organization_id, id: rows[0].id, name: rows[0].name } : undefined;
  }

  /**
   * Takes the registration's session for `sessionId` when nobody holds it live (no session, or no
   * heartbeat for `leaseSeconds`), or when the same relay process (`instance`) is taking its own
   * session back; and, while a session conflict is open, only for the process that held it.
   */
  async claimSession(
    organizationId: string,
    relayId: string,
    sessionId: string,
    instance: string,
    leaseSeconds: number,
    version: string | null,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<boolean> {
    const rows = (await manager.query(
      `UPDATE relays r SET session_id = $3, session_instance = $4, session_started_at = clock_timestamp(), last_seen_at = clock_timestamp(),
              version = COALESCE($6, r.version)
        WHERE r.organization_id = $1 AND r.id = $2
          AND (r.session_id IS NULL OR r.last_seen_at < clock_timestamp() - make_interval(secs => $5) OR r.session_instance = $4)
          AND (r.session_instance = $4 OR NOT EXISTS (
                SELECT 1 FROM relay_session_conflicts c WHERE c.organization_id = $1 AND c.relay_id = $2 AND c.cleared_at IS NULL))
        RETURNING r.id`,
      [organizationId, relayId, sessionId, instance, leaseSeconds, version],
    )) as [unknown[], number];
    return rows[1] === 1;
  }

  /** A heartbeat of the session: false when it is no longer the registration's session. */
  async touchSession(organizationId: string, relayId: string, sessionId: string, manager: EntityManager = this.dataSource.manager): Promise<boolean> {
    const rows = (await manager.query(
      'UPDATE relays SET last_seen_at = clock_timestamp() WHERE organization_id = $1 AND id = $2 AND session_id = $3 RETURNING id',
      [organizationId, relayId, sessionId],
    )) as [unknown[], number];
    return rows[1] === 1;
  }

  /** Ends the session if it is still the registration's session. */
  async releaseSession(organizationId: string, relayId: string, sessionId: string, manager: EntityManager = this.dataSource.manager): Promise<boolean> {
    const rows = (await manager.query(
      'UPDATE relays SET session_id = NULL, last_seen_at = clock_timestamp() WHERE organization_id = $1 AND id = $2 AND session_id = $3 RETURNING id',
      [organizationId, relayId, sessionId],
    )) as [unknown[], number];
    return rows[1] === 1;
  }

  /** Ends whatever session holds the registration, and forgets which process held it, so the next connection wins. */
  async endSession(organizationId: string, relayId: string, manager: EntityManager = this.dataSource.manager): Promise<void> {
    await manager.query('UPDATE relays SET session_id = NULL, session_instance = NULL WHERE organization_id = $1 AND id = $2', [organizationId, relayId]);
  }

  /** Counts a refused connection on the open conflict, opening one if there is none. */
  async recordConflict(
    organizationId: string,
    relayId: string,
    conflictId: string,
    address: string | null,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<{ opened: boolean }> {
    const rows = (await manager.query(
      `INSERT INTO relay_session_conflicts (organization_id, id, relay_id, address) VALUES ($1, $3, $2, $4)
       ON CONFLICT (organization_id, relay_id) WHERE cleared_at IS NULL
       DO UPDATE SET attempts = relay_session_conflicts.attempts + 1, last_attempt_at = clock_timestamp(), address = EXCLUDED.address
       RETURNING (xmax = 0) AS opened`,
      [organizationId, relayId, conflictId, address],
    )) as { opened: boolean }[];
    return { opened: Boolean(rows[0]?.opened) };
  }

  /** Clears the registration's open conflicts; returns how many there were. */
  async clearConflicts(organizationId: string, relayId: string, clearedBy: string | null, manager: EntityManager = this.dataSource.manager): Promise<number> {
    const rows = (await manager.query(
      `UPDATE relay_session_conflicts SET cleared_at = clock_timestamp(), cleared_by = $3
        WHERE organization_id = $1 AND relay_id = $2 AND cleared_at IS NULL RETURNING id`,
      [organizationId, relayId, clearedBy],
    )) as [unknown[], number];
    return rows[1];
  }

  /** Which of these relays have an open session conflict. */
  async withOpenConflicts(organizationId: string, relayIds: string[], manager: EntityManager = this.dataSource.manager): Promise<Set<string>> {
    if (relayIds.length === 0) return new Set();
    const rows = (await manager.query(
      'SELECT DISTINCT relay_id FROM relay_session_conflicts WHERE organization_id = $1 AND relay_id = ANY($2::uuid[]) AND cleared_at IS NULL',
      [organizationId, relayIds],
    )) as { relay_id: string }[];
    return new Set(rows.map((r) => r.relay_id));
  }

  /** Replaces what the relay advertises with what its current session said. */
  async replaceCapabilities(
    organizationId: string,
    relayId: string,
    capabilities: AdvertisedCapability[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.query('DELETE FROM relay_capabilities WHERE organization_id = $1 AND relay_id = $2', [organizationId, relayId]);
    if (capabilities.length === 0) return;
    await manager.query(
      `INSERT INTO relay_capabilities (organization_id, id, relay_id, integration_id, capability_id, capability_version)
       SELECT $1, gen_random_uuid(), $2, c.integration_id, c.capability_id, c.capability_version
         FROM unnest($3::uuid[], $4::text[], $5::int[]) AS c(integration_id, capability_id, capability_version)
       ON CONFLICT DO NOTHING`,
      [
        organizationId,
        relayId,
        capabilities.map((c) => c.integrationId),
        capabilities.map((c) => c.capabilityId),
        capabilities.map((c) => c.capabilityVersion),
      ],
    );
  }

  /** What these relays advertise, in a stable order. */
  async capabilitiesOf(
    organizationId: string,
    relayIds: string[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<(AdvertisedCapability & { relayId: string })[]> {
    if (relayIds.length === 0) return [];
    const rows = (await manager.query(
      `SELECT relay_id, integration_id, capability_id, capability_version FROM relay_capabilities
        WHERE organization_id = $1 AND relay_id = ANY($2::uuid[]) ORDER BY relay_id, integration_id, capability_id`,
      [organizationId, relayIds],
    )) as { relay_id: string; integration_id: string; capability_id: string; capability_version: number }[];
    return rows.map((r) => ({ relayId: r.relay_id, integrationId: r.integration_id, capabilityId: r.capability_id, capabilityVersion: r.capability_version }));
  }

  /** One page of the integrations a relay serves, by integration id, each with its capabilities. */
  async integrationsPage(
    organizationId: string,
    relayId: string,
    afterIntegrationId: string | null,
    limit: number,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<RelayIntegrationRow[]> {
    const rows = (await manager.query(
      `SELECT integration_id, jsonb_agg(jsonb_build_object('capabilityId', capability_id, 'capabilityVersion', capability_version) ORDER BY capability_id) AS capabilities
         FROM relay_capabilities
        WHERE organization_id = $1 AND relay_id = $2 AND ($3::uuid IS NULL OR integration_id > $3::uuid)
        GROUP BY integration_id ORDER BY integration_id LIMIT $4`,
      [organizationId, relayId, afterIntegrationId, limit],
    )) as { integration_id: string; capabilities: { capabilityId: string; capabilityVersion: number }[] }[];
    return rows.map((r) => ({ integrationId: r.integration_id, capabilities: r.capabilities }));
  }

  /** How many relays are connected (a session heard from within `leaseSeconds`), offline, or in conflict (which wins). */
  async summary(organizationId: string, leaseSeconds: number, manager: EntityManager = this.dataSource.manager): Promise<RelaySummaryCounts> {
    const rows = (await manager.query(
      `SELECT count(*)::int AS total,
              count(*) FILTER (WHERE s.conflict)::int AS conflict,
              count(*) FILTER (WHERE NOT s.conflict AND s.live)::int AS connected
         FROM (SELECT EXISTS (SELECT 1 FROM relay_session_conflicts c WHERE c.organization_id = r.organization_id AND c.relay_id = r.id AND c.cleared_at IS NULL) AS conflict,
                      (r.session_id IS NOT NULL AND r.last_seen_at >= clock_timestamp() - make_interval(secs => $2)) AS live
                 FROM relays r WHERE r.organization_id = $1) s`,
      [organizationId, leaseSeconds],
    )) as { total: number; connected: number; conflict: number }[];
    const { total, connected, conflict } = rows[0];
    return { total, connected, conflict, offline: total - connected - conflict };
  }

  /** Wakes every API process: the registration's session changed (ended by an Admin). */
  async notifySessionChanged(organizationId: string, relayId: string, manager: EntityManager = this.dataSource.manager): Promise<void> {
    await manager.query('SELECT pg_notify($1, $2)', [RELAY_CHANNEL, JSON.stringify({ kind: 'session', organizationId, relayId })]);
  }

  /**
   * For each job in order, what its relay is like: whether it holds a live session and offers the
   * capability for the integration (undefined: no such relay in the job's Organization). One statement.
   */
  async readiness(jobs: JobTarget[], leaseSeconds: number, manager: EntityManager = this.dataSource.manager): Promise<(JobReadiness | undefined)[]> {
    // The batch goes as one JSON parameter: serialized natively, where arrays are escaped element by element.
    const targets = jobs.map((j, n) => ({
      n,
      organization_id: j.organizationId,
      relay_id: j.relayId,
      integration_id: j.integrationId,
      capability_id: j.capabilityId,
    }));
    const rows = (await manager.query(
      `SELECT r.id IS NOT NULL AS found, r.name, r.last_seen_at,
              (r.session_id IS NOT NULL AND r.last_seen_at >= clock_timestamp() - make_interval(secs => $2)) AS live,
              EXISTS (SELECT 1 FROM relay_capabilities c
                       WHERE c.organization_id = q.organization_id AND c.relay_id = q.relay_id
                         AND c.integration_id = q.integration_id AND c.capability_id = q.capability_id) AS advertised
         FROM json_to_recordset($1::json) AS q(n int, organization_id text, relay_id uuid, integration_id uuid, capability_id text)
         LEFT JOIN relays r ON r.organization_id = q.organization_id AND r.id = q.relay_id
        ORDER BY q.n`,
      [JSON.stringify(targets), leaseSeconds],
    )) as { found: boolean; name: string | null; last_seen_at: Timestamp | null; live: boolean | null; advertised: boolean }[];
    return rows.map((r) => (r.found ? { name: r.name!, live: r.live === true, lastSeenAt: r.last_seen_at, advertised: r.advertised } : undefined));
  }

  /**
   * Records ended jobs: the first outcome of a job stands, a later one is not recorded, nor a job
   * whose relay was deleted meanwhile. Text PostgreSQL cannot store (NUL, lone surrogates) is
   * recorded as U+FFFD, so one job's odd text never fails the others' records. Answers, in order, whether each was recorded. One statement.
   */
  async recordOutcomes(records: JobRecord[], manager: EntityManager = this.dataSource.manager): Promise<boolean[]> {
    if (records.length === 0) return [];
    const rows = (await manager.query(
      `INSERT INTO relay_jobs (organization_id, id, relay_id, integration_id, capability_id, capability_version, source, request,
                               status, result_status, result_truncated, error, created_at, finished_at)
       SELECT q.organization_id, q.id, q.relay_id, q.integration_id, q.capability_id, q.capability_version, q.source, q.request,
              q.status, q.result_status, q.truncated, q.error, LEAST(to_timestamp(q.queued_at / 1000.0), clock_timestamp()), clock_timestamp()
         FROM json_to_recordset($1::json) AS q(organization_id text, id uuid, relay_id uuid, integration_id uuid, capability_id text,
                                              capability_version int, source text, request jsonb, status text, result_status int,
                                              truncated boolean, error text, queued_at float8)
         JOIN relays r ON r.organization_id = q.organization_id AND r.id = q.relay_id
       ON CONFLICT (organization_id, id) DO NOTHING
       RETURNING organization_id, id`,
      [
        JSON.stringify(
          records.map((r) => ({
            organization_id: r.organizationId,
            id: r.id,
            relay_id: r.relayId,
            integration_id: r.integrationId,
            capability_id: r.capabilityId,
            capability_version: r.capabilityVersion,
            source: storableText(r.source),
            request: {
              ...r.request,
              path: storableText(r.request.path),
              query: r.request.query.map(([name, value]) => [storableText(name), storableText(value)]),
            },
            status: r.status,
            result_status: r.resultStatus,
            truncated: r.truncated,
            error: r.error === null ? null : storableText(r.error),
            queued_at: r.queuedAt,
          })),
        ),
      ],
    )) as { organization_id: string; id: string }[];
    const recorded = new Set(rows.map((r) => `${r.organization_id}/${r.id}`));
    return records.map((r) => recorded.has(`${r.organizationId}/${r.id}`));
  }

  /** The database's clock, which every lease is measured by. */
  async now(manager: EntityManager = this.dataSource.manager): Promise<Timestamp> {
    const rows = (await manager.query('SELECT clock_timestamp() AS now')) as { now: Timestamp }[];
    return rows[0].now;
  }
}
