import { alive, Cluster, phi, Pod, Route, running, startedAt, Workload, WorkloadStyle } from './cluster';
import { Labels, Telemetry } from './telemetry';

/**
 * How a shop names and labels its workloads' own telemetry. The generator's default (Prometheus
 * client defaults: `http_requests_total{code}`, `http_request_duration_seconds`,
 * `http_client_requests_total{peer}`) is what the own suite uses; these are the others a real
 * cluster shows. Node, kubelet, cAdvisor and kube-state-metrics series are the same in all of them.
 */
export type Convention =
  /** OpenTelemetry semantic conventions through the Collector's Prometheus exporter. */
  | 'opentelemetry'
  /** Spring Boot Actuator with Micrometer's Prometheus registry (JVM, HikariCP). */
  | 'micrometer'
  /** Istio sidecars (Envoy's istio_* metrics); the applications expose none of their own. */
  | 'istio'
  /** Linkerd proxies (request_total, response_total, response_latency_ms). */
  | 'linkerd'
  /** Go gRPC services (go-grpc-prometheus) with database/sql stats; a Node frontend. */
  | 'grpc-go'
  /** Node.js prom-client defaults with express-prom-bundle's request histogram. */
  | 'node-prom-client'
  /** Python prometheus_client defaults with prometheus-fastapi-instrumentator. */
  | 'python-instrumentator'
  /** Requests seen only at the ingress-nginx controller; the applications expose Go runtime metrics. */
  | 'ingress-nginx';

export const CONVENTIONS: Convention[] = [
  'opentelemetry',
  'micrometer',
  'istio',
  'linkerd',
  'grpc-go',
  'node-prom-client',
  'python-instrumentator',
  'ingress-nginx',
];

/** Parts of the usual telemetry a scenario's cluster does not have. */
export type Missing =
  /** kube-state-metrics' kube_pod_info is dropped (no pod-to-node or pod IP join). */
  | 'kube_pod_info'
  /** No workload exposes client-side (outgoing call) metrics; a peer is seen only from its own side. */
  | 'client-metrics';

/** Spread of request latency around its median (log-normal sigma), as the default emitter uses. */
const SIGMA = 0.55;

/** Hosts of the peers outside the cluster. */
const EXTERNAL_HOSTS: Record<string, string> = { 'partner-bank': 'api.partner-bank.example', 'fraud-check': 'api.fraud-check.example' };

export type PeerKind = 'service' | 'external' | 'postgres' | 'redis';

/** What a peer of a workload is: another workload of the cluster, a database, Redis or an outside HTTP API. */
export function peerKind(cluster: Cluster, peer: string): PeerKind {
  if (cluster.workloads.some((w) => w.name === peer)) return 'service';
  if (/redis/.test(peer)) return 'redis';
  if (/db$/.test(peer)) return 'postgres';
  return 'external';
}

/** The host a workload calls a peer at. */
export function hostOf(cluster: Cluster, peer: string): string {
  const kind = peerKind(cluster, peer);
  if (kind === 'external') return EXTERNAL_HOSTS[peer] ?? `${peer}.example`;
  return `${peer}.shop.svc.cluster.local`;
}

const pascal = (text: string): string =>
  text
    .split(/[^a-zA-Z0-9]+/)
    .filter(Boolean)
    .map((p) => p[0].toUpperCase() + p.slice(1))
    .join('');

/** The gRPC service a workload serves, e.g. `checkout.v1.CheckoutService`. */
export const grpcService = (workload: string): string => `${workload.replace(/-/g, '')}.v1.${pascal(workload)}Service`;

/** The gRPC method of an HTTP route: the verb and the path's last fixed segment (`GET /api/stock/{sku}` → `GetStock`). */
export function grpcMethod(route: Route): string {
  const fixed = route.route.split('/').filter((p) => p && p !== 'api' && !p.startsWith('{'));
  const verb = { GET: 'Get', POST: 'Create', PUT: 'Update', DELETE: 'Delete' }[route.method] ?? pascal(route.method.toLowerCase());
  return `${verb}${pascal(fixed.slice(-1)[0] ?? 'root')}`;
}

/** gRPC's status of an HTTP status code or a failed call's outcome. */
function grpcCode(code: string): string {
  const map: Record<string, string> = {
    '200': 'OK',
    '500': 'Internal',
    '502': 'Unavailable',
    '503': 'Unavailable',
    '504': 'DeadlineExceeded',
    '507': 'ResourceExhausted',
    connection_refused: 'Unavailable',
    timeout: 'DeadlineExceeded',
    tls_error: 'Unavailable',
    too_many_connections: 'ResourceExhausted',
  };
  return map[code] ?? 'Unknown';
}

/** The HTTP status a proxy answers for a failed call's outcome (Envoy and Linkerd synthesize these). */
function proxyStatus(outcome: string): string {
  if (/^\d+$/.test(outcome)) return outcome;
  return { connection_refused: '503', timeout: '504', tls_error: '503', too_many_connections: '503' }[outcome] ?? '502';
}

/** Envoy's response flags of a failed call (UF: upstream connection failure, UT: upstream timeout). */
function envoyFlags(outcome: string): string {
  return { connection_refused: 'UF,URX', timeout: 'UT', tls_error: 'UF' }[outcome] ?? '-';
}

/** The exception a JVM HTTP client throws for a failed call. */
function javaException(outcome: string): string {
  return (
    {
      connection_refused: 'ConnectException',
      timeout: 'SocketTimeoutException',
      tls_error: 'SSLHandshakeException',
      too_many_connections: 'SQLTransientConnectionException',
    }[outcome] ?? 'IOException'
  );
}

/** The route as the convention's route label spells it. */
export function routeLabel(convention: Convention, route: Route): string {
  switch (convention) {
    case 'node-prom-client':
      return route.route.replace(/\{(\w+)\}/g, ':$1');
    case 'grpc-go':
      return grpcMethod(route);
    case 'ingress-nginx':
      return route.route.replace(/\/\{\w+\}.*$/, '');
    default:
      return route.route;
  }
}

/** One route's traffic on a pod: requests per second, the share of each status code, the median latency. */
export interface RouteTraffic {
  route: Route;
  served(t: number): number;
  codes: string[];
  share(code: string, t: number): number;
  median(t: number): number;
  /** Requests per second of this route on one pod at the daily mean (for counters' initial values). */
  perSecond: number;
}

export interface PeerTraffic {
  peer: string;
  calls(t: number): number;
  outcomes: string[];
  share(outcome: string, t: number): number;
  median(t: number): number;
  perSecond: number;
}

/** A pod's HTTP traffic as the default emitter computes it, for the conventions to name. */
export interface Traffic {
  routes: RouteTraffic[];
  peers: PeerTraffic[];
  /** The pod's metrics endpoint answers. */
  scraped(t: number): boolean;
  resets: number[];
  initialSeconds: number;
}

