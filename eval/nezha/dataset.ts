import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';

/** The committed conversion of the Nezha TrainTicket days (eval/nezha/README.md). */
export const DATA_FILE = 'trainticket.json.br';

/** Seconds of recorded data kept before and after each injection. */
export const BEFORE_SECONDS = 2 * 3600;
export const AFTER_SECONDS = 30 * 60;

/** The recorded per-pod columns kept, by the name the conversion gives them, with their unit. */
export const POD_COLUMNS = {
  cpuMillicores: 'CpuUsage(m)',
  memoryMebibytes: 'MemoryUsage(Mi)',
  receiveBytesPerSecond: 'NetworkReceiveBytes',
  transmitBytesPerSecond: 'NetworkTransmitBytes',
  clientP90: 'PodClientLatencyP90(s)',
  clientP95: 'PodClientLatencyP95(s)',
  clientP99: 'PodClientLatencyP99(s)',
  serverP90: 'PodServerLatencyP90(s)',
  serverP95: 'PodServerLatencyP95(s)',
  serverP99: 'PodServerLatencyP99(s)',
  requestsPerSecond: 'PodWorkload(Ops)',
} as const;
export type PodColumn = keyof typeof POD_COLUMNS;

/** The recorded node columns (the same on every pod of a node). */
export const NODE_COLUMNS = {
  cpuPercent: 'NodeCpuUsageRate(%)',
  memoryPercent: 'NodeMemoryUsageRate(%)',
  receiveBytesPerSecond: 'NodeNetworkReceiveBytes',
} as const;
export type NodeColumn = keyof typeof NODE_COLUMNS;

/** The load generator's latency of the whole application (front_service.csv). */
export const FRONTEND_COLUMNS = {
  p50: 'LatencyP50(s)',
  p90: 'LatencyP90(s)',
  p95: 'LatencyP95(s)',
  p99: 'LatencyP99(s)',
} as const;
export type FrontendColumn = keyof typeof FRONTEND_COLUMNS;

/**
 * Upper bounds (seconds) of the service-graph latency histograms' buckets, the last +Inf: the
 * `le` of `traces_service_graph_request_{client,server}_seconds_bucket`.
 */
export const EDGE_BUCKETS = [0.01, 0.05, 0.25, 1, 5, Infinity] as const;

/** Fault kinds as the paper reports them: resource faults and code faults. */
export type FaultKind = 'cpu' | 'network' | 'code';

export interface Fault {
  /** `2023-01-29-0843-ts-contacts-service`: day, injection time and service. */
  id: string;
  day: string;
  /** The injection (Unix seconds), from the fault list's `inject_time` string read as UTC. */
  at: number;
  /** The fault list's `inject_timestamp`, as listed (often eight hours off the string; not used). */
  listedTimestamp: number;
  pod: string;
  service: string;
  /** The fault list's `inject_type`: return, exception, cpu_contention, network_delay. */
  type: string;
  kind: FaultKind;
}

/** A recorded series: sample times (Unix seconds) and values, in time order. */
export interface Recorded<C extends string> {
  t: number[];
  values: Record<C, number[]>;
}

export interface Pod extends Recorded<PodColumn> {
  pod: string;
  service: string;
  /** The node the pod ran on, inferred from identical node columns (`node-1`, ...). */
  node: string;
  /** The CPU and memory limits implied by the recorded usage and usage rate, when they are constant. */
  cpuLimitCores: number | null;
  memoryLimitBytes: number | null;
}

/** One side's latency of an edge's calls, per minute of its `t`. */
export interface EdgeLatency {
  /** Seconds, summed over the minute's calls. */
  sum: number[];
  /** `buckets[b][i]`: calls of minute i that took at most EDGE_BUCKETS[b] seconds and more than EDGE_BUCKETS[b - 1] (not cumulative). */
  buckets: number[][];
}

/**
 * Calls from one service to another, as the traces show them: a span whose parent span lies in a
 * pod of another service. The client is the parent's service, the server the span's.
 */
export interface Edge {
  client: string;
  server: string;
  /** The whole UTC minutes (their start, Unix seconds) in which some call of the edge started, in time order. */
  t: number[];
  calls: number[];
  /** The parent spans' durations: the call as its caller saw it. */
  clientSeconds: EdgeLatency;
  /** The child spans' durations: the call as its callee served it. */
  serverSeconds: EdgeLatency;
}

export interface Day {
  day: string;
  pods: Pod[];
  nodes: Array<Recorded<NodeColumn> & { node: string }>;
  frontend: Recorded<FrontendColumn>;
  /** The whole UTC minutes (their start) in which spans were recorded: a few minutes around each injection. */
  traced: number[];
  edges: Edge[];
}

export interface Dataset {
  source: { repository: string; commit: string; licence: string };
  namespace: string;
  faults: Fault[];
  days: Day[];
}

/** The stored form: times as a first value and deltas, so that the file compresses well. */
interface Stored<C extends string> {
  t: number[];
  values: Record<C, number[]>;
}

export function encodeTimes(t: number[]): number[] {
  return t.map((v, i) => (i === 0 ? v : v - t[i - 1]));
}

export function decodeTimes(d: number[]): number[] {
  const out: number[] = [];
  d.forEach((v, i) => out.push(i === 0 ? v : out[i - 1] + v));
  return out;
}

/** Times decoded; values recorded as NaN (a quantile of no requests) are stored as null and read back as NaN. */
function decoded<C extends string, R extends Stored<C>>(r: R): R {
  const values = Object.fromEntries(Object.entries<Array<number | null>>(r.values).map(([c, v]) => [c, v.map((x) => x ?? NaN)]));
  return { ...r, t: decodeTimes(r.t), values };
}

/** Reads and decompresses the committed conversion (from eval/nezha, or from dist/eval/nezha after a build). */
export function loadDataset(path = dataPath()): Dataset {
  const stored = JSON.parse(brotliDecompressSync(readFileSync(path)).toString('utf8')) as Dataset;
  return {
    ...stored,
    days: stored.days.map((d) => ({
      ...d,
      pods: d.pods.map((p) => decoded(p)),
      nodes: d.nodes.map((n) => decoded(n)),
      frontend: decoded(d.frontend),
      traced: decodeTimes(d.traced),
      edges: d.edges.map((e) => ({ ...e, t: decodeTimes(e.t) })),
    })),
  };
}

function dataPath(): string {
  const beside = join(__dirname, DATA_FILE);
  // Built into dist/eval/nezha, the data stays in the source tree.
  return existsSync(beside) ? beside : join(__dirname, '..', '..', '..', 'eval', 'nezha', DATA_FILE);
}

/** The deployment of a pod `name-<replicaset hash>-<suffix>`. */
export function serviceOf(pod: string): string {
  return pod.replace(/-[a-z0-9]{8,10}-[a-z0-9]{5}$/, '');
}

export function kindOf(type: string): FaultKind {
  if (type === 'cpu_contention') return 'cpu';
  if (type === 'network_delay') return 'network';
  if (type === 'return' || type === 'exception') return 'code';
  throw new Error(`unknown inject_type ${type}`);
}
