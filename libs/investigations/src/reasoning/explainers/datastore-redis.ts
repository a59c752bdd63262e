import { Timestamp } from '@svc/platform';
import type { RecordedRun, SourceBrief } from '../reasoner';
import type { ExplainerContext } from './context';
import { alertServicesOf, eachDatastore } from './datastores-serving';
import type { DetectedCause, Explainer } from './explainer';

type Row = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- the Redis tools' output, shaped by their reads

/** Used memory from which Redis counts as at its maxmemory, and clients from which at its maxclients. */
const AT_LIMIT = 0.9;
/** The client name (or address) holding at least this share of the clients is the one that took them. */
const HOLDER_SHARE = 0.5;
/** A command, or a latency spike, this long stalled every other client (Redis runs one command at a time). */
const STALL_MS = 100;
/** The second read of the eviction counter comes at least this long after the first, to measure the rate of evictions. */
const EVICTION_RATE_WAIT_MS = 2_000;

const parse = (value: unknown): Timestamp | null => {
  if (typeof value !== 'string') return null;
  try {
    return Timestamp.parse(value);
  } catch {
    return null;
  }
};
const mib = (bytes: number): string => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB`;
const percent = (fraction: number): string => `${Math.round(fraction * 100)}%`;

/** Waits `ms`, or less when the investigation is cancelled (the next run then stops it). */
const pause = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    if (ms <= 0 || signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });

/** One Redis' reads, each made once, in order, while the budget leaves a run. */
class RedisReads {
  constructor(
    private readonly ctx: ExplainerContext,
    readonly source: SourceBrief,
  ) {}

  async run(tool: string, purpose: string): Promise<RecordedRun | null> {
    if (!this.ctx.canRead(1)) return null;
    return this.ctx.session.runTool({ tool, integrationId: this.source.integrationId, arguments: {}, purpose });
  }
}

/** What a successful run answered (null for a failed one: a failed read shows nothing, not an absence). */
const outputOf = (run: RecordedRun | null): Row | null => (run?.outcome === 'succeeded' && run.output ? (run.output as Row) : null);

/**
 * Memory at maxmemory: used memory at AT_LIMIT of maxmemory or more, with writes refused (OOM) or
 * keys evicted. Dated by when used memory rose above maxmemory and stayed (Redis 7's
 * current_eviction_exceeded_time: with noeviction, every write since is refused); a policy that
 * evicts brings it back under at once, so there the evictions are dated by their rate, read twice
 * EVICTION_RATE_WAIT_MS apart: the keys evicted since start, at that rate, began about then (an
 * estimate, as a queue's depth over its publish rate; a cache that always evicts reads as evicting
 * since long before the onset).
 */
async function memoryCause(ctx: ExplainerContext, reads: RedisReads, first: RecordedRun, info: Row, firstReadAt: number): Promise<DetectedCause | null> {
  const { source } = reads;
  const memory = info.memory as Row;
  const stats = info.stats as Row;
  if (!memory.maxmemoryBytes || memory.usedFraction === null || memory.usedFraction < AT_LIMIT) return null;
  const level = `${mib(memory.usedBytes)} of maxmemory ${mib(memory.maxmemoryBytes)} (${percent(memory.usedFraction)}, policy ${memory.policy})`;
  const oom: number = stats.oomRejections ?? 0;
  const evicted: number = stats.evictedKeys ?? 0;
  const refused = oom > 0 ? `; ${oom} command(s) refused with OOM since start` : '';
  const over = parse(memory.overMaxmemorySince);
  const unexplained = [`what filled the memory of ${source.name} (which keys grew, and who wrote them)`];
  const action = {
    title: `Free memory in ${source.name} or raise its maxmemory, then find what filled it`,
    rationale: `It was at its maxmemory from just before the condition began`,
    verification: 'redis.info shows memory under maxmemory, no new OOM refusals or evictions, and the alert resolves',
  };
  if (over) {
    if (!ctx.near(over)) {
      ctx.saw(source, `memory at ${level}, above maxmemory since ${memory.overMaxmemorySince}, not near the onset`);
      return null;
    }
    return {
      id: `h-redis-memory-${source.integrationId.slice(-6)}`,
      statement:
        `${source.name} reached its maxmemory at ${over.toISOString()} and stayed above it (${level})` +
        `${memory.policy === 'noeviction' ? ', refusing writes with OOM' : ', its evictions not bringing it under'}, and caused the alert's condition`,
      at: over,
      run: first,
      mechanism:
        `Redis showed ${level}, above maxmemory since ${over.toISOString()} (current_eviction_exceeded_time)` +
        `${memory.policy === 'noeviction' ? ': with noeviction, every write since is refused with OOM' : ''}${refused}`,
      // The refusals are the mechanism: a write of the service's fails.
      mechanismRuns: oom > 0 ? [first.ordinal] : [],
      chainRuns: [],
      unexplained,
      action,
    };
  }
  if (evicted === 0) {
    if (oom > 0) ctx.saw(source, `memory at ${level}${refused}, not dated: Redis keeps no time of when it filled`);
    return null;
  }
  // Evicting: how fast now, read again after a pause.
  const firstAt = parse(info.readAt);
  if (!firstAt) return null;
  await pause(EVICTION_RATE_WAIT_MS - (Date.now() - firstReadAt), ctx.session.signal);
  const second = await reads.run('redis.info', `How fast does ${source.name} evict keys now? (read again, to compare its eviction counter)`);
  const again = outputOf(second);
  const secondAt = parse(again?.readAt);
  if (!second || !again || !secondAt) return null;
  const seconds = Number(secondAt.epochMicros - firstAt.epochMicros) / 1e6;
  const evictedNow: number = again.stats.evictedKeys ?? evicted;
  const rate = seconds > 0 ? (evictedNow - evicted) / seconds : 0;
  if (rate <= 0) {
    ctx.saw(source, `memory at ${level} with ${evicted} keys evicted since start, none in the ${seconds.toFixed(1)} s between two reads: not evicting now`);
    return null;
  }
  const since = secondAt.plusSeconds(-Math.round(evictedNow / rate));
  const perSecond = Math.round(rate * 10) / 10;
  const estimate = `${evictedNow} keys evicted since start at ${perSecond}/s (${evictedNow - evicted} in the ${seconds.toFixed(1)} s between two reads) began about ${since.toISOString()}, an estimate that takes every eviction since to have come at that rate`;
  if (!ctx.near(since)) {
    ctx.saw(source, `memory at ${level}: ${estimate}, not near the onset (a cache that evicts all along)`);
    return null;
  }
  return {
    id: `h-redis-memory-${source.integrationId.slice(-6)}`,
    statement: `${source.name} ran out of memory (${level}) and has evicted keys from about ${since.toISOString()} at ${perSecond}/s, and caused the alert's condition`,
    at: since,
    run: first,
    mechanism: `Redis showed ${level}; ${estimate}${refused}`,
    // Which evicted keys the alerting service missed is not read: the evictions are shown, not their effect.
    mechanismRuns: [],
    chainRuns: [second.ordinal],
    unexplained: [...unexplained, `whether the keys evicted were ones ${ctx.who} then missed`],
    action,
  };
}

