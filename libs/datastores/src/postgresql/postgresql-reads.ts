import { MAX_ROWS, MAX_STATEMENT_LENGTH } from '../datastore.types';
import { countBy, named } from '../grouping';
import type { PostgresqlSession } from './postgresql-session';

type Query = <R>(sql: string, params?: unknown[]) => Promise<R[]>;

/** A client session as the reads show it (from pg_stat_activity). */
export interface PgSession {
  pid: number;
  user: string | null;
  database: string | null;
  application: string;
  client: string | null;
  state: string | null;
  waitEventType: string | null;
  waitEvent: string | null;
  backendStart: string | null;
  transactionStart: string | null;
  queryStart: string | null;
  stateChange: string | null;
  /** Seconds since the transaction began (null outside one). */
  transactionSeconds: number | null;
  /** Seconds in the current state (idle in transaction: how long it has held its transaction doing nothing). */
  stateSeconds: number | null;
  query: string | null;
}

const SESSION_COLUMNS = `
  a.pid, a.usename AS "user", a.datname AS database, coalesce(a.application_name, '') AS application,
  host(a.client_addr) AS client, a.state, a.wait_event_type AS "waitEventType", a.wait_event AS "waitEvent",
  to_char(a.backend_start AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "backendStart",
  to_char(a.xact_start AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "transactionStart",
  to_char(a.query_start AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "queryStart",
  to_char(a.state_change AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "stateChange",
  round(extract(epoch FROM now() - a.xact_start)::numeric, 1)::float8 AS "transactionSeconds",
  round(extract(epoch FROM now() - a.state_change)::numeric, 1)::float8 AS "stateSeconds",
  left(a.query, ${MAX_STATEMENT_LENGTH}) AS query`;

/** Client sessions other than this one. */
const CLIENT_SESSIONS = `FROM pg_stat_activity a WHERE a.pid <> pg_backend_pid() AND a.backend_type = 'client backend'`;

/** Whether the account sees other users' sessions in full (superuser, pg_read_all_stats or pg_monitor). */
async function visibility(query: Query): Promise<'all' | 'own'> {
  const [row] = await query<{ all: boolean }>(
    `SELECT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) OR pg_has_role(current_user, 'pg_read_all_stats', 'USAGE') AS all`,
  );
  return row?.all ? 'all' : 'own';
}

/** Sessions by state, application, client and user; the longest transactions and the sessions idle in one. */
async function activity(query: Query, args: { minTransactionSeconds?: number }) {
  const seen = await visibility(query);
  const sessions = await query<PgSession>(`SELECT ${SESSION_COLUMNS} ${CLIENT_SESSIONS}`);
  const minimum = args.minTransactionSeconds ?? 0;
  const inTransaction = sessions
    .filter((s) => s.transactionSeconds !== null && s.transactionSeconds >= minimum)
    .sort((a, b) => (b.transactionSeconds ?? 0) - (a.transactionSeconds ?? 0));
  return {
    sessions: sessions.length,
    visibility: seen,
    byState: named('state')(countBy(sessions, (s) => s.state ?? 'unknown')),
    byApplication: named('application')(countBy(sessions, (s) => s.application || '(none)')),
    byClient: named('client')(countBy(sessions, (s) => s.client ?? 'local')),
    byUser: named('user')(countBy(sessions, (s) => s.user ?? 'unknown')),
    waiting: sessions.filter((s) => s.waitEventType === 'Lock').length,
    longestTransactions: inTransaction.slice(0, MAX_ROWS),
    idleInTransaction: inTransaction.filter((s) => s.state?.startsWith('idle in transaction')).slice(0, MAX_ROWS),
  };
}

/**
 * Who waits for a lock and who holds it: every waiting session with the sessions blocking it
 * (`pg_blocking_pids`), the lock it waits for, and the root blockers (blocking, not waiting
 * themselves) with how many sessions wait behind each, directly or through others.
 */
