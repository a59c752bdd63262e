import { byteSize, datastoreTool, duration, NO_ARGUMENTS, Row, STATEMENT_ARGUMENTS, top, TRANSACTION_ARGUMENTS } from '../datastore-read';
import { count, firstOf } from '../series-name';
import type { ToolDefinition } from '../tool.types';

const visibilityNote = (output: Row) =>
  output.visibility === 'own' ? " The account sees only its own sessions' queries (grant pg_monitor to see the others')." : '';
const who = (s: Row) => `pid ${s.pid} (${s.application || 'no application name'}, ${s.user ?? 'unknown user'}${s.client ? ` from ${s.client}` : ''})`;

export const postgresqlActivityTool = datastoreTool<{ minTransactionSeconds?: number }>({
  name: 'postgresql.activity',
  integrationType: 'postgresql',
  description:
    "Reads PostgreSQL's client sessions (pg_stat_activity): how many by state (active, idle, idle in transaction), application name, client address and user, " +
    'how many wait for a lock, and the longest-open transactions and sessions idle in a transaction, with when they began and their last statement. ' +
    'Use it when a PostgreSQL-backed service slows down or times out, to see who is connected, what runs, and which transaction has been open too long.',
  argumentsSchema: TRANSACTION_ARGUMENTS,
  read: 'activity',
  sources: ['pg_stat_activity'],
  summarize(output) {
    const idle = output.idleInTransaction as Row[];
    const longest = (output.longestTransactions as Row[])[0];
    let summary = `${count(output.sessions, 'client session')}: ${top(output.byState, 'state')}; by application ${top(output.byApplication, 'application')}.`;
    if (output.waiting) summary += ` ${count(output.waiting, 'session')} waiting for a lock.`;
    if (longest) summary += ` Longest transaction: ${who(longest)}, open ${duration(longest.transactionSeconds)}, ${longest.state}.`;
    if (idle.length) summary += ` ${count(idle.length, 'session')} idle in a transaction (longest ${duration(idle[0].stateSeconds)}).`;
    return summary + visibilityNote(output);
  },
});

export const postgresqlLocksTool = datastoreTool<Record<string, never>>({
  name: 'postgresql.locks',
  integrationType: 'postgresql',
  description:
    'Reads who waits for a lock in PostgreSQL and who holds it (pg_stat_activity with pg_blocking_pids and pg_locks): every waiting session with the lock it wants ' +
    'and the sessions blocking it, and the root blockers (holding locks without waiting themselves) with how many sessions wait behind each, their application, ' +
    'transaction start and last statement. Use it when queries hang or time out, lock waits rise, or a migration or batch job may hold a table or rows.',
  argumentsSchema: NO_ARGUMENTS,
  read: 'locks',
  sources: ['pg_stat_activity', 'pg_locks'],
  summarize(output) {
    if (!output.waiting) return `No session waits for a lock.${visibilityNote(output)}`;
    const blockers = (output.blockers as Row[]).map(
      (b) => `${who(b)} blocks ${count(b.blocksSessions, 'session')}, in a transaction open ${duration(b.transactionSeconds)} (${b.state ?? 'state unknown'})`,
    );
    const summary = `${count(output.waiting, 'session')} waiting for a lock. Root blocker${blockers.length === 1 ? '' : 's'}: ${firstOf(blockers, 2)}.`;
    return summary + visibilityNote(output);
  },
});

export const postgresqlConnectionsTool = datastoreTool<Record<string, never>>({
  name: 'postgresql.connections',
  integrationType: 'postgresql',
  description:
    "Reads PostgreSQL's connections against max_connections (and the slots reserved for superusers): how many are used and left, by application name, user, " +
    'client address, state and database, and roles with a connection limit. Use it on "too many clients", connection pool timeouts or refused connections, to see who holds the connections.',
  argumentsSchema: NO_ARGUMENTS,
  read: 'connections',
  sources: ['pg_stat_activity', 'pg_settings', 'pg_roles'],
  summarize(output) {
    const summary =
      `${output.clientConnections} of max_connections ${output.maxConnections} in use (${Math.round(output.usedFraction * 100)}%), ${output.slotsLeft} left for ordinary users. ` +
      `By application: ${top(output.byApplication, 'application')}; by client: ${top(output.byClient, 'client', 2)}.`;
    return summary;
  },
});

