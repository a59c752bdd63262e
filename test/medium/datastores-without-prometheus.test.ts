import Redis from 'ioredis';
import type { Connection } from 'mysql2/promise';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedRun, SourceBrief, ToolCall } from '@svc/investigations';
import { DatastoreEndpoint } from '@svc/datastores';
import { detectionScopeOf, explainCauses, Explainer, mysqlConnectionsExplainer, redisExplainer } from '@svc/investigations/engine';
import { DataSourceConnection, ToolCatalog } from '@svc/investigations/tools';
import { Timestamp } from '@svc/platform';
import { datastoreTools } from '../support/datastore-tools';
import { MariadbServer } from '../support/mariadb-server';
import { RedisServer } from '../support/redis-server';
import { recordRun, sessionOf } from '../support/scripted-prometheus';
import { until } from '../support/until';

const CACHE = '0190a0b0-0000-7000-8000-0000000000f1';
const ORDERS_DB = '0190a0b0-0000-7000-8000-0000000000f2';

/** Runs `call` on the datastore through the real tool catalog and records it: there is no Prometheus here. */
async function catalogRun(catalog: ToolCatalog, connection: DataSourceConnection, call: ToolCall, runs: RecordedRun[]): Promise<RecordedRun> {
  if (call.integrationId !== connection.integrationId) throw new Error(`only the datastore is read here, not ${call.tool} of ${call.integrationId}`);
  const window = { from: Timestamp.now().plusSeconds(-1800), until: Timestamp.now() };
  const result = await catalog.run(call.tool, call.arguments, { connection, window, signal: new AbortController().signal });
  return Object.assign(recordRun(runs, call, result.output, result.summary), { outcome: result.outcome, error: result.error ?? null });
}

/**
 * The explainers an investigation runs when the Organization has no Prometheus, as
 * explainCauses runs them without a Prometheus source, against a real datastore read through the
 * real tool catalog: `source` is the datastore's integration, `alert` the alert's labels, the onset
 * the alert's start.
 */
function explainWithout(
  catalog: ToolCatalog,
  source: SourceBrief,
  endpoint: DatastoreEndpoint,
  explainer: Explainer,
  alert: Record<string, string>,
  onset: Timestamp,
) {
  const window = { from: onset.plusSeconds(-3600), until: onset.plusSeconds(900) };
  const connection: DataSourceConnection = { integrationId: source.integrationId, type: source.type, baseUrl: '', headers: {}, endpoint };
  const session = sessionOf(window, [source], (call, runs) => catalogRun(catalog, connection, call, runs));
  return explainCauses(session, null, detectionScopeOf([alert], onset, false), [explainer]).then((found) => ({ found, runs: session.runs }));
}

/**
 * Redis read in Redis itself (no exporter, no Prometheus): memory at maxmemory refusing writes or
 * evicting keys, clients at maxclients, a slow command; each made here on a private redis-server,
 * each dated by what Redis tells.
 */
