import { failedOutcome, OUTCOME_LABELS } from '../discovery/meaning';
import { CLIENT_COUNTERS, CLIENT_HISTOGRAMS, escape, quote, REQUEST_RATES, ROUTE_LABELS, SERVER_HISTOGRAMS } from '../explainers/labels';
import type { InvestigationSession, RecordedRun, SourceBrief } from '../reasoner';
import { anyOf, pointsOf, SeriesOut, seriesOf } from '../series-reading';
import { readCallPairs } from '../graph/call-graph';
import { prometheusReader } from '../discovery/related-series';
import type { Timestamp } from '@svc/platform';
import { quantity, Unit } from './format';
import type { PoolAspect, Signal } from './parse';

/**
 * What an answer is about: a label value that names a service, job or container; or, labelled
 * `peer`, what services call (a database, a partner's API), read from its callers' client-side
 * series, of one `caller` when the question names whose calls ("billing's calls to ledger").
 */
export interface Subject {
  label: string;
  value: string;
  caller?: string;
}

/** A series read for an answer: its labels and its points over time. */
export interface Line {
  labels: Record<string, string>;
  points: Array<{ t: Timestamp; v: number }>;
}

/** The kinds of peer a question names by kind, not by name ("the db", "the cache"), and the names such peers have. */
export const PEER_KINDS: Array<[RegExp, RegExp]> = [
  [/^(db|dbs|database|databases|postgres|postgresql|pg|mysql|mariadb|sql)$/, /db\b|db$|postgres|\bpg\b|mysql|maria|sql/],
  [/^(cache|redis|memcached?|valkey)$/, /redis|memcache|cache|valkey/],
  [/^(queue|broker|rabbit|rabbitmq|kafka|nats)$/, /rabbit|kafka|nats|queue|\bmq\b/],
];

/** A peer's name that says it is a database ("ordersdb", "accounts-postgres"). */
const DATABASE_NAME = PEER_KINDS[0][1];

/** The callees of `caller` whose names say they are of a kind (see PEER_KINDS), from the caller → callee pairs, with the run that read them. */
export async function calleesOfKind(
  session: InvestigationSession,
  source: SourceBrief,
  caller: string,
  kind: RegExp,
  until: Timestamp,
  purpose: string,
): Promise<{ callees: string[]; run: RecordedRun }> {
  const { pairs, run } = await readCallPairs(prometheusReader(session, source), until.toISOString(), purpose);
  return { callees: [...new Set(pairs.filter((p) => p.caller === caller && kind.test(p.callee)).map((p) => p.callee))], run };
}

/** Each pod's CPU (cores) or memory (working set) use and the limits of its containers (kube-state-metrics', else cAdvisor's quota), by pod. */
export function podUseAndLimit(signal: 'cpu' | 'memory', pods: string): { use: string; limit: string } {
  return signal === 'cpu'
    ? {
        use: `sum by (pod) (rate(container_cpu_usage_seconds_total{${pods}, container!=""}[5m]))`,
        limit: `(sum by (pod) (kube_pod_container_resource_limits{${pods}, resource="cpu"}) or sum by (pod) (container_spec_cpu_quota{${pods}, container!=""} > 0) / 100000)`,
      }
    : {
        use: `sum by (pod) (container_memory_working_set_bytes{${pods}, container!=""})`,
        limit: `(sum by (pod) (kube_pod_container_resource_limits{${pods}, resource="memory"}) or sum by (pod) (container_spec_memory_limit_bytes{${pods}, container!=""} > 0))`,
      };
}

/** One signal of a subject, read: its name as the answer says it, the run, the series and their unit. */
export interface SignalRead {
  signal: Signal;
  /** `p99 latency`, `error ratio`, … */
  name: string;
  /** The run whose series are `lines`. */
  run: RecordedRun;
  lines: Line[];
  unit: Unit;
  /** A run it rests on too (the outcomes that told which requests failed). */
  also?: RecordedRun;
  /** Of an error ratio: the outcomes of the requests failing at the end of the read (`code="504"`), the most first. */
  failures?: string[];
}

/** What the data cannot give for a signal, and the run that showed it. */
export interface SignalMissing {
  cannot: string;
  /** Null when nothing was read to know it. */
  run: RecordedRun | null;
}

export const SIGNAL_NAMES: Record<Signal, string> = {
  rate: 'request rate',
  errors: 'error ratio',
  latency: 'latency',
  down: 'number of scrape targets down',
  restarts: 'number of container restarts per 5 minutes',
  cpu: 'CPU use',
  memory: 'memory use',
  throttling: 'share of CPU periods throttled',
  disk: 'share used of its fullest disk',
  connections: 'connections in use (a share of the most allowed)',
  replicas: 'number of available replicas',
  certificate: 'TLS certificate expiry',
  queue: 'number of messages waiting',
  probes: 'number of failed kubelet probes per 5 minutes',
};

/** What a count of a signal counts, as the answer says it ("12 container restarts"). */
export const COUNT_NAMES: Record<'rate' | 'errors' | 'restarts' | 'probes', string> = {
  rate: 'requests',
  errors: 'failed requests',
  restarts: 'container restarts',
  probes: 'failures of the kubelet probes',
};

export const STEP_SECONDS = 60;

/**
 * The databases' own limits on connections, each with what counts the connections held, as their
 * exporters write them: postgres-exporter, mysqld-exporter, redis-exporter.
 */
const SERVER_CONNECTIONS: Array<{ max: string; held: (m: string) => string }> = [
  { max: 'pg_settings_max_connections', held: (m) => `sum(pg_stat_activity_count{${m}})` },
  { max: 'mysql_global_variables_max_connections', held: (m) => `max(mysql_global_status_threads_connected{${m}})` },
  { max: 'redis_config_maxclients', held: (m) => `max(redis_connected_clients{${m}})` },
];

/** Series added moment by moment (several pools' counts as one). */
function summed(lines: ReadonlyArray<{ points: ReadonlyArray<{ t: Timestamp; v: number }> }>): Array<{ t: Timestamp; v: number }> {
  const at = new Map<bigint, { t: Timestamp; v: number }>();
  for (const p of lines.flatMap((l) => l.points)) at.set(p.t.epochMicros, { t: p.t, v: (at.get(p.t.epochMicros)?.v ?? 0) + p.v });
  return [...at.values()].sort((a, b) => (a.t.isBefore(b.t) ? -1 : 1));
}

