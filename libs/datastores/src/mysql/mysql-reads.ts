import { MAX_ROWS, MAX_STATEMENT_LENGTH } from '../datastore.types';
import { countBy, named } from '../grouping';
import type { MysqlQuery, MysqlServer, MysqlSession } from './mysql-session';

type Query = MysqlQuery;

/** A client connection as the reads show it (from information_schema.PROCESSLIST, with its InnoDB transaction). */
export interface MysqlConnection {
  thread: number;
  user: string | null;
  /** The client's host or address, without its port (`localhost` for a socket). */
  client: string | null;
  database: string | null;
  /** The program_name the client announced (performance_schema.session_connect_attrs), when readable. */
  program: string | null;
  /** Sleep, Query, Binlog Dump, … */
  command: string;
  /** Seconds in the current command (for Sleep: since its last statement). */
  seconds: number | null;
  state: string | null;
  /** The statement running now (none while it sleeps). */
  statement: string | null;
  /** The last statement of a sleeping connection (performance_schema.events_statements_current, when enabled and readable). */
  lastStatement: string | null;
  /** Its InnoDB transaction (null outside one, or when the account cannot read INNODB_TRX). */
  transactionId: string | null;
  /** RUNNING, LOCK WAIT, ROLLING BACK, COMMITTING. */
  transactionState: string | null;
  transactionStarted: string | null;
  /** Seconds since the transaction began. */
  transactionSeconds: number | null;
  rowsLocked: number | null;
  rowsModified: number | null;
}

interface ProcessRow {
  thread: number;
  user: string | null;
  host: string | null;
  database: string | null;
  command: string;
  seconds: number | null;
  state: string | null;
  statement: string | null;
}

interface TransactionRow {
  thread: number | null;
  transactionId: string;
  transactionState: string;
  transactionStarted: string | null;
  transactionSeconds: number | null;
  waitStarted: string | null;
  waitSeconds: number | null;
  rowsLocked: number | null;
  rowsModified: number | null;
  transactionStatement: string | null;
}

const PROCESS_COLUMNS = `p.ID AS \`thread\`, p.USER AS \`user\`, p.HOST AS \`host\`, p.DB AS \`database\`, p.COMMAND AS \`command\`,
  p.TIME AS \`seconds\`, p.STATE AS \`state\`, LEFT(p.INFO, ${MAX_STATEMENT_LENGTH}) AS \`statement\``;

/** Client connections: not the server's own threads (event scheduler, replication appliers). */
const CLIENT_THREADS = `p.COMMAND <> 'Daemon' AND coalesce(p.USER, '') NOT IN ('system user', 'event_scheduler')`;

const ISO = (column: string) => `DATE_FORMAT(${column}, '%Y-%m-%dT%H:%i:%sZ')`;
const ISO_MICROS = (column: string) => `DATE_FORMAT(${column}, '%Y-%m-%dT%H:%i:%s.%fZ')`;

const TRANSACTION_COLUMNS = `t.trx_mysql_thread_id AS \`thread\`, CAST(t.trx_id AS CHAR) AS \`transactionId\`, t.trx_state AS \`transactionState\`,
  ${ISO('t.trx_started')} AS \`transactionStarted\`, TIMESTAMPDIFF(SECOND, t.trx_started, NOW()) AS \`transactionSeconds\`,
  ${ISO('t.trx_wait_started')} AS \`waitStarted\`, TIMESTAMPDIFF(SECOND, t.trx_wait_started, NOW()) AS \`waitSeconds\`,
  t.trx_rows_locked AS \`rowsLocked\`, t.trx_rows_modified AS \`rowsModified\`, LEFT(t.trx_query, ${MAX_STATEMENT_LENGTH}) AS \`transactionStatement\``;

/** ER_SPECIFIC_ACCESS_DENIED_ERROR: the account lacks a global privilege (here PROCESS). */
const isAccessDenied = (error: unknown) => [1227, 1142, 1143, 1044].includes((error as { errno?: number }).errno ?? 0);