async function locks(query: Query) {
  const seen = await visibility(query);
  const waiting = await query<PgSession & { blockedBy: number[] }>(
    `SELECT ${SESSION_COLUMNS}, pg_blocking_pids(a.pid) AS "blockedBy" ${CLIENT_SESSIONS} AND cardinality(pg_blocking_pids(a.pid)) > 0`,
  );
  if (waiting.length === 0) return { waiting: 0, visibility: seen, blockers: [], waits: [] };
  const pids = [...new Set(waiting.flatMap((w) => w.blockedBy))];
  const holders = await query<PgSession>(`SELECT ${SESSION_COLUMNS} FROM pg_stat_activity a WHERE a.pid = ANY($1::int[])`, [pids]);
  const wanted = await query<{ pid: number; lockType: string; mode: string; relation: string | null; transactionId: string | null }>(
    `SELECT l.pid, l.locktype AS "lockType", l.mode, l.relation::regclass::text AS relation, l.transactionid::text AS "transactionId"
       FROM pg_locks l WHERE NOT l.granted AND l.pid = ANY($1::int[])`,
    [waiting.map((w) => w.pid)],
  );
  const blockedBy = new Map(waiting.map((w) => [w.pid, w.blockedBy]));
  /** The blockers at the head of each chain behind `pid`. */
  const roots = (pid: number, path = new Set<number>()): number[] => {
    const direct = blockedBy.get(pid);
    if (!direct || path.has(pid)) return [pid];
    path.add(pid);
    return [...new Set(direct.flatMap((next) => roots(next, path)))];
  };
  const waits = waiting
    .map((w) => {
      const lock = wanted.find((l) => l.pid === w.pid);
      return {
        ...w,
        lock: lock ? { type: lock.lockType, mode: lock.mode, relation: lock.relation, transactionId: lock.transactionId } : null,
        rootBlockers: roots(w.pid).filter((pid) => pid !== w.pid),
      };
    })
    .sort((a, b) => (b.stateSeconds ?? 0) - (a.stateSeconds ?? 0));
  const rootPids = [...new Set(waits.flatMap((w) => w.rootBlockers))];
  const blockers = rootPids
    .map((pid) => {
      const holder = holders.find((h) => h.pid === pid) ?? waiting.find((w) => w.pid === pid);
      const behind = waits.filter((w) => w.rootBlockers.includes(pid));
      return {
        ...(holder ?? { pid }),
        blocksSessions: behind.length,
        blocksApplications: named('application')(countBy(behind, (w) => w.application || '(none)')),
      };
    })
    .sort((a, b) => b.blocksSessions - a.blocksSessions);
  return { waiting: waiting.length, visibility: seen, blockers: blockers.slice(0, MAX_ROWS), waits: waits.slice(0, MAX_ROWS) };
}

/** Client connections against max_connections (less the reserved slots), by application, user, client and state. */
async function connections(query: Query) {
  const [limits] = await query<{ max: number; reserved: number; used: number; all: number }>(
    `SELECT current_setting('max_connections')::int AS max,
            current_setting('superuser_reserved_connections')::int AS reserved,
            (SELECT count(*)::int FROM pg_stat_activity WHERE backend_type = 'client backend') AS used,
            (SELECT count(*)::int FROM pg_stat_activity) AS all`,
  );
  const sessions = await query<{ application: string; user: string | null; client: string | null; state: string | null; database: string | null }>(
    `SELECT coalesce(a.application_name, '') AS application, a.usename AS "user", host(a.client_addr) AS client, a.state, a.datname AS database
       FROM pg_stat_activity a WHERE a.backend_type = 'client backend'`,
  );
  // When each application's connections were opened (this session left out): who filled the slots, and when.
  const opened = await query<{ application: string; count: number; firstConnectedAt: string; lastConnectedAt: string }>(
    `SELECT coalesce(a.application_name, '') AS application, count(*)::int AS count,
            to_char(min(a.backend_start) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "firstConnectedAt",
            to_char(max(a.backend_start) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "lastConnectedAt"
       FROM pg_stat_activity a WHERE a.backend_type = 'client backend' AND a.pid <> pg_backend_pid()
      GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT ${MAX_ROWS}`,
  );
  const roleLimits = await query<{ user: string; limit: number; used: number }>(
    `SELECT r.rolname AS "user", r.rolconnlimit AS limit, count(a.pid)::int AS used
       FROM pg_roles r LEFT JOIN pg_stat_activity a ON a.usename = r.rolname
      WHERE r.rolconnlimit >= 0 GROUP BY r.rolname, r.rolconnlimit ORDER BY count(a.pid) DESC LIMIT ${MAX_ROWS}`,
  );
  const available = limits.max - limits.reserved;
  return {
    maxConnections: limits.max,
    reservedForSuperusers: limits.reserved,
    clientConnections: limits.used,
    allBackends: limits.all,
    /** Client connections (this one included) over max_connections; background processes have slots of their own. */
    usedFraction: Math.round((limits.used / limits.max) * 1000) / 1000,
    /** Slots left for ordinary users (superusers keep the reserved ones). */
    slotsLeft: Math.max(0, available - limits.used),
    byApplication: named('application')(countBy(sessions, (s) => s.application || '(none)')),
    byUser: named('user')(countBy(sessions, (s) => s.user ?? 'unknown')),
    byClient: named('client')(countBy(sessions, (s) => s.client ?? 'local')),
    byState: named('state')(countBy(sessions, (s) => s.state ?? 'unknown')),
    byDatabase: named('database')(countBy(sessions, (s) => s.database ?? 'unknown')),
    /** Per application (this session left out): its connections and when the first and the last of them were opened. */
    openedByApplication: opened.map((o) => ({ ...o, application: o.application || '(none)' })),
    roleLimits,
  };
}