/**
 * What of a service's connection pools a question may ask, besides how full they are: each convention's gauges, or its counter of
 * waits that timed out, aggregated over the pods by `over` (`sum`, or `max` for the most any one pod has; a size is each pod's own).
 */
const POOL_ASPECTS: Record<Exclude<PoolAspect, 'share'>, { name: string; query: (selector: string, span: string, over: 'sum' | 'max') => string }> = {
  active: {
    name: 'number of connections in use',
    query: (m, _, over) =>
      `${over} by (pool) (hikaricp_connections_active{${m}}) or ${over} by (pool_name) (db_client_connections_usage{${m}, state="used"}) or ${over} by (db_name) (go_sql_stats_connections_in_use{${m}})`,
  },
  pending: {
    name: 'number of callers waiting for a connection',
    query: (m, _, over) => `${over} by (pool) (hikaricp_connections_pending{${m}}) or ${over} by (pool_name) (db_client_connections_pending_requests{${m}})`,
  },
  idle: {
    name: 'number of idle connections',
    query: (m, _, over) =>
      `${over} by (pool) (hikaricp_connections_idle{${m}}) or ${over} by (pool_name) (db_client_connections_usage{${m}, state="idle"}) or ${over} by (db_name) (go_sql_stats_connections_idle{${m}})`,
  },
  size: {
    name: 'size (the connections each pod may open)',
    query: (m) =>
      `max by (pool) (hikaricp_connections_max{${m}}) or max by (pool_name) (db_client_connections_max{${m}}) or max by (db_name) (go_sql_stats_connections_max_open{${m}})`,
  },
  timeouts: {
    name: 'number of waits for a connection that timed out',
    query: (m, span, over) =>
      `${over} by (pool) (increase(hikaricp_connections_timeout_total{${m}}[${span}])) or ${over} by (pool_name) (increase(db_client_connections_timeouts_total{${m}}[${span}]))`,
  },
};

/**
 * The connections in use against the most allowed: of a database (what services call), its
 * server's count against its own limit, found by the exporter series whose labels name it; of a
 * service, its connection pools' (HikariCP, OpenTelemetry's `db.client.connections`) in use against their size.
 */
async function readConnections(
  session: InvestigationSession,
  source: SourceBrief,
  subject: Subject,
  selector: string,
  read: (query: string, purpose: string) => Promise<RecordedRun>,
  from: Timestamp,
  until: Timestamp,
  /** What of a service's pool is asked, and the range a count of timeouts runs over (none: the last 5 minutes at each moment). */
  pool?: { aspect: PoolAspect; span: string | null; perPod?: boolean },
): Promise<SignalRead | SignalMissing> {
  const name = SIGNAL_NAMES.connections;
  if (subject.label === 'peer') {
    const listed = await session.runTool({
      tool: 'prometheus.series',
      integrationId: source.integrationId,
      arguments: { match: SERVER_CONNECTIONS.map((c) => c.max), start: from.toISOString(), end: until.toISOString() },
      purpose: `Which database server's limit on connections names ${subject.value}`,
    });
    const series = (listed.output as { series?: Array<Record<string, string>> } | null)?.series ?? [];
    const naming = (labels: Record<string, string>): string | undefined =>
      Object.keys(labels).find((k) => k !== '__name__' && labels[k].toLowerCase().includes(subject.value.toLowerCase()));
    const named = series.find((labels) => naming(labels));
    const label = named && naming(named);
    const kind = named && SERVER_CONNECTIONS.find((c) => c.max === named.__name__);
    if (!named || !label || !kind)
      return { cannot: `no database exporter's limit on connections names ${subject.value}, so its connections are unknown`, run: listed };
    const m = `${label}=${quote(named[label])}`;
    // How many it holds, or the most it allows, when asked; else the one against the other.
    if (pool?.aspect === 'size' || pool?.aspect === 'active') {
      const size = pool.aspect === 'size';
      const run = await read(size ? `max(${kind.max}{${m}})` : kind.held(m), `The ${size ? kind.max : 'connections held'} of ${subject.value}`);
      return {
        signal: 'connections',
        name: size ? `most connections allowed (${kind.max})` : 'number of connections open',
        run,
        lines: linesOf(run),
        unit: 'count',
        also: listed,
      };
    }
    const run = await read(`${kind.held(m)} / max(${kind.max}{${m}})`, `The connections of ${subject.value} against its ${kind.max}`);
    return { signal: 'connections', name, run, lines: linesOf(run), unit: 'ratio', also: listed };
  }
  if (pool && pool.aspect !== 'share') {
    // A count of the pools (HikariCP's, OpenTelemetry's, Go's database/sql) summed over the pods, by pool (the size is each pod's own);
    // asked of each pod, the most any one pod has.
    const aspect = POOL_ASPECTS[pool.aspect];
    const perPod = !!pool.perPod && pool.aspect !== 'size';
    const run = await read(
      aspect.query(selector, pool.span ?? '5m', perPod ? 'max' : 'sum'),
      `The ${aspect.name} of ${subject.value}'s connection pools${perPod ? ', the most of any one pod' : ''}`,
    );
    const lines = linesOf(run);
    if (lines.length) {
      const names = [...new Set(lines.map((l) => l.labels.pool ?? l.labels.pool_name ?? l.labels.db_name).filter(Boolean))];
      const over = pool.aspect === 'timeouts' ? (pool.span ? ` over the range` : ` in 5 minutes`) : '';
      return {
        signal: 'connections',
        name: `${aspect.name}${over}${names.length ? ` of pool ${names.join(', ')}` : ''}${pool.aspect === 'size' ? '' : perPod ? ' (the most of any one pod)' : ' (all its pods)'}`,
        run,
        // Several pools: their sum at each moment.
        lines: lines.length === 1 ? lines : [{ labels: {}, points: summed(lines) }],
        unit: 'count',
      };
    }
    if (pool.aspect === 'timeouts')
      return {
        cannot: `no counter of waits for a connection that timed out (hikaricp_connections_timeout_total, db_client_connections_timeouts_total) names ${subject.value}, so its pool timeouts are unknown`,
        run,
      };
  }
  const run = await read(
    // By pool, which names it (HikariCP's `pool`, OpenTelemetry's `pool.name`): a service may hold several.
    `sum by (pool) (hikaricp_connections_active{${selector}}) / sum by (pool) (hikaricp_connections_max{${selector}}) or sum by (pool_name) (db_client_connections_usage{${selector}, state="used"}) / sum by (pool_name) (db_client_connections_max{${selector}})`,
    `The connections of ${subject.value}'s pools in use against their size`,
  );
  if (!seriesOf(run).length) {
    // A service without a pool of its own holds connections to the database it calls ("orders' idle in transaction connections"): those.
    const { callees: databases, run: calls } = await calleesOfKind(
      session,
      source,
      subject.value,
      DATABASE_NAME,
      until,
      `Which database ${subject.value} calls, whose connections it holds`,
    );
    if (databases.length === 1) {
      const held = await readConnections(session, source, { label: 'peer', value: databases[0] }, selector, read, from, until);
      if ('signal' in held) return { ...held, name: `${held.name} of ${databases[0]}, the database`, also: calls };
    }
    return { cannot: `no connection pool of ${subject.value} (HikariCP's or OpenTelemetry's) was read, so its connections are unknown`, run };
  }
  const lines = linesOf(run);
  const pools = [...new Set(lines.map((l) => l.labels.pool ?? l.labels.pool_name).filter(Boolean))];
  if (pools.length <= 1)
    return { signal: 'connections', name: pools.length ? `connections in use of pool ${pools[0]} (a share of its size)` : name, run, lines, unit: 'ratio' };
  // Several pools: the fullest at each minute, the one that makes callers wait.
  const fullest = new Map<bigint, { t: Timestamp; v: number }>();
  for (const p of lines.flatMap((l) => l.points)) if (!fullest.has(p.t.epochMicros) || fullest.get(p.t.epochMicros)!.v < p.v) fullest.set(p.t.epochMicros, p);
  return {
    signal: 'connections',
    name: `connections in use of its fullest pool (of ${pools.join(', ')}; a share of its size)`,
    run,
    lines: [{ labels: {}, points: [...fullest.values()].sort((a, b) => (a.t.isBefore(b.t) ? -1 : 1)) }],
    unit: 'ratio',
  };
}

