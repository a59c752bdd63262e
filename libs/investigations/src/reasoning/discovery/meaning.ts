import type { MetricType } from '../../tools/prometheus/prometheus-metadata.tool';

/**
 * What a series measures, read from its name and labels, so that a series of an exporter or
 * instrumentation library the reasoner has never seen still has a meaning: the conventions of
 * Prometheus (`_total`, `_bucket`, `_seconds`, `_bytes`, `_info`), OpenTelemetry, Micrometer,
 * service meshes and the common exporters all say what a series is in the same few ways. Whether
 * it is a counter is the one thing names get wrong often (a counter without `_total`, a gauge
 * named `..._total`): the type its scrape target declared, when known, says that instead.
 */
export type MeasureKind =
  /** Failed requests or calls: an error-like name, or an outcome label read by `failedOutcome`. */
  | 'errors'
  /** Requests, calls or messages handled (a rate once it is a counter). */
  | 'throughput'
  /** How long something took: a duration histogram, summary or gauge. */
  | 'latency'
  /** How much of a finite resource is used: CPU, memory, disk, connections, threads, a queue. */
  | 'saturation'
  /** Whether a target, probe or replica answers: up, probe success, ready, available. */
  | 'availability'
  /** A build, version or configuration identity (`*_info`, `*_build_info`, generations). */
  | 'identity'
  /** Restarts and process starts. */
  | 'restarts'
  | 'other';

export type Resource = 'cpu' | 'memory' | 'disk' | 'network' | 'connections' | 'threads' | 'queue' | 'requests';

export interface Meaning {
  kind: MeasureKind;
  resource?: Resource;
  /** A cumulative counter: read as a rate. */
  counter: boolean;
  /** A histogram bucket (`le`) or a summary quantile. */
  distribution: 'histogram' | 'summary' | null;
  unit?: 'seconds' | 'milliseconds' | 'microseconds' | 'bytes' | 'ratio' | 'percent' | 'cores';
  /** Which way is worse: a rise (errors, latency, saturation), a fall (availability, free space), or either (traffic). */
  worse: 'up' | 'down' | 'either';
}

/** Labels that give a request's or call's outcome, across HTTP, gRPC, meshes and client libraries. */
export const OUTCOME_LABELS = [
  'code',
  'status',
  'status_code',
  'http_status_code',
  'http_response_status_code',
  'response_code',
  'grpc_code',
  'rpc_grpc_status_code',
  'grpc_status',
  'outcome',
  'classification',
  'result',
  'error',
  'error_type',
  'exception',
];

/**
 * Whether a series' labels say its events failed: a 5xx status, a gRPC code other than OK (and
 * the client-side codes that are not failures of the peer), an error outcome or classification,
 * an error type set. Undefined when no outcome label says either way.
 */
export function failedOutcome(labels: Record<string, string>): boolean | undefined {
  for (const name of ['code', 'status', 'status_code', 'http_status_code', 'http_response_status_code', 'response_code']) {
    const v = labels[name];
    if (v === undefined || v === '') continue;
    if (/^\d{3}$/.test(v)) return v.startsWith('5');
    if (/^[1-5]xx$/i.test(v)) return v.startsWith('5');
    return /^(error|failure|failed|server_error|unavailable|timeout)$/i.test(v);
  }
  for (const name of ['grpc_code', 'rpc_grpc_status_code', 'grpc_status']) {
    const v = labels[name];
    if (v === undefined || v === '') continue;
    return !/^(ok|0|canceled|cancelled|1|invalid_argument|3|not_found|5|already_exists|6|permission_denied|7|unauthenticated|16)$/i.test(v);
  }
  const outcome = labels.outcome ?? labels.classification ?? labels.result;
  if (outcome) return /^(server_error|failure|failed|error|fail|exception|timeout|unknown)$/i.test(outcome);
  const error = labels.error ?? labels.error_type ?? labels.exception;
  if (error !== undefined) return error !== '' && !/^(none|false|0)$/i.test(error);
  return undefined;
}

const has = (name: string, pattern: RegExp): boolean => pattern.test(name);

/** Whether a series is cumulative and whether it is part of a distribution, as its name and labels say. */
function typedByName(full: string, metric: Record<string, string>): Pick<Meaning, 'counter' | 'distribution'> {
  return {
    counter: /(_total|_count|_sum|_bucket)$/.test(full),
    distribution: full.endsWith('_bucket') || metric.le !== undefined ? 'histogram' : metric.quantile !== undefined ? 'summary' : null,
  };
}

/**
 * The same, as the scrape target declared its family's type (`# TYPE`): a counter's and a
 * histogram's series are cumulative, and a summary's `_sum` and `_count`; a summary's quantiles, a
 * gauge, an info, a stateset and a gauge histogram are levels. Null for `unknown`: the name decides.
 */
function typedAsDeclared(declared: MetricType, full: string, metric: Record<string, string>): Pick<Meaning, 'counter' | 'distribution'> | null {
  switch (declared) {
    case 'counter':
      return { counter: true, distribution: null };
    case 'histogram':
      return { counter: true, distribution: full.endsWith('_bucket') || metric.le !== undefined ? 'histogram' : null };
    case 'summary':
      return metric.quantile !== undefined ? { counter: false, distribution: 'summary' } : { counter: true, distribution: null };
    case 'gauge':
    case 'gaugehistogram':
    case 'info':
    case 'stateset':
      return { counter: false, distribution: null };
    default:
      return null;
  }
}

