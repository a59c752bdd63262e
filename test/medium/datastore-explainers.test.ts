import { Client } from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { InvestigationSession, RecordedRun, SourceBrief, ToolCall } from '@svc/investigations';
import { DatastoreClient, DatastoreEndpoint } from '@svc/datastores';
import {
  brokerQueuesExplainer,
  datastoreConnectionsExplainer,
  datastoreLocksExplainer,
  dependencyExplainer,
  detectionScopeOf,
  Explainer,
  explainCauses,
  MetricPresence,
} from '@svc/investigations/engine';
import { DataSourceConnection, ToolCatalog } from '@svc/investigations/tools';
import { AppConfig, OutboundClient, Timestamp } from '@svc/platform';
import { PostgresServer } from '../support/postgres-server';
import { RABBITMQ_MANAGEMENT, RabbitmqVhost } from '../support/rabbitmq-vhost';
import { recordRun, Series, sessionOf } from '../support/scripted-prometheus';
import { until } from '../support/until';

const PROMETHEUS: SourceBrief = { integrationId: 'p', type: 'prometheus', name: 'Prometheus', rank: 1, reason: '' };
const SHOP_DB = '0190a0b0-0000-7000-8000-0000000000d7';

/** Runs `call` on the datastore through the real tool catalog and records it; Prometheus is never asked. */
async function catalogRun(
  catalog: ToolCatalog,
  connection: DataSourceConnection,
  window: { from: Timestamp; until: Timestamp },
  call: ToolCall,
  runs: RecordedRun[],
): Promise<RecordedRun> {
  if (call.integrationId !== connection.integrationId) throw new Error(`only the datastore is read here, not ${call.tool}`);
  const result = await catalog.run(call.tool, call.arguments, { connection, window, signal: new AbortController().signal });
  return Object.assign(recordRun(runs, call, result.output, result.summary), { outcome: result.outcome, error: result.error ?? null });
}

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

  /**
   * A session whose PostgreSQL runs go through the real catalog; Prometheus answers range queries
   * from `prometheus` (none by default).
   */
  function session(
    services: string[],
    window: { from: Timestamp; until: Timestamp },
    prometheus: (query: string) => Series[] = () => [],
  ): InvestigationSession & { runs: RecordedRun[] } {
    const datastore: SourceBrief = {
      integrationId: SHOP_DB,
      type: 'postgresql',
      name: 'Shop database',
      rank: 2,
      reason: '',
      services,
      addresses: ['127.0.0.1', `127.0.0.1:${server.port}`],
    };
    const connection: DataSourceConnection = { integrationId: SHOP_DB, type: 'postgresql', baseUrl: '', headers: {}, endpoint: endpoint() };
    return sessionOf(window, [PROMETHEUS, datastore], (call, runs) =>
      call.integrationId === PROMETHEUS.integrationId
        ? recordRun(runs, call, { start: call.arguments.start, stepSeconds: 15, series: prometheus(String(call.arguments.query ?? '')) })
        : catalogRun(catalog, connection, window, call, runs),
    );
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

  const explain = (
    services: string[],
    alert: Record<string, string>,
    onset: Timestamp,
    explainers: Explainer | Explainer[] = datastoreLocksExplainer,
    prometheus?: (query: string) => Series[],
  ) => {
    const s = session(services, { from: onset.plusSeconds(-1800), until: onset.plusSeconds(300) }, prometheus);
    return explainCauses(s, PROMETHEUS, detectionScopeOf([alert], onset, true), [explainers].flat(), MetricPresence.UNKNOWN).then((found) => ({
      found,
      runs: s.runs,
    }));
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

  it('reads a datastore that serves other services when the alert names its address', async () => {
    const { pid } = await lockWait('nightly-batch', 'checkout', 1);
    const alert = { alertname: 'PostgresLockWaits', instance: `127.0.0.1:${server.port}`, service: 'checkout' };
    const { found, runs } = await explain(['billing'], alert, Timestamp.now());
    expect(runs.map((r) => r.tool)).toEqual(['postgresql.locks']);
    expect(found.causes).toHaveLength(1);
    expect(found.causes[0].statement).toContain(`A transaction of pid ${pid} (nightly-batch, user shop) in Shop database held locks`);

    const other = await explain(['billing'], { ...alert, instance: '127.0.0.1:1' }, Timestamp.now());
    expect(other.runs).toEqual([]);
  });

  it("takes over the slow calls to the database that the service's client metrics name, as their cause", async () => {
    const { pid, startedAt } = await lockWait('nightly-batch', 'checkout');
    const address = `127.0.0.1:${server.port}`;
    // checkout's p99 calling the database (OpenTelemetry's server_address) went from 10 ms to 2 s when the lock was taken.
    const slowCalls = (query: string): Series[] =>
      query.includes('histogram_quantile') && query.includes('job="checkout"')
        ? [
            {
              metric: { server_address: address },
              values: Array.from({ length: 89 }, (_, i) => {
                const at = startedAt.plusSeconds((i - 80) * 15);
                return [at.toISOString(), at.isBefore(startedAt) ? '0.01' : '2'] as [string, string];
              }),
            },
          ]
        : [];
    const alert = { alertname: 'CheckoutLatencyHigh', job: 'checkout' };
    // The database says it serves billing: only the client metric maps it to checkout.
    const { found, runs } = await explain(['billing'], alert, startedAt.plusSeconds(20), [dependencyExplainer, datastoreLocksExplainer], slowCalls);

    const [calls, locks] = [runs.find((r) => r.tool === 'prometheus.query_range')!, runs.find((r) => r.tool === 'postgresql.locks')!];
    expect(found.causes).toHaveLength(1);
    const [cause] = found.causes;
    expect(cause.statement).toContain(`A transaction of pid ${pid} (nightly-batch, user shop) in Shop database held locks`);
    expect(cause.peer).toBe(address);
    expect(cause.mechanism.startsWith(`checkout's calls to ${address} slowed at `)).toBe(true);
    expect(cause.mechanism).toContain('; PostgreSQL showed 2 session(s) of checkout waiting for locks');
    expect(cause.mechanismRuns).toEqual([calls.ordinal, locks.ordinal]);

    // Without the slow calls, the database serving billing is not read at all.
    const unmapped = await explain(['billing'], alert, startedAt.plusSeconds(20), [dependencyExplainer, datastoreLocksExplainer]);
    expect(unmapped.runs.map((r) => r.tool)).not.toContain('postgresql.locks');
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

/**
 * The built-in reasoner's broker queue explainer reading the machine's RabbitMQ through the real
 * tool catalog (management API): the consumer of a queue goes away while a publisher keeps
 * publishing, and the explainer is to name the queue, date it by its oldest message and list who is
 * still connected.
 */
describe('the broker queue explainer against a real RabbitMQ', () => {
  const BROKER = '0190a0b0-0000-7000-8000-0000000000e1';
  const vhost = new RabbitmqVhost('svc-explainers');
  const catalog = new ToolCatalog();

  const explain = (services: string[], alert: Record<string, string>, onset: Timestamp) => {
    const window = { from: onset.plusSeconds(-1800), until: onset.plusSeconds(300) };
    const broker: SourceBrief = { integrationId: BROKER, type: 'rabbitmq', name: 'Orders broker', rank: 2, reason: '', services };
    const connection: DataSourceConnection = {
      integrationId: BROKER,
      type: 'rabbitmq',
      baseUrl: RABBITMQ_MANAGEMENT,
      headers: { authorization: vhost.monitorAuthorization },
    };
    const s = sessionOf(window, [PROMETHEUS, broker], (call, runs) => catalogRun(catalog, connection, window, call, runs));
    return explainCauses(s, PROMETHEUS, detectionScopeOf([alert], onset, false), [brokerQueuesExplainer], MetricPresence.UNKNOWN).then((found) => ({
      found,
      runs: s.runs,
    }));
  };

  /** `queue`'s consumer (orders-worker) goes away; checkout publishes `count` messages stamped `publishedAt` (Unix seconds) that stay. */
  async function consumerGone(queue: string, count: number, publishedAt: number): Promise<void> {
    const worker = await vhost.connect('orders-worker');
    const consuming = await worker.createChannel();
    await consuming.assertQueue(queue);
    await consuming.consume(queue, (message) => message && consuming.ack(message));
    await worker.close();
    const publishing = await (await vhost.connect('checkout')).createConfirmChannel();
    for (let i = 0; i < count; i++) publishing.sendToQueue(queue, Buffer.from(`order ${i}`), { timestamp: publishedAt });
    await publishing.waitForConfirms();
    await until(
      async () => {
        const read = await catalog.run(
          'rabbitmq.queues',
          { vhost: vhost.name, name: queue },
          {
            connection: { integrationId: BROKER, type: 'rabbitmq', baseUrl: RABBITMQ_MANAGEMENT, headers: { authorization: vhost.monitorAuthorization } },
            window: { from: Timestamp.now().plusSeconds(-60), until: Timestamp.now() },
            signal: new AbortController().signal,
          },
        );
        const q = (
          read.output as { queues?: Array<{ name: string; messages: number; ready: number; consumers: number; oldestMessageSeconds: number | null }> } | null
        )?.queues?.find((x) => x.name === queue);
        // The management plugin's statistics come in separately: the explainers date the wait by the head message's timestamp.
        return q?.messages === count && q.ready === count && q.consumers === 0 && q.oldestMessageSeconds !== null;
      },
      20_000,
      `${queue} to show ${count} ready messages, its oldest message's timestamp and no consumer`,
    );
    // The management plugin lists connections apart from queues, and under load later: wait for checkout's to be listed and the worker's to be gone.
    await until(
      async () => {
        const read = await catalog.run(
          'rabbitmq.connections',
          { vhost: vhost.name },
          {
            connection: { integrationId: BROKER, type: 'rabbitmq', baseUrl: RABBITMQ_MANAGEMENT, headers: { authorization: vhost.monitorAuthorization } },
            window: { from: Timestamp.now().plusSeconds(-60), until: Timestamp.now() },
            signal: new AbortController().signal,
          },
        );
        const names = ((read.output as { byConnectionName?: Array<{ connectionName: string }> } | null)?.byConnectionName ?? []).map((g) => g.connectionName);
        return names.includes('checkout') && !names.includes('orders-worker');
      },
      20_000,
      'the broker to list checkout connected and orders-worker gone',
    );
  }

  beforeAll(() => vhost.create());
  afterEach(async () => {
    await vhost.closeConnections();
    await vhost.deleteQueues();
  });
  afterAll(() => vhost.drop());

  it('names the queue the alert names, dated by its oldest message, with who is still connected', async () => {
    const publishedAt = Math.floor(Date.now() / 1000) - 90;
    await consumerGone('parcels', 12, publishedAt);
    const { found, runs } = await explain(
      ['parcels'],
      { alertname: 'OrdersBacklog', queue: 'parcels', service: 'parcels' },
      Timestamp.fromEpochMicros(BigInt(publishedAt + 20) * 1_000_000n),
    );

    expect(runs.map((r) => [r.tool, r.arguments])).toEqual([
      ['rabbitmq.queues', { name: 'parcels' }],
      ['rabbitmq.connections', { vhost: vhost.name }],
    ]);
    expect(found.causes).toHaveLength(1);
    const [cause] = found.causes;
    // Dated by the oldest message's publish stamp; its age is read in whole seconds, so the second may differ by one or two.
    const dated = Number(cause.at.epochMicros / 1_000_000n);
    expect([publishedAt - 2, publishedAt - 1, publishedAt, publishedAt + 1, publishedAt + 2]).toContain(dated);
    expect(cause.statement).toBe(
      `Queue parcels (${vhost.name}) in Orders broker lost its consumers and its messages waited from ${cause.at.toISOString()}, and caused the alert's condition`,
    );
    expect(cause.mechanism).toMatch(
      /^RabbitMQ showed 12 messages in parcels \(12 ready\) and no consumer.*; its oldest message was published \d+ s before the read/,
    );
    expect(cause.mechanism).toContain('; the connections open now: checkout (1)');
    expect(cause.mechanismRuns).toEqual([runs[0].ordinal]);
    expect(cause.chainRuns).toEqual([runs[1].ordinal]);
    expect(cause.unexplained).toEqual(['why the consumers of parcels went away']);
  });

  it('picks, among queues without consumers, the one named after the alerting service when the alert names no queue', async () => {
    const publishedAt = Math.floor(Date.now() / 1000) - 60;
    await consumerGone('billing-events', 5, publishedAt);
    await consumerGone('parcels-created', 7, publishedAt);
    const { found } = await explain(
      ['parcels'],
      { alertname: 'OrdersProcessingLag', service: 'parcels' },
      Timestamp.fromEpochMicros(BigInt(publishedAt + 20) * 1_000_000n),
    );
    expect(found.causes).toHaveLength(1);
    expect(found.causes[0].statement).toMatch(/^Queue parcels-created /);
  });

  it('finds no cause in messages that began to wait well after the condition began, nor in a broker serving other services', async () => {
    const publishedAt = Math.floor(Date.now() / 1000) - 30;
    await consumerGone('parcels-late', 3, publishedAt);
    const late = await explain(
      ['parcels'],
      { alertname: 'OrdersBacklog', queue: 'parcels-late', service: 'parcels' },
      Timestamp.fromEpochMicros(BigInt(publishedAt - 600) * 1_000_000n),
    );
    expect(late.runs.map((r) => r.tool)).toEqual(['rabbitmq.queues']);
    expect(late.found.causes).toEqual([]);

    const elsewhere = await explain(
      ['billing'],
      { alertname: 'OrdersBacklog', queue: 'parcels-late', service: 'parcels' },
      Timestamp.fromEpochMicros(BigInt(publishedAt + 20) * 1_000_000n),
    );
    expect(elsewhere.runs).toEqual([]);
    expect(elsewhere.found.causes).toEqual([]);
  });
});