/** Filesystems that hold no data of their own: memory, container layers, snaps, namespaces. */
export const VIRTUAL_FILESYSTEMS = 'tmpfs|overlay|squashfs|nsfs|ramfs|devtmpfs';

/** The memory a datastore's exporter says it uses: redis_exporter's, memcached's, MongoDB's, Elasticsearch's JVM heap. */
const DATASTORE_MEMORY_NAMES = ['redis_memory_used_bytes', 'memcached_current_bytes', 'mongodb_memory', 'elasticsearch_jvm_memory_used_bytes'];
const DATASTORE_MEMORY = `{__name__=~"${DATASTORE_MEMORY_NAMES.join('|')}"}`;
/** The gauges that say whether what a service calls answers: exporters' `<name>_up` (redis_up, pg_up, mysql_up) and blackbox's probe_success. */
const WATCHERS = '{__name__=~"[a-z][a-z0-9]*_up|probe_success"}';

/** The namespace the incident's alerts name (the first that names one), if any. */
export const incidentNamespace = (session: InvestigationSession): string | undefined => session.alerts.find((a) => a.labels.namespace)?.labels.namespace;

/** A read's series as lines, without the samples that are not numbers (a quantile of no requests). */
const linesOf = (run: RecordedRun): Line[] =>
  seriesOf(run).map((s) => ({
    labels: s.metric,
    points: pointsOf(s.value && !s.values ? { ...s, values: [s.value] } : s).filter((x) => Number.isFinite(x.v)),
  }));

/**
 * The matchers of a workload's pods: those named after it with a ReplicaSet's and a pod's hash
 * (`orders-6fb5cc5f8-rff78`), a DaemonSet's or Job's suffix, or a StatefulSet's ordinal; not
 * another workload's whose name it begins (`orders-worker-…` is no pod of orders).
 */
export function workloadPods(namespace: string | null | undefined, workload: string): string {
  return [namespace ? `namespace=${quote(namespace)}` : '', `pod=~${quote(`${escape(workload)}-(([a-z0-9]{5,10}-)?[a-z0-9]{5}|[0-9]+)`)}`]
    .filter(Boolean)
    .join(', ');
}

/** The matchers of a subject's pods: a pod named is that pod; a service's pods are named after it. */
export function subjectPods(namespace: string | null | undefined, subject: Subject): string {
  return subject.label === 'pod'
    ? [namespace ? `namespace=${quote(namespace)}` : '', `pod=${quote(subject.value)}`].filter(Boolean).join(', ')
    : workloadPods(namespace, subject.value);
}

/**
 * Reads the signals of `subject` from `from` to `until` (a step a minute), each a run: which
 * metrics name the subject (one read for all signals), then each signal from the metric its
 * instrumentation exposes: requests and their outcomes from the request counters, latency at a
 * percentile from the server histograms, targets down from `up`, restarts from
 * kube-state-metrics, CPU and memory from the process or its containers. Split by route when
 * `byRoute`. A signal no metric of the subject gives is returned as what cannot be answered.
 */
