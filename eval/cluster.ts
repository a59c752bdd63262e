import { Random } from './random';
import { Labels, Telemetry } from './telemetry';

const MiB = 1024 * 1024;
const DAY = 86_400;
/** Server and client latency buckets (seconds). */
const BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
/** Spread of request latency around its median (log-normal sigma). */
const SIGMA = 0.55;

export interface Route {
  method: string;
  route: string;
  /** Share of the workload's requests. */
  share: number;
  /** Median latency, seconds. */
  latency: number;
}

/** A service this workload calls: `share` calls per request it serves. */
export interface Peer {
  peer: string;
  share: number;
  latency: number;
}

export interface WorkloadSpec {
  name: string;
  namespace?: string;
  replicas: number;
  version: string;
  /** Requests per second of the whole workload at the daily mean. */
  rps: number;
  routes: Route[];
  peers?: Peer[];
  memoryMiB: number;
  memoryLimitMiB: number;
  /** CPU cores used by the workload's pods, each, at the daily mean. */
  cpu: number;
  /** CPU cores each pod may use; Infinity for a container without a CPU limit (no CFS quota, so no throttling series). */
  cpuLimit: number;
  /** Runs no HTTP server (a queue consumer): only process metrics. */
  worker?: boolean;
  /**
   * What owns the pods: a Deployment (the default: ReplicaSets, `<name>-<replicaset>-<suffix>` pods)
   * or a Job (one pod `<name>-<suffix>`, no Deployment series; eval/exporters.ts writes the Job's).
   */
  kind?: 'Deployment' | 'Job';
  /** Its pods expose no metrics endpoint: only cAdvisor and kube-state-metrics see them. */
  unscraped?: boolean;
}

/** How a workload behaves over time; every hook is optional (t in Unix seconds). */
export interface Effects {
  /** Traffic multiplier of a route (on top of the daily wave). */
  load?(t: number, route: string): number;
  /** Ratio of requests answered with each error code, e.g. {"500": 0.2}. */
  errors?(t: number, pod: Pod, route: string): Record<string, number> | undefined;
  /** Multiplier of the route's median latency. */
  latency?(t: number, pod: Pod, route: string): number;
  /** Ratio of calls to a peer failing with each outcome, e.g. {"connection_refused": 1}. */
  peerErrors?(t: number, pod: Pod, peer: string): Record<string, number> | undefined;
  peerLatency?(t: number, peer: string): number;
  /** Working set bytes. */
  memory?(t: number, pod: Pod): number | undefined;
  /** CPU cores demanded (the CFS quota caps what is used). */
  cpu?(t: number, pod: Pod): number | undefined;
  /** The pod's metrics endpoint does not answer (up 0). */
  down?(t: number, pod: Pod): boolean;
  /** The container's liveness probe fails (see Cluster.livenessKills for the restarts that follow). */
  livenessFails?(t: number, pod: Pod): boolean;
}

export interface Termination {
  at: number;
  reason: 'OOMKilled' | 'Error' | 'Completed';
  exitCode: number;
}

export interface Pod {
  name: string;
  workload: Workload;
  node: Node;
  ip: string;
  replicaSet: string;
  version: string;
  from: number;
  until: number;
  /** Container starts, ascending (the first is the pod's). */
  starts: number[];
  terminations: Termination[];
  /** CrashLoopBackOff periods [from, to). */
  waiting: Array<[number, number]>;
  memoryLimit: number;
  cpuLimit: number;
}

export interface NodeEffects {
  ready?(t: number): boolean;
  memoryPressure?(t: number): boolean;
  diskPressure?(t: number): boolean;
  /** Free bytes of a mount point. */
  filesystemFree?(t: number, mountpoint: string): number | undefined;
  memoryAvailable?(t: number): number | undefined;
  /** node-exporter does not answer. */
  down?(t: number): boolean;
}

export interface Node {
  name: string;
  ip: string;
  cores: number;
  memory: number;
  zone: string;
  effects: NodeEffects;
  /** Mount points and sizes (bytes) besides `/`. */
  mounts: Record<string, number>;
}

/** A naming and labelling convention of a workload's own telemetry: what its pods expose. */
export interface WorkloadStyle {
  /** Writes the pod's own series (`ready(t)`: the workload's pods serving at t). */
  emit(cluster: Cluster, pod: Pod, ready: (t: number) => number): void;
}

export class Workload {
  readonly namespace: string;
  readonly pods: Pod[] = [];
  /** Desired replicas over time: [from, replicas]. */
  readonly desired: Array<[number, number]>;
  generation = 1;
  readonly generations: Array<[number, number]>;

  constructor(
    readonly spec: WorkloadSpec,
    public effects: Effects,
    start: number,
  ) {
    this.namespace = spec.namespace ?? 'shop';
    this.desired = [[start - 30 * DAY, spec.replicas]];
    this.generations = [[start - 30 * DAY, 1]];
  }

  get name(): string {
    return this.spec.name;
  }

