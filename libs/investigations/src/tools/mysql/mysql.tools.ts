import { byteSize, datastoreTool, duration, NO_ARGUMENTS, Row, STATEMENT_ARGUMENTS, top, TRANSACTION_ARGUMENTS } from '../datastore-read';
import { count, firstOf } from '../series-name';
import type { ToolDefinition } from '../tool.types';

const visibilityNote = (output: Row) =>
  output.visibility === 'own' ? ' The account sees only its own connections and no InnoDB transaction (GRANT PROCESS to see the others).' : '';
const who = (c: Row) =>
  `thread ${c.thread ?? 'unknown'} (${c.program ? `${c.program}, ` : ''}${c.user ?? 'unknown user'}${c.client ? ` from ${c.client}` : ''})`;

export const mysqlProcesslistTool = datastoreTool<{ minTransactionSeconds?: number }>({
  name: 'mysql.processlist',
  integrationType: 'mysql',
  description:
    "Reads a MySQL or MariaDB server's client connections (information_schema.PROCESSLIST with each connection's InnoDB transaction from INNODB_TRX): how many by command " +
    '(Sleep, Query...), state, user, client host, database and program name, the longest-running statements, the longest-open transactions with when they began and the rows they lock, ' +
    'and the connections sleeping with a transaction open. Use it when a MySQL-backed service slows down or times out, to see who is connected, what runs, and which transaction has been open too long.',
  argumentsSchema: TRANSACTION_ARGUMENTS,
  read: 'processlist',
  sources: ['information_schema.PROCESSLIST', 'information_schema.INNODB_TRX'],
  summarize(output) {
    const idle = output.idleInTransaction as Row[];
    const longest = (output.longestTransactions as Row[])[0];
    const running = (output.longestRunning as Row[])[0];
    let summary = `${count(output.connections, 'client connection')}: ${top(output.byCommand, 'command')}; by user ${top(output.byUser, 'user')}.`;
    if (output.waitingForLock) summary += ` ${count(output.waitingForLock, 'transaction')} waiting for a row lock.`;
    if (running) summary += ` Longest-running statement: ${who(running)}, ${duration(running.seconds)}, ${running.state ?? running.command}.`;
    if (longest) summary += ` Longest transaction: ${who(longest)}, open ${duration(longest.transactionSeconds)}, ${longest.command}.`;
    if (idle.length) summary += ` ${count(idle.length, 'connection')} idle in a transaction (longest ${duration(idle[0].transactionSeconds)}).`;
    return summary + visibilityNote(output);
  },
});

export const mysqlLockWaitsTool = datastoreTool<Record<string, never>>({
  name: 'mysql.lock_waits',
  integrationType: 'mysql',
  description:
    'Reads who waits for an InnoDB row lock in MySQL or MariaDB and who holds it (INNODB_LOCK_WAITS and INNODB_LOCKS on MariaDB and MySQL 5.7, performance_schema.data_lock_waits on MySQL 8, ' +
    'with INNODB_TRX and PROCESSLIST): every waiting transaction with the statement that waits, the table and index it wants and the transactions blocking it, and the root blockers ' +
    '(holding locks without waiting themselves) with how many wait behind each, their user, client, transaction start and age; also connections waiting for a metadata or table lock. ' +
    'Use it when queries hang or fail with lock wait timeouts, or a batch job or migration may hold rows or a table.',
  argumentsSchema: NO_ARGUMENTS,
  read: 'lock_waits',
  sources: ['information_schema.INNODB_LOCK_WAITS', 'information_schema.INNODB_TRX', 'information_schema.PROCESSLIST'],
  // The lock views this server has (MySQL 8 reads performance_schema's instead of INNODB_LOCK_WAITS).
  sourcesOf: (output) => [...(output.views as string[]), 'information_schema.INNODB_TRX', 'information_schema.PROCESSLIST'],
  summarize(output) {
    const tableWaits = output.tableLockWaits as Row[];
    const tableNote = tableWaits.length
      ? ` ${count(tableWaits.length, 'connection')} waiting for a metadata or table lock (longest ${who(tableWaits[0])}, ${duration(tableWaits[0].seconds)}: ${tableWaits[0].state}).`
      : '';
    if (!output.waiting) return `No transaction waits for a row lock.${tableNote}`;
    const blockers = (output.blockers as Row[]).map(
      (b) =>
        `${who(b)} blocks ${count(b.blocksSessions, 'session')}, in a transaction open ${duration(b.transactionSeconds)}${b.command === 'Sleep' ? ' (idle)' : ''}`,
    );
    const summary = `${count(output.waiting, 'session')} waiting for a lock. Root blocker${blockers.length === 1 ? '' : 's'}: ${firstOf(blockers, 2)}.${tableNote}`;
    return summary;
  },
});