export async function readSignals(
  session: InvestigationSession,
  source: SourceBrief,
  subject: Subject,
  signals: Signal[],
  range: {
    from: Timestamp;
    until: Timestamp;
    byRoute: boolean;
    percentile: number | null;
    againstLimit?: boolean;
    count?: boolean;
    /** Of restarts: the pods' restart counters now (how many so far), not their increase over the range. */
    soFar?: boolean;
    failedPerSecond?: boolean;
    mean?: boolean;
    /** For a queue: its oldest message's age, its consumers, or the messages waiting. */
    queue?: 'age' | 'consumers' | 'depth';
    /** For a service's connection pool: what of it (see TypedQuestion.pool). */
    pool?: PoolAspect;
    /** Whether whether it is down is asked of what probes it (blackbox's probe_success, an exporter's `<name>_up`), not of its own scrape targets. */
    probe?: boolean;
    /** For disks: the free space asked (bytes left), of the volumes only when `volumes`, of the mounts named when `mounts`. */
    free?: { volumes: boolean; mounts: string[] };
    /** For CPU and memory: the pod that uses the most, not the sum of them ("the largest orders container"). */
    largest?: boolean;
    /** Whether requests, errors and latency are split by pod ("is it both pods or just one?"). */
    byPod?: boolean;
    /** Of a node's CPU: in cores, not the share of its cores busy. */
    inCores?: boolean;
    /** Of latency, with `count`: the requests slower than a duration (its share of all requests, or how many), from the histogram's buckets. */
    slowerThan?: { seconds: number; share: boolean } | null;
    /** With `count` or `slowerThan`: the routes the requests are counted of (none: all of them). */
    routes?: string[];
  },
): Promise<Array<SignalRead | SignalMissing>> {
  const { from, until } = range;
  const selector = `${subject.label}=${quote(subject.value)}${subject.caller ? `, job=${quote(subject.caller)}` : ''}`;
  // What services call is read from the calls to it: their client-side counters and histograms.
  const calls = subject.label === 'peer';
  const readFrom = (start: Timestamp, query: string, purpose: string): Promise<RecordedRun> =>
    session.runTool({
      tool: 'prometheus.query_range',
      integrationId: source.integrationId,
      arguments: { query, start: start.toISOString(), end: until.toISOString(), step: STEP_SECONDS },
      purpose,
    });
  // A count is one instant read at the range's end, of the increase over the whole range.
  const read = (query: string, purpose: string): Promise<RecordedRun> =>
    range.count
      ? session.runTool({ tool: 'prometheus.query', integrationId: source.integrationId, arguments: { query, time: until.toISOString() }, purpose })
      : readFrom(from, query, purpose);
  const span = `${Math.max(STEP_SECONDS, Math.round(Number(until.epochMicros - from.epochMicros) / 1e6))}s`;
  const counted = range.count ? signals.filter((x) => x === 'rate' || x === 'errors' || x === 'restarts' || x === 'probes') : [];
  if (subject.label === 'node') return readNodeSignals(subject.value, signals, read, range.againstLimit ?? false, range.free?.mounts, !range.inCores);
  const needsMetrics = signals.some((s) => s === 'rate' || s === 'errors' || s === 'latency');
  const listed = needsMetrics
    ? await session.runTool({
        tool: 'prometheus.label_values',
        integrationId: source.integrationId,
        arguments: { label: '__name__', match: [`{${selector}}`], start: from.toISOString(), end: until.toISOString() },
        purpose: `Which metrics ${subject.value} has`,
      })
    : null;
  const metrics = listed?.outcome === 'succeeded' ? ((listed.output as { values?: unknown[] } | null)?.values ?? []).map(String) : [];
  const counters = calls ? CLIENT_COUNTERS.split('|') : REQUEST_RATES;
  const histograms = (calls ? CLIENT_HISTOGRAMS : SERVER_HISTOGRAMS).split('|');
  const counter = counters.find((m) => metrics.includes(m));
  const histogram = histograms.find((m) => metrics.includes(m));
  const of = calls ? `calls${subject.caller ? ` of ${subject.caller}` : ''} to ${subject.value}` : subject.value;
  const byRoute = range.byRoute ? `, ${ROUTE_LABELS.join(', ')}` : range.byPod ? ', pod' : '';
  const percentile = range.percentile ?? 0.99;
  const p = `p${Math.round(percentile * 1000) / 10}`;
  const namespace = incidentNamespace(session);
  const pods = subjectPods(namespace, subject);
  // A count of the routes named (`range.routes`), by whichever label the series name their routes with: `expr` of each label's matcher, or'ed.
  const routeMatch = range.routes?.length ? `=~${quote(range.routes.map(escape).join('|'))}` : null;
  const routed = (expr: (matcher: string) => string): string =>
    routeMatch ? `(${ROUTE_LABELS.map((l) => expr(`, ${l}${routeMatch}`)).join(' or ')})` : expr('');
  // Counts split by route ("failed requests since …, per route?").
  const countBy = range.count && range.byRoute ? ` by (${ROUTE_LABELS.join(', ')})` : '';
  const out: Array<SignalRead | SignalMissing> = [];
  for (const signal of counted.length ? counted : signals) {
    if ((signal === 'rate' || signal === 'errors') && !counter) {
      out.push({ cannot: `no request counter (${counters.join(', ')}) names ${of}, so its ${SIGNAL_NAMES[signal]} is unknown`, run: listed });
      continue;
    }
    if (signal === 'latency' && !histogram) {
      out.push({ cannot: `no latency histogram (${histograms.join(', ')}) names ${of}, so its latency is unknown`, run: listed });
      continue;
    }
    if (range.count && signal === 'rate') {
      const run = await read(
        routed((m) => `sum${countBy}(increase(${counter}{${selector}${m}}[${span}]))`),
        `How many ${calls ? `${of} were made` : `requests ${of} answered`}`,
      );
      out.push({ signal, name: COUNT_NAMES.rate, run, lines: linesOf(run), unit: 'count' });
    } else if (signal === 'rate') {
      const run = await read(`sum by (${subject.label}${byRoute}) (rate(${counter}{${selector}}[5m]))`, `The request rate of ${of}`);
      out.push({ signal, name: SIGNAL_NAMES.rate, run, lines: linesOf(run), unit: 'rps' });
    } else if (signal === 'errors') {
      // Which outcomes fail, then their share read as a ratio: the number the answer states is one the run shows.
      const outcomes = await readFrom(
        from,
        `sum by (${OUTCOME_LABELS.join(', ')}) (rate(${counter}{${selector}}[5m]))`,
        `Which outcomes the requests of ${of} have, to tell the failed ones`,
      );
      const failing = failingOutcomes(seriesOf(outcomes), calls);
      if (failing === null) {
        out.push({ cannot: `no label of the requests of ${of} says which failed, so its error ratio is unknown`, run: outcomes });
        continue;
      }
      if (range.count) {
        const failed = (r: string): string | null =>
          failing.length ? `sum${countBy}(${failing.map((m) => `increase(${counter}{${selector}${r}, ${m}}[${span}])`).join(' or ')})` : null;
        const run = await read(
          routed((r) => `${failed(r) ? `${failed(r)} or ` : ''}sum${countBy}(increase(${counter}{${selector}${r}}[${span}])) * 0`),
          `How many requests of ${of} failed`,
        );
        out.push({ signal, name: COUNT_NAMES.errors, run, lines: linesOf(run), unit: 'count', also: outcomes });
        continue;
      }
      const by = range.byRoute ? ` by (${ROUTE_LABELS.join(', ')})` : range.byPod ? ' by (pod)' : '';
      const total = `sum${by} (rate(${counter}{${selector}}[5m]))`;
      const failed = failing.length ? `sum${by} (${failing.map((m) => `rate(${counter}{${selector}, ${m}}[5m])`).join(' or ')})` : null;
      if (range.failedPerSecond) {
        const run = await read(`${failed ? `${failed} or ` : ''}${total} * 0`, `How many requests of ${of} failed a second`);
        out.push({ signal, name: 'rate of failed requests', run, lines: linesOf(run), unit: 'rps', also: outcomes, failures: failingNow(outcomes, calls) });
        continue;
      }
      const run = await read(`(${failed ? `${failed} or ` : ''}${total} * 0) / ${total}`, `The share of the requests of ${of} that failed`);
      out.push({ signal, name: SIGNAL_NAMES.errors, run, lines: linesOf(run), unit: 'ratio', also: outcomes, failures: failingNow(outcomes, calls) });
    } else if (signal === 'latency' && range.slowerThan) {
      // A histogram counts the requests at most as slow as each bucket's bound: the slower ones are all of them less those.
      const { seconds, share } = range.slowerThan;
      const beyond = quantity(seconds, 'seconds');
      const bounds = await session.runTool({
        tool: 'prometheus.label_values',
        integrationId: source.integrationId,
        arguments: { label: 'le', match: [`${histogram}{${selector}}`], start: from.toISOString(), end: until.toISOString() },
        purpose: `Which latency buckets ${of} has`,
      });
      const les = ((bounds.output as { values?: unknown[] } | null)?.values ?? []).map(String);
      const le = les.find((v) => Math.abs(Number(v) - seconds) < 1e-9);
      if (!le) {
        const finite = les.filter((v) => Number.isFinite(Number(v))).sort((a, b) => Number(a) - Number(b));
        out.push({
          cannot: `no bucket of ${histogram} of ${of} ends at ${beyond} (its bounds: ${finite.join(', ') || 'none'} s), so how many requests took longer is unknown`,
          run: bounds,
        });
        continue;
      }
      const observed = (bound: string): string => routed((r) => `sum(increase(${histogram}{${selector}${r}, le=${quote(bound)}}[${span}]))`);
      const slow = `(${observed('+Inf')} - ${observed(le)})`;
      const run = await read(
        share ? `${slow} / ${observed('+Inf')}` : slow,
        share ? `The share of the requests of ${of} slower than ${beyond}` : `How many requests of ${of} were slower than ${beyond}`,
      );
      out.push({
        signal,
        name: share ? `share of requests slower than ${beyond}` : `requests slower than ${beyond}`,
        run,
        lines: linesOf(run),
        unit: share ? 'ratio' : 'count',
        also: bounds,
      });
    } else if (signal === 'latency' && range.mean) {
      // The mean: the histogram's sum of durations over its count of observations.
      const base = histogram!.replace(/_bucket$/, '');
      const run = await read(`sum(rate(${base}_sum{${selector}}[5m])) / sum(rate(${base}_count{${selector}}[5m]))`, `The mean latency of ${of}`);
      out.push({ signal, name: 'mean latency', run, lines: linesOf(run), unit: 'seconds' });
    } else if (signal === 'latency') {
      const run = await read(`histogram_quantile(${percentile}, sum by (le${byRoute}) (rate(${histogram}{${selector}}[5m])))`, `The ${p} latency of ${of}`);
      out.push({ signal, name: `${p} latency`, run, lines: linesOf(run), unit: 'seconds' });
    } else if (signal === 'down' && (calls || range.probe)) {
      // What services call is down when what watches it says so: an exporter's `<name>_up` or blackbox's probe_success whose labels name it.
      const { run: watched, watcher } = await seriesNaming(
        session,
        source,
        WATCHERS,
        subject.value,
        from,
        until,
        `Which exporter or probe watches ${subject.value}`,
        false,
      );
      if (!watcher) {
        out.push({
          cannot: `no exporter or probe (a \`<name>_up\` gauge or probe_success) names ${subject.value}, so whether it is down is unknown`,
          run: watched,
        });
        continue;
      }
      const run = await read(`sum(1 - ${watcher.matcher})`, `Whether ${subject.value} was down, by ${watcher.metric}`);
      out.push({ signal, name: `number of ${watcher.metric} targets down`, run, lines: linesOf(run), unit: 'count', also: watched });
    } else if (signal === 'down') {
      const run = await read(`sum(1 - up{${selector}})`, `How many scrape targets of ${subject.value} were down`);
      out.push({ signal, name: SIGNAL_NAMES.down, run, lines: linesOf(run), unit: 'count' });
    } else if (signal === 'restarts') {
      if (!pods) {
        out.push({ cannot: `the pods of ${subject.value} cannot be told from its name, so its restarts are unknown`, run: listed });
        continue;
      }
      if (range.soFar) {
        const run = await read(
          `sum(kube_pod_container_status_restarts_total{${pods}})`,
          `How many times the containers of ${subject.value}'s pods restarted so far`,
        );
        out.push({ signal, name: "container restarts so far (its pods' restart counters)", run, lines: linesOf(run), unit: 'count' });
        continue;
      }
      const run = await read(
        `sum(increase(kube_pod_container_status_restarts_total{${pods}}[${range.count ? span : '5m'}]))`,
        `How often the containers of ${subject.value} restarted`,
      );
      out.push({ signal, name: range.count ? COUNT_NAMES.restarts : SIGNAL_NAMES.restarts, run, lines: linesOf(run), unit: 'count' });
    } else if (signal === 'probes') {
      const window = range.count ? span : '5m';
      if (!pods) {
        out.push({ cannot: `the pods of ${subject.value} cannot be told from its name, so how often its probes failed is unknown`, run: listed });
        continue;
      }
      // The kubelet's prober counts each probe by its result; a result's series begins at its first probe, so none failed before it.
      const run = await read(
        `sum(increase(prober_probe_total{${pods}, result="failed"}[${window}])) or sum(increase(prober_probe_total{${pods}}[${window}])) * 0`,
        `How often the kubelet's probes of ${subject.value}'s containers failed`,
      );
      out.push({ signal, name: range.count ? COUNT_NAMES.probes : SIGNAL_NAMES.probes, run, lines: linesOf(run), unit: 'count' });
    } else if (signal === 'throttling') {
      if (!pods) {
        out.push({ cannot: `the pods of ${subject.value} cannot be told from its name, so how much its CPU is throttled is unknown`, run: listed });
        continue;
      }
      // cAdvisor's CFS counters: the periods the containers were throttled in, of the periods they ran.
      const run = await read(
        `sum(rate(container_cpu_cfs_throttled_periods_total{${pods}, container!=""}[5m])) / sum(rate(container_cpu_cfs_periods_total{${pods}, container!=""}[5m]))`,
        `How much of the CPU periods of ${subject.value}'s containers were throttled`,
      );
      out.push({ signal, name: SIGNAL_NAMES.throttling, run, lines: linesOf(run), unit: 'ratio' });
    } else if (signal === 'queue') {
      // The queue named after the subject (RabbitMQ's exporter, as its Prometheus plugin writes it): its oldest message's age, its consumers, or the messages waiting.
      const q = `queue=${quote(subject.value)}`;
      const [query, name, unit]: [string, string, Unit] =
        range.queue === 'age'
          ? [`max(time() - rabbitmq_queue_head_message_timestamp{${q}})`, 'age of the oldest message waiting', 'seconds']
          : range.queue === 'consumers'
            ? [`sum(rabbitmq_queue_consumers{${q}})`, 'number of consumers', 'count']
            : [`sum(rabbitmq_queue_messages_ready{${q}})`, SIGNAL_NAMES.queue, 'count'];
      const run = await read(query, `The ${name} of queue ${subject.value}`);
      if (!seriesOf(run).length) {
        out.push({ cannot: `no queue named ${subject.value} is in the metrics (RabbitMQ's rabbitmq_queue_*), so its ${name} is unknown`, run });
        continue;
      }
      // Its consumers: with the Deployment named after the queue ("orders-worker" of queue orders) and the replicas it wants, what normally consumes it.
      const workers =
        range.queue === 'consumers'
          ? await read(
              `max by (deployment) (kube_deployment_spec_replicas{${namespace ? `namespace=${quote(namespace)}, ` : ''}deployment=~${quote(`${escape(subject.value)}-.+|.+-${escape(subject.value)}`)}})`,
              `Which Deployment is named after queue ${subject.value}, and how many replicas it wants`,
            )
          : null;
      const named = (workers ? linesOf(workers) : [])
        .filter((l) => l.labels.deployment && l.points.length)
        .slice(0, 3)
        .map((l) => `${l.labels.deployment} wants ${l.points.at(-1)!.v} replicas now`);
      out.push({
        signal,
        name: named.length
          ? `${name} (of the Deployment${named.length > 1 ? 's' : ''} named after the queue, ${named.join('; ')}) in the queue`
          : `${name} in the queue`,
        run,
        lines: linesOf(run),
        unit,
        ...(workers && named.length ? { also: workers } : {}),
      });
    } else if (signal === 'replicas') {
      // kube-state-metrics' available replicas of its Deployment (or ready ones of its StatefulSet), named after it.
      const named = `${namespace ? `namespace=${quote(namespace)}, ` : ''}`;
      const run = await read(
        `sum(kube_deployment_status_replicas_available{${named}deployment=${quote(subject.value)}}) or sum(kube_statefulset_status_replicas_ready{${named}statefulset=${quote(subject.value)}})`,
        `How many replicas of ${subject.value} were available`,
      );
      if (!seriesOf(run).length) {
        out.push({ cannot: `no Deployment or StatefulSet named ${subject.value} is in kube-state-metrics, so its replicas are unknown`, run });
        continue;
      }
      out.push({ signal, name: SIGNAL_NAMES.replicas, run, lines: linesOf(run), unit: 'count' });
    } else if (signal === 'connections') {
      out.push(
        await readConnections(
          session,
          source,
          subject,
          selector,
          read,
          from,
          until,
          range.pool ? { aspect: range.pool, span: range.count ? span : null, perPod: range.byPod } : undefined,
        ),
      );
    } else if (signal === 'disk' && range.free) {
      // The free space of the disk with the least left: the mounts named, else the filesystems of the nodes its pods run on and the volumes its pods claim (a node's own are read by readNodeSignals).
      const mounts = range.free.mounts.length ? `, mountpoint=~${quote(range.free.mounts.map(escape).join('|'))}` : '';
      const nodeFs = `node_filesystem_avail_bytes{fstype!~"${VIRTUAL_FILESYSTEMS}"${mounts}}`;
      const volumes = pods
        ? `kubelet_volume_stats_available_bytes * on (namespace, persistentvolumeclaim) group_left () max by (namespace, persistentvolumeclaim) (kube_pod_spec_volumes_persistentvolumeclaims_info{${pods}})`
        : '';
      const query =
        subject.label === 'persistentvolumeclaim'
          ? `min(kubelet_volume_stats_available_bytes{persistentvolumeclaim=${quote(subject.value)}})`
          : !pods
            ? `min(${nodeFs})`
            : range.free.volumes && !mounts
              ? `min(${volumes})`
              : `min(${nodeFs} * on (node) group_left () max by (node) (kube_pod_info{${pods}})${mounts ? '' : ` or ${volumes}`})`;
      const run = await read(query, `How much space is left on the disk of ${subject.value} with the least`);
      out.push({
        signal,
        name: range.free.mounts.length
          ? `free space on ${range.free.mounts.join(', ')}`
          : subject.label === 'persistentvolumeclaim'
            ? 'free space'
            : 'free space of the disk with the least left',
        run,
        lines: linesOf(run),
        unit: 'bytes',
      });
    } else if (signal === 'disk') {
      // The share used of its fullest filesystem (the node's, or those of the nodes its pods run on) or volume its pods claim.
      const fs = `(1 - node_filesystem_avail_bytes{fstype!~"${VIRTUAL_FILESYSTEMS}"${subject.label === 'node' ? `, node=${quote(subject.value)}` : ''}} / node_filesystem_size_bytes)`;
      const query =
        subject.label === 'node' || !pods
          ? `max(${fs})`
          : `max(${fs} * on (node) group_left () max by (node) (kube_pod_info{${pods}}) or (1 - kubelet_volume_stats_available_bytes / kubelet_volume_stats_capacity_bytes) * on (namespace, persistentvolumeclaim) group_left () max by (namespace, persistentvolumeclaim) (kube_pod_spec_volumes_persistentvolumeclaims_info{${pods}}))`;
      const run = await read(query, `How full the fullest disk of ${subject.value} is`);
      out.push({ signal, name: 'share used of its fullest disk', run, lines: linesOf(run), unit: 'ratio' });
    } else if (range.againstLimit && pods) {
      // The pod closest to its limit: each pod's use over the limits of its containers (kube-state-metrics, else cAdvisor's quota).
      const { use, limit: limits } = podUseAndLimit(signal === 'cpu' ? 'cpu' : 'memory', pods);
      const name = `${SIGNAL_NAMES[signal]} against its limit (the pod closest to it)`;
      const run = await read(`max(${use} / ${limits})`, `The ${SIGNAL_NAMES[signal]} of ${subject.value}'s pods against their limits`);
      if (!seriesOf(run).length) {
        out.push({
          cannot: `no ${signal === 'cpu' ? 'CPU' : 'memory'} limit of ${subject.value}'s containers was read with their use, so its ${SIGNAL_NAMES[signal]} against its limit is unknown`,
          run,
        });
        continue;
      }
      out.push({ signal, name, run, lines: linesOf(run), unit: 'ratio' });
    } else if (range.largest && pods) {
      // Its largest pod ("the biggest orders container"): each pod's containers' use, the most of them.
      const query =
        signal === 'cpu'
          ? `max(sum by (pod) (rate(container_cpu_usage_seconds_total{${pods}, container!=""}[5m])))`
          : `max(sum by (pod) (container_memory_working_set_bytes{${pods}, container!=""}))`;
      const run = await read(query, `The ${SIGNAL_NAMES[signal]} of ${subject.value}'s largest pod`);
      out.push({ signal, name: `${SIGNAL_NAMES[signal]} of its largest pod`, run, lines: linesOf(run), unit: signal === 'cpu' ? 'cores' : 'bytes' });
    } else if (signal === 'memory' && calls) {
      // What services call (a Redis, a database) uses memory as its exporter says: the series whose labels name it.
      const { run: watched, watcher } = await seriesNaming(
        session,
        source,
        DATASTORE_MEMORY,
        subject.value,
        from,
        until,
        `Which exporter says how much memory ${subject.value} uses`,
        true,
      );
      if (!watcher) {
        out.push({
          cannot: `no exporter's memory series (${DATASTORE_MEMORY_NAMES.join(', ')}) names ${subject.value}, so its memory use is unknown`,
          run: watched,
        });
        continue;
      }
      const run = await read(`sum(${watcher.matcher})`, `The memory ${subject.value} uses, by ${watcher.metric}`);
      out.push({ signal, name: SIGNAL_NAMES.memory, run, lines: linesOf(run), unit: 'bytes', also: watched });
    } else {
      const query =
        signal === 'cpu'
          ? `sum(rate(process_cpu_seconds_total{${selector}}[5m]))${pods ? ` or sum(rate(container_cpu_usage_seconds_total{${pods}, container!=""}[5m]))` : ''}`
          : `sum(process_resident_memory_bytes{${selector}})${pods ? ` or sum(container_memory_working_set_bytes{${pods}, container!=""})` : ''}`;
      const run = await read(query, `The ${SIGNAL_NAMES[signal]} of ${subject.value}`);
      out.push({ signal, name: SIGNAL_NAMES[signal], run, lines: linesOf(run), unit: signal === 'cpu' ? 'cores' : 'bytes' });
    }
  }
  return out;
}