  replicasAt(t: number): number {
    return this.desired.filter(([from]) => from <= t).pop()![1];
  }

  generationAt(t: number): number {
    return this.generations.filter(([from]) => from <= t).pop()![1];
  }
}

/** Whether a pod's container is running (alive and not backing off) at t. */
export function running(pod: Pod, t: number): boolean {
  return t >= pod.from && t < pod.until && !pod.waiting.some(([a, b]) => t >= a && t < b);
}

/** Whether a pod exists (created and not yet deleted) at t. */
export const alive = (pod: Pod, t: number): boolean => t >= pod.from && t < pod.until;

/** The latest container start at or before t. */
export const startedAt = (pod: Pod, t: number): number => pod.starts.filter((s) => s <= t).pop() ?? pod.from;

/** Standard normal CDF (Abramowitz-Stegun). */
export function phi(x: number): number {
  const k = 1 / (1 + 0.2316419 * Math.abs(x));
  const d = 0.3989423 * Math.exp((-x * x) / 2);
  const p = d * k * (0.3193815 + k * (-0.3565638 + k * (1.781478 + k * (-1.821256 + k * 1.330274))));
  return x >= 0 ? 1 - p : p;
}

/**
 * A Kubernetes cluster as kube-prometheus sees it: nodes (node-exporter, kubelet/cAdvisor),
 * kube-state-metrics, and workloads whose pods expose HTTP server and client metrics, process
 * metrics and a build info. Faults are effects on workloads and nodes, and pod lifecycle events
 * (rollouts, scaling, crashes); `emit` writes what Prometheus would have scraped.
 */
export class Cluster {
  readonly nodes: Node[] = [];
  readonly workloads: Workload[] = [];
  private ipCounter = 10;
  /**
   * How a workload's own telemetry is named and labelled (eval/conventions.ts); without one, the
   * Prometheus client defaults `emitProcess` and `emitHttp` write.
   */
  styleOf?: (w: Workload) => WorkloadStyle | undefined;
  /** kube-state-metrics series this cluster's scrape configuration drops (e.g. `kube_pod_info`). */
  readonly dropped = new Set<string>();
  /** kube-state-metrics' owner series (`kube_pod_owner`, `kube_replicaset_owner`) are written. */
  ownerSeries = false;
  /** kube-state-metrics is scraped (false: a cluster of no Kubernetes at all, e.g. only a cloud exporter). */
  kubeStateMetrics = true;
  /** cAdvisor's `container_spec_cpu_period` (100000, the CFS period in µs) is written for containers with a CPU limit. */
  cpuPeriodSeries = false;
  /**
   * The labels the scrape configuration gives every series written (e.g. kube-prometheus'
   * ServiceMonitors' `service` and `endpoint`), applied once everything is written.
   */
  relabel?: (name: string, labels: Labels) => Labels;
  /** Writers of other exporters' series, run once the cluster's own are written (its pods and their effects final). */
  readonly emitters: Array<() => void> = [];

  constructor(
    readonly telemetry: Telemetry,
    readonly seed: number,
  ) {}

  get start(): number {
    return this.telemetry.start;
  }

  get end(): number {
    return this.telemetry.end;
  }

  /** Unix seconds `minutes` before the end of the data. */
  ago(minutes: number): number {
    return this.end - minutes * 60;
  }

  random(name: string): Random {
    return Random.of(this.seed, name);
  }

  private readonly noises = new Map<string, Float64Array>();

  /** Standard normal noise of a named quantity at t: the same at the same t, however often it is read. */
  noise(name: string, t: number): number {
    let values = this.noises.get(name);
    if (!values) {
      const r = this.random(`noise:${name}`);
      values = Float64Array.from(this.telemetry.times, () => r.normal());
      this.noises.set(name, values);
    }
    return values[Math.min(values.length - 1, Math.max(0, Math.round((t - this.start) / this.telemetry.interval)))];
  }

  /**
   * The daily traffic wave (rising through the data, as in a morning) with a slower ripple, about 1
   * on average. Relative to the end of the data, so every run of a scenario sees the same shape.
   */
  wave(t: number, name = ''): number {
    const phase = this.random(`wave:${name}`).next();
    const since = t - this.end;
    return 1 + 0.3 * Math.sin(2 * Math.PI * (since / DAY + 0.05)) + 0.06 * Math.sin((2 * Math.PI * since) / 2400 + phase * 6);
  }

  addNode(name: string, options: { cores?: number; memoryGiB?: number; zone?: string; mounts?: Record<string, number>; effects?: NodeEffects } = {}): Node {
    const node: Node = {
      name,
      ip: `10.0.${1 + (this.nodes.length % 3)}.${20 + this.nodes.length * 7}`,
      cores: options.cores ?? 4,
      memory: (options.memoryGiB ?? 16) * 1024 * MiB,
      zone: options.zone ?? ['eu-west-1a', 'eu-west-1b', 'eu-west-1c'][this.nodes.length % 3],
      effects: options.effects ?? {},
      mounts: options.mounts ?? {},
    };
    this.nodes.push(node);
    return node;
  }