export function traffic(c: Cluster, pod: Pod, ready: (t: number) => number): Traffic {
  const tel = c.telemetry;
  const w = pod.workload;
  const scraped = (t: number): boolean => running(pod, t) && !w.effects.down?.(t, pod) && !pod.node.effects.down?.(t);
  const served = (t: number, route: Route): number =>
    running(pod, t) && !w.effects.down?.(t, pod)
      ? ((w.spec.rps * route.share * c.wave(t, w.name) * (w.effects.load?.(t, route.route) ?? 1)) / ready(t)) *
        (1 + 0.06 * c.noise(`http:${pod.name}:${route.route}`, t))
      : 0;
  const routes = w.spec.routes.map((route): RouteTraffic => {
    const errors = (t: number): Record<string, number> => ({ '500': 0.0008, ...(w.effects.errors?.(t, pod, route.route) ?? {}) });
    const codes = new Set<string>(['200', '500']);
    for (const t of tel.times) for (const code of Object.keys(errors(t))) codes.add(code);
    return {
      route,
      served: (t) => served(t, route),
      codes: [...codes],
      share: (code, t) => {
        const e = errors(t);
        const failed = Object.values(e).reduce((a, b) => a + b, 0);
        return code === '200' ? Math.max(0, 1 - failed) : (e[code] ?? 0);
      },
      median: (t) => route.latency * (w.effects.latency?.(t, pod, route.route) ?? 1),
      perSecond: (w.spec.rps * route.share) / w.spec.replicas,
    };
  });
  const peers = (w.spec.peers ?? []).map((peer): PeerTraffic => {
    const failures = (t: number): Record<string, number> => w.effects.peerErrors?.(t, pod, peer.peer) ?? {};
    const outcomes = new Set<string>(['200']);
    for (const t of tel.times) for (const code of Object.keys(failures(t))) outcomes.add(code);
    return {
      peer: peer.peer,
      calls: (t) => w.spec.routes.reduce((sum, route) => sum + served(t, route), 0) * peer.share,
      outcomes: [...outcomes],
      share: (code, t) => {
        const f = failures(t);
        return code === '200' ? Math.max(0, 1 - Object.values(f).reduce((a, b) => a + b, 0)) : (f[code] ?? 0);
      },
      median: (t) => peer.latency * (w.effects.peerLatency?.(t, peer.peer) ?? 1),
      perSecond: (w.spec.rps * peer.share) / w.spec.replicas,
    };
  });
  return { routes, peers, scraped, resets: pod.starts.slice(1), initialSeconds: Math.max(0, c.start - startedAt(pod, c.start)) };
}

/** A part of a histogram's traffic: requests per second at a median latency (seconds). */
export interface Part {
  rate(t: number): number;
  median(t: number): number;
}

export interface CounterOptions {
  /** Seconds of traffic before the data, at `perSecond`, for the counters' values at its start. */
  initialSeconds: number;
  perSecond: number;
  alive?: (t: number) => boolean;
  resets?: number[];
}

/**
 * A latency histogram of log-normal latencies, a mixture of `parts`: cumulative buckets `le` (in
 * the metric's unit, `unit` per second), `_sum` and `_count`.
 */
export function histogram(tel: Telemetry, name: string, labels: Labels, parts: Part[], buckets: number[], options: CounterOptions & { unit?: number }): void {
  const unit = options.unit ?? 1;
  const rate = (t: number): number => parts.reduce((s, p) => s + p.rate(t), 0);
  const below = (le: number, t: number): number => {
    const total = rate(t);
    if (total <= 0) return phi((Math.log(le / unit) - Math.log(parts[0].median(t))) / SIGMA);
    return parts.reduce((s, p) => s + p.rate(t) * phi((Math.log(le / unit) - Math.log(p.median(t))) / SIGMA), 0) / total;
  };
  const initial = (fraction: number): number => options.initialSeconds * options.perSecond * fraction * 0.9;
  const common = { alive: options.alive, resets: options.resets, integer: true };
  for (const le of buckets) {
    tel.counter(`${name}_bucket`, { ...labels, le: String(le) }, (t) => rate(t) * below(le, t), { ...common, initial: initial(below(le, tel.start)) });
  }
  tel.counter(`${name}_bucket`, { ...labels, le: '+Inf' }, rate, { ...common, initial: initial(1) });
  tel.counter(`${name}_count`, labels, rate, { ...common, initial: initial(1) });
  tel.counter(`${name}_sum`, labels, (t) => parts.reduce((s, p) => s + p.rate(t) * p.median(t) * unit * Math.exp((SIGMA * SIGMA) / 2), 0), {
    alive: options.alive,
    resets: options.resets,
    initial: initial(parts[0].median(tel.start) * unit),
  });
}

/** The scrape target labels kube-prometheus gives a pod's own metrics endpoint. */
function podTarget(pod: Pod, port = 8080, job = pod.workload.name): Labels {
  return { job, namespace: pod.workload.namespace, service: pod.workload.name, pod: pod.name, instance: `${pod.ip}:${port}`, container: pod.workload.name };
}

/** Process metrics every Prometheus client library exports (CPU, resident memory, start time, fds). */
function processMetrics(c: Cluster, pod: Pod, target: Labels, scraped: (t: number) => boolean, extra: { fds?: boolean } = {}): void {
  const tel = c.telemetry;
  const w = pod.workload;
  tel.gauge('process_start_time_seconds', target, (t) => (scraped(t) ? startedAt(pod, t) : undefined));
  tel.counter('process_cpu_seconds_total', target, (t) => (running(pod, t) ? c.cpuUsed(pod, t) * (1 + 0.05 * c.noise(`process-cpu:${pod.name}`, t)) : 0), {
    initial: Math.max(0, c.start - pod.from) * w.spec.cpu,
    alive: scraped,
    resets: pod.starts.slice(1),
  });
  tel.gauge('process_resident_memory_bytes', target, (t) => (scraped(t) ? Math.round(c.memoryUsed(pod, t) * 0.92) : undefined));
  if (extra.fds !== false) tel.gauge('process_open_fds', target, (t) => (scraped(t) ? 40 + Math.round(10 * c.wave(t, w.name)) : undefined));
}

const podScraped =
  (pod: Pod) =>
  (t: number): boolean =>
    running(pod, t) && !pod.workload.effects.down?.(t, pod) && !pod.node.effects.down?.(t);

/** Go runtime metrics of client_golang's default registry, and the program's build info (prometheus/common/version). */
function goRuntime(c: Cluster, pod: Pod, target: Labels, buildInfo: boolean): void {
  const tel = c.telemetry;
  const scraped = podScraped(pod);
  tel.gauge('up', target, (t) => (alive(pod, t) ? (scraped(t) ? 1 : 0) : undefined));
  processMetrics(c, pod, target, scraped);
  tel.gauge('go_goroutines', target, (t) => (scraped(t) ? Math.round(60 + 25 * c.wave(t, pod.workload.name)) : undefined));
  tel.gauge('go_memstats_heap_inuse_bytes', target, (t) => (scraped(t) ? Math.round(c.memoryUsed(pod, t) * 0.6) : undefined));
  tel.gauge('go_info', { ...target, version: 'go1.21.5' }, (t) => (scraped(t) ? 1 : undefined));
  if (buildInfo) {
    tel.gauge(
      `${pod.workload.name.replace(/-/g, '_')}_build_info`,
      {
        ...target,
        version: pod.version,
        revision: c.random(`rev:${pod.workload.name}:${pod.version}`).token(12, '0123456789abcdef'),
        branch: 'main',
        goversion: 'go1.21.5',
      },
      (t) => (scraped(t) ? 1 : undefined),
    );
  }
}

/** Failed-call labels in OpenTelemetry's HTTP client semantic conventions. */
function otelOutcome(outcome: string): Labels {
  if (outcome === '200') return { http_response_status_code: '200' };
  if (/^\d+$/.test(outcome)) return { http_response_status_code: outcome, error_type: outcome };
  return { error_type: outcome };
}

const OTEL_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];
const DEFAULT_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const ENVOY_BUCKETS_MS = [0.5, 1, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000, 30000];
const LINKERD_BUCKETS_MS = [1, 2, 3, 4, 5, 10, 20, 30, 40, 50, 100, 200, 300, 400, 500, 1000, 2000, 3000, 4000, 5000, 10000];
const INSTRUMENTATOR_BUCKETS = [0.1, 0.5, 1];
const HIGHR_BUCKETS = [0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 1.5, 2, 2.5, 3, 3.5, 4, 4.5, 5, 7.5, 10, 30, 60];