export const mysqlConnectionsTool = datastoreTool<Record<string, never>>({
  name: 'mysql.connections',
  integrationType: 'mysql',
  description:
    "Reads a MySQL or MariaDB server's connections against max_connections (Threads_connected, Max_used_connections, max_user_connections): how many are used and left, " +
    'connections refused at the limit and aborted since start, and who holds them by user, client host, database, command and program name ' +
    '(per program, or user, by when all its connections were open at the latest). ' +
    'Use it on "Too many connections", connection pool timeouts or refused connections, to see who holds the connections.',
  argumentsSchema: NO_ARGUMENTS,
  read: 'connections',
  sources: ['SHOW GLOBAL STATUS', 'SHOW GLOBAL VARIABLES', 'information_schema.PROCESSLIST'],
  summarize(output) {
    let summary =
      `${output.clientConnections} of max_connections ${output.maxConnections} in use (${Math.round(output.usedFraction * 100)}%), ${output.slotsLeft} left ` +
      `(peak ${output.maxUsedConnections ?? 'unknown'}). By user: ${top(output.byUser, 'user')}; by client: ${top(output.byClient, 'client', 2)}.`;
    if (output.refusedAtMaxConnections) summary += ` ${count(output.refusedAtMaxConnections, 'connection')} refused with every slot taken since start.`;
    if (output.abortedConnects) summary += ` ${count(output.abortedConnects, 'failed connection attempt')} since start (Aborted_connects).`;
    if ((output.usersAtLimit as Row[]).length) summary += ` At max_user_connections (${output.maxUserConnections}): ${top(output.usersAtLimit, 'user')}.`;
    return summary + visibilityNote(output);
  },
});

export const mysqlStatementsTool = datastoreTool<{ orderBy?: 'total_time' | 'mean_time' | 'calls'; limit?: number }>({
  name: 'mysql.statements',
  integrationType: 'mysql',
  description:
    'Reads the costliest statements of a MySQL or MariaDB server from performance_schema.events_statements_summary_by_digest (when performance_schema is on; MariaDB has it off ' +
    'by default and the result says so): calls, total, mean and max time, rows examined and sent, statements without an index, share of all statement time; and the slow query log settings ' +
    'and count. Use it when the database is slow or CPU-bound, to find the statement that got slow or runs far more often.',
  argumentsSchema: STATEMENT_ARGUMENTS,
  read: 'statements',
  sources: ['performance_schema.events_statements_summary_by_digest', 'SHOW GLOBAL VARIABLES', 'SHOW GLOBAL STATUS'],
  summarize(output) {
    const slow = `${count(output.slowLog.slowQueries ?? 0, 'statement')} slower than long_query_time ${output.slowLog.longQuerySeconds} s since start (slow query log ${output.slowLog.enabled ? 'on' : 'off'})`;
    if (!output.available) return `No statement timings: ${output.reason}. ${slow}.`;
    const first = (output.statements as Row[])[0];
    const summary = first
      ? `${count(output.statementsTracked, 'statement digest')} tracked${output.since ? ` since ${output.since}` : ''}; the costliest by ${output.orderBy.replace('_', ' ')}: ` +
        `${count(first.calls, 'call')}, ${first.meanMs} ms mean, ${Math.round(first.shareOfTotalTime * 100)}% of all statement time: ${String(first.query).slice(0, 160)}. ${slow}.`
      : `performance_schema tracks no statement yet. ${slow}.`;
    return summary;
  },
});

export const mysqlReplicationTool = datastoreTool<Record<string, never>>({
  name: 'mysql.replication',
  integrationType: 'mysql',
  description:
    'Reads replication as this MySQL or MariaDB server sees it: on a replica, each replication channel (SHOW REPLICA STATUS) with its source, whether the IO and SQL threads run, ' +
    'Seconds_Behind_Master and the last IO and SQL errors; on a primary, the replicas reading its binary log (binlog dump threads). Use it on replica lag, stale reads from replicas, ' +
    'or replication stopped by an error.',
  argumentsSchema: NO_ARGUMENTS,
  read: 'replication',
  sources: ['SHOW REPLICA STATUS', 'information_schema.PROCESSLIST'],
  summarize(output) {
    const channels = output.channels as Row[];
    const replicas = output.replicas as Row[];
    const channel = (c: Row) => {
      const errors = [
        c.lastIoError && `IO error ${c.lastIoError.errno}: ${c.lastIoError.message}`,
        c.lastSqlError && `SQL error ${c.lastSqlError.errno}: ${c.lastSqlError.message}`,
      ]
        .filter(Boolean)
        .join('; ');
      const lag = c.secondsBehindSource === null ? 'lag unknown (SQL thread not running)' : `${duration(c.secondsBehindSource)} behind`;
      return `${c.channel ? `channel ${c.channel} ` : ''}from ${c.sourceHost}:${c.sourcePort}: IO ${c.ioRunning}, SQL ${c.sqlRunning}, ${lag}${errors ? `; last ${errors}` : ''}`;
    };
    let summary =
      output.role === 'replica'
        ? `A replica (${count(channels.length, 'channel')}): ${firstOf(channels.map(channel), 2)}.`
        : replicas.length
          ? `A primary with ${count(replicas.length, 'replica')} reading its binary log: ${firstOf(
              replicas.map((r) => `${r.user ?? 'unknown user'} from ${r.client ?? 'unknown'}`),
              3,
            )}.`
          : `Not a replica, and no replica reads its binary log${output.binaryLog ? '' : ' (binary log off)'}.`;
    if (output.role === 'replica' && replicas.length) summary += ` ${count(replicas.length, 'replica')} of its own reads its binary log.`;
    if (channels.some((c) => c.relayLogBytes)) summary += ` Relay logs: ${byteSize(channels.reduce((sum, c) => sum + (c.relayLogBytes ?? 0), 0))}.`;
    return summary + visibilityNote(output);
  },
});

export const MYSQL_TOOLS: ReadonlyArray<ToolDefinition> = [
  mysqlProcesslistTool,
  mysqlLockWaitsTool,
  mysqlConnectionsTool,
  mysqlStatementsTool,
  mysqlReplicationTool,
] as ReadonlyArray<ToolDefinition>;