  node(name: string): Node {
    const node = this.nodes.find((n) => n.name === name);
    if (!node) throw new Error(`no node ${name}`);
    return node;
  }

  /** A workload and its pods, started days before the data, or at `from` (its pods 40 s apart). */
  addWorkload(spec: WorkloadSpec, effects: Effects = {}, options: { nodes?: string[]; from?: number } = {}): Workload {
    const w = new Workload(spec, effects, this.start);
    this.workloads.push(w);
    const r = this.random(`workload:${spec.name}`);
    const replicaSet = r.token(9, 'bcdf5678');
    const drawn = this.start - r.between(1, 9) * DAY;
    const started = options.from ?? drawn;
    for (let k = 0; k < spec.replicas; k++) this.newPod(w, replicaSet, spec.version, started + k * 40, options.nodes, spec);
    return w;
  }

  workload(name: string): Workload {
    const w = this.workloads.find((x) => x.name === name);
    if (!w) throw new Error(`no workload ${name}`);
    return w;
  }

  private newPod(
    w: Workload,
    replicaSet: string,
    version: string,
    from: number,
    nodes: string[] | undefined,
    limits: { memoryLimitMiB: number; cpuLimit: number },
  ): Pod {
    const r = this.random(`pod:${w.name}:${replicaSet}:${w.pods.length}`);
    const candidates = nodes ? nodes.map((n) => this.node(n)) : this.nodes;
    const node = candidates[(w.pods.length + this.workloads.indexOf(w)) % candidates.length];
    this.ipCounter += 1;
    const pod: Pod = {
      name: w.spec.kind === 'Job' ? `${w.name}-${r.token(5)}` : `${w.name}-${replicaSet}-${r.token(5)}`,
      workload: w,
      node,
      ip: `10.2.${this.nodes.indexOf(node)}.${this.ipCounter}`,
      replicaSet,
      version,
      from,
      until: Infinity,
      starts: [from],
      terminations: [],
      waiting: [],
      memoryLimit: limits.memoryLimitMiB * MiB,
      cpuLimit: limits.cpuLimit,
    };
    w.pods.push(pod);
    return pod;
  }

  /**
   * A rolling update at `at`: a new ReplicaSet (new pod names) with `version` (or the same one, for a
   * configuration or limits change), one pod every 45 s, each old pod stopping once its successor runs.
   */
  rollout(w: Workload, at: number, change: { version?: string; memoryLimitMiB?: number; cpuLimit?: number; stalled?: boolean } = {}): Pod[] {
    const replicaSet = this.random(`rollout:${w.name}:${at}`).token(9, 'bcdf5678');
    const old = w.pods.filter((p) => alive(p, at));
    const limits = {
      memoryLimitMiB: change.memoryLimitMiB ?? (old[0]?.memoryLimit ?? w.spec.memoryLimitMiB * MiB) / MiB,
      cpuLimit: change.cpuLimit ?? old[0]?.cpuLimit ?? w.spec.cpuLimit,
    };
    const version = change.version ?? old[0]?.version ?? w.spec.version;
    w.generation += 1;
    w.generations.push([at, w.generation]);
    const fresh: Pod[] = [];
    // A stalled rollout (its first new pod never becomes ready) keeps every old pod.
    for (let k = 0; k < (change.stalled ? 1 : w.replicasAt(at)); k++) {
      fresh.push(this.newPod(w, replicaSet, version, at + k * 45, undefined, limits));
      if (old[k] && !change.stalled) old[k].until = at + k * 45 + 40;
    }
    return fresh;
  }

  /** Scales a workload to `replicas` at `at`: extra pods stop (or new ones start) within seconds. */
  scale(w: Workload, at: number, replicas: number): void {
    const current = w.pods.filter((p) => alive(p, at));
    w.desired.push([at, replicas]);
    w.generation += 1;
    w.generations.push([at, w.generation]);
    current.slice(replicas).forEach((p, k) => (p.until = at + 5 + k * 3));
  }

  /** The container is killed at `at` (e.g. OOMKilled) and restarted `after` seconds later. */
  kill(pod: Pod, at: number, reason: Termination['reason'], after = 10): void {
    pod.terminations.push({ at, reason, exitCode: reason === 'OOMKilled' ? 137 : 1 });
    pod.waiting.push([at, at + after]);
    pod.starts.push(at + after);
  }