export const postgresqlStatementsTool = datastoreTool<{ orderBy?: 'total_time' | 'mean_time' | 'calls'; limit?: number }>({
  name: 'postgresql.statements',
  integrationType: 'postgresql',
  description:
    'Reads the costliest statements from pg_stat_statements (when the extension is installed and loaded; the result says when it is not): calls, total and mean time, ' +
    'rows, shared blocks hit and read, share of all statement time, since the counters were last reset. Use it when the database is slow or CPU-bound, to find the statement that got slow or runs far more often.',
  argumentsSchema: STATEMENT_ARGUMENTS,
  read: 'statements',
  sources: ['pg_stat_statements'],
  summarize(output) {
    if (!output.available) return `No statement timings: ${output.reason}.`;
    const first = (output.statements as Row[])[0];
    const summary = first
      ? `${count(output.statementsTracked, 'statement')} tracked${output.since ? ` since ${output.since}` : ''}; the costliest by ${output.orderBy.replace('_', ' ')}: ` +
        `${first.calls} calls, ${first.meanMs} ms mean, ${Math.round(first.shareOfTotalTime * 100)}% of all statement time: ${String(first.query).slice(0, 160)}`
      : 'pg_stat_statements tracks no statement yet.';
    return summary;
  },
});

export const postgresqlReplicationTool = datastoreTool<Record<string, never>>({
  name: 'postgresql.replication',
  integrationType: 'postgresql',
  description:
    'Reads replication as this PostgreSQL server sees it: on a primary, each standby with its state and lag in bytes and seconds (pg_stat_replication); ' +
    'on a standby, its replay delay; and the replication slots with the WAL each retains. Use it on replica lag, stale reads from replicas, or a disk filling with WAL.',
  argumentsSchema: NO_ARGUMENTS,
  read: 'replication',
  sources: ['pg_stat_replication', 'pg_replication_slots'],
  summarize(output) {
    const slots = output.slots as Row[];
    const inactive = slots.filter((s) => !s.active);
    let summary =
      output.role === 'standby'
        ? `A standby, replaying ${duration(output.standby?.replayDelaySeconds)} behind its primary${output.standby?.replayPaused ? ' (replay paused)' : ''}.`
        : (output.replicas as Row[]).length
          ? `A primary with ${count(output.replicas.length, 'standby', 'standbys')}; the furthest behind: ${output.replicas[0].application || output.replicas[0].client} ${byteSize(output.replicas[0].replayLagBytes)} (${output.replicas[0].state}).`
          : 'A primary with no standby connected.';
    if (slots.length)
      summary += ` ${count(slots.length, 'replication slot')}, ${inactive.length} inactive${slots[0].retainedBytes !== null ? `; the largest retains ${byteSize(slots[0].retainedBytes)} of WAL` : ''}.`;
    return summary;
  },
});

export const postgresqlMaintenanceTool = datastoreTool<Record<string, never>>({
  name: 'postgresql.maintenance',
  integrationType: 'postgresql',
  description:
    'Reads vacuum health of PostgreSQL: tables with the most dead tuples and their last vacuum and analyze, vacuums running now, transaction id age of each database, ' +
    'and the sessions whose open snapshot holds vacuum back, with hints when something is off. Use it on table bloat, slowly degrading queries, or transaction id wraparound warnings.',
  argumentsSchema: NO_ARGUMENTS,
  read: 'maintenance',
  sources: ['pg_stat_user_tables', 'pg_stat_progress_vacuum', 'pg_database', 'pg_stat_activity'],
  summarize(output) {
    const hints = output.hints as string[];
    const summary = hints.length
      ? `${count(hints.length, 'maintenance hint')}: ${firstOf(hints, 3)}.`
      : `No maintenance hint: ${count((output.running as Row[]).length, 'vacuum')} running, autovacuum ${output.settings.autovacuum}.`;
    return summary;
  },
});

export const postgresqlSizesTool = datastoreTool<Record<string, never>>({
  name: 'postgresql.sizes',
  integrationType: 'postgresql',
  description:
    'Reads the size of each PostgreSQL database and the largest tables of the connected one (table, indexes and TOAST, estimated rows). ' +
    'Use it when a disk fills up or a table may have grown suddenly.',
  argumentsSchema: NO_ARGUMENTS,
  read: 'sizes',
  sources: ['pg_database', 'pg_class'],
  summarize(output) {
    const databases = (output.databases as Row[]).filter((d) => d.bytes !== null).map((d) => `${d.database} ${byteSize(d.bytes)}`);
    const tables = (output.tables as Row[]).map((t) => `${t.schema}.${t.table} ${byteSize(t.totalBytes)}`);
    const summary = `Databases: ${firstOf(databases, 3) || 'none readable'}. Largest tables of ${output.database}: ${firstOf(tables, 3) || 'none'}.`;
    return summary;
  },
});

export const POSTGRESQL_TOOLS: ReadonlyArray<ToolDefinition> = [
  postgresqlActivityTool,
  postgresqlLocksTool,
  postgresqlConnectionsTool,
  postgresqlStatementsTool,
  postgresqlReplicationTool,
  postgresqlMaintenanceTool,
  postgresqlSizesTool,
] as ReadonlyArray<ToolDefinition>;