/** The costliest statements from pg_stat_statements, when it is installed in this database and loaded. */
async function statements(query: Query, args: { orderBy?: 'total_time' | 'mean_time' | 'calls'; limit?: number }) {
  const [installed] = await query<{ schema: string | null; version: number }>(
    `SELECT (SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_stat_statements') AS schema,
            current_setting('server_version_num')::int AS version`,
  );
  if (!installed.schema) {
    return {
      available: false,
      reason:
        'pg_stat_statements is not installed in this database: add it to shared_preload_libraries and run CREATE EXTENSION pg_stat_statements to see statement timings',
      statements: [],
    };
  }
  const [loaded] = await query<{ loaded: boolean }>(`SELECT coalesce(current_setting('shared_preload_libraries', true), '') ~ 'pg_stat_statements' AS loaded`);
  if (!loaded.loaded) {
    return {
      available: false,
      reason: 'pg_stat_statements is installed but not loaded: add it to shared_preload_libraries and restart the server',
      statements: [],
    };
  }
  const modern = installed.version >= 130000;
  const total = modern ? 'total_exec_time' : 'total_time';
  const mean = modern ? 'mean_exec_time' : 'mean_time';
  const order = args.orderBy === 'calls' ? 'calls' : args.orderBy === 'mean_time' ? mean : total;
  const limit = Math.min(args.limit ?? 10, MAX_ROWS);
  const schema = `"${installed.schema.replace(/"/g, '""')}"`;
  const rows = await query<Record<string, unknown>>(
    `SELECT s.queryid::text AS "queryId", r.rolname AS "user", d.datname AS database, s.calls::float8 AS calls,
            round(s.${total}::numeric, 1)::float8 AS "totalMs", round(s.${mean}::numeric, 2)::float8 AS "meanMs",
            s.rows::float8 AS rows, s.shared_blks_hit::float8 AS "sharedBlocksHit", s.shared_blks_read::float8 AS "sharedBlocksRead",
            left(s.query, ${MAX_STATEMENT_LENGTH}) AS query
       FROM ${schema}.pg_stat_statements s
       LEFT JOIN pg_roles r ON r.oid = s.userid LEFT JOIN pg_database d ON d.oid = s.dbid
      WHERE s.query NOT LIKE '%pg_stat_statements%'
      ORDER BY s.${order} DESC LIMIT ${limit}`,
  );
  const [totals] = await query<{ statements: number; totalMs: number }>(
    `SELECT count(*)::int AS statements, coalesce(round(sum(${total})::numeric, 1), 0)::float8 AS "totalMs" FROM ${schema}.pg_stat_statements`,
  );
  const reset = modern
    ? await query<{ at: string | null }>(
        installed.version >= 140000
          ? `SELECT to_char(stats_reset AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS at FROM ${schema}.pg_stat_statements_info`
          : `SELECT NULL::text AS at`,
      )
    : [{ at: null }];
  return {
    available: true,
    orderBy: args.orderBy ?? 'total_time',
    statementsTracked: totals.statements,
    totalMs: totals.totalMs,
    /** The time from which the counters run: the figures are totals since then, not rates. */
    since: reset[0]?.at ?? null,
    statements: rows.map((row) => ({
      ...row,
      shareOfTotalTime: totals.totalMs > 0 ? Math.round(((row.totalMs as number) / totals.totalMs) * 1000) / 1000 : 0,
    })),
  };
}