  /**
   * While `fails(t)` holds from `from`, the kubelet kills the container after three failed liveness
   * probes (10 s apart) and starts it again `after` seconds later; the new container's probe starts
   * `delay` seconds after its start (initialDelaySeconds). The probe failures are the workload's
   * `livenessFails` effect, which this sets.
   */
  livenessKills(pod: Pod, from: number, fails: (t: number) => boolean, options: { delay?: number; after?: number } = {}): void {
    const delay = options.delay ?? 20;
    const after = options.after ?? 4;
    let start = pod.starts.filter((s) => s <= from).pop() ?? pod.from;
    let probing = Math.max(from, start + delay);
    while (probing < Math.min(pod.until, this.end + 600)) {
      if (!fails(probing)) {
        probing += 10;
        continue;
      }
      const killed = probing + 30;
      pod.terminations.push({ at: killed, reason: 'Error', exitCode: 137 });
      pod.waiting.push([killed, killed + after]);
      pod.starts.push(killed + after);
      start = killed + after;
      probing = start + delay;
    }
    const previous = pod.workload.effects.livenessFails;
    pod.workload.effects.livenessFails = (t, p) => (p === pod ? t >= from && fails(t) : (previous?.(t, p) ?? false));
  }

  /**
   * From `from`, the container exits `runs` seconds after each start and backs off (10 s doubling
   * to 5 min) before the next: CrashLoopBackOff.
   */
  crashLoop(pod: Pod, from: number, reason: Termination['reason'] = 'Error', runs = 4): void {
    let at = from;
    let backoff = 10;
    while (at < Math.min(pod.until, this.end + 600)) {
      pod.terminations.push({ at, reason, exitCode: reason === 'OOMKilled' ? 137 : 1 });
      pod.waiting.push([at, at + backoff]);
      pod.starts.push(at + backoff);
      at += backoff + runs;
      backoff = Math.min(backoff * 2, 300);
    }
  }

  /** Writes everything scraped: nodes, kube-state-metrics, cAdvisor and the workloads. */
  emit(): void {
    for (const node of this.nodes) this.emitNode(node);
    if (this.kubeStateMetrics) this.emitKubeStateMetrics();
    for (const w of this.workloads) {
      const readyAt = new Map<number, number>();
      const ready = (t: number): number => {
        let n = readyAt.get(t);
        if (n === undefined) {
          n = Math.max(1, w.pods.filter((p) => running(p, t) && !w.effects.down?.(t, p)).length);
          readyAt.set(t, n);
        }
        return n;
      };
      const style = this.styleOf?.(w);
      for (const pod of w.pods) {
        this.emitContainer(pod);
        if (w.spec.unscraped) continue;
        if (style) {
          style.emit(this, pod, ready);
          continue;
        }
        this.emitProcess(pod);
        if (!w.spec.worker) this.emitHttp(pod, ready);
      }
    }
    for (const emitter of this.emitters) emitter();
    if (this.relabel) this.telemetry.relabel(this.relabel);
  }

  private emitNode(node: Node): void {
    const tel = this.telemetry;
    const e = node.effects;
    const r = this.random(`node:${node.name}`);
    const target = { job: 'node-exporter', instance: `${node.ip}:9100`, namespace: 'monitoring', pod: `node-exporter-${r.token(5)}`, node: node.name };
    const scraped = (t: number): boolean => !e.down?.(t);
    tel.gauge('up', target, (t) => (scraped(t) ? 1 : 0));
    tel.gauge('node_exporter_build_info', { ...target, version: '1.5.0', revision: '1b48970ffcf5630534fb00bb0687d73c66d1c959', goversion: 'go1.19.3' }, (t) =>
      scraped(t) ? 1 : undefined,
    );
    const busyAt = new Map<number, number>();
    const busy = (t: number): number => {
      let cores = busyAt.get(t);
      if (cores === undefined) {
        const pods = this.workloads.flatMap((w) => w.pods.filter((p) => p.node === node && running(p, t)));
        cores = pods.reduce((sum, p) => sum + this.cpuUsed(p, t), 0.15);
        busyAt.set(t, cores);
      }
      return cores;
    };
    for (let cpu = 0; cpu < node.cores; cpu++) {
      const share = (t: number): number => Math.min(0.98, busy(t) / node.cores);
      for (const [mode, part] of [
        ['user', 0.75],
        ['system', 0.2],
        ['iowait', 0.05],
      ] as const) {
        tel.counter(
          'node_cpu_seconds_total',
          { ...target, cpu: String(cpu), mode },
          (t) => share(t) * part * (1 + 0.1 * this.noise(`node-cpu:${node.name}:${cpu}:${mode}`, t)),
          {
            initial: r.between(1e5, 1e6) * part,
            alive: scraped,
          },
        );
      }
      tel.counter('node_cpu_seconds_total', { ...target, cpu: String(cpu), mode: 'idle' }, (t) => 1 - share(t), {
        initial: r.between(1e6, 5e6),
        alive: scraped,
      });
    }
    tel.gauge('node_memory_MemTotal_bytes', target, (t) => (scraped(t) ? node.memory : undefined));
    tel.gauge('node_memory_MemAvailable_bytes', target, (t) => {
      if (!scraped(t)) return undefined;
      const used = this.workloads.flatMap((w) => w.pods.filter((p) => p.node === node && running(p, t))).reduce((sum, p) => sum + this.memoryUsed(p, t), 2.1e9);
      return e.memoryAvailable?.(t) ?? Math.max(0.02 * node.memory, node.memory - used * (1 + 0.01 * this.noise(`node-mem:${node.name}`, t)));
    });
    tel.gauge('node_load1', target, (t) => (scraped(t) ? Math.max(0, busy(t) * (1 + 0.15 * this.noise(`node-load:${node.name}`, t))) : undefined));
    const mounts: Record<string, number> = { '/': 100 * 1024 ** 3, ...node.mounts };
    for (const [mountpoint, size] of Object.entries(mounts)) {
      const labels = {
        ...target,
        device: mountpoint === '/' ? '/dev/nvme0n1p1' : `/dev/nvme${Object.keys(mounts).indexOf(mountpoint)}n1`,
        fstype: 'ext4',
        mountpoint,
      };
      const base = r.between(0.35, 0.6) * size;
      tel.gauge('node_filesystem_size_bytes', labels, (t) => (scraped(t) ? size : undefined));
      tel.gauge('node_filesystem_avail_bytes', labels, (t) =>
        scraped(t) ? Math.max(0, Math.round(e.filesystemFree?.(t, mountpoint) ?? base - ((t - this.start) / 3600) * 2e7 * r.between(0.5, 1.5))) : undefined,
      );
      tel.gauge('node_filesystem_readonly', labels, (t) => (scraped(t) ? 0 : undefined));
    }
    tel.counter(
      'node_network_receive_bytes_total',
      { ...target, device: 'eth0' },
      (t) => 2e6 * this.wave(t) * (1 + 0.1 * this.noise(`node-net:${node.name}`, t)),
      { initial: r.between(1e11, 1e12), alive: scraped },
    );
  }

