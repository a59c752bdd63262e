import { byteSize, duration } from '../datastore-read';
import { getJson } from '../http-json';
import { count, firstOf } from '../series-name';
import { ToolFailure } from '../tool-failure';
import type { ToolContext, ToolDefinition } from '../tool.types';

type Row = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- the management API's JSON

/** Objects a listing reads at most (the management API pages server-side, deepest first). */
const PAGE_SIZE = 500;

/** A page of the management API's listing (`?page=` answers `{items, total_count, filtered_count}`). */
async function listing(context: ToolContext, path: string, query: Array<[string, string]>): Promise<{ items: Row[]; total: number; source: string }> {
  const { body, source } = await getJson(context, path, [...query, ['page', '1'], ['page_size', String(PAGE_SIZE)]]);
  const page = body as { items?: unknown; total_count?: unknown; filtered_count?: unknown };
  if (!Array.isArray(page?.items)) throw new ToolFailure(`The answer at /${path} is not a RabbitMQ management listing`, [source]);
  return { items: page.items as Row[], total: Number(page.filtered_count ?? page.total_count ?? page.items.length), source };
}

const rate = (stats: Row | undefined, name: string): number | null => {
  const value = stats?.[`${name}_details`]?.rate;
  return typeof value === 'number' ? Math.round(value * 100) / 100 : null;
};
/**
 * A virtual host is chosen here rather than by the vhost's own path (`/api/queues/{vhost}`):
 * those answer 401 to a monitoring user without permissions on the virtual host, while the
 * listing of every virtual host shows it all.
 */
const inVhost = (vhost: string | undefined) => (row: Row) => !vhost || row.vhost === vhost;

const QUEUE_COLUMNS = [
  'name',
  'vhost',
  'type',
  'state',
  'messages',
  'messages_ready',
  'messages_unacknowledged',
  'consumers',
  'consumer_utilisation',
  'head_message_timestamp',
  'idle_since',
  'memory',
  'message_stats',
].join(',');

export const rabbitmqQueuesTool: ToolDefinition<{ vhost?: string; name?: string }> = {
  name: 'rabbitmq.queues',
  integrationType: 'rabbitmq',
  description:
    "Reads RabbitMQ's queues through its management API, deepest first: messages ready and unacknowledged, consumers and their utilisation, publish, deliver and ack rates, " +
    'the age of the oldest message (when publishers set timestamps) and state. Names the queues that grow or have messages but no consumer. ' +
    'Use it when work piles up, consumers lag, or a service that consumes from RabbitMQ stops processing.',
  argumentsSchema: {
    type: 'object',
    properties: {
      vhost: { type: 'string', minLength: 1, maxLength: 255, description: 'Only queues of this virtual host' },
      name: { type: 'string', minLength: 1, maxLength: 255, description: 'Only queues whose name contains this text' },
    },
    additionalProperties: false,
  },
  async run(args, context) {
    const query: Array<[string, string]> = [
      ['sort', 'messages'],
      ['sort_reverse', 'true'],
      ['columns', QUEUE_COLUMNS],
    ];
    if (args.name) query.push(['name', args.name]);
    const read = await listing(context, 'api/queues', query);
    const items = read.items.filter(inVhost(args.vhost));
    const { source } = read;
    const total = args.vhost ? items.length : read.total;
    const now = Date.now();
    const queues = items.slice(0, 100).map((q) => {
      const publish = rate(q.message_stats, 'publish');
      const ack = rate(q.message_stats, 'ack');
      const deliver = rate(q.message_stats, 'deliver_get');
      return {
        name: q.name,
        vhost: q.vhost,
        type: q.type ?? null,
        state: q.state ?? null,
        messages: q.messages ?? 0,
        ready: q.messages_ready ?? 0,
        unacknowledged: q.messages_unacknowledged ?? 0,
        consumers: q.consumers ?? 0,
        consumerUtilisation: typeof q.consumer_utilisation === 'number' ? Math.round(q.consumer_utilisation * 1000) / 1000 : null,
        publishRate: publish,
        deliverRate: deliver,
        ackRate: ack,
        /** Seconds since the oldest message was published (only when publishers set the timestamp property). */
        oldestMessageSeconds: typeof q.head_message_timestamp === 'number' ? Math.max(0, Math.round(now / 1000 - q.head_message_timestamp)) : null,
        idleSince: q.idle_since ?? null,
        memoryBytes: q.memory ?? null,
      };
    });
    const unconsumed = queues.filter((q) => q.messages > 0 && q.consumers === 0);
    const growing = queues.filter((q) => q.publishRate !== null && q.publishRate > 0 && (q.ackRate ?? 0) + (q.deliverRate ?? 0) < q.publishRate / 2);
    const deepest = queues[0];
    let summary = `${count(total, 'queue')}${args.vhost ? ` in ${args.vhost}` : ''}${queues.length < total ? ` (the ${queues.length} deepest listed)` : ''}`;
    summary += deepest ? `; the deepest: ${deepest.vhost} ${deepest.name} with ${deepest.messages} messages, ${count(deepest.consumers, 'consumer')}.` : '.';
    if (unconsumed.length)
      summary += ` Messages but no consumer: ${firstOf(
        unconsumed.map((q) => `${q.name} (${q.messages})`),
        3,
      )}.`;
    if (growing.length)
      summary += ` Growing (published faster than delivered): ${firstOf(
        growing.map((q) => `${q.name} ${q.publishRate}/s in`),
        3,
      )}.`;
    return { outcome: 'succeeded', summary, output: { total, queues, withoutConsumers: unconsumed.map((q) => q.name) }, truncated: false, sources: [source] };
  },
};

