import { Timestamp } from '@svc/platform';
import type { Entity } from '../discovery/entity';
import { entityOfSeries } from '../discovery/entity-model';
import { meaningOf } from '../discovery/meaning';
import { CLIENT_COUNTERS, CLIENT_HISTOGRAMS, escape, MarkedQuery, PEER_LABELS, peerOf, podNodeInfo, quote } from '../explainers/labels';
import type { PrometheusReader } from '../discovery/related-series';
import type { RecordedRun } from '../reasoner';
import { MINUTE, pointsOf, seriesOf, shift } from '../series-reading';

/**
 * Label pairs that name the two ends of a call on one series: the caller, then the callee. The
 * service graphs derived from traces (the OpenTelemetry Collector's servicegraph connector,
 * Tempo's metrics generator), service meshes (Istio's workloads and apps), Linkerd's outbound
 * series, and the source/destination convention of other proxies.
 */
export const CALL_PAIRS: ReadonlyArray<readonly [string, string]> = [
  ['client', 'server'],
  ['source_workload', 'destination_workload'],
  ['source_app', 'destination_app'],
  ['source_service', 'destination_service'],
  ['deployment', 'dst_deployment'],
];

/** Which side of a call a latency series times: the caller's wait (client) or the callee's handling (server). */
export type Side = 'client' | 'server';

/** A latency metric of calls between two labelled ends, and how its sides are told apart. */
export interface CallLatency {
  /** The metric as discovered (a histogram's `_bucket`, or a summary's or plain series' name). */
  metric: string;
  caller: string;
  callee: string;
  /** The side the metric times by its name (`..._client_seconds`), or undefined when a `reporter` label says it per series. */
  side?: Side;
}

/** One caller → callee pair and the mean duration of its calls on each side, where both were read. */
export interface CallEdge {
  caller: string;
  callee: string;
  /** Mean seconds per call as the caller waited for it, per sample time (epoch µs). */
  client: Map<bigint, number>;
  /** Mean seconds per call as the callee handled it, per sample time. */
  server: Map<bigint, number>;
}

export interface CallGraph {
  edges: CallEdge[];
  /** The metric (or the pair of metrics) the edges were read from, for statements. */
  source: string;
  runs: RecordedRun[];
}

/** How far before the onset the edges are read: enough to see whether a gap was already there. */
const LOOKBACK = 15n * MINUTE;
const AFTER_ONSET = 5n * MINUTE;
const STEP_SECONDS = 60;

/** The side a metric's name gives: a `client` or `server` word in it (`request_client_seconds`). */
const sideOfName = (metric: string): Side | undefined => (/(^|_)client(_|$)/.test(metric) ? 'client' : /(^|_)server(_|$)/.test(metric) ? 'server' : undefined);

/** A `reporter` label's value as a side: Istio's source proxy times the caller's wait, the destination's the callee's handling. */
const sideOfReporter = (reporter: string | undefined): Side | undefined =>
  reporter === 'source' || reporter === 'client' ? 'client' : reporter === 'destination' || reporter === 'server' ? 'server' : undefined;

/** A caller → callee pair that some series shows, whatever it measures. */
export interface CallPair {
  caller: string;
  callee: string;
}

/** What one read shows of where the alerting services sit among their dependencies. */
export interface Topology {
  /** The latency metrics that pair a caller and a callee (their graph is read next: see readCallGraph). */
  latencies: CallLatency[];
  /**
   * Every caller → callee pair the series show: the pairs of caller and callee labels of any
   * metric (either side of a call: a mesh whose callee side alone reports shows its edges too),
   * and the client-side metrics that name their peer (the caller by `service_name` or `job`).
   */
  pairs: CallPair[];
  /** The nodes the alerting services' pods run on. */
  nodes: string[];
  run: RecordedRun;
}

/**
 * A service's name in a caller's or peer's label: a URL's host, without a port or a cluster DNS
 * suffix (`inventory.shop.svc.cluster.local:8080` is inventory), and a `<namespace>/<name>` job's name.
 */
export function serviceNamed(value: string): string {
  const host = value.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '');
  const name = host !== value || host.includes(':') ? host.replace(/[:/].*$/, '') : (host.split('/')[1] ?? host);
  return name.replace(/\.[^.]+\.svc(\.cluster\.local)?$/, '');
}