/** `host:port` as PROCESSLIST shows a TCP client, without the port. */
const withoutPort = (host: string | null) => (host ? host.replace(/:\d+$/, '') : null);

async function globalValues(query: Query, statement: 'VARIABLES' | 'STATUS', names: string[]): Promise<Record<string, string>> {
  // SHOW rather than @@name: MariaDB answers 0 for a boolean @@variable in a query with an aggregate.
  const rows = await query<{ Variable_name: string; Value: string }>(
    `SHOW GLOBAL ${statement} WHERE Variable_name IN (${names.map(() => '?').join(', ')})`,
    names,
  );
  return Object.fromEntries(rows.map((row) => [row.Variable_name.toLowerCase(), row.Value]));
}

const numberOf = (value: string | undefined) => (value === undefined || value === '' ? null : Number(value));
const on = (value: string | undefined) => value === 'ON' || value === '1';

/**
 * Every InnoDB transaction, or null when the account may not read them: INNODB_TRX needs the
 * PROCESS privilege, as does seeing other accounts' connections in PROCESSLIST.
 */
async function transactions(query: Query): Promise<TransactionRow[] | null> {
  try {
    return await query<TransactionRow>(`SELECT ${TRANSACTION_COLUMNS} FROM information_schema.INNODB_TRX t`);
  } catch (error) {
    if (isAccessDenied(error)) return null;
    throw error;
  }
}

/** What performance_schema adds when it is on and readable: each connection's program name and a sleeping one's last statement. */
async function performanceDetails(query: Query): Promise<{ programs: Map<number, string>; lastStatements: Map<number, string> }> {
  const programs = new Map<number, string>();
  const lastStatements = new Map<number, string>();
  try {
    for (const row of await query<{ thread: number; program: string }>(
      `SELECT PROCESSLIST_ID AS \`thread\`, ATTR_VALUE AS \`program\` FROM performance_schema.session_connect_attrs WHERE ATTR_NAME = 'program_name'`,
    ))
      programs.set(row.thread, row.program);
    for (const row of await query<{ thread: number; statement: string }>(
      `SELECT t.PROCESSLIST_ID AS \`thread\`, LEFT(s.SQL_TEXT, ${MAX_STATEMENT_LENGTH}) AS \`statement\`
         FROM performance_schema.events_statements_current s JOIN performance_schema.threads t ON t.THREAD_ID = s.THREAD_ID
        WHERE t.PROCESSLIST_ID IS NOT NULL AND s.END_EVENT_ID IS NOT NULL AND s.SQL_TEXT IS NOT NULL`,
    ))
      lastStatements.set(row.thread, row.statement);
  } catch {
    // performance_schema not readable by this account: the connections are shown without these.
  }
  return { programs, lastStatements };
}

/** The client connections other than this session's, with their transactions when the account may read them. */
async function clientConnections(query: Query, options: { includeSelf?: boolean } = {}) {
  const rows = await query<ProcessRow>(
    `SELECT ${PROCESS_COLUMNS} FROM information_schema.PROCESSLIST p WHERE ${CLIENT_THREADS}${options.includeSelf ? '' : ' AND p.ID <> CONNECTION_ID()'}`,
  );
  const trx = await transactions(query);
  const { programs, lastStatements } = await performanceDetails(query);
  const byThread = new Map((trx ?? []).filter((t) => t.thread).map((t) => [Number(t.thread), t]));
  const connections: MysqlConnection[] = rows.map((row) => {
    const t = byThread.get(Number(row.thread));
    return {
      thread: Number(row.thread),
      user: row.user,
      client: withoutPort(row.host),
      database: row.database,
      program: programs.get(Number(row.thread)) ?? null,
      command: row.command,
      seconds: row.seconds,
      state: row.state || null,
      statement: row.statement,
      lastStatement: row.command === 'Sleep' ? (lastStatements.get(Number(row.thread)) ?? null) : null,
      transactionId: t?.transactionId ?? null,
      transactionState: t?.transactionState ?? null,
      transactionStarted: t?.transactionStarted ?? null,
      transactionSeconds: t?.transactionSeconds ?? null,
      rowsLocked: t?.rowsLocked ?? null,
      rowsModified: t?.rowsModified ?? null,
    };
  });
  return { connections, transactions: trx, visibility: trx === null ? ('own' as const) : ('all' as const) };
}