/** Aggregated per status: the routes' requests answered with `code`, as one part each. */
const byCode = (tr: Traffic, code: string): Part[] =>
  tr.routes.filter((r) => r.codes.includes(code)).map((r) => ({ rate: (t: number) => r.served(t) * r.share(code, t), median: r.median }));

const allCodes = (tr: Traffic): string[] => [...new Set(tr.routes.flatMap((r) => r.codes))];

/** The workloads that call `w`, for a mesh's source labels of inbound requests. */
const callersOf = (c: Cluster, w: Workload): Workload[] => c.workloads.filter((x) => x.spec.peers?.some((p) => p.peer === w.name));

/** Convention-specific emitters; each writes one pod's own series. */
class Style implements WorkloadStyle {
  constructor(
    readonly convention: Convention,
    readonly missing: ReadonlySet<Missing>,
  ) {}

  get clientMetrics(): boolean {
    return !this.missing.has('client-metrics');
  }

  emit(c: Cluster, pod: Pod, ready: (t: number) => number): void {
    const tr = traffic(c, pod, ready);
    const http = !pod.workload.spec.worker;
    switch (this.convention) {
      case 'opentelemetry':
        return this.opentelemetry(c, pod, tr, http);
      case 'micrometer':
        return this.micrometer(c, pod, tr, http);
      case 'istio':
        return this.istio(c, pod, tr, http);
      case 'linkerd':
        return this.linkerd(c, pod, tr, http);
      case 'grpc-go':
        return this.grpc(c, pod, tr, http);
      case 'node-prom-client':
        return this.node(c, pod, tr, http);
      case 'python-instrumentator':
        return this.python(c, pod, tr, http);
      case 'ingress-nginx':
        return this.ingress(c, pod, ready, http);
    }
  }

  private opentelemetry(c: Cluster, pod: Pod, tr: Traffic, http: boolean): void {
    const tel = c.telemetry;
    const w = pod.workload;
    const uid = c.random(`uid:${pod.name}`).token(8, '0123456789abcdef');
    // The Collector's Prometheus exporter: job is service.namespace/service.name, instance the
    // service.instance.id; resource attributes on target_info, and promoted ones on every series.
    const resource = { job: `${w.namespace}/${w.name}`, instance: uid, service_name: w.name, k8s_namespace_name: w.namespace, k8s_pod_name: pod.name };
    const scraped = podScraped(pod);
    tel.gauge(
      'target_info',
      {
        ...resource,
        service_namespace: w.namespace,
        service_version: pod.version,
        k8s_deployment_name: w.name,
        k8s_node_name: pod.node.name,
        telemetry_sdk_language: 'java',
        telemetry_sdk_name: 'opentelemetry',
      },
      (t) => (scraped(t) ? 1 : undefined),
    );
    tel.gauge('process_memory_usage_bytes', resource, (t) => (scraped(t) ? Math.round(c.memoryUsed(pod, t) * 0.92) : undefined));
    tel.counter('process_cpu_time_seconds_total', { ...resource, cpu_mode: 'user' }, (t) => (running(pod, t) ? c.cpuUsed(pod, t) * 0.8 : 0), {
      initial: Math.max(0, c.start - pod.from) * w.spec.cpu * 0.8,
      alive: scraped,
      resets: tr.resets,
    });
    if (!http) return;
    for (const r of tr.routes) {
      for (const code of r.codes) {
        histogram(
          tel,
          'http_server_request_duration_seconds',
          {
            ...resource,
            http_request_method: r.route.method,
            http_route: r.route.route,
            http_response_status_code: code,
            ...(code.startsWith('5') ? { error_type: code } : {}),
            network_protocol_version: '1.1',
            url_scheme: 'http',
          },
          [{ rate: (t) => r.served(t) * r.share(code, t), median: r.median }],
          OTEL_BUCKETS,
          {
            initialSeconds: tr.initialSeconds,
            perSecond: r.perSecond * r.share(code, tel.start),
            alive: this.firstSeen(tel, code, tr.scraped, (t) => r.share(code, t)),
            resets: tr.resets,
          },
        );
      }
    }
    if (!this.clientMetrics) return;
    for (const p of tr.peers) {
      const kind = peerKind(c, p.peer);
      for (const outcome of p.outcomes) {
        const part = [{ rate: (t: number) => p.calls(t) * p.share(outcome, t), median: p.median }];
        const options = {
          initialSeconds: tr.initialSeconds,
          perSecond: p.perSecond * p.share(outcome, tel.start),
          alive: this.firstSeen(tel, outcome, tr.scraped, (t) => p.share(outcome, t)),
          resets: tr.resets,
        };
        if (kind === 'postgres' || kind === 'redis') {
          const db: Labels = kind === 'postgres' ? { db_system: 'postgresql', db_namespace: p.peer.replace(/db$/, '') } : { db_system: 'redis' };
          histogram(
            tel,
            'db_client_operation_duration_seconds',
            {
              ...resource,
              ...db,
              server_address: hostOf(c, p.peer),
              server_port: kind === 'postgres' ? '5432' : '6379',
              ...(outcome === '200' ? {} : { error_type: outcome }),
            },
            part,
            [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10],
            options,
          );
        } else {
          histogram(
            tel,
            'http_client_request_duration_seconds',
            {
              ...resource,
              http_request_method: 'POST',
              server_address: hostOf(c, p.peer),
              server_port: kind === 'external' ? '443' : '8080',
              ...otelOutcome(outcome),
            },
            part,
            OTEL_BUCKETS,
            options,
          );
        }
      }
    }
  }

  /** A series of an outcome other than success exists from its first occurrence. */
  private firstSeen(tel: Telemetry, code: string, scraped: (t: number) => boolean, share: (t: number) => number): (t: number) => boolean {
    if (code === '200' || code === '500') return scraped;
    const first = tel.times.find((t) => share(t) > 0 && scraped(t)) ?? Infinity;
    return (t) => scraped(t) && t >= first;
  }

