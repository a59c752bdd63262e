import { Cluster, Effects, Pod, Route, WorkloadSpec } from './cluster';
import {
  applyNaming,
  blackbox,
  Convention,
  CONVENTIONS,
  goSqlStats,
  hikariPool,
  Missing,
  Naming,
  otelPool,
  routeLabel,
  RuleWriter,
  rules,
} from './conventions';
import { hash, Random } from './random';
import {
  batch,
  chronicThrottling,
  CPU_THROTTLING_HIGH,
  failsWithPeer,
  Family,
  flappingFrontend,
  KUBE_POD_CRASH_LOOPING,
  KUBE_POD_RESTARTING_OFTEN,
  MINUTE,
  Rule,
  Scenario,
} from './scenarios';
import { configMap, consumersOf, NODES, postgres, rabbitmq, ramp, redis, shop, ShopOptions, volume, WORKLOADS } from './shop';

/**
 * The conventions suites: the fourteen cause families again, each scenario's shop naming and
 * labelling its telemetry by a convention (and lacking some usual parts) drawn from its seed, its
 * alerting rules written in that convention's metrics. The fault, the red herrings and the ground
 * truth vary with the seed too, within what the family's story allows.
 */

interface Spec {
  family: Family;
  seed: number;
  split: 'dev' | 'holdout';
  /** The scenario's place among its family's (holdout first): the family's scenarios take distinct conventions. */
  slot: number;
}

/** The scenario's draw: its convention, what it lacks, and a generator for its other choices. */
interface Draw {
  naming: Naming;
  r: Random;
  /** The rules of the convention of `workload` (a gRPC shop's frontend is a Node server). */
  writer(workload: string): RuleWriter;
}

/** A generator for one of a scenario's draws; hashing the seed keeps neighbouring seeds' draws apart. */
const stream = (seed: number, name: string): Random => new Random(hash(`${seed}/${name}`));

/** `name's`, or `name'` for a name ending in s. */
const possessive = (name: string): string => (name.endsWith('s') ? `${name}'` : `${name}'s`);

function draw(spec: Spec, allowed: readonly Convention[], missing: readonly Missing[] = ['kube_pod_info', 'client-metrics']): Draw {
  // The family's conventions in an order drawn from its name: its scenarios take them in turn.
  const order = stream(hash(spec.family), 'conventions');
  const shuffled = [...allowed].map((c) => [order.next(), c] as const).sort((a, b) => a[0] - b[0]);
  const convention = shuffled[spec.slot % shuffled.length][1];
  const r = stream(spec.seed, 'missing');
  const lacks = r.pick([null, null, null, ...missing]);
  const naming: Naming = { convention, missing: lacks ? [lacks] : [] };
  return {
    naming,
    r: stream(spec.seed, 'variant'),
    writer: (workload) => rules(convention === 'grpc-go' && workload === 'frontend' ? 'node-prom-client' : convention),
  };
}

/** A shop whose telemetry follows `naming`. */
function shopIn(end: number, seed: number, naming: Naming, options: ShopOptions = {}): Cluster {
  const c = shop(end, seed, options);
  applyNaming(c, naming);
  return c;
}

const errorRule = (w: RuleWriter, alert: string, job: string, threshold = 0.05, route?: Route, forSeconds = 5 * MINUTE): Rule => ({
  alert,
  expr: w.errorRatio(job, threshold, route),
  forSeconds,
  labels: { severity: 'critical', ...w.labels },
  annotations: { summary: `${job} is failing requests`, description: `{{ $value | humanizePercentage }} of ${job}'s requests fail.` },
});

const latencyRule = (w: RuleWriter, alert: string, job: string, threshold: number): Rule => ({
  alert,
  expr: w.latencyP99(job, threshold),
  forSeconds: 5 * MINUTE,
  labels: { severity: 'warning', ...w.labels },
  annotations: { summary: `${job} answers slowly`, description: `The 99th percentile latency of ${job} is {{ $value }}.` },
});

/** A frontend pod that flaps (flappingFrontend), alerted on as kube-state-metrics sees it. */
const FRONTEND_POD_NOT_READY: Rule = {
  alert: 'FrontendPodNotReady',
  expr: 'kube_pod_container_status_ready{job="kube-state-metrics", namespace="shop", container="frontend"} == 0',
  forSeconds: MINUTE,
  labels: { severity: 'warning' },
  annotations: { summary: 'A frontend pod is not ready.' },
};

const capital = (text: string): string => text.replace(/(^|-)(\w)/g, (_, _d: string, ch: string) => ch.toUpperCase());

/** The next minor version: 2.14.3 → 2.15.0. */
function bump(version: string): string {
  const [major, minor] = version.split('.').map(Number);
  return `${major}.${minor + 1}.0`;
}

const VERSION_SERIES = (w: RuleWriter): RegExp => new RegExp(w.versionSeries);

type Template = (spec: Spec) => Scenario;

/** A red herring drawn for a scenario from its seed: its story, and what it adds to the cluster. */
interface Herring {
  story: string;
  options(end: number): ShopOptions;
  after?: (c: Cluster, end: number) => void;
}

/** The next patch version: 2.14.3 → 2.14.4. */
function patch(version: string): string {
  const [major, minor, p] = version.split('.').map(Number);
  return `${major}.${minor}.${p + 1}`;
}