const groups = (connections: MysqlConnection[]) => ({
  byCommand: named('command')(countBy(connections, (c) => c.command)),
  byUser: named('user')(countBy(connections, (c) => c.user ?? 'unknown')),
  byClient: named('client')(countBy(connections, (c) => c.client ?? 'unknown')),
  byDatabase: named('database')(countBy(connections, (c) => c.database ?? '(none)')),
  byProgram: named('program')(countBy(connections, (c) => c.program ?? '(unknown)')),
});

/**
 * Connections by command, state, user, client, database and program; the longest-running
 * statements; the longest-open transactions and the connections sleeping with one open.
 */
async function processlist(query: Query, args: { minTransactionSeconds?: number }) {
  const { connections, visibility } = await clientConnections(query);
  const minimum = args.minTransactionSeconds ?? 0;
  const inTransaction = connections
    .filter((c) => c.transactionSeconds !== null && c.transactionSeconds >= minimum)
    .sort((a, b) => (b.transactionSeconds ?? 0) - (a.transactionSeconds ?? 0));
  const { byCommand, ...rest } = groups(connections);
  return {
    connections: connections.length,
    visibility,
    byCommand,
    byState: named('state')(countBy(connections, (c) => c.state ?? '(none)')),
    ...rest,
    /** Transactions waiting for a row lock (mysql.lock_waits says who holds it). */
    waitingForLock: connections.filter((c) => c.transactionState === 'LOCK WAIT').length,
    longestRunning: connections
      .filter((c) => c.command !== 'Sleep' && !c.command.startsWith('Binlog Dump'))
      .sort((a, b) => (b.seconds ?? 0) - (a.seconds ?? 0))
      .slice(0, MAX_ROWS),
    longestTransactions: inTransaction.slice(0, MAX_ROWS),
    /** Sleeping with a transaction open: holding its locks and snapshot while doing nothing. */
    idleInTransaction: inTransaction.filter((c) => c.command === 'Sleep').slice(0, MAX_ROWS),
  };
}

interface LockWaitRow {
  requesting: string;
  blocking: string;
  requestedLock: string | null;
}

interface LockRow {
  lockId: string;
  mode: string | null;
  type: string | null;
  table: string | null;
  index: string | null;
  data: string | null;
}

/**
 * Who waits for a row or table lock in InnoDB and who holds it: every waiting transaction with
 * the transactions blocking it and the lock it wants, and the root blockers (blocking, not
 * waiting themselves) with how many wait behind each, directly or through others. MariaDB and
 * MySQL 5.7 show the waits in information_schema.INNODB_LOCK_WAITS and INNODB_LOCKS, MySQL 8 in
 * performance_schema.data_lock_waits and data_locks. Also the connections waiting for a
 * metadata or table lock (an ALTER behind an open transaction), which InnoDB does not list.
 */
