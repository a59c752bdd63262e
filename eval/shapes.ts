import { alive, Cluster, Effects, Pod, Route, running, Workload, WorkloadSpec } from './cluster';
import { applyNaming, blackbox, Convention, histogram, Naming, rules, RuleWriter, traffic } from './conventions';
import { Family, KUBE_POD_CRASH_LOOPING, MINUTE, ReportedChange, Rule, Scenario } from './scenarios';
import { configMap, NODES, postgres, ramp, shop, ShopOptions, WORKLOADS } from './shop';
import { Labels, Telemetry } from './telemetry';

/**
 * The shapes suites (`shapes-dev`, `shapes-holdout`): telemetry shapes real clusters have that the
 * other suites' data lacks, each a template here whose names, conventions and numbers a scenario
 * gives (eval/shape-scenarios.ts for dev, eval/holdout/ for the holdout). The machinery below
 * (kube-prometheus' scrape labels, owner series, a YACE-style CloudWatch exporter, client latency
 * labelled only by `peer`, Jobs and CronJobs, containers without a CPU limit) is shared by both.
 */

/** The telemetry shape a scenario of the shapes suites exercises. */
export type Shape =
  /** kube-prometheus' ServiceMonitor labels (`service`, `endpoint`) on cAdvisor, kubelet, kube-state-metrics and node-exporter series. */
  | 'scrape-labels'
  /** A cloud-monitoring exporter (YACE style): no namespace, no Kubernetes labels, no caller or callee labels. */
  | 'cloud-exporter'
  /** CloudWatch statistics that are gauges (`_sum` per period, `_average`, `_maximum`) and constant series beside the fault. */
  | 'gauge-statistics'
  /** A client-side latency metric labelled only by the caller's service and `peer`. */
  | 'peer-label'
  /** The cause two calls below the service that pages. */
  | 'two-hops'
  /** A neighbour without a CPU limit starves the node; only node CPU and the neighbour's container CPU show it. */
  | 'node-cpu'
  /** Several rollouts reported together before the page, one of them faulty. */
  | 'release-train'
  /** A cause one mechanism further than its symptom: certificate, Job, ConfigMap, downstream latency. */
  | 'mechanism';

export const SHAPES: Shape[] = ['scrape-labels', 'cloud-exporter', 'gauge-statistics', 'peer-label', 'two-hops', 'node-cpu', 'release-train', 'mechanism'];

/** Spread of request latency around its median (log-normal sigma), as every emitter uses. */
const SIGMA = 0.55;

/** Standard normal quantiles of the summary quantiles written. */
const Z: Record<string, number> = { '0.5': 0, '0.75': 0.6745, '0.9': 1.2816, '0.95': 1.6449, '0.99': 2.3263, '0.999': 3.0902 };

// ---------------------------------------------------------------------------------------------
// Scrape configuration

/**
 * kube-prometheus' ServiceMonitors' target labels: cAdvisor, the kubelet's probes and volume stats
 * get `service="kubelet"` and `endpoint="https-metrics"` beside `job="kubelet"`; kube-state-metrics'
 * series `service="kube-state-metrics"`, `endpoint="https-main"` and, where the series has no
 * container of its own, the scraped container's (`kube-rbac-proxy-main`); node-exporter's
 * `service="node-exporter"`, `endpoint="https"`, `container="kube-rbac-proxy"`.
 */
export function kubePrometheusLabels(cluster: Cluster): void {
  cluster.relabel = (_name, labels) => {
    switch (labels.job) {
      case 'kubelet':
        return { ...labels, service: 'kubelet', endpoint: 'https-metrics' };
      case 'kube-state-metrics':
        return { container: 'kube-rbac-proxy-main', ...labels, service: 'kube-state-metrics', endpoint: 'https-main' };
      case 'node-exporter':
        return { container: 'kube-rbac-proxy', ...labels, service: 'node-exporter', endpoint: 'https' };
      default:
        return labels;
    }
  };
}

/** How a shapes scenario's shop is set up. */
export interface ShopShape {
  /** The workloads' own telemetry convention (eval/conventions.ts); the Prometheus client defaults without one. */
  naming?: Naming;
  /** kube-prometheus' ServiceMonitor labels on the exporters' series. */
  kubePrometheus?: boolean;
  /** cAdvisor's constant `container_spec_cpu_period`. */
  cpuPeriod?: boolean;
  options?: ShopOptions;
}

/** A shop with kube-state-metrics' owner series, named and labelled as `shape` says. */
export function shapeShop(end: number, seed: number, shape: ShopShape): Cluster {
  const c = shop(end, seed, shape.options);
  if (shape.naming) applyNaming(c, shape.naming);
  c.ownerSeries = true;
  if (shape.kubePrometheus) kubePrometheusLabels(c);
  if (shape.cpuPeriod) c.cpuPeriodSeries = true;
  return c;
}

/** The generator's default metrics (Prometheus client defaults), as eval/scenarios.ts alerts on them. */
export const DEFAULT_RULES: RuleWriter = {
  errorRatio: (w, th, r) =>
    `sum by (namespace, job) (rate(http_requests_total{job="${w}"${r ? `, route="${r.route}"` : ''}, code=~"5.."}[5m])) / sum by (namespace, job) (rate(http_requests_total{job="${w}"${r ? `, route="${r.route}"` : ''}}[5m])) > ${th}`,
  latencyP99: (w, th) => `histogram_quantile(0.99, sum by (namespace, job, le) (rate(http_request_duration_seconds_bucket{job="${w}"}[5m]))) > ${th}`,
  labels: {},
  serverSeries: 'http_requests_total|http_request_duration_seconds',
  clientSeries: 'http_client_requests_total|http_client_request_duration_seconds',
  versionSeries: '_build_info|kube_pod_container_info|kube_pod_info',
};

/** The rules of `workload`'s convention (a gRPC shop's frontend is a Node server). */
export function writerOf(naming: Naming | undefined, workload: string): RuleWriter {
  if (!naming) return DEFAULT_RULES;
  const convention = naming.workloads?.[workload] ?? naming.convention;
  return rules(convention === 'grpc-go' && workload === 'frontend' ? 'node-prom-client' : convention);
}

const capital = (text: string): string => text.replace(/(^|-)(\w)/g, (_, _d: string, ch: string) => ch.toUpperCase());

export const errorRule = (w: RuleWriter, job: string, threshold = 0.05, route?: Route, alert = `${capital(job)}HighErrorRate`): Rule => ({
  alert,
  expr: w.errorRatio(job, threshold, route),
  forSeconds: 5 * MINUTE,
  labels: { severity: 'critical', ...w.labels },
  annotations: { summary: `${job} is failing requests`, description: `{{ $value | humanizePercentage }} of ${job}'s requests fail.` },
});

export const latencyRule = (w: RuleWriter, job: string, threshold: number, alert = `${capital(job)}LatencyHigh`): Rule => ({
  alert,
  expr: w.latencyP99(job, threshold),
  forSeconds: 5 * MINUTE,
  labels: { severity: 'warning', ...w.labels },
  annotations: { summary: `${job} answers slowly`, description: `The 99th percentile latency of ${job} is {{ $value }}.` },
});

/** The workload's pods serving at t (at least one), as the cluster's emitters count them. */
export function readyOf(w: Workload): (t: number) => number {
  const cache = new Map<number, number>();
  return (t) => {
    let n = cache.get(t);
    if (n === undefined) {
      n = Math.max(1, w.pods.filter((p) => running(p, t) && !w.effects.down?.(t, p)).length);
      cache.set(t, n);
    }
    return n;
  };
}

