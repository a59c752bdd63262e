import { Client } from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DatastoreClient, PostgresqlSession } from '@svc/datastores';
import { ToolCatalog, ToolResult } from '@svc/investigations/tools';
import { AppConfig, OutboundClient } from '@svc/platform';
import { PostgresServer } from '../support/postgres-server';
import { datastoreTools } from '../support/datastore-tools';
import { until } from '../support/until';

type Output = Record<string, any>;
const out = (result: ToolResult) => result.output as Output;

/**
 * The PostgreSQL tools against a real server (a private cluster, not the service's own database),
 * each diagnosis produced by a real condition made here: a transaction holding a row lock while
 * others wait, connections held by one application up to the limit, a session idle in its
 * transaction, slow statements.
 */
describe('PostgreSQL tools against a real server', () => {
  const MAX_CONNECTIONS = 20;
  const RESERVED = 3;
  let server: PostgresServer;
  const held: Client[] = [];

  const { datastores, endpoint, context, run } = datastoreTools(
    '0190a0b0-0000-7000-8000-0000000000d1',
    () => ({
      kind: 'postgresql',
      host: '127.0.0.1',
      port: server.port,
      database: 'shop',
      tls: 'disable',
      username: 'investigator',
      password: 'monitor-secret',
    }),
    { statementTimeoutMs: 5_000, lockTimeoutMs: 500 },
  );

  /** A connected session of the shop's application `application`, kept until the test ends. */
  const session = async (application: string): Promise<Client> => {
    const client = server.client({ user: 'shop', password: 'shop-secret', database: 'shop', application });
    await client.connect();
    held.push(client);
    return client;
  };

  beforeAll(async () => {
    server = await PostgresServer.start({
      max_connections: MAX_CONNECTIONS,
      superuser_reserved_connections: RESERVED,
      shared_preload_libraries: 'pg_stat_statements',
      'pg_stat_statements.track': 'all',
    });
    await server.admin(`
      CREATE ROLE shop LOGIN PASSWORD 'shop-secret';
      CREATE ROLE investigator LOGIN PASSWORD 'monitor-secret';
      GRANT pg_monitor TO investigator;
      CREATE ROLE watcher LOGIN PASSWORD 'watcher-secret';
      CREATE ROLE writer LOGIN PASSWORD 'writer-secret';`);
    await server.admin('CREATE DATABASE shop OWNER shop');
    await server.admin(
      `SET ROLE shop;
       CREATE TABLE orders (id int PRIMARY KEY, status text NOT NULL);
       INSERT INTO orders SELECT g, 'new' FROM generate_series(1, 1000) g;
       RESET ROLE;
       CREATE EXTENSION pg_stat_statements;
       GRANT INSERT ON orders TO writer;`,
      'shop',
    );
  });

  afterEach(async () => {
    await Promise.all(held.splice(0).map((client) => client.end().catch(() => undefined)));
    await until(
      async () => {
        const result = await run('postgresql.connections');
        return out(result)?.clientConnections === 1;
      },
      10_000,
      'the test sessions to end',
    );
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('names the transaction holding a row lock as the root blocker of the sessions waiting behind it', async () => {
    const batch = await session('nightly-batch');
    const [{ pid: batchPid }] = (await batch.query('SELECT pg_backend_pid() AS pid')).rows;
    await batch.query('BEGIN');
    await batch.query(`UPDATE orders SET status = 'archived' WHERE id = 7`);
    const checkout = await Promise.all([session('checkout'), session('checkout')]);
    const waiting = checkout.map((client) => client.query(`UPDATE orders SET status = 'paid' WHERE id = 7`));
    waiting.forEach((p) => p.catch(() => undefined));
    await until(async () => out(await run('postgresql.locks')).waiting === 2, 10_000, 'both checkout sessions to wait');

    const result = await run('postgresql.locks');
    expect(result.outcome).toBe('succeeded');
    const output = out(result);
    expect(output.blockers).toHaveLength(1);
    expect(output.blockers[0]).toMatchObject({ pid: batchPid, application: 'nightly-batch', user: 'shop', state: 'idle in transaction', blocksSessions: 2 });
    expect(output.blockers[0].blocksApplications).toEqual([{ application: 'checkout', count: 2 }]);
    expect(output.blockers[0].query).toContain(`SET status = 'archived'`);
    expect(output.waits.map((w: Output) => w.application)).toEqual(['checkout', 'checkout']);
    // The first waits for the batch's transaction; the second queues for the row behind the first.
    expect(output.waits.map((w: Output) => `${w.lock.type} ${w.lock.mode}`).sort()).toEqual(['transactionid ShareLock', 'tuple ExclusiveLock']);
    for (const wait of output.waits) {
      expect(wait.rootBlockers).toEqual([batchPid]);
      expect(Date.parse(wait.queryStart)).toBeGreaterThanOrEqual(Date.parse(output.blockers[0].transactionStart));
    }
    expect(result.summary).toContain('2 sessions waiting for a lock');
    expect(result.summary).toContain(`pid ${batchPid} (nightly-batch, shop`);
    expect(result.sources).toEqual(['pg_stat_activity', 'pg_locks']);

    await batch.query('ROLLBACK');
    await Promise.all(waiting);
    expect(out(await run('postgresql.locks')).waiting).toBe(0);
  });

  it('follows a chain of waits to the session at its head', async () => {
    const head = await session('migration');
    await head.query('BEGIN');
    await head.query(`LOCK TABLE orders IN ACCESS EXCLUSIVE MODE`);
    const [{ pid: headPid }] = (await head.query('SELECT pg_backend_pid() AS pid')).rows;
    const middle = await session('report');
    const middleQuery = middle.query(`SELECT count(*) FROM orders`);
    middleQuery.catch(() => undefined);
    await until(async () => out(await run('postgresql.locks')).waiting === 1, 10_000, 'the report to wait');
    const last = await session('checkout');
    const lastQuery = last.query(`SELECT status FROM orders WHERE id = 1`);
    lastQuery.catch(() => undefined);
    await until(async () => out(await run('postgresql.locks')).waiting === 2, 10_000, 'the checkout to wait');

    const output = out(await run('postgresql.locks'));
    expect(output.blockers.map((b: Output) => [b.pid, b.application, b.blocksSessions])).toEqual([[headPid, 'migration', 2]]);
    expect(output.waits.every((w: Output) => w.rootBlockers.length === 1 && w.rootBlockers[0] === headPid)).toBe(true);
    expect(output.waits.find((w: Output) => w.application === 'report').lock).toMatchObject({ type: 'relation', mode: 'AccessShareLock', relation: 'orders' });
    await head.query('ROLLBACK');
    await Promise.all([middleQuery, lastQuery]);
  });

  it('counts connections held by one application up to the limit, and says so when no slot is left', async () => {
    const before = out(await run('postgresql.connections'));
    expect(before).toMatchObject({ maxConnections: MAX_CONNECTIONS, reservedForSuperusers: RESERVED });
    // Fill every ordinary slot but the one the tool's own session takes.
    const room = MAX_CONNECTIONS - RESERVED - before.clientConnections;
    await Promise.all(Array.from({ length: room }, () => session('report-batch')));

    const full = await run('postgresql.connections');
    expect(full.outcome).toBe('succeeded');
    expect(out(full).slotsLeft).toBe(0);
    expect(out(full).byApplication[0]).toEqual({ application: 'report-batch', count: room });
    expect(out(full).byUser[0]).toEqual({ user: 'shop', count: room });
    expect(full.summary).toContain(`By application: report-batch ${room}`);

    await session('report-batch'); // the last slot: the tool's session finds none
    const refused = await run('postgresql.connections');
    expect(refused.outcome).toBe('failed');
    expect(refused.error).toContain('has no connection slot left');
  });

  it('lists a session idle in its transaction with its age and last statement', async () => {
    const worker = await session('invoice-worker');
    await worker.query('BEGIN');
    await worker.query(`SELECT status FROM orders WHERE id = 3 FOR UPDATE`);
    await session('checkout');

    const result = await run('postgresql.activity');
    const output = out(result);
    expect(output.visibility).toBe('all');
    expect(output.idleInTransaction).toHaveLength(1);
    expect(output.idleInTransaction[0]).toMatchObject({ application: 'invoice-worker', state: 'idle in transaction', database: 'shop' });
    expect(output.idleInTransaction[0].query).toContain('FOR UPDATE');
    expect(output.byApplication).toEqual(
      expect.arrayContaining([
        { application: 'invoice-worker', count: 1 },
        { application: 'checkout', count: 1 },
      ]),
    );
    expect(output.byApplication.map((a: Output) => a.application)).not.toContain('incident-investigation');
    expect(result.summary).toContain('1 session idle in a transaction');

    const none = out(await run('postgresql.activity', { minTransactionSeconds: 3600 }));
    expect(none.longestTransactions).toEqual([]);
  });

  it("shows an account without pg_monitor only its own sessions' queries, and says so", async () => {
    const worker = await session('invoice-worker');
    await worker.query('BEGIN');
    await worker.query('SELECT 1');
    const result = await run('postgresql.activity', {}, { username: 'watcher', password: 'watcher-secret' });
    expect(out(result).visibility).toBe('own');
    expect(out(result).idleInTransaction).toEqual([]); // its state is hidden from this account
    expect(result.summary).toContain('grant pg_monitor');
  });

  it('ranks the slow statement first by total time, from pg_stat_statements', async () => {
    await server.admin('SELECT pg_stat_statements_reset()', 'shop');
    const app = await session('search');
    for (let i = 0; i < 3; i++) await app.query(`SELECT pg_sleep(0.2), count(*) FROM orders WHERE status = $1`, ['new']);
    for (let i = 0; i < 20; i++) await app.query(`SELECT status FROM orders WHERE id = $1`, [i + 1]);

    const byTime = await run('postgresql.statements', { limit: 5 });
    expect(byTime.outcome).toBe('succeeded');
    expect(out(byTime).available).toBe(true);
    expect(out(byTime).statements[0]).toMatchObject({ calls: 3, user: 'shop', database: 'shop' });
    expect(out(byTime).statements[0].query).toContain('pg_sleep');
    expect(out(byTime).statements[0].meanMs).toBeGreaterThanOrEqual(200);
    const byCalls = out(await run('postgresql.statements', { orderBy: 'calls' }));
    expect(byCalls.statements[0]).toMatchObject({ calls: 20 });
    expect(byCalls.statements[0].query).toContain('WHERE id = $1');
  });

  it('says when pg_stat_statements is not installed in the database', async () => {
    const result = await run('postgresql.statements', {}, { database: 'postgres' });
    expect(result.outcome).toBe('succeeded');
    expect(out(result)).toMatchObject({ available: false, statements: [] });
    expect(result.summary).toContain('pg_stat_statements is not installed in this database');
  });

  it('reads replication, maintenance and sizes of a standalone server', async () => {
    await server.admin(`ALTER TABLE orders SET (autovacuum_enabled = false); DELETE FROM orders WHERE id > 100; ANALYZE orders;`, 'shop');
    await server.admin(`SELECT pg_stat_force_next_flush()`, 'shop').catch(() => undefined);
    const replication = await run('postgresql.replication');
    expect(out(replication)).toMatchObject({ role: 'primary', replicas: [], slots: [] });
    expect(replication.summary).toBe('A primary with no standby connected.');

    const maintenance = await until(
      async () => {
        const result = await run('postgresql.maintenance');
        return out(result).tables.find((t: Output) => t.table === 'orders' && t.deadTuples >= 900) ? result : false;
      },
      10_000,
      'the deleted rows to show as dead tuples',
    );
    expect(out(maintenance).settings.autovacuum).toBe('on');
    expect(out(maintenance).databases.map((d: Output) => d.database)).toContain('shop');

    const sizes = await run('postgresql.sizes');
    expect(out(sizes).database).toBe('shop');
    expect(out(sizes).tables[0]).toMatchObject({ schema: 'public', table: 'orders' });
    expect(out(sizes).tables[0].totalBytes).toBeGreaterThan(0);
    expect(sizes.summary).toContain('public.orders');
    await server.admin(`VACUUM orders`, 'shop');
  });

  it('refuses every write in its sessions, even as a superuser', async () => {
    const superuser = endpoint({ username: 'postgres', password: PostgresServer.SUPERUSER_PASSWORD });
    const signal = new AbortController().signal;
    for (const sql of [`INSERT INTO orders VALUES (5000, 'x')`, `UPDATE orders SET status = 'x'`, `CREATE TABLE scratch (id int)`]) {
      await expect(datastores.withSession(superuser, signal, (s: PostgresqlSession) => s.statement(sql))).rejects.toThrow(/read-only transaction/);
      await expect(datastores.withSession(superuser, signal, (s: PostgresqlSession) => s.readOnly((query) => query(sql)))).rejects.toThrow(
        /read-only transaction/,
      );
    }
    const rows = await server.client({ database: 'shop' });
    await rows.connect();
    expect((await rows.query(`SELECT count(*)::int AS n FROM orders WHERE id = 5000 OR status = 'x'`)).rows[0].n).toBe(0);
    await rows.end();
  });

  it('verifies the account: a monitoring role passes, a superuser or a role that can write fails, saying why', async () => {
    const signal = new AbortController().signal;
    const monitor = await datastores.verify(endpoint(), signal);
    expect(monitor.outcome).toBe('succeeded');
    expect(monitor.detail).toMatch(
      /^PostgreSQL \d+\.\d+.* as investigator \(database shop\): read-only \(writes to none of the 1 tables\); sees every session's activity/,
    );
    expect(monitor.detail).toContain('pg_stat_statements installed');

    const superuser = await datastores.verify(endpoint({ username: 'postgres', password: PostgresServer.SUPERUSER_PASSWORD }), signal);
    expect(superuser).toMatchObject({ outcome: 'failed' });
    expect(superuser.detail).toContain('is a superuser');

    const writer = await datastores.verify(endpoint({ username: 'writer', password: 'writer-secret' }), signal);
    expect(writer.outcome).toBe('failed');
    expect(writer.detail).toContain('can write to 1 of the 1 tables of shop');

    const watcher = await datastores.verify(endpoint({ username: 'watcher', password: 'watcher-secret' }), signal);
    expect(watcher.outcome).toBe('succeeded');
    expect(watcher.detail).toContain('GRANT pg_monitor');

    const wrongPassword = await datastores.verify(endpoint({ password: 'not-it' }), signal);
    expect(wrongPassword.outcome).toBe('failed');
    expect(wrongPassword.detail).toContain('refused the sign-in of investigator');
    expect(wrongPassword.detail).not.toContain('not-it');

    const tls = await datastores.verify(endpoint({ tls: 'require' }), signal);
    expect(tls).toEqual({
      outcome: 'failed',
      failure: 'rejected',
      detail: expect.stringContaining('does not accept TLS connections; set config.tls to "disable"'),
    });
  });

  it("refuses the service's own PostgreSQL and addresses the outbound policy denies", async () => {
    const own = await run('postgresql.activity', {}, { port: 5432 });
    expect(own.outcome).toBe('failed');
    expect(own.error).toMatch(/^Refused: .*this service's own PostgreSQL/);

    const denying = new OutboundClient(Object.assign(new AppConfig(), { SVC_OUTBOUND_DENY: 'loopback' }));
    const strict = new ToolCatalog(undefined, { outbound: denying, datastores: new DatastoreClient(denying) });
    const denied = await strict.run('postgresql.locks', {}, context());
    expect(denied.outcome).toBe('failed');
    expect(denied.error).toContain('SVC_OUTBOUND_DENY refuses loopback');
  });

  it('fails a read of a port where nothing listens, naming the address', async () => {
    const closed = await run('postgresql.activity', {}, { port: 1 });
    expect(closed.outcome).toBe('failed');
    expect(closed.error).toBe('Could not connect to 127.0.0.1:1: connection refused');
  });
});
