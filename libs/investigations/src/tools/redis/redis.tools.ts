import { byteSize, duration, readDatastore } from '../datastore-read';
import { count, firstOf } from '../series-name';
import type { ToolDefinition } from '../tool.types';

type Row = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- parsed server replies, shaped by the reads

const noArguments = { type: 'object', properties: {}, additionalProperties: false };

export const redisInfoTool: ToolDefinition<Record<string, never>> = {
  name: 'redis.info',
  integrationType: 'redis',
  description:
    "Reads Redis's INFO: memory used against maxmemory and the eviction policy, keys evicted and expired, connected, blocked and rejected clients, keyspace hits and misses, " +
    'operations per second, persistence (last save, AOF) and replication (role, link to the primary, replicas and their lag), with hints when something is off. ' +
    'Use it first on a Redis-backed service: cache misses rising, OOM errors, evictions, timeouts or a replica falling behind.',
  argumentsSchema: noArguments,
  async run(args, context) {
    const sources = ['INFO'];
    const output = await readDatastore<Row>(context, 'info', args, sources);
    const memory = output.memory.maxmemoryBytes
      ? `${byteSize(output.memory.usedBytes)} of maxmemory ${byteSize(output.memory.maxmemoryBytes)} (${Math.round(output.memory.usedFraction * 100)}%, ${output.memory.policy})`
      : `${byteSize(output.memory.usedBytes)} used, no maxmemory`;
    let summary = `Redis ${output.version}, ${output.replication.role ?? 'role unknown'}: ${memory}; ${count(output.clients.connected ?? 0, 'client')}`;
    summary += output.stats.hitRatio !== null ? `; hit ratio ${output.stats.hitRatio}.` : '.';
    if (output.hints.length) summary += ` ${firstOf(output.hints, 3)}.`;
    return { outcome: 'succeeded', summary, output, truncated: false, sources };
  },
};

export const redisSlowlogTool: ToolDefinition<{ limit?: number }> = {
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
  async run(args, context) {
    const sources = ['SLOWLOG'];
    const output = await readDatastore<Row>(context, 'slowlog', args, sources);
    const groups = (output.byCommand as Row[]).map((g) => `${g.command} ${g.count}× (max ${g.maxMs} ms)`);
    const summary = output.entries.length
      ? `${count(output.length, 'slow log entry', 'slow log entries')}; the latest ${output.entries.length} by command: ${firstOf(groups, 3)}.`
      : `The slow log is empty${output.thresholdMicros !== null ? ` (threshold ${output.thresholdMicros} µs)` : ''}.`;
    return { outcome: 'succeeded', summary, output, truncated: false, sources };
  },
};

export const redisLatencyTool: ToolDefinition<Record<string, never>> = {
  name: 'redis.latency',
  integrationType: 'redis',
  description:
    "Reads Redis's latency monitor (LATENCY LATEST): the latest and largest latency spike of each event (command, fork, expire cycle, AOF fsync...), and whether the monitor is on. " +
    'Use it when Redis stalls now and then, to tell slow commands from forks for persistence or disk waits.',
  argumentsSchema: noArguments,
  async run(args, context) {
    const sources = ['LATENCY LATEST'];
    const output = await readDatastore<Row>(context, 'latency', args, sources);
    const events = (output.events as Row[]).map((e) => `${e.event} ${e.latestMs} ms at ${e.at} (max ${e.maxMs} ms)`);
    const summary = events.length
      ? `${count(events.length, 'latency event')}: ${firstOf(events, 3)}.`
      : output.monitorOn === false
        ? 'No latency event: the latency monitor is off (latency-monitor-threshold 0).'
        : 'No latency event recorded.';
    return { outcome: 'succeeded', summary, output, truncated: false, sources };
  },
};

export const redisClientsTool: ToolDefinition<Record<string, never>> = {
  name: 'redis.clients',
  integrationType: 'redis',
  description:
    "Reads Redis's connected clients (CLIENT LIST) summarised by client name, address and last command, with the blocked clients and the longest idle ones. " +
    'Use it on connection exhaustion (maxclients), a client leaking connections, or consumers blocked on lists or streams.',
  argumentsSchema: noArguments,
  async run(args, context) {
    const sources = ['CLIENT LIST'];
    const output = await readDatastore<Row>(context, 'clients', args, sources);
    const names = (output.byName as Row[]).map((g) => `${g.name} ${g.count}`);
    const idle = (output.longestIdle as Row[])[0];
    let summary = `${count(output.clients, 'client')}, ${output.blocked} blocked; by name: ${firstOf(names, 3) || 'none'}.`;
    if (idle) summary += ` Longest idle: ${idle.name ?? idle.address} ${duration(idle.idleSeconds)}.`;
    return { outcome: 'succeeded', summary, output, truncated: false, sources };
  },
};

export const REDIS_TOOLS: ReadonlyArray<ToolDefinition> = [
  redisInfoTool,
  redisSlowlogTool,
  redisLatencyTool,
  redisClientsTool,
] as ReadonlyArray<ToolDefinition>;
