import { Cluster, Effects, Pod, running, WorkloadSpec } from './cluster';
import { Labels, Telemetry } from './telemetry';

/** The nodes of the shop's cluster. */
export const NODES = [
  'ip-10-0-1-23.eu-west-1.compute.internal',
  'ip-10-0-2-34.eu-west-1.compute.internal',
  'ip-10-0-3-41.eu-west-1.compute.internal',
  'ip-10-0-1-88.eu-west-1.compute.internal',
];

/** The shop's workloads as they usually run. */
export const WORKLOADS: Record<string, WorkloadSpec> = {
  frontend: {
    name: 'frontend',
    replicas: 3,
    version: '5.2.0',
    rps: 120,
    routes: [
      { method: 'GET', route: '/', share: 0.5, latency: 0.04 },
      { method: 'GET', route: '/product/{id}', share: 0.4, latency: 0.06 },
    ],
    peers: [{ peer: 'cart', share: 0.5, latency: 0.02 }],
    memoryMiB: 180,
    memoryLimitMiB: 512,
    cpu: 0.25,
    cpuLimit: 1,
  },
  checkout: {
    name: 'checkout',
    replicas: 3,
    version: '2.14.3',
    rps: 25,
    routes: [
      { method: 'POST', route: '/api/checkout', share: 0.7, latency: 0.18 },
      { method: 'GET', route: '/api/checkout/status', share: 0.3, latency: 0.03 },
    ],
    peers: [
      { peer: 'payments', share: 0.7, latency: 0.12 },
      { peer: 'inventory', share: 1, latency: 0.015 },
    ],
    memoryMiB: 300,
    memoryLimitMiB: 768,
    cpu: 0.3,
    cpuLimit: 1,
  },
  payments: {
    name: 'payments',
    replicas: 2,
    version: '1.8.0',
    rps: 18,
    routes: [{ method: 'POST', route: '/api/payments', share: 1, latency: 0.11 }],
    peers: [{ peer: 'partner-bank', share: 1, latency: 0.09 }],
    memoryMiB: 250,
    memoryLimitMiB: 512,
    cpu: 0.2,
    cpuLimit: 1,
  },
  inventory: {
    name: 'inventory',
    replicas: 2,
    version: '3.0.7',
    rps: 25,
    routes: [{ method: 'GET', route: '/api/stock/{sku}', share: 1, latency: 0.012 }],
    memoryMiB: 160,
    memoryLimitMiB: 384,
    cpu: 0.15,
    cpuLimit: 1,
  },
  cart: {
    name: 'cart',
    replicas: 3,
    version: '4.1.2',
    rps: 60,
    routes: [
      { method: 'GET', route: '/api/cart', share: 0.7, latency: 0.02 },
      { method: 'POST', route: '/api/cart/items', share: 0.3, latency: 0.035 },
    ],
    peers: [{ peer: 'sessions-redis', share: 1.5, latency: 0.002 }],
    memoryMiB: 200,
    memoryLimitMiB: 512,
    cpu: 0.2,
    cpuLimit: 1,
  },
  search: {
    name: 'search',
    replicas: 2,
    version: '3.2.1',
    rps: 40,
    routes: [
      { method: 'GET', route: '/api/search', share: 0.85, latency: 0.08 },
      { method: 'GET', route: '/api/suggest', share: 0.15, latency: 0.02 },
    ],
    memoryMiB: 900,
    memoryLimitMiB: 2048,
    cpu: 0.5,
    cpuLimit: 2,
  },
  orders: {
    name: 'orders',
    replicas: 2,
    version: '2.3.0',
    rps: 15,
    routes: [
      { method: 'POST', route: '/api/orders', share: 0.8, latency: 0.06 },
      { method: 'GET', route: '/api/orders/{id}', share: 0.2, latency: 0.02 },
    ],
    peers: [{ peer: 'ordersdb', share: 3, latency: 0.004 }],
    memoryMiB: 400,
    memoryLimitMiB: 1024,
    cpu: 0.2,
    cpuLimit: 1,
  },
  'orders-worker': {
    name: 'orders-worker',
    replicas: 2,
    version: '2.3.0',
    rps: 0,
    routes: [],
    worker: true,
    memoryMiB: 220,
    memoryLimitMiB: 512,
    cpu: 0.1,
    cpuLimit: 0.5,
  },
  recommendations: {
    name: 'recommendations',
    replicas: 2,
    version: '0.9.4',
    rps: 50,
    routes: [{ method: 'GET', route: '/api/recommendations', share: 1, latency: 0.07 }],
    memoryMiB: 600,
    memoryLimitMiB: 1536,
    cpu: 0.3,
    cpuLimit: 1,
  },
};

/** From t on (a step). */
export const after =
  (at: number) =>
  (t: number): boolean =>
    t >= at;

/** 0 before `from`, rising linearly to 1 at `to`. */
export const ramp = (t: number, from: number, to: number): number => Math.min(1, Math.max(0, (t - from) / (to - from)));