/** The share of a workload's pods that run a fresh set (e.g. a new version) and serve at t. */
function freshShare(w: Workload, fresh: Pod[], t: number): number {
  const serving = w.pods.filter((p) => running(p, t));
  return serving.length ? serving.filter((p) => fresh.includes(p)).length / serving.length : 0;
}

// ---------------------------------------------------------------------------------------------
// Latency that travels up a chain of calls

/**
 * The multiplier of `w`'s mean latency (its routes weighted by traffic share) when each call to a
 * peer takes `factor` times as long: every request makes `share` calls of `latency` seconds.
 */
function callerFactor(spec: WorkloadSpec, peer: string, factor: number): number {
  const p = spec.peers?.find((x) => x.peer === peer);
  if (!p) throw new Error(`${spec.name} does not call ${peer}`);
  const mean = spec.routes.reduce((s, r) => s + r.share * r.latency, 0) / spec.routes.reduce((s, r) => s + r.share, 0);
  return 1 + (p.share * p.latency * (factor - 1)) / mean;
}

/** Effects of a caller whose calls to `peer` take `factor(t)` times as long: its peer latency and each route's. */
function slowCalls(spec: WorkloadSpec, peer: string, factor: (t: number) => number, base: Effects = {}): Effects {
  const p = spec.peers?.find((x) => x.peer === peer);
  if (!p) throw new Error(`${spec.name} does not call ${peer}`);
  return {
    ...base,
    peerLatency: (t, x) => (x === peer ? factor(t) : (base.peerLatency?.(t, x) ?? 1)),
    latency: (t, pod, route) => {
      const r = spec.routes.find((x) => x.route === route)!;
      return (base.latency?.(t, pod, route) ?? 1) * (1 + (p.share * p.latency * (factor(t) - 1)) / r.latency);
    },
  };
}

/** A spec with `peer` among its peers (added with `share` calls per request of `latency` seconds when missing). */
export function withPeer(spec: WorkloadSpec, peer: string, share: number, latency: number): WorkloadSpec {
  if (spec.peers?.some((p) => p.peer === peer)) return spec;
  return { ...spec, peers: [...(spec.peers ?? []), { peer, share, latency }] };
}

// ---------------------------------------------------------------------------------------------
// kube-state-metrics' Jobs and CronJobs

const KSM: Labels = { job: 'kube-state-metrics', instance: '10.2.0.5:8080' };

export interface BatchJob {
  /** The CronJob that created the Job (the Job is `<cronJob>-<schedule minute>`). */
  cronJob: string;
  schedule: string;
  namespace: string;
  version: string;
  /** The Job's creation (its pod starts seconds later). */
  at: number;
  /** When it completes; runs to the end of the data without one. */
  completes?: number;
  cpu: (t: number) => number;
  memoryMiB: number;
  node?: string;
}

/**
 * A Job of a CronJob (kube-state-metrics' `kube_job_*`, `kube_cronjob_*`, and `kube_pod_owner` of
 * its pod, owner kind Job): one pod, without a metrics endpoint of its own.
 */
export function batchJob(c: Cluster, job: BatchJob): Workload {
  const name = `${job.cronJob}-${Math.floor(job.at / 60)}`;
  const w = c.addWorkload(
    {
      name,
      namespace: job.namespace,
      replicas: 1,
      version: job.version,
      rps: 0,
      routes: [],
      worker: true,
      unscraped: true,
      kind: 'Job',
      memoryMiB: job.memoryMiB,
      memoryLimitMiB: job.memoryMiB * 2,
      cpu: 0.1,
      cpuLimit: 2,
    },
    { cpu: job.cpu },
    { nodes: job.node ? [job.node] : undefined, from: job.at + 3 },
  );
  const pod = w.pods[0];
  if (job.completes !== undefined) {
    pod.until = job.completes;
    pod.terminations.push({ at: job.completes, reason: 'Completed', exitCode: 0 });
  }
  c.emitters.push(() => {
    const tel = c.telemetry;
    const labels = { ...KSM, namespace: job.namespace, job_name: name };
    const exists = (t: number): boolean => t >= job.at;
    const active = (t: number): boolean => exists(t) && (job.completes === undefined || t < job.completes);
    tel.gauge('kube_job_info', labels, (t) => (exists(t) ? 1 : undefined));
    tel.gauge('kube_job_owner', { ...labels, owner_kind: 'CronJob', owner_name: job.cronJob, owner_is_controller: 'true' }, (t) => (exists(t) ? 1 : undefined));
    tel.gauge('kube_job_created', labels, (t) => (exists(t) ? job.at : undefined));
    tel.gauge('kube_job_status_start_time', labels, (t) => (t >= job.at + 3 ? job.at + 3 : undefined));
    tel.gauge('kube_job_spec_completions', labels, (t) => (exists(t) ? 1 : undefined));
    tel.gauge('kube_job_spec_parallelism', labels, (t) => (exists(t) ? 1 : undefined));
    tel.gauge('kube_job_status_active', labels, (t) => (exists(t) ? (active(t) ? 1 : 0) : undefined));
    tel.gauge('kube_job_status_succeeded', labels, (t) => (exists(t) ? (active(t) ? 0 : 1) : undefined));
    tel.gauge('kube_job_status_failed', labels, (t) => (exists(t) ? 0 : undefined));
    if (job.completes !== undefined) tel.gauge('kube_job_status_completion_time', labels, (t) => (t >= job.completes! ? job.completes : undefined));
    const cron = { ...KSM, namespace: job.namespace, cronjob: job.cronJob };
    tel.gauge('kube_cronjob_info', { ...cron, schedule: job.schedule, concurrency_policy: 'Forbid' }, () => 1);
    tel.gauge('kube_cronjob_spec_suspend', cron, () => 0);
    tel.gauge('kube_cronjob_status_active', cron, (t) => (active(t) ? 1 : 0));
    tel.gauge('kube_cronjob_status_last_schedule_time', cron, (t) => (exists(t) ? job.at : job.at - 86_400));
  });
  return w;
}

// ---------------------------------------------------------------------------------------------
// A YACE-style CloudWatch exporter

/** YACE's PromString: separators become `_`, a capital after a lower-case letter or digit starts a new `_` word, all lower case. */
export function promString(text: string): string {
  let out = '';
  let prev = '';
  for (const ch of text) {
    if (' ,\t/\\.-:=@<>()'.includes(ch)) out += '_';
    else if (ch === '%') out += '_percent';
    else {
      if (/[A-Z]/.test(ch) && /[a-z0-9]/.test(prev)) out += '_';
      out += ch.toLowerCase();
    }
    prev = ch;
  }
  return out;
}

/** YACE's metric name of a CloudWatch namespace's metric and statistic: `aws_<namespace>_<metric>_<statistic>`. */
export function yaceName(namespace: string, metric: string, statistic: string): string {
  const ns = promString(namespace.toLowerCase()).replace(/^_/, '');
  let m = promString(metric);
  for (const part of ns.split('_')) if (m.startsWith(part)) m = m.slice(part.length);
  m = m.replace(/^_/, '');
  return `${ns.startsWith('aws') ? '' : 'aws_'}${ns}_${m}_${promString(statistic)}`;
}

/** What a resource does over time, for its CloudWatch statistics. */
export interface CloudResource {
  /** The resource's ARN (YACE's `name` label). */
  arn: string;
  /** Its dimension labels (`dimension_<Name>`, or a relabelled one such as `service`). */
  dimensions: Labels;
  /** Requests per second at t. */
  rate(t: number): number;
  /** Share of requests failing at t. */
  errors(t: number): number;
  /** Median latency, seconds. */
  latency(t: number): number;
  /** Utilisation (0 to 1) at t. */
  utilisation(t: number): number;
}