export const rabbitmqConnectionsTool: ToolDefinition<{ vhost?: string }> = {
  name: 'rabbitmq.connections',
  integrationType: 'rabbitmq',
  description:
    "Reads RabbitMQ's client connections through its management API, summarised by user, client host and connection name (the application's), with their channels, " +
    'and the connections blocked by a memory or disk alarm. Use it when publishers stall, connections are refused, or to see which application holds the connections and channels.',
  argumentsSchema: {
    type: 'object',
    properties: { vhost: { type: 'string', minLength: 1, maxLength: 255, description: 'Only connections to this virtual host' } },
    additionalProperties: false,
  },
  async run(args, context) {
    const columns = 'name,user,vhost,peer_host,client_properties,channels,state,connected_at';
    const read = await listing(context, 'api/connections', [['columns', columns]]);
    const items = read.items.filter(inVhost(args.vhost));
    const { source } = read;
    const total = args.vhost ? items.length : read.total;
    const connections = items.map((c) => ({
      user: c.user ?? null,
      vhost: c.vhost ?? null,
      client: c.peer_host ?? null,
      connectionName: c.client_properties?.connection_name ?? null,
      product: c.client_properties?.product ?? null,
      channels: c.channels ?? 0,
      state: c.state ?? null,
      connectedAt: typeof c.connected_at === 'number' ? new Date(c.connected_at).toISOString() : null,
    }));
    const groupBy = (key: (c: (typeof connections)[number]) => string, label: string) => {
      const groups = new Map<string, { connections: number; channels: number }>();
      for (const c of connections) {
        const g = groups.get(key(c)) ?? { connections: 0, channels: 0 };
        g.connections += 1;
        g.channels += c.channels;
        groups.set(key(c), g);
      }
      return [...groups.entries()].map(([value, g]): Row => ({ [label]: value, ...g })).sort((a, b) => b.connections - a.connections);
    };
    const blocked = connections.filter((c) => c.state === 'blocked' || c.state === 'blocking');
    const byName = groupBy((c) => c.connectionName ?? '(unnamed)', 'connectionName');
    let summary = `${count(total, 'connection')}; by connection name: ${
      firstOf(
        byName.map((g) => `${g.connectionName} ${g.connections}`),
        3,
      ) || 'none'
    }.`;
    if (blocked.length) summary += ` ${count(blocked.length, 'connection')} blocked by an alarm.`;
    return {
      outcome: 'succeeded',
      summary,
      output: {
        total,
        byUser: groupBy((c) => c.user ?? '', 'user'),
        byClient: groupBy((c) => c.client ?? '', 'client'),
        byConnectionName: byName,
        blocked,
        connections,
      },
      truncated: false,
      sources: [source],
    };
  },
};