describe('the Redis explainer against a real Redis, without Prometheus', () => {
  let server: RedisServer;
  let admin: Redis;
  const held: Redis[] = [];
  const { catalog, endpoint } = datastoreTools(CACHE, () => ({
    kind: 'redis',
    host: '127.0.0.1',
    port: server.port,
    tls: 'disable',
    username: 'investigator',
    password: 'monitor-secret',
  }));
  const cache = (): SourceBrief => ({
    integrationId: CACHE,
    type: 'redis',
    name: 'sessions-redis',
    rank: 1,
    reason: '',
    services: ['billing'],
    addresses: ['127.0.0.1', `127.0.0.1:${server.port}`],
  });
  // The alert names the cache by its integration's name; the cache says it serves billing.
  const ALERT = { alertname: 'CheckoutSessionErrors', service: 'checkout', peer: 'sessions-redis' };
  const explain = (onset: Timestamp, alert: Record<string, string> = ALERT) => explainWithout(catalog, cache(), endpoint(), redisExplainer, alert, onset);
  const client = async (name?: string): Promise<Redis> => {
    const c = new Redis(server.url, { lazyConnect: true, connectionName: name, maxRetriesPerRequest: 0, retryStrategy: () => null });
    c.on('error', () => undefined);
    await c.connect();
    held.push(c);
    return c;
  };
  /** Sets maxmemory `extra` bytes above what Redis uses now, with `policy`. */
  const smallMaxmemory = async (policy: string, extra = 1024 * 1024) => {
    const used = Number(/used_memory:(\d+)/.exec(String(await admin.info('memory')))![1]);
    await admin.config('SET', 'maxmemory-policy', policy);
    await admin.config('SET', 'maxmemory', String(used + extra));
  };

  beforeAll(async () => {
    server = await RedisServer.start();
    admin = new Redis(server.url, { connectionName: 'admin' });
    await admin.call(
      'ACL',
      'SETUSER',
      'investigator',
      'on',
      '>monitor-secret',
      '-@all',
      ...'+ping +info +slowlog|get +slowlog|len +latency|latest +client|list +client|setname +config|get +acl|whoami'.split(' '),
    );
  });

  afterEach(async () => {
    held.splice(0).forEach((c) => c.disconnect());
    await admin.config('SET', 'maxmemory', '0');
    await admin.config('SET', 'maxclients', '10000');
    await admin.config('SET', 'slowlog-log-slower-than', '10000');
    await admin.flushall();
    await admin.call('SLOWLOG', 'RESET');
    await admin.config('RESETSTAT');
  });

  afterAll(async () => {
    admin?.disconnect();
    await server?.kill();
  });

  it('names the memory at maxmemory that refuses writes with OOM, dated by when it went above', async () => {
    await smallMaxmemory('noeviction');
    const writer = await client('checkout');
    const value = 'x'.repeat(1024);
    const began = Timestamp.now();
    let refused = 0;
    for (let i = 0; i < 5000 && refused < 3; i++) await writer.set(`session:${i}`, value).catch(() => (refused += 1));
    expect(refused).toBe(3);

    const { found, runs } = await explain(Timestamp.now().plusSeconds(30));
    expect(runs.map((r) => r.tool)).toEqual(['redis.info', 'redis.slowlog', 'redis.latency']);
    expect(found.causes).toHaveLength(1);
    const [cause] = found.causes;
    expect(cause.id).toBe(`h-redis-memory-${CACHE.slice(-6)}`);
    // Redis' current_eviction_exceeded_time: from the first write refused, within the fill.
    expect(cause.at.isBefore(began)).toBe(false);
    expect(cause.at.isAfter(Timestamp.now())).toBe(false);
    expect(cause.statement).toMatch(
      /^sessions-redis reached its maxmemory at \S+ and stayed above it \([\d.]+ MiB of maxmemory [\d.]+ MiB \(\d+%, policy noeviction\)\), refusing writes with OOM, and caused the alert's condition$/,
    );
    expect(cause.statement).toContain(cause.at.toISOString());
    expect(cause.mechanism).toContain('with noeviction, every write since is refused with OOM; 3 command(s) refused with OOM since start');
    expect(cause.mechanismRuns).toEqual([runs[0].ordinal]);
    expect(cause.unexplained).toEqual(['what filled the memory of sessions-redis (which keys grew, and who wrote them)']);
    expect(found.seen.size).toBe(0);

    // The same memory read an hour and more after it filled is not what started a condition then.
    const later = await explain(Timestamp.now().plusSeconds(7200));
    expect(later.found.causes).toEqual([]);
    expect(later.found.seen.get(CACHE)).toEqual([expect.stringMatching(/^memory at .* above maxmemory since \S+, not near the onset$/)]);
  });

  it('dates keys evicted under allkeys-lru by their rate, read twice, while a writer keeps writing', async () => {
    await smallMaxmemory('allkeys-lru');
    const writer = await client('checkout');
    const value = 'x'.repeat(1024);
    const began = Timestamp.now();
    let writing = true;
    let written = 0;
    const writes = (async () => {
      while (writing) {
        await writer.set(`session:${written}`, value);
        written += 1;
      }
    })();
    try {
      // Full, and evicting.
      await until(async () => Number(/evicted_keys:(\d+)/.exec(String(await admin.info('stats')))![1]) > 1000, 20_000, 'Redis to evict keys');
      const { found, runs } = await explain(Timestamp.now().plusSeconds(30));
      expect(runs.map((r) => r.tool)).toEqual(['redis.info', 'redis.info', 'redis.slowlog', 'redis.latency']);
      expect(found.causes).toHaveLength(1);
      const [cause] = found.causes;
      expect(cause.id).toBe(`h-redis-memory-${CACHE.slice(-6)}`);
      expect(cause.statement).toMatch(
        /^sessions-redis ran out of memory \(.*policy allkeys-lru\)\) and has evicted keys from about \S+ at [\d.]+\/s, and caused the alert's condition$/,
      );
      // An estimate at the current rate: not before the writes began (less a few seconds for the rate's noise), not after the read.
      expect(cause.at.isBefore(began.plusSeconds(-30))).toBe(false);
      expect(cause.at.isAfter(Timestamp.now())).toBe(false);
      expect(cause.mechanism).toMatch(/keys evicted since start at [\d.]+\/s \(\d+ in the [\d.]+ s between two reads\) began about \S+, an estimate/);
      expect(cause.mechanismRuns).toEqual([]);
      expect(cause.chainRuns).toEqual([runs[1].ordinal]);
      expect(cause.unexplained).toContain('whether the keys evicted were ones checkout then missed');
    } finally {
      writing = false;
      await writes;
    }
  });

  it('names the client that took the connections up to maxclients, dated by its last one', async () => {
    // The test's admin, checkout and nine report-batch clients, and the investigator's session: 12 of 13 (the thirteenth
    // for the next read's session, as the last one's close may not have reached Redis yet).
    await admin.config('SET', 'maxclients', '13');
    await client('checkout');
    for (let i = 0; i < 9; i++) await client('report-batch');
    const filled = Timestamp.now();

    const { found, runs } = await explain(filled.plusSeconds(20));
    expect(runs.map((r) => r.tool)).toEqual(['redis.info', 'redis.clients', 'redis.slowlog', 'redis.latency']);
    expect(found.causes).toHaveLength(1);
    const [cause] = found.causes;
    expect(cause.id).toBe(`h-redis-clients-${CACHE.slice(-6)}`);
    // CLIENT LIST gives ages in whole seconds.
    expect(Math.abs(Number(cause.at.epochMicros - filled.epochMicros) / 1e6)).toBeLessThan(2.5);
    expect(cause.statement).toMatch(
      /^report-batch took 9 of the 11 clients \(maxclients 13\) of sessions-redis, the last at \S+, and caused the alert's condition$/,
    );
    expect(cause.mechanismRuns).toEqual([runs[1].ordinal]);
    expect(cause.unexplained).toEqual(['why report-batch opened 9 connections']);
  });

  it('names a slow command near the onset, with the client that ran it', async () => {
    await admin.config('SET', 'slowlog-log-slower-than', '5000');
    const batch = await client('report-batch');
    const ran = Timestamp.now();
    // A script of a few hundred milliseconds: Redis runs nothing else meanwhile.
    await batch.eval('local i = 0 while i < 30000000 do i = i + 1 end return i', 0);

    const { found, runs } = await explain(ran.plusSeconds(20));
    expect(runs.map((r) => r.tool)).toEqual(['redis.info', 'redis.slowlog']);
    expect(found.causes).toHaveLength(1);
    const [cause] = found.causes;
    expect(cause.id).toBe(`h-redis-slow-${CACHE.slice(-6)}`);
    expect(cause.statement).toMatch(
      /^EVAL commands in sessions-redis took up to [\d.]+ ms from \S+ \(1 of 100 ms or more, \d+ ms in all\), stalling every other client, and caused the alert's condition$/,
    );
    expect(Math.abs(Number(cause.at.epochMicros - ran.epochMicros) / 1e6)).toBeLessThan(2);
    expect(cause.mechanism).toContain('by report-batch');
    expect(cause.mechanismRuns).toEqual([runs[1].ordinal]);
    expect(cause.unexplained).toEqual(['why report-batch ran EVAL on sessions-redis']);
  });

  it('finds no cause in a healthy Redis, and concludes nothing from a Redis it could not read', async () => {
    const healthy = await explain(Timestamp.now());
    expect(healthy.runs.map((r) => [r.tool, r.outcome])).toEqual([
      ['redis.info', 'succeeded'],
      ['redis.slowlog', 'succeeded'],
      ['redis.latency', 'succeeded'],
    ]);
    expect(healthy.found.causes).toEqual([]);
    expect(healthy.found.seen.size).toBe(0);

    const unreadable = await explainWithout(catalog, cache(), endpoint({ password: 'wrong' }), redisExplainer, ALERT, Timestamp.now());
    expect(unreadable.runs.map((r) => [r.tool, r.outcome])).toEqual([['redis.info', 'failed']]);
    expect(unreadable.found.causes).toEqual([]);
    expect(unreadable.found.seen.size).toBe(0);
  });

  it('does not read a Redis that neither serves the alerting service nor is named by the alert', async () => {
    const { found, runs } = await explain(Timestamp.now(), { alertname: 'CheckoutSessionErrors', service: 'checkout' });
    expect(runs).toEqual([]);
    expect(found.causes).toEqual([]);
  });
});

