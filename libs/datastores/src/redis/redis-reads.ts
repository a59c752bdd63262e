import { MAX_ROWS } from '../datastore.types';
import type { RedisSession } from './redis-session';

type Info = Record<string, Record<string, string>>;

/** INFO's text as sections of fields: `# Memory` then `used_memory:1234` lines. */
export function parseInfo(text: string): Info {
  const sections: Info = {};
  let current = sections.unnamed ?? (sections.unnamed = {});
  for (const line of text.split(/\r?\n/)) {
    if (line.startsWith('# ')) current = sections[line.slice(2).trim().toLowerCase()] ??= {};
    else if (line.includes(':')) {
      const at = line.indexOf(':');
      current[line.slice(0, at)] = line.slice(at + 1);
    }
  }
  return sections;
}

const num = (value: string | undefined): number | null => (value === undefined || value === '' || Number.isNaN(Number(value)) ? null : Number(value));
const ratio = (part: number | null, whole: number | null) => (part !== null && whole ? Math.round((part / whole) * 1000) / 1000 : null);

/** `k1=v1,k2=v2` (keyspace and replica lines) as an object. */
function fields(text: string | undefined): Record<string, string> {
  return Object.fromEntries((text ?? '').split(',').flatMap((pair) => (pair.includes('=') ? [pair.split('=', 2) as [string, string]] : [])));
}

/** Memory against maxmemory and evictions, clients, hits and misses, persistence, replication and keyspace, with hints. */
async function info(session: RedisSession) {
  const sections = parseInfo(String(await session.command('INFO')));
  const { server = {}, clients = {}, memory = {}, persistence = {}, stats = {}, replication = {}, keyspace = {}, errorstats = {} } = sections;
  const used = num(memory.used_memory);
  const max = num(memory.maxmemory);
  // Redis' own clock (server_time_usec, Redis 6.2 and later), else the reader's.
  const now = num(server.server_time_usec) !== null ? Number(server.server_time_usec) / 1000 : Date.now();
  const exceededMs = num(stats.current_eviction_exceeded_time);
  const hits = num(stats.keyspace_hits) ?? 0;
  const misses = num(stats.keyspace_misses) ?? 0;
  const output = {
    /** When Redis answered (its own clock when it tells it). */
    readAt: new Date(now).toISOString(),
    version: server.redis_version ?? null,
    mode: server.redis_mode ?? null,
    uptimeSeconds: num(server.uptime_in_seconds),
    memory: {
      usedBytes: used,
      maxmemoryBytes: max,
      /** Null when maxmemory is 0 (no limit). */
      usedFraction: max ? ratio(used, max) : null,
      policy: memory.maxmemory_policy ?? null,
      peakBytes: num(memory.used_memory_peak),
      rssBytes: num(memory.used_memory_rss),
      fragmentationRatio: num(memory.mem_fragmentation_ratio),
      /**
       * The time from which used memory has been above maxmemory without eviction freeing it (current_eviction_exceeded_time,
       * Redis 7 and later): with noeviction, every write since was refused; null when it is not above, or not told.
       */
      overMaxmemorySince: exceededMs ? new Date(now - exceededMs).toISOString() : null,
    },
    clients: {
      connected: num(clients.connected_clients),
      blocked: num(clients.blocked_clients),
      maxclients: num(clients.maxclients),
      rejectedConnections: num(stats.rejected_connections),
    },
    stats: {
      evictedKeys: num(stats.evicted_keys),
      /** Commands refused with OOM (over maxmemory) since start (INFO errorstats, Redis 6.2 and later; null when not told). */
      oomRejections: 'errorstats' in sections ? (num(fields(errorstats.errorstat_OOM).count) ?? 0) : null,
      expiredKeys: num(stats.expired_keys),
      keyspaceHits: hits,
      keyspaceMisses: misses,
      hitRatio: hits + misses > 0 ? Math.round((hits / (hits + misses)) * 1000) / 1000 : null,
      opsPerSecond: num(stats.instantaneous_ops_per_sec),
      commandsProcessed: num(stats.total_commands_processed),
    },
    persistence: {
      loading: persistence.loading === '1',
      rdbChangesSinceLastSave: num(persistence.rdb_changes_since_last_save),
      rdbBgsaveInProgress: persistence.rdb_bgsave_in_progress === '1',
      rdbLastBgsaveStatus: persistence.rdb_last_bgsave_status ?? null,
      aofEnabled: persistence.aof_enabled === '1',
      aofLastWriteStatus: persistence.aof_last_write_status ?? null,
    },
    replication: {
      role: replication.role ?? null,
      connectedReplicas: num(replication.connected_slaves),
      masterLinkStatus: replication.master_link_status ?? null,
      masterLastIoSecondsAgo: num(replication.master_last_io_seconds_ago),
      replicas: Object.entries(replication)
        .filter(([key]) => /^slave\d+$/.test(key))
        .map(([, value]) => {
          const f = fields(value);
          return { address: `${f.ip}:${f.port}`, state: f.state ?? null, lag: num(f.lag) };
        }),
    },
    keyspace: Object.entries(keyspace).map(([database, value]) => {
      const f = fields(value);
      return { database, keys: num(f.keys), expires: num(f.expires) };
    }),
    hints: [] as string[],
  };
  const hints = output.hints;
  if (max && used !== null && used / max >= 0.9)
    hints.push(
      `memory at ${Math.round((used / max) * 100)}% of maxmemory (policy ${output.memory.policy})${output.stats.evictedKeys ? `, ${output.stats.evictedKeys} keys evicted` : ''}`,
    );
  else if (output.stats.evictedKeys) hints.push(`${output.stats.evictedKeys} keys evicted since start (policy ${output.memory.policy})`);
  if (output.memory.policy === 'noeviction' && max && used !== null && used >= max) hints.push('at maxmemory with noeviction: writes fail with OOM');
  if (output.stats.oomRejections) hints.push(`${output.stats.oomRejections} commands refused with OOM since start`);
  if (output.clients.blocked) hints.push(`${output.clients.blocked} clients blocked (BLPOP and the like)`);
  if (output.clients.rejectedConnections) hints.push(`${output.clients.rejectedConnections} connections rejected at maxclients`);
  if (output.persistence.rdbLastBgsaveStatus === 'err') hints.push('the last background save failed');
  if (output.persistence.aofLastWriteStatus === 'err') hints.push('the last AOF write failed');
  if (output.replication.role === 'slave' && output.replication.masterLinkStatus !== 'up')
    hints.push(`the link to the primary is ${output.replication.masterLinkStatus}`);
  if (output.persistence.loading) hints.push('loading its dataset');
  return output;
}

