import Redis from 'ioredis';
import type { Connection } from 'mysql2/promise';
import { Client as PgClient } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../support/api';
import { ensureBuilt } from '../support/dist';
import { useBootstrappedApi } from '../support/factories';
import { investigationEnded } from '../support/investigations';
import { MariadbServer } from '../support/mariadb-server';
import { PostgresServer } from '../support/postgres-server';
import { RABBITMQ_MANAGEMENT, RabbitmqVhost } from '../support/rabbitmq-vhost';
import { RedisServer } from '../support/redis-server';
import { until } from '../support/until';
import { startWorker, TestWorker } from '../support/worker';

const ACME = { headers: { 'x-svc-organization': 'acme' } };

/**
 * An Organization with PostgreSQL, MariaDB, Redis and RabbitMQ integrations and no Prometheus,
 * paged by alerts whose labels name a datastore (its address, its integration's name, or a service
 * it says it serves), investigated by the real worker's built-in reasoner: the datastore is read
 * with its own tools and the cause it shows is stated, dated by what the datastore tells; a healthy
 * datastore is said to be read and healthy; a datastore that could not be read is never called
 * healthy. Each datastore is a private server (or a virtual host of its own on the machine's
 * RabbitMQ) whose trouble is made here for real.
 */
describe('investigations without Prometheus read the datastores the alert names', () => {
  const ctx = useBootstrappedApi();
  let worker: TestWorker;
  let postgres: PostgresServer;
  let mariadb: MariadbServer;
  let redis: RedisServer;
  let redisAdmin: Redis;
  const broker = new RabbitmqVhost('svc-no-prometheus');
  const queue = `parcels-${broker.name.slice(-8)}`;
  let webhook: { id: string; secret: string };
  const ids: Record<string, string> = {};
  const pgHeld: PgClient[] = [];
  const mysqlHeld: Connection[] = [];

  /**
   * Delivers one alert with `labels`, starting now, to the generic webhook, opens an
   * investigation of its incident and waits for it to end.
   */
  async function investigateAlert(labels: Record<string, string>): Promise<any> {
    const alert = await new Client(ctx.api.baseUrl).request('POST', `/webhooks/v1/integrations/${webhook.id}/alert-events`, {
      body: { alerts: [{ labels, startsAt: new Date().toISOString() }] },
      headers: { 'x-svc-token': webhook.secret },
      origin: false,
    });
    expect(alert.status).toBe(202);
    const opened = await ctx.admin.post('/api/v1/investigations', { incidentId: alert.body.incidentIds[0] }, ACME);
    expect(opened.status).toBe(201);
    return investigationEnded(ctx.admin, opened.body.id, { headers: ACME.headers, timeoutMs: 60_000 });
  }

  const integration = async (body: Record<string, unknown>): Promise<string> => {
    const created = await ctx.admin.post('/api/v1/integrations', body, ACME);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body.id;
  };
  const tools = (done: any): string[] => done.runs.map((r: { tool: string }) => r.tool);
  const byKind = (done: any, kind: string) => done.findings.filter((f: { kind: string }) => f.kind === kind);

  beforeAll(async () => {
    ensureBuilt();
    [postgres, mariadb, redis] = await Promise.all([
      PostgresServer.start(),
      // One slot above what the test fills: a read's session may still hold its slot while the next read's connects.
      MariadbServer.start({ 'max-connections': 11 }),
      RedisServer.start(),
      broker.create(),
    ]);
    await postgres.createShop();
    await mariadb.admin(`
      CREATE USER 'investigator'@'%' IDENTIFIED BY 'monitor-secret';
      GRANT PROCESS, SLAVE MONITOR ON *.* TO 'investigator'@'%';
      CREATE USER 'orders'@'%' IDENTIFIED BY 'orders-secret';
      CREATE USER 'report'@'%' IDENTIFIED BY 'report-secret';`);
    redisAdmin = new Redis(redis.url);
    await redisAdmin.call(
      'ACL',
      'SETUSER',
      'investigator',
      'on',
      '>monitor-secret',
      '-@all',
      ...'+ping +info +slowlog|get +slowlog|len +latency|latest +client|list +client|setname +config|get +acl|whoami +multi +discard'.split(' '),
    );
    worker = await startWorker();

    const g = await ctx.admin.post('/api/v1/integrations', { type: 'generic', name: 'Alerts' }, ACME);
    webhook = { id: g.body.id, secret: g.body.webhookSecret };
    const credentials = { username: 'investigator', password: 'monitor-secret' };
    // Each serves a service no alert here names: only the alerts' labels point at them.
    ids.postgresql = await integration({
      type: 'postgresql',
      name: 'Shop database',
      config: { host: '127.0.0.1', port: postgres.port, database: 'shop', tls: 'disable', services: ['billing'] },
      credentials,
    });
    ids.mysql = await integration({
      type: 'mysql',
      name: 'Orders database',
      config: { host: '127.0.0.1', port: mariadb.port, tls: 'disable', services: ['orders'] },
      credentials,
    });
    ids.redis = await integration({
      type: 'redis',
      name: 'sessions-redis',
      config: { host: '127.0.0.1', port: redis.port, tls: 'disable', services: ['sessions-api'] },
      credentials,
    });
    ids.rabbitmq = await integration({
      type: 'rabbitmq',
      name: 'order-queues',
      config: { baseUrl: RABBITMQ_MANAGEMENT, services: ['parcels'] },
      credentials: broker.monitor,
    });
  }, 180_000);

  afterAll(async () => {
    await Promise.all(pgHeld.map((c) => c.end().catch(() => undefined)));
    mysqlHeld.forEach((c) => c.destroy());
    redisAdmin?.disconnect();
    await worker?.close();
    await Promise.all([postgres?.stop(), mariadb?.stop(), redis?.kill(), broker.drop()]);
  });

  it("states the transaction holding the lock that checkout waits for in the PostgreSQL its alert's instance names", async () => {
    const batch = postgres.client({ user: 'shop', password: 'shop-secret', database: 'shop', application: 'nightly-batch' });
    const checkout = postgres.client({ user: 'shop', password: 'shop-secret', database: 'shop', application: 'checkout' });
    pgHeld.push(batch, checkout);
    await Promise.all([batch.connect(), checkout.connect()]);
    await batch.query('BEGIN');
    const [{ pid }] = (await batch.query('SELECT pg_backend_pid() AS pid')).rows;
    await batch.query(`UPDATE orders SET status = 'archived' WHERE id = 1`);
    const waiting = checkout.query(`UPDATE orders SET status = 'paid' WHERE id = 1`);
    waiting.catch(() => undefined);
    const admin = postgres.client();
    await admin.connect();
    await until(
      async () => (await admin.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock'`)).rows[0].n === 1,
      10_000,
      'checkout to wait for the lock',
    );
    await admin.end();

    try {
      const done = await investigateAlert({ alertname: 'CheckoutLatencyHigh', service: 'checkout', instance: `127.0.0.1:${postgres.port}` });

      expect(done.status).toBe('concluded');
      expect(done.conclusionStatus).toBe('supported_explanation');
      expect(tools(done)).toEqual(['incident.alert_events', 'postgresql.locks', 'postgresql.connections']);
      expect(done.runs.slice(1).every((r: { integrationId: string; outcome: string }) => r.integrationId === ids.postgresql && r.outcome === 'succeeded')).toBe(
        true,
      );
      const [cause] = byKind(done, 'cause');
      expect(cause.statement).toMatch(
        new RegExp(
          `^A transaction of pid ${pid} \\(nightly-batch, user shop\\) in Shop database held locks from \\S+ that 1 session\\(s\\) of checkout waited for`,
        ),
      );
      expect(cause.mechanism).toContain(`SET status = 'archived'`);
      expect(cause.runRefs).toEqual(expect.arrayContaining([1, 2]));
      expect(done.hypotheses).toEqual([expect.objectContaining({ id: cause.hypothesisId, status: 'supported' })]);
      expect(done.actions[0].title).toContain(`End the transaction of pid ${pid} (nightly-batch, user shop) in Shop database`);
      expect(done.summary).toMatch(
        /^A transaction of pid \d+ .* waited for: [\d.-]+ min before the alert began \(\S+\), not verified as its cause: the data does not show why nightly-batch kept its transaction open\./,
      );
      expect(done.summary).toContain('Shop database (postgresql.locks (#2), postgresql.connections (#3)): 1 cause(s)');
      const limitations = done.limitations.map((l: { statement: string }) => l.statement);
      expect(limitations).toContain('No Prometheus integration is connected, so the alert could not be compared with metrics');
      expect(limitations).toContain('Not verified: the data does not show why nightly-batch kept its transaction open');
    } finally {
      await batch.query('ROLLBACK');
      await waiting;
    }
  });

  it('states the Redis at maxmemory refusing writes, named by its integration in the alert', async () => {
    const used = Number(/used_memory:(\d+)/.exec(String(await redisAdmin.info('memory')))![1]);
    await redisAdmin.config('SET', 'maxmemory-policy', 'noeviction');
    await redisAdmin.config('SET', 'maxmemory', String(used + 1024 * 1024));
    const value = 'x'.repeat(1024);
    let refused = 0;
    for (let i = 0; i < 5000 && refused < 5; i++) await redisAdmin.set(`session:${i}`, value).catch(() => (refused += 1));
    expect(refused).toBe(5);

    try {
      const done = await investigateAlert({ alertname: 'CheckoutSessionErrors', service: 'checkout', peer: 'sessions-redis' });

      expect(done.conclusionStatus).toBe('supported_explanation');
      expect(tools(done)).toEqual(['incident.alert_events', 'redis.info', 'redis.slowlog', 'redis.latency']);
      const [cause] = byKind(done, 'cause');
      expect(cause.statement).toMatch(
        /^sessions-redis reached its maxmemory at \S+ and stayed above it \([\d.]+ MiB of maxmemory [\d.]+ MiB \(\d+%, policy noeviction\)\), refusing writes with OOM, and caused the alert's condition$/,
      );
      expect(cause.mechanism).toContain('5 command(s) refused with OOM since start');
      expect(done.summary).toContain('sessions-redis (redis.info (#2), redis.slowlog (#3), redis.latency (#4)): 1 cause(s)');
      expect(done.limitations.map((l: { statement: string }) => l.statement)).toContain(
        'Not verified: the data does not show what filled the memory of sessions-redis (which keys grew, and who wrote them)',
      );
    } finally {
      await redisAdmin.flushall();
      await redisAdmin.config('SET', 'maxmemory', '0');
    }
  });

  it('states the account that took the connections of the MariaDB serving the alerting service', async () => {
    mysqlHeld.push(await mariadb.connect({ user: 'orders', password: 'orders-secret' }));
    for (let i = 0; i < 8; i++) mysqlHeld.push(await mariadb.connect({ user: 'report', password: 'report-secret' }));
    // MySQL tells a connection's time in whole seconds: once each shows a second, "all open by" comes before the alert's start.
    const root = await mariadb.connect();
    await until(
      async () => {
        const [rows] = (await root.query(`SELECT min(TIME) AS seconds FROM information_schema.PROCESSLIST WHERE USER IN ('orders', 'report')`)) as unknown as [
          Array<{ seconds: number }>,
        ];
        return rows[0].seconds >= 1;
      },
      10_000,
      'the connections to show a second in their command',
    );
    await root.end();

    try {
      const done = await investigateAlert({ alertname: 'OrdersErrors', service: 'orders' });

      expect(done.conclusionStatus).toBe('supported_explanation');
      expect(tools(done)).toEqual(['incident.alert_events', 'mysql.lock_waits', 'mysql.connections']);
      const [cause] = byKind(done, 'cause');
      expect(cause.statement).toMatch(
        /^user report took 8 of the 10 connections in use \(max_connections 11, 1 left\) of Orders database, all open by \S+, and caused the alert's condition$/,
      );
      expect(done.actions[0].title).toBe(
        "Bound the connections of user report to Orders database (its pool size, or its account's MAX_USER_CONNECTIONS), and end the idle ones",
      );
      expect(done.limitations.map((l: { statement: string }) => l.statement)).toContain(
        'Not verified: the data does not show why user report opened 8 connections',
      );
      // The lock read showed nothing: stated as read, not as a cause.
      expect(done.findings.filter((f: { kind: string }) => f.kind === 'cause')).toHaveLength(1);
    } finally {
      mysqlHeld.splice(0).forEach((c) => c.destroy());
    }
  });

  it('says a healthy PostgreSQL and broker were read and showed nothing wrong, and concludes inconclusive', async () => {
    const consumer = await broker.connect('parcels-worker');
    const channel = await consumer.createChannel();
    await channel.assertQueue(queue);
    await channel.consume(queue, (message) => message && channel.ack(message));

    try {
      const done = await investigateAlert({
        alertname: 'ParcelsSlow',
        service: 'parcels-api',
        instance: `127.0.0.1:${postgres.port}`,
        peer: 'order-queues',
        queue,
      });

      expect(done.status).toBe('concluded');
      expect(done.conclusionStatus).toBe('inconclusive');
      expect(tools(done)).toEqual(['incident.alert_events', 'rabbitmq.queues', 'postgresql.locks', 'postgresql.connections']);
      expect(byKind(done, 'cause')).toEqual([]);
      expect(done.actions).toEqual([]);
      const context = byKind(done, 'context').map((f: { statement: string }) => f.statement);
      expect(context).toEqual([
        expect.stringMatching(/^order-queues \(RabbitMQ\) was read and showed nothing wrong near the onset \(\S+\): rabbitmq\.queues \(#2\): /),
        expect.stringMatching(
          /^Shop database \(PostgreSQL\) was read and showed nothing wrong near the onset \(\S+\): postgresql\.locks \(#3\): No session waits for a lock\..*; postgresql\.connections \(#4\): /,
        ),
      ]);
      expect(done.summary).toMatch(
        /^The alert began at \S+\. No Prometheus is connected, so the datastores the alert names or that serve its services were asked with their own tools: /,
      );
      expect(done.summary).toContain(
        'order-queues (rabbitmq.queues (#2)): nothing wrong; Shop database (postgresql.locks (#3), postgresql.connections (#4)): nothing wrong.',
      );
    } finally {
      await broker.closeConnections();
      await broker.deleteQueues();
    }
  });

  it('never calls a datastore it could not read healthy: its failed read is a limitation', async () => {
    const gone = await RedisServer.start();
    const id = await integration({
      type: 'redis',
      name: 'stale-cache',
      config: { host: '127.0.0.1', port: gone.port, tls: 'disable', services: ['sessions-api'] },
      credentials: { password: 'whatever' },
    });
    await gone.kill();
    try {
      const done = await investigateAlert({ alertname: 'CartSessionsLost', service: 'cart', peer: 'stale-cache' });

      expect(done.conclusionStatus).toBe('inconclusive');
      expect(done.runs.map((r: { tool: string; outcome: string }) => [r.tool, r.outcome])).toEqual([
        ['incident.alert_events', 'succeeded'],
        ['redis.info', 'failed'],
      ]);
      expect(byKind(done, 'context')).toEqual([]);
      expect(done.limitations).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ type: 'tool_failure', runRefs: [2], statement: expect.stringMatching(/^redis\.info failed: Could not connect/) }),
        ]),
      );
      expect(done.summary).toContain('stale-cache: could not be read (redis.info (#2) failed)');
      expect(done.summary).not.toContain('nothing wrong');
    } finally {
      await ctx.admin.delete(`/api/v1/integrations/${id}`, ACME);
    }
  });
});