const PAIR_METRICS = (a: string, b: string): MarkedQuery => new MarkedQuery('pair', `${a},${b}`, `count by (__name__) ({${a}!="", ${b}!=""})`);
const PAIR_EDGES = (a: string, b: string): MarkedQuery => new MarkedQuery('edges', `${a},${b}`, `count by (${a}, ${b}) ({${a}!="", ${b}!=""})`);
const PEER_EDGES = new MarkedQuery(
  'edges',
  'peer',
  `count by (job, service_name, ${PEER_LABELS.join(', ')}) ({__name__=~"${CLIENT_COUNTERS}|${CLIENT_HISTOGRAMS}"})`,
);
const PODS_NODES = (matchers: string): MarkedQuery => new MarkedQuery('edges', 'node', `count by (node) (${podNodeInfo(matchers)})`);
/**
 * Labels that name the callee on a series of any metric of calls (a client library's, OpenTelemetry's
 * `server_address`, a proxy's upstream), its caller named by the series' service: one read of each
 * pair, whatever the metric is called.
 */
const GENERIC_PEER_LABELS = ['peer', 'peer_service', 'net_peer_name', 'server_address', 'upstream', 'upstream_service', 'destination'];
const GENERIC_PEER_EDGES = GENERIC_PEER_LABELS.map(
  (l) => new MarkedQuery('edges', `peer:${l}`, `count by (namespace, job, service, service_name, app, pod, ${l}) ({${l}!=""})`),
);

/**
 * Where the alerting services sit among their dependencies, in one read: for each known pair of
 * caller and callee labels, the metrics with a series that sets both (the latency metrics among
 * them are kept: a metric timing one side by its name only with its counterpart of the other side
 * beside it, a metric without a side in its name read per `reporter`) and the pairs they show; the
 * peers client-side metrics name; the nodes of the services' pods.
 */
export async function discoverCalls(read: PrometheusReader, at: string, entity: Entity, extra: string[] = []): Promise<Topology> {
  const pods = entity.pods.length
    ? `pod=~${quote(entity.pods.map(escape).join('|'))}`
    : `pod=~${quote(`(${entity.names.map((n) => escape(n.split('/').pop()!)).join('|')})-.+`)}`;
  const matchers = [...(entity.namespace ? [`namespace=${quote(entity.namespace)}`] : []), pods].join(', ');
  const run = await read(
    'prometheus.query',
    {
      query: [
        ...CALL_PAIRS.flatMap(([a, b]) => [PAIR_METRICS(a, b).query, PAIR_EDGES(a, b).query]),
        PEER_EDGES.query,
        ...GENERIC_PEER_EDGES.map((q) => q.query),
        PODS_NODES(matchers).query,
        ...extra,
      ].join(' or '),
      time: at,
    },
    `Which services call which (service graphs, meshes, client metrics) and which nodes the alerting pods run on, to place ${entity.name} among its dependencies`,
  );
  const found: CallLatency[] = [];
  const nodes: string[] = [];
  for (const s of seriesOf(run)) {
    const m = s.metric;
    if (m.edges === 'node') {
      if (m.node) nodes.push(m.node);
    } else if (m.pair && m.__name__) {
      const [caller, callee] = m.pair.split(',');
      const meaning = meaningOf({ __name__: m.__name__ });
      // Means are read from a histogram's or summary's sum and count.
      if (meaning.kind !== 'latency' || !/_(bucket|sum)$/.test(m.__name__)) continue;
      found.push({ metric: m.__name__.replace(/_(bucket|sum)$/, ''), caller, callee, side: sideOfName(m.__name__) });
    }
  }
  const unique = [...new Map(found.map((l) => [`${l.metric}|${l.caller}`, l])).values()];
  // A side named by the metric counts only with the other side's metric of the same pair beside it.
  const latencies = unique.filter((l) => {
    const side = l.side;
    return !side || unique.some((o) => o.caller === l.caller && o.side && o.side !== side && o.metric === l.metric.replace(side, o.side));
  });
  return { latencies, pairs: pairsIn(run), nodes: [...new Set(nodes)].sort(), run };
}

/** The distinct caller → callee pairs of a read of PAIR_EDGES and PEER_EDGES. */
function pairsIn(run: RecordedRun): CallPair[] {
  const pairs: CallPair[] = [];
  for (const { metric: m } of seriesOf(run)) {
    if (m.edges === 'peer' || m.edges?.startsWith('peer:')) {
      const caller = entityOfSeries(m)?.name;
      const callee = m.edges === 'peer' ? peerOf(m) : m[m.edges.slice('peer:'.length)];
      if (caller && callee) pairs.push({ caller: serviceNamed(caller), callee: serviceNamed(callee) });
    } else if (m.edges && m.edges !== 'node') {
      const [a, b] = m.edges.split(',');
      // A mesh names what it could not identify `unknown`.
      if (m[a] && m[b] && m[a] !== 'unknown' && m[b] !== 'unknown') pairs.push({ caller: m[a], callee: m[b] });
    }
  }
  return [...new Map(pairs.filter((p) => p.caller !== p.callee).map((p) => [`${p.caller}\u0000${p.callee}`, p])).values()];
}