  private emitKubeStateMetrics(): void {
    const tel = this.telemetry;
    const ksm = { job: 'kube-state-metrics', instance: '10.2.0.5:8080' };
    tel.gauge('up', ksm, () => 1);
    tel.gauge('kube_state_metrics_build_info', { ...ksm, version: '2.7.0', revision: 'd56b7e1b', goversion: 'go1.19.4' }, () => 1);
    for (const node of this.nodes) {
      const e = node.effects;
      tel.gauge('kube_node_info', { ...ksm, node: node.name, internal_ip: node.ip, kubelet_version: 'v1.25.6', os_image: 'Bottlerocket OS 1.12.0' }, () => 1);
      const conditions: Array<[string, (t: number) => boolean]> = [
        ['Ready', (t) => e.ready?.(t) ?? true],
        ['MemoryPressure', (t) => e.memoryPressure?.(t) ?? false],
        ['DiskPressure', (t) => e.diskPressure?.(t) ?? false],
        ['PIDPressure', () => false],
      ];
      for (const [condition, holds] of conditions) {
        for (const status of ['true', 'false', 'unknown']) {
          tel.gauge('kube_node_status_condition', { ...ksm, node: node.name, condition, status }, (t) =>
            status === 'unknown' ? 0 : holds(t) === (status === 'true') ? 1 : 0,
          );
        }
      }
    }
    for (const w of this.workloads) {
      const job = w.spec.kind === 'Job';
      const d = { ...ksm, namespace: w.namespace, deployment: w.name };
      if (!job) {
        tel.gauge('kube_deployment_spec_replicas', d, (t) => w.replicasAt(t));
        tel.gauge('kube_deployment_metadata_generation', d, (t) => w.generationAt(t));
        tel.gauge('kube_deployment_status_replicas_available', d, (t) => w.pods.filter((p) => running(p, t) && t - startedAt(p, t) >= 10).length);
        tel.gauge('kube_deployment_status_replicas_unavailable', d, (t) =>
          Math.max(0, w.replicasAt(t) - w.pods.filter((p) => running(p, t) && t - startedAt(p, t) >= 10).length),
        );
      }
      if (this.ownerSeries && !job) {
        // A ReplicaSet is kept (scaled to zero) after a rollout replaced it: its series stay.
        for (const rs of new Set(w.pods.map((p) => p.replicaSet))) {
          const from = Math.min(...w.pods.filter((p) => p.replicaSet === rs).map((p) => p.from));
          tel.gauge(
            'kube_replicaset_owner',
            { ...ksm, namespace: w.namespace, replicaset: `${w.name}-${rs}`, owner_kind: 'Deployment', owner_name: w.name, owner_is_controller: 'true' },
            (t) => (t >= from ? 1 : undefined),
          );
        }
      }
      for (const pod of w.pods) {
        const p = { ...ksm, namespace: w.namespace, pod: pod.name, uid: this.random(`uid:${pod.name}`).token(8, '0123456789abcdef') };
        const exposed = (t: number): boolean => alive(pod, t);
        const owner = job ? { kind: 'Job', name: w.name } : { kind: 'ReplicaSet', name: `${w.name}-${pod.replicaSet}` };
        if (!this.dropped.has('kube_pod_info'))
          tel.gauge(
            'kube_pod_info',
            { ...p, node: pod.node.name, host_ip: pod.node.ip, pod_ip: pod.ip, created_by_kind: owner.kind, created_by_name: owner.name },
            (t) => (exposed(t) ? 1 : undefined),
          );
        if (this.ownerSeries)
          tel.gauge('kube_pod_owner', { ...p, owner_kind: owner.kind, owner_name: owner.name, owner_is_controller: 'true' }, (t) =>
            exposed(t) ? 1 : undefined,
          );
        tel.gauge('kube_pod_status_phase', { ...p, phase: 'Running' }, (t) => (exposed(t) ? 1 : undefined));
        const c = { ...p, container: w.name };
        tel.gauge(
          'kube_pod_container_info',
          { ...c, image: `registry.example.com/shop/${w.name}:${pod.version}`, container_id: `containerd://${pod.name}` },
          (t) => (exposed(t) ? 1 : undefined),
        );
        tel.gauge('kube_pod_container_status_restarts_total', c, (t) => (exposed(t) ? pod.terminations.filter((x) => x.at <= t).length : undefined));
        tel.gauge('kube_pod_container_status_ready', c, (t) => (exposed(t) ? (running(pod, t) && !w.effects.down?.(t, pod) ? 1 : 0) : undefined));
        tel.gauge('kube_pod_container_status_running', c, (t) => (exposed(t) ? (running(pod, t) ? 1 : 0) : undefined));
        tel.gauge('kube_pod_container_status_waiting_reason', { ...c, reason: 'CrashLoopBackOff' }, (t) =>
          exposed(t) && pod.waiting.length ? (pod.waiting.some(([a, b]) => t >= a + 5 && t < b) ? 1 : 0) : undefined,
        );
        for (const reason of new Set(pod.terminations.map((x) => x.reason))) {
          tel.gauge('kube_pod_container_status_last_terminated_reason', { ...c, reason }, (t) => {
            const last = pod.terminations.filter((x) => x.at <= t).pop();
            return exposed(t) && last ? (last.reason === reason ? 1 : 0) : undefined;
          });
        }
        tel.gauge('kube_pod_container_resource_limits', { ...c, node: pod.node.name, resource: 'memory', unit: 'byte' }, (t) =>
          exposed(t) ? pod.memoryLimit : undefined,
        );
        if (Number.isFinite(pod.cpuLimit))
          tel.gauge('kube_pod_container_resource_limits', { ...c, node: pod.node.name, resource: 'cpu', unit: 'core' }, (t) =>
            exposed(t) ? pod.cpuLimit : undefined,
          );
      }
    }
  }