/**
 * What a CloudWatch metric measures of a resource: its requests (a count, or bytes at `unit` a
 * request), failures, latency, requests in flight (rate times latency) or utilisation.
 */
export type CloudQuantity = 'requests' | 'errors' | 'latency' | 'concurrency' | 'utilisation';

export interface CloudMetric {
  /** CloudWatch's name, e.g. `Duration`. */
  metric: string;
  quantity: CloudQuantity;
  /** CloudWatch statistics: Sum, SampleCount, Average, Maximum, Minimum, p50, p90, p99. */
  statistics: string[];
  /** A latency's unit per second (1000: milliseconds); a utilisation's or error ratio's scale (100: percent); bytes per request. */
  unit?: number;
}

export interface CloudWatchJob {
  namespace: string;
  region: string;
  accountId: string;
  /** CloudWatch's period: a statistic holds one value per period. */
  periodSeconds: number;
  /** How long after its period's end a value is exported (CloudWatch's ingestion delay). */
  delaySeconds: number;
  metrics: CloudMetric[];
  resources: CloudResource[];
  /** The scrape target's labels (`job`, `instance`). */
  target: Labels;
  /** Tags YACE adds to its `aws_<namespace>_info` series, per resource ARN. */
  tags?: (arn: string) => Labels;
}

/**
 * YACE's view of a CloudWatch namespace: a gauge per metric, statistic and resource, labelled by the
 * resource's ARN (`name`), `region`, `account_id` and its dimensions; each holds the statistic of
 * the last whole period ended `delaySeconds` before (so a `_sum` of requests is a count per period,
 * up and down each period, not a counter).
 */
export function cloudwatch(c: Cluster, job: CloudWatchJob): void {
  const tel = c.telemetry;
  tel.gauge('up', job.target, () => 1);
  const ns = promString(job.namespace.toLowerCase()).replace(/^_/, '');
  for (const r of job.resources) {
    const base = { ...job.target, name: r.arn, region: job.region, account_id: job.accountId };
    tel.gauge(`${ns.startsWith('aws') ? '' : 'aws_'}${ns}_info`, { ...base, ...(job.tags?.(r.arn) ?? {}) }, () => 1);
    for (const m of job.metrics) {
      for (const statistic of m.statistics) {
        const key = `cw:${r.arn}:${m.metric}:${statistic}`;
        const value = (from: number): number => {
          const mid = from + job.periodSeconds / 2;
          const n = c.noise(key, mid);
          const requests = r.rate(mid) * job.periodSeconds * (1 + 0.05 * n);
          switch (m.quantity) {
            case 'requests':
              return statistic === 'Sum' || statistic === 'SampleCount' ? Math.round(requests * (m.unit ?? 1)) : (m.unit ?? 1);
            case 'errors':
              // A Sum counts the period's failures; another statistic of a 0/1 error metric is their ratio.
              return statistic === 'Sum' ? Math.round(requests * r.errors(mid)) : r.errors(mid) * (m.unit ?? 1);
            case 'concurrency': {
              const inFlight = r.rate(mid) * r.latency(mid) * Math.exp((SIGMA * SIGMA) / 2) * (1 + 0.05 * n);
              return Math.round(statistic === 'Maximum' ? inFlight * 1.35 + 1 : statistic === 'Minimum' ? inFlight * 0.7 : inFlight);
            }
            case 'latency': {
              const unit = m.unit ?? 1;
              const median = r.latency(mid);
              const q = /^p(\d+(\.\d+)?)$/.exec(statistic);
              if (q) return median * Math.exp(SIGMA * (Z[String(Number(q[1]) / 100)] ?? 2.3263)) * unit * (1 + 0.03 * n);
              if (statistic === 'Average') return median * Math.exp((SIGMA * SIGMA) / 2) * unit * (1 + 0.03 * n);
              if (statistic === 'Minimum') return median * Math.exp(-SIGMA * 2.5) * unit;
              // The slowest request of the period: one of thousands, far out in the tail.
              return median * Math.exp(SIGMA * (3.2 + 0.4 * Math.abs(n))) * unit;
            }
            case 'utilisation': {
              const scale = m.unit ?? 100;
              const u = Math.min(1, Math.max(0, r.utilisation(mid) * (1 + 0.04 * n)));
              return (statistic === 'Maximum' ? Math.min(1, u * 1.12) : statistic === 'Minimum' ? u * 0.85 : u) * scale;
            }
          }
        };
        tel.gauge(yaceName(job.namespace, m.metric, statistic), { ...base, ...r.dimensions }, (t) => {
          const from = Math.floor((t - job.delaySeconds) / job.periodSeconds) * job.periodSeconds - job.periodSeconds;
          const v = value(from);
          return Number.isFinite(v) ? Number(v.toPrecision(6)) : undefined;
        });
      }
    }
  }
}

/** A service's requests as a resource's CloudWatch statistics see them, from a workload's pods (its routes and effects). */
export function workloadResource(c: Cluster, w: Workload, arn: string, dimensions: Labels): CloudResource {
  const ready = readyOf(w);
  const cached = new Map<number, { rate: number; errors: number; latency: number }>();
  const at = (t: number): { rate: number; errors: number; latency: number } => {
    const key = Math.round(t);
    let v = cached.get(key);
    if (!v) {
      let rate = 0;
      let failed = 0;
      let weighted = 0;
      for (const pod of w.pods) {
        if (!running(pod, t)) continue;
        for (const r of traffic(c, pod, ready).routes) {
          const served = r.served(t);
          rate += served;
          failed += r.codes.filter((code) => code.startsWith('5')).reduce((s, code) => s + served * r.share(code, t), 0);
          weighted += served * r.median(t);
        }
      }
      v = { rate, errors: rate ? failed / rate : 0, latency: rate ? weighted / rate : (w.spec.routes[0]?.latency ?? 0.05) };
      cached.set(key, v);
    }
    return v;
  };
  return {
    arn,
    dimensions,
    rate: (t) => at(t).rate,
    errors: (t) => at(t).errors,
    latency: (t) => at(t).latency,
    utilisation: (t) => Math.min(1, w.pods.filter((p) => running(p, t)).reduce((s, p) => s + c.cpuUsed(p, t) / p.cpuLimit, 0) / Math.max(1, w.pods.length)),
  };
}

// ---------------------------------------------------------------------------------------------
// Client latency labelled only by the caller's service and the peer

export interface PeerLabelMetric {
  /** The metric's name (`_bucket`/`_sum`/`_count`, or the summary's quantiles and `_sum`/`_count`, follow it). */
  name: string;
  type: 'summary' | 'histogram';
  /** The label naming the caller's service. */
  callerLabel: string;
  /** The label naming the called service (`peer`). */
  peerLabel: string;
  /** Units per second (1000: milliseconds). */
  unit?: number;
  buckets?: number[];
  quantiles?: string[];
  /** The scrape target of a caller pod's series: its own, or an aggregating exporter's (the same for every pod). */
  target(pod: Pod): Labels;
  /** The callers whose calls are written (and of them only calls to `peers`, when given). */
  callers: string[];
  peers?: string[];
}

/**
 * A client-side latency metric labelled by the caller's service and the peer only: no client and
 * server pair, no mesh. Pods whose targets are alike (an aggregating exporter such as
 * statsd-exporter) are summed into one series.
 */