/**
 * The first series of `match` (an exporter's or a probe's) with a label whose value names `name`:
 * is it (`exact`), or holds it ("https://api.partner-bank.example/health" names partner-bank);
 * with its metric and the matcher that reads it alone. None when no label names it.
 */
async function seriesNaming(
  session: InvestigationSession,
  source: SourceBrief,
  match: string,
  name: string,
  from: Timestamp,
  until: Timestamp,
  purpose: string,
  exact: boolean,
): Promise<{ run: RecordedRun; watcher?: { metric: string; matcher: string } }> {
  const run = await session.runTool({
    tool: 'prometheus.series',
    integrationId: source.integrationId,
    arguments: { match: [match], start: from.toISOString(), end: until.toISOString() },
    purpose,
  });
  const wanted = name.toLowerCase();
  const names = (v: string): boolean => (exact ? v.toLowerCase() === wanted : v.toLowerCase().includes(wanted));
  for (const labels of (run.output as { series?: Array<Record<string, string>> } | null)?.series ?? []) {
    const label = Object.keys(labels).find((k) => k !== '__name__' && names(labels[k]));
    if (label) return { run, watcher: { metric: labels.__name__, matcher: `${labels.__name__}{${label}=${quote(labels[label])}}` } };
  }
  return { run };
}