async function lockWaits(query: Query) {
  const [legacy] = await query<{ found: number }>(
    `SELECT COUNT(*) AS \`found\` FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'information_schema' AND TABLE_NAME = 'INNODB_LOCK_WAITS'`,
  );
  const waitRows = legacy.found
    ? await query<LockWaitRow>(
        `SELECT CAST(w.requesting_trx_id AS CHAR) AS \`requesting\`, CAST(w.blocking_trx_id AS CHAR) AS \`blocking\`, w.requested_lock_id AS \`requestedLock\`
           FROM information_schema.INNODB_LOCK_WAITS w`,
      )
    : await query<LockWaitRow>(
        `SELECT CAST(w.REQUESTING_ENGINE_TRANSACTION_ID AS CHAR) AS \`requesting\`, CAST(w.BLOCKING_ENGINE_TRANSACTION_ID AS CHAR) AS \`blocking\`,
                w.REQUESTING_ENGINE_LOCK_ID AS \`requestedLock\`
           FROM performance_schema.data_lock_waits w WHERE w.ENGINE = 'INNODB'`,
      );
  const tableLockWaits = (
    await query<ProcessRow>(
      `SELECT ${PROCESS_COLUMNS} FROM information_schema.PROCESSLIST p
        WHERE ${CLIENT_THREADS} AND p.ID <> CONNECTION_ID() AND (p.STATE LIKE 'Waiting for%lock' OR p.STATE LIKE 'Waiting for table flush')
        ORDER BY p.TIME DESC LIMIT ${MAX_ROWS}`,
    )
  ).map(({ host, ...row }) => ({ ...row, client: withoutPort(host) }));
  /** Where the waits were read: MariaDB and MySQL 5.7 in information_schema, MySQL 8 in performance_schema. */
  const views = legacy.found
    ? ['information_schema.INNODB_LOCK_WAITS', 'information_schema.INNODB_LOCKS']
    : ['performance_schema.data_lock_waits', 'performance_schema.data_locks'];
  if (waitRows.length === 0) return { waiting: 0, views, blockers: [], waits: [], tableLockWaits };

  const trx = await query<TransactionRow>(`SELECT ${TRANSACTION_COLUMNS} FROM information_schema.INNODB_TRX t`);
  const { connections } = await clientConnections(query);
  const lockIds = [...new Set(waitRows.map((w) => w.requestedLock).filter((id): id is string => !!id))];
  const locks = lockIds.length
    ? legacy.found
      ? await query<LockRow>(
          `SELECT l.lock_id AS \`lockId\`, l.lock_mode AS \`mode\`, l.lock_type AS \`type\`, REPLACE(l.lock_table, '\`', '') AS \`table\`,
                  l.lock_index AS \`index\`, l.lock_data AS \`data\`
             FROM information_schema.INNODB_LOCKS l WHERE l.lock_id IN (${lockIds.map(() => '?').join(', ')})`,
          lockIds,
        )
      : await query<LockRow>(
          `SELECT l.ENGINE_LOCK_ID AS \`lockId\`, l.LOCK_MODE AS \`mode\`, l.LOCK_TYPE AS \`type\`, CONCAT(l.OBJECT_SCHEMA, '.', l.OBJECT_NAME) AS \`table\`,
                  l.INDEX_NAME AS \`index\`, l.LOCK_DATA AS \`data\`
             FROM performance_schema.data_locks l WHERE l.ENGINE_LOCK_ID IN (${lockIds.map(() => '?').join(', ')})`,
          lockIds,
        )
    : [];

  const transactionOf = new Map(trx.map((t) => [t.transactionId, t]));
  const connectionOf = new Map(connections.map((c) => [c.thread, c]));
  /** A transaction as the output shows it: its connection (when it has one) with the transaction's figures. */
  const described = (id: string) => {
    const t = transactionOf.get(id);
    const connection = t?.thread ? connectionOf.get(Number(t.thread)) : undefined;
    return {
      ...(connection ?? { thread: t?.thread ? Number(t.thread) : null, user: null, client: null, database: null, program: null, command: null }),
      transactionId: id,
      transactionState: t?.transactionState ?? null,
      transactionStarted: t?.transactionStarted ?? null,
      transactionSeconds: t?.transactionSeconds ?? null,
      rowsLocked: t?.rowsLocked ?? null,
      rowsModified: t?.rowsModified ?? null,
    };
  };
  const threadOf = (id: string) => {
    const thread = transactionOf.get(id)?.thread;
    return thread ? Number(thread) : null;
  };

  const blockedBy = new Map<string, string[]>();
  for (const w of waitRows) blockedBy.set(w.requesting, [...new Set([...(blockedBy.get(w.requesting) ?? []), w.blocking])]);
  /** The blockers at the head of each chain behind `id`. */
  const roots = (id: string, path = new Set<string>()): string[] => {
    const direct = blockedBy.get(id);
    if (!direct || path.has(id)) return [id];
    path.add(id);
    return [...new Set(direct.flatMap((next) => roots(next, path)))];
  };
  const waits = [...blockedBy.keys()]
    .map((id) => {
      const t = transactionOf.get(id);
      const requested = waitRows.find((w) => w.requesting === id)?.requestedLock;
      const lock = locks.find((l) => l.lockId === requested);
      const rootIds = roots(id).filter((root) => root !== id);
      return {
        ...described(id),
        waitStarted: t?.waitStarted ?? null,
        waitSeconds: t?.waitSeconds ?? null,
        /** The statement waiting. */
        waitingStatement: t?.transactionStatement ?? null,
        lock: lock ? { table: lock.table, index: lock.index, mode: lock.mode, type: lock.type, data: lock.data } : null,
        blockedBy: (blockedBy.get(id) ?? []).map(threadOf),
        blockingTransactions: blockedBy.get(id) ?? [],
        rootBlockers: rootIds.map(threadOf),
        rootTransactions: rootIds,
      };
    })
    .sort((a, b) => (b.waitSeconds ?? 0) - (a.waitSeconds ?? 0) || (a.thread ?? 0) - (b.thread ?? 0));
  const rootIds = [...new Set(waits.flatMap((w) => w.rootTransactions))];
  const blockers = rootIds
    .map((id) => {
      const behind = waits.filter((w) => w.rootTransactions.includes(id));
      return {
        ...described(id),
        blocksSessions: behind.length,
        blocksUsers: named('user')(countBy(behind, (w) => w.user ?? 'unknown')),
        blocksPrograms: named('program')(countBy(behind, (w) => w.program ?? '(unknown)')),
        /** The tables its waiters want. */
        tables: [...new Set(behind.map((w) => w.lock?.table).filter((table): table is string => !!table))],
      };
    })
    .sort((a, b) => b.blocksSessions - a.blocksSessions);
  return { waiting: waits.length, views, blockers: blockers.slice(0, MAX_ROWS), waits: waits.slice(0, MAX_ROWS), tableLockWaits };
}