export function peerLabelLatency(c: Cluster, m: PeerLabelMetric): void {
  c.emitters.push(() => {
    const tel = c.telemetry;
    const unit = m.unit ?? 1;
    for (const caller of m.callers) {
      const w = c.workload(caller);
      const ready = readyOf(w);
      const groups = new Map<string, { labels: Labels; pods: Pod[] }>();
      for (const pod of w.pods) {
        const labels = m.target(pod);
        const key = JSON.stringify(Object.entries(labels).sort());
        const g = groups.get(key) ?? { labels, pods: [] };
        g.pods.push(pod);
        groups.set(key, g);
      }
      for (const peer of (w.spec.peers ?? []).map((p) => p.peer).filter((p) => !m.peers || m.peers.includes(p))) {
        for (const g of groups.values()) {
          const traffics = g.pods.map((pod) => ({ pod, peer: traffic(c, pod, ready).peers.find((p) => p.peer === peer)! }));
          const rate = (t: number): number => traffics.reduce((s, x) => s + x.peer.calls(t), 0);
          const median = (t: number): number => traffics[0].peer.median(t);
          // An aggregating exporter is always up; a pod's own endpoint answers while its container runs.
          const shared = g.pods.length > 1;
          const alive_ = (t: number): boolean => shared || running(g.pods[0], t);
          const labels = { ...g.labels, [m.callerLabel]: caller, [m.peerLabel]: peer };
          const perSecond = traffics.reduce((s, x) => s + x.peer.perSecond, 0);
          const initialSeconds = shared ? 86_400 : Math.max(0, c.start - g.pods[0].from);
          const resets = shared ? [] : g.pods[0].starts.slice(1);
          if (m.type === 'histogram') {
            histogram(tel, m.name, labels, [{ rate, median }], m.buckets ?? [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10], {
              initialSeconds,
              perSecond,
              alive: alive_,
              resets,
              unit,
            });
            continue;
          }
          for (const q of m.quantiles ?? ['0.5', '0.9', '0.99']) {
            tel.gauge(`${m.name}`, { ...labels, quantile: q }, (t) =>
              alive_(t) && rate(t) > 0
                ? Number((median(t) * Math.exp(SIGMA * Z[q]) * unit * (1 + 0.04 * c.noise(`peer-q:${caller}:${peer}:${q}`, t))).toPrecision(6))
                : undefined,
            );
          }
          tel.counter(`${m.name}_sum`, labels, (t) => rate(t) * median(t) * Math.exp((SIGMA * SIGMA) / 2) * unit, {
            initial: initialSeconds * perSecond * median(c.start) * unit * 0.9,
            alive: alive_,
            resets,
          });
          tel.counter(`${m.name}_count`, labels, rate, { initial: initialSeconds * perSecond * 0.9, alive: alive_, resets, integer: true });
        }
      }
    }
  });
}

/** The target labels of an aggregating exporter in the monitoring namespace (every caller pod's series in one). */
export const exporterTarget = (job: string, instance: string, pod: string) => (): Labels => ({ job, instance, namespace: 'monitoring', pod });

/** The target labels of a caller pod's own metrics endpoint. */
export const podTarget =
  (port = 8080) =>
  (pod: Pod): Labels => ({ job: pod.workload.name, namespace: pod.workload.namespace, pod: pod.name, instance: `${pod.ip}:${port}` });

// ---------------------------------------------------------------------------------------------
// Scenario templates

/** What every shapes scenario names: itself, its seed, its split and how its shop names its telemetry. */
export interface ShapeBase {
  name: string;
  seed: number;
  split: 'dev' | 'holdout';
  naming?: Naming;
  /** Minutes before the end of the data the fault begins. */
  onset: number;
}

function shaped(
  base: ShapeBase,
  shape: Shape,
  family: Family,
  labelling: string | undefined,
  body: Omit<Scenario, 'name' | 'family' | 'seed' | 'split' | 'convention' | 'missing' | 'shape' | 'labelling'>,
): Scenario {
  const convention: Convention | undefined = base.naming?.convention;
  return {
    name: base.name,
    family,
    seed: base.seed,
    split: base.split,
    shape,
    convention,
    missing: base.naming?.missing,
    labelling: [labelling, convention ?? (labelling?.startsWith('yace') ? undefined : 'prometheus-client')].filter(Boolean).join(' + '),
    ...body,
  };
}

/** A workload of the shop's, or a spec of the scenario's own. */
export type WorkloadRef = string | WorkloadSpec;

const specOf = (ref: WorkloadRef): WorkloadSpec => (typeof ref === 'string' ? WORKLOADS[ref] : ref);
const nameOf = (ref: WorkloadRef): string => (typeof ref === 'string' ? ref : ref.name);

/** The shop's workloads `list` (the shop's default list without one) with the specs given changed and the scenario's own added. */
function assemble(c: Cluster, refs: WorkloadRef[], specs: Record<string, WorkloadSpec>): void {
  for (const ref of refs) if (typeof ref !== 'string' && !c.workloads.some((w) => w.name === ref.name)) c.addWorkload(specs[ref.name] ?? ref);
  for (const [name, spec] of Object.entries(specs)) {
    const w = c.workloads.find((x) => x.name === name);
    if (w) Object.assign(w.spec, spec);
  }
}

// 1. Scrape labels: CPU contention of a callee, the caller pages.

export interface CalleeCpu extends ShapeBase {
  caller: string;
  callee: WorkloadRef;
  /** Calls per caller request when the callee is not yet the caller's peer, and their latency. */
  calls?: { share: number; latency: number };
  /** The callee's latency multiplier once its CPU is at its limit. */
  slow: number;
  threshold: number;
  workloads?: string[];
}

export function calleeCpu(p: CalleeCpu): Scenario {
  const callee = nameOf(p.callee);
  const caller = withPeer(WORKLOADS[p.caller], callee, p.calls?.share ?? 1, p.calls?.latency ?? 0.02);
  const calleeSpec = specOf(p.callee);
  const w = writerOf(p.naming, p.caller);
  return shaped(p, 'scrape-labels', 'cpu-throttling', 'kube-prometheus', {
    story:
      `${callee} is starved of CPU: its containers run at their ${calleeSpec.cpuLimit}-core limit and are throttled, its latency rises ${p.slow}-fold, ` +
      `and ${p.caller}, which calls it, slows down and pages. The exporters' series carry kube-prometheus' service and endpoint labels (service="kubelet" on cAdvisor's).`,
    redHerrings: ['cAdvisor series labelled service="kubelet"', 'kube-state-metrics\' series labelled container="kube-rbac-proxy-main"'],
    build(end) {
      const at = end - p.onset * MINUTE;
      const c = shapeShop(end, p.seed, { naming: p.naming, kubePrometheus: true, options: { workloads: p.workloads } });
      assemble(c, [p.caller, p.callee], { [p.caller]: caller });
      const saturated = (t: number): number => ramp(t, at, at + 2 * MINUTE);
      const slow = (t: number): number => 1 + (p.slow - 1) * saturated(t);
      c.workload(callee).effects = {
        cpu: (t) => (t >= at ? calleeSpec.cpuLimit * (1 + 0.7 * saturated(t)) * c.wave(t, callee) : undefined),
        latency: slow,
      };
      c.workload(p.caller).effects = slowCalls(caller, callee, slow);
      return c;
    },
    rule: latencyRule(w, p.caller, p.threshold),
    truth: { values: [[callee]], series: new RegExp(`container_cpu|${callee}`) },
  });
}

// 2. A cloud exporter without namespace: the alert on one service's latency, the fault on another's.

export interface CloudService {
  name: string;
  rps: number;
  /** Median latency, seconds. */
  latency: number;
  /** Utilisation at the daily mean (0 to 1). */
  utilisation: number;
}

