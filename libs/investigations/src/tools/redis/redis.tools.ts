import { byteSize, datastoreTool, duration, NO_ARGUMENTS, Row } from '../datastore-read';
import { count, firstOf } from '../series-name';
import type { ToolDefinition } from '../tool.types';

export const redisInfoTool = datastoreTool<Record<string, never>>({
  name: 'redis.info',
  integrationType: 'redis',
  description:
    "Reads Redis's INFO: memory used against maxmemory and the eviction policy (and since when it has been above it), keys evicted and expired, commands refused with OOM, " +
    'connected, blocked and rejected clients, keyspace hits and misses, ' +
    'operations per second, persistence (last save, AOF) and replication (role, link to the primary, replicas and their lag), with hints when something is off. ' +
    'Use it first on a Redis-backed service: cache misses rising, OOM errors, evictions, timeouts or a replica falling behind.',
  argumentsSchema: NO_ARGUMENTS,
  read: 'info',
  sources: ['INFO'],
  summarize(output) {
    const memory = output.memory.maxmemoryBytes
      ? `${byteSize(output.memory.usedBytes)} of maxmemory ${byteSize(output.memory.maxmemoryBytes)} (${Math.round(output.memory.usedFraction * 100)}%, ${output.memory.policy})`
      : `${byteSize(output.memory.usedBytes)} used, no maxmemory`;
    let summary = `Redis ${output.version}, ${output.replication.role ?? 'role unknown'}: ${memory}; ${count(output.clients.connected ?? 0, 'client')}`;
    summary += output.stats.hitRatio !== null ? `; hit ratio ${output.stats.hitRatio}.` : '.';
    if (output.hints.length) summary += ` ${firstOf(output.hints, 3)}.`;
    return summary;
  },
});

export const redisSlowlogTool = datastoreTool<{ limit?: number }>({
  name: 'redis.slowlog',
  integrationType: 'redis',
  description:
    "Reads Redis's slow log (SLOWLOG GET): the recent commands slower than slowlog-log-slower-than, with when, how long, the command and its first arguments and the client, " +
    'grouped by command. Use it when Redis latency rises or clients time out, to find an expensive command (KEYS, a large range or set operation, a slow script).',
  argumentsSchema: {
    type: 'object',
    properties: { limit: { type: 'integer', minimum: 1, maximum: 50, description: 'How many of the latest entries (default 50)' } },
    additionalProperties: false,
  },
  read: 'slowlog',
  sources: ['SLOWLOG'],
  summarize(output) {
    const groups = (output.byCommand as Row[]).map((g) => `${g.command} ${g.count}× (max ${g.maxMs} ms)`);
    const summary = output.entries.length
      ? `${count(output.length, 'slow log entry', 'slow log entries')}; the latest ${output.entries.length} by command: ${firstOf(groups, 3)}.`
      : `The slow log is empty${output.thresholdMicros !== null ? ` (threshold ${output.thresholdMicros} µs)` : ''}.`;
    return summary;
  },
});

export const redisLatencyTool = datastoreTool<Record<string, never>>({
  name: 'redis.latency',
  integrationType: 'redis',
  description:
    "Reads Redis's latency monitor (LATENCY LATEST): the latest and largest latency spike of each event (command, fork, expire cycle, AOF fsync...), and whether the monitor is on. " +
    'Use it when Redis stalls now and then, to tell slow commands from forks for persistence or disk waits.',
  argumentsSchema: NO_ARGUMENTS,
  read: 'latency',
  sources: ['LATENCY LATEST'],
  summarize(output) {
    const events = (output.events as Row[]).map((e) => `${e.event} ${e.latestMs} ms at ${e.at} (max ${e.maxMs} ms)`);
    const summary = events.length
      ? `${count(events.length, 'latency event')}: ${firstOf(events, 3)}.`
      : output.monitorOn === false
        ? 'No latency event: the latency monitor is off (latency-monitor-threshold 0).'
        : 'No latency event recorded.';
    return summary;
  },
});

export const redisClientsTool = datastoreTool<Record<string, never>>({
  name: 'redis.clients',
  integrationType: 'redis',
  description:
    "Reads Redis's connected clients (CLIENT LIST) summarised by client name (with when its first and last client connected), address and last command, with the blocked clients and the longest idle ones. " +
    'Use it on connection exhaustion (maxclients), a client leaking connections, or consumers blocked on lists or streams.',
  argumentsSchema: NO_ARGUMENTS,
  read: 'clients',
  sources: ['CLIENT LIST'],
  summarize(output) {
    const names = (output.byName as Row[]).map((g) => `${g.name} ${g.count}`);
    const idle = (output.longestIdle as Row[])[0];
    let summary = `${count(output.clients, 'client')}, ${output.blocked} blocked; by name: ${firstOf(names, 3) || 'none'}.`;
    if (idle) summary += ` Longest idle: ${idle.name ?? idle.address} ${duration(idle.idleSeconds)}.`;
    return summary;
  },
});

export const REDIS_TOOLS: ReadonlyArray<ToolDefinition> = [
  redisInfoTool,
  redisSlowlogTool,
  redisLatencyTool,
  redisClientsTool,
] as ReadonlyArray<ToolDefinition>;
