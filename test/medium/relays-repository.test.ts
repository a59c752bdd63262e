import { DataSource } from 'typeorm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hashRelaySecret, RelaysRepository } from '@svc/relays';
import { dataSourceOptions, newId } from '@svc/platform';
import { createTestDatabase } from '../support/databases';
import { lockable, organizationRows } from '../support/tenancy';

const A = 'org-a';
const B = 'org-b';
const TABLES = ['relays', 'relay_bootstrap_tokens', 'relay_capabilities', 'relay_session_conflicts', 'relay_jobs'];

/**
 * Both Organizations hold a relay with the same id, in the same state (a live session, an open
 * conflict, capabilities for the same integration); every Organization-bounded statement runs for
 * A and leaves B's rows as they were. Every test starts from these rows as they are described
 * (written anew before each test), whatever the tests before it changed.
 */
describe('RelaysRepository keeps to one Organization', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let dataSource: DataSource;
  let repository: RelaysRepository;
  const relayId = newId();
  const integrationId = newId();
  const sessionId = newId();
  const registeredWith = newId();
  const snapshotB = () => organizationRows(dataSource, B, TABLES);

  beforeAll(async () => {
    db = await createTestDatabase();
    dataSource = await new DataSource(dataSourceOptions({ url: db.url })).initialize();
    repository = new RelaysRepository(dataSource);
    for (const org of [B, A]) await dataSource.query(`INSERT INTO organizations (id, display_name) VALUES ($1, $1)`, [org]);
  });
  beforeEach(async () => {
    for (const table of ['relay_jobs', 'relay_session_conflicts', 'relay_capabilities', 'relays', 'relay_bootstrap_tokens'])
      await dataSource.query(`DELETE FROM ${table}`);
    for (const org of [B, A]) {
      // The token the relay registered with, used up.
      await dataSource.query(
        `INSERT INTO relay_bootstrap_tokens (organization_id, id, name, token_hash, created_by, expires_at, used_at)
         VALUES ($1, $2, 'edge', $3, $4, clock_timestamp() + interval '1 hour', clock_timestamp())`,
        [org, registeredWith, hashRelaySecret(`registered-${org}`), newId()],
      );
      await dataSource.query(
        `INSERT INTO relays (organization_id, id, name, credential_hash, bootstrap_token_id, session_id, session_instance, last_seen_at)
         VALUES ($1, $2, 'edge', $3, $4, $5, 'instance-1', clock_timestamp())`,
        [org, relayId, hashRelaySecret(`credential-${org}`), registeredWith, sessionId],
      );
      await dataSource.query(
        `INSERT INTO relay_capabilities (organization_id, id, relay_id, integration_id, capability_id, capability_version) VALUES ($1, $2, $3, $4, 'prometheus.query', 1)`,
        [org, newId(), relayId, integrationId],
      );
      await dataSource.query(`INSERT INTO relay_session_conflicts (organization_id, id, relay_id, address) VALUES ($1, $2, $3, '10.0.0.9')`, [
        org,
        newId(),
        relayId,
      ]);
      await dataSource.query(
        `INSERT INTO relay_bootstrap_tokens (organization_id, id, name, token_hash, created_by, expires_at) VALUES ($1, $2, 'edge', $3, $4, clock_timestamp() + interval '1 hour')`,
        [org, newId(), hashRelaySecret(`token-${org}`), newId()],
      );
    }
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });

  it('uses a bootstrap token once, only the one with that hash, and never an expired one', async () => {
    const before = await snapshotB();
    const used = await repository.consumeBootstrapTokenAcrossOrganizations(hashRelaySecret(`token-${A}`));
    expect(used).toMatchObject({ organizationId: A, name: 'edge' });
    expect(await repository.consumeBootstrapTokenAcrossOrganizations(hashRelaySecret(`token-${A}`))).toBeUndefined();
    await dataSource.query(
      `INSERT INTO relay_bootstrap_tokens (organization_id, id, name, token_hash, created_by, expires_at) VALUES ($1, $2, 'old', $3, $4, clock_timestamp() - interval '1 second')`,
      [A, newId(), hashRelaySecret('expired'), newId()],
    );
    expect(await repository.consumeBootstrapTokenAcrossOrganizations(hashRelaySecret('expired'))).toBeUndefined();
    expect(await snapshotB()).toEqual(before);
  });

  it('finds a relay by its credential with its own Organization', async () => {
    expect(await repository.findByCredentialAcrossOrganizations(hashRelaySecret(`credential-${A}`))).toEqual({ organizationId: A, id: relayId, name: 'edge' });
    expect(await repository.findByCredentialAcrossOrganizations(hashRelaySecret(`credential-${B}`))).toMatchObject({ organizationId: B });
    expect(await repository.findByCredentialAcrossOrganizations(hashRelaySecret('unknown'))).toBeUndefined();
  });

  it('claims, touches, releases and ends only the Organization’s session', async () => {
    const before = await snapshotB();
    // Held live by another process, with an open conflict: refused.
    expect(await repository.claimSession(A, relayId, newId(), 'instance-2', 30, null)).toBe(false);
    // The process that holds it takes it back.
    const mine = newId();
    expect(await repository.claimSession(A, relayId, mine, 'instance-1', 30, '1.2.3')).toBe(true);
    expect(await repository.touchSession(A, relayId, mine)).toBe(true);
    expect(await repository.touchSession(A, relayId, sessionId)).toBe(false);
    expect(await repository.releaseSession(A, relayId, mine)).toBe(true);
    expect(await repository.releaseSession(A, relayId, mine)).toBe(false);
    expect(await repository.claimSession(A, relayId, mine, 'instance-1', 30, null)).toBe(true);
    await repository.endSession(A, relayId);
    const [row] = await dataSource.query('SELECT session_id, session_instance, version FROM relays WHERE organization_id = $1', [A]);
    expect(row).toEqual({ session_id: null, session_instance: null, version: '1.2.3' });
    expect(await snapshotB()).toEqual(before);
  });

  it('records and clears conflicts of the Organization only', async () => {
    const before = await snapshotB();
    expect(await repository.withOpenConflicts(A, [relayId])).toEqual(new Set([relayId]));
    expect(await repository.recordConflict(A, relayId, newId(), '10.0.0.10')).toEqual({ opened: false });
    expect(await repository.clearConflicts(A, relayId, newId())).toBe(1);
    expect(await repository.withOpenConflicts(A, [relayId])).toEqual(new Set());
    expect(await repository.recordConflict(A, relayId, newId(), '10.0.0.11')).toEqual({ opened: true });
    const rows = await dataSource.query(
      'SELECT attempts, cleared_at IS NULL AS open FROM relay_session_conflicts WHERE organization_id = $1 ORDER BY occurred_at',
      [A],
    );
    expect(rows).toEqual([
      { attempts: 2, open: false },
      { attempts: 1, open: true },
    ]);
    expect(await snapshotB()).toEqual(before);
  });

  it('replaces and lists capabilities of the Organization only', async () => {
    const before = await snapshotB();
    const other = newId();
    await repository.replaceCapabilities(A, relayId, [
      { integrationId, capabilityId: 'prometheus.query', capabilityVersion: 1 },
      { integrationId, capabilityId: 'prometheus.targets', capabilityVersion: 1 },
      { integrationId: other, capabilityId: 'alertmanager.alerts', capabilityVersion: 1 },
    ]);
    expect(await repository.capabilitiesOf(A, [relayId])).toHaveLength(3);
    const all = await repository.integrationsPage(A, relayId, null, 10);
    expect(all.map((r) => r.integrationId)).toEqual([integrationId, other].sort());
    expect(all.find((r) => r.integrationId === integrationId)!.capabilities).toEqual([
      { capabilityId: 'prometheus.query', capabilityVersion: 1 },
      { capabilityId: 'prometheus.targets', capabilityVersion: 1 },
    ]);
    expect(await repository.integrationsPage(A, relayId, all[0].integrationId, 10)).toEqual([all[1]]);
    expect(await snapshotB()).toEqual(before);
  });

  it('summarises the Organization’s relays only', async () => {
    const before = await snapshotB();
    // As described, a live session with an open conflict: in conflict.
    expect(await repository.summary(A, 30)).toEqual({ total: 1, connected: 0, offline: 0, conflict: 1 });
    await repository.endSession(A, relayId);
    await repository.clearConflicts(A, relayId, null);
    expect(await repository.summary(A, 30)).toEqual({ total: 1, connected: 0, offline: 1, conflict: 0 });
    expect(await repository.summary(B, 30)).toEqual({ total: 1, connected: 0, offline: 0, conflict: 1 });
    expect(await snapshotB()).toEqual(before);
  });

  it('checks relays and records ended jobs of the Organization only', async () => {
    const jobId = newId();
    const request = { path: 'api/v1/query', query: [['query', 'up']] as [string, string][], timeoutMs: 1000, maxBytes: 1024 };
    // B's record of a job with the same id.
    await dataSource.query(
      `INSERT INTO relay_jobs (organization_id, id, relay_id, integration_id, capability_id, capability_version, source, request, status, finished_at)
       VALUES ($1, $2, $3, $4, 'prometheus.query', 1, '/api/v1/query', $5, 'failed', clock_timestamp())`,
      [B, jobId, relayId, integrationId, JSON.stringify(request)],
    );
    const before = await snapshotB();
    const target = { organizationId: A, relayId, integrationId, capabilityId: 'prometheus.query' };
    expect(
      await repository.readiness(
        [
          target,
          // Not offered for this integration, and a relay A does not have.
          { ...target, integrationId: newId() },
          { ...target, relayId: newId() },
        ],
        30,
      ),
    ).toEqual([
      { name: 'edge', live: true, lastSeenAt: expect.anything(), advertised: true },
      { name: 'edge', live: true, lastSeenAt: expect.anything(), advertised: false },
      undefined,
    ]);
    await repository.endSession(A, relayId);
    expect(await repository.readiness([target], 30)).toEqual([{ name: 'edge', live: false, lastSeenAt: expect.anything(), advertised: true }]);

    const queuedAt = Date.now() - 2_000;
    const record = {
      organizationId: A,
      id: jobId,
      relayId,
      integrationId,
      capabilityId: 'prometheus.query',
      capabilityVersion: 1,
      source: '/api/v1/query?query=up',
      request,
      queuedAt,
      status: 'succeeded' as const,
      resultStatus: 200,
      truncated: false,
      error: null,
    };
    expect(
      await repository.recordOutcomes([
        record,
        // A relay A does not have: not recorded.
        { ...record, id: newId(), relayId: newId() },
      ]),
    ).toEqual([true, false]);
    // Text PostgreSQL cannot store (a relay's error, a query's value) is recorded as U+FFFD, and
    // fails neither that record nor the others of its statement.
    const odd = { ...record, id: newId(), status: 'failed' as const, resultStatus: null, truncated: null, error: 'bad\u0000answer \ud800' };
    const oddQuery = { ...record, id: newId(), request: { ...request, query: [['query', 'up\u0000\udc00']] as [string, string][] } };
    expect(await repository.recordOutcomes([odd, oddQuery])).toEqual([true, true]);
    expect(
      await dataSource.query('SELECT error, request FROM relay_jobs WHERE organization_id = $1 AND id = ANY($2::uuid[]) ORDER BY error NULLS LAST', [
        A,
        [odd.id, oddQuery.id],
      ]),
    ).toEqual([
      { error: 'bad\ufffdanswer \ufffd', request },
      { error: null, request: { ...request, query: [['query', 'up\ufffd\ufffd']] } },
    ]);
    await dataSource.query('DELETE FROM relay_jobs WHERE organization_id = $1 AND id = ANY($2::uuid[])', [A, [odd.id, oddQuery.id]]);
    // The first outcome stands.
    expect(await repository.recordOutcomes([{ ...record, status: 'timed_out', resultStatus: null, truncated: null, error: 'late' }])).toEqual([false]);
    const rows = (await dataSource.query(
      'SELECT status, result_status, result_truncated, source, request, (extract(epoch FROM created_at) * 1000)::float8 AS created_ms, finished_at >= created_at AS ended_after FROM relay_jobs WHERE organization_id = $1',
      [A],
    )) as { status: string; result_status: number; result_truncated: boolean; source: string; request: unknown; created_ms: number; ended_after: boolean }[];
    expect(rows).toEqual([
      {
        status: 'succeeded',
        result_status: 200,
        result_truncated: false,
        source: '/api/v1/query?query=up',
        request,
        // The record starts when the job was queued.
        created_ms: queuedAt,
        ended_after: true,
      },
    ]);
    expect(await snapshotB()).toEqual(before);
  });

  it('leaves the other Organization’s rows lockable while it holds a claim open', async () => {
    // A's relay without a session or an open conflict, so that the claim below takes it (and holds its row).
    await repository.endSession(A, relayId);
    await repository.clearConflicts(A, relayId, null);
    const runner = dataSource.createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    try {
      expect(await repository.claimSession(A, relayId, newId(), 'instance-3', 30, null, runner.manager)).toBe(true);
      await repository.recordConflict(A, relayId, newId(), null, runner.manager);
      expect(await lockable(dataSource, 'relays', B)).toBe(true);
      expect(await lockable(dataSource, 'relay_session_conflicts', B)).toBe(true);
      expect(await lockable(dataSource, 'relays', A)).toBe(false);
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
  });
});