export interface CloudExporter extends Omit<ShapeBase, 'naming'> {
  job: Omit<CloudWatchJob, 'resources' | 'metrics'>;
  /** The dimension label naming the service (e.g. `dimension_ServiceName`) and the resources' other dimensions. */
  dimension: string;
  otherDimensions?: Labels;
  arn(service: string): string;
  metrics: CloudMetric[];
  services: CloudService[];
  /** The service that pages (its latency), the one at fault, and how the fault shows on it. */
  alerting: string;
  faulty: string;
  fault: { utilisation: number; slow: number; errors: number };
  /** The share of the alerting service's latency spent waiting on the faulty one. */
  waits: number;
  /** The latency statistic alerted on, and its threshold in the metric's unit. */
  alertStatistic: string;
  threshold: number;
  /** A service whose errors rise at the same time, for a reason of its own that harms nobody. */
  herring?: { service: string; errors: number };
}

export function cloudExporter(p: CloudExporter): Scenario {
  const latency = p.metrics.find((m) => m.quantity === 'latency')!;
  const metric = yaceName(p.job.namespace, latency.metric, p.alertStatistic);
  const family = yaceName(p.job.namespace, 'x', 'y').replace(/_x_y$/, '_');
  return shaped({ ...p, naming: undefined }, 'cloud-exporter', 'downstream-latency', `yace ${p.job.namespace}`, {
    story:
      `${p.faulty} saturates (utilisation ${Math.round(p.fault.utilisation * 100)}%), its latency rises ${p.fault.slow}-fold and ${Math.round(p.fault.errors * 100)}% of its requests fail; ` +
      `${p.alerting}, which waits on it, slows down and pages. Only a CloudWatch exporter (YACE, ${p.job.namespace}) sees them: no namespace, no Kubernetes labels, no caller or callee labels.`,
    redHerrings: p.herring ? [`${p.herring.service}'s errors rise at the same time, harming nobody`] : [],
    build(end) {
      const at = end - p.onset * MINUTE;
      const c = new Cluster(new Telemetry(end, 3), p.seed);
      c.kubeStateMetrics = false;
      const onset = (t: number): number => ramp(t, at, at + 2 * MINUTE);
      const resources = p.services.map((s): CloudResource => {
        const faulty = s.name === p.faulty;
        const alerting = s.name === p.alerting;
        const slow = (t: number): number => 1 + (p.fault.slow - 1) * onset(t);
        return {
          arn: p.arn(s.name),
          dimensions: { ...p.otherDimensions, [p.dimension]: s.name },
          rate: (t) => s.rps * c.wave(t, s.name),
          errors: (t) => 0.001 + (faulty ? p.fault.errors * onset(t) : 0) + (p.herring?.service === s.name && t >= at - MINUTE ? p.herring.errors : 0),
          latency: (t) => s.latency * (faulty ? slow(t) : alerting ? 1 + p.waits * (slow(t) - 1) : 1),
          utilisation: (t) =>
            faulty
              ? s.utilisation * c.wave(t, s.name) + (p.fault.utilisation - s.utilisation * c.wave(t, s.name)) * onset(t)
              : s.utilisation * c.wave(t, s.name),
        };
      });
      cloudwatch(c, { ...p.job, metrics: p.metrics, resources });
      return c;
    },
    rule: {
      alert: `${capital(p.alerting)}LatencyHigh`,
      expr: `max by (${p.dimension}) (${metric}{${p.dimension}="${p.alerting}"}) > ${p.threshold}`,
      forSeconds: 5 * MINUTE,
      labels: { severity: 'warning' },
      annotations: { summary: `${p.alerting} answers slowly`, description: `${p.alertStatistic} latency of ${p.alerting} is {{ $value }}.` },
    },
    truth: { values: [[p.faulty]], series: new RegExp(family) },
  });
}

// 3. CloudWatch statistics that are gauges beside a fault in the cluster.

export type ClusterFault =
  { kind: 'rollout'; service: string; version: string; ratio: number } | { kind: 'dependency-down'; caller: string; peer: string; ratio: number };

export interface GaugeStatistics extends ShapeBase {
  fault: ClusterFault;
  /** The load balancer's namespace and its target groups, one per service in front of it. */
  job: Omit<CloudWatchJob, 'resources' | 'metrics'>;
  metrics: CloudMetric[];
  /** The services behind the load balancer: each one's ARN and dimensions. */
  targets: Array<{ service: string; arn: string; dimensions: Labels }>;
  /** A newsletter's traffic: `factor` times a service's requests from a few minutes before the fault, for ten minutes. */
  surge: { service: string; factor: number };
  workloads?: string[];
}

export function gaugeStatistics(p: GaugeStatistics): Scenario {
  const f = p.fault;
  const paging = f.kind === 'rollout' ? f.service : f.caller;
  const w = writerOf(p.naming, paging);
  return shaped(p, 'gauge-statistics', f.kind, `cloudwatch ${p.job.namespace}`, {
    story:
      (f.kind === 'rollout'
        ? `${f.service} ${f.version} fails ${Math.round(f.ratio * 100)}% of its requests from its rollout on.`
        : `${f.peer} stops answering; ${f.caller} fails the requests that call it.`) +
      ` Beside it, the load balancer's CloudWatch statistics (${p.job.namespace}): per-period request counts as \`_sum\` gauges that go up and down every period, ` +
      `\`_average\` and \`_maximum\` latencies, a short newsletter surge on ${p.surge.service}; and cAdvisor's constant container_spec_cpu_period.`,
    redHerrings: [
      'CloudWatch `_sum` statistics (per-period counts, gauges) that read as counters resetting every period',
      `a traffic surge on ${p.surge.service} a few minutes before`,
      'a constant container_spec_cpu_period',
    ],
    build(end) {
      const at = end - p.onset * MINUTE;
      const surge = (t: number): number => 1 + (p.surge.factor - 1) * (t >= at - 4 * MINUTE && t < at + 6 * MINUTE ? 1 : 0);
      const c = shapeShop(end, p.seed, {
        naming: p.naming,
        cpuPeriod: true,
        options: { workloads: p.workloads, effects: { [p.surge.service]: { load: surge } } },
      });
      if (f.kind === 'rollout') {
        const target = c.workload(f.service);
        const fresh = c.rollout(target, at, { version: f.version });
        target.effects = { ...target.effects, errors: (_t, pod) => (fresh.includes(pod) ? { '500': f.ratio } : undefined) };
      } else {
        c.workload(f.peer).effects = { ...c.workload(f.peer).effects, down: (t) => t >= at };
        c.workload(f.caller).effects = {
          ...c.workload(f.caller).effects,
          errors: (t) => (t >= at ? { '503': f.ratio } : undefined),
          peerErrors: (t, _pod, peer) => (peer === f.peer && t >= at ? { connection_refused: 1 } : undefined),
        };
      }
      cloudwatch(c, {
        ...p.job,
        metrics: p.metrics,
        resources: p.targets.map((x) => workloadResource(c, c.workload(x.service), x.arn, x.dimensions)),
      });
      return c;
    },
    rule: errorRule(w, paging),
    truth:
      f.kind === 'rollout'
        ? { values: [[f.version]], series: new RegExp(w.versionSeries) }
        : { values: [[f.peer]], series: new RegExp(`${f.peer}${w.clientSeries ? `|${w.clientSeries}` : ''}`) },
  });
}

// 4. Client latency labelled only by `peer`: the fault on the peer.