/** The slow log: the slowest recent commands (name and first arguments, cut), grouped by command. */
async function slowlog(session: RedisSession, args: { limit?: number }) {
  const limit = Math.min(args.limit ?? MAX_ROWS, MAX_ROWS);
  const [entries, length, threshold] = await Promise.all([
    session.command('SLOWLOG', 'GET', String(limit)) as Promise<unknown[][]>,
    session.command('SLOWLOG', 'LEN') as Promise<number>,
    session.command('CONFIG', 'GET', 'slowlog-log-slower-than').catch(() => null) as Promise<string[] | null>,
  ]);
  const list = entries.map((entry) => {
    const [id, at, micros, argv, client, name] = entry as [number, number, number, string[], string?, string?];
    const words = (argv ?? []).map(String);
    return {
      id,
      at: new Date(Number(at) * 1000).toISOString(),
      durationMs: Math.round(Number(micros) / 10) / 100,
      command: (words[0] ?? '').toUpperCase(),
      arguments: words.slice(1, 4).map((w) => (w.length > 100 ? `${w.slice(0, 99)}…` : w)),
      argumentCount: Math.max(0, words.length - 1),
      client: client || null,
      clientName: name || null,
    };
  });
  const byCommand = new Map<string, { command: string; count: number; totalMs: number; maxMs: number }>();
  for (const e of list) {
    const row = byCommand.get(e.command) ?? { command: e.command, count: 0, totalMs: 0, maxMs: 0 };
    row.count += 1;
    row.totalMs = Math.round((row.totalMs + e.durationMs) * 100) / 100;
    row.maxMs = Math.max(row.maxMs, e.durationMs);
    byCommand.set(e.command, row);
  }
  return {
    length: Number(length),
    thresholdMicros: threshold ? num(threshold[1]) : null,
    byCommand: [...byCommand.values()].sort((a, b) => b.totalMs - a.totalMs),
    entries: list,
  };
}

