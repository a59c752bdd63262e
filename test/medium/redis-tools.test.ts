import Redis from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RedisSession } from '@svc/datastores';
import { ToolResult } from '@svc/investigations/tools';
import { RedisServer } from '../support/redis-server';
import { datastoreTools } from '../support/datastore-tools';
import { until } from '../support/until';

type Output = Record<string, any>;
const out = (result: ToolResult) => result.output as Output;

/** The ACL a monitoring account needs: the reads of the tools, and nothing that touches a key. */
const MONITOR_ACL = '+ping +info +slowlog|get +slowlog|len +latency|latest +client|list +client|setname +config|get +acl|whoami +multi +discard';

/**
 * The Redis tools against a real redis-server (a private one, apart from the service's own
 * Redis), each diagnosis produced by a real condition made here: keys evicted under a small
 * maxmemory, a slow script, clients blocked on a list.
 */
describe('Redis tools against a real server', () => {
  let server: RedisServer;
  let admin: Redis;
  const held: Redis[] = [];

  const { datastores, endpoint, run } = datastoreTools('0190a0b0-0000-7000-8000-0000000000e1', () => ({
    kind: 'redis',
    host: '127.0.0.1',
    port: server.port,
    tls: 'disable',
    username: 'investigator',
    password: 'monitor-secret',
  }));
  const client = async (name?: string): Promise<Redis> => {
    const c = new Redis(server.url, { lazyConnect: true, connectionName: name, maxRetriesPerRequest: 0 });
    c.on('error', () => undefined);
    await c.connect();
    held.push(c);
    return c;
  };

  beforeAll(async () => {
    server = await RedisServer.start();
    admin = new Redis(server.url);
    await admin.call('ACL', 'SETUSER', 'investigator', 'on', '>monitor-secret', '-@all', ...MONITOR_ACL.split(' '));
    await admin.call('ACL', 'SETUSER', 'cache-writer', 'on', '>writer-secret', '~*', '+@all');
  });

  afterEach(async () => {
    held.splice(0).forEach((c) => c.disconnect());
    await admin.config('SET', 'maxmemory', '0');
    await admin.config('SET', 'slowlog-log-slower-than', '10000');
    await admin.config('SET', 'latency-monitor-threshold', '0');
    await admin.flushall();
    await admin.call('SLOWLOG', 'RESET');
    await admin.call('LATENCY', 'RESET');
    await admin.config('RESETSTAT');
  });

  afterAll(async () => {
    admin?.disconnect();
    await server?.kill();
  });

  it('sees keys evicted under a small maxmemory, with the policy and a hint', async () => {
    await admin.config('SET', 'maxmemory-policy', 'allkeys-lru');
    await admin.config('SET', 'maxmemory', String(2 * 1024 * 1024));
    const value = 'x'.repeat(1024);
    for (let batch = 0; batch < 10; batch++) {
      const pipeline = admin.pipeline();
      for (let i = 0; i < 500; i++) pipeline.set(`session:${batch}:${i}`, value);
      await pipeline.exec();
    }
    for (let i = 0; i < 200; i++) await admin.get(`missing:${i}`);

    const result = await run('redis.info');
    expect(result.outcome).toBe('succeeded');
    const output = out(result);
    expect(output.memory).toMatchObject({ maxmemoryBytes: 2 * 1024 * 1024, policy: 'allkeys-lru' });
    expect(output.memory.usedFraction).toBeGreaterThan(0.9);
    expect(output.stats.evictedKeys).toBeGreaterThan(0);
    expect(output.stats.keyspaceMisses).toBeGreaterThanOrEqual(200);
    expect(output.replication.role).toBe('master');
    expect(output.hints[0]).toMatch(/^memory at \d+% of maxmemory \(policy allkeys-lru\), \d+ keys evicted$/);
    expect(result.summary).toMatch(/^Redis 7\.\S+, master: \S+ MiB of maxmemory 2 MiB \(\d+%, allkeys-lru\); \d+ clients?; hit ratio [\d.]+\. memory at/);
    expect(result.sources).toEqual(['INFO']);
  });

  it('finds the slow script in the slow log and the latency monitor, with the client that ran it', async () => {
    await admin.config('SET', 'slowlog-log-slower-than', '5000');
    await admin.config('SET', 'latency-monitor-threshold', '5');
    const app = await client('report-job');
    await app.eval('local i = 0 while i < 5000000 do i = i + 1 end return i', 0);
    await app.get('fast');

    const slow = await run('redis.slowlog');
    expect(slow.outcome).toBe('succeeded');
    expect(out(slow).entries).toHaveLength(1);
    expect(out(slow).entries[0]).toMatchObject({ command: 'EVAL', clientName: 'report-job', argumentCount: 2 });
    expect(out(slow).byCommand).toEqual([expect.objectContaining({ command: 'EVAL', count: 1 })]);
    expect(slow.summary).toMatch(/^1 slow log entry; the latest 1 by command: EVAL 1× \(max [\d.]+ ms\)\.$/);

    const latency = await run('redis.latency');
    expect(out(latency).monitorOn).toBe(true);
    expect(out(latency).events.map((e: Output) => e.event)).toContain('command');
    expect(latency.summary).toMatch(/latency events?: .*command \d+ ms/);
  });

  it('says the latency monitor is off when it is, and an empty slow log with its threshold', async () => {
    expect((await run('redis.latency')).summary).toBe('No latency event: the latency monitor is off (latency-monitor-threshold 0).');
    expect((await run('redis.slowlog')).summary).toBe('The slow log is empty (threshold 10000 µs).');
  });

  it('summarises clients by name, with the ones blocked on a list', async () => {
    const workers = await Promise.all([1, 2, 3].map(() => client('queue-worker')));
    await client('web');
    const waiting = workers.slice(0, 2).map((w) => w.blpop('jobs', 0).catch(() => null));
    await until(async () => out(await run('redis.clients')).blocked === 2, 10_000, 'two workers to block on the list');

    const result = await run('redis.clients');
    const output = out(result);
    expect(output.clients).toBe(5); // the test's admin, three workers, web; not the tool's own session
    expect(output.byName[0]).toMatchObject({ name: 'queue-worker', count: 3, blocked: 2 });
    expect(output.blockedClients.map((c: Output) => [c.name, c.command])).toEqual([
      ['queue-worker', 'blpop'],
      ['queue-worker', 'blpop'],
    ]);
    expect(result.summary).toMatch(/^5 clients, 2 blocked; by name: queue-worker 3, /);
    expect(out(await run('redis.info')).hints).toContain('2 clients blocked (BLPOP and the like)');
    await admin.rpush('jobs', 'a', 'b');
    await Promise.all(waiting);
  });

  it('runs nothing but its reads: a write, a key read or a secret setting is refused before the server sees it', async () => {
    const signal = new AbortController().signal;
    const asAdmin = endpoint({ username: undefined, password: undefined });
    for (const [name, ...args] of [
      ['SET', 'k', 'v'],
      ['FLUSHALL'],
      ['GET', 'k'],
      ['CONFIG', 'GET', 'requirepass'],
      ['CONFIG', 'SET', 'maxmemory', '1'],
      ['EVAL', 'return 1', '0'],
    ]) {
      await expect(datastores.withSession(asAdmin, signal, (s: RedisSession) => s.command(name, ...args))).rejects.toThrow(
        /is not one of the reads a Redis session runs/,
      );
    }
    expect(await admin.exists('k')).toBe(0);
    expect(await admin.config('GET', 'maxmemory')).toEqual(['maxmemory', '0']);
  });

  it('verifies the account: a monitoring ACL user passes, an account that can write fails, a wrong password fails without echoing it', async () => {
    const signal = new AbortController().signal;
    const monitor = await datastores.verify(endpoint(), signal);
    expect(monitor).toEqual({
      outcome: 'succeeded',
      detail: expect.stringMatching(/^Redis 7\.\S+ as investigator: read-only \(SET refused\); runs every read of the tools$/),
    });

    const writer = await datastores.verify(endpoint({ username: 'cache-writer', password: 'writer-secret' }), signal);
    expect(writer.outcome).toBe('failed');
    expect(writer.detail).toContain('as cache-writer: the account can write (SET was accepted)');
    expect(await admin.dbsize()).toBe(0); // the probe was discarded, never run

    const wrong = await datastores.verify(endpoint({ password: 'not-it' }), signal);
    expect(wrong).toMatchObject({ outcome: 'failed', failure: 'rejected' });
    expect(wrong.detail).toContain('refused the sign-in of investigator');
    expect(wrong.detail).not.toContain('not-it');

    const limited = await admin.call('ACL', 'SETUSER', 'partial', 'on', '>partial-secret', '-@all', '+ping', '+info', '+multi', '+discard');
    expect(limited).toBe('OK');
    const partial = await datastores.verify(endpoint({ username: 'partial', password: 'partial-secret' }), signal);
    expect(partial).toEqual({
      outcome: 'succeeded',
      detail: expect.stringMatching(/: read-only \(SET refused\); cannot run SLOWLOG GET, LATENCY LATEST, CLIENT LIST$/),
    });
    expect(await run('redis.slowlog', {}, { username: 'partial', password: 'partial-secret' })).toMatchObject({
      outcome: 'failed',
      error: expect.stringMatching(/^Redis refused SLOWLOG GET: NOPERM .*\(see the permissions the tools need\)$/),
    });
  });

  it("refuses the service's own Redis, and a port where nothing listens", async () => {
    const own = await run('redis.info', {}, { port: 6379 });
    expect(own.outcome).toBe('failed');
    expect(own.error).toMatch(/^Refused: .*this service's own Redis/);
    const closed = await run('redis.info', {}, { port: 1 });
    expect(closed.error).toBe('Could not connect to 127.0.0.1:1: connection refused');
  });
});