/** Client connections against max_connections, by user, client, database, command and program; refused connections since start. */
async function connections(query: Query) {
  const settings = await globalValues(query, 'VARIABLES', ['max_connections', 'max_user_connections']);
  const counters = await globalValues(query, 'STATUS', [
    'Threads_connected',
    'Threads_running',
    'Max_used_connections',
    'Aborted_connects',
    'Aborted_clients',
    'Connection_errors_max_connections',
    'Connections',
  ]);
  const { connections: sessions, visibility } = await clientConnections(query, { includeSelf: true });
  const [server] = await query<{ self: number; now: string }>(`SELECT CONNECTION_ID() AS \`self\`, ${ISO_MICROS('UTC_TIMESTAMP(6)')} AS \`now\``);
  const max = numberOf(settings.max_connections) ?? 0;
  const used = numberOf(counters.threads_connected) ?? sessions.length;
  const perUser = numberOf(settings.max_user_connections) ?? 0;
  const byGroups = groups(sessions);
  return {
    maxConnections: max,
    /** 0: no limit per account. */
    maxUserConnections: perUser,
    /** One connection past max_connections is kept for an account with SUPER (MariaDB: CONNECTION ADMIN; MySQL: CONNECTION_ADMIN). */
    reservedForAdministrators: 1,
    /** Threads_connected: client connections, this one included. */
    clientConnections: used,
    threadsRunning: numberOf(counters.threads_running),
    maxUsedConnections: numberOf(counters.max_used_connections),
    usedFraction: max > 0 ? Math.round((used / max) * 1000) / 1000 : 0,
    /** Slots left for ordinary accounts. */
    slotsLeft: Math.max(0, max - used),
    /**
     * Since the server started (Connection_errors_max_connections): connections refused before their sign-in, every slot
     * (the administrator's included) taken.
     */
    refusedAtMaxConnections: numberOf(counters.connection_errors_max_connections),
    /**
     * Since the server started (Aborted_connects): failed connection attempts of any kind. MariaDB counts here, and only
     * here, an ordinary account refused at max_connections after its sign-in (the last slot being kept for an administrator).
     */
    abortedConnects: numberOf(counters.aborted_connects),
    abortedClients: numberOf(counters.aborted_clients),
    connectionsSinceStart: numberOf(counters.connections),
    visibility,
    ...byGroups,
    usersAtLimit: perUser > 0 ? byGroups.byUser.filter((u) => u.count >= perUser) : [],
    heldBy: heldBy(
      sessions.filter((c) => c.thread !== Number(server.self)),
      Date.parse(server.now),
    ),
  };
}