/**
 * MySQL's connections read in the server itself (no exporter): one application holding most of
 * max_connections, named by the program it announces (or its user, where performance_schema is
 * off) and dated by when all its connections were open at the latest.
 */
describe('the MySQL connections explainer against a real MariaDB, without Prometheus', () => {
  const MAX_CONNECTIONS = 10;
  let server: MariadbServer;
  const held: Connection[] = [];
  const { catalog, endpoint } = datastoreTools(ORDERS_DB, () => ({
    kind: 'mysql',
    host: '127.0.0.1',
    port: server.port,
    tls: 'disable',
    username: 'investigator',
    password: 'monitor-secret',
  }));
  const ordersDb = (services: string[]): SourceBrief => ({ integrationId: ORDERS_DB, type: 'mysql', name: 'Orders database', rank: 1, reason: '', services });
  const explain = (services: string[], onset: Timestamp) =>
    explainWithout(catalog, ordersDb(services), endpoint(), mysqlConnectionsExplainer, { alertname: 'OrdersErrors', service: 'orders' }, onset);
  const connect = async (program: string) => {
    const connection = await server.connect({ user: 'shop', password: 'shop-secret', database: 'shop', program });
    held.push(connection);
    return connection;
  };

  beforeAll(async () => {
    server = await MariadbServer.start({ 'max-connections': MAX_CONNECTIONS, 'performance-schema': 'ON' });
    await server.admin(`
      CREATE DATABASE shop;
      CREATE USER 'investigator'@'%' IDENTIFIED BY 'monitor-secret';
      GRANT PROCESS, SLAVE MONITOR ON *.* TO 'investigator'@'%';
      GRANT SELECT ON performance_schema.* TO 'investigator'@'%';
      CREATE USER 'shop'@'%' IDENTIFIED BY 'shop-secret';
      GRANT SELECT ON shop.* TO 'shop'@'%';`);
  });

  afterEach(() => {
    for (const connection of held.splice(0)) connection.destroy();
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('names the program that took the connections the alerting service needed, dated by when all of them were open', async () => {
    await connect('orders');
    // Every slot but the investigator's: the orders service's one and eight of the batch.
    for (let i = 0; i < MAX_CONNECTIONS - 2; i++) await connect('report-batch');
    const filled = Timestamp.now();

    const { found, runs } = await explain(['orders'], filled.plusSeconds(20));
    expect(runs.map((r) => [r.tool, r.outcome])).toEqual([['mysql.connections', 'succeeded']]);
    expect(found.causes).toHaveLength(1);
    const [cause] = found.causes;
    expect(cause.id).toBe(`h-connections-${ORDERS_DB.slice(-6)}`);
    // Open by the read less the shortest time in the current command (whole seconds): at or after the last connection, before the read.
    expect(cause.at.isBefore(filled.plusSeconds(-1.5))).toBe(false);
    expect(cause.at.isAfter(Timestamp.now())).toBe(false);
    expect(cause.statement).toBe(
      `report-batch took 8 of the 10 connections in use (max_connections 10, 0 left) of Orders database, all open by ${cause.at.toISOString()}, and caused the alert's condition`,
    );
    expect(cause.mechanism).toContain('MySQL keeps no connection start');
    expect(cause.mechanismRuns).toEqual([runs[0].ordinal]);
    expect(cause.unexplained).toEqual(['why report-batch opened 8 connections']);
  });

  it('leaves the mechanism open when the alerting service holds them itself, and finds nothing with slots to spare', async () => {
    for (let i = 0; i < MAX_CONNECTIONS - 1; i++) await connect('orders');
    const own = await explain(['orders'], Timestamp.now().plusSeconds(20));
    expect(own.found.causes[0].mechanismRuns).toEqual([]);
    expect(own.found.causes[0].unexplained[0]).toBe('why orders, the alerting service itself, opened so many connections');

    for (const connection of held.splice(0, 6)) connection.destroy();
    const root = await server.connect();
    await until(
      async () => {
        const [rows] = (await root.query(`SELECT count(*) AS n FROM information_schema.PROCESSLIST WHERE USER = 'shop'`)) as unknown as [Array<{ n: number }>];
        return Number(rows[0].n) === 3;
      },
      10_000,
      'the server to see the six connections closed',
    );
    await root.end();
    const spare = await explain(['orders'], Timestamp.now().plusSeconds(20));
    expect(spare.runs.map((r) => r.tool)).toEqual(['mysql.connections']);
    expect(spare.found.causes).toEqual([]);
  });
});