/** Replication seen from this server: standbys and their lag (primary), slots and what they retain, or its own replay delay (standby). */
async function replication(query: Query) {
  const [role] = await query<{ standby: boolean }>(`SELECT pg_is_in_recovery() AS standby`);
  const slots = await query<Record<string, unknown>>(
    `SELECT slot_name AS "slotName", slot_type AS "slotType", database, active,
            CASE WHEN pg_is_in_recovery() THEN NULL ELSE pg_wal_lsn_diff(pg_current_wal_lsn(), restart_lsn)::float8 END AS "retainedBytes"
       FROM pg_replication_slots ORDER BY 5 DESC NULLS LAST LIMIT ${MAX_ROWS}`,
  );
  if (role.standby) {
    const [self] = await query<Record<string, unknown>>(
      `SELECT round(extract(epoch FROM now() - pg_last_xact_replay_timestamp())::numeric, 1)::float8 AS "replayDelaySeconds",
              pg_wal_lsn_diff(pg_last_wal_receive_lsn(), pg_last_wal_replay_lsn())::float8 AS "receivedNotReplayedBytes",
              pg_is_wal_replay_paused() AS "replayPaused"`,
    );
    return { role: 'standby', standby: self, replicas: [], slots };
  }
  const replicas = await query<Record<string, unknown>>(
    `SELECT application_name AS application, host(client_addr) AS client, state, sync_state AS "syncState",
            pg_wal_lsn_diff(pg_current_wal_lsn(), replay_lsn)::float8 AS "replayLagBytes",
            round(extract(epoch FROM write_lag)::numeric, 3)::float8 AS "writeLagSeconds",
            round(extract(epoch FROM flush_lag)::numeric, 3)::float8 AS "flushLagSeconds",
            round(extract(epoch FROM replay_lag)::numeric, 3)::float8 AS "replayLagSeconds"
       FROM pg_stat_replication ORDER BY 5 DESC NULLS LAST LIMIT ${MAX_ROWS}`,
  );
  return { role: 'primary', standby: null, replicas, slots };
}