/**
 * Clients at maxclients: connected clients at AT_LIMIT of maxclients or more, or connections
 * rejected at it; the client name (else the client address) holding at least HOLDER_SHARE of them
 * took them, dated by when its last client connected. The mechanism is verified when that is not
 * the alerting service: its clients left none for the service.
 */
async function clientsCause(ctx: ExplainerContext, reads: RedisReads, info: Row): Promise<DetectedCause | null> {
  const { source } = reads;
  const c = info.clients as Row;
  if (!c.maxclients || c.connected === null) return null;
  const full = c.connected >= c.maxclients * AT_LIMIT;
  if (!full) {
    if (c.rejectedConnections)
      ctx.saw(source, `${c.rejectedConnections} connection(s) rejected at maxclients since start, with ${c.connected} of ${c.maxclients} clients now`);
    return null;
  }
  const run = await reads.run('redis.clients', `Who holds the clients of ${source.name}, at ${c.connected} of maxclients ${c.maxclients}?`);
  const clients = outputOf(run);
  if (!run || !clients) return null;
  const named = (clients.byName as Row[]).find((g) => g.name !== '(unnamed)');
  const byAddress = (clients.byAddress as Row[])[0];
  const holder: Row | null =
    named && named.count >= clients.clients * HOLDER_SHARE
      ? { ...named, who: named.name }
      : byAddress
        ? { ...byAddress, who: `clients from ${byAddress.address}` }
        : null;
  if (!holder || holder.count < clients.clients * HOLDER_SHARE) {
    ctx.saw(source, `${c.connected} of maxclients ${c.maxclients} clients connected, no client name or address holding half of them`);
    return null;
  }
  const at = parse(holder.lastConnectedAt);
  if (!at || !ctx.near(at)) {
    ctx.saw(
      source,
      `${holder.who} held ${holder.count} of the ${clients.clients} clients (maxclients ${c.maxclients}), the last connected at ${holder.lastConnectedAt}, not near the onset`,
    );
    return null;
  }
  const services = alertServicesOf(ctx.scope);
  const alertingOwn = services.some((s) => String(holder.who).toLowerCase().includes(s));
  const rejected = c.rejectedConnections ? `, ${c.rejectedConnections} connection(s) rejected at maxclients since start` : '';
  const share = `${holder.count} of the ${clients.clients} clients (maxclients ${c.maxclients})`;
  return {
    id: `h-redis-clients-${source.integrationId.slice(-6)}`,
    statement: `${holder.who} took ${share} of ${source.name}, the last at ${at.toISOString()}, and caused the alert's condition`,
    at,
    run,
    mechanism: `Redis showed ${holder.who} holding ${share}, connected from ${holder.firstConnectedAt} to ${holder.lastConnectedAt}${rejected}`,
    mechanismRuns: alertingOwn ? [] : [run.ordinal],
    chainRuns: [],
    unexplained: [
      ...(alertingOwn ? [`why ${holder.who}, the alerting service itself, opened so many connections`] : []),
      `why ${holder.who} opened ${holder.count} connections`,
    ],
    action: {
      title: `Close the idle clients of ${holder.who} in ${source.name} and bound its connection pool`,
      rationale: `It held most of the clients Redis accepts from just before the condition began`,
      verification: 'redis.info shows clients under maxclients, no new rejected connections, and the alert resolves',
    },
  };
}