export interface ShopOptions {
  /** The workloads to run (all of WORKLOADS by default). */
  workloads?: string[];
  /** Changes to a workload's usual spec. */
  specs?: Record<string, Partial<WorkloadSpec>>;
  effects?: Record<string, Effects>;
}

/** A shop on a four-node cluster, with three hours of data ending at `end`. */
export function shop(end: number, seed: number, options: ShopOptions = {}): Cluster {
  const cluster = new Cluster(new Telemetry(end, 3), seed);
  for (const name of NODES) cluster.addNode(name);
  for (const name of options.workloads ?? Object.keys(WORKLOADS)) {
    cluster.addWorkload({ ...WORKLOADS[name], ...options.specs?.[name] }, options.effects?.[name] ?? {});
  }
  return cluster;
}

/** Target labels of an exporter outside the shop's pods. */
export function exporter(job: string, instance: string, extra: Labels = {}): Labels {
  return { job, instance, namespace: 'monitoring', ...extra };
}

/** blackbox-exporter probes of `urls`: success, duration and (for https) the certificate's expiry. */
export function probes(cluster: Cluster, urls: Array<{ url: string; fails?: (t: number) => boolean; certExpiry?: number }>): void {
  const tel = cluster.telemetry;
  tel.gauge('up', exporter('blackbox-exporter', '10.2.0.9:9115'), () => 1);
  for (const { url, fails, certExpiry } of urls) {
    const labels = { job: 'blackbox', instance: url, namespace: 'monitoring', module: url.startsWith('https') ? 'http_2xx_tls' : 'http_2xx' };
    tel.gauge('probe_success', labels, (t) => (fails?.(t) ? 0 : 1));
    tel.gauge('probe_duration_seconds', labels, (t) => (fails?.(t) ? 0.002 : 0.03 + 0.005 * cluster.noise(`probe:${url}`, t)));
    tel.gauge('probe_http_status_code', labels, (t) => (fails?.(t) ? 0 : 200));
    if (url.startsWith('https')) tel.gauge('probe_ssl_earliest_cert_expiry', labels, () => certExpiry ?? cluster.end + 61 * 86_400);
  }
}

/** postgres-exporter of a database server: connections by state against max_connections. */
export function postgres(
  cluster: Cluster,
  server: string,
  options: { maxConnections?: number; extra?: (t: number) => number; extraState?: string; down?: (t: number) => boolean } = {},
): void {
  const tel = cluster.telemetry;
  const target = exporter('postgres-exporter', '10.2.3.40:9187', { server: `${server}:5432` });
  const down = options.down ?? (() => false);
  tel.gauge('up', target, () => 1);
  tel.gauge('postgres_exporter_build_info', { ...target, version: '0.11.1', revision: 'f5a9b5a', goversion: 'go1.19.1' }, () => 1);
  tel.gauge('pg_up', target, (t) => (down(t) ? 0 : 1));
  tel.gauge('pg_settings_max_connections', target, (t) => (down(t) ? undefined : (options.maxConnections ?? 200)));
  const states: Array<[string, number]> = [
    ['active', 6],
    ['idle', 34],
    ['idle in transaction', 2],
  ];
  for (const [state, usual] of states) {
    tel.gauge('pg_stat_activity_count', { ...target, datname: server.replace(/db$/, ''), state }, (t) => {
      if (down(t)) return undefined;
      // The connections `extra` adds, in `extraState` (idle in transaction by default).
      const extra = state === (options.extraState ?? 'idle in transaction') ? (options.extra?.(t) ?? 0) : 0;
      return Math.max(0, Math.round(usual * cluster.wave(t) + 2 * cluster.noise(`pg:${state}`, t) + extra));
    });
  }
  tel.counter('pg_stat_database_xact_commit', { ...target, datname: server.replace(/db$/, '') }, (t) => (down(t) ? 0 : 45 * cluster.wave(t)), {
    initial: 8.1e8,
    integer: true,
    alive: (t) => !down(t),
  });
}

/** redis_exporter of a Redis server. */
export function redis(cluster: Cluster, name: string, down: (t: number) => boolean = () => false): void {
  const tel = cluster.telemetry;
  const target = exporter('redis-exporter', '10.2.2.31:9121', { redis: name, addr: `redis://${name}.shop.svc:6379` });
  tel.gauge('up', target, () => 1);
  tel.gauge('redis_exporter_build_info', { ...target, version: 'v1.45.0', commit_sha: '2b5ea3d', golang_version: 'go1.19.3' }, () => 1);
  tel.gauge('redis_up', target, (t) => (down(t) ? 0 : 1));
  tel.gauge('redis_connected_clients', target, (t) => (down(t) ? undefined : Math.round(48 + 4 * cluster.noise(`redis:${name}`, t))));
  tel.gauge('redis_memory_used_bytes', target, (t) => (down(t) ? undefined : 1.3e9 + 1e6 * ((t - cluster.start) / 60)));
}