export interface PeerLabel extends ShapeBase {
  caller: string;
  /** The peer: a workload of the shop's (its own latency shows the fault too), or an outside host only the calls see. */
  peer: string;
  external?: boolean;
  calls?: { share: number; latency: number };
  slow: number;
  metric: Omit<PeerLabelMetric, 'callers'>;
  threshold: number;
  workloads?: string[];
}

export function peerLabel(p: PeerLabel): Scenario {
  const caller = withPeer(WORKLOADS[p.caller], p.peer, p.calls?.share ?? 1, p.calls?.latency ?? 0.03);
  const w = writerOf(p.naming, p.caller);
  return shaped(p, 'peer-label', 'downstream-latency', `${p.metric.name}{${p.metric.callerLabel},${p.metric.peerLabel}}`, {
    story:
      `${p.peer} answers ${p.slow} times slower; ${p.caller}, which calls it, slows down and pages. The calls' latency is seen only in ${p.metric.name}, ` +
      `labelled by the caller's service (${p.metric.callerLabel}) and ${p.metric.peerLabel}: no client and server pair, no mesh.`,
    redHerrings: [],
    build(end) {
      const at = end - p.onset * MINUTE;
      const c = shapeShop(end, p.seed, { naming: p.naming, options: { workloads: p.workloads } });
      assemble(c, [p.caller], { [p.caller]: caller });
      const slow = (t: number): number => 1 + (p.slow - 1) * ramp(t, at, at + 2 * MINUTE);
      if (!p.external) c.workload(p.peer).effects = { latency: slow };
      c.workload(p.caller).effects = slowCalls(caller, p.peer, slow);
      peerLabelLatency(c, { ...p.metric, callers: [p.caller], peers: p.metric.peers });
      return c;
    },
    rule: latencyRule(w, p.caller, p.threshold),
    truth: { values: [[p.peer]], series: new RegExp(`${p.metric.name}|${p.peer}`) },
  });
}

// 5. Two calls below: A calls B calls C, C at fault, A pages.

export interface TwoHops extends ShapeBase {
  a: string;
  b: WorkloadRef;
  c: WorkloadRef;
  /** C saturates its CPU (and slows), or only its own latency rises. */
  mode: 'cpu' | 'latency';
  slow: number;
  calls: { ab: { share: number; latency: number }; bc: { share: number; latency: number } };
  threshold: number;
  workloads?: string[];
}

export function twoHops(p: TwoHops): Scenario {
  const [bName, cName] = [nameOf(p.b), nameOf(p.c)];
  const a = withPeer(WORKLOADS[p.a], bName, p.calls.ab.share, p.calls.ab.latency);
  const b = withPeer(specOf(p.b), cName, p.calls.bc.share, p.calls.bc.latency);
  const w = writerOf(p.naming, p.a);
  return shaped(p, 'two-hops', p.mode === 'cpu' ? 'cpu-throttling' : 'downstream-latency', undefined, {
    story:
      `${cName} ${p.mode === 'cpu' ? 'runs at its CPU limit and is throttled; its' : 'slows down: its own'} latency rises ${p.slow}-fold; ${bName}, which calls it, slows down, ` +
      `and so does ${p.a}, which calls ${bName}: ${p.a} pages, two calls above the cause.`,
    redHerrings: [`${bName}, between them, slows down too`],
    build(end) {
      const at = end - p.onset * MINUTE;
      const c = shapeShop(end, p.seed, { naming: p.naming, options: { workloads: p.workloads } });
      assemble(c, [p.a, p.b, p.c], { [p.a]: a, [bName]: b });
      const slowC = (t: number): number => 1 + (p.slow - 1) * ramp(t, at, at + 2 * MINUTE);
      const slowB = (t: number): number => callerFactor(b, cName, slowC(t));
      const cSpec = c.workload(cName).spec;
      c.workload(cName).effects = {
        latency: slowC,
        ...(p.mode === 'cpu'
          ? { cpu: (t: number) => (t >= at ? cSpec.cpuLimit * (1 + 0.6 * ramp(t, at, at + 2 * MINUTE)) * c.wave(t, cName) : undefined) }
          : {}),
      };
      c.workload(bName).effects = slowCalls(b, cName, slowC);
      c.workload(p.a).effects = slowCalls(a, bName, slowB);
      return c;
    },
    rule: latencyRule(w, p.a, p.threshold),
    truth: { values: [[cName]], series: new RegExp(`${cName}${p.mode === 'cpu' ? '|container_cpu' : ''}`) },
  });
}

// 6. A neighbour without a CPU limit starves a node.

export interface NodeCpu extends ShapeBase {
  victim: string;
  neighbour: { name: string; namespace: string; version: string; cores: number };
  slow: number;
  threshold: number;
  /** A neighbour with a CPU limit that bursts on another node with CPU to spare. */
  bursting?: { name: string; namespace: string; version: string };
  workloads?: string[];
}

export function nodeCpu(p: NodeCpu): Scenario {
  const w = writerOf(p.naming, p.victim);
  // The shop places a workload's first pod on the node of its index among the workloads.
  const starvedNode = NODES[(p.workloads ?? Object.keys(WORKLOADS)).indexOf(p.victim) % NODES.length];
  return shaped(p, 'node-cpu', 'noisy-neighbour', undefined, {
    story:
      `A ${p.neighbour.name} pod (namespace ${p.neighbour.namespace}, no CPU limit) takes ${p.neighbour.cores} cores of the node of one ${p.victim} pod; that pod is starved ` +
      `without being throttled (its own CPU stays below its limit) and ${p.victim}'s p99 climbs. Only node-exporter's CPU and the neighbour's container CPU show it.`,
    redHerrings: p.bursting ? [`${p.bursting.name} bursts on another node, with CPU to spare`] : [],
    build(end) {
      const at = end - p.onset * MINUTE;
      const c = shapeShop(end, p.seed, { naming: p.naming, options: { workloads: p.workloads } });
      const victim = c.workload(p.victim);
      const [starved, spare] = victim.pods.map((x) => x.node.name);
      if (starved !== starvedNode) throw new Error(`${p.victim}'s first pod runs on ${starved}, not ${starvedNode}`);
      const hungry = (t: number): number => ramp(t, at - MINUTE, at + MINUTE);
      c.addWorkload(
        {
          name: p.neighbour.name,
          namespace: p.neighbour.namespace,
          replicas: 1,
          version: p.neighbour.version,
          rps: 0,
          routes: [],
          worker: true,
          unscraped: true,
          memoryMiB: 2400,
          memoryLimitMiB: 6144,
          cpu: 0.05,
          cpuLimit: Infinity,
        },
        { cpu: (t) => 0.05 + (p.neighbour.cores - 0.05) * hungry(t) },
        { nodes: [starved] },
      );
      if (p.bursting && spare && spare !== starved)
        c.addWorkload(
          {
            name: p.bursting.name,
            namespace: p.bursting.namespace,
            replicas: 1,
            version: p.bursting.version,
            rps: 0,
            routes: [],
            worker: true,
            unscraped: true,
            memoryMiB: 500,
            memoryLimitMiB: 1024,
            cpu: 0.1,
            cpuLimit: 1.5,
          },
          { cpu: (t) => (t >= at - 2 * MINUTE ? 1.2 : 0.1) },
          { nodes: [spare] },
        );
      const spec = victim.spec;
      victim.effects = {
        latency: (t, pod) => (pod.node.name === starved ? 1 + (p.slow - 1) * hungry(t) : 1),
        // Starved, the pod gets less CPU than it would use: its usage dips, far from its limit.
        cpu: (t, pod) => (pod.node.name === starved && t >= at - MINUTE ? spec.cpu * c.wave(t, p.victim) * (1 - 0.25 * hungry(t)) : undefined),
      };
      return c;
    },
    rule: latencyRule(w, p.victim, p.threshold),
    truth: { values: [[p.neighbour.name], [starvedNode.split('.')[0]]], series: /node_cpu_seconds_total|container_cpu_usage_seconds_total/ },
  });
}