/**
 * The meaning of a series from its metric name and labels, and from the type its scrape target
 * declared when one is known (Prometheus' metadata): a declared type says whether the series is a
 * counter, whatever its name; without one (or `unknown`), the name's suffix does.
 */
export function meaningOf(metric: Record<string, string>, declared?: MetricType): Meaning {
  const full = (metric.__name__ ?? '').toLowerCase();
  const { counter, distribution } = (declared && typedAsDeclared(declared, full, metric)) || typedByName(full, metric);
  const name = full.replace(/_(total|count|sum|bucket|created)$/, '');
  const unit: Meaning['unit'] = has(name, /(_|^)milliseconds?(_|$)|_ms$|_ms_/)
    ? 'milliseconds'
    : has(name, /(_|^)microseconds?(_|$)|_us$/)
      ? 'microseconds'
      : has(name, /(_|^)seconds?(_|$)/)
        ? 'seconds'
        : has(name, /(_|^)bytes(_|$)/)
          ? 'bytes'
          : has(name, /percent|_pct$|rate_pct/)
            ? 'percent'
            : has(name, /ratio|utili[sz]ation/)
              ? 'ratio'
              : has(name, /cores/)
                ? 'cores'
                : undefined;
  const resource = resourceOf(name);
  const base = { counter, distribution, unit, resource };

  if (declared === 'info' || has(name, /build_info$|_info$|_version$|metadata_generation$|resource_version$|observed_generation$/))
    return { ...base, kind: 'identity', worse: 'either' };
  // What a thing is configured to have (a container's limits and requests, a CFS period, a node's or a
  // volume's size) is not a measure of what it does: a change of it is a change of configuration.
  if (
    has(
      name,
      /(^|_)spec(_|$)|resource_(limits|requests)|(^|_)limits?(_|$)|(^|_)quota(_|$)|cfs_period|_capacity|memtotal|size_bytes$|_max$|max_connections|(^|_)allocatable(_|$)/,
    )
  )
    return { ...base, kind: 'identity', worse: 'either' };
  if (has(name, /restart|start_time_seconds$|oom_?kill|terminated/)) return { ...base, kind: 'restarts', worse: 'up' };
  if (name === 'up' || has(name, /(^|_)up$|probe_success$|_ready$|_available$|_healthy$|status_ready|replicas_available|success_?rate/))
    return { ...base, kind: 'availability', worse: 'down' };
  if (has(name, /error|fail|exception|reject|timeout|timed_out|(^|_)drop(s|ped)?(_|$)|refused|panic/)) return { ...base, kind: 'errors', worse: 'up' };
  // The count of a duration histogram or summary counts the events it timed.
  if (full.endsWith('_count') && has(name, /duration|latency|seconds|milliseconds|_ms$/))
    return { ...base, unit: undefined, kind: 'throughput', worse: 'either' };
  if (
    has(name, /duration|latency|response_time|handling_seconds|_rt$|(^|_)rt_|wait_(duration|time)|elapsed/) ||
    (distribution && /seconds|milliseconds|_ms/.test(name))
  )
    return { ...base, kind: 'latency', worse: 'up' };
  if (has(name, /free|avail|idle|remaining/)) return { ...base, kind: 'saturation', worse: 'down' };
  if (
    has(
      name,
      /usage|used|utili[sz]ation|in_use|active|pending|waiting|throttled|pressure|working_set|load\d*$|saturation|inflight|in_flight|queue_(length|size|depth)|backlog|lag|messages_ready|connections|threads/,
    )
  )
    return { ...base, kind: 'saturation', worse: 'up' };
  if (has(name, /request|requests|calls|handled|rpc|ops|operations|messages|workload|qps|rps|throughput|hits/))
    return { ...base, kind: 'throughput', worse: 'either' };
  if (resource && !counter) return { ...base, kind: 'saturation', worse: 'up' };
  if (resource === 'cpu' && counter) return { ...base, kind: 'saturation', worse: 'up' };
  return { ...base, kind: 'other', worse: 'either' };
}

function resourceOf(name: string): Resource | undefined {
  if (/cpu|cfs/.test(name)) return 'cpu';
  if (/memory|heap|rss|resident|working_set|_mem_|^mem_|oom/.test(name)) return 'memory';
  if (/filesystem|disk|volume|fs_|_fs$|storage|inode/.test(name)) return 'disk';
  if (/network|_net_|^net_|receive|transmit|tcp|socket|packets/.test(name)) return 'network';
  if (/connection|pool|hikari|sql_stats|_conns?_|clients/.test(name)) return 'connections';
  if (/thread|goroutine|eventloop|event_loop/.test(name)) return 'threads';
  if (/queue|backlog|lag|messages/.test(name)) return 'queue';
  if (/request|calls|rpc|handled/.test(name)) return 'requests';
  return undefined;
}