/** RabbitMQ's queue metrics: consumers, ready messages and the age of the oldest one. */
export function rabbitmq(cluster: Cluster, queue: string, consumers: (t: number) => number, publishRate: number): void {
  const tel = cluster.telemetry;
  // RabbitMQ runs beside the shop, in its namespace.
  const server = { job: 'rabbitmq', instance: '10.2.1.61:15692', namespace: 'shop', pod: 'rabbitmq-0' };
  const target = { ...server, vhost: '/', queue };
  tel.gauge('up', server, () => 1);
  let ready = 3;
  let oldest = cluster.start - 2;
  const readyAt = new Map<number, number>();
  const headAt = new Map<number, number>();
  for (const t of tel.times) {
    const c = consumers(t);
    const published = publishRate * cluster.wave(t) * tel.interval;
    if (c > 0) {
      ready = Math.max(0, Math.round(3 + 2 * cluster.noise(`queue:${queue}`, t)));
      oldest = t - 1.5;
    } else {
      ready += Math.round(published);
    }
    readyAt.set(t, ready);
    headAt.set(t, oldest);
  }
  tel.gauge('rabbitmq_queue_consumers', target, (t) => consumers(t));
  tel.gauge('rabbitmq_queue_messages_ready', target, (t) => readyAt.get(t));
  tel.gauge('rabbitmq_queue_head_message_timestamp', target, (t) => headAt.get(t));
  tel.counter('rabbitmq_queue_messages_published_total', target, (t) => publishRate * cluster.wave(t), { initial: 2.2e7, integer: true });
}

/** Consumers of a queue: the running pods of a worker workload. */
export function consumersOf(cluster: Cluster, workload: string): (t: number) => number {
  const w = cluster.workload(workload);
  return (t) => w.pods.filter((p: Pod) => running(p, t)).length;
}

/** kube-state-metrics' view of a ConfigMap: its resource version, changing at each edit. */
export function configMap(cluster: Cluster, namespace: string, name: string, edits: number[]): void {
  const ksm = { job: 'kube-state-metrics', instance: '10.2.0.5:8080', namespace, configmap: name };
  cluster.telemetry.gauge('kube_configmap_info', ksm, () => 1);
  cluster.telemetry.gauge('kube_configmap_metadata_resource_version', ksm, (t) => 48_213_077 + edits.filter((e) => e <= t).length * 1_311);
}

/**
 * A PersistentVolumeClaim of a pod: kubelet's volume stats (capacity, available, used; from the
 * kubelet of the pod's node) and kube-state-metrics' claim of the pod's volume.
 */
export function volume(cluster: Cluster, pod: Pod, claim: string, capacity: number, available: (t: number) => number): void {
  const tel = cluster.telemetry;
  const kubelet = {
    job: 'kubelet',
    metrics_path: '/metrics',
    instance: `${pod.node.ip}:10250`,
    node: pod.node.name,
    namespace: pod.workload.namespace,
    persistentvolumeclaim: claim,
  };
  const alive = (t: number): boolean => t >= pod.from && t < pod.until;
  tel.gauge('kubelet_volume_stats_capacity_bytes', kubelet, (t) => (alive(t) ? capacity : undefined));
  tel.gauge('kubelet_volume_stats_available_bytes', kubelet, (t) => (alive(t) ? Math.max(0, Math.round(available(t))) : undefined));
  tel.gauge('kubelet_volume_stats_used_bytes', kubelet, (t) => (alive(t) ? Math.round(capacity - Math.max(0, available(t))) : undefined));
  tel.gauge(
    'kube_pod_spec_volumes_persistentvolumeclaims_info',
    { job: 'kube-state-metrics', instance: '10.2.0.5:8080', namespace: pod.workload.namespace, pod: pod.name, volume: 'data', persistentvolumeclaim: claim },
    (t) => (alive(t) ? 1 : undefined),
  );
}

/** HikariCP's pool metrics of each pod of a workload: `active(t)` of `max` connections in use, and the threads waiting. */
export function hikari(
  cluster: Cluster,
  workload: string,
  pool: string,
  max: number,
  active: (t: number) => number,
  pending: (t: number) => number = () => 0,
): void {
  const tel = cluster.telemetry;
  for (const pod of cluster.workload(workload).pods) {
    const labels = {
      job: workload,
      namespace: pod.workload.namespace,
      service: workload,
      pod: pod.name,
      instance: `${pod.ip}:8080`,
      container: workload,
      pool,
    };
    const alive = (t: number): boolean => running(pod, t);
    tel.gauge('hikaricp_connections_max', labels, (t) => (alive(t) ? max : undefined));
    tel.gauge('hikaricp_connections_active', labels, (t) =>
      alive(t) ? Math.min(max, Math.max(0, Math.round(active(t) + cluster.noise(`hikari:${pod.name}`, t)))) : undefined,
    );
    tel.gauge('hikaricp_connections_idle', labels, (t) => (alive(t) ? Math.max(0, max - Math.min(max, Math.round(active(t)))) : undefined));
    tel.gauge('hikaricp_connections_pending', labels, (t) => (alive(t) ? Math.max(0, Math.round(pending(t))) : undefined));
  }
}
