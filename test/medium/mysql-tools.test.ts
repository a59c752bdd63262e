import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Connection } from 'mysql2/promise';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DatastoreClient, DatastoreEndpoint, MysqlSession } from '@svc/datastores';
import { ToolCatalog, ToolResult } from '@svc/investigations/tools';
import { AppConfig, OutboundClient } from '@svc/platform';
import { MariadbServer } from '../support/mariadb-server';
import { datastoreTools } from '../support/datastore-tools';
import { until } from '../support/until';

type Output = Record<string, any>;
const out = (result: ToolResult) => result.output as Output;
const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;
/**
 * InnoDB refreshes what INNODB_TRX and its lock views show only when they have not been read for
 * 100 ms (every tool run reads them): a poll of their state leaves longer between its reads.
 */
const INNODB_POLL_MS = 150;

/**
 * The MySQL tools against a real MariaDB (private servers, not the machine's own), each
 * diagnosis produced by a real condition made here: a transaction holding a row lock while
 * others wait, connections held by one account up to max_connections, a connection sleeping in
 * an open transaction, slow statements, a replica and its primary, a replica stopped by an error.
 */
describe('MySQL tools against a real MariaDB', () => {
  const MAX_CONNECTIONS = 20;
  let server: MariadbServer;
  const held: Connection[] = [];

  const { datastores, endpoint, context, run } = datastoreTools(
    '0190a0b0-0000-7000-8000-0000000000d2',
    () => ({
      kind: 'mysql',
      host: '127.0.0.1',
      port: server.port,
      database: 'shop',
      tls: 'disable',
      username: 'investigator',
      password: 'monitor-secret',
    }),
    { statementTimeoutMs: 5_000, lockTimeoutMs: 500 },
  );
  const watcher = { username: 'watcher', password: 'watcher-secret' };

  /** A connection of `user` (password `<user>-secret`) announcing `program`, kept until the test ends. */
  const session = async (user: string, program: string): Promise<Connection> => {
    const connection = await server.connect({ user, password: `${user}-secret`, database: 'shop', program });
    held.push(connection);
    return connection;
  };
  const threadOf = async (connection: Connection): Promise<number> => {
    const [[row]] = (await connection.query('SELECT CONNECTION_ID() AS thread')) as unknown as [Array<{ thread: number }>];
    return row.thread;
  };

  beforeAll(async () => {
    server = await MariadbServer.start({
      'max-connections': MAX_CONNECTIONS,
      'performance-schema': 'ON',
      'performance-schema-consumer-events-statements-current': 'ON',
      'innodb-lock-wait-timeout': 50,
    });
    await server.admin(`
      CREATE DATABASE shop;
      CREATE TABLE shop.orders (id INT PRIMARY KEY, status VARCHAR(20) NOT NULL) ENGINE = InnoDB;
      INSERT INTO shop.orders SELECT seq, 'new' FROM shop.seq_1_to_1000;
      CREATE USER 'investigator'@'%' IDENTIFIED BY 'monitor-secret';
      GRANT PROCESS, SLAVE MONITOR ON *.* TO 'investigator'@'%';
      GRANT SELECT ON performance_schema.* TO 'investigator'@'%';
      CREATE USER 'shop'@'%' IDENTIFIED BY 'shop-secret';
      GRANT SELECT, INSERT, UPDATE, DELETE ON shop.* TO 'shop'@'%';
      CREATE USER 'batch'@'%' IDENTIFIED BY 'batch-secret';
      GRANT SELECT, UPDATE ON shop.* TO 'batch'@'%';
      CREATE USER 'report'@'%' IDENTIFIED BY 'report-secret';
      GRANT SELECT ON shop.* TO 'report'@'%';
      CREATE USER 'watcher'@'%' IDENTIFIED BY 'watcher-secret';
      GRANT SELECT ON performance_schema.* TO 'watcher'@'%';
      CREATE USER 'writer'@'%' IDENTIFIED BY 'writer-secret';
      GRANT SELECT, INSERT ON shop.orders TO 'writer'@'%';
      CREATE ROLE maintainer;
      GRANT PROCESS ON *.* TO maintainer;
      GRANT DELETE ON shop.* TO maintainer;
      CREATE USER 'operator'@'%' IDENTIFIED BY 'operator-secret';
      GRANT maintainer TO 'operator'@'%';`);
    // The default outbound policy, as the processes have it: this private server is none of the service's own dependencies.
  });

  afterEach(async () => {
    // Closed, not ended: a connection still waiting for a lock would hold up a polite quit.
    for (const connection of held.splice(0)) connection.destroy();
    await until(
      async () => {
        const result = await run('mysql.connections');
        return out(result)?.clientConnections === 1;
      },
      10_000,
      'the test connections to end',
    );
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('names the transaction holding a row lock as the root blocker of the sessions waiting behind it', async () => {
    const batch = await session('batch', 'nightly-batch');
    const batchThread = await threadOf(batch);
    await batch.query('START TRANSACTION');
    await batch.query(`UPDATE orders SET status = 'archived' WHERE id = 7`);
    const checkout = await Promise.all([session('shop', 'checkout'), session('shop', 'checkout')]);
    const waiting = checkout.map((connection) => connection.query(`UPDATE orders SET status = 'paid' WHERE id = 7`));
    waiting.forEach((p) => p.catch(() => undefined));
    await until(async () => out(await run('mysql.lock_waits')).waiting === 2, 10_000, 'both checkout connections to wait', INNODB_POLL_MS);

    const result = await run('mysql.lock_waits');
    expect(result.outcome).toBe('succeeded');
    const output = out(result);
    expect(output.blockers).toHaveLength(1);
    expect(output.blockers[0]).toMatchObject({
      thread: batchThread,
      user: 'batch',
      client: '127.0.0.1',
      database: 'shop',
      program: 'nightly-batch',
      command: 'Sleep',
      transactionState: 'RUNNING',
      rowsLocked: 1,
      rowsModified: 1,
      blocksSessions: 2,
      tables: ['shop.orders'],
    });
    expect(output.blockers[0].transactionStarted).toMatch(ISO_TIME);
    expect(output.blockers[0].blocksUsers).toEqual([{ user: 'shop', count: 2 }]);
    expect(output.blockers[0].blocksPrograms).toEqual([{ program: 'checkout', count: 2 }]);
    expect(output.waits.map((w: Output) => [w.user, w.program, w.transactionState])).toEqual([
      ['shop', 'checkout', 'LOCK WAIT'],
      ['shop', 'checkout', 'LOCK WAIT'],
    ]);
    for (const wait of output.waits) {
      // The first waits for the batch's row; the second queues for it behind the first, and both trace back to the batch.
      expect(wait.rootBlockers).toEqual([batchThread]);
      expect(wait.blockedBy).toContain(batchThread);
      expect(wait.waitingStatement).toContain(`SET status = 'paid'`);
      expect(wait.lock).toEqual({ table: 'shop.orders', index: 'PRIMARY', mode: 'X', type: 'RECORD', data: '7' });
      expect(Date.parse(wait.waitStarted)).toBeGreaterThanOrEqual(Date.parse(output.blockers[0].transactionStarted));
    }
    expect(output.tableLockWaits).toEqual([]);
    expect(result.summary).toContain('2 sessions waiting for a lock.');
    expect(result.summary).toContain(`Root blocker: thread ${batchThread} (nightly-batch, batch from 127.0.0.1) blocks 2 sessions, in a transaction open`);
    expect(result.sources).toEqual([
      'information_schema.INNODB_LOCK_WAITS',
      'information_schema.INNODB_LOCKS',
      'information_schema.INNODB_TRX',
      'information_schema.PROCESSLIST',
    ]);

    await batch.query('ROLLBACK');
    await Promise.all(waiting);
    const after = await until(
      async () => {
        const read = await run('mysql.lock_waits');
        return out(read).waiting === 0 && read;
      },
      10_000,
      'the waits to end',
      INNODB_POLL_MS,
    );
    expect(out(after)).toMatchObject({ blockers: [], waits: [] });
    expect(after.summary).toBe('No transaction waits for a row lock.');
  });

  it('lists a connection waiting for a metadata lock behind an open transaction, which InnoDB does not show', async () => {
    const batch = await session('batch', 'nightly-batch');
    await batch.query('START TRANSACTION');
    await batch.query(`SELECT status FROM orders WHERE id = 9`);
    const admin = await server.connect({ database: 'shop', program: 'schema-migration' });
    held.push(admin);
    const adminThread = await threadOf(admin);
    const locking = admin.query('LOCK TABLES orders WRITE');
    locking.catch(() => undefined);
    const result = await until(
      async () => {
        const read = await run('mysql.lock_waits');
        return out(read).tableLockWaits.length === 1 && read;
      },
      10_000,
      'the migration to wait for the table',
    );
    expect(out(result).waiting).toBe(0);
    expect(out(result).tableLockWaits[0]).toMatchObject({ thread: adminThread, user: 'root', state: 'Waiting for table metadata lock' });
    expect(out(result).tableLockWaits[0].statement).toBe('LOCK TABLES orders WRITE');
    expect(result.summary).toContain(`No transaction waits for a row lock. 1 connection waiting for a metadata or table lock (longest thread ${adminThread} (`);

    await batch.query('ROLLBACK');
    await locking;
    await admin.query('UNLOCK TABLES');
  });

  it('counts connections held by one account up to max_connections, and says so when no slot is left', async () => {
    const before = await until(
      async () => {
        const output = out(await run('mysql.connections'));
        return output?.clientConnections === 1 && output;
      },
      10_000,
      "the tool's own connection to be the only one",
    );
    expect(before).toMatchObject({ maxConnections: MAX_CONNECTIONS, reservedForAdministrators: 1, slotsLeft: MAX_CONNECTIONS - 1, visibility: 'all' });
    // Fill every slot but the one the tool's own session takes.
    const room = MAX_CONNECTIONS - before.clientConnections;
    await Promise.all(Array.from({ length: room }, () => session('report', 'report-export')));

    const full = await run('mysql.connections');
    expect(full.outcome).toBe('succeeded');
    expect(out(full)).toMatchObject({ clientConnections: MAX_CONNECTIONS, slotsLeft: 0, usedFraction: 1 });
    expect(out(full).byUser).toEqual([
      { user: 'report', count: room },
      { user: 'investigator', count: 1 },
    ]);
    expect(out(full).byProgram[0]).toEqual({ program: 'report-export', count: room });
    expect(out(full).byCommand).toEqual(expect.arrayContaining([{ command: 'Sleep', count: room }]));
    expect(full.summary).toContain(`${MAX_CONNECTIONS} of max_connections ${MAX_CONNECTIONS} in use (100%), 0 left`);
    expect(full.summary).toContain(`By user: report ${room}, investigator 1`);

    const last = await session('report', 'report-export'); // the last slot: the tool's session finds none
    const refused = await run('mysql.connections');
    expect(refused.outcome).toBe('failed');
    expect(refused.error).toMatch(/^MySQL at 127\.0\.0\.1:\d+ has no connection slot left: Too many connections/);

    last.destroy();
    const after = await until(
      async () => {
        const result = await run('mysql.connections');
        return result.outcome === 'succeeded' && result;
      },
      10_000,
      'a slot to free',
    );
    // MariaDB counts an ordinary account refused at max_connections (after its sign-in) as an aborted connect.
    expect(out(after).abortedConnects).toBeGreaterThanOrEqual(1);
    expect(after.summary).toMatch(/\d+ failed connection attempts? since start \(Aborted_connects\)/);
  });

  it('lists a connection sleeping in an open transaction with its age, locks and last statement', async () => {
    const worker = await session('shop', 'invoice-worker');
    const workerThread = await threadOf(worker);
    await worker.query('START TRANSACTION');
    await worker.query(`SELECT status FROM orders WHERE id = 3 FOR UPDATE`);
    await session('shop', 'checkout');

    // The tool's last read (after the previous test) may be recent enough for InnoDB to show it the same transactions again.
    const result = await until(
      async () => {
        const read = await run('mysql.processlist');
        return out(read)?.idleInTransaction.length === 1 && read;
      },
      10_000,
      "the worker's transaction to show",
      INNODB_POLL_MS,
    );
    expect(result.outcome).toBe('succeeded');
    const output = out(result);
    expect(output.visibility).toBe('all');
    expect(output.idleInTransaction[0]).toMatchObject({
      thread: workerThread,
      user: 'shop',
      client: '127.0.0.1',
      database: 'shop',
      program: 'invoice-worker',
      command: 'Sleep',
      statement: null,
      transactionState: 'RUNNING',
      rowsLocked: 1,
      rowsModified: 0,
    });
    expect(output.idleInTransaction[0].lastStatement).toBe('SELECT status FROM orders WHERE id = 3 FOR UPDATE');
    expect(output.idleInTransaction[0].transactionStarted).toMatch(ISO_TIME);
    expect(output.longestTransactions.map((c: Output) => c.thread)).toEqual([workerThread]);
    expect(output.byUser).toEqual([{ user: 'shop', count: 2 }]);
    expect(output.byProgram).toEqual([
      { program: 'checkout', count: 1 },
      { program: 'invoice-worker', count: 1 },
    ]);
    expect(output.byCommand).toEqual([{ command: 'Sleep', count: 2 }]);
    expect(output.byClient).toEqual([{ client: '127.0.0.1', count: 2 }]);
    expect(output.byDatabase).toEqual([{ database: 'shop', count: 2 }]);
    expect(result.summary).toContain('2 client connections: Sleep 2; by user shop 2.');
    expect(result.summary).toContain(`Longest transaction: thread ${workerThread} (invoice-worker, shop from 127.0.0.1), open`);
    expect(result.summary).toContain('1 connection idle in a transaction');

    const none = out(await run('mysql.processlist', { minTransactionSeconds: 3600 }));
    expect(none.longestTransactions).toEqual([]);
    expect(none.idleInTransaction).toEqual([]);
  });

  it('shows an account without PROCESS only its own connections, says so, and refuses it the lock waits', async () => {
    const worker = await session('shop', 'invoice-worker');
    await worker.query('START TRANSACTION');
    await worker.query(`SELECT status FROM orders WHERE id = 4 FOR UPDATE`);

    const result = await run('mysql.processlist', {}, watcher);
    expect(result.outcome).toBe('succeeded');
    expect(out(result)).toMatchObject({ visibility: 'own', connections: 0, idleInTransaction: [] });
    expect(result.summary).toContain('GRANT PROCESS');

    const locks = await run('mysql.lock_waits', {}, watcher);
    expect(locks.outcome).toBe('failed');
    expect(locks.error).toMatch(/^MariaDB refused the read: .*PROCESS.* \(see the privileges the tools need\)$/);
  });

  it('ranks the slow statement first by total time, from performance_schema', async () => {
    await server.admin('TRUNCATE TABLE performance_schema.events_statements_summary_by_digest');
    const app = await session('shop', 'search');
    for (let i = 0; i < 3; i++) await app.query(`SELECT SLEEP(0.3), COUNT(*) FROM orders WHERE status = ?`, ['new']);
    for (let i = 0; i < 20; i++) await app.query(`SELECT status FROM orders WHERE id = ?`, [i + 1]);

    const byTime = await run('mysql.statements', { limit: 5 });
    expect(byTime.outcome).toBe('succeeded');
    expect(out(byTime).available).toBe(true);
    expect(out(byTime).statements).toHaveLength(5);
    expect(out(byTime).statements[0]).toMatchObject({ calls: 3, database: 'shop', rowsSent: 3 });
    expect(out(byTime).statements[0].query).toContain('SLEEP');
    expect(out(byTime).statements[0].meanMs).toBeGreaterThanOrEqual(300);
    expect(out(byTime).statements[0].shareOfTotalTime).toBeGreaterThan(0.5);
    expect(out(byTime).slowLog).toMatchObject({ enabled: false, longQuerySeconds: 10 });
    expect(byTime.summary).toContain('the costliest by total time: 3 calls, ');
    expect(byTime.sources).toContain('performance_schema.events_statements_summary_by_digest');

    const byMean = out(await run('mysql.statements', { orderBy: 'mean_time', limit: 1 }));
    expect(byMean.statements.map((s: Output) => s.calls)).toEqual([3]);
    const byCalls = out(await run('mysql.statements', { orderBy: 'calls' }));
    expect(byCalls.statements[0]).toMatchObject({ calls: 20, rowsSent: 20 });
    expect(byCalls.statements[0].query).toContain('FROM `orders` WHERE ID = ?');
  });

  it('reads replication of a standalone server', async () => {
    const result = await run('mysql.replication');
    expect(result.outcome).toBe('succeeded');
    expect(out(result)).toMatchObject({ role: 'primary or standalone', channels: [], replicas: [], binaryLog: false, readOnly: false });
    expect(result.summary).toBe('Not a replica, and no replica reads its binary log (binary log off).');
  });

  it('refuses every write in its sessions, even as root', async () => {
    const root = endpoint({ username: 'root', password: MariadbServer.ROOT_PASSWORD });
    const signal = new AbortController().signal;
    for (const sql of [
      `INSERT INTO shop.orders VALUES (5000, 'x')`,
      `UPDATE shop.orders SET status = 'x'`,
      `CREATE TABLE shop.scratch (id INT)`,
      `DROP TABLE shop.orders`,
      `CREATE USER intruder`,
    ]) {
      await expect(datastores.withSession(root, signal, (s: MysqlSession) => s.statement(sql))).rejects.toThrow(/READ ONLY transaction/);
      await expect(datastores.withSession(root, signal, (s: MysqlSession) => s.readOnly((query) => query(sql)))).rejects.toThrow(/READ ONLY transaction/);
    }
    const check = await server.connect({ database: 'shop' });
    try {
      const [[counts]] = (await check.query(
        `SELECT (SELECT COUNT(*) FROM orders) AS \`rows\`, (SELECT COUNT(*) FROM orders WHERE id = 5000 OR status = 'x') AS \`written\`,
                (SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'shop') AS \`tables\`,
                (SELECT COUNT(*) FROM mysql.user WHERE User = 'intruder') AS \`users\``,
      )) as unknown as [Array<Record<string, number>>];
      expect(counts).toEqual({ rows: 1000, written: 0, tables: 1, users: 0 });
    } finally {
      await check.end();
    }
  });

  it('verifies the account: a monitoring account passes, root or an account that can write fails, saying why', async () => {
    const signal = new AbortController().signal;
    const monitor = await datastores.verify(endpoint(), signal);
    expect(monitor.outcome).toBe('succeeded');
    expect(monitor.detail).toMatch(
      /^MariaDB 10\.\d+\.\d+ as investigator: read-only \(no write privilege\); sees every connection \(PROCESS\); performance_schema on \(statement timings\)$/,
    );

    const root = await datastores.verify(endpoint({ username: 'root', password: MariadbServer.ROOT_PASSWORD }), signal);
    expect(root.outcome).toBe('failed');
    expect(root.detail).toMatch(/^MariaDB 10\.\d+\.\d+ as root: the account has ALL PRIVILEGES, GRANT OPTION on \*\.\*;/);
    expect(root.detail).toContain('the tools only read, so give them an account that cannot write');

    const writer = await datastores.verify(endpoint({ username: 'writer', password: 'writer-secret' }), signal);
    expect(writer.outcome).toBe('failed');
    expect(writer.detail).toContain('the account has INSERT on shop.orders;');

    // A writing privilege held through a role (granted, not even active) counts as the account's own.
    const operator = await datastores.verify(endpoint({ username: 'operator', password: 'operator-secret' }), signal);
    expect(operator.outcome).toBe('failed');
    expect(operator.detail).toContain('the account has DELETE on shop.*;');

    const limited = await datastores.verify(endpoint(watcher), signal);
    expect(limited.outcome).toBe('succeeded');
    expect(limited.detail).toContain('sees only its own connections: GRANT PROCESS');
    expect(limited.detail).toContain('cannot read replication status: GRANT SLAVE MONITOR');

    const wrongPassword = await datastores.verify(endpoint({ password: 'not-it' }), signal);
    expect(wrongPassword).toMatchObject({ outcome: 'failed', failure: 'rejected' });
    expect(wrongPassword.detail).toMatch(/^MySQL at 127\.0\.0\.1:\d+ refused the sign-in of investigator: Access denied/);
    expect(wrongPassword.detail).not.toContain('not-it');

    const tls = await datastores.verify(endpoint({ tls: 'require' }), signal);
    expect(tls).toEqual({
      outcome: 'failed',
      failure: 'rejected',
      detail: expect.stringContaining('does not accept TLS connections; set config.tls to "disable"'),
    });
  });

  it('refuses addresses the outbound policy denies', async () => {
    const denying = new OutboundClient(Object.assign(new AppConfig(), { SVC_OUTBOUND_DENY: 'loopback' }));
    const strict = new ToolCatalog(undefined, { outbound: denying, datastores: new DatastoreClient(denying) });
    const denied = await strict.run('mysql.processlist', {}, context());
    expect(denied.outcome).toBe('failed');
    expect(denied.error).toContain('SVC_OUTBOUND_DENY refuses loopback');
  });

  it('fails a read of a port where nothing listens, naming the address', async () => {
    const closed = await run('mysql.processlist', {}, { port: 1 });
    expect(closed.outcome).toBe('failed');
    expect(closed.error).toBe('Could not connect to 127.0.0.1:1: connection refused');
    const verified = await datastores.verify(endpoint({ port: 1 }), new AbortController().signal);
    expect(verified).toEqual({ outcome: 'failed', failure: 'unreachable', detail: 'Could not connect to 127.0.0.1:1: connection refused' });
  });

  describe('over TLS', () => {
    let secure: MariadbServer;
    let dir: string;
    let certificate: string;
    const signal = new AbortController().signal;
    /** Whether the session is encrypted, as the server sees it. */
    const cipherOf = (client: DatastoreClient, overrides: Partial<DatastoreEndpoint>) =>
      client.withSession(endpoint({ port: secure.port, ...overrides }), signal, (s: MysqlSession) =>
        s.readOnly(async (query) => (await query<{ Value: string }>(`SHOW SESSION STATUS LIKE 'Ssl_cipher'`))[0]?.Value ?? ''),
      );

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'svc-datastore-mariadb-tls-'));
      // A self-signed certificate for the name localhost only (not the address 127.0.0.1), readable by the server's user.
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'ec',
          '-pkeyopt',
          'ec_paramgen_curve:prime256v1',
          '-nodes',
          '-keyout',
          join(dir, 'key.pem'),
          '-out',
          join(dir, 'cert.pem'),
          '-days',
          '1',
          '-subj',
          '/CN=localhost',
          '-addext',
          'subjectAltName=DNS:localhost',
        ],
        { stdio: 'ignore' },
      );
      chmodSync(dir, 0o755);
      chmodSync(join(dir, 'key.pem'), 0o644);
      certificate = readFileSync(join(dir, 'cert.pem'), 'utf8');
      secure = await MariadbServer.start({ 'ssl-cert': join(dir, 'cert.pem'), 'ssl-key': join(dir, 'key.pem') });
      await secure.admin(`
        CREATE USER 'investigator'@'%' IDENTIFIED BY 'monitor-secret';
        GRANT PROCESS, SLAVE MONITOR ON *.* TO 'investigator'@'%';`);
    });

    afterAll(async () => {
      await secure?.stop();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('encrypts with require, and with verify-full checks the certificate against the configured host name', async () => {
      expect(await cipherOf(datastores, { tls: 'require' })).not.toBe('');
      expect(await cipherOf(datastores, { tls: 'disable' })).toBe('');

      const trusting = new DatastoreClient(new OutboundClient(new AppConfig()), { ca: certificate });
      // localhost resolves to the addresses the session connects to; the certificate is checked against the name.
      expect(await cipherOf(trusting, { tls: 'verify-full', host: 'localhost' })).not.toBe('');

      const untrusted = await datastores.verify(endpoint({ port: secure.port, tls: 'verify-full', host: 'localhost' }), signal);
      expect(untrusted).toMatchObject({ outcome: 'failed', failure: 'rejected' });
      expect(untrusted.detail).toMatch(/^MySQL at localhost:\d+: TLS certificate not trusted \(self[- ]signed certificate/);

      // The same server by its address, which the certificate does not name.
      const byAddress = await trusting.verify(endpoint({ port: secure.port, tls: 'verify-full' }), signal);
      expect(byAddress).toMatchObject({ outcome: 'failed', failure: 'rejected' });
      expect(byAddress.detail).toMatch(/^MySQL at 127\.0\.0\.1:\d+: TLS certificate not trusted \(.*IP: 127\.0\.0\.1 is not in the cert's list/);
    });
  });

  describe('a replica and its primary', () => {
    let primary: MariadbServer;
    let replica: MariadbServer;
    const on = (target: MariadbServer) => ({ port: target.port });
    const replicationOf = (target: MariadbServer) => run('mysql.replication', {}, on(target));
    /** The replica's channel once both of its threads run and it has applied everything. */
    const caughtUp = () =>
      until(
        async () => {
          const result = await replicationOf(replica);
          const channel = out(result)?.channels?.[0];
          return channel?.ioRunning === 'Yes' && channel.sqlRunning === 'Yes' && channel.secondsBehindSource === 0 && result;
        },
        20_000,
        'the replica to run and catch up',
      );

    beforeAll(async () => {
      [primary, replica] = await Promise.all([
        MariadbServer.start({ 'server-id': 1, 'log-bin': 'primary-bin', 'binlog-format': 'ROW' }),
        // MariaDB's default: performance_schema off.
        MariadbServer.start({ 'server-id': 2, 'read-only': 'ON' }),
      ]);
      // Binary logged, so the replica makes the same accounts and tables.
      await primary.admin(`
        CREATE USER 'repl'@'%' IDENTIFIED BY 'repl-secret';
        GRANT REPLICATION SLAVE ON *.* TO 'repl'@'%';
        CREATE USER 'investigator'@'%' IDENTIFIED BY 'monitor-secret';
        GRANT PROCESS, SLAVE MONITOR ON *.* TO 'investigator'@'%';
        GRANT SELECT ON performance_schema.* TO 'investigator'@'%';
        CREATE DATABASE shop;
        CREATE TABLE shop.events (id INT PRIMARY KEY, kind VARCHAR(20) NOT NULL) ENGINE = InnoDB;`);
      await replica.admin(`
        CHANGE MASTER TO MASTER_HOST = '127.0.0.1', MASTER_PORT = ${primary.port}, MASTER_USER = 'repl', MASTER_PASSWORD = 'repl-secret',
          MASTER_USE_GTID = slave_pos, MASTER_CONNECT_RETRY = 1;
        START SLAVE;`);
    });

    afterAll(async () => {
      await Promise.all([replica?.stop(), primary?.stop()]);
    });

    it('reads a running replica from the replica and its replica from the primary', async () => {
      const result = await caughtUp();
      expect(out(result)).toMatchObject({ role: 'replica', serverId: 2, readOnly: true, replicas: [] });
      expect(out(result).channels).toEqual([
        expect.objectContaining({
          channel: '',
          sourceHost: '127.0.0.1',
          sourcePort: primary.port,
          ioRunning: 'Yes',
          sqlRunning: 'Yes',
          secondsBehindSource: 0,
          lastIoError: null,
          lastSqlError: null,
          usingGtid: 'Slave_Pos',
        }),
      ]);
      expect(result.summary).toContain(`A replica (1 channel): from 127.0.0.1:${primary.port}: IO Yes, SQL Yes, 0 s behind.`);

      const fromPrimary = await replicationOf(primary);
      expect(out(fromPrimary)).toMatchObject({ role: 'primary', serverId: 1, binaryLog: true, binlogFormat: 'ROW', channels: [] });
      expect(out(fromPrimary).replicas).toEqual([expect.objectContaining({ user: 'repl', client: '127.0.0.1' })]);
      expect(fromPrimary.summary).toBe('A primary with 1 replica reading its binary log: repl from 127.0.0.1.');
    });

    it('reports the replica stopped by an error with the error, and no lag figure', async () => {
      await caughtUp();
      const row = 100;
      // A row written on the replica alone: the primary's insert of the same key stops the replica's SQL thread.
      await replica.admin(`INSERT INTO shop.events VALUES (${row}, 'local')`);
      await primary.admin(`INSERT INTO shop.events VALUES (${row}, 'primary')`);
      try {
        const stopped = await until(
          async () => {
            const result = await replicationOf(replica);
            return out(result)?.channels?.[0]?.sqlRunning === 'No' && result;
          },
          20_000,
          'the replica to stop at the duplicate key',
        );
        expect(out(stopped).channels[0]).toMatchObject({ ioRunning: 'Yes', sqlRunning: 'No', secondsBehindSource: null, lastIoError: null });
        expect(out(stopped).channels[0].lastSqlError).toMatchObject({ errno: 1062 });
        expect(out(stopped).channels[0].lastSqlError.message).toContain('Duplicate entry');
        expect(stopped.summary).toContain('IO Yes, SQL No, lag unknown (SQL thread not running); last SQL error 1062:');
      } finally {
        await replica.admin(`DELETE FROM shop.events WHERE id = ${row}; START SLAVE SQL_THREAD`);
      }
      await caughtUp();
    });

    it('says performance_schema is off where it is, and verify says so too', async () => {
      await caughtUp(); // the accounts are the primary's, replicated
      const result = await run('mysql.statements', {}, on(replica));
      expect(result.outcome).toBe('succeeded');
      expect(out(result)).toMatchObject({ available: false, statements: [] });
      expect(result.summary).toContain('No statement timings: performance_schema is off: set performance_schema=ON');

      const verified = await datastores.verify(endpoint(on(replica)), new AbortController().signal);
      expect(verified.outcome).toBe('succeeded');
      expect(verified.detail).toMatch(
        /^MariaDB 10\.\d+\.\d+ as investigator: read-only \(no write privilege\); sees every connection \(PROCESS\); performance_schema off \(no statement timings\)$/,
      );
    });
  });
});