/**
 * Who holds the connections (this session left out), most first: each program by the name it
 * announced (program_name, readable with performance_schema on), else each user; with by when every
 * one of its connections was open at the latest. MySQL keeps no connection start, only each
 * connection's time in its current command (for Sleep, since its last statement): the connection
 * was open that long before the read, so all of them were open by the read less the shortest.
 */
function heldBy(connections: MysqlConnection[], now: number) {
  const groups = new Map<string, { holder: string; holderKind: 'program' | 'user'; count: number; shortestSeconds: number }>();
  for (const c of connections) {
    const holderKind = c.program ? ('program' as const) : ('user' as const);
    const holder = c.program ?? c.user ?? 'unknown';
    const key = `${holderKind}:${holder}`;
    const group = groups.get(key) ?? { holder, holderKind, count: 0, shortestSeconds: Number.POSITIVE_INFINITY };
    group.count += 1;
    group.shortestSeconds = Math.min(group.shortestSeconds, c.seconds ?? 0);
    groups.set(key, group);
  }
  return [...groups.values()]
    .sort((a, b) => b.count - a.count || a.holder.localeCompare(b.holder))
    .slice(0, MAX_ROWS)
    .map(({ shortestSeconds, ...g }) => ({ ...g, allOpenBy: new Date(now - shortestSeconds * 1000).toISOString() }));
}