  /** CPU cores a pod's container uses at t (its demand, capped by its limit). */
  cpuUsed(pod: Pod, t: number): number {
    return Math.min(pod.cpuLimit, this.cpuDemand(pod, t));
  }

  private cpuDemand(pod: Pod, t: number): number {
    const w = pod.workload;
    return w.effects.cpu?.(t, pod) ?? w.spec.cpu * this.wave(t, w.name) * (1 + 0.08 * Math.sin((t - this.start) / 97 + pod.ip.length));
  }

  memoryUsed(pod: Pod, t: number): number {
    const w = pod.workload;
    const custom = w.effects.memory?.(t, pod);
    if (custom !== undefined) return Math.min(custom, pod.memoryLimit);
    // Grows for the first minutes after a start (caches warming), then holds with a slow ripple.
    const warm = 1 - Math.exp(-(t - startedAt(pod, t)) / 900);
    return w.spec.memoryMiB * MiB * (0.55 + 0.45 * warm) * (1 + 0.03 * Math.sin((t - this.start) / 611 + pod.name.length));
  }

  private emitContainer(pod: Pod): void {
    const tel = this.telemetry;
    const w = pod.workload;
    const labels = {
      job: 'kubelet',
      metrics_path: '/metrics/cadvisor',
      instance: `${pod.node.ip}:10250`,
      node: pod.node.name,
      namespace: w.namespace,
      pod: pod.name,
      container: w.name,
      image: `registry.example.com/shop/${w.name}:${pod.version}`,
    };
    const up = (t: number): boolean => running(pod, t) && !pod.node.effects.down?.(t);
    const resets = pod.starts.slice(1);
    tel.counter(
      'container_cpu_usage_seconds_total',
      labels,
      (t) => (running(pod, t) ? this.cpuUsed(pod, t) * (1 + 0.05 * this.noise(`cadvisor-cpu:${pod.name}`, t)) : 0),
      {
        initial: Math.max(0, this.start - pod.from) * w.spec.cpu,
        alive: up,
        resets,
      },
    );
    tel.gauge('container_memory_working_set_bytes', labels, (t) =>
      up(t) ? Math.round(this.memoryUsed(pod, t) * (1 + 0.005 * this.noise(`cadvisor-mem:${pod.name}`, t))) : undefined,
    );
    tel.gauge('container_spec_memory_limit_bytes', labels, (t) => (up(t) ? pod.memoryLimit : undefined));
    // A container without a CPU limit has no CFS quota: cAdvisor writes no quota and no CFS periods.
    if (Number.isFinite(pod.cpuLimit)) {
      tel.gauge('container_spec_cpu_quota', labels, (t) => (up(t) ? pod.cpuLimit * 100_000 : undefined));
      if (this.cpuPeriodSeries) tel.gauge('container_spec_cpu_period', labels, (t) => (up(t) ? 100_000 : undefined));
      // 100 ms CFS periods; a period is throttled when the container wanted more than its quota in it.
      const throttled = (t: number): number => {
        const ratio = this.cpuDemand(pod, t) / pod.cpuLimit;
        return Math.min(1, Math.max(0.002, ratio < 0.5 ? 0.002 + 0.01 * ratio : (ratio - 0.45) * 1.1));
      };
      tel.counter('container_cpu_cfs_periods_total', labels, (t) => (running(pod, t) ? 10 : 0), {
        initial: Math.max(0, this.start - pod.from) * 10,
        alive: up,
        resets,
        integer: true,
      });
      tel.counter('container_cpu_cfs_throttled_periods_total', labels, (t) => (running(pod, t) ? 10 * throttled(t) : 0), {
        initial: Math.max(0, this.start - pod.from) * 10 * throttled(this.start),
        alive: up,
        resets,
        integer: true,
      });
    }
    // kubelet's /metrics/probes: a liveness probe every 10 s while the container runs. The kubelet
    // keeps the count across container restarts; a result's series exists from its first probe.
    const probes = { job: 'kubelet', metrics_path: '/metrics/probes', instance: labels.instance, node: pod.node.name, namespace: w.namespace, pod: pod.name };
    const probe = { ...probes, container: w.name, pod_uid: this.random(`uid:${pod.name}`).token(8, '0123456789abcdef'), probe_type: 'Liveness' };
    const fails = (t: number): boolean => running(pod, t) && t - startedAt(pod, t) >= 20 && (w.effects.livenessFails?.(t, pod) ?? false);
    const firstFailure = this.telemetry.times.find(fails) ?? Infinity;
    const probing = (t: number): boolean => alive(pod, t) && !pod.node.effects.down?.(t);
    tel.counter('prober_probe_total', { ...probe, result: 'successful' }, (t) => (running(pod, t) && !fails(t) ? 0.1 : 0), {
      initial: Math.max(0, this.start - pod.from) * 0.1,
      alive: probing,
      integer: true,
    });
    tel.counter('prober_probe_total', { ...probe, result: 'failed' }, (t) => (fails(t) ? 0.1 : 0), {
      initial: 0,
      alive: (t) => probing(t) && t >= firstFailure,
      integer: true,
    });
  }