/** The outcomes of the requests that fail at the end of `outcomes` (`code="504"`), the most first: how they fail. */
function failingNow(outcomes: RecordedRun, calls: boolean): string[] {
  return linesOf(outcomes)
    .filter((l) => failedOutcome(l.labels) === true || (calls && transportFailure(l.labels)))
    .map((l) => ({ l, v: l.points.at(-1)?.v ?? 0 }))
    .filter(({ v }) => v > 0)
    .sort((a, b) => b.v - a.v)
    .map(({ l }) =>
      OUTCOME_LABELS.filter((k) => l.labels[k])
        .map((k) => `${k}="${l.labels[k]}"`)
        .join(', '),
    )
    .filter((o, i, all) => o && all.indexOf(o) === i)
    .slice(0, 5);
}

/** More failing outcomes than this are read with the outcome labels' patterns instead of each combination. */
const MAX_FAILING = 20;

/**
 * The label matchers of the failed requests, one per combination of outcome labels that failed
 * (see failedOutcome): every outcome label the series carry, set to the combination's value or
 * to none, so that each request series matches one combination at most. Empty when none failed;
 * null when no series carries an outcome label.
 */
function failingOutcomes(series: SeriesOut[], calls = false): string[] | null {
  const present = OUTCOME_LABELS.filter((l) => series.some((s) => s.metric[l]));
  if (!present.length) return null;
  const failed = series.filter((s) => failedOutcome(s.metric) === true || (calls && transportFailure(s.metric)));
  const matchers = [...new Set(failed.map((s) => present.map((l) => `${l}=${quote(s.metric[l] ?? '')}`).join(', ')))];
  if (matchers.length <= MAX_FAILING) return matchers;
  // Many failing outcomes: one pattern per label, of the values that failed.
  return present
    .map((l) => [l, [...new Set(failed.map((s) => s.metric[l]).filter((v): v is string => !!v))]] as const)
    .filter(([, values]) => values.length)
    .map(([l, values]) => `${l}=~${anyOf([...values])}`);
}