/** The costliest statement digests from performance_schema, and the slow query log's settings. */
async function statements(query: Query, args: { orderBy?: 'total_time' | 'mean_time' | 'calls'; limit?: number }) {
  const settings = await globalValues(query, 'VARIABLES', ['performance_schema', 'slow_query_log', 'long_query_time']);
  const counters = await globalValues(query, 'STATUS', ['Slow_queries', 'Performance_schema_digest_lost']);
  const slowLog = {
    enabled: on(settings.slow_query_log),
    longQuerySeconds: numberOf(settings.long_query_time),
    /** Statements slower than long_query_time since the server started (counted even with the log off). */
    slowQueries: numberOf(counters.slow_queries),
  };
  if (!on(settings.performance_schema)) {
    return {
      available: false,
      reason:
        'performance_schema is off: set performance_schema=ON in the server configuration and restart the server to see statement timings (MariaDB has it off by default)',
      statements: [],
      slowLog,
    };
  }
  const [consumer] = await query<{ enabled: string }>(`SELECT ENABLED AS \`enabled\` FROM performance_schema.setup_consumers WHERE NAME = 'statements_digest'`);
  if (consumer?.enabled !== 'YES') {
    return {
      available: false,
      reason: `performance_schema does not collect statement digests: enable its statements_digest consumer (performance-schema-consumer-statements-digest=ON)`,
      statements: [],
      slowLog,
    };
  }
  const order = args.orderBy === 'calls' ? 'COUNT_STAR' : args.orderBy === 'mean_time' ? 'AVG_TIMER_WAIT' : 'SUM_TIMER_WAIT';
  const limit = Math.max(1, Math.min(args.limit ?? 10, MAX_ROWS));
  // Timers are picoseconds.
  const rows = await query<Record<string, unknown> & { totalMs: number }>(
    `SELECT SCHEMA_NAME AS \`database\`, DIGEST AS \`digest\`, COUNT_STAR AS \`calls\`,
            ROUND(SUM_TIMER_WAIT / 1000000000, 1) AS \`totalMs\`, ROUND(AVG_TIMER_WAIT / 1000000000, 2) AS \`meanMs\`,
            ROUND(MAX_TIMER_WAIT / 1000000000, 1) AS \`maxMs\`, ROUND(SUM_LOCK_TIME / 1000000000, 1) AS \`lockMs\`,
            SUM_ROWS_EXAMINED AS \`rowsExamined\`, SUM_ROWS_SENT AS \`rowsSent\`, SUM_ROWS_AFFECTED AS \`rowsAffected\`,
            SUM_ERRORS AS \`errors\`, SUM_NO_INDEX_USED AS \`noIndexUsed\`, SUM_CREATED_TMP_DISK_TABLES AS \`tmpDiskTables\`,
            ${ISO('FIRST_SEEN')} AS \`firstSeen\`, ${ISO('LAST_SEEN')} AS \`lastSeen\`, LEFT(DIGEST_TEXT, ${MAX_STATEMENT_LENGTH}) AS \`query\`
       FROM performance_schema.events_statements_summary_by_digest
      WHERE DIGEST_TEXT IS NOT NULL AND DIGEST_TEXT NOT LIKE '%events_statements_summary_by_digest%'
      ORDER BY ${order} DESC LIMIT ${limit}`,
  );
  const [totals] = await query<{ statements: number; totalMs: number | null; since: string | null }>(
    `SELECT COUNT(*) AS \`statements\`, ROUND(SUM(SUM_TIMER_WAIT) / 1000000000, 1) AS \`totalMs\`, ${ISO('MIN(FIRST_SEEN)')} AS \`since\`
       FROM performance_schema.events_statements_summary_by_digest`,
  );
  const totalMs = totals.totalMs ?? 0;
  return {
    available: true,
    orderBy: args.orderBy ?? 'total_time',
    statementsTracked: totals.statements,
    totalMs,
    /** The first statement of the oldest digest: the figures are totals since about then, not rates. */
    since: totals.since,
    /** Statements not given a digest of their own because the digest table was full. */
    digestsLost: numberOf(counters.performance_schema_digest_lost),
    slowLog,
    statements: rows.map((row) => ({
      ...row,
      shareOfTotalTime: totalMs > 0 ? Math.round((row.totalMs / totalMs) * 1000) / 1000 : 0,
    })),
  };
}

type StatusRow = Record<string, unknown>;
/** A column of SHOW REPLICA STATUS by its new name or its old one (MySQL renamed Master to Source, Slave to Replica). */
const column = (row: StatusRow, ...names: string[]) => {
  for (const name of names) if (row[name] !== undefined) return row[name];
  return null;
};
const text = (value: unknown) => (value === null || value === undefined || value === '' ? null : String(value));
const num = (value: unknown) => (value === null || value === undefined || value === '' ? null : Number(value));

/** SHOW [ALL] REPLICAS STATUS, or its older name where the server does not know the new one. */
async function replicaStatus(query: Query, server: MysqlServer): Promise<StatusRow[]> {
  const [current, older] = server.mariadb ? ['SHOW ALL REPLICAS STATUS', 'SHOW ALL SLAVES STATUS'] : ['SHOW REPLICA STATUS', 'SHOW SLAVE STATUS'];
  try {
    return await query<StatusRow>(current);
  } catch (error) {
    // ER_PARSE_ERROR: a server older than the new name.
    if ((error as { errno?: number }).errno !== 1064) throw error;
    return query<StatusRow>(older);
  }
}