function herring(seed: number, choices: Array<'chronic' | 'flapping' | 'rollout' | 'none'>, rolloutOf = 'frontend'): Herring {
  const r = stream(seed, 'herring');
  const kind = r.pick(choices);
  if (kind === 'chronic') return { story: 'a chronic CPUThrottlingHigh (recommendations) in the same group', options: () => chronicThrottling };
  if (kind === 'flapping')
    return {
      story: 'an unrelated flapping frontend pod, alerted on in the same group',
      options: (end) => ({ effects: { frontend: flappingFrontend(end - 31 * MINUTE) } }),
    };
  if (kind === 'rollout') {
    const before = 6 + r.int(0, 4);
    return {
      story: `a ${rolloutOf} rollout that changed nothing, about ${before} min before the fault`,
      options: () => ({}),
      after: (c, end) => void c.rollout(c.workload(rolloutOf), end - (36 + before) * MINUTE, { version: patch(c.workload(rolloutOf).spec.version) }),
    };
  }
  return { story: '', options: () => ({}) };
}

const merge = (a: ShopOptions, b: ShopOptions): ShopOptions => ({
  workloads: a.workloads ?? b.workloads,
  specs: { ...a.specs, ...b.specs },
  effects: { ...b.effects, ...a.effects },
});

function scenario(
  stem: string,
  family: Family,
  spec: Spec,
  d: Draw,
  body: Omit<Scenario, 'name' | 'family' | 'seed' | 'split' | 'convention' | 'missing' | 'redHerrings'> & { redHerrings: string[] },
): Scenario {
  return {
    name: `${stem}-${d.naming.convention}`,
    family,
    seed: spec.seed,
    split: spec.split,
    convention: d.naming.convention,
    missing: d.naming.missing,
    ...body,
    redHerrings: body.redHerrings.filter(Boolean),
  };
}

const rollout: Template = (spec) => {
  const d = draw(spec, CONVENTIONS);
  const target = d.r.pick(['checkout', 'payments', 'cart', 'search'] as const);
  const version = bump(WORKLOADS[target].version);
  const slow = target === 'search';
  const ratio = d.r.pick([0.12, 0.2, 0.35]);
  const h = herring(spec.seed, ['chronic', 'flapping', 'none'], target);
  return scenario(`${target}-bad-version`, 'rollout', spec, d, {
    story: slow
      ? `${target} ${version} answers /api/search several times slower from its rollout on.`
      : `${target} ${version} fails ${Math.round(ratio * 100)}% of its requests from its rollout on.`,
    redHerrings: [h.story],
    build(end) {
      const c = shopIn(end, spec.seed, d.naming, h.options(end));
      h.after?.(c, end);
      const w = c.workload(target);
      const fresh = c.rollout(w, c.ago(36 + d.r.int(0, 6)), { version });
      w.effects = slow
        ? { latency: (_t, pod, route) => (fresh.includes(pod) && route === '/api/search' ? 5 : 1) }
        : { errors: (_t, pod) => (fresh.includes(pod) ? { '500': ratio } : undefined) };
      return c;
    },
    rule: slow ? latencyRule(d.writer(target), 'SearchLatencyHigh', target, 0.5) : errorRule(d.writer(target), `${capital(target)}HighErrorRate`, target),
    otherRules: [CPU_THROTTLING_HIGH, FRONTEND_POD_NOT_READY],
    truth: { values: [[version]], series: VERSION_SERIES(d.writer(target)) },
  });
};

const dependencyDown: Template = (spec) => {
  const d = draw(spec, CONVENTIONS);
  const [caller, peer] = d.r.pick([
    ['checkout', 'inventory'],
    ['checkout', 'payments'],
    ['cart', 'sessions-redis'],
  ] as const);
  const w = d.writer(caller);
  const probed = d.r.next() < 0.5;
  const h = herring(spec.seed, ['rollout', 'flapping', 'none'], caller);
  return scenario(`${peer}-down`, 'dependency-down', spec, d, {
    story: `${peer} stops answering; ${caller} fails the requests that call it (connection refused).`,
    redHerrings: [h.story],
    build(end) {
      const at = end - (34 + d.r.int(0, 6)) * MINUTE;
      const ratio = caller === 'cart' ? 0.9 : peer === 'payments' ? 0.55 : 0.62;
      const c = shopIn(end, spec.seed, d.naming, merge({ effects: { [caller]: failsWithPeer(peer, at, '503', ratio, 'connection_refused') } }, h.options(end)));
      h.after?.(c, end);
      if (peer === 'sessions-redis') {
        redis(c, 'sessions-redis', (t) => t >= at);
        if (probed) blackbox(c, [{ target: 'sessions-redis.shop.svc:6379', module: 'tcp_connect', fails: (t) => t >= at }]);
      } else {
        c.workload(peer).effects = { down: (t) => t >= at };
        if (probed) blackbox(c, [{ target: `http://${peer}.shop.svc:8080/healthz`, module: 'http_2xx', fails: (t) => t >= at }]);
      }
      return c;
    },
    rule: errorRule(w, `${capital(caller)}HighErrorRate`, caller),
    otherRules: [FRONTEND_POD_NOT_READY],
    truth: { values: [[peer]], series: new RegExp(`${peer}|probe_success|redis_up${w.clientSeries ? `|${w.clientSeries}` : ''}`) },
  });
};

const MEMORY_SERIES = /container_memory_working_set_bytes|last_terminated_reason|container_spec_memory_limit_bytes|kube_pod_container_resource_limits/;
const OOM_VALUES = [['OOMKilled', 'out of memory', 'memory limit', 'OOM']];

