import { Client } from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { InvestigationSession, RecordedRun, SourceBrief } from '@svc/investigations';
import { DatastoreClient, DatastoreEndpoint } from '@svc/datastores';
import { datastoreConnectionsExplainer, datastoreLocksExplainer, detectionScopeOf, explainCauses, MetricPresence } from '@svc/investigations/engine';
import { DataSourceConnection, ToolCatalog } from '@svc/investigations/tools';
import { AppConfig, OutboundClient, Timestamp } from '@svc/platform';
import { PostgresServer } from '../support/postgres-server';
import { recordRun } from '../support/scripted-prometheus';
import { until } from '../support/until';

const PROMETHEUS: SourceBrief = { integrationId: 'p', type: 'prometheus', name: 'Prometheus', rank: 1, reason: '' };
const SHOP_DB = '0190a0b0-0000-7000-8000-0000000000d7';

/**
 * The built-in reasoner's lock explainer reading a real PostgreSQL through the real tool catalog:
 * a transaction holds a row lock that sessions wait for, and the explainer is to name its holder,
 * date it by the transaction's start and verify the mechanism when the waiting sessions are the
 * alerting service's.
 */
describe('the datastore lock explainer against a real PostgreSQL', () => {
  let server: PostgresServer;
  let catalog: ToolCatalog;
  const held: Client[] = [];

  const endpoint: () => DatastoreEndpoint = () => ({
    kind: 'postgresql',
    host: '127.0.0.1',
    port: server.port,
    database: 'shop',
    tls: 'disable',
    username: 'investigator',
    password: 'monitor-secret',
  });

  /** A session whose PostgreSQL runs go through the real catalog; Prometheus is never asked. */
  function session(services: string[], window: { from: Timestamp; until: Timestamp }): InvestigationSession & { runs: RecordedRun[] } {
    const runs: RecordedRun[] = [];
    const datastore: SourceBrief = { integrationId: SHOP_DB, type: 'postgresql', name: 'Shop database', rank: 2, reason: '', services };
    const connection: DataSourceConnection = { integrationId: SHOP_DB, type: 'postgresql', baseUrl: '', headers: {}, endpoint: endpoint() };
    return {
      investigationId: '0190a000-0000-7000-8000-000000000009',
      subject: 'What caused it?',
      window,
      conversation: null,
      incident: null,
      alerts: [],
      sources: [PROMETHEUS, datastore],
      tools: [],
      budgets: { toolRuns: 40, reasonerTurns: 12, wallClockSeconds: 300, stagnationTurns: 3, contextTokens: 100_000 },
      signal: new AbortController().signal,
      runs,
      beginTurn: () => undefined,
      recordUsage: async () => undefined,
      progress: async () => undefined,
      updateHypotheses: async () => undefined,
      noteRollout: async () => null,
      noteCalls: async () => undefined,
      runTool: async (call) => {
        if (call.integrationId !== SHOP_DB) throw new Error(`only the datastore is read here, not ${call.tool}`);
        const result = await catalog.run(call.tool, call.arguments, { connection, window, signal: new AbortController().signal });
        return Object.assign(recordRun(runs, call, result.output, result.summary), { outcome: result.outcome, error: result.error ?? null });
      },
    };
  }

  const connect = async (application: string) => {
    const client = server.client({ user: 'shop', password: 'shop-secret', database: 'shop', application });
    await client.connect();
    held.push(client);
    return client;
  };

  /** `holder` takes a row lock in a transaction and `waiter` sessions wait for it; resolves once they wait. */
  async function lockWait(holder: string, waiter: string, waiters = 2): Promise<{ pid: number; startedAt: Timestamp }> {
    const batch = await connect(holder);
    const [{ pid }] = (await batch.query('SELECT pg_backend_pid() AS pid')).rows;
    await batch.query('BEGIN');
    const [{ at }] = (await batch.query(`SELECT to_char(transaction_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at`)).rows;
    await batch.query(`UPDATE orders SET status = 'archived' WHERE id = 1`);
    for (let i = 0; i < waiters; i++) (await connect(waiter)).query(`UPDATE orders SET status = 'paid' WHERE id = 1`).catch(() => undefined);
    const admin = server.client();
    await admin.connect();
    await until(
      async () => (await admin.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock'`)).rows[0].n === waiters,
      10_000,
      'the sessions to wait',
    );
    await admin.end();
    return { pid, startedAt: Timestamp.parse(at)! };
  }

  const explain = (services: string[], alert: Record<string, string>, onset: Timestamp, explainer = datastoreLocksExplainer) => {
    const s = session(services, { from: onset.plusSeconds(-1800), until: onset.plusSeconds(300) });
    return explainCauses(s, PROMETHEUS, detectionScopeOf([alert], onset, true), [explainer], MetricPresence.UNKNOWN).then((found) => ({ found, runs: s.runs }));
  };

  /** When the last of the connections now open was opened, as the database says. */
  const lastOpened = async (): Promise<Timestamp> => {
    const admin = server.client();
    await admin.connect();
    const { rows } = await admin.query(
      `SELECT to_char(max(backend_start) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()`,
    );
    await admin.end();
    return Timestamp.parse(rows[0].at)!;
  };

  beforeAll(async () => {
    // Ten connection slots for ordinary users: 12, less the 2 kept for superusers.
    server = await PostgresServer.start({ max_connections: 12, superuser_reserved_connections: 2 });
    await server.createShop();
    const outbound = new OutboundClient(new AppConfig());
    catalog = new ToolCatalog(undefined, { outbound, datastores: new DatastoreClient(outbound) });
  });

  afterEach(async () => {
    await Promise.all(held.splice(0).map((c) => c.end().catch(() => undefined)));
  });

  afterAll(async () => {
    await server?.stop();
  });

  it("names the transaction the alerting service's sessions wait for, dated by its start, with its mechanism verified", async () => {
    const { pid, startedAt } = await lockWait('nightly-batch', 'checkout');
    const { found, runs } = await explain(['checkout'], { alertname: 'CheckoutLatencyHigh', job: 'checkout', service: 'checkout' }, startedAt.plusSeconds(20));

    expect(runs.map((r) => r.tool)).toEqual(['postgresql.locks']);
    expect(found.causes).toHaveLength(1);
    const [cause] = found.causes;
    expect(cause.at.toISOString()).toBe(startedAt.toISOString());
    expect(cause.statement).toBe(
      `A transaction of pid ${pid} (nightly-batch, user shop) in Shop database held locks from ${startedAt.toISOString()} that 2 session(s) of checkout waited for, and caused the alert's condition`,
    );
    expect(cause.mechanism).toContain(`PostgreSQL showed 2 session(s) of checkout waiting for locks behind pid ${pid}`);
    expect(cause.mechanism).toContain(`SET status = 'archived'`);
    expect(cause.mechanismRuns).toEqual([runs[0].ordinal]);
    expect(cause.unexplained).toEqual(['why nightly-batch kept its transaction open']);
    expect(cause.action.title).toBe(
      `End the transaction of pid ${pid} (nightly-batch, user shop) in Shop database, then find why nightly-batch holds transactions open`,
    );
  });

  it("leaves the mechanism open when the waiting sessions are not the alerting service's", async () => {
    const { startedAt } = await lockWait('nightly-batch', 'reports', 1);
    const { found } = await explain(['checkout'], { alertname: 'CheckoutLatencyHigh', service: 'checkout' }, startedAt.plusSeconds(20));
    expect(found.causes).toHaveLength(1);
    expect(found.causes[0].mechanismRuns).toEqual([]);
    expect(found.causes[0].unexplained).toContain("whether the waiting sessions (reports) are checkout's");
  });

  it('finds no cause in a lock taken well after the condition began', async () => {
    const { startedAt } = await lockWait('nightly-batch', 'checkout', 1);
    const { found, runs } = await explain(['checkout'], { alertname: 'CheckoutLatencyHigh', service: 'checkout' }, startedAt.plusSeconds(-600));
    expect(runs.map((r) => r.tool)).toEqual(['postgresql.locks']);
    expect(found.causes).toEqual([]);
  });

  it('does not read a datastore that serves other services', async () => {
    await lockWait('nightly-batch', 'checkout', 1);
    const { found, runs } = await explain(['billing'], { alertname: 'CheckoutLatencyHigh', service: 'checkout' }, Timestamp.now());
    expect(runs).toEqual([]);
    expect(found.causes).toEqual([]);
    expect(found.notLookedFor).toEqual([]);
  });

  it('names the application that took the connections the alerting service needed, dated by its last one', async () => {
    await connect('checkout');
    for (let i = 0; i < 8; i++) await connect('report-batch');
    const filled = await lastOpened();
    const { found, runs } = await explain(
      ['checkout'],
      { alertname: 'CheckoutErrors', service: 'checkout' },
      filled.plusSeconds(20),
      datastoreConnectionsExplainer,
    );

    expect(runs.map((r) => r.tool)).toEqual(['postgresql.connections']);
    expect(found.causes).toHaveLength(1);
    const [cause] = found.causes;
    expect(cause.at.toISOString()).toBe(filled.toISOString());
    expect(cause.statement).toBe(
      `report-batch took 8 of the 10 connections in use (max_connections 12, 0 left) of Shop database, the last at ${filled.toISOString()}, and caused the alert's condition`,
    );
    expect(cause.mechanismRuns).toEqual([runs[0].ordinal]);
    expect(cause.unexplained).toEqual(['why report-batch opened 8 connections']);
  });

  it('leaves the mechanism open when the alerting service holds the connections itself, and finds nothing with slots to spare', async () => {
    for (let i = 0; i < 8; i++) await connect('checkout');
    const own = await explain(
      ['checkout'],
      { alertname: 'CheckoutErrors', service: 'checkout' },
      (await lastOpened()).plusSeconds(20),
      datastoreConnectionsExplainer,
    );
    expect(own.found.causes[0].mechanismRuns).toEqual([]);
    expect(own.found.causes[0].unexplained[0]).toBe('why checkout, the alerting service itself, opened so many connections');

    await Promise.all(held.splice(0, 6).map((c) => c.end()));
    const spare = await explain(
      ['checkout'],
      { alertname: 'CheckoutErrors', service: 'checkout' },
      (await lastOpened()).plusSeconds(20),
      datastoreConnectionsExplainer,
    );
    expect(spare.runs.map((r) => r.tool)).toEqual(['postgresql.connections']);
    expect(spare.found.causes).toEqual([]);
  });
});