/** Replication seen from this server: the sources it replicates from (a replica), and the replicas reading its binary log (a primary). */
async function replication(query: Query, _args: Record<string, never>, server: MysqlServer) {
  const settings = await globalValues(query, 'VARIABLES', ['log_bin', 'server_id', 'read_only', 'binlog_format']);
  const channels = (await replicaStatus(query, server)).map((row) => {
    const error = (errno: unknown, message: unknown, at: unknown) => (num(errno) ? { errno: num(errno), message: text(message), at: text(at) } : null);
    return {
      channel: text(column(row, 'Connection_name', 'Channel_Name', 'Channel_name')) ?? '',
      sourceHost: text(column(row, 'Source_Host', 'Master_Host')),
      sourcePort: num(column(row, 'Source_Port', 'Master_Port')),
      ioRunning: text(column(row, 'Replica_IO_Running', 'Slave_IO_Running')),
      sqlRunning: text(column(row, 'Replica_SQL_Running', 'Slave_SQL_Running')),
      /** Null while the SQL thread is not running. */
      secondsBehindSource: num(column(row, 'Seconds_Behind_Source', 'Seconds_Behind_Master')),
      sqlDelaySeconds: num(column(row, 'SQL_Delay')),
      ioState: text(column(row, 'Replica_IO_State', 'Slave_IO_State')),
      sqlState: text(column(row, 'Replica_SQL_Running_State', 'Slave_SQL_Running_State')),
      lastIoError: error(column(row, 'Last_IO_Errno'), column(row, 'Last_IO_Error'), column(row, 'Last_IO_Error_Timestamp')),
      lastSqlError: error(column(row, 'Last_SQL_Errno'), column(row, 'Last_SQL_Error'), column(row, 'Last_SQL_Error_Timestamp')),
      relayLogBytes: num(column(row, 'Relay_Log_Space')),
      usingGtid: text(column(row, 'Using_Gtid', 'Auto_Position')),
    };
  });
  const dumps = await query<ProcessRow>(
    `SELECT ${PROCESS_COLUMNS} FROM information_schema.PROCESSLIST p WHERE p.COMMAND LIKE 'Binlog Dump%' ORDER BY p.ID LIMIT ${MAX_ROWS}`,
  );
  const replicas = dumps.map((d) => ({ thread: d.thread, user: d.user, client: withoutPort(d.host), connectedSeconds: d.seconds, state: d.state }));
  const visibility = (await transactions(query)) === null ? 'own' : 'all';
  return {
    role: channels.length ? 'replica' : replicas.length ? 'primary' : 'primary or standalone',
    serverId: numberOf(settings.server_id),
    binaryLog: on(settings.log_bin),
    binlogFormat: settings.binlog_format ?? null,
    readOnly: on(settings.read_only),
    channels,
    /** Replicas connected to this server: its binary log dump threads (seen in full with PROCESS). */
    replicas,
    visibility,
  };
}

/** Every read of a MySQL or MariaDB server the tools (and relays) may run, by name. */
export const MYSQL_READS = {
  processlist,
  lock_waits: lockWaits,
  connections,
  statements,
  replication,
} satisfies Record<string, (query: Query, args: never, server: MysqlServer) => Promise<unknown>>;

export type MysqlRead = keyof typeof MYSQL_READS;

export async function readMysql(session: MysqlSession, read: MysqlRead, args: Record<string, unknown>): Promise<unknown> {
  const run = MYSQL_READS[read] as (query: Query, args: Record<string, unknown>, server: MysqlServer) => Promise<unknown>;
  return session.readOnly((query) => run(query, args, session.server));
}