  private micrometer(c: Cluster, pod: Pod, tr: Traffic, http: boolean): void {
    const tel = c.telemetry;
    const w = pod.workload;
    const target = { ...podTarget(pod, 8081), endpoint: 'http-actuator', application: w.name };
    const scraped = podScraped(pod);
    tel.gauge('up', target, (t) => (alive(pod, t) ? (scraped(t) ? 1 : 0) : undefined));
    tel.gauge('process_start_time_seconds', target, (t) => (scraped(t) ? startedAt(pod, t) : undefined));
    tel.gauge('application_ready_time_seconds', { ...target, main_application_class: `com.example.shop.${pascal(w.name)}Application` }, (t) =>
      scraped(t) ? 9.5 + c.random(`ready:${pod.name}`).between(0, 4) : undefined,
    );
    tel.gauge('process_cpu_usage', target, (t) => (scraped(t) ? Math.min(1, c.cpuUsed(pod, t) / pod.cpuLimit) : undefined));
    tel.gauge('jvm_info', { ...target, runtime: 'OpenJDK Runtime Environment', vendor: 'Eclipse Adoptium', version: '17.0.9+9' }, (t) =>
      scraped(t) ? 1 : undefined,
    );
    const heap = (t: number): number => c.memoryUsed(pod, t) * 0.7;
    for (const [area, id, share] of [
      ['heap', 'G1 Eden Space', 0.3],
      ['heap', 'G1 Old Gen', 0.65],
      ['heap', 'G1 Survivor Space', 0.05],
      ['nonheap', 'Metaspace', 0.12],
    ] as const) {
      const labels = { ...target, area, id };
      tel.gauge('jvm_memory_used_bytes', labels, (t) =>
        scraped(t) ? Math.round(heap(t) * share * (1 + 0.02 * c.noise(`jvm:${pod.name}:${id}`, t))) : undefined,
      );
      tel.gauge('jvm_memory_max_bytes', labels, (t) => (scraped(t) ? (area === 'heap' ? Math.round(pod.memoryLimit * 0.75 * share) : -1) : undefined));
    }
    tel.counter(
      'jvm_gc_pause_seconds_count',
      { ...target, action: 'end of minor GC', cause: 'G1 Evacuation Pause', gc: 'G1 Young Generation' },
      (t) => (running(pod, t) ? 0.2 : 0),
      {
        alive: scraped,
        resets: tr.resets,
        integer: true,
      },
    );
    if (!http) return;
    for (const r of tr.routes) {
      for (const code of r.codes) {
        const outcome = code.startsWith('5') ? 'SERVER_ERROR' : code.startsWith('4') ? 'CLIENT_ERROR' : 'SUCCESS';
        const labels = { ...target, error: 'none', exception: 'none', method: r.route.method, outcome, status: code, uri: r.route.route };
        const rate = (t: number): number => r.served(t) * r.share(code, t);
        const alive = this.firstSeen(tel, code, tr.scraped, (t) => r.share(code, t));
        histogram(tel, 'http_server_requests_seconds', labels, [{ rate, median: r.median }], DEFAULT_BUCKETS, {
          initialSeconds: tr.initialSeconds,
          perSecond: r.perSecond * r.share(code, tel.start),
          alive,
          resets: tr.resets,
        });
        tel.gauge('http_server_requests_seconds_max', labels, (t) => (alive(t) ? (rate(t) > 0 ? r.median(t) * 3.2 : 0) : undefined));
      }
    }
    if (!this.clientMetrics) return;
    for (const p of tr.peers) {
      const kind = peerKind(c, p.peer);
      // JDBC and Redis calls show in the pool's and the driver's metrics, not as HTTP client requests.
      if (kind === 'postgres' || kind === 'redis') continue;
      const peerRoute = c.workloads.find((x) => x.name === p.peer)?.spec.routes[0]?.route ?? '/v1/charges';
      for (const outcome of p.outcomes) {
        const answered = /^\d+$/.test(outcome);
        const labels = {
          ...target,
          client_name: hostOf(c, p.peer),
          error: answered ? 'none' : javaException(outcome),
          exception: answered ? 'none' : javaException(outcome),
          method: 'POST',
          outcome: outcome === '200' ? 'SUCCESS' : answered ? 'SERVER_ERROR' : 'UNKNOWN',
          status: answered ? outcome : 'CLIENT_ERROR',
          uri: peerRoute,
        };
        const rate = (t: number): number => p.calls(t) * p.share(outcome, t);
        const alive = this.firstSeen(tel, outcome, tr.scraped, (t) => p.share(outcome, t));
        histogram(tel, 'http_client_requests_seconds', labels, [{ rate, median: p.median }], DEFAULT_BUCKETS, {
          initialSeconds: tr.initialSeconds,
          perSecond: p.perSecond * p.share(outcome, tel.start),
          alive,
          resets: tr.resets,
        });
        tel.gauge('http_client_requests_seconds_max', labels, (t) => (alive(t) ? (rate(t) > 0 ? p.median(t) * 3.2 : 0) : undefined));
      }
    }
  }

  /** The Envoy sidecar's target; its counters restart with the pod, not with the application container. */
  private sidecar(pod: Pod, port: number, job: string, container: string): { target: Labels; scraped: (t: number) => boolean } {
    const target = { job, namespace: pod.workload.namespace, pod: pod.name, instance: `${pod.ip}:${port}`, container };
    return { target, scraped: (t) => alive(pod, t) && !pod.node.effects.down?.(t) };
  }

  private istio(c: Cluster, pod: Pod, tr: Traffic, http: boolean): void {
    const tel = c.telemetry;
    const w = pod.workload;
    const { target, scraped } = this.sidecar(pod, 15090, 'envoy-stats', 'istio-proxy');
    tel.gauge('up', target, (t) => (alive(pod, t) ? (scraped(t) ? 1 : 0) : undefined));
    tel.gauge('istio_build', { ...target, component: 'proxy', tag: '1.20.2' }, (t) => (scraped(t) ? 1 : undefined));
    const self = (prefix: 'source' | 'destination'): Labels => ({
      [`${prefix}_workload`]: w.name,
      [`${prefix}_workload_namespace`]: w.namespace,
      [`${prefix}_app`]: w.name,
      [`${prefix}_version`]: pod.version,
      [`${prefix}_canonical_service`]: w.name,
      [`${prefix}_canonical_revision`]: pod.version,
      [`${prefix}_principal`]: `spiffe://cluster.local/ns/${w.namespace}/sa/${w.name}`,
      [`${prefix}_cluster`]: 'Kubernetes',
    });
    const initial = { initialSeconds: Math.max(0, c.start - pod.from) };
    if (http) {
      const callers = callersOf(c, w);
      const sources: Labels[] = callers.length
        ? callers.map((x) => ({ source_workload: x.name, source_workload_namespace: x.namespace, source_app: x.name, source_canonical_service: x.name }))
        : [
            {
              source_workload: 'istio-ingressgateway',
              source_workload_namespace: 'istio-system',
              source_app: 'istio-ingressgateway',
              source_canonical_service: 'istio-ingressgateway',
            },
          ];
      for (const source of sources) {
        for (const code of allCodes(tr)) {
          const parts = byCode(tr, code).map((p) => ({ ...p, rate: (t: number) => p.rate(t) / sources.length }));
          const labels = {
            ...target,
            reporter: 'destination',
            ...source,
            ...self('destination'),
            destination_service: `${w.name}.${w.namespace}.svc.cluster.local`,
            destination_service_name: w.name,
            destination_service_namespace: w.namespace,
            request_protocol: 'http',
            response_code: code,
            response_flags: '-',
            connection_security_policy: 'mutual_tls',
            grpc_response_status: '',
          };
          const perSecond = tr.routes.reduce((s, r) => s + r.perSecond * r.share(code, tel.start), 0) / sources.length;
          const seen = this.firstSeen(tel, code, scraped, (t) => parts.reduce((s, p) => s + p.rate(t), 0));
          tel.counter('istio_requests_total', labels, (t) => parts.reduce((s, p) => s + p.rate(t), 0), {
            initial: initial.initialSeconds * perSecond * 0.9,
            alive: seen,
            integer: true,
          });
          histogram(tel, 'istio_request_duration_milliseconds', labels, parts, ENVOY_BUCKETS_MS, { ...initial, perSecond, alive: seen, unit: 1000 });
        }
      }
    }
    if (!this.clientMetrics) return;
    for (const p of tr.peers) {
      const kind = peerKind(c, p.peer);
      // Databases and Redis are TCP services to the mesh: no request metrics.
      if (kind === 'postgres' || kind === 'redis') continue;
      const host = hostOf(c, p.peer);
      const destination: Labels =
        kind === 'service'
          ? {
              destination_workload: p.peer,
              destination_workload_namespace: w.namespace,
              destination_app: p.peer,
              destination_canonical_service: p.peer,
              destination_service: host,
              destination_service_name: p.peer,
              destination_service_namespace: w.namespace,
            }
          : {
              destination_workload: 'unknown',
              destination_workload_namespace: 'unknown',
              destination_app: 'unknown',
              destination_canonical_service: 'unknown',
              destination_service: host,
              destination_service_name: host,
              destination_service_namespace: 'unknown',
            };
      for (const outcome of p.outcomes) {
        const labels = {
          ...target,
          reporter: 'source',
          ...self('source'),
          ...destination,
          request_protocol: 'http',
          response_code: proxyStatus(outcome),
          response_flags: envoyFlags(outcome),
          connection_security_policy: kind === 'service' ? 'unknown' : 'none',
          grpc_response_status: '',
        };
        const rate = (t: number): number => p.calls(t) * p.share(outcome, t);
        const perSecond = p.perSecond * p.share(outcome, tel.start);
        const seen = this.firstSeen(tel, outcome, scraped, (t) => p.share(outcome, t));
        tel.counter('istio_requests_total', labels, rate, { initial: initial.initialSeconds * perSecond * 0.9, alive: seen, integer: true });
        // Connection failures end at once; answered calls take the peer's latency.
        const median = /^\d+$/.test(outcome) ? p.median : () => 0.002;
        histogram(tel, 'istio_request_duration_milliseconds', labels, [{ rate, median }], ENVOY_BUCKETS_MS, { ...initial, perSecond, alive: seen, unit: 1000 });
      }
    }
  }

