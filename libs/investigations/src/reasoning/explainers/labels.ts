import type { Timestamp } from '@svc/platform';
import type { DetectionScope } from './explainer';
import { EXPORTER_JOBS, isExporterTarget, NAMING_LABELS, workloadOfPod } from '../discovery/entity-model';

export { EXPORTER_JOBS, NAMING_LABELS, workloadOfPod };

/** Client-side request counters of the common instrumentation libraries, labelled with the peer called. */
export const CLIENT_COUNTERS = 'http_client_requests_total|http_client_requests_seconds_count|grpc_client_handled_total';
/** Client-side latency histograms, labelled with the peer called (OpenTelemetry's database operations among them). */
export const CLIENT_HISTOGRAMS =
  'http_client_request_duration_seconds_bucket|http_client_requests_seconds_bucket|grpc_client_handling_seconds_bucket|db_client_operation_duration_seconds_bucket';
/** Labels that name the peer of a client-side series, in order of preference. */
export const PEER_LABELS = ['peer', 'peer_service', 'server_address', 'target', 'host', 'client_name', 'grpc_service'];
/**
 * Labels of a service mesh's series that name where a call went (Istio's destination, Linkerd's
 * dst_ labels and authority), in order of preference: the service name first, as Istio names an
 * external host there and its workload `unknown`.
 */
export const MESH_PEER_LABELS = ['destination_service_name', 'destination_workload', 'dst_deployment', 'dst_service', 'authority'];
/** Labels that give a client call's outcome (a mesh's response code and Linkerd's classification among them). */
export const OUTCOME_LABELS = ['code', 'status', 'status_code', 'response_code', 'outcome', 'grpc_code', 'classification'];
/**
 * The calls `job` makes, as its service mesh's proxy counts them, by peer and outcome: Istio's
 * requests by source workload (the caller's proxy reports them, and the callee's proxy reports
 * those that reached it: `reporter`), Linkerd's outbound responses by deployment.
 */
export function meshCallsOf(job: string, window = '1m'): string {
  return [
    `sum by (destination_service_name, destination_workload, response_code, reporter) (rate(istio_requests_total{source_workload=${quote(job)}}[${window}]))`,
    `sum by (dst_deployment, dst_service, authority, status_code, classification) (rate(response_total{direction="outbound", deployment=${quote(job)}}[${window}]))`,
  ].join(' or ');
}
/** How request rates are grouped: by job, and by the route and method labels of the common instrumentation libraries (OpenTelemetry's among them). */
export const ROUTE_GROUPING = 'job, route, handler, path, uri, method, http_route, http_request_method';
/** HTTP server request counters of the common instrumentation libraries. */
export const REQUEST_COUNTERS = 'http_requests_total|http_server_requests_seconds_count|http_server_request_duration_seconds_count';
/** The HTTP server counters requestRatesByRoute reads: the common ones, and the count of the duration histogram kept beside or instead of a counter. */
const ROUTE_COUNTERS = [...REQUEST_COUNTERS.split('|'), 'http_request_duration_seconds_count'];
/** Every counter requestRatesByRoute reads: HTTP servers' requests and gRPC servers' calls started. */
export const REQUEST_RATES = [...ROUTE_COUNTERS, 'grpc_server_started_total'];
/**
 * The request rate of a job by route, from the first of the common HTTP server counters that has
 * each route: Prometheus' own, Micrometer's, OpenTelemetry's, and the count of the duration
 * histogram that Node and Python middlewares keep beside (or instead of) a counter. A route counted
 * by two of them is read once. A gRPC server's calls started, by service and method, and
 * OpenTelemetry's request durations by service_name and http_route come last.
 */
export function requestRatesByRoute(job: string, window = '1m'): string {
  return [
    ...ROUTE_COUNTERS.map((counter) => `sum by (${ROUTE_GROUPING}) (rate(${counter}{job=${quote(job)}}[${window}]))`),
    `sum by (job, grpc_service, grpc_method) (rate(grpc_server_started_total{job=${quote(job)}}[${window}]))`,
    // OpenTelemetry names the service by service_name (its job is "<namespace>/<name>"); where its
    // job is the service's name too, the first lines read it already.
    `sum by (service_name, http_route, http_request_method) (rate(http_server_request_duration_seconds_count{service_name=${quote(job)}, job!=${quote(job)}}[${window}]))`,
  ].join(' or ');
}