  private target(pod: Pod): Labels {
    return {
      job: pod.workload.name,
      namespace: pod.workload.namespace,
      service: pod.workload.name,
      pod: pod.name,
      instance: `${pod.ip}:8080`,
      container: pod.workload.name,
    };
  }

  private emitProcess(pod: Pod): void {
    const tel = this.telemetry;
    const w = pod.workload;
    const target = this.target(pod);
    const scraped = (t: number): boolean => running(pod, t) && !w.effects.down?.(t, pod) && !pod.node.effects.down?.(t);
    // The target exists while the pod does; it answers only while its container runs.
    tel.gauge('up', target, (t) => (alive(pod, t) ? (scraped(t) ? 1 : 0) : undefined));
    tel.gauge(
      'app_build_info',
      { ...target, version: pod.version, revision: this.random(`rev:${w.name}:${pod.version}`).token(12, '0123456789abcdef'), goversion: 'go1.20.4' },
      (t) => (scraped(t) ? 1 : undefined),
    );
    tel.gauge('process_start_time_seconds', target, (t) => (scraped(t) ? startedAt(pod, t) : undefined));
    tel.counter(
      'process_cpu_seconds_total',
      target,
      (t) => (running(pod, t) ? this.cpuUsed(pod, t) * (1 + 0.05 * this.noise(`process-cpu:${pod.name}`, t)) : 0),
      {
        initial: Math.max(0, this.start - pod.from) * w.spec.cpu,
        alive: scraped,
        resets: pod.starts.slice(1),
      },
    );
    tel.gauge('process_resident_memory_bytes', target, (t) => (scraped(t) ? Math.round(this.memoryUsed(pod, t) * 0.92) : undefined));
    tel.gauge('process_open_fds', target, (t) => (scraped(t) ? 40 + Math.round(10 * this.wave(t, w.name)) : undefined));
  }

