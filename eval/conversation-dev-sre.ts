import type { QuestionCase } from './conversation-cases';

/**
 * A batch of development cases written apart from the engine, in the voice of an experienced SRE
 * digging into the incident: Kubernetes and Prometheus vocabulary (ReplicaSet, OOMKilled, CFS
 * throttling, limits, saturation, p50/p99, 5xx share, max_connections, PVC, mountpoint, probes),
 * comparisons against an explicit reference (before the rollout, before the spike, 10 minutes
 * before the page, vs its limit, vs the other pod), per-pod and per-node questions naming pods and
 * nodes, a dependency's calls ("X's calls to Y"), "which of A or B" questions, compound questions
 * and follow-ups of two or three turns.
 *
 * Ratios are fractions (an answer's "7.8%" is 0.078), latencies seconds, CPU cores, sizes bytes,
 * counts of restarts as counts. Every `number` was checked against the staged data at its end: one
 * finite, non-zero value. Pods are named only when the generator's name for them does not depend on
 * the time of the data (pods that a rollout in the data created get new names at every staging).
 */

/**
 * `{job="checkout", route="/api/checkout"}` from the labels given (undefined ones left out), followed
 * by any `extra` matchers written out (such as `code=~"5.."`).
 */
const sel = (labels: Record<string, string | undefined>, ...extra: string[]): string =>
  `{${[
    ...Object.entries(labels)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${k}="${v}"`),
    ...extra,
  ].join(', ')}}`;

/** A pod's name: its workload, its pod template's hash and its own suffix. */
const pod = (workload: string, hash: string, suffix: string): string => [workload, hash, suffix].join('-');

/** A shift `minutes` back in time (PromQL's `offset`, to append to a range or a selector), or nothing. */
const off = (minutes?: number): string => (minutes ? ['', 'offset', `${minutes}m`].join(' ') : '');

/** The 5xx share of a job's requests (optionally of one route) over the last five minutes. */
const fiveXxShare = (job: string, route?: string): string =>
  `sum(rate(http_requests_total${sel({ job, route }, 'code=~"5.."')}[5m])) / sum(rate(http_requests_total${sel({ job, route })}[5m]))`;

/** Requests per second of a job (optionally one route), now or `offset` minutes before the end. */
const reqPerSec = (job: string, route?: string, offset?: number): string => `sum(rate(http_requests_total${sel({ job, route })}[5m]${off(offset)}))`;

/** A latency quantile of a job's requests (optionally of one route or one pod), now or `offset` minutes before the end. */
const quantile = (q: number, job: string, options: { route?: string; pod?: string; offset?: number } = {}): string =>
  `histogram_quantile(${q}, sum by (le) (rate(http_request_duration_seconds_bucket${sel({ job, route: options.route, pod: options.pod })}[5m]${off(options.offset)})))`;

/** The share of a job's calls to a peer that did not succeed, now. */
const peerFailing = (job: string, peer: string): string =>
  `sum(rate(http_client_requests_total${sel({ job, peer }, 'code!="200"')}[5m])) / sum(rate(http_client_requests_total${sel({ job, peer })}[5m]))`;

/** A latency quantile of a job's calls to a peer, now. */
const peerQuantile = (q: number, job: string, peer: string): string =>
  `histogram_quantile(${q}, sum by (le) (rate(http_client_request_duration_seconds_bucket${sel({ job, peer })}[5m])))`;

/** The mean latency of a job's calls to a peer, now. */
const peerMean = (job: string, peer: string): string =>
  `sum(rate(http_client_request_duration_seconds_sum${sel({ job, peer })}[5m])) / sum(rate(http_client_request_duration_seconds_count${sel({ job, peer })}[5m]))`;

/** CPU cores a container uses now, over all its pods. */
const coresUsed = (container: string): string => `sum(rate(container_cpu_usage_seconds_total${sel({ container })}[5m]))`;

/** CPU a container uses now as a share of its limit, over all its pods. */
const cpuVsLimit = (container: string): string => `${coresUsed(container)} / sum(kube_pod_container_resource_limits{container="${container}", resource="cpu"})`;

/** The share of a container's CFS periods that were throttled over the last five minutes. */
const throttledShare = (container: string): string =>
  `sum(increase(container_cpu_cfs_throttled_periods_total${sel({ container })}[5m])) / sum(increase(container_cpu_cfs_periods_total${sel({ container })}[5m]))`;

/** A container's limit of `resource` (cores or bytes), now or `offset` minutes before the end. */
const limit = (container: string, resource: 'cpu' | 'memory', offset?: number): string =>
  `max(kube_pod_container_resource_limits${sel({ container, resource })}${off(offset)})`;

/** The busy share of a node's CPUs, now. */
const nodeCpuBusy = (short: string): string => `1 - avg(rate(node_cpu_seconds_total{node=~"${short}.*", mode="idle"}[5m]))`;

/** The used share of a node's filesystem mounted at `mount`, now. */
const mountUsed = (short: string, mount: string): string =>
  `1 - node_filesystem_avail_bytes{node=~"${short}.*", mountpoint="${mount}"} / node_filesystem_size_bytes{node=~"${short}.*", mountpoint="${mount}"}`;

/** Container restarts of one pod (or of every pod of a container), now. */
const restarts = (labels: { pod?: string; container?: string }): string => `sum(kube_pod_container_status_restarts_total${sel(labels)})`;

/** The share of a Postgres server's max_connections in use (all states), now. */
const pgConnectionsUsed = (server: string): string =>
  `sum(pg_stat_activity_count{server="${server}:5432"}) / max(pg_settings_max_connections{server="${server}:5432"})`;

/** The share of a HikariCP pool's connections active over a job's pods, now. */
const poolActive = (job: string, pool: string): string =>
  `sum(hikaricp_connections_active{job="${job}", pool="${pool}"}) / sum(hikaricp_connections_max{job="${job}", pool="${pool}"})`;

/** The used share of a PersistentVolumeClaim, now. */
const pvcUsed = (claim: string): string =>
  `max(kubelet_volume_stats_used_bytes{persistentvolumeclaim="${claim}"}) / max(kubelet_volume_stats_capacity_bytes{persistentvolumeclaim="${claim}"})`;

export const SRE_DEV_CASES: QuestionCase[] = [
  // checkout-bad-version: checkout 2.15.0 rolls out from 38 min before the end (new ReplicaSet on ip-10-0-1-88, ip-10-0-1-23,
  // ip-10-0-2-34); its pods fail 11% of POST /api/checkout with 500; calls to payments and inventory are untouched.
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    message: "what's the 5xx share on POST /api/checkout right now, and how does it compare with before the rollout?",
    expect: { all: [{ number: fiveXxShare('checkout', '/api/checkout'), tolerance: 0.25 }, { direction: 'up' }] },
  },
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    message: "has latency on checkout's calls to payments shifted since 2.15.0 went out, or is the downstream clean?",
    expect: { direction: 'about the same' },
  },
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    message: 'give me the replicas of the new ReplicaSet (2.15.0) and the node each one is scheduled on',
    expect: { podsOf: { workload: 'checkout', version: '2.15.0' } },
  },
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    message: 'what was its throughput at that point?',
    earlier: ['when did checkout start throwing 500s?'],
    expect: { number: reqPerSec('checkout', undefined, 38), tolerance: 0.2 },
  },

  // search-slow-version-chronic-alert: search 3.3.0 from 40 min before the end; /api/search 4.5x slower on its pods,
  // /api/suggest unchanged; recommendations runs at about 95% of its 0.5-core limit all day (chronic CPUThrottlingHigh).
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'dev',
    message: 'p99 on /api/search now vs before the 3.3.0 rollout?',
    expect: { all: [{ number: quantile(0.99, 'search', { route: '/api/search' }), tolerance: 0.3 }, { direction: 'up' }] },
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'dev',
    message: 'CPUThrottlingHigh has been firing on recommendations for hours. what fraction of its CFS periods are throttled right now?',
    expect: { number: throttledShare('recommendations'), tolerance: 0.2 },
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'dev',
    message: 'p90 for seach since the new replicaset came up?',
    expect: { asksFirst: 'search' },
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'dev',
    message: 'and what was it on the old ReplicaSet, before the rollout?',
    earlier: ['which search pods are running 3.3.0?', "what's the p99 of /api/search on those pods?"],
    expect: { number: quantile(0.99, 'search', { route: '/api/search', offset: 45 }), tolerance: 0.3 },
  },

  // inventory-down-harmless-rollout: inventory stops answering 36 min before the end (both pods, inventory-cd568ccd7-m6nmg and
  // inventory-cd568ccd7-psgzx, up 0); every checkout call to it is refused; the blackbox probe of its /healthz fails from then;
  // checkout 2.14.4 rolled out 8 min earlier (44 min) and changed nothing.
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'dev',
    message: "what fraction of checkout's calls to inventory are failing right now?",
    expect: { number: peerFailing('checkout', 'inventory'), tolerance: 0.15 },
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'dev',
    message: 'when did the blackbox probe on inventory /healthz start failing?',
    expect: { at: 36, tolerance: 4 },
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'dev',
    message: 'both replicas or just one?',
    earlier: ['is inventory down?'],
    expect: { contains: ['inventory-cd568ccd7-m6nmg', 'inventory-cd568ccd7-psgzx'] },
  },

  // orders-memory-leak-oom: orders' working set climbs from 75 min before the end to its 1 GiB limit; the first OOMKill is
  // about 41 min before the end, then every few minutes on both pods (orders-6fb5cc5f8-rff78 on ip-10-0-3-41,
  // orders-6fb5cc5f8-rpc5b on ip-10-0-1-88); no node reports MemoryPressure.
  {
    scenario: 'orders-memory-leak-oom',
    split: 'dev',
    message: 'how many times has orders-6fb5cc5f8-rff78 been OOMKilled so far?',
    expect: { number: restarts({ pod: 'orders-6fb5cc5f8-rff78' }), tolerance: 0.2 },
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: 'dev',
    message: 'and the other replica?',
    earlier: ['how many times has orders-6fb5cc5f8-rff78 been OOMKilled so far?'],
    expect: { number: restarts({ pod: 'orders-6fb5cc5f8-rpc5b' }), tolerance: 0.2 },
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: 'dev',
    message: "what's the memory limit on the orders container, and when did the first OOMKill land?",
    expect: {
      all: [
        { number: limit('orders', 'memory'), tolerance: 0.05 },
        { at: 41, tolerance: 3 },
      ],
    },
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: 'dev',
    message: 'which node is orders-6fb5cc5f8-rpc5b scheduled on, and is that node under memory pressure?',
    expect: { contains: ['ip-10-0-1-88'] },
  },

  // media-disk-full-flapping-alert: /var/lib/media (200 GiB) on ip-10-0-2-34 is full from 37 min before the end; media's
  // POST /api/uploads fails with 507; no inode series exist; the flapping FrontendTargetDown is one frontend pod (seeded name).
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'dev',
    message: "what's the fill level of /var/lib/media on ip-10-0-2-34?",
    expect: { number: mountUsed('ip-10-0-2-34', '/var/lib/media'), tolerance: 0.05 },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'dev',
    message: 'when did it hit 100%?',
    earlier: ["what's the fill level of /var/lib/media on ip-10-0-2-34?"],
    expect: { at: 37, tolerance: 4 },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'dev',
    message: 'inode usage on /var/lib/media: how many inodes are left on that mountpoint?',
    expect: { cannot: true },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'dev',
    message: 'FrontendTargetDown paged before media did. which frontend pod keeps flapping?',
    expect: { contains: [pod('frontend', '8fd6d76c8', 'dtqns')] },
  },

  // search-traffic-surge: /api/search traffic ramps to six times its usual from 39 min before the end (full by 35 min);
  // /api/suggest is unchanged; search's pods run at their 2-core limits; frontend 5.2.1 rolled out at 44 min.
  {
    scenario: 'search-traffic-surge',
    split: 'dev',
    message: 'req/s on /api/search at the moment vs before the spike?',
    expect: { all: [{ number: reqPerSec('search', '/api/search'), tolerance: 0.15 }, { direction: 'up' }] },
  },
  {
    scenario: 'search-traffic-surge',
    split: 'dev',
    message: 'when exactly did it start ramping?',
    earlier: ['req/s on /api/search at the moment vs before the spike?'],
    expect: { at: 39, tolerance: 3 },
  },
  {
    scenario: 'search-traffic-surge',
    split: 'dev',
    message: 'how close are the search pods to their CPU limit, in aggregate?',
    expect: { number: cpuVsLimit('search'), tolerance: 0.15 },
  },
  {
    scenario: 'search-traffic-surge',
    split: 'dev',
    message: "how does search's request rate compare with the same time yesterday?",
    expect: { cannot: true },
  },

  // cart-config-crashloop: the cart-config ConfigMap is edited 38 min before the end; the rollout it starts stalls with one new
  // cart pod on ip-10-0-1-23 exiting with Error and crash looping (same version 4.1.2); the three old pods keep serving.
  {
    scenario: 'cart-config-crashloop',
    split: 'dev',
    message: 'the crashlooping cart pod: which node hosts it?',
    expect: { contains: ['ip-10-0-1-23'] },
  },
  {
    scenario: 'cart-config-crashloop',
    split: 'dev',
    message: 'how many restarts has it piled up so far?',
    earlier: ['the crashlooping cart pod: which node hosts it?'],
    expect: { number: restarts({ container: 'cart' }), tolerance: 0.2 },
  },
  {
    scenario: 'cart-config-crashloop',
    split: 'dev',
    message: 'when was cart-config last modified?',
    expect: { at: 38, tolerance: 3 },
  },

  // orders-worker-scaled-to-zero: orders-worker is scaled from 2 replicas to 0 at 44 min before the end; the orders queue has no
  // consumer from then and its ready messages pile up; no change report names who scaled it.
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'dev',
    message: 'when did the orders queue lose its last consumer?',
    expect: { at: 44, tolerance: 3 },
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'dev',
    message: 'who ran the scale-down on orders-worker? kubectl or a pipeline?',
    expect: { cannot: true },
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'dev',
    message: 'is the ready backlog on the orders queue still climbing compared with before the scale-down?',
    expect: { direction: 'up' },
  },

  // checkout-slow-partner-bank: from 37 min before the end partner-bank answers payments 12x slower (median about 1.1 s);
  // payments, then checkout's calls to payments and POST /api/checkout slow down; GET /api/checkout/status is unchanged;
  // reports-batch takes 3.6 cores on ip-10-0-2-34 (a checkout node) from 40 min.
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    message: "p99 of payments' calls to partner-bank right now?",
    expect: { number: peerQuantile(0.99, 'payments', 'partner-bank'), tolerance: 0.3 },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    message: "mean latency of checkout's calls to payments, now vs before this started",
    expect: { all: [{ number: peerMean('checkout', 'payments'), tolerance: 0.25 }, { direction: 'up' }] },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    message: "reports-batch is pegging ip-10-0-2-34. how saturated is that node's CPU?",
    expect: { number: nodeCpuBusy('ip-10-0-2-34'), tolerance: 0.1 },
  },

  // recommendations-cpu-throttled: a rollout 40 min before the end lowers recommendations' CPU limit from 1 to 0.3 cores
  // (same version 0.9.4); its containers are throttled in most CFS periods and its latency climbs; no resource requests exist.
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'dev',
    message: 'CPU limit on recommendations now vs before the rollout?',
    expect: {
      all: [
        { number: limit('recommendations', 'cpu'), tolerance: 0.05 },
        { number: limit('recommendations', 'cpu', 45), tolerance: 0.05 },
      ],
    },
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'dev',
    message: 'how hard is recommendations getting throttled right now (throttled periods / total periods)?',
    expect: { number: throttledShare('recommendations'), tolerance: 0.2 },
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'dev',
    message: 'recomendations p50 now vs before the limit change',
    expect: { asksFirst: 'recommendations' },
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'dev',
    message: 'what are the CPU requests on recommendations? did the rollout change them too?',
    expect: { cannot: true },
  },

  // node-not-ready: ip-10-0-3-41 goes NotReady and stops reporting 36 min before the end; the cart pod there (and
  // frontend-76df58c6b-mwxnk, checkout, payments, search, orders pods) run on it; a third of frontend's calls to cart time out
  // and frontend answers about 15% of its requests 502.
  {
    scenario: 'node-not-ready',
    split: 'dev',
    message: 'which pods were scheduled on ip-10-0-3-41 when it went NotReady?',
    expect: { contains: ['cart', 'frontend-76df58c6b-mwxnk'] },
  },
  {
    scenario: 'node-not-ready',
    split: 'dev',
    message: "what share of frontend's calls to cart are timing out now?",
    earlier: ['when did ip-10-0-3-41 turn NotReady?', 'what was running on it?'],
    expect: { number: peerFailing('frontend', 'cart'), tolerance: 0.2 },
  },
  {
    scenario: 'node-not-ready',
    split: 'dev',
    message: "frontend's 5xx share now vs 10 minutes before the page?",
    expect: { all: [{ number: fiveXxShare('frontend'), tolerance: 0.25 }, { direction: 'up' }] },
  },

  // partner-bank-certificate-expired: the certificate of api.partner-bank.example expires 35 min before the end
  // (probe_ssl_earliest_cert_expiry); every payments call to partner-bank fails the handshake; payments answers 97% 502;
  // checkout is untouched.
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'dev',
    message: "when did partner-bank's TLS cert expire?",
    expect: { at: 35, tolerance: 3 },
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'dev',
    message: "what's payments' 5xx share since then?",
    earlier: ["when did partner-bank's TLS cert expire?"],
    expect: { number: fiveXxShare('payments'), tolerance: 0.15 },
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'dev',
    message: 'and is checkout seeing any of it upstream?',
    earlier: ["when did partner-bank's TLS cert expire?", "what's payments' 5xx share since then?"],
    expect: { direction: 'about the same' },
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'dev',
    message: '5xx on paymnets right now?',
    expect: { asksFirst: 'payments' },
  },

  // ordersdb-connections-exhausted: from 44 min before the end a reports export holds ~156 connections idle in transaction on
  // ordersdb (max_connections 200) until they run out at 40 min; a quarter of orders' calls to ordersdb fail with
  // too_many_connections and orders answers 35% 500; orders 2.3.1 rolled out at 46 min and changed nothing.
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'dev',
    message: 'what share of max_connections is ordersdb using right now?',
    expect: { number: pgConnectionsUsed('ordersdb'), tolerance: 0.1 },
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'dev',
    message: 'what state are they stuck in?',
    earlier: ['what share of max_connections is ordersdb using right now?'],
    expect: { contains: ['idle in transaction'] },
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'dev',
    message: "failure share of orders' calls to ordersdb now vs before 2.3.1 went out?",
    expect: { all: [{ number: peerFailing('orders', 'ordersdb'), tolerance: 0.25 }, { direction: 'up' }] },
  },

  // sessions-redis-down-flapping-alert: sessions-redis goes down (redis_up 0, exporter up) 36 min before the end; every cart
  // call to it is refused and cart answers 90% 500; no sessions-memcached exists.
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'dev',
    message: 'from what time has redis_up been 0 for sessions-redis?',
    expect: { at: 36, tolerance: 3 },
  },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'dev',
    message: "what did that do to cart's 5xx share?",
    earlier: ['from what time has redis_up been 0 for sessions-redis?'],
    expect: { number: fiveXxShare('cart'), tolerance: 0.15 },
  },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'dev',
    message: "what's the hit ratio on sessions-memcached? did cart fall back to it?",
    expect: { asks: true },
  },

  // payments-bad-version-noisy-neighbour: payments 1.9.0 rolls out 36 min before the end (to ip-10-0-1-23 and ip-10-0-2-34)
  // and fails 20% with 500; ledger-reconcile takes 3.7 cores on ip-10-0-3-41 (where a payments 1.8.0 pod ran) from 40 min.
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    message: 'how busy is ip-10-0-3-41 now vs before ledger-reconcile kicked in?',
    expect: { all: [{ number: nodeCpuBusy('ip-10-0-3-41'), tolerance: 0.1 }, { direction: 'up' }] },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    message: 'cores burned by ledger-reconcile right now?',
    expect: { number: coresUsed('ledger-reconcile'), tolerance: 0.15 },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    message: 'which nodes did the 1.9.0 payments replicas land on after the rollout?',
    expect: { podsOf: { workload: 'payments', version: '1.9.0' } },
  },

  // checkout-memory-limit-lowered: a rollout 40 min before the end lowers checkout's memory limit from 768 to 320 MiB (same
  // version 2.14.3); each new container is OOMKilled about two minutes after it starts (first at about 38 min) and crash loops.
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'dev',
    message: 'and prior to the rollout?',
    earlier: ["what's checkout's memory limit right now?"],
    expect: { number: limit('checkout', 'memory', 45), tolerance: 0.05 },
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'dev',
    message: 'total OOM kills across the checkout pods since the rollout?',
    expect: { number: restarts({ container: 'checkout' }), tolerance: 0.2 },
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'dev',
    message: 'when did the first checkout container get OOMKilled?',
    expect: { at: 38, tolerance: 3 },
  },

  // ledger-volume-full-chronic-mount: the data-ledger PVC (50 GiB, ledger-d7d5f65bc-48vvf on ip-10-0-1-88) is full from 36 min
  // before the end and POST /api/ledger/entries fails 95% with 507; /var/log/archive on the same node has been full for hours.
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'dev',
    message: 'how full is the data-ledger PVC?',
    expect: { number: pvcUsed('data-ledger'), tolerance: 0.05 },
  },
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'dev',
    message: 'anything else out of space on that node?',
    earlier: ['how full is the data-ledger PVC?', 'which node is it mounted on?'],
    expect: { contains: ['/var/log/archive'] },
  },
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'dev',
    message: "5xx share on ledger's POST /api/ledger/entries right now?",
    expect: { number: fiveXxShare('ledger', '/api/ledger/entries'), tolerance: 0.15 },
  },

  // accounts-pool-exhausted-harmless-rollout: accounts' HikariPool-1 (10 connections a pod) runs dry 38 min before the end
  // (30 threads pending); accounts answers 30% 500 and its latency climbs 21x; accountsdb sits near 42 of its 300
  // max_connections; accounts 1.4.1 rolled out at 47 min and changed nothing.
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'dev',
    message: 'is HikariPool-1 on accounts exhausted? active vs max',
    expect: { number: poolActive('accounts', 'HikariPool-1'), tolerance: 0.1 },
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'dev',
    message: 'and the database behind it, how close is accountsdb to max_connections?',
    earlier: ['is HikariPool-1 on accounts exhausted? active vs max'],
    expect: { number: pgConnectionsUsed('accountsdb'), tolerance: 0.25 },
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'dev',
    message: 'p99 of accounts now vs before the 1.4.1 rollout?',
    expect: { all: [{ number: quantile(0.99, 'accounts'), tolerance: 0.3 }, { direction: 'up' }] },
  },

  // cart-liveness-slow-redis: sessions-redis slows to seconds per command 38 min before the end; cart's calls to it take about
  // 2 s at the median; the liveness probe times out and the kubelet restarts each cart pod about every minute
  // (cart-567575f65-nzlsm on ip-10-0-2-34 among them); recommendations' CPUThrottlingHigh is chronic.
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'dev',
    message: 'how many container restarts on cart-567575f65-nzlsm?',
    expect: { number: restarts({ pod: 'cart-567575f65-nzlsm' }), tolerance: 0.2 },
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'dev',
    message: "p50 of cart's calls to sessions-redis now vs before the restarts began?",
    expect: { all: [{ number: peerQuantile(0.5, 'cart', 'sessions-redis'), tolerance: 0.3 }, { direction: 'up' }] },
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'dev',
    message: "which of the two explains cart's restarts: the CPUThrottlingHigh alert or sessions-redis?",
    expect: { contains: ['sessions-redis'] },
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'dev',
    message: 'how much revenue have we lost from abandoned carts since this started?',
    expect: { cannot: true },
  },

  // inventory-liveness-unexplained: inventory's liveness probes fail from 37 min before the end and both pods are restarted
  // every minute or so (inventory-c58d68b5c-9t5rx on ip-10-0-1-88, inventory-c58d68b5c-lfg9w on ip-10-0-3-41); catalog-sync
  // bursts to 1.1 cores on ip-10-0-3-41 from 40 min, with CPU to spare; the hang itself is in no metric.
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'dev',
    message: 'how many restarts has inventory-c58d68b5c-9t5rx had?',
    expect: { number: restarts({ pod: 'inventory-c58d68b5c-9t5rx' }), tolerance: 0.2 },
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'dev',
    message: 'CPU saturation on ip-10-0-3-41 now vs before catalog-sync started?',
    expect: { all: [{ number: nodeCpuBusy('ip-10-0-3-41'), tolerance: 0.15 }, { direction: 'up' }] },
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'dev',
    message: 'what does inventory log right before the kubelet kills it? any stack trace?',
    expect: { cannot: true },
  },

  // search-noisy-neighbour: video-transcode takes 3.5 cores on ip-10-0-2-34 from 37 min before the end; the search pod there
  // (seeded name, never rolled) slows 7x while search-878b86fb7-px6bm (ip-10-0-3-41, log-shipper bursting to 1.1 cores) does not;
  // image-resizer saturates ip-10-0-1-23, where no search pod runs.
  {
    scenario: 'search-noisy-neighbour',
    split: 'dev',
    message: `p99 of ${pod('search', '878b86fb7', 'm9xrk')} vs search-878b86fb7-px6bm?`,
    expect: {
      all: [
        { number: quantile(0.99, 'search', { pod: pod('search', '878b86fb7', 'm9xrk') }), tolerance: 0.3 },
        { number: quantile(0.99, 'search', { pod: 'search-878b86fb7-px6bm' }), tolerance: 0.3 },
      ],
    },
  },
  {
    scenario: 'search-noisy-neighbour',
    split: 'dev',
    message: 'which of image-resizer or video-transcode is hurting search?',
    expect: { contains: ['video-transcode'] },
  },
  {
    scenario: 'search-noisy-neighbour',
    split: 'dev',
    message: "that batch pod's cpu in cores?",
    earlier: ["what's running on ip-10-0-2-34 besides search?"],
    expect: { number: coresUsed('video-transcode'), tolerance: 0.15 },
  },

  // billing-timeout-config-change: config change cfg-8841 (by grace, 37 min before the end) lowers billing's ledger client
  // timeout from 2s to 150ms; from 36 min billing's calls to ledger all end in timeout (the generator fails every call) and
  // billing answers 20% 504.
  {
    scenario: 'billing-timeout-config-change',
    split: 'dev',
    message: "what share of billing's calls to ledger are timing out?",
    expect: { number: peerFailing('billing', 'ledger'), tolerance: 0.2 },
  },
  {
    scenario: 'billing-timeout-config-change',
    split: 'dev',
    message: 'who pushed that, and what was the timeout set to before?',
    earlier: ['what changed right before billing started failing?'],
    expect: { contains: ['grace', '2s'] },
  },
  {
    scenario: 'billing-timeout-config-change',
    split: 'dev',
    message: 'when did billing start returning 504s?',
    expect: { at: 36, tolerance: 3 },
  },
  {
    scenario: 'billing-timeout-config-change',
    split: 'dev',
    message: 'billng p99 over the last 30m?',
    expect: { asksFirst: 'billing' },
  },

  // archive-down-reported-deploy-red-herring: archive stops answering 36 min before the end (archive-7b6bfcfff-lr8jk and
  // archive-7b6bfcfff-5zq9k up 0); every statements call to it is refused and statements answers 60% 503; a statements-static
  // asset deploy was reported at 48 min and changed nothing; no SLO is defined anywhere.
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'dev',
    message: 'which broke statements: the statements-static deploy or archive?',
    expect: { contains: ['archive'] },
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'dev',
    message: "statements' 5xx share now vs before archive went down?",
    expect: { all: [{ number: fiveXxShare('statements'), tolerance: 0.15 }, { direction: 'up' }] },
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'dev',
    message: 'when did archive-7b6bfcfff-lr8jk stop answering scrapes?',
    expect: { at: 36, tolerance: 3 },
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'dev',
    message: "how much of statements' monthly error budget has this burned?",
    expect: { cannot: true },
  },
];