/** Labels that give a request's HTTP route, the first set one winning: its route (OpenTelemetry's http_route), handler, path or URI. */
export const ROUTE_LABELS = ['route', 'http_route', 'handler', 'path', 'uri'];

/** The route a request-rate series counts: its HTTP route (see ROUTE_LABELS), or its gRPC service and method. */
export function routeOf(metric: Record<string, string>): string | undefined {
  const http = ROUTE_LABELS.map((l) => metric[l]).find((v) => v !== undefined);
  if (http) return http;
  if (metric.grpc_method) return metric.grpc_service ? `${metric.grpc_service}/${metric.grpc_method}` : metric.grpc_method;
  return undefined;
}
/** HTTP server latency histograms of the common instrumentation libraries. */
export const SERVER_HISTOGRAMS = 'http_request_duration_seconds_bucket|http_server_requests_seconds_bucket|http_server_request_duration_seconds_bucket';

/**
 * A query whose every series carries `label="mark"`, so that it can be read in one query with
 * others (one run instead of two) and its series told apart from theirs.
 */
export class MarkedQuery {
  readonly query: string;

  constructor(
    readonly label: string,
    readonly mark: string,
    inner: string,
  ) {
    this.query = `label_replace(${inner}, "${label}", "${mark}", "", "")`;
  }

  /** Whether a series read with the others came from this query. */
  holds(metric: Record<string, string>): boolean {
    return metric[this.label] === this.mark;
  }
}

/** A label value as a PromQL string. */
export const quote = (v: string): string => JSON.stringify(v);
/** A value as a literal part of a regular expression. */
export const escape = (v: string): string => v.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whether a label value names `name`: equal to it, or containing it between non-alphanumeric characters. */
export function mentions(value: string, name: string): boolean {
  if (!name) return false;
  const v = value.toLowerCase();
  const n = name.toLowerCase();
  return v === n || new RegExp(`(^|[^a-z0-9])${escape(n)}([^a-z0-9]|$)`).test(v);
}

/** Whether a label of a series other than its name names `name`. */
export const mentionedBy = (metric: Record<string, string>, name: string): boolean =>
  Object.entries(metric).some(([k, v]) => k !== '__name__' && mentions(v, name));

/** The peer a client-side or mesh series calls (a mesh's `host:port` authority without its port; not a mesh's `unknown`). */
export function peerOf(metric: Record<string, string>): string | undefined {
  const client = PEER_LABELS.map((l) => metric[l]).find((v) => !!v);
  if (client) return client;
  const label = MESH_PEER_LABELS.find((l) => !!metric[l] && metric[l] !== 'unknown');
  if (!label) return undefined;
  return label === 'authority' ? metric[label].replace(/:\d+$/, '') : metric[label];
}

/** Whether a client-side series counts failed calls (a non-2xx/3xx code, a gRPC code other than OK, an error outcome). */
export function failedCall(metric: Record<string, string>): boolean {
  for (const label of ['code', 'status', 'status_code', 'response_code']) {
    const v = metric[label];
    if (v !== undefined && v !== '') return !/^[23]\d\d$/.test(v) && !/^(ok|success)$/i.test(v);
  }
  if (metric.grpc_code) return metric.grpc_code !== 'OK';
  if (metric.outcome) return !/^(success|redirection|informational)$/i.test(metric.outcome);
  if (metric.classification) return metric.classification === 'failure';
  return false;
}

/** The outcome of a failed call as its series names it. */
export const outcomeOf = (metric: Record<string, string>): string => OUTCOME_LABELS.map((l) => metric[l]).find((v) => !!v) ?? 'failed';

/** The one value a label has across the alerts, when they agree on one. */
const singleValue = (alerts: Array<Record<string, string>>, name: string): string | undefined => {
  const values = [...new Set(alerts.map((a) => a[name]).filter((v): v is string => !!v))];
  return values.length === 1 ? values[0] : undefined;
};

/** The one service or workload the alerts name by any naming label (a mesh's, OpenTelemetry's, Spring's). */
const namedWorkload = (alerts: Array<Record<string, string>>): string | undefined =>
  NAMING_LABELS.map((l) => singleValue(alerts, l)).find((v) => !!v && !isExporterTarget(v));