  private linkerd(c: Cluster, pod: Pod, tr: Traffic, http: boolean): void {
    const tel = c.telemetry;
    const w = pod.workload;
    const { target, scraped } = this.sidecar(pod, 4191, 'linkerd-proxy', 'linkerd-proxy');
    const proxy = { ...target, control_plane_ns: 'linkerd', deployment: w.name, pod_template_hash: pod.replicaSet, serviceaccount: w.name };
    tel.gauge('up', target, (t) => (alive(pod, t) ? (scraped(t) ? 1 : 0) : undefined));
    const initialSeconds = Math.max(0, c.start - pod.from);
    /** response_total and response_latency_ms of one status. */
    const responses = (labels: Labels, parts: Part[], status: string, perSecond: number, seen: (t: number) => boolean): void => {
      const rate = (t: number): number => parts.reduce((s, p) => s + p.rate(t), 0);
      tel.counter('response_total', { ...labels, status_code: status, classification: status.startsWith('5') ? 'failure' : 'success' }, rate, {
        alive: seen,
        integer: true,
        initial: initialSeconds * perSecond * 0.9,
      });
      histogram(tel, 'response_latency_ms', { ...labels, status_code: status }, parts, LINKERD_BUCKETS_MS, {
        initialSeconds,
        perSecond,
        alive: seen,
        unit: 1000,
      });
    };
    /** request_total has no status: one series per direction and authority, of every status. */
    const requests = (labels: Labels, rate: (t: number) => number, perSecond: number): void =>
      tel.counter('request_total', labels, rate, { alive: scraped, integer: true, initial: initialSeconds * perSecond * 0.9 });
    if (http) {
      const inbound = {
        ...proxy,
        direction: 'inbound',
        authority: `${w.name}.${w.namespace}.svc.cluster.local:8080`,
        target_addr: '0.0.0.0:8080',
        tls: 'true',
      };
      for (const code of allCodes(tr)) {
        const parts = byCode(tr, code);
        const perSecond = tr.routes.reduce((s, r) => s + r.perSecond * r.share(code, tel.start), 0);
        responses(
          inbound,
          parts,
          code,
          perSecond,
          this.firstSeen(tel, code, scraped, (t) => parts.reduce((s, p) => s + p.rate(t), 0)),
        );
      }
      requests(
        inbound,
        (t) => tr.routes.reduce((s, r) => s + r.served(t), 0),
        tr.routes.reduce((s, r) => s + r.perSecond, 0),
      );
    }
    if (!this.clientMetrics) return;
    for (const p of tr.peers) {
      const kind = peerKind(c, p.peer);
      if (kind === 'postgres' || kind === 'redis') continue;
      const host = hostOf(c, p.peer);
      const dst: Labels = kind === 'service' ? { dst_deployment: p.peer, dst_namespace: w.namespace, dst_service: p.peer, dst_serviceaccount: p.peer } : {};
      const outbound = {
        ...proxy,
        direction: 'outbound',
        authority: `${host}:${kind === 'external' ? 443 : 8080}`,
        tls: kind === 'service' ? 'true' : 'no_identity',
        ...dst,
      };
      for (const outcome of p.outcomes) {
        const rate = (t: number): number => p.calls(t) * p.share(outcome, t);
        const median = /^\d+$/.test(outcome) ? p.median : () => 0.002;
        const seen = this.firstSeen(tel, outcome, scraped, (t) => p.share(outcome, t));
        responses(outbound, [{ rate, median }], proxyStatus(outcome), p.perSecond * p.share(outcome, tel.start), seen);
      }
      requests(outbound, p.calls, p.perSecond);
    }
  }

  private grpc(c: Cluster, pod: Pod, tr: Traffic, http: boolean): void {
    const tel = c.telemetry;
    const w = pod.workload;
    // The web frontend of a gRPC shop is a Node server.
    if (w.name === 'frontend') return this.node(c, pod, tr, http);
    const target = podTarget(pod, 9090);
    goRuntime(c, pod, target, true);
    if (http) {
      for (const r of tr.routes) {
        const method = { grpc_type: 'unary', grpc_service: grpcService(w.name), grpc_method: grpcMethod(r.route) };
        const common = { initial: tr.initialSeconds * r.perSecond * 0.9, alive: tr.scraped, resets: tr.resets, integer: true };
        tel.counter('grpc_server_started_total', { ...target, ...method }, r.served, common);
        const byGrpc = new Map<string, string[]>();
        for (const code of r.codes) byGrpc.set(grpcCode(code), [...(byGrpc.get(grpcCode(code)) ?? []), code]);
        for (const [grpc, codes] of byGrpc) {
          const share = (t: number): number => codes.reduce((s, code) => s + r.share(code, t), 0);
          tel.counter('grpc_server_handled_total', { ...target, ...method, grpc_code: grpc }, (t) => r.served(t) * share(t), {
            ...common,
            initial: tr.initialSeconds * r.perSecond * share(tel.start) * 0.9,
            alive: this.firstSeen(tel, grpc === 'OK' || grpc === 'Internal' ? '200' : grpc, tr.scraped, share),
          });
        }
        histogram(tel, 'grpc_server_handling_seconds', { ...target, ...method }, [{ rate: r.served, median: r.median }], DEFAULT_BUCKETS, {
          initialSeconds: tr.initialSeconds,
          perSecond: r.perSecond,
          alive: tr.scraped,
          resets: tr.resets,
        });
      }
    }
    if (!this.clientMetrics) return;
    for (const p of tr.peers) {
      const peer = c.workloads.find((x) => x.name === p.peer);
      // Only gRPC peers: go-grpc-prometheus' client interceptors see no database or outside HTTP call.
      if (!peer || peer.spec.routes.length === 0) continue;
      const method = { grpc_type: 'unary', grpc_service: grpcService(peer.name), grpc_method: grpcMethod(peer.spec.routes[0]) };
      const common = { initial: tr.initialSeconds * p.perSecond * 0.9, alive: tr.scraped, resets: tr.resets, integer: true };
      tel.counter('grpc_client_started_total', { ...target, ...method }, p.calls, common);
      const byGrpc = new Map<string, string[]>();
      for (const outcome of p.outcomes) byGrpc.set(grpcCode(outcome), [...(byGrpc.get(grpcCode(outcome)) ?? []), outcome]);
      for (const [grpc, outcomes] of byGrpc) {
        const share = (t: number): number => outcomes.reduce((s, o) => s + p.share(o, t), 0);
        tel.counter('grpc_client_handled_total', { ...target, ...method, grpc_code: grpc }, (t) => p.calls(t) * share(t), {
          ...common,
          initial: tr.initialSeconds * p.perSecond * share(tel.start) * 0.9,
          alive: this.firstSeen(tel, grpc === 'OK' ? '200' : grpc, tr.scraped, share),
        });
      }
      histogram(tel, 'grpc_client_handling_seconds', { ...target, ...method }, [{ rate: p.calls, median: p.median }], DEFAULT_BUCKETS, {
        initialSeconds: tr.initialSeconds,
        perSecond: p.perSecond,
        alive: tr.scraped,
        resets: tr.resets,
      });
    }
  }