// 7. A release train: several rollouts reported together, one faulty downstream of the entry.

export interface Release {
  service: string;
  version: string;
  /** Minutes before the fault's rollout (negative: after it). */
  before: number;
}

export interface ReleaseTrain extends ShapeBase {
  /** The entry service (the scenario's own): it calls `path[0]`, which calls `path[1]`...; the last of `path` is faulty. */
  entry: WorkloadSpec;
  path: string[];
  version: string;
  /** Share of the faulty service's requests its new pods fail. */
  ratio: number;
  harmless: Release[];
  threshold: number;
  /** Who reports the deploys, and the ids' prefix. */
  reporter: { author: string; prefix: string };
  workloads?: string[];
}

export function releaseTrain(p: ReleaseTrain): Scenario {
  const faulty = p.path[p.path.length - 1];
  const w = writerOf(p.naming, p.entry.name);
  const fromVersion = WORKLOADS[faulty]?.version ?? '1.0.0';
  return shaped(p, 'release-train', 'rollout', undefined, {
    story:
      `A release train: ${p.harmless.length + 1} services rolled out within minutes. ${faulty} ${p.version} fails ${Math.round(p.ratio * 100)}% of its requests from its rollout on; ` +
      `${[p.entry.name, ...p.path.slice(0, -1)].join(' and ')} fail${p.path.length > 1 ? '' : 's'} the requests that need it and ${p.entry.name} pages. ` +
      `The others (${p.harmless.map((h) => `${h.service} ${h.version}`).join(', ')}) changed nothing.`,
    redHerrings: p.harmless.map((h) => `${h.service} ${h.version} rolled out ${Math.abs(h.before)} min ${h.before >= 0 ? 'before' : 'after'}, harmless`),
    build(end) {
      const at = end - p.onset * MINUTE;
      const c = shapeShop(end, p.seed, { naming: p.naming, options: { workloads: p.workloads } });
      c.addWorkload(p.entry);
      for (const h of p.harmless) c.rollout(c.workload(h.service), at - h.before * MINUTE, { version: h.version });
      const target = c.workload(faulty);
      const fresh = c.rollout(target, at, { version: p.version });
      // The faulty service's failures, then each caller's up the path: a failed call fails the request.
      let failing = (t: number): number => p.ratio * freshShare(target, fresh, t);
      target.effects = { ...target.effects, errors: (_t, pod) => (fresh.includes(pod) ? { '500': p.ratio } : undefined) };
      const callers = [p.entry.name, ...p.path.slice(0, -1)];
      for (let k = callers.length - 1; k >= 0; k--) {
        const caller = c.workload(callers[k]);
        const callee = k + 1 < callers.length ? callers[k + 1] : faulty;
        const share = Math.min(1, caller.spec.peers!.find((x) => x.peer === callee)!.share);
        const below = failing;
        caller.effects = {
          ...caller.effects,
          errors: (t) => (below(t) > 0 ? { '502': Math.min(1, share * below(t)) } : undefined),
          peerErrors: (t, _pod, peer) => (peer === callee && below(t) > 0 ? { '500': below(t) } : undefined),
        };
        failing = (t) => Math.min(1, share * below(t));
      }
      return c;
    },
    rule: errorRule(w, p.entry.name, p.threshold),
    changes: (end) => {
      const at = end - p.onset * MINUTE;
      const deploy = (service: string, from: string, to: string, when: number, k: number): ReportedChange => ({
        id: `${p.reporter.prefix}-${k + 1}`,
        summary: `Deployed ${service} ${to}`,
        kind: 'deploy',
        service,
        at: when,
        author: p.reporter.author,
        versionBefore: from,
        versionAfter: to,
      });
      return [
        ...p.harmless.map((h, k) => deploy(h.service, WORKLOADS[h.service]?.version ?? '', h.version, at - h.before * MINUTE, k)),
        deploy(faulty, fromVersion, p.version, at, p.harmless.length),
      ].sort((x, y) => x.at - y.at);
    },
    truth: { values: [[faulty], [p.version]], series: new RegExp(`changes\\.near_onset|${w.versionSeries}|${faulty}`) },
  });
}

// 8. Mechanisms one step further.

export interface ExpiredCertificate extends ShapeBase {
  caller: string;
  /** The peer: a workload of the shop's or the scenario's own, answering TLS at `host`. */
  peer: WorkloadRef;
  host: string;
  module: 'tls_connect' | 'http_2xx';
  calls?: { share: number; latency: number };
  ratio: number;
  /** Other probes, healthy. */
  probes: Array<{ target: string; module: 'tls_connect' | 'http_2xx' | 'tcp_connect' }>;
  /** A harmless rollout of the peer shortly before. */
  rollout?: { version: string; before: number };
  workloads?: string[];
}

export function expiredCertificate(p: ExpiredCertificate): Scenario {
  const peer = nameOf(p.peer);
  const caller = withPeer(WORKLOADS[p.caller], peer, p.calls?.share ?? 1, p.calls?.latency ?? 0.03);
  const w = writerOf(p.naming, p.caller);
  return shaped(p, 'mechanism', 'certificate', undefined, {
    story:
      `The TLS certificate ${peer} serves at ${p.host} expires; every ${p.caller} call to it fails the handshake and ${Math.round(p.ratio * 100)}% of ${p.caller}'s requests fail. ` +
      `${peer} itself is up and answers its other traffic.` +
      (p.rollout ? ` ${peer} ${p.rollout.version} rolled out ${p.rollout.before} min before and changed nothing.` : ''),
    redHerrings: p.rollout ? [`a harmless ${peer} rollout ${p.rollout.before} min before`] : [],
    build(end) {
      const expiry = end - p.onset * MINUTE;
      const c = shapeShop(end, p.seed, { naming: p.naming, options: { workloads: p.workloads } });
      assemble(c, [p.caller, p.peer], { [p.caller]: caller });
      if (p.rollout) c.rollout(c.workload(peer), expiry - p.rollout.before * MINUTE, { version: p.rollout.version });
      c.workload(p.caller).effects = {
        errors: (t) => (t >= expiry ? { '502': p.ratio } : undefined),
        peerErrors: (t, _pod, x) => (x === peer && t >= expiry ? { tls_error: 1 } : undefined),
      };
      blackbox(c, [{ target: p.host, module: p.module, fails: (t) => t >= expiry, certExpiry: expiry }, ...p.probes]);
      return c;
    },
    rule: errorRule(w, p.caller),
    truth: {
      values: [
        [peer, p.host],
        ['certificate', 'cert'],
      ],
      series: new RegExp(`probe_ssl_earliest_cert_expiry|probe_success${w.clientSeries ? `|${w.clientSeries}` : ''}`),
    },
  });
}

export interface JobConnections extends ShapeBase {
  /** The application that uses the database (its peer `database`). */
  app: WorkloadRef;
  database: string;
  maxConnections: number;
  job: Omit<BatchJob, 'at' | 'cpu' | 'memoryMiB'> & { cores: number };
  ratio: number;
  /** Another CronJob's Job that ran and completed earlier, harmlessly. */
  earlier?: Omit<BatchJob, 'at' | 'cpu' | 'memoryMiB'> & { before: number };
  workloads?: string[];
}