/**
 * Slow commands: the command of the slow log whose entries near the onset took longest, one of
 * them at least STALL_MS (Redis runs one command at a time: every other client waited as long),
 * dated by the first such entry; a command already that slow before the window is not what changed.
 * Else a latency spike of at least STALL_MS the latency monitor recorded near the onset.
 */
async function slowCause(ctx: ExplainerContext, reads: RedisReads): Promise<DetectedCause | null> {
  const { source } = reads;
  const slowlog = await reads.run('redis.slowlog', `Did slow commands stall ${source.name} near the onset?`);
  const log = outputOf(slowlog);
  if (slowlog && log) {
    const entries = (log.entries as Row[]).map((e): Row => ({ ...e, time: parse(e.at) })).filter((e) => e.time !== null);
    const stalls = entries.filter((e) => e.durationMs >= STALL_MS && ctx.near(e.time));
    const before = new Set(entries.filter((e) => e.durationMs >= STALL_MS && e.time!.isBefore(ctx.session.window.from)).map((e) => e.command));
    const byCommand = new Map<string, Row[]>();
    for (const e of stalls) byCommand.set(e.command, [...(byCommand.get(e.command) ?? []), e]);
    const total = (list: Row[]) => list.reduce((sum, e) => sum + e.durationMs, 0);
    const ranked = [...byCommand.entries()].sort((a, b) => total(b[1]) - total(a[1]));
    for (const [command] of ranked.filter(([command]) => before.has(command)))
      ctx.saw(source, `${command} commands of ${STALL_MS} ms or more in the slow log near the onset, and before the window too: not what changed`);
    const chosen = ranked.find(([command]) => !before.has(command));
    if (chosen) {
      const [command, list] = chosen;
      const sorted = [...list].sort((a, b) => (a.time!.isAfter(b.time!) ? 1 : -1));
      const firstEntry = sorted[0];
      const longest = [...list].sort((a, b) => b.durationMs - a.durationMs)[0];
      const client = longest.clientName ?? longest.client ?? 'an unknown client';
      const text = [command, ...(longest.arguments as string[])].join(' ');
      return {
        id: `h-redis-slow-${source.integrationId.slice(-6)}`,
        statement: `${command} commands in ${source.name} took up to ${longest.durationMs} ms from ${firstEntry.time!.toISOString()} (${list.length} of ${STALL_MS} ms or more, ${Math.round(total(list))} ms in all), stalling every other client, and caused the alert's condition`,
        at: firstEntry.time!,
        run: slowlog,
        mechanism:
          `Redis runs one command at a time: its slow log showed ${list.length} ${command} command(s) from ${firstEntry.time!.toISOString()} to ${sorted[sorted.length - 1].time!.toISOString()}, ` +
          `the longest ${longest.durationMs} ms (${text.slice(0, 200)}, by ${client}), and every other client waited as long`,
        mechanismRuns: [slowlog.ordinal],
        chainRuns: [],
        unexplained: [`why ${client} ran ${command} on ${source.name}`],
        action: {
          title: `Stop ${client} running ${command} on ${source.name} (a SCAN, a bounded range or a smaller batch instead)`,
          rationale: `Each ran up to ${longest.durationMs} ms, stalling every other client, from just before the condition began`,
          verification: `redis.slowlog shows no new ${command} entry and the alert resolves`,
        },
      };
    }
  }
  const latency = await reads.run('redis.latency', `Did ${source.name} stall (forks, disk, expiry, eviction) near the onset?`);
  const monitor = outputOf(latency);
  // With the monitor off (latency-monitor-threshold 0, the default), nothing is recorded: the run's summary says so.
  if (!latency || !monitor) return null;
  const spike = (monitor.events as Row[])
    .map((e): Row => ({ ...e, time: parse(e.at) }))
    .filter((e) => e.latestMs >= STALL_MS && ctx.near(e.time))
    .sort((a, b) => b.latestMs - a.latestMs)[0];
  if (!spike) return null;
  return {
    id: `h-redis-slow-${source.integrationId.slice(-6)}`,
    statement: `${source.name} stalled ${spike.latestMs} ms on ${spike.event} at ${spike.time!.toISOString()}, and caused the alert's condition`,
    at: spike.time!,
    run: latency,
    mechanism: `Redis's latency monitor recorded a stall of ${spike.latestMs} ms on ${spike.event} at ${spike.time!.toISOString()} (the largest since start ${spike.maxMs} ms); every client waited as long`,
    mechanismRuns: [latency.ordinal],
    chainRuns: [],
    unexplained: [`what made ${source.name} stall on ${spike.event}`],
    action: {
      title: `Find what stalls ${source.name} on ${spike.event} (LATENCY DOCTOR; persistence forks, disk, large expiries)`,
      rationale: `It stalled ${spike.latestMs} ms just before the condition began`,
      verification: 'redis.latency shows no new spike and the alert resolves',
    },
  };
}