/**
 * Every caller → callee pair the series show at `at`, whoever calls (one read): the pairs of
 * caller and callee labels (service graphs, meshes, proxies) and the peers client-side metrics name.
 */
export async function readCallPairs(read: PrometheusReader, at: string, purpose: string): Promise<{ pairs: CallPair[]; run: RecordedRun }> {
  const run = await read(
    'prometheus.query',
    { query: [...CALL_PAIRS.map(([a, b]) => PAIR_EDGES(a, b).query), PEER_EDGES.query].join(' or '), time: at },
    purpose,
  );
  return { pairs: pairsIn(run), run };
}

/** The shortest chain of calls from `from` to `to` among `pairs` (both ends included), or null when none leads there. */
export function callPath(pairs: readonly CallPair[], from: string, to: string): string[] | null {
  const previous = new Map<string, string>([[from, '']]);
  const queue = [from];
  while (queue.length) {
    const at = queue.shift()!;
    if (at === to) {
      const path = [to];
      while (previous.get(path[0])) path.unshift(previous.get(path[0])!);
      return path;
    }
    for (const p of pairs)
      if (p.caller === at && !previous.has(p.callee)) {
        previous.set(p.callee, at);
        queue.push(p.callee);
      }
  }
  return null;
}

/** Seconds per unit of a latency metric's values. */
const secondsPer = (metric: string): number => {
  const unit = meaningOf({ __name__: metric }).unit;
  return unit === 'milliseconds' ? 1e-3 : unit === 'microseconds' ? 1e-6 : 1;
};

/**
 * Reads every edge of the graph one latency metric family shows, from `LOOKBACK` before the
 * onset to a few minutes after it: the mean duration of a call per minute on each side, by caller
 * and callee (one read). Null when the metrics found show no edge with both sides.
 */
export async function readCallGraph(read: PrometheusReader, latencies: CallLatency[], onset: Timestamp, until: Timestamp): Promise<CallGraph | null> {
  const chosen = latencies.find((l) => !l.side) ?? latencies.find((l) => l.side === 'client');
  if (!chosen) return null;
  const pair = `${chosen.caller}, ${chosen.callee}`;
  const mean = (metric: string, by: string): string => `sum by (${by}) (rate(${metric}_sum[2m])) / sum by (${by}) (rate(${metric}_count[2m]))`;
  const query = chosen.side
    ? [
        `label_replace(${mean(chosen.metric, pair)}, "side", "client", "", "")`,
        `label_replace(${mean(chosen.metric.replace('client', 'server'), pair)}, "side", "server", "", "")`,
      ].join(' or ')
    : mean(chosen.metric, `${pair}, reporter`);
  const start = shift(onset, -LOOKBACK);
  const after = shift(onset, AFTER_ONSET);
  const end = after.isAfter(until) ? until : after;
  const run = await read(
    'prometheus.query_range',
    { query, start: start.toISOString(), end: end.toISOString(), step: STEP_SECONDS },
    `How long calls take between each caller and callee, as the caller waits and as the callee handles them (${chosen.metric})`,
  );
  const scale = secondsPer(chosen.metric);
  const edges = new Map<string, CallEdge>();
  for (const s of seriesOf(run)) {
    const caller = s.metric[chosen.caller];
    const callee = s.metric[chosen.callee];
    const side = chosen.side ? (s.metric.side as Side | undefined) : sideOfReporter(s.metric.reporter);
    if (!caller || !callee || !side || caller === callee) continue;
    const key = `${caller}\u0000${callee}`;
    const edge = edges.get(key) ?? { caller, callee, client: new Map(), server: new Map() };
    edges.set(key, edge);
    for (const p of pointsOf(s)) edge[side].set(p.t.epochMicros, p.v * scale);
  }
  const complete = [...edges.values()].filter((e) => e.client.size > 0 && e.server.size > 0);
  if (!complete.length) return null;
  return { edges: complete, source: chosen.side ? `${chosen.metric}, ${chosen.metric.replace('client', 'server')}` : chosen.metric, runs: [run] };
}