export const rabbitmqOverviewTool: ToolDefinition<Record<string, never>> = {
  name: 'rabbitmq.overview',
  integrationType: 'rabbitmq',
  description:
    "Reads RabbitMQ's overview and nodes through its management API: version, message totals and rates, object counts, and per node memory against its high watermark, " +
    'free disk against its limit, file descriptors and sockets, with the memory and disk alarms that block publishers. Use it first on a RabbitMQ-backed service.',
  argumentsSchema: { type: 'object', properties: {}, additionalProperties: false },
  async run(_args, context) {
    const overview = await getJson(context, 'api/overview');
    const nodes = await getJson(context, 'api/nodes', [
      ['columns', 'name,running,mem_used,mem_limit,mem_alarm,disk_free,disk_free_limit,disk_free_alarm,fd_used,fd_total,sockets_used,sockets_total,uptime'],
    ]);
    const o = overview.body as Row;
    if (!Array.isArray(nodes.body)) throw new ToolFailure('The answer at /api/nodes is not a list of nodes', [overview.source, nodes.source]);
    const nodeRows = (nodes.body as Row[]).map((n) => ({
      name: n.name,
      running: n.running ?? null,
      memoryBytes: n.mem_used ?? null,
      memoryLimitBytes: n.mem_limit ?? null,
      memoryAlarm: n.mem_alarm ?? false,
      diskFreeBytes: n.disk_free ?? null,
      diskFreeLimitBytes: n.disk_free_limit ?? null,
      diskAlarm: n.disk_free_alarm ?? false,
      fileDescriptors: n.fd_used ?? null,
      fileDescriptorLimit: n.fd_total ?? null,
      uptimeSeconds: typeof n.uptime === 'number' ? Math.round(n.uptime / 1000) : null,
    }));
    const alarms = nodeRows.flatMap((n) => [
      ...(n.memoryAlarm ? [`${n.name}: memory alarm (${byteSize(n.memoryBytes)} of ${byteSize(n.memoryLimitBytes)})`] : []),
      ...(n.diskAlarm ? [`${n.name}: disk alarm (${byteSize(n.diskFreeBytes)} free, limit ${byteSize(n.diskFreeLimitBytes)})`] : []),
      ...(n.running === false ? [`${n.name}: not running`] : []),
    ]);
    const totals = o.queue_totals ?? {};
    const output = {
      version: o.rabbitmq_version ?? null,
      cluster: o.cluster_name ?? null,
      messages: { total: totals.messages ?? 0, ready: totals.messages_ready ?? 0, unacknowledged: totals.messages_unacknowledged ?? 0 },
      rates: { publish: rate(o.message_stats, 'publish'), deliver: rate(o.message_stats, 'deliver_get'), ack: rate(o.message_stats, 'ack') },
      objects: o.object_totals ?? {},
      alarms,
      nodes: nodeRows,
    };
    const oldest = nodeRows.map((n) => n.uptimeSeconds).filter((u): u is number => u !== null);
    let summary = `RabbitMQ ${output.version}, ${count(nodeRows.length, 'node')}: ${output.messages.total} messages queued (${output.messages.unacknowledged} unacknowledged), ${count(
      output.objects.consumers ?? 0,
      'consumer',
    )}, ${count(output.objects.connections ?? 0, 'connection')}.`;
    summary += alarms.length ? ` Alarms: ${firstOf(alarms, 3)}: publishers are blocked.` : ' No alarm.';
    if (oldest.length) summary += ` Up ${duration(Math.min(...oldest))}.`;
    return { outcome: 'succeeded', summary, output, truncated: false, sources: [overview.source, nodes.source] };
  },
};

export const RABBITMQ_TOOLS: ReadonlyArray<ToolDefinition> = [
  rabbitmqOverviewTool,
  rabbitmqQueuesTool,
  rabbitmqConnectionsTool,
] as ReadonlyArray<ToolDefinition>;