  private node(c: Cluster, pod: Pod, tr: Traffic, http: boolean): void {
    const tel = c.telemetry;
    const target = podTarget(pod, 3000);
    const scraped = podScraped(pod);
    tel.gauge('up', target, (t) => (alive(pod, t) ? (scraped(t) ? 1 : 0) : undefined));
    processMetrics(c, pod, target, scraped);
    tel.gauge('nodejs_version_info', { ...target, version: 'v20.11.0', major: '20', minor: '11', patch: '0' }, (t) => (scraped(t) ? 1 : undefined));
    tel.gauge('nodejs_heap_size_total_bytes', target, (t) => (scraped(t) ? Math.round(c.memoryUsed(pod, t) * 0.55) : undefined));
    tel.gauge('nodejs_heap_size_used_bytes', target, (t) =>
      scraped(t) ? Math.round(c.memoryUsed(pod, t) * 0.42 * (1 + 0.03 * c.noise(`heap:${pod.name}`, t))) : undefined,
    );
    tel.gauge('nodejs_eventloop_lag_seconds', target, (t) =>
      scraped(t) ? Math.max(0.0005, 0.004 * (c.cpuUsed(pod, t) / pod.cpuLimit) * (1 + 0.2 * c.noise(`lag:${pod.name}`, t))) : undefined,
    );
    tel.gauge('nodejs_active_handles_total', target, (t) => (scraped(t) ? Math.round(20 + 5 * c.wave(t, pod.workload.name)) : undefined));
    if (!http) return;
    for (const r of tr.routes) {
      for (const code of r.codes) {
        histogram(
          tel,
          'http_request_duration_seconds',
          { ...target, method: r.route.method, path: routeLabel('node-prom-client', r.route), status_code: code },
          [{ rate: (t) => r.served(t) * r.share(code, t), median: r.median }],
          DEFAULT_BUCKETS,
          {
            initialSeconds: tr.initialSeconds,
            perSecond: r.perSecond * r.share(code, tel.start),
            alive: this.firstSeen(tel, code, tr.scraped, (t) => r.share(code, t)),
            resets: tr.resets,
          },
        );
      }
    }
  }

  private python(c: Cluster, pod: Pod, tr: Traffic, http: boolean): void {
    const tel = c.telemetry;
    const target = podTarget(pod, 8000);
    const scraped = podScraped(pod);
    tel.gauge('up', target, (t) => (alive(pod, t) ? (scraped(t) ? 1 : 0) : undefined));
    processMetrics(c, pod, target, scraped);
    tel.gauge('python_info', { ...target, implementation: 'CPython', major: '3', minor: '11', patchlevel: '7', version: '3.11.7' }, (t) =>
      scraped(t) ? 1 : undefined,
    );
    for (const generation of ['0', '1', '2']) {
      tel.counter('python_gc_objects_collected_total', { ...target, generation }, (t) => (running(pod, t) ? 900 / (Number(generation) * 8 + 1) : 0), {
        alive: scraped,
        resets: tr.resets,
        integer: true,
      });
      tel.counter('python_gc_collections_total', { ...target, generation }, (t) => (running(pod, t) ? 1.5 / (Number(generation) * 10 + 1) : 0), {
        alive: scraped,
        resets: tr.resets,
        integer: true,
      });
    }
    if (!http) return;
    for (const r of tr.routes) {
      const labels = { ...target, handler: r.route.route, method: r.route.method };
      // The instrumentator groups status codes by their first digit.
      const groups = new Map<string, string[]>();
      for (const code of r.codes) groups.set(`${code[0]}xx`, [...(groups.get(`${code[0]}xx`) ?? []), code]);
      for (const [status, codes] of groups) {
        const share = (t: number): number => codes.reduce((s, code) => s + r.share(code, t), 0);
        tel.counter('http_requests_total', { ...labels, status }, (t) => r.served(t) * share(t), {
          initial: tr.initialSeconds * r.perSecond * share(tel.start) * 0.9,
          alive: tr.scraped,
          resets: tr.resets,
          integer: true,
        });
      }
      histogram(tel, 'http_request_duration_seconds', labels, [{ rate: r.served, median: r.median }], INSTRUMENTATOR_BUCKETS, {
        initialSeconds: tr.initialSeconds,
        perSecond: r.perSecond,
        alive: tr.scraped,
        resets: tr.resets,
      });
    }
    // The high-resolution histogram has no handler or method: made for latency alerts.
    histogram(
      tel,
      'http_request_duration_highr_seconds',
      target,
      tr.routes.map((r) => ({ rate: r.served, median: r.median })),
      HIGHR_BUCKETS,
      { initialSeconds: tr.initialSeconds, perSecond: tr.routes.reduce((s, r) => s + r.perSecond, 0), alive: tr.scraped, resets: tr.resets },
    );
  }

  /**
   * The applications expose Go runtime metrics only; their requests are seen at the ingress-nginx
   * controller (two pods, each taking half), written once per workload with its first pod.
   */
  private ingress(c: Cluster, pod: Pod, ready: (t: number) => number, http: boolean): void {
    const tel = c.telemetry;
    const w = pod.workload;
    goRuntime(c, pod, podTarget(pod), false);
    if (!http || w.pods[0] !== pod) return;
    const all = w.pods.map((p) => traffic(c, p, ready));
    const controllers = [
      'ingress-nginx-controller-7d9f8c6b4-' + c.random('ingress:a').token(5),
      'ingress-nginx-controller-7d9f8c6b4-' + c.random('ingress:b').token(5),
    ];
    for (const [k, controller] of controllers.entries()) {
      const base = {
        job: 'ingress-nginx-controller-metrics',
        namespace: 'ingress-nginx',
        service: 'ingress-nginx-controller-metrics',
        pod: controller,
        instance: `10.2.${k}.7:10254`,
        container: 'controller',
        controller_class: 'k8s.io/ingress-nginx',
        controller_namespace: 'ingress-nginx',
        controller_pod: controller,
        canary: '',
        host: 'shop.example.com',
        ingress: w.name,
        exported_namespace: w.namespace,
        exported_service: w.name,
      };
      if (k === 0) {
        tel.gauge(
          'up',
          { job: base.job, namespace: base.namespace, service: base.service, pod: controller, instance: base.instance, container: 'controller' },
          () => 1,
        );
      }
      for (const route of w.spec.routes) {
        const routes = all.map((tr) => tr.routes.find((r) => r.route === route)!);
        const codes = [...new Set(routes.flatMap((r) => r.codes))];
        const labels = { ...base, method: route.method, path: routeLabel('ingress-nginx', route) };
        const perSecond = (w.spec.rps * route.share) / 2;
        for (const code of codes) {
          const parts = routes
            .filter((r) => r.codes.includes(code))
            .map((r) => ({ rate: (t: number) => (r.served(t) * r.share(code, t)) / 2, median: r.median }));
          const rate = (t: number): number => parts.reduce((s, p) => s + p.rate(t), 0);
          const first = code === '200' || code === '500' ? -Infinity : (tel.times.find((t) => rate(t) > 0) ?? Infinity);
          const seen = (t: number): boolean => t >= first;
          tel.counter('nginx_ingress_controller_requests', { ...labels, status: code }, rate, {
            initial: 86_400 * perSecond * routes[0].share(code, tel.start),
            alive: seen,
            integer: true,
          });
          histogram(tel, 'nginx_ingress_controller_request_duration_seconds', { ...labels, status: code }, parts, DEFAULT_BUCKETS, {
            initialSeconds: 86_400,
            perSecond: perSecond * routes[0].share(code, tel.start),
            alive: seen,
          });
        }
      }
    }
  }
}