/**
 * Memory at maxmemory, clients at maxclients, and commands or stalls that held Redis near the
 * onset, read in each Redis that serves the alert (redis.info, then redis.clients when the clients
 * are at maxclients, redis.slowlog, and redis.latency when the slow log shows nothing). When
 * redis.info fails, nothing else is read there: the failure is stated, and nothing is concluded.
 */
async function redisCauses(ctx: ExplainerContext, source: SourceBrief): Promise<DetectedCause[]> {
  const reads = new RedisReads(ctx, source);
  const causes: DetectedCause[] = [];
  const first = await reads.run('redis.info', `Is ${source.name} at its maxmemory (refusing writes or evicting keys) or at its maxclients?`);
  const firstReadAt = Date.now();
  const info = outputOf(first);
  // Not read (unreachable, refused): the other reads would fail as this one did, each after its timeout.
  if (!first || !info) return causes;
  const memory = await memoryCause(ctx, reads, first, info, firstReadAt);
  if (memory) causes.push(memory);
  const clients = await clientsCause(ctx, reads, info);
  if (clients) causes.push(clients);
  const slow = await slowCause(ctx, reads);
  if (slow) causes.push(slow);
  return causes;
}

/** Redis at its memory or client limits, or stalled by slow commands, in the Redis servers that serve the alerting service, read in Redis itself. */
export const redisExplainer: Explainer = {
  name: 'Redis memory, clients and stalls',
  // Read in Redis, not in Prometheus: no exporter has to run.
  reads: [],
  appliesTo: () => true,
  async explain(ctx, found) {
    return eachDatastore(ctx, found, ['redis'], (source) => redisCauses(ctx, source));
  },
};
