import { Cluster, Effects, Pod, WorkloadSpec } from './cluster';
import type { Convention, Missing } from './conventions';
import type { DatastoreCondition } from './datastore-scenarios';
import { configMap, consumersOf, hikari, NODES, postgres, probes, rabbitmq, ramp, redis, shop, ShopOptions, volume } from './shop';

/** An alerting rule as Prometheus loads it. */
export interface Rule {
  alert: string;
  expr: string;
  /** The `for` duration in seconds. */
  forSeconds: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

export type Family =
  | 'rollout'
  | 'dependency-down'
  | 'memory-limit'
  | 'filesystem-full'
  | 'traffic-surge'
  | 'configuration'
  | 'scaled-to-zero'
  | 'downstream-latency'
  | 'cpu-throttling'
  | 'node'
  | 'certificate'
  | 'database-saturation'
  | 'liveness-probe'
  | 'noisy-neighbour';

export interface Scenario {
  name: string;
  /** What kind of cause (the datastore scenarios add locks held in a database, a family no convention template makes). */
  family: Family | 'database-locks';
  /** What happened, as a postmortem would say it. */
  story: string;
  redHerrings: string[];
  seed: number;
  /** Small enough for `npm test`. */
  fast?: boolean;
  /**
   * Where a scenario outside the own suite belongs: `dev` may be tuned on, `holdout` is only ever
   * looked at in totals. The own suite's scenarios have none.
   */
  split?: 'dev' | 'holdout';
  /** How the shop names its workloads' telemetry (eval/conventions.ts); the generator's default when absent. */
  convention?: Convention;
  /** Parts of the usual telemetry the scenario's cluster lacks. */
  missing?: Missing[];
  /** The telemetry shape a scenario of the shapes suites exercises (eval/shapes.ts); none outside them. */
  shape?: string;
  /** How a shapes scenario's telemetry is named and labelled, beyond its convention (e.g. `kube-prometheus + micrometer`). */
  labelling?: string;
  /**
   * The cluster with its faults; three hours of data ending at `end` (Unix seconds). A datastore
   * scenario's onset follows `conditionAt`, when its condition began on the real server.
   */
  build(end: number, conditionAt?: number): Cluster;
  /** A condition made on a real datastore server, that the metrics do not show (eval/datastore-scenarios.ts). */
  datastore?: DatastoreCondition;
  /** The rule that pages; its alert opens the incident investigated. */
  rule: Rule;
  /** Other rules; those that fire in the same Alertmanager group (namespace) join the incident. */
  otherRules?: Rule[];
  /**
   * Changes the deploy and configuration tools reported (in this service's generic change-event
   * format, `timestamp` as Unix seconds), delivered to a changes integration before the investigation.
   */
  changes?(end: number): ReportedChange[];
  truth: {
    /** Every entry must be named by the first cause (any one of its alternatives, case-insensitive). */
    values: string[][];
    /** A query of the cause's series matches this. */
    series: RegExp;
  };
}

export const MINUTE = 60;

/** A change as a scenario's tools report it (the generic change-event format, with its time in Unix seconds). */
export interface ReportedChange {
  id: string;
  summary: string;
  kind: 'deploy' | 'config' | 'feature_flag' | 'migration' | 'infrastructure';
  service: string;
  at: number;
  author?: string;
  versionBefore?: string;
  versionAfter?: string;
}

const errorRatio = (job: string, threshold = 0.05): string =>
  `sum by (namespace, job) (rate(http_requests_total{job="${job}", code=~"5.."}[5m])) / sum by (namespace, job) (rate(http_requests_total{job="${job}"}[5m])) > ${threshold}`;

const latencyP99 = (job: string, threshold: number): string =>
  `histogram_quantile(0.99, sum by (namespace, job, le) (rate(http_request_duration_seconds_bucket{job="${job}"}[5m]))) > ${threshold}`;

const errorRule = (alert: string, job: string, threshold = 0.05, forSeconds = 5 * MINUTE): Rule => ({
  alert,
  expr: errorRatio(job, threshold),
  forSeconds,
  labels: { severity: 'critical' },
  annotations: { summary: `${job} is failing requests`, description: `{{ $value | humanizePercentage }} of ${job}'s requests fail.` },
});

const latencyRule = (alert: string, job: string, threshold: number): Rule => ({
  alert,
  expr: latencyP99(job, threshold),
  forSeconds: 5 * MINUTE,
  labels: { severity: 'warning' },
  annotations: { summary: `${job} answers slowly`, description: `The 99th percentile latency of ${job} is {{ $value }}s.` },
});

/** kube-prometheus's CPUThrottlingHigh: a chronic alert on a workload that always runs near its CPU limit. */
export const CPU_THROTTLING_HIGH: Rule = {
  alert: 'CPUThrottlingHigh',
  expr: 'sum by (container, pod, namespace) (increase(container_cpu_cfs_throttled_periods_total{container!=""}[5m])) / sum by (container, pod, namespace) (increase(container_cpu_cfs_periods_total[5m])) > (25 / 100)',
  forSeconds: 15 * MINUTE,
  labels: { severity: 'info' },
  annotations: { summary: 'Processes experience elevated CPU throttling.' },
};

/** A frontend target that flaps (see flappingFrontend). */
const FRONTEND_TARGET_DOWN: Rule = {
  alert: 'FrontendTargetDown',
  expr: 'up{job="frontend"} == 0',
  forSeconds: MINUTE,
  labels: { severity: 'warning' },
  annotations: { summary: 'A frontend target is down.' },
};

export const KUBE_POD_CRASH_LOOPING: Rule = {
  alert: 'KubePodCrashLooping',
  expr: 'max_over_time(kube_pod_container_status_waiting_reason{reason="CrashLoopBackOff", job="kube-state-metrics", namespace="shop"}[5m]) >= 1',
  forSeconds: 5 * MINUTE,
  labels: { severity: 'warning' },
  annotations: { summary: 'Pod is crash looping.' },
};

/** The chronic red herring: recommendations runs at 95% of its CPU limit all day. */
export const chronicThrottling: Pick<ShopOptions, 'specs'> = { specs: { recommendations: { cpu: 0.47, cpuLimit: 0.5 } } };

/**
 * A frontend pod whose readiness flaps: down seven minutes in every twenty-five, the last time from
 * five minutes before `around` to two after, so its alert fires just before the page and is still
 * firing when the page joins the group.
 */
export const flappingFrontend = (around: number): Effects => ({
  down: (t: number, pod: Pod) => pod.workload.pods[0] === pod && around + 2 * MINUTE - t >= 0 && (around + 2 * MINUTE - t) % (25 * MINUTE) < 7 * MINUTE,
});

export const KUBE_POD_RESTARTING_OFTEN: Rule = {
  alert: 'KubePodRestartingOften',
  expr: 'increase(kube_pod_container_status_restarts_total{job="kube-state-metrics", namespace="shop"}[15m]) >= 2',
  forSeconds: 0,
  labels: { severity: 'warning' },
  annotations: { summary: 'Pod {{ $labels.pod }} restarts often.' },
};

/** A batch workload of one pod on `node`, using `cpu(t)` cores (its limit is the node's four cores). */
export const batch = (name: string, version: string, node: string, cpu: (t: number) => number): [WorkloadSpec, Effects, { nodes: string[] }] => [
  { name, replicas: 1, version, rps: 0, routes: [], worker: true, memoryMiB: 700, memoryLimitMiB: 2048, cpu: 0.1, cpuLimit: 4 },
  { cpu },
  { nodes: [node] },
];

/** Errors of a workload's requests while a peer fails: each failed call fails the request with `code`. */
export const failsWithPeer = (peer: string, from: number, code: string, ratio: number, outcome: string): Effects =>
  ({
    errors: (t) => (t >= from ? { [code]: ratio } : undefined),
    peerErrors: (t, _pod, p) => (p === peer && t >= from ? { [outcome]: 1 } : undefined),
  }) satisfies Effects;

export const SCENARIOS: Scenario[] = [
  {
    name: 'checkout-bad-version',
    family: 'rollout',
    story: 'checkout 2.15.0 fails a tenth of POST /api/checkout requests from its rollout on.',
    redHerrings: [],
    seed: 101,
    fast: true,
    build(end) {
      const c = shop(end, this.seed, { workloads: ['checkout', 'payments', 'inventory'] });
      const checkout = c.workload('checkout');
      const at = c.ago(38);
      const fresh = c.rollout(checkout, at, { version: '2.15.0' });
      checkout.effects = { errors: (t, pod, route) => (fresh.includes(pod) && route === '/api/checkout' ? { '500': 0.11 } : undefined) };
      return c;
    },
    rule: errorRule('CheckoutHighErrorRate', 'checkout'),
    truth: { values: [['2.15.0']], series: /_build_info|kube_pod_container_info|kube_pod_info/ },
  },
  {
    name: 'search-slow-version-chronic-alert',
    family: 'rollout',
    story: 'search 3.3.0 answers /api/search four times slower; CPUThrottlingHigh has fired for hours on recommendations in the same namespace.',
    redHerrings: ['chronic CPUThrottlingHigh in the same group, delivered first'],
    seed: 102,
    build(end) {
      const c = shop(end, this.seed, chronicThrottling);
      const search = c.workload('search');
      const fresh = c.rollout(search, c.ago(40), { version: '3.3.0' });
      search.effects = { latency: (_t, pod, route) => (fresh.includes(pod) && route === '/api/search' ? 4.5 : 1) };
      return c;
    },
    rule: latencyRule('SearchLatencyHigh', 'search', 0.5),
    otherRules: [CPU_THROTTLING_HIGH],
    truth: { values: [['3.3.0']], series: /_build_info|kube_pod_container_info|kube_pod_info/ },
  },
  {
    name: 'inventory-down-harmless-rollout',
    family: 'dependency-down',
    story:
      'inventory stops answering (its pods fail scrapes and probes); checkout fails the calls with connection refused. checkout 2.14.4 rolled out eight minutes earlier and changed nothing.',
    redHerrings: ['a checkout rollout that changed nothing, 8 min before'],
    seed: 103,
    fast: true,
    build(end) {
      const c = shop(end, this.seed, { workloads: ['checkout', 'payments', 'inventory'] });
      const at = c.ago(36);
      c.rollout(c.workload('checkout'), c.ago(44), { version: '2.14.4' });
      c.workload('inventory').effects = { down: (t) => t >= at };
      c.workload('checkout').effects = failsWithPeer('inventory', at, '503', 0.62, 'connection_refused');
      probes(c, [{ url: 'http://inventory.shop.svc:8080/healthz', fails: (t) => t >= at }, { url: 'https://shop.example.com' }]);
      return c;
    },
    rule: errorRule('CheckoutHighErrorRate', 'checkout'),
    truth: { values: [['inventory']], series: /inventory|probe_success|http_client_requests_total/ },
  },
  {
    name: 'orders-memory-leak-oom',
    family: 'memory-limit',
    story: "orders' working set grows to its 1 GiB limit after a traffic mix change; its containers are OOMKilled every few minutes.",
    redHerrings: [],
    seed: 104,
    build(end) {
      const c = shop(end, this.seed);
      const orders = c.workload('orders');
      const leakFrom = c.ago(75);
      const MiB = 1024 * 1024;
      const usual = 420 * MiB;
      const limit = 1024 * MiB;
      // The first climb to the limit takes 34 minutes; after a restart the backlog refills it five times faster.
      const first = (limit - usual) / (34 * MINUTE);
      const climbs = new Map<Pod, number[]>();
      for (const pod of orders.pods) {
        const jitter = c.random(`oom:${pod.name}`);
        const from = [leakFrom];
        for (;;) {
          const speed = from.length > 1 ? first * 5 : first;
          const killed = from[from.length - 1] + (limit - usual) / speed + jitter.between(0, 40);
          if (killed > end + 600) break;
          c.kill(pod, killed, 'OOMKilled', 6);
          from.push(pod.starts[pod.starts.length - 1]);
        }
        climbs.set(pod, from);
      }
      orders.effects = {
        memory: (t, pod) => {
          const from = climbs
            .get(pod)!
            .filter((s) => s <= t)
            .pop();
          return from === undefined ? undefined : usual + (t - from) * (from === leakFrom ? first : first * 5);
        },
      };
      return c;
    },
    rule: {
      alert: 'KubePodRestartingOften',
      expr: 'increase(kube_pod_container_status_restarts_total{job="kube-state-metrics", namespace="shop"}[15m]) >= 2',
      forSeconds: 0,
      labels: { severity: 'warning' },
      annotations: { summary: 'Pod {{ $labels.pod }} restarts often.' },
    },
    truth: {
      values: [['OOMKilled', 'out of memory', 'memory limit', 'OOM']],
      series: /container_memory_working_set_bytes|last_terminated_reason|container_spec_memory_limit_bytes|kube_pod_container_resource_limits/,
    },
  },
  {
    name: 'media-disk-full-flapping-alert',
    family: 'filesystem-full',
    story:
      "The local volume /var/lib/media on ip-10-0-2-34 fills up; media's uploads fail with 507. A frontend target that flaps was paged first in the same group.",
    redHerrings: ['an unrelated flapping alert in the same group, delivered first'],
    seed: 105,
    build(end) {
      const node = NODES[1];
      const full = end - 37 * MINUTE;
      const size = 200 * 1024 ** 3;
      const media: WorkloadSpec = {
        name: 'media',
        replicas: 1,
        version: '1.4.2',
        rps: 6,
        routes: [
          { method: 'POST', route: '/api/uploads', share: 0.4, latency: 0.35 },
          { method: 'GET', route: '/api/media/{id}', share: 0.6, latency: 0.03 },
        ],
        memoryMiB: 300,
        memoryLimitMiB: 1024,
        cpu: 0.2,
        cpuLimit: 1,
      };
      const c = shop(end, this.seed, {
        effects: { frontend: flappingFrontend(end - 32 * MINUTE) },
        workloads: ['frontend', 'cart', 'checkout', 'payments', 'inventory', 'search'],
      });
      c.node(node).mounts['/var/lib/media'] = size;
      // A steady 3 MB a minute, and a backlog re-upload filling the last 2% over the hours before.
      c.node(node).effects.filesystemFree = (t, mount) =>
        mount === '/var/lib/media' ? (t >= full ? 0 : size * 0.02 * (1 - ramp(t, end - 150 * MINUTE, full)) + (3e6 * Math.max(0, full - t)) / 60) : undefined;
      c.addWorkload(media, { errors: (t, _pod, route) => (t >= full && route === '/api/uploads' ? { '507': 0.97 } : undefined) }, { nodes: [node] });
      return c;
    },
    rule: {
      ...errorRule('MediaUploadsFailing', 'media', 0.1),
      expr: 'sum by (namespace, job) (rate(http_requests_total{job="media", route="/api/uploads", code=~"5.."}[5m])) / sum by (namespace, job) (rate(http_requests_total{job="media", route="/api/uploads"}[5m])) > 0.1',
    },
    otherRules: [FRONTEND_TARGET_DOWN],
    truth: { values: [['ip-10-0-2-34', '/var/lib/media']], series: /node_filesystem/ },
  },
  {
    name: 'search-traffic-surge',
    family: 'traffic-surge',
    story: 'A crawler multiplies /api/search traffic by six; search saturates its CPU and its latency climbs. frontend rolled out 5.2.1 shortly before.',
    redHerrings: ['a frontend rollout (another service) shortly before'],
    seed: 106,
    build(end) {
      const at = end - 39 * MINUTE;
      const load = (t: number, route: string): number => (route === '/api/search' ? 1 + 5 * ramp(t, at, at + 4 * MINUTE) : 1);
      const c = shop(end, this.seed, {
        effects: {
          search: {
            load,
            cpu: (t) => 0.5 * (0.15 + 0.85 * load(t, '/api/search')) * c.wave(t, 'search'),
            latency: (t, _pod, route) => (route === '/api/search' ? 1 / Math.max(0.08, 1 - 0.16 * load(t, '/api/search')) : 1),
          },
        },
      });
      c.rollout(c.workload('frontend'), at - 5 * MINUTE, { version: '5.2.1' });
      return c;
    },
    rule: latencyRule('SearchLatencyHigh', 'search', 0.5),
    truth: { values: [['/api/search']], series: /http_requests_total/ },
  },
  {
    name: 'cart-config-crashloop',
    family: 'configuration',
    story: 'An edit of the cart-config ConfigMap rolls cart (same version); the new pod exits at start and crash loops, stalling the rollout.',
    redHerrings: [],
    seed: 107,
    fast: true,
    build(end) {
      const c = shop(end, this.seed, { workloads: ['frontend', 'cart'] });
      const at = c.ago(38);
      configMap(c, 'shop', 'cart-config', [at - 20]);
      configMap(c, 'shop', 'frontend-config', []);
      const [broken] = c.rollout(c.workload('cart'), at, { stalled: true });
      c.crashLoop(broken, at + 6, 'Error', 3);
      return c;
    },
    rule: KUBE_POD_CRASH_LOOPING,
    truth: { values: [['cart-config']], series: /kube_configmap|kube_deployment_metadata_generation|last_terminated_reason/ },
  },
  {
    name: 'orders-worker-scaled-to-zero',
    family: 'scaled-to-zero',
    story: 'orders-worker is scaled to zero; the orders queue loses its consumers and its oldest message ages. A frontend target that flaps was paged first.',
    redHerrings: ['an unrelated flapping alert'],
    seed: 108,
    build(end) {
      const c = shop(end, this.seed, { effects: { frontend: flappingFrontend(end - 30 * MINUTE) } });
      c.scale(c.workload('orders-worker'), c.ago(44), 0);
      rabbitmq(c, 'orders', consumersOf(c, 'orders-worker'), 4);
      rabbitmq(c, 'emails', () => 2, 2);
      return c;
    },
    rule: {
      alert: 'QueueMessagesStale',
      expr: 'max by (namespace, job, queue) (time() - rabbitmq_queue_head_message_timestamp) > 600',
      forSeconds: 5 * MINUTE,
      labels: { severity: 'critical' },
      annotations: { summary: 'Messages in {{ $labels.queue }} wait for more than ten minutes.' },
    },
    otherRules: [FRONTEND_TARGET_DOWN],
    truth: { values: [['orders-worker']], series: /kube_deployment_status_replicas|kube_deployment_spec_replicas|rabbitmq_queue_consumers/ },
  },
  {
    name: 'checkout-slow-partner-bank',
    family: 'downstream-latency',
    story:
      "partner-bank answers payments ten times slower; payments and then checkout slow down. A batch job saturates one of checkout's nodes at the same time.",
    redHerrings: ['a noisy neighbour on a checkout node'],
    seed: 109,
    build(end) {
      const at = end - 37 * MINUTE;
      const slow = (t: number): number => 1 + 11 * ramp(t, at, at + 2 * MINUTE);
      const c = shop(end, this.seed, {
        effects: {
          payments: { peerLatency: (t, peer) => (peer === 'partner-bank' ? slow(t) : 1), latency: (t) => 1 + (slow(t) - 1) * 0.85 },
          checkout: {
            peerLatency: (t, peer) => (peer === 'payments' ? 1 + (slow(t) - 1) * 0.8 : 1),
            latency: (t, _p, route) => (route === '/api/checkout' ? 1 + (slow(t) - 1) * 0.55 : 1),
          },
        },
      });
      c.addWorkload(
        {
          name: 'reports-batch',
          replicas: 1,
          version: '0.3.1',
          rps: 0,
          routes: [],
          worker: true,
          memoryMiB: 1500,
          memoryLimitMiB: 4096,
          cpu: 0.1,
          cpuLimit: 4,
        },
        { cpu: (t) => (t >= at - 3 * MINUTE ? 3.6 : 0.1) },
        { nodes: [c.workload('checkout').pods[0].node.name] },
      );
      return c;
    },
    rule: latencyRule('CheckoutLatencyHigh', 'checkout', 1),
    truth: { values: [['partner-bank']], series: /http_client_request_duration_seconds|peer/ },
  },
  {
    name: 'recommendations-cpu-throttled',
    family: 'cpu-throttling',
    story: "A resources-only rollout lowers recommendations' CPU limit from 1 to 0.3 cores (same version); its containers are throttled and latency climbs.",
    redHerrings: ['the rollout looks like a new build'],
    seed: 110,
    build(end) {
      const c = shop(end, this.seed);
      const w = c.workload('recommendations');
      const at = c.ago(40);
      const fresh = c.rollout(w, at, { cpuLimit: 0.3 });
      w.effects = {
        latency: (t, pod) => {
          if (!fresh.includes(pod)) return 1;
          const demand = 0.3 * c.wave(t, 'recommendations') * 1.08;
          return 1 + 6 * Math.max(0, demand / 0.3 - 0.6);
        },
      };
      return c;
    },
    rule: latencyRule('RecommendationsLatencyHigh', 'recommendations', 0.4),
    truth: {
      values: [['throttl', 'cpu limit', 'cfs', 'cpu quota']],
      series: /container_cpu_cfs_throttled|kube_pod_container_resource_limits|container_spec_cpu_quota/,
    },
  },
  {
    name: 'node-not-ready',
    family: 'node',
    story:
      "ip-10-0-3-41 stops reporting (NotReady); the cart pod on it no longer answers and frontend's calls to cart time out until it is replaced elsewhere.",
    redHerrings: ['a chronic CPUThrottlingHigh in the same group'],
    seed: 111,
    build(end) {
      const node = NODES[2];
      const at = end - 36 * MINUTE;
      const c = shop(end, this.seed, chronicThrottling);
      c.node(node).effects = { ready: (t) => t < at, down: (t) => t >= at };
      const cart = c.workload('cart');
      const stranded = cart.pods.filter((p) => p.node.name === node);
      cart.effects = { down: (t, pod) => stranded.includes(pod) && t >= at };
      c.workload('frontend').effects = {
        errors: (t) => (t >= at ? { '502': 0.5 * (stranded.length / cart.pods.length) * 0.9 } : undefined),
        peerErrors: (t, _pod, peer) => (peer === 'cart' && t >= at ? { timeout: stranded.length / cart.pods.length } : undefined),
      };
      return c;
    },
    rule: errorRule('FrontendHighErrorRate', 'frontend', 0.05, 3 * MINUTE),
    otherRules: [CPU_THROTTLING_HIGH],
    truth: { values: [['ip-10-0-3-41']], series: /kube_node_status_condition|node_|kube_pod_info/ },
  },
  {
    name: 'partner-bank-certificate-expired',
    family: 'certificate',
    story:
      "partner-bank's TLS certificate expires; every payments call to it fails the handshake. CPUThrottlingHigh has fired for hours in the same namespace.",
    redHerrings: ['a chronic CPUThrottlingHigh in the same group'],
    seed: 112,
    fast: true,
    build(end) {
      const expiry = end - 35 * MINUTE;
      const c = shop(end, this.seed, { ...chronicThrottling, workloads: ['checkout', 'payments', 'recommendations'] });
      c.workload('payments').effects = failsWithPeer('partner-bank', expiry, '502', 0.97, 'tls_error');
      probes(c, [{ url: 'https://api.partner-bank.example/health', fails: (t) => t >= expiry, certExpiry: expiry }, { url: 'https://shop.example.com' }]);
      return c;
    },
    rule: errorRule('PaymentsHighErrorRate', 'payments'),
    otherRules: [CPU_THROTTLING_HIGH],
    truth: {
      values: [
        ['partner-bank', 'api.partner-bank.example'],
        ['certificate', 'cert', 'ssl', 'tls'],
      ],
      series: /probe_ssl_earliest_cert_expiry|probe_success|http_client_requests_total/,
    },
  },
  {
    name: 'ordersdb-connections-exhausted',
    family: 'database-saturation',
    story:
      'A new reports export holds transactions open on ordersdb until connections reach max_connections; orders fails to get connections. orders rolled out 2.3.1 six minutes earlier and changed nothing.',
    redHerrings: ['an orders rollout that changed nothing, 6 min before'],
    seed: 113,
    build(end) {
      const at = end - 40 * MINUTE;
      const c = shop(end, this.seed);
      c.rollout(c.workload('orders'), at - 6 * MINUTE, { version: '2.3.1' });
      const held = (t: number): number => 156 * ramp(t, at - 4 * MINUTE, at + MINUTE);
      postgres(c, 'ordersdb', { maxConnections: 200, extra: held });
      const failing = (t: number): number => (t >= at ? 0.35 : 0);
      c.workload('orders').effects = {
        errors: (t) => (failing(t) ? { '500': failing(t) } : undefined),
        latency: (t) => 1 + 4 * ramp(t, at - MINUTE, at + MINUTE),
        peerErrors: (t, _pod, peer) => (peer === 'ordersdb' && failing(t) ? { too_many_connections: failing(t) * 0.7 } : undefined),
      };
      return c;
    },
    rule: errorRule('OrdersHighErrorRate', 'orders'),
    truth: { values: [['ordersdb', 'orders database'], ['connection']], series: /pg_stat_activity_count|pg_settings_max_connections|ordersdb/ },
  },
  {
    name: 'sessions-redis-down-flapping-alert',
    family: 'dependency-down',
    story:
      'sessions-redis goes down (redis_up 0, its exporter still up); cart fails its requests. A frontend target that flaps was paged first in the same group.',
    redHerrings: ['an unrelated flapping alert in the same group, delivered first'],
    seed: 114,
    build(end) {
      const at = end - 36 * MINUTE;
      const c = shop(end, this.seed, {
        workloads: ['frontend', 'cart', 'search', 'recommendations'],
        effects: { frontend: flappingFrontend(end - 31 * MINUTE), cart: failsWithPeer('sessions-redis', at, '500', 0.9, 'connection_refused') },
      });
      redis(c, 'sessions-redis', (t) => t >= at);
      return c;
    },
    rule: errorRule('CartHighErrorRate', 'cart'),
    otherRules: [FRONTEND_TARGET_DOWN],
    truth: { values: [['sessions-redis']], series: /redis_up|sessions-redis/ },
  },
  {
    name: 'payments-bad-version-noisy-neighbour',
    family: 'rollout',
    story: 'payments 1.9.0 fails a fifth of its requests; a batch job saturates the CPU of one payments node from a few minutes before.',
    redHerrings: ['a noisy neighbour on a payments node'],
    seed: 115,
    build(end) {
      const c = shop(end, this.seed);
      const payments = c.workload('payments');
      const at = c.ago(36);
      c.addWorkload(
        {
          name: 'ledger-reconcile',
          replicas: 1,
          version: '7.0.2',
          rps: 0,
          routes: [],
          worker: true,
          memoryMiB: 900,
          memoryLimitMiB: 2048,
          cpu: 0.1,
          cpuLimit: 4,
        },
        { cpu: (t) => (t >= at - 4 * MINUTE ? 3.7 : 0.1) },
        { nodes: [payments.pods[0].node.name] },
      );
      const fresh = c.rollout(payments, at, { version: '1.9.0' });
      payments.effects = { errors: (_t, pod) => (fresh.includes(pod) ? { '500': 0.2 } : undefined) };
      return c;
    },
    rule: errorRule('PaymentsHighErrorRate', 'payments'),
    truth: { values: [['1.9.0']], series: /_build_info|kube_pod_container_info|kube_pod_info/ },
  },
  {
    name: 'checkout-memory-limit-lowered',
    family: 'memory-limit',
    story:
      "A resources-only rollout lowers checkout's memory limit from 768 to 320 MiB (same version); the new pods are OOMKilled as their caches warm and crash loop.",
    redHerrings: ['the rollout looks like a new build'],
    seed: 116,
    build(end) {
      const c = shop(end, this.seed);
      const checkout = c.workload('checkout');
      const at = c.ago(40);
      const fresh = c.rollout(checkout, at, { memoryLimitMiB: 320 });
      // Each new container warms its caches past 320 MiB within about two minutes.
      for (const pod of fresh) c.crashLoop(pod, pod.from + 110, 'OOMKilled', 110);
      checkout.effects = {
        memory: (t, pod) =>
          fresh.includes(pod) ? 300 * 1024 * 1024 * Math.min(1.2, 0.55 + (t - Math.max(...pod.starts.filter((s) => s <= t))) / 240) : undefined,
      };
      return c;
    },
    rule: KUBE_POD_CRASH_LOOPING,
    truth: {
      values: [['OOMKilled', 'out of memory', 'memory limit', 'OOM']],
      series: /container_memory_working_set_bytes|last_terminated_reason|container_spec_memory_limit_bytes|kube_pod_container_resource_limits/,
    },
  },
  {
    name: 'ledger-volume-full-chronic-mount',
    family: 'filesystem-full',
    story:
      "ledger's data volume (claim data-ledger) fills up; its writes fail with 507. On the same node a log archive mount has been full for hours and changes nothing.",
    redHerrings: ['a filesystem on the same node full for hours'],
    seed: 117,
    build(end) {
      const node = NODES[3];
      const full = end - 36 * MINUTE;
      const capacity = 50 * 1024 ** 3;
      const c = shop(end, this.seed, { workloads: ['frontend', 'checkout', 'payments'] });
      c.node(node).mounts['/var/log/archive'] = 20 * 1024 ** 3;
      c.node(node).effects.filesystemFree = (_t, mount) => (mount === '/var/log/archive' ? 0 : undefined);
      const ledger = c.addWorkload(
        {
          name: 'ledger',
          replicas: 1,
          version: '3.1.0',
          rps: 10,
          routes: [
            { method: 'POST', route: '/api/ledger/entries', share: 0.6, latency: 0.04 },
            { method: 'GET', route: '/api/ledger/{id}', share: 0.4, latency: 0.01 },
          ],
          memoryMiB: 400,
          memoryLimitMiB: 1024,
          cpu: 0.2,
          cpuLimit: 1,
        },
        { errors: (t, _pod, route) => (t >= full && route === '/api/ledger/entries' ? { '507': 0.95 } : undefined) },
        { nodes: [node] },
      );
      // The last 4% of the volume filled over the hours before, by a steady 2 MB a minute and a bulk import.
      volume(c, ledger.pods[0], 'data-ledger', capacity, (t) =>
        t >= full ? 0 : capacity * 0.04 * (1 - ramp(t, end - 170 * MINUTE, full)) + (2e6 * Math.max(0, full - t)) / 60,
      );
      return c;
    },
    rule: {
      ...errorRule('LedgerWritesFailing', 'ledger', 0.1),
      expr: 'sum by (namespace, job) (rate(http_requests_total{job="ledger", route="/api/ledger/entries", code=~"5.."}[5m])) / sum by (namespace, job) (rate(http_requests_total{job="ledger", route="/api/ledger/entries"}[5m])) > 0.1',
    },
    truth: { values: [['data-ledger']], series: /kubelet_volume_stats/ },
  },
  {
    name: 'accounts-pool-exhausted-harmless-rollout',
    family: 'database-saturation',
    story:
      'A batch endpoint of accounts holds its HikariCP connections; the pool (10) runs dry and requests time out waiting for one. The database itself is fine. accounts 1.4.1 rolled out nine minutes earlier and changed nothing.',
    redHerrings: ['an accounts rollout that changed nothing, 9 min before'],
    seed: 118,
    build(end) {
      const at = end - 38 * MINUTE;
      const c = shop(end, this.seed, { workloads: ['frontend', 'checkout', 'payments'] });
      const accounts = c.addWorkload({
        name: 'accounts',
        replicas: 2,
        version: '1.4.0',
        rps: 30,
        routes: [
          { method: 'POST', route: '/api/accounts/transfer', share: 0.3, latency: 0.05 },
          { method: 'GET', route: '/api/accounts/{id}', share: 0.7, latency: 0.015 },
        ],
        peers: [{ peer: 'accountsdb', share: 2, latency: 0.003 }],
        memoryMiB: 350,
        memoryLimitMiB: 1024,
        cpu: 0.25,
        cpuLimit: 1,
      });
      c.rollout(accounts, at - 9 * MINUTE, { version: '1.4.1' });
      const dry = (t: number): number => ramp(t, at - 2 * MINUTE, at);
      accounts.effects = {
        errors: (t) => (t >= at ? { '500': 0.3 } : undefined),
        latency: (t) => 1 + 20 * dry(t),
      };
      postgres(c, 'accountsdb', { maxConnections: 300 });
      hikari(
        c,
        'accounts',
        'HikariPool-1',
        10,
        (t) => 3 * c.wave(t, 'accounts') + 7 * dry(t),
        (t) => 30 * dry(t),
      );
      return c;
    },
    rule: errorRule('AccountsHighErrorRate', 'accounts'),
    truth: { values: [['HikariPool-1'], ['pool']], series: /hikaricp_connections/ },
  },
  {
    name: 'cart-liveness-slow-redis',
    family: 'liveness-probe',
    story:
      "sessions-redis slows to seconds per command; cart's liveness probe, which pings Redis, times out and the kubelet restarts cart's containers about every minute. CPUThrottlingHigh has fired for hours in the same namespace.",
    redHerrings: ['a chronic CPUThrottlingHigh in the same group'],
    seed: 119,
    fast: true,
    build(end) {
      const at = end - 38 * MINUTE;
      const c = shop(end, this.seed, { ...chronicThrottling, workloads: ['frontend', 'cart', 'search', 'recommendations'] });
      const slow = (t: number): number => 1 + 999 * ramp(t, at, at + MINUTE);
      redis(c, 'sessions-redis');
      const cart = c.workload('cart');
      cart.effects = { peerLatency: (t, peer) => (peer === 'sessions-redis' ? slow(t) : 1), latency: (t) => 1 + 20 * ramp(t, at, at + MINUTE) };
      // Once a ping takes longer than the probe's one-second timeout.
      for (const pod of cart.pods) c.livenessKills(pod, at + 50, () => true);
      return c;
    },
    rule: KUBE_POD_RESTARTING_OFTEN,
    otherRules: [CPU_THROTTLING_HIGH],
    truth: { values: [['sessions-redis'], ['liveness']], series: /http_client_request_duration_seconds|prober_probe_total/ },
  },
  {
    name: 'inventory-liveness-unexplained',
    family: 'liveness-probe',
    story:
      "inventory's processes hang (a deadlock the metrics do not show); their liveness probes fail and the kubelet restarts them. Nothing else changed; a batch job bursts on one of inventory's nodes with CPU to spare.",
    redHerrings: ['a noisy neighbour on an inventory node with CPU to spare'],
    seed: 120,
    build(end) {
      const at = end - 37 * MINUTE;
      const c = shop(end, this.seed, { workloads: ['frontend', 'checkout', 'inventory', 'cart'] });
      const inventory = c.workload('inventory');
      c.addWorkload(...batch('catalog-sync', '1.2.0', inventory.pods[0].node.name, (t) => (t >= at - 3 * MINUTE ? 1.1 : 0.1)));
      inventory.pods.forEach((pod, k) => c.livenessKills(pod, at + k * 75, () => true));
      return c;
    },
    rule: KUBE_POD_RESTARTING_OFTEN,
    truth: { values: [['liveness']], series: /prober_probe_total/ },
  },
  {
    name: 'search-noisy-neighbour',
    family: 'noisy-neighbour',
    story:
      "A video-transcode batch pod on ip-10-0-2-34 takes all four cores of the node; the search pod there is starved and search's p99 climbs. At the same time an image-resizer batch saturates a node where no search pod runs, and a log-shipper bursts on the other search pod's node, which has CPU to spare.",
    redHerrings: ['a noisy neighbour on a node without search pods', 'a neighbour bursting on a node with CPU to spare'],
    seed: 121,
    build(end) {
      const at = end - 37 * MINUTE;
      const c = shop(end, this.seed);
      const search = c.workload('search');
      const [starved, spare] = search.pods.map((p) => p.node.name);
      const elsewhere = NODES.find((n) => !search.pods.some((p) => p.node.name === n))!;
      c.addWorkload(...batch('video-transcode', '4.0.1', starved, (t) => (t >= at ? 3.5 : 0.1)));
      c.addWorkload(...batch('image-resizer', '2.2.0', elsewhere, (t) => (t >= at - 2 * MINUTE ? 3.8 : 0.1)));
      c.addWorkload(...batch('log-shipper', '0.8.3', spare, (t) => (t >= at - MINUTE ? 1.1 : 0.1)));
      search.effects = { latency: (t, pod) => (pod.node.name === starved ? 1 + 6 * ramp(t, at, at + MINUTE) : 1) };
      return c;
    },
    rule: latencyRule('SearchLatencyHigh', 'search', 0.5),
    truth: { values: [['video-transcode'], ['ip-10-0-2-34']], series: /node_cpu_seconds_total|container_cpu_usage_seconds_total/ },
  },
  {
    name: 'billing-timeout-config-change',
    family: 'configuration',
    story:
      "A configuration push lowers billing's timeout for its calls to ledger from 2 s to 150 ms; a fifth of billing's requests fail from the next minute. " +
      'No version, restart or resource changed: the metrics show only the failures, and the change is known from its report.',
    redHerrings: [],
    seed: 122,
    fast: true,
    build(end) {
      const c = shop(end, this.seed, { workloads: ['frontend', 'checkout'] });
      const at = end - 36 * MINUTE;
      c.addWorkload({
        name: 'billing',
        replicas: 2,
        version: '3.2.0',
        rps: 25,
        routes: [{ method: 'POST', route: '/api/invoices', share: 1, latency: 0.08 }],
        peers: [{ peer: 'ledger', share: 1, latency: 0.04 }],
        memoryMiB: 300,
        memoryLimitMiB: 1024,
        cpu: 0.2,
        cpuLimit: 1,
      });
      c.workload('billing').effects = failsWithPeer('ledger', at, '504', 0.2, 'timeout');
      return c;
    },
    rule: errorRule('BillingHighErrorRate', 'billing'),
    changes: (end) => [
      {
        id: 'cfg-8841',
        summary: 'billing: ledger client timeout 2s -> 150ms',
        kind: 'config',
        service: 'billing',
        at: end - 37 * MINUTE,
        author: 'grace',
        versionBefore: 'timeout=2s',
        versionAfter: 'timeout=150ms',
      },
    ],
    truth: { values: [['timeout']], series: /"onset"/ },
  },
  {
    name: 'archive-down-reported-deploy-red-herring',
    family: 'dependency-down',
    story:
      'archive stops answering; statements, which calls it, fails. Twelve minutes earlier a deploy of statements was reported (a new build of its static assets that the metrics do not show), which changed nothing.',
    redHerrings: ['a statements deploy reported 12 min before, invisible in the metrics'],
    seed: 123,
    fast: true,
    build(end) {
      const c = shop(end, this.seed, { workloads: ['frontend', 'checkout'] });
      const at = end - 36 * MINUTE;
      c.addWorkload({
        name: 'archive',
        replicas: 2,
        version: '5.0.3',
        rps: 20,
        routes: [{ method: 'POST', route: '/api/entries', share: 1, latency: 0.03 }],
        memoryMiB: 400,
        memoryLimitMiB: 1024,
        cpu: 0.2,
        cpuLimit: 1,
      });
      c.addWorkload({
        name: 'statements',
        replicas: 2,
        version: '3.2.0',
        rps: 25,
        routes: [{ method: 'POST', route: '/api/statements', share: 1, latency: 0.08 }],
        peers: [{ peer: 'archive', share: 1, latency: 0.04 }],
        memoryMiB: 300,
        memoryLimitMiB: 1024,
        cpu: 0.2,
        cpuLimit: 1,
      });
      c.workload('archive').effects = { down: (t) => t >= at };
      c.workload('statements').effects = failsWithPeer('archive', at, '503', 0.6, 'connection_refused');
      return c;
    },
    rule: errorRule('StatementsHighErrorRate', 'statements'),
    changes: (end) => [
      {
        id: 'deploy-3301',
        summary: 'Deployed statements-static 2026.11.27-1 (asset bundle)',
        kind: 'deploy',
        service: 'statements',
        at: end - 48 * MINUTE,
        author: 'ci-bot',
        versionAfter: '2026.11.27-1',
      },
    ],
    truth: { values: [['archive']], series: /archive|http_client_requests_total/ },
  },
];