export function jobConnections(p: JobConnections): Scenario {
  const app = nameOf(p.app);
  const spec = specOf(p.app);
  if (!spec.peers?.some((x) => x.peer === p.database)) throw new Error(`${app} does not call ${p.database}`);
  const w = writerOf(p.naming, app);
  return shaped(p, 'mechanism', 'database-saturation', undefined, {
    story:
      `A Job of the ${p.job.cronJob} CronJob starts and opens connection after connection to ${p.database} until it reaches max_connections (${p.maxConnections}); ` +
      `${app} cannot get connections and fails ${Math.round(p.ratio * 100)}% of its requests.`,
    redHerrings: p.earlier ? [`a Job of ${p.earlier.cronJob} that ran and completed ${p.earlier.before} min before`] : [],
    build(end) {
      const at = end - p.onset * MINUTE;
      const c = shapeShop(end, p.seed, { naming: p.naming, options: { workloads: p.workloads } });
      assemble(c, [p.app], {});
      const opened = (t: number): number => ramp(t, at, at + 3 * MINUTE);
      batchJob(c, { ...p.job, at, memoryMiB: 900, cpu: (t) => 0.1 + (p.job.cores - 0.1) * opened(t) });
      if (p.earlier)
        batchJob(c, {
          ...p.earlier,
          at: at - p.earlier.before * MINUTE,
          completes: at - p.earlier.before * MINUTE + 6 * MINUTE,
          memoryMiB: 300,
          cpu: () => 0.6,
        });
      postgres(c, p.database, { maxConnections: p.maxConnections, extraState: 'idle', extra: (t) => (p.maxConnections - 42) * opened(t) });
      const failing = (t: number): number => (t >= at + 2 * MINUTE ? p.ratio : 0);
      c.workload(app).effects = {
        errors: (t) => (failing(t) ? { '500': failing(t) } : undefined),
        latency: (t) => 1 + 3 * opened(t),
        peerErrors: (t, _pod, peer) => (peer === p.database && failing(t) ? { too_many_connections: failing(t) * 0.8 } : undefined),
      };
      return c;
    },
    rule: errorRule(w, app),
    truth: {
      values: [[p.job.cronJob]],
      series: new RegExp(`kube_job|kube_cronjob|kube_pod_owner|pg_stat_activity_count|pg_settings_max_connections|${p.job.cronJob}`),
    },
  });
}

export interface ConfigCrashLoop extends ShapeBase {
  caller: string;
  callee: WorkloadRef;
  calls?: { share: number; latency: number };
  configMap: string;
  /** Another ConfigMap edited earlier, harmlessly. */
  otherConfigMap: { name: string; before: number };
  /** Share of the caller's requests failing while the callee is down. */
  ratio: number;
  workloads?: string[];
}

export function configCrashLoop(p: ConfigCrashLoop): Scenario {
  const callee = nameOf(p.callee);
  const caller = withPeer(WORKLOADS[p.caller], callee, p.calls?.share ?? 1, p.calls?.latency ?? 0.02);
  const w = writerOf(p.naming, p.caller);
  return shaped(p, 'mechanism', 'configuration', undefined, {
    story:
      `An edit of the ${p.configMap} ConfigMap: ${callee}, which reloads it, exits on the new configuration and crash loops (no rollout, no new version); ` +
      `${p.caller}'s calls to it are refused and ${p.caller} pages. The ${p.otherConfigMap.name} ConfigMap was edited ${p.otherConfigMap.before} min before, harmlessly.`,
    redHerrings: [`the ${p.otherConfigMap.name} ConfigMap edited ${p.otherConfigMap.before} min before`],
    build(end) {
      const at = end - p.onset * MINUTE;
      const c = shapeShop(end, p.seed, { naming: p.naming, options: { workloads: p.workloads } });
      assemble(c, [p.caller, p.callee], { [p.caller]: caller });
      configMap(c, 'shop', p.configMap, [at]);
      configMap(c, 'shop', p.otherConfigMap.name, [at - p.otherConfigMap.before * MINUTE]);
      const target = c.workload(callee);
      target.pods.forEach((pod, k) => c.crashLoop(pod, at + 12 + 7 * k, 'Error', 3));
      const down = (t: number): number => target.pods.filter((pod) => alive(pod, t) && !running(pod, t)).length / target.pods.length;
      c.workload(p.caller).effects = {
        errors: (t) => (down(t) > 0 ? { '503': p.ratio * down(t) } : undefined),
        peerErrors: (t, _pod, x) => (x === callee && down(t) > 0 ? { connection_refused: down(t) } : undefined),
      };
      return c;
    },
    rule: errorRule(w, p.caller),
    otherRules: [KUBE_POD_CRASH_LOOPING],
    truth: {
      values: [[p.configMap]],
      series: /kube_configmap|last_terminated_reason|kube_pod_container_status_waiting_reason|kube_pod_container_status_restarts_total/,
    },
  });
}

export interface SlowDownstream extends ShapeBase {
  caller: string;
  downstream: WorkloadRef;
  calls?: { share: number; latency: number };
  /** p99 (and median) latency multiplier of the downstream: fifty-fold. */
  slow: number;
  /** The downstream's own failure ratio once slow (a little above its usual 0.08%). */
  downstreamErrors: number;
  /** The share of the caller's calls that time out, and of its requests that fail with them. */
  timeouts: number;
  ratio: number;
  workloads?: string[];
}

export function slowDownstream(p: SlowDownstream): Scenario {
  const ds = nameOf(p.downstream);
  const caller = withPeer(WORKLOADS[p.caller], ds, p.calls?.share ?? 1, p.calls?.latency ?? 0.02);
  const w = writerOf(p.naming, p.caller);
  return shaped(p, 'mechanism', 'downstream-latency', undefined, {
    story:
      `${ds}'s p99 latency grows ${p.slow}-fold while its own failure ratio rises only a little (to ${(p.downstreamErrors * 100).toFixed(1)}%); ` +
      `${p.caller}'s calls to it time out and ${Math.round(p.ratio * 100)}% of ${p.caller}'s requests fail. The cause is ${ds}'s latency, not its errors.`,
    redHerrings: [`${ds}'s failure ratio, up a little`],
    build(end) {
      const at = end - p.onset * MINUTE;
      const c = shapeShop(end, p.seed, { naming: p.naming, options: { workloads: p.workloads } });
      assemble(c, [p.caller, p.downstream], { [p.caller]: caller });
      const slow = (t: number): number => 1 + (p.slow - 1) * ramp(t, at, at + 2 * MINUTE);
      c.workload(ds).effects = { latency: slow, errors: (t) => (t >= at ? { '500': p.downstreamErrors } : undefined) };
      const timedOut = (t: number): number => p.timeouts * ramp(t, at + MINUTE, at + 2 * MINUTE);
      c.workload(p.caller).effects = slowCalls(caller, ds, (t) => Math.min(slow(t), 30), {
        errors: (t) => (timedOut(t) > 0 ? { '504': (p.ratio * timedOut(t)) / p.timeouts } : undefined),
        peerErrors: (t, _pod, x) => (x === ds && timedOut(t) > 0 ? { timeout: timedOut(t), '500': p.downstreamErrors } : undefined),
      });
      return c;
    },
    rule: errorRule(w, p.caller),
    truth: {
      values: [[ds], ['latency', 'slow']],
      series: new RegExp(`${ds}${w.clientSeries ? `|${w.clientSeries}` : ''}`),
    },
  });
}

/** The suite a shapes scenario of `split` belongs to. */
export const shapesSuite = (split: 'dev' | 'holdout'): 'shapes-dev' | 'shapes-holdout' => (split === 'dev' ? 'shapes-dev' : 'shapes-holdout');