/**
 * Whether a call's status code names a failure of the call itself rather than an HTTP status: a
 * caller's client records `connection_refused`, `timeout` or `tls_handshake_failed` where no
 * response came.
 */
const transportFailure = (labels: Record<string, string>): boolean => {
  const code = labels.code ?? labels.status_code ?? labels.status;
  return code !== undefined && code !== '' && !/^\d+$|^[1-4]xx$|^(ok|success|succeeded|none|unset)$/i.test(code);
};

/**
 * The signals of a node: the CPU its processes use (node-exporter's busy CPU time) and the memory
 * in use (total less available), read by the node's name (its `node` label, or an `instance` that
 * names it, as kube-prometheus relabels it); `againstCapacity`, as shares of its cores and of its
 * memory (how saturated it is). Requests, latency and restarts are not a node's.
 */
async function readNodeSignals(
  node: string,
  signals: Signal[],
  read: (query: string, purpose: string) => Promise<RecordedRun>,
  againstCapacity: boolean,
  /** The mounts whose free space is asked (none named: the filesystem with the least left); undefined when how full is asked. */
  free?: string[],
  /** Whether its CPU is the share of its cores busy ("how busy is the node?"), as node dashboards show it, rather than cores. */
  cpuShare = true,
): Promise<Array<SignalRead | SignalMissing>> {
  const named = [`node=${quote(node)}`, `instance=~${quote(`${escape(node)}(:[0-9]+)?`)}`];
  const out: Array<SignalRead | SignalMissing> = [];
  for (const signal of signals) {
    if ((againstCapacity && (signal === 'cpu' || signal === 'memory')) || (cpuShare && signal === 'cpu')) {
      const [query, name] =
        signal === 'cpu'
          ? [named.map((m) => `(1 - avg(rate(node_cpu_seconds_total{mode="idle", ${m}}[5m])))`).join(' or '), 'CPU busy (a share of its cores)']
          : [
              named.map((m) => `(1 - sum(node_memory_MemAvailable_bytes{${m}}) / sum(node_memory_MemTotal_bytes{${m}}))`).join(' or '),
              'memory in use (a share of its total)',
            ];
      const run = await read(query, `How much of node ${node}'s ${signal === 'cpu' ? 'CPU' : 'memory'} is in use`);
      out.push({ signal, name, run, lines: linesOf(run), unit: 'ratio' });
    } else if (signal === 'cpu') {
      const run = await read(named.map((m) => `sum(rate(node_cpu_seconds_total{mode!="idle", ${m}}[5m]))`).join(' or '), `The CPU use of node ${node}`);
      out.push({ signal, name: SIGNAL_NAMES.cpu, run, lines: linesOf(run), unit: 'cores' });
    } else if (signal === 'memory') {
      const run = await read(
        named.map((m) => `(sum(node_memory_MemTotal_bytes{${m}}) - sum(node_memory_MemAvailable_bytes{${m}}))`).join(' or '),
        `The memory in use on node ${node}`,
      );
      out.push({ signal, name: SIGNAL_NAMES.memory, run, lines: linesOf(run), unit: 'bytes' });
    } else if (signal === 'disk' && free) {
      const mounts = free.length ? `, mountpoint=~${quote(free.map(escape).join('|'))}` : '';
      const run = await read(
        named.map((m) => `min(node_filesystem_avail_bytes{fstype!~"${VIRTUAL_FILESYSTEMS}", ${m}${mounts}})`).join(' or '),
        `How much space is left on ${free.length ? free.join(', ') : 'the filesystem with the least left'} of node ${node}`,
      );
      out.push({
        signal,
        name: free.length ? `free space on ${free.join(', ')}` : 'free space of the filesystem with the least left',
        run,
        lines: linesOf(run),
        unit: 'bytes',
      });
    } else if (signal === 'disk') {
      const run = await read(
        named.map((m) => `max(1 - node_filesystem_avail_bytes{fstype!~"${VIRTUAL_FILESYSTEMS}", ${m}} / node_filesystem_size_bytes{${m}})`).join(' or '),
        `How full the fullest filesystem of node ${node} is`,
      );
      out.push({ signal, name: SIGNAL_NAMES.disk, run, lines: linesOf(run), unit: 'ratio' });
    } else
      out.push({
        // (Without the window it is counted over: a sentence no run shows states no number.)
        cannot: `the ${SIGNAL_NAMES[signal].replace(/ per \d+ \w+$/, '')} is a service's, not a node's: name a service that runs on that node to read it`,
        run: null,
      });
  }
  return out;
}