/** Vacuum health: tables by dead tuples with their last (auto)vacuum, vacuums running, transaction id age, and who holds back the xmin horizon. */
async function maintenance(query: Query) {
  const tables = await query<Record<string, unknown>>(
    `SELECT schemaname AS schema, relname AS table, n_live_tup::float8 AS "liveTuples", n_dead_tup::float8 AS "deadTuples",
            CASE WHEN n_live_tup + n_dead_tup > 0 THEN round(n_dead_tup::numeric / (n_live_tup + n_dead_tup), 3)::float8 ELSE 0 END AS "deadFraction",
            n_mod_since_analyze::float8 AS "modifiedSinceAnalyze",
            to_char(greatest(last_autovacuum, last_vacuum) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "lastVacuum",
            to_char(greatest(last_autoanalyze, last_analyze) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "lastAnalyze",
            autovacuum_count::float8 AS "autovacuumCount"
       FROM pg_stat_user_tables ORDER BY n_dead_tup DESC LIMIT 20`,
  );
  const running = await query<Record<string, unknown>>(
    `SELECT p.pid, p.relid::regclass::text AS table, p.phase, p.heap_blks_total::float8 AS "heapBlocks", p.heap_blks_scanned::float8 AS "heapBlocksScanned",
            round(extract(epoch FROM now() - a.xact_start)::numeric, 1)::float8 AS "runningSeconds"
       FROM pg_stat_progress_vacuum p LEFT JOIN pg_stat_activity a ON a.pid = p.pid`,
  );
  const databases = await query<{ database: string; xidAge: number }>(
    `SELECT datname AS database, age(datfrozenxid)::float8 AS "xidAge" FROM pg_database ORDER BY age(datfrozenxid) DESC LIMIT 10`,
  );
  const horizon = await query<Record<string, unknown>>(
    `SELECT a.pid, coalesce(a.application_name, '') AS application, a.usename AS "user", a.state, age(a.backend_xmin)::float8 AS "xminAge",
            round(extract(epoch FROM now() - a.xact_start)::numeric, 1)::float8 AS "transactionSeconds"
       FROM pg_stat_activity a WHERE a.backend_xmin IS NOT NULL AND a.pid <> pg_backend_pid() ORDER BY age(a.backend_xmin) DESC LIMIT 5`,
  );
  const [settings] = await query<{ autovacuum: string; freezeMaxAge: number; workers: number }>(
    `SELECT current_setting('autovacuum') AS autovacuum, current_setting('autovacuum_freeze_max_age')::float8 AS "freezeMaxAge",
            current_setting('autovacuum_max_workers')::int AS workers`,
  );
  const hints: string[] = [];
  if (settings.autovacuum !== 'on') hints.push('autovacuum is off');
  for (const t of tables) {
    if ((t.deadTuples as number) >= 10_000 && (t.deadFraction as number) >= 0.2)
      hints.push(`${t.schema}.${t.table}: ${Math.round((t.deadFraction as number) * 100)}% dead tuples (last vacuum ${t.lastVacuum ?? 'never'})`);
  }
  for (const d of databases) {
    if (d.xidAge > settings.freezeMaxAge)
      hints.push(`${d.database}: transaction id age ${d.xidAge} is past autovacuum_freeze_max_age (${settings.freezeMaxAge})`);
  }
  const oldest = horizon[0];
  if (oldest && (oldest.transactionSeconds as number) >= 300)
    hints.push(
      `session ${oldest.pid} (${oldest.application || 'no application name'}) holds back vacuum: its transaction is ${oldest.transactionSeconds} s old`,
    );
  return { settings, hints, tables, running, databases, oldestSnapshots: horizon };
}

/** Database sizes, and the largest tables of the connected database (with their indexes and TOAST). */
async function sizes(query: Query) {
  const databases = await query<Record<string, unknown>>(
    `SELECT datname AS database,
            CASE WHEN has_database_privilege(datname, 'CONNECT') THEN pg_database_size(datname)::float8 END AS bytes
       FROM pg_database WHERE datallowconn ORDER BY 2 DESC NULLS LAST LIMIT ${MAX_ROWS}`,
  );
  const tables = await query<Record<string, unknown>>(
    `SELECT n.nspname AS schema, c.relname AS table, pg_total_relation_size(c.oid)::float8 AS "totalBytes",
            pg_relation_size(c.oid)::float8 AS "tableBytes", pg_indexes_size(c.oid)::float8 AS "indexBytes",
            greatest(c.reltuples, 0)::float8 AS "estimatedRows"
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE c.relkind IN ('r', 'm', 'p') AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_toast%'
      ORDER BY 3 DESC LIMIT 20`,
  );
  const [current] = await query<{ database: string }>(`SELECT current_database() AS database`);
  return { database: current.database, databases, tables };
}

/** Every read of a PostgreSQL server the tools (and relays) may run, by name. */
export const POSTGRESQL_READS = {
  activity,
  locks,
  connections,
  statements,
  replication,
  maintenance,
  sizes,
} satisfies Record<string, (query: Query, args: never) => Promise<unknown>>;

export type PostgresqlRead = keyof typeof POSTGRESQL_READS;

export async function readPostgresql(session: PostgresqlSession, read: PostgresqlRead, args: Record<string, unknown>): Promise<unknown> {
  const run = POSTGRESQL_READS[read] as (query: Query, args: Record<string, unknown>) => Promise<unknown>;
  return session.readOnly((query) => run(query, args));
}