/**
 * Label matchers for Kubernetes' own series (kube-state-metrics, cAdvisor), whose `job` is the
 * exporter's: the alerts' namespace, and their pod, or else the pods named after the workload
 * the alerts name (`<deployment>-<hash>-<hash>`, `<statefulset>-<n>`; by a naming label of any
 * convention when no Kubernetes label names it). Empty when the alerts name no pod or workload.
 */
export function podMatchersOf(alerts: Array<Record<string, string>>): string {
  const namespace = singleValue(alerts, 'namespace');
  const pod = singleValue(alerts, 'pod');
  // Several pods of one workload (an alert per pod): the workload's pods.
  const podsWorkload = singleValue(
    alerts.map((a): Record<string, string> => (a.pod ? { workload: workloadOfPod(a.pod) } : {})),
    'workload',
  );
  const job = singleValue(alerts, 'job');
  const workload =
    singleValue(alerts, 'deployment') ??
    singleValue(alerts, 'statefulset') ??
    (alerts.every((a) => a.pod) ? podsWorkload : undefined) ??
    (isExporterTarget(singleValue(alerts, 'service')) ? undefined : singleValue(alerts, 'service')) ??
    (job && !EXPORTER_JOBS.test(job) ? job : undefined);
  const named = workload ?? namedWorkload(alerts);
  const podMatcher = pod ? `pod=${JSON.stringify(pod)}` : named ? `pod=~${JSON.stringify(`${escape(named)}-.+`)}` : '';
  if (!podMatcher) return '';
  return [namespace ? `namespace=${JSON.stringify(namespace)}` : '', podMatcher].filter(Boolean).join(', ');
}

/**
 * Whether an alert's expression is about latency: it reads a duration histogram's buckets, a
 * summary's quantiles or a latency or duration metric, other than through its `_count` (the
 * request count of a duration histogram, as an error ratio of Node or OpenTelemetry's metrics reads it).
 */
export function aboutLatency(expression: string): boolean {
  return /_bucket|quantile|latency|duration/i.test(expression.replace(/[a-zA-Z_:][a-zA-Z0-9_:]*_count\b/g, ''));
}

/**
 * What the explainers are told of an alert (the labels of its series, one set per alert of the
 * same rule): its labels, its job and workload, its pods, and whether its condition is about latency.
 */
export function detectionScopeOf(alerts: Array<Record<string, string>>, onset: Timestamp, latency: boolean, expression?: string): DetectionScope {
  const labels = alerts[0] ?? {};
  const job = singleValue(alerts, 'job') ? labels.job : undefined;
  // Alerts with no job at all (a rule over a mesh's or OpenTelemetry's series): the service they name,
  // which is usually its scrape job's name too.
  const own = job && !EXPORTER_JOBS.test(job) ? job : alerts.every((a) => !a.job) ? namedWorkload(alerts) : undefined;
  return {
    onset,
    labels,
    job: own,
    scrapeJob: singleValue(alerts, 'job'),
    namespace: singleValue(alerts, 'namespace'),
    pods: podMatchersOf(alerts),
    workload:
      labels.deployment ??
      labels.statefulset ??
      (labels.pod ? workloadOfPod(labels.pod) : undefined) ??
      (isExporterTarget(labels.service) ? undefined : labels.service) ??
      own ??
      namedWorkload(alerts),
    latency,
    ...(expression ? { expression } : {}),
  };
}

/**
 * Each pod's node, one series per pod valued 1, for joins (`* on (pod) group_left (node)`):
 * kube-state-metrics' pod info, or, for pods it does not list, the `node` label of the kubelet's
 * cAdvisor series (kube-prometheus relabels it on). `matchers` narrow both (a namespace).
 */
export function podNodeInfo(matchers = ''): string {
  const extra = matchers ? `, ${matchers}` : '';
  return `(max by (namespace, pod, node, host_ip) (kube_pod_info{${matchers}}) or (max by (namespace, pod, node) (container_cpu_usage_seconds_total{node!=""${extra}}) * 0 + 1 unless on (namespace, pod) kube_pod_info{${matchers}}))`;
}

/** The HTTP method of a request-rate series (OpenTelemetry's http_request_method), if it has one. */
export const methodOf = (metric: Record<string, string>): string | undefined => metric.method ?? metric.http_request_method;