const memoryLimit: Template = (spec) => {
  const d = draw(spec, CONVENTIONS);
  const target = d.r.pick(['orders', 'checkout', 'search', 'cart'] as const);
  const lowered = d.r.next() < 0.5;
  const h = herring(spec.seed, ['chronic', 'none'], target);
  return scenario(`${target}-${lowered ? 'memory-limit-lowered' : 'memory-leak'}`, 'memory-limit', spec, d, {
    story: lowered
      ? `A resources-only rollout lowers ${possessive(target)} memory limit (same version); the new pods are OOMKilled as their caches warm and crash loop.`
      : `${possessive(target)} working set grows to its limit; its containers are OOMKilled every few minutes.`,
    redHerrings: [h.story],
    build(end) {
      const c = shopIn(end, spec.seed, d.naming, h.options(end));
      const w = c.workload(target);
      const MiB = 1024 * 1024;
      const usual = WORKLOADS[target].memoryMiB * MiB;
      if (lowered) {
        const limit = Math.round(WORKLOADS[target].memoryMiB * 1.05);
        const fresh = c.rollout(w, c.ago(38 + d.r.int(0, 5)), { memoryLimitMiB: limit });
        for (const pod of fresh) c.crashLoop(pod, pod.from + 110, 'OOMKilled', 110);
        w.effects = {
          memory: (t, pod) => (fresh.includes(pod) ? usual * Math.min(1.2, 0.55 + (t - Math.max(...pod.starts.filter((s) => s <= t))) / 240) : undefined),
        };
      } else {
        const leakFrom = c.ago(70 + d.r.int(0, 10));
        const limit = WORKLOADS[target].memoryLimitMiB * MiB;
        const first = (limit - usual) / (32 * MINUTE);
        const climbs = new Map<Pod, number[]>();
        for (const pod of w.pods) {
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
        w.effects = {
          memory: (t, pod) => {
            const from = climbs
              .get(pod)!
              .filter((s) => s <= t)
              .pop();
            return from === undefined ? undefined : usual + (t - from) * (from === leakFrom ? first : first * 5);
          },
        };
      }
      return c;
    },
    rule: lowered ? KUBE_POD_CRASH_LOOPING : KUBE_POD_RESTARTING_OFTEN,
    otherRules: [CPU_THROTTLING_HIGH],
    truth: { values: OOM_VALUES, series: MEMORY_SERIES },
  });
};

const UPLOADS: Route = { method: 'POST', route: '/api/uploads', share: 0.4, latency: 0.35 };
const ENTRIES: Route = { method: 'POST', route: '/api/ledger/entries', share: 0.6, latency: 0.04 };

const filesystemFull: Template = (spec) => {
  const d = draw(spec, CONVENTIONS);
  const claim = d.r.next() < 0.5;
  const node = d.r.pick(NODES.slice(1));
  const name = claim ? 'ledger' : 'media';
  const route = claim ? ENTRIES : UPLOADS;
  const w = d.writer(name);
  const short = node.split('.')[0];
  const h = herring(spec.seed, ['flapping', 'chronic', 'none']);
  return scenario(claim ? 'ledger-volume-full' : 'media-disk-full', 'filesystem-full', spec, d, {
    story: claim
      ? "ledger's data volume (claim data-ledger) fills up; its writes fail with 507."
      : `The local volume /var/lib/media on ${short} fills up; media's uploads fail with 507.`,
    redHerrings: [h.story],
    build(end) {
      const full = end - (34 + d.r.int(0, 6)) * MINUTE;
      const c = shopIn(
        end,
        spec.seed,
        d.naming,
        merge({ workloads: ['frontend', 'cart', 'checkout', 'payments', 'inventory', 'recommendations'] }, h.options(end)),
      );
      const spec2: WorkloadSpec = {
        name,
        replicas: 1,
        version: claim ? '3.1.0' : '1.4.2',
        rps: claim ? 10 : 6,
        routes: [
          route,
          claim
            ? { method: 'GET', route: '/api/ledger/{id}', share: 0.4, latency: 0.01 }
            : { method: 'GET', route: '/api/media/{id}', share: 0.6, latency: 0.03 },
        ],
        memoryMiB: 350,
        memoryLimitMiB: 1024,
        cpu: 0.2,
        cpuLimit: 1,
      };
      const errors: Effects = { errors: (t, _pod, r) => (t >= full && r === route.route ? { '507': 0.96 } : undefined) };
      if (claim) {
        const capacity = 50 * 1024 ** 3;
        const ledger = c.addWorkload(spec2, errors, { nodes: [node] });
        volume(c, ledger.pods[0], 'data-ledger', capacity, (t) =>
          t >= full ? 0 : capacity * 0.04 * (1 - ramp(t, end - 170 * MINUTE, full)) + (2e6 * Math.max(0, full - t)) / 60,
        );
      } else {
        const size = 200 * 1024 ** 3;
        c.node(node).mounts['/var/lib/media'] = size;
        c.node(node).effects.filesystemFree = (t, mount) =>
          mount === '/var/lib/media' ? (t >= full ? 0 : size * 0.02 * (1 - ramp(t, end - 150 * MINUTE, full)) + (3e6 * Math.max(0, full - t)) / 60) : undefined;
        c.addWorkload(spec2, errors, { nodes: [node] });
      }
      return c;
    },
    // A mesh's request metrics have no route: its teams alert on the workload's ratio.
    rule: errorRule(
      w,
      claim ? 'LedgerWritesFailing' : 'MediaUploadsFailing',
      name,
      0.1,
      ['istio', 'linkerd'].includes(d.naming.convention) ? undefined : route,
    ),
    otherRules: [FRONTEND_POD_NOT_READY, CPU_THROTTLING_HIGH],
    truth: claim ? { values: [['data-ledger']], series: /kubelet_volume_stats/ } : { values: [[short, '/var/lib/media']], series: /node_filesystem/ },
  });
};

/** Conventions whose request metrics name the route (a mesh's do not). */
const ROUTED: Convention[] = CONVENTIONS.filter((c) => c !== 'istio' && c !== 'linkerd');

const trafficSurge: Template = (spec) => {
  const d = draw(spec, ROUTED);
  const [target, route] = d.r.pick([
    ['search', WORKLOADS.search.routes[0]],
    ['recommendations', WORKLOADS.recommendations.routes[0]],
    ['cart', WORKLOADS.cart.routes[0]],
  ] as const);
  const label = routeLabel(d.naming.convention, route);
  const factor = d.r.pick([5, 6, 8]);
  const w = d.writer(target);
  const h = herring(spec.seed, ['rollout', 'chronic', 'none']);
  return scenario(`${target}-traffic-surge`, 'traffic-surge', spec, d, {
    story: `A crawler multiplies ${route.route} traffic of ${target} by ${factor}; ${target} saturates its CPU and its latency climbs.`,
    redHerrings: [h.story],
    build(end) {
      const at = end - (37 + d.r.int(0, 4)) * MINUTE;
      const load = (t: number, r: string): number => (r === route.route ? 1 + (factor - 1) * ramp(t, at, at + 4 * MINUTE) : 1);
      const base = WORKLOADS[target];
      const c = shopIn(
        end,
        spec.seed,
        d.naming,
        merge(
          {
            specs: target === 'recommendations' ? { recommendations: { cpu: 0.3, cpuLimit: 1 } } : {},
            effects: {
              [target]: {
                load,
                cpu: (t) => base.cpu * (1 - route.share + route.share * load(t, route.route)) * c.wave(t, target),
                latency: (t, _pod, r) => (r === route.route ? 1 / Math.max(0.06, 1 - (0.9 / factor) * load(t, route.route)) : 1),
              },
            },
          },
          h.options(end),
        ),
      );
      h.after?.(c, end);
      return c;
    },
    rule: latencyRule(w, `${capital(target)}LatencyHigh`, target, Math.max(0.3, route.latency * 8)),
    otherRules: [CPU_THROTTLING_HIGH],
    truth: { values: [[label]], series: new RegExp(w.serverSeries) },
  });
};

const configuration: Template = (spec) => {
  const d = draw(spec, CONVENTIONS);
  const target = d.r.pick(['cart', 'checkout', 'payments', 'search'] as const);
  const configName = `${target}-${d.r.pick(['config', 'settings'])}`;
  const h = herring(spec.seed, ['chronic', 'none']);
  return scenario(`${target}-config-crashloop`, 'configuration', spec, d, {
    story: `An edit of the ${configName} ConfigMap rolls ${target} (same version); the new pod exits at start and crash loops, stalling the rollout.`,
    redHerrings: [h.story],
    build(end) {
      const c = shopIn(end, spec.seed, d.naming, h.options(end));
      const at = c.ago(36 + d.r.int(0, 5));
      configMap(c, 'shop', configName, [at - 20]);
      configMap(c, 'shop', 'frontend-config', [at - 95 * MINUTE]);
      const [broken] = c.rollout(c.workload(target), at, { stalled: true });
      c.crashLoop(broken, at + 6, 'Error', 3);
      return c;
    },
    rule: KUBE_POD_CRASH_LOOPING,
    otherRules: [CPU_THROTTLING_HIGH],
    truth: { values: [[configName]], series: /kube_configmap|kube_deployment_metadata_generation|last_terminated_reason/ },
  });
};

const scaledToZero: Template = (spec) => {
  const d = draw(spec, CONVENTIONS);
  const [worker, queue] = d.r.pick([
    ['orders-worker', 'orders'],
    ['emails-worker', 'emails'],
  ] as const);
  const h = herring(spec.seed, ['flapping', 'chronic', 'none']);
  return scenario(`${worker}-scaled-to-zero`, 'scaled-to-zero', spec, d, {
    story: `${worker} is scaled to zero; the ${queue} queue loses its consumers and its oldest message ages.`,
    redHerrings: [h.story],
    build(end) {
      const c = shopIn(end, spec.seed, d.naming, h.options(end));
      if (worker === 'emails-worker') c.addWorkload({ ...WORKLOADS['orders-worker'], name: 'emails-worker', version: '1.2.4' });
      c.scale(c.workload(worker), c.ago(42 + d.r.int(0, 5)), 0);
      rabbitmq(c, queue, consumersOf(c, worker), 4);
      rabbitmq(c, queue === 'orders' ? 'emails' : 'orders', () => 2, 2);
      return c;
    },
    rule: {
      alert: 'QueueMessagesStale',
      expr: 'max by (namespace, job, queue) (time() - rabbitmq_queue_head_message_timestamp) > 600',
      forSeconds: 5 * MINUTE,
      labels: { severity: 'critical' },
      annotations: { summary: 'Messages in {{ $labels.queue }} wait for more than ten minutes.' },
    },
    otherRules: [FRONTEND_POD_NOT_READY, CPU_THROTTLING_HIGH],
    truth: { values: [[worker]], series: /kube_deployment_status_replicas|kube_deployment_spec_replicas|rabbitmq_queue_consumers/ },
  });
};

const downstreamLatency: Template = (spec) => {
  const d = draw(spec, CONVENTIONS);
  const convention = d.naming.convention;
  // go-grpc-prometheus sees only gRPC peers; outside APIs slow down in other shops.
  const peer = convention === 'grpc-go' ? 'inventory' : d.r.pick(['partner-bank', 'inventory'] as const);
  const w = d.writer('checkout');
  const noClient = !w.clientSeries || d.naming.missing?.includes('client-metrics');
  const h = herring(spec.seed, ['rollout', 'none'], 'checkout');
  return scenario(`${peer}-slow`, 'downstream-latency', spec, d, {
    story:
      peer === 'partner-bank'
        ? 'partner-bank answers payments ten times slower; payments and then checkout slow down.'
        : 'inventory answers about thirty times slower (its own latency shows it); checkout, which calls it for every request, slows down.',
    redHerrings: [h.story],
    build(end) {
      const at = end - (35 + d.r.int(0, 4)) * MINUTE;
      const slow = (t: number): number => 1 + (peer === 'partner-bank' ? 11 : 30) * ramp(t, at, at + 2 * MINUTE);
      const effects: Record<string, Effects> =
        peer === 'partner-bank'
          ? {
              payments: { peerLatency: (t, p) => (p === 'partner-bank' ? slow(t) : 1), latency: (t) => 1 + (slow(t) - 1) * 0.85 },
              checkout: {
                peerLatency: (t, p) => (p === 'payments' ? 1 + (slow(t) - 1) * 0.8 : 1),
                latency: (t, _p, route) => (route === '/api/checkout' ? 1 + (slow(t) - 1) * 0.55 : 1),
              },
            }
          : {
              inventory: { latency: slow },
              checkout: {
                peerLatency: (t, p) => (p === 'inventory' ? slow(t) : 1),
                latency: (t, _p, route) => (route === '/api/checkout' ? 1 + (slow(t) - 1) * 0.12 : 1),
              },
            };
      const c = shopIn(end, spec.seed, d.naming, merge({ effects }, h.options(end)));
      h.after?.(c, end);
      if (peer === 'partner-bank' && noClient) {
        // Without client metrics, the outside API's slowness shows only in its probe.
        blackbox(c, [
          {
            target: 'https://api.partner-bank.example/health',
            module: 'http_2xx',
            duration: (t) => 0.09 * slow(t) * (1 + 0.05 * c.noise('probe:partner-bank', t)),
          },
        ]);
      }
      return c;
    },
    rule: latencyRule(w, 'CheckoutLatencyHigh', 'checkout', 1),
    truth: {
      values: [peer === 'partner-bank' ? ['partner-bank', 'api.partner-bank.example'] : ['inventory']],
      series: new RegExp(`${peer}|probe_duration_seconds${w.clientSeries ? `|${w.clientSeries}` : ''}|${w.serverSeries}`),
    },
  });
};

const cpuThrottling: Template = (spec) => {
  const d = draw(spec, CONVENTIONS);
  const target = d.r.pick(['recommendations', 'search'] as const);
  const limit = target === 'recommendations' ? 0.3 : 0.5;
  const w = d.writer(target);
  return scenario(`${target}-cpu-throttled`, 'cpu-throttling', spec, d, {
    story: `A resources-only rollout lowers ${possessive(target)} CPU limit to ${limit} cores (same version); its containers are throttled and latency climbs.`,
    redHerrings: ['the rollout looks like a new build'],
    build(end) {
      const c = shopIn(end, spec.seed, d.naming);
      const wl = c.workload(target);
      const fresh = c.rollout(wl, c.ago(38 + d.r.int(0, 5)), { cpuLimit: limit });
      wl.effects = {
        latency: (t, pod) => {
          if (!fresh.includes(pod)) return 1;
          const demand = WORKLOADS[target].cpu * c.wave(t, target) * 1.08;
          return 1 + 6 * Math.max(0, demand / limit - 0.6);
        },
      };
      return c;
    },
    rule: latencyRule(w, `${capital(target)}LatencyHigh`, target, target === 'search' ? 0.5 : 0.4),
    truth: {
      values: [['throttl', 'cpu limit', 'cfs', 'cpu quota']],
      series: /container_cpu_cfs_throttled|kube_pod_container_resource_limits|container_spec_cpu_quota/,
    },
  });
};

const nodeNotReady: Template = (spec) => {
  const d = draw(spec, CONVENTIONS);
  const node = d.r.pick(NODES.slice(0, 3));
  const [caller, callee] = d.r.pick([
    ['frontend', 'cart'],
    ['checkout', 'inventory'],
  ] as const);
  const w = d.writer(caller);
  const short = node.split('.')[0];
  const h = herring(spec.seed, ['chronic', 'none']);
  return scenario(`${short}-not-ready`, 'node', spec, d, {
    story: `${short} stops reporting (NotReady); the ${callee} pod on it no longer answers and ${caller}'s calls to it time out.`,
    redHerrings: [h.story],
    build(end) {
      const at = end - (34 + d.r.int(0, 4)) * MINUTE;
      const c = shopIn(end, spec.seed, d.naming, h.options(end));
      c.node(node).effects = { ready: (t) => t < at, down: (t) => t >= at };
      const target = c.workload(callee);
      let stranded = target.pods.filter((p) => p.node.name === node);
      // The callee always has a pod on the node that fails.
      if (stranded.length === 0) {
        target.pods[0].node = c.node(node);
        stranded = [target.pods[0]];
      }
      target.effects = { down: (t, pod) => stranded.includes(pod) && t >= at };
      const share = stranded.length / target.pods.length;
      c.workload(caller).effects = {
        errors: (t) => (t >= at ? { '502': 0.9 * share * (caller === 'frontend' ? 0.5 : 1) } : undefined),
        peerErrors: (t, _pod, p) => (p === callee && t >= at ? { timeout: share } : undefined),
      };
      return c;
    },
    rule: errorRule(w, `${capital(caller)}HighErrorRate`, caller, 0.05, undefined, 3 * MINUTE),
    otherRules: [CPU_THROTTLING_HIGH],
    truth: { values: [[short]], series: /kube_node_status_condition|node_|kube_pod_info/ },
  });
};

const certificate: Template = (spec) => {
  const d = draw(spec, CONVENTIONS);
  const [caller, peer] = d.r.pick([
    ['payments', 'partner-bank'],
    ['checkout', 'fraud-check'],
  ] as const);
  const host = `api.${peer}.example`;
  const tls = d.r.next() < 0.5;
  const w = d.writer(caller);
  const h = herring(spec.seed, ['chronic', 'flapping', 'none']);
  return scenario(`${peer}-certificate-expired`, 'certificate', spec, d, {
    story: `${peer}'s TLS certificate expires; every ${caller} call to it fails the handshake.`,
    redHerrings: [h.story],
    build(end) {
      const expiry = end - (34 + d.r.int(0, 4)) * MINUTE;
      const peers = caller === 'checkout' ? [...(WORKLOADS.checkout.peers ?? []), { peer: 'fraud-check', share: 0.7, latency: 0.08 }] : undefined;
      const c = shopIn(
        end,
        spec.seed,
        d.naming,
        merge(
          {
            specs: peers ? { checkout: { peers } } : {},
            effects: { [caller]: failsWithPeer(peer, expiry, '502', caller === 'checkout' ? 0.68 : 0.97, 'tls_error') },
          },
          h.options(end),
        ),
      );
      blackbox(c, [
        tls
          ? { target: `${host}:443`, module: 'tls_connect', fails: (t) => t >= expiry, certExpiry: expiry }
          : { target: `https://${host}/health`, module: 'http_2xx', fails: (t) => t >= expiry, certExpiry: expiry },
        { target: 'https://shop.example.com', module: 'http_2xx' },
        { target: 'ordersdb.shop.svc:5432', module: 'tcp_connect' },
      ]);
      return c;
    },
    rule: errorRule(w, `${capital(caller)}HighErrorRate`, caller),
    otherRules: [CPU_THROTTLING_HIGH, FRONTEND_POD_NOT_READY],
    truth: {
      values: [
        [peer, host],
        ['certificate', 'cert', 'ssl', 'tls'],
      ],
      series: new RegExp(`probe_ssl_earliest_cert_expiry|probe_success${w.clientSeries ? `|${w.clientSeries}` : ''}`),
    },
  });
};

/** Conventions with a connection pool view of their own. */
const POOLED: Convention[] = ['micrometer', 'grpc-go', 'opentelemetry'];

const databaseSaturation: Template = (spec) => {
  const d = draw(spec, CONVENTIONS);
  const pooled = POOLED.includes(d.naming.convention) && d.r.next() < 0.6;
  const pool = { micrometer: 'HikariPool-1', 'grpc-go': 'accountsdb', opentelemetry: 'accounts-pool' }[d.naming.convention as 'micrometer'] ?? '';
  const workload = pooled ? 'accounts' : 'orders';
  const w = d.writer(workload);
  const h = herring(spec.seed, ['rollout', 'none'], workload === 'orders' ? 'orders' : 'frontend');
  return scenario(pooled ? 'accounts-pool-exhausted' : 'ordersdb-connections-exhausted', 'database-saturation', spec, d, {
    story: pooled
      ? `A batch endpoint of accounts holds its pooled connections; the pool ${pool} (10) runs dry and requests time out waiting for one. The database itself is fine.`
      : 'A reports export holds transactions open on ordersdb until connections reach max_connections; orders fails to get connections.',
    redHerrings: [h.story],
    build(end) {
      const at = end - (36 + d.r.int(0, 4)) * MINUTE;
      if (!pooled) {
        const c = shopIn(end, spec.seed, d.naming, h.options(end));
        h.after?.(c, end);
        postgres(c, 'ordersdb', { maxConnections: 200, extra: (t) => 156 * ramp(t, at - 4 * MINUTE, at + MINUTE) });
        c.workload('orders').effects = {
          errors: (t) => (t >= at ? { '500': 0.35 } : undefined),
          latency: (t) => 1 + 4 * ramp(t, at - MINUTE, at + MINUTE),
          peerErrors: (t, _pod, p) => (p === 'ordersdb' && t >= at ? { too_many_connections: 0.25 } : undefined),
        };
        return c;
      }
      const c = shopIn(end, spec.seed, d.naming, merge({ workloads: ['frontend', 'checkout', 'payments', 'inventory'] }, h.options(end)));
      h.after?.(c, end);
      const dry = (t: number): number => ramp(t, at - 2 * MINUTE, at);
      c.addWorkload(
        {
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
        },
        { errors: (t) => (t >= at ? { '500': 0.3 } : undefined), latency: (t) => 1 + 20 * dry(t) },
      );
      postgres(c, 'accountsdb', { maxConnections: 300 });
      const active = (t: number): number => 3 * c.wave(t, 'accounts') + 7 * dry(t);
      const waiting = (t: number): number => 30 * dry(t);
      if (d.naming.convention === 'micrometer') hikariPool(c, 'accounts', pool, 10, active, waiting);
      else if (d.naming.convention === 'grpc-go') goSqlStats(c, 'accounts', pool, 10, active, waiting);
      else otelPool(c, 'accounts', pool, 10, active, waiting);
      return c;
    },
    rule: errorRule(w, `${capital(workload)}HighErrorRate`, workload),
    otherRules: [CPU_THROTTLING_HIGH],
    truth: pooled
      ? { values: [[pool], ['pool']], series: /hikaricp_connections|go_sql_stats_connections|db_client_connections/ }
      : { values: [['ordersdb', 'orders database'], ['connection']], series: /pg_stat_activity_count|pg_settings_max_connections|ordersdb/ },
  });
};

/** redis_exporter's view of a Redis whose commands slow down: the slow log grows, command time climbs. */
function slowRedis(c: Cluster, name: string, slow: (t: number) => number): void {
  redis(c, name);
  const target = { job: 'redis-exporter', instance: '10.2.2.31:9121', namespace: 'monitoring', redis: name, addr: `redis://${name}.shop.svc:6379` };
  c.telemetry.counter('redis_commands_duration_seconds_total', { ...target, cmd: 'get' }, (t) => 90 * 0.00004 * slow(t), { initial: 4.1e3 });
  c.telemetry.counter('redis_commands_total', { ...target, cmd: 'get' }, () => 90, { initial: 9.3e7, integer: true });
  c.telemetry.gauge('redis_slowlog_length', target, (t) => Math.min(128, Math.round(2 + (slow(t) > 10 ? (t - c.start) / 600 : 0))));
}

const livenessProbe: Template = (spec) => {
  const d = draw(spec, CONVENTIONS);
  const viaRedis = d.r.next() < 0.5;
  const target = viaRedis ? 'cart' : d.r.pick(['inventory', 'payments'] as const);
  const h = herring(spec.seed, ['chronic', 'none']);
  return scenario(viaRedis ? 'cart-liveness-slow-redis' : `${target}-liveness-hang`, 'liveness-probe', spec, d, {
    story: viaRedis
      ? "sessions-redis slows to seconds per command; cart's liveness probe, which pings Redis, times out and the kubelet restarts cart's containers."
      : `${possessive(target)} processes hang (a deadlock the metrics do not show); their liveness probes fail and the kubelet restarts them.`,
    redHerrings: [h.story],
    build(end) {
      const at = end - (36 + d.r.int(0, 4)) * MINUTE;
      const c = shopIn(end, spec.seed, d.naming, h.options(end));
      const w = c.workload(target);
      if (viaRedis) {
        const slow = (t: number): number => 1 + 999 * ramp(t, at, at + MINUTE);
        slowRedis(c, 'sessions-redis', slow);
        w.effects = { peerLatency: (t, peer) => (peer === 'sessions-redis' ? slow(t) : 1), latency: (t) => 1 + 20 * ramp(t, at, at + MINUTE) };
        for (const pod of w.pods) c.livenessKills(pod, at + 50, () => true);
      } else {
        w.pods.forEach((pod, k) => c.livenessKills(pod, at + k * 75, () => true));
      }
      return c;
    },
    rule: KUBE_POD_RESTARTING_OFTEN,
    otherRules: [CPU_THROTTLING_HIGH],
    truth: viaRedis
      ? { values: [['sessions-redis'], ['liveness']], series: /redis_|sessions-redis|prober_probe_total|db_client_operation_duration_seconds/ }
      : { values: [['liveness']], series: /prober_probe_total/ },
  });
};

const noisyNeighbour: Template = (spec) => {
  const d = draw(spec, CONVENTIONS);
  const target = d.r.pick(['search', 'checkout', 'recommendations'] as const);
  const batchName = d.r.pick(['video-transcode', 'ml-training', 'backup-compactor']);
  // The shop places a workload's first pod on the node of its index among the workloads.
  const starvedNode = NODES[Object.keys(WORKLOADS).indexOf(target) % NODES.length].split('.')[0];
  const w = d.writer(target);
  return scenario(`${target}-noisy-neighbour`, 'noisy-neighbour', spec, d, {
    story: `A ${batchName} batch pod takes all four cores of the node of one ${target} pod; that pod is starved and ${possessive(target)} p99 climbs.`,
    redHerrings: ['a neighbour bursting on a node with CPU to spare'],
    build(end) {
      const at = end - (35 + d.r.int(0, 4)) * MINUTE;
      const c = shopIn(end, spec.seed, d.naming);
      const wl = c.workload(target);
      const [starved, spare] = wl.pods.map((p) => p.node.name);
      if (!starved.startsWith(starvedNode)) throw new Error(`${possessive(target)} first pod runs on ${starved}, not ${starvedNode}`);
      c.addWorkload(...batch(batchName, '4.0.1', starved, (t) => (t >= at ? 3.6 : 0.1)));
      c.addWorkload(...batch('log-shipper', '0.8.3', spare, (t) => (t >= at - MINUTE ? 1.1 : 0.1)));
      wl.effects = { latency: (t, pod) => (pod.node.name === starved ? 1 + 8 * ramp(t, at, at + MINUTE) : 1) };
      return c;
    },
    rule: latencyRule(w, `${capital(target)}LatencyHigh`, target, target === 'checkout' ? 1 : 0.5),
    truth: { values: [[batchName], [starvedNode]], series: /node_cpu_seconds_total|container_cpu_usage_seconds_total/ },
  });
};

const FAMILIES: Record<Family, Template> = {
  rollout,
  'dependency-down': dependencyDown,
  'memory-limit': memoryLimit,
  'filesystem-full': filesystemFull,
  'traffic-surge': trafficSurge,
  configuration,
  'scaled-to-zero': scaledToZero,
  'downstream-latency': downstreamLatency,
  'cpu-throttling': cpuThrottling,
  node: nodeNotReady,
  certificate,
  'database-saturation': databaseSaturation,
  'liveness-probe': livenessProbe,
  'noisy-neighbour': noisyNeighbour,
};

/** Scenarios only ever looked at in totals: nothing is tuned on them. */
const HOLDOUT: Array<[Family, number]> = [
  ['rollout', 2101],
  ['rollout', 2102],
  ['dependency-down', 2201],
  ['dependency-down', 2202],
  ['memory-limit', 2301],
  ['filesystem-full', 2401],
  ['filesystem-full', 2402],
  ['traffic-surge', 2501],
  ['configuration', 2601],
  ['scaled-to-zero', 2701],
  ['downstream-latency', 2801],
  ['downstream-latency', 2802],
  ['cpu-throttling', 2901],
  ['node', 3001],
  ['node', 3002],
  ['certificate', 3101],
  ['database-saturation', 3201],
  ['database-saturation', 3202],
  ['liveness-probe', 3301],
  ['noisy-neighbour', 3401],
  ['noisy-neighbour', 3402],
];

/** Scenarios the reasoner may be tuned on. */
const DEV: Array<[Family, number]> = [
  ['rollout', 1101],
  ['dependency-down', 1201],
  ['memory-limit', 1301],
  ['memory-limit', 1302],
  ['filesystem-full', 1401],
  ['traffic-surge', 1501],
  ['traffic-surge', 1502],
  ['configuration', 1601],
  ['configuration', 1602],
  ['scaled-to-zero', 1701],
  ['scaled-to-zero', 1702],
  ['downstream-latency', 1801],
  ['cpu-throttling', 1901],
  ['cpu-throttling', 1902],
  ['node', 2002],
  ['certificate', 2051],
  ['certificate', 2052],
  ['database-saturation', 2071],
  ['liveness-probe', 2081],
  ['liveness-probe', 2082],
  ['noisy-neighbour', 2091],
  // A second and a third round, one per family, in the conventions next in each family's turn.
  ['rollout', 4101],
  ['dependency-down', 4201],
  ['memory-limit', 4301],
  ['filesystem-full', 4401],
  ['traffic-surge', 4501],
  ['configuration', 4601],
  ['scaled-to-zero', 4701],
  ['downstream-latency', 4801],
  ['cpu-throttling', 4901],
  ['node', 5001],
  ['certificate', 5101],
  ['database-saturation', 5201],
  ['liveness-probe', 5301],
  ['noisy-neighbour', 5401],
  // A third round.
  ['rollout', 6101],
  ['dependency-down', 6201],
  ['memory-limit', 6301],
  ['filesystem-full', 6401],
  ['traffic-surge', 6501],
  ['configuration', 6601],
  ['scaled-to-zero', 6701],
  ['downstream-latency', 6801],
  ['cpu-throttling', 6901],
  ['node', 7001],
  ['certificate', 7101],
  ['database-saturation', 7201],
  ['liveness-probe', 7301],
  ['noisy-neighbour', 7401],
];

/** The scenarios of `list`; a family's slots count from its first holdout scenario. */
function build(list: Array<[Family, number]>, split: Spec['split'], slots: Map<Family, number>): Scenario[] {
  return list.map(([family, seed]) => {
    const slot = slots.get(family) ?? 0;
    slots.set(family, slot + 1);
    return FAMILIES[family]({ family, seed, split, slot });
  });
}

/** Names are the family's stem and the convention; a repeated one gets its seed. */
function named(scenarios: Scenario[]): Scenario[] {
  const seen = new Map<string, number>();
  for (const s of scenarios) seen.set(s.name, (seen.get(s.name) ?? 0) + 1);
  return scenarios.map((s) => ((seen.get(s.name) ?? 0) > 1 ? { ...s, name: `${s.name}-${s.seed}` } : s));
}

/** One scenario of a family outside the suites (for tests of what the suites' draws did not pick). */
export function conventionScenario(family: Family, seed: number, slot: number): Scenario {
  return FAMILIES[family]({ family, seed, split: 'dev', slot });
}

const slots = new Map<Family, number>();
export const CONVENTION_SCENARIOS: Scenario[] = named([...build(HOLDOUT, 'holdout', slots), ...build(DEV, 'dev', slots)]);