  private emitHttp(pod: Pod, ready: (t: number) => number): void {
    const tel = this.telemetry;
    const w = pod.workload;
    const target = this.target(pod);
    const scraped = (t: number): boolean => running(pod, t) && !w.effects.down?.(t, pod) && !pod.node.effects.down?.(t);
    const resets = pod.starts.slice(1);
    const initialSeconds = Math.max(0, this.start - startedAt(pod, this.start));
    // Requests per second this pod serves on a route.
    const served = (t: number, route: Route): number =>
      running(pod, t) && !w.effects.down?.(t, pod)
        ? ((w.spec.rps * route.share * this.wave(t, w.name) * (w.effects.load?.(t, route.route) ?? 1)) / ready(t)) *
          (1 + 0.06 * this.noise(`http:${pod.name}:${route.route}`, t))
        : 0;
    for (const route of w.spec.routes) {
      const base = { ...target, method: route.method, route: route.route };
      const errors = (t: number): Record<string, number> => ({ '500': 0.0008, ...(w.effects.errors?.(t, pod, route.route) ?? {}) });
      const codes = new Set<string>(['200', '500']);
      for (const t of tel.times) for (const code of Object.keys(errors(t))) codes.add(code);
      for (const code of codes) {
        const share = (t: number): number => {
          const e = errors(t);
          const failed = Object.values(e).reduce((a, b) => a + b, 0);
          return code === '200' ? Math.max(0, 1 - failed) : (e[code] ?? 0);
        };
        // A status code's series exists from the first request answered with it.
        const first = tel.times.find((t) => share(t) > 0 && running(pod, t)) ?? Infinity;
        const firstSeen = code === '200' || code === '500' ? -Infinity : first;
        tel.counter('http_requests_total', { ...base, code }, (t) => served(t, route) * share(t), {
          initial: (initialSeconds * w.spec.rps * route.share * share(this.start) * 0.9) / w.spec.replicas,
          alive: (t) => scraped(t) && t >= firstSeen,
          resets,
          integer: true,
        });
      }
      const median = (t: number): number => route.latency * (w.effects.latency?.(t, pod, route.route) ?? 1);
      this.histogram('http_request_duration_seconds', base, (t) => served(t, route), median, {
        initialSeconds,
        alive: scraped,
        resets,
        perSecond: (w.spec.rps * route.share) / w.spec.replicas,
      });
    }
    for (const peer of w.spec.peers ?? []) {
      const calls = (t: number): number => w.spec.routes.reduce((sum, route) => sum + served(t, route), 0) * peer.share;
      const failures = (t: number): Record<string, number> => w.effects.peerErrors?.(t, pod, peer.peer) ?? {};
      const outcomes = new Set<string>(['200']);
      for (const t of tel.times) for (const code of Object.keys(failures(t))) outcomes.add(code);
      const base = { ...target, peer: peer.peer };
      for (const code of outcomes) {
        const share = (t: number): number => {
          const f = failures(t);
          return code === '200' ? Math.max(0, 1 - Object.values(f).reduce((a, b) => a + b, 0)) : (f[code] ?? 0);
        };
        const first = code === '200' ? -Infinity : (tel.times.find((t) => share(t) > 0 && running(pod, t)) ?? Infinity);
        tel.counter('http_client_requests_total', { ...base, code }, (t) => calls(t) * share(t), {
          initial: (initialSeconds * w.spec.rps * peer.share * 0.9) / w.spec.replicas,
          alive: (t) => scraped(t) && t >= first,
          resets,
          integer: true,
        });
      }
      const median = (t: number): number => peer.latency * (w.effects.peerLatency?.(t, peer.peer) ?? 1);
      this.histogram('http_client_request_duration_seconds', base, calls, median, {
        initialSeconds,
        alive: scraped,
        resets,
        perSecond: (w.spec.rps * peer.share) / w.spec.replicas,
      });
    }
  }

  /** A latency histogram (cumulative buckets, sum, count) of log-normal latencies around `median(t)`. */
  private histogram(
    name: string,
    labels: Labels,
    rate: (t: number) => number,
    median: (t: number) => number,
    options: { initialSeconds: number; alive: (t: number) => boolean; resets: number[]; perSecond: number },
  ): void {
    const tel = this.telemetry;
    const initial = (fraction: number): number => options.initialSeconds * options.perSecond * fraction * 0.9;
    const below = (le: number, t: number): number => phi((Math.log(le) - Math.log(median(t))) / SIGMA);
    for (const le of BUCKETS) {
      tel.counter(`${name}_bucket`, { ...labels, le: String(le) }, (t) => rate(t) * below(le, t), {
        initial: initial(below(le, this.start)),
        alive: options.alive,
        resets: options.resets,
        integer: true,
      });
    }
    tel.counter(`${name}_bucket`, { ...labels, le: '+Inf' }, rate, { initial: initial(1), alive: options.alive, resets: options.resets, integer: true });
    tel.counter(`${name}_count`, labels, rate, { initial: initial(1), alive: options.alive, resets: options.resets, integer: true });
    tel.counter(`${name}_sum`, labels, (t) => rate(t) * median(t) * Math.exp((SIGMA * SIGMA) / 2), {
      initial: initial(median(this.start)),
      alive: options.alive,
      resets: options.resets,
    });
  }
}