/** A shop's choice of conventions: one for its workloads, optionally another for some of them. */
export interface Naming {
  convention: Convention;
  missing?: Missing[];
  /** Workloads named by another convention (a mixed shop). */
  workloads?: Record<string, Convention>;
}

/** Makes `cluster` name its workloads' telemetry by `naming` and drop what it says is missing. */
export function applyNaming(cluster: Cluster, naming: Naming): void {
  const missing = new Set(naming.missing ?? []);
  const styles = new Map<Convention, Style>();
  const style = (convention: Convention): Style => {
    let s = styles.get(convention);
    if (!s) styles.set(convention, (s = new Style(convention, missing)));
    return s;
  };
  cluster.styleOf = (w) => style(naming.workloads?.[w.name] ?? naming.convention);
  if (missing.has('kube_pod_info')) cluster.dropped.add('kube_pod_info');
}

/** Alerting rules in a convention's own metrics, as a team running that stack writes them. */
export interface RuleWriter {
  /** Ratio of `workload`'s requests that fail (5xx), optionally of one route. */
  errorRatio(workload: string, threshold: number, route?: Route): string;
  /** The 99th percentile latency of `workload`'s requests, in seconds (converted where the metric is in ms). */
  latencyP99(workload: string, thresholdSeconds: number): string;
  /** Labels the rule adds (the namespace where the expression's result has none). */
  labels: Record<string, string>;
  /** Names of the server-side request metrics (for a cause's series). */
  serverSeries: string;
  /** Names of the client-side metrics of calls to a peer, or null when the convention has none. */
  clientSeries: string | null;
  /** Series that carry a workload's version. */
  versionSeries: string;
}

const ratio = (metric: string, by: string, selector: string, failed: string, threshold: number): string =>
  `sum by (${by}) (rate(${metric}{${selector}, ${failed}}[5m])) / sum by (${by}) (rate(${metric}{${selector}}[5m])) > ${threshold}`;

const p99 = (bucket: string, by: string, selector: string, threshold: number): string =>
  `histogram_quantile(0.99, sum by (${by}, le) (rate(${bucket}{${selector}}[5m]))) > ${threshold}`;

export function rules(convention: Convention): RuleWriter {
  const versions = '_build_info|kube_pod_container_info|kube_pod_info';
  switch (convention) {
    case 'opentelemetry':
      return {
        errorRatio: (w, th, r) =>
          ratio(
            'http_server_request_duration_seconds_count',
            'k8s_namespace_name, service_name',
            `service_name="${w}"${r ? `, http_route="${r.route}"` : ''}`,
            'http_response_status_code=~"5.."',
            th,
          ),
        latencyP99: (w, th) => p99('http_server_request_duration_seconds_bucket', 'k8s_namespace_name, service_name', `service_name="${w}"`, th),
        labels: { namespace: 'shop' },
        serverSeries: 'http_server_request_duration_seconds',
        clientSeries: 'http_client_request_duration_seconds|db_client_operation_duration_seconds',
        versionSeries: `target_info|${versions}`,
      };
    case 'micrometer':
      return {
        errorRatio: (w, th, r) =>
          ratio(
            'http_server_requests_seconds_count',
            'namespace, application',
            `application="${w}"${r ? `, uri="${r.route}"` : ''}`,
            'outcome="SERVER_ERROR"',
            th,
          ),
        latencyP99: (w, th) => p99('http_server_requests_seconds_bucket', 'namespace, application', `application="${w}"`, th),
        labels: {},
        serverSeries: 'http_server_requests_seconds',
        clientSeries: 'http_client_requests_seconds',
        versionSeries: versions,
      };
    case 'istio':
      return {
        errorRatio: (w, th) =>
          ratio('istio_requests_total', 'namespace, destination_workload', `reporter="destination", destination_workload="${w}"`, 'response_code=~"5.."', th),
        latencyP99: (w, th) =>
          p99(
            'istio_request_duration_milliseconds_bucket',
            'namespace, destination_workload',
            `reporter="destination", destination_workload="${w}"`,
            th * 1000,
          ),
        labels: {},
        serverSeries: 'istio_requests_total|istio_request_duration_milliseconds',
        clientSeries: 'istio_requests_total|istio_request_duration_milliseconds',
        versionSeries: `istio_requests_total|${versions}`,
      };
    case 'linkerd':
      return {
        errorRatio: (w, th) => ratio('response_total', 'namespace, deployment', `direction="inbound", deployment="${w}"`, 'classification="failure"', th),
        latencyP99: (w, th) => p99('response_latency_ms_bucket', 'namespace, deployment', `direction="inbound", deployment="${w}"`, th * 1000),
        labels: {},
        serverSeries: 'response_total|request_total|response_latency_ms',
        clientSeries: 'response_total|request_total|response_latency_ms',
        versionSeries: versions,
      };
    case 'grpc-go':
      return {
        errorRatio: (w, th, r) =>
          ratio('grpc_server_handled_total', 'namespace, job', `job="${w}"${r ? `, grpc_method="${grpcMethod(r)}"` : ''}`, 'grpc_code!="OK"', th),
        latencyP99: (w, th) => p99('grpc_server_handling_seconds_bucket', 'namespace, job', `job="${w}", grpc_type="unary"`, th),
        labels: {},
        serverSeries: 'grpc_server_handled_total|grpc_server_handling_seconds|grpc_server_started_total',
        clientSeries: 'grpc_client_handled_total|grpc_client_handling_seconds',
        versionSeries: versions,
      };
    case 'node-prom-client':
      return {
        errorRatio: (w, th, r) =>
          ratio(
            'http_request_duration_seconds_count',
            'namespace, job',
            `job="${w}"${r ? `, path="${routeLabel('node-prom-client', r)}"` : ''}`,
            'status_code=~"5.."',
            th,
          ),
        latencyP99: (w, th) => p99('http_request_duration_seconds_bucket', 'namespace, job', `job="${w}"`, th),
        labels: {},
        serverSeries: 'http_request_duration_seconds',
        clientSeries: null,
        versionSeries: versions,
      };
    case 'python-instrumentator':
      return {
        errorRatio: (w, th, r) => ratio('http_requests_total', 'namespace, job', `job="${w}"${r ? `, handler="${r.route}"` : ''}`, 'status="5xx"', th),
        latencyP99: (w, th) => p99('http_request_duration_highr_seconds_bucket', 'namespace, job', `job="${w}"`, th),
        labels: {},
        serverSeries: 'http_requests_total|http_request_duration_seconds|http_request_duration_highr_seconds',
        clientSeries: null,
        versionSeries: versions,
      };
    case 'ingress-nginx':
      return {
        // The controller's own namespace is the target's; the application's is exported_namespace.
        errorRatio: (w, th, r) =>
          `label_replace(${ratio(
            'nginx_ingress_controller_requests',
            'exported_namespace, ingress',
            `ingress="${w}"${r ? `, path="${routeLabel('ingress-nginx', r)}"` : ''}`,
            'status=~"5.."',
            th,
          )}, "namespace", "$1", "exported_namespace", "(.*)")`,
        latencyP99: (w, th) =>
          `label_replace(${p99('nginx_ingress_controller_request_duration_seconds_bucket', 'exported_namespace, ingress', `ingress="${w}"`, th)}, "namespace", "$1", "exported_namespace", "(.*)")`,
        labels: {},
        serverSeries: 'nginx_ingress_controller_requests|nginx_ingress_controller_request_duration_seconds',
        clientSeries: null,
        versionSeries: versions,
      };
  }
}