/** The latency monitor's latest spike per event (and whether the monitor is on). */
async function latency(session: RedisSession) {
  const [latest, threshold] = await Promise.all([
    session.command('LATENCY', 'LATEST') as Promise<unknown[][]>,
    session.command('CONFIG', 'GET', 'latency-monitor-threshold').catch(() => null) as Promise<string[] | null>,
  ]);
  const thresholdMs = threshold ? num(threshold[1]) : null;
  return {
    monitorThresholdMs: thresholdMs,
    monitorOn: thresholdMs === null ? null : thresholdMs > 0,
    events: latest.map((row) => {
      const [event, at, latestMs, maxMs] = row as [string, number, number, number];
      return { event, at: new Date(Number(at) * 1000).toISOString(), latestMs: Number(latestMs), maxMs: Number(maxMs) };
    }),
  };
}

/** CLIENT LIST summarised: connections by name, address and last command, blocked ones, the longest idle. */
async function clients(session: RedisSession) {
  const text = String(await session.command('CLIENT', 'LIST'));
  const all = text
    .split(/\r?\n/)
    .filter(Boolean)
    .map((line) => Object.fromEntries(line.split(' ').map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)])))
    .filter((c) => c.name !== 'incident-investigation');
  // A client's age is the seconds since it connected: each group says when its first and its last client connected.
  const now = Date.now();
  const at = (secondsAgo: number) => new Date(now - secondsAgo * 1000).toISOString();
  const group = (key: (c: Record<string, string>) => string, label: string) => {
    const groups = new Map<string, { count: number; blocked: number; maxIdleSeconds: number; outputBytes: number; oldest: number; newest: number }>();
    for (const c of all) {
      const age = Number(c.age) || 0;
      const g = groups.get(key(c)) ?? { count: 0, blocked: 0, maxIdleSeconds: 0, outputBytes: 0, oldest: age, newest: age };
      g.count += 1;
      if ((c.flags ?? '').includes('b')) g.blocked += 1;
      g.maxIdleSeconds = Math.max(g.maxIdleSeconds, Number(c.idle) || 0);
      g.outputBytes += Number(c.omem) || 0;
      g.oldest = Math.max(g.oldest, age);
      g.newest = Math.min(g.newest, age);
      groups.set(key(c), g);
    }
    return [...groups.entries()]
      .map(([value, { oldest, newest, ...g }]) => ({ [label]: value, ...g, firstConnectedAt: at(oldest), lastConnectedAt: at(newest) }))
      .sort((a, b) => b.count - a.count)
      .slice(0, MAX_ROWS);
  };
  const blocked = all.filter((c) => (c.flags ?? '').includes('b'));
  return {
    clients: all.length,
    blocked: blocked.length,
    byName: group((c) => c.name || '(unnamed)', 'name'),
    byAddress: group((c) => (c.addr ?? '').replace(/:\d+$/, ''), 'address'),
    byCommand: group((c) => c.cmd ?? '', 'lastCommand'),
    blockedClients: blocked
      .slice(0, MAX_ROWS)
      .map((c) => ({ name: c.name || null, address: c.addr, command: c.cmd, idleSeconds: Number(c.idle) || 0, database: Number(c.db) })),
    longestIdle: [...all]
      .sort((a, b) => (Number(b.idle) || 0) - (Number(a.idle) || 0))
      .slice(0, 10)
      .map((c) => ({ name: c.name || null, address: c.addr, lastCommand: c.cmd, idleSeconds: Number(c.idle) || 0, ageSeconds: Number(c.age) || 0 })),
  };
}

/** Every read of a Redis server the tools (and relays) may run, by name. */
export const REDIS_READS = { info, slowlog, latency, clients } satisfies Record<string, (session: RedisSession, args: never) => Promise<unknown>>;