/** The metric names a PromQL expression selects (functions, keywords, label names and strings left out). */
export function metricNames(expr: string): string[] {
  const stripped = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, '{}')
    .replace(/\[[^\]]*\]/g, '[]')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
  const keywords = new Set(['and', 'or', 'unless', 'bool', 'offset', 'inf', 'nan']);
  const names = new Set<string>();
  for (const m of stripped.matchAll(/[a-zA-Z_:][a-zA-Z0-9_:]*(?=\s*(\(?))/g)) {
    if (m[1] === '(' || keywords.has(m[0].toLowerCase())) continue;
    const before = stripped.slice(0, m.index);
    if (/[0-9.]$/.test(before)) continue;
    names.add(m[0]);
  }
  return [...names];
}

/** Blackbox exporter probes: HTTP (`http_2xx`), TCP (`tcp_connect`) and TLS (`tls_connect`) modules. */
export function blackbox(
  cluster: Cluster,
  targets: Array<{
    target: string;
    module: 'http_2xx' | 'tcp_connect' | 'tls_connect';
    fails?: (t: number) => boolean;
    status?: (t: number) => number;
    certExpiry?: number;
    duration?: (t: number) => number;
  }>,
): void {
  const tel = cluster.telemetry;
  tel.gauge('up', { job: 'blackbox-exporter', instance: '10.2.0.9:9115', namespace: 'monitoring' }, () => 1);
  for (const { target, module, fails, status, certExpiry, duration } of targets) {
    const labels = { job: `blackbox-${module.split('_')[0]}`, instance: target, namespace: 'monitoring', module };
    const failing = (t: number): boolean => fails?.(t) ?? false;
    tel.gauge('probe_success', labels, (t) => (failing(t) ? 0 : 1));
    tel.gauge('probe_duration_seconds', labels, (t) => (duration ? duration(t) : failing(t) ? 0.002 : 0.012 + 0.003 * cluster.noise(`probe:${target}`, t)));
    if (module === 'http_2xx') tel.gauge('probe_http_status_code', labels, (t) => status?.(t) ?? (failing(t) ? 0 : 200));
    if (module !== 'tcp_connect' && (target.startsWith('https') || module === 'tls_connect')) {
      tel.gauge('probe_ssl_earliest_cert_expiry', labels, () => certExpiry ?? cluster.end + 61 * 86_400);
    }
  }
}

/** HikariCP pool metrics as Micrometer exports them; `pending(t)` threads wait for a connection. */
export function hikariPool(cluster: Cluster, workload: string, pool: string, max: number, active: (t: number) => number, pending: (t: number) => number): void {
  const tel = cluster.telemetry;
  for (const pod of cluster.workload(workload).pods) {
    const labels = { ...podTarget(pod, 8081), endpoint: 'http-actuator', application: workload, pool };
    const up = (t: number): boolean => running(pod, t);
    const used = (t: number): number => Math.min(max, Math.max(0, Math.round(active(t) + cluster.noise(`hikari:${pod.name}`, t))));
    tel.gauge('hikaricp_connections_max', labels, (t) => (up(t) ? max : undefined));
    tel.gauge('hikaricp_connections_min', labels, (t) => (up(t) ? Math.min(max, 5) : undefined));
    tel.gauge('hikaricp_connections_active', labels, (t) => (up(t) ? used(t) : undefined));
    tel.gauge('hikaricp_connections_idle', labels, (t) => (up(t) ? max - used(t) : undefined));
    tel.gauge('hikaricp_connections_pending', labels, (t) => (up(t) ? Math.max(0, Math.round(pending(t))) : undefined));
    tel.counter('hikaricp_connections_timeout_total', labels, (t) => (up(t) ? Math.max(0, pending(t) - 5) * 0.2 : 0), {
      alive: up,
      integer: true,
      resets: pod.starts.slice(1),
    });
  }
}

/** Go database/sql pool statistics (dlmiddlecote/sqlstats' collector, label db_name). */
export function goSqlStats(
  cluster: Cluster,
  workload: string,
  dbName: string,
  maxOpen: number,
  inUse: (t: number) => number,
  waiting: (t: number) => number,
): void {
  const tel = cluster.telemetry;
  for (const pod of cluster.workload(workload).pods) {
    const labels = { ...podTarget(pod, 9090), db_name: dbName };
    const up = (t: number): boolean => running(pod, t);
    const used = (t: number): number => Math.min(maxOpen, Math.max(0, Math.round(inUse(t) + cluster.noise(`sql:${pod.name}`, t))));
    const open = (t: number): number => Math.min(maxOpen, used(t) + 4);
    tel.gauge('go_sql_stats_connections_max_open', labels, (t) => (up(t) ? maxOpen : undefined));
    tel.gauge('go_sql_stats_connections_open', labels, (t) => (up(t) ? open(t) : undefined));
    tel.gauge('go_sql_stats_connections_in_use', labels, (t) => (up(t) ? used(t) : undefined));
    tel.gauge('go_sql_stats_connections_idle', labels, (t) => (up(t) ? open(t) - used(t) : undefined));
    tel.counter('go_sql_stats_connections_waited_for', labels, (t) => (up(t) ? waiting(t) : 0), { alive: up, integer: true, resets: pod.starts.slice(1) });
    tel.counter('go_sql_stats_connections_blocked_seconds', labels, (t) => (up(t) ? waiting(t) * 0.8 : 0), { alive: up, resets: pod.starts.slice(1) });
  }
}

/** OpenTelemetry's database client pool metrics (db.client.connections.*). */
export function otelPool(cluster: Cluster, workload: string, pool: string, max: number, used: (t: number) => number, pending: (t: number) => number): void {
  const tel = cluster.telemetry;
  for (const pod of cluster.workload(workload).pods) {
    const w = pod.workload;
    const resource = {
      job: `${w.namespace}/${w.name}`,
      instance: cluster.random(`uid:${pod.name}`).token(8, '0123456789abcdef'),
      service_name: w.name,
      k8s_namespace_name: w.namespace,
      k8s_pod_name: pod.name,
    };
    const up = (t: number): boolean => running(pod, t);
    const inUse = (t: number): number => Math.min(max, Math.max(0, Math.round(used(t) + cluster.noise(`otelpool:${pod.name}`, t))));
    tel.gauge('db_client_connections_usage', { ...resource, pool_name: pool, state: 'used' }, (t) => (up(t) ? inUse(t) : undefined));
    tel.gauge('db_client_connections_usage', { ...resource, pool_name: pool, state: 'idle' }, (t) => (up(t) ? max - inUse(t) : undefined));
    tel.gauge('db_client_connections_max', { ...resource, pool_name: pool }, (t) => (up(t) ? max : undefined));
    tel.gauge('db_client_connections_pending_requests', { ...resource, pool_name: pool }, (t) => (up(t) ? Math.max(0, Math.round(pending(t))) : undefined));
  }
}
