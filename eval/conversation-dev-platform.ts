import type { QuestionCase } from './conversation-cases';

/**
 * Development conversation cases in the voice of platform and infrastructure engineers: nodes and
 * what runs on them, CPU and memory against limits, CFS throttling, OOM kills and restarts, disks,
 * volumes and mounts, replicas, probes, certificates, connection pools, queues, and comparisons with
 * earlier times. Written from eval/scenarios.ts and the generators only (never from how the service
 * answers); every number and time below was checked with q.sh against each scenario's staged data
 * at its end (values noted per scenario). Rollout-created pod names are never used (podsOf and node
 * names instead); plain counts of connections or queued messages are never used as numbers.
 */

// PromQL helpers (local to this file). `shift` is empty (now) or a back(minutes).
/** PromQL's `offset` modifier reading `minutes` back, appended to a range or a selector. */
const back = (minutes: number): string => ['', 'offset', `${minutes}m`].join(' ');
/** The selector `{job="checkout"}` of a job's series, with further matchers (each such as `, route="/api/checkout"`). */
const ofJob = (job: string, ...more: string[]): string => `{job="${job}"${more.join('')}}`;
const errorRatio = (job: string, route?: string, shift = ''): string => {
  const r = route ? `, route="${route}"` : '';
  return `sum(rate(http_requests_total${ofJob(job, r, ', code=~"5.."')}[5m]${shift})) / sum(rate(http_requests_total${ofJob(job, r)}[5m]${shift}))`;
};
const p = (q: number, job: string, route?: string, shift = ''): string => {
  const r = route ? `, route="${route}"` : '';
  return `histogram_quantile(${q}, sum by (le) (rate(http_request_duration_seconds_bucket${ofJob(job, r)}[5m]${shift})))`;
};
const peerP = (q: number, job: string, peer: string, shift = ''): string =>
  `histogram_quantile(${q}, sum by (le) (rate(http_client_request_duration_seconds_bucket${ofJob(job, `, peer="${peer}"`)}[5m]${shift})))`;
const cpuCores = (selector: string, shift = ''): string => `sum(rate(container_cpu_usage_seconds_total{${selector}}[5m]${shift}))`;
const throttled = (container: string, window = '15m'): string => {
  const of = `{container="${container}"}`;
  return `sum(increase(container_cpu_cfs_throttled_periods_total${of}[${window}])) / sum(increase(container_cpu_cfs_periods_total${of}[${window}]))`;
};
const nodeBusy = (node: string, shift = ''): string => `1 - avg(rate(node_cpu_seconds_total{mode="idle", node=~"${node}.*"}[5m]${shift}))`;
const restartsIn = (container: string, window: string): string =>
  `sum(increase(kube_pod_container_status_restarts_total{container="${container}"}[${window}]))`;
const limitOf = (container: string, resource: 'cpu' | 'memory', shift = ''): string => {
  const of = `{container="${container}", resource="${resource}"}`;
  return `max(kube_pod_container_resource_limits${of}${shift})`;
};

export const PLATFORM_DEV_CASES: QuestionCase[] = [
  // checkout-bad-version: the 2.15.0 ReplicaSet's first pod at 38 min before the end, all three by 36.
  // POST /api/checkout 5xx ratio 0.110 (5m); checkout containers 1.03 cores in total; CFS throttled
  // ratio of checkout over 15m 0.0053.
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    message: 'Which checkout pods are on 2.15.0, and which nodes did the scheduler put them on?',
    expect: { podsOf: { workload: 'checkout', version: '2.15.0' } },
  },
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    message: 'When did the 2.15.0 ReplicaSet for checkout start scaling up?',
    expect: { at: 38, tolerance: 3 },
  },
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    earlier: ['5xx ratio on POST /api/checkout over the last 15m?'],
    message: 'and the CFS throttled-periods ratio of the checkout containers over the same 15m?',
    expect: { number: throttled('checkout'), tolerance: 0.25 },
  },
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    message: 'Total CPU across the checkout pods right now, in cores, and the 5xx ratio on POST /api/checkout over the last 5m?',
    expect: {
      all: [
        { number: cpuCores('container="checkout"'), tolerance: 0.15 },
        { number: errorRatio('checkout', '/api/checkout'), tolerance: 0.15 },
      ],
    },
  },

  // search-slow-version-chronic-alert: search 3.3.0 from 40 min before the end. p99 of
  // /api/search 2.03 s now, 0.372 s an hour ago. recommendations throttled in 0.579 of its CFS
  // periods over 15m (chronic, same namespace).
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'dev',
    message: 'List the search pods running 3.3.0 with the nodes they sit on.',
    expect: { podsOf: { workload: 'search', version: '3.3.0' } },
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'dev',
    earlier: ["search's p99 on GET /api/search, last 5m?"],
    message: 'and 60m ago, before the new ReplicaSet came up?',
    expect: { number: p(0.99, 'search', '/api/search', back(60)), tolerance: 0.2 },
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'dev',
    message: 'CPUThrottlingHigh keeps firing for recommendations. What fraction of its CFS periods were throttled over the past 15 minutes?',
    expect: { number: throttled('recommendations'), tolerance: 0.15 },
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'dev',
    earlier: ['Is the CPUThrottlingHigh on recommendations new, or has it been firing all morning?'],
    message: 'so is that throttling what slowed search down, or did something change on search itself?',
    expect: { contains: ['3.3.0'] },
  },

  // inventory-down-harmless-rollout: inventory's targets up 0 from 36 min before the end (pods on
  // ip-10-0-1-88 and ip-10-0-3-41, no restarts); checkout's calls to inventory are connection_refused,
  // checkout 5xx 0.62. checkout 2.14.4 rolled out 44 min before the end.
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'dev',
    message: 'When did the inventory scrape targets start failing?',
    expect: { at: 36, tolerance: 2 },
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'dev',
    earlier: ['Are the inventory pods still Running, or did they get evicted?'],
    message: 'which nodes are they on?',
    expect: { contains: ['ip-10-0-1-88', 'ip-10-0-3-41'] },
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'dev',
    message: 'checkout got a new ReplicaSet (2.14.4) roughly 45m ago. Did that rollout break it, or is it something downstream?',
    expect: { contains: ['inventory'] },
  },

  // orders-memory-leak-oom: working set climbs from 75 min before the end toward the 1 GiB limit;
  // first OOMKills between 41 and 40 min before the end; 6 restarts per pod, 12 in the last hour;
  // largest working set at the end 835 MB.
  {
    scenario: 'orders-memory-leak-oom',
    split: 'dev',
    message: 'How many OOM kills across the orders pods in the past hour?',
    expect: { number: restartsIn('orders', '1h'), tolerance: 0.15 },
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: 'dev',
    message: 'From what time has the orders working set been climbing?',
    expect: { at: 75, tolerance: 5 },
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: 'dev',
    earlier: ['What memory limit are the orders containers running with?'],
    message: 'when did the first one hit it and get OOMKilled?',
    expect: { at: 41, tolerance: 3 },
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: 'dev',
    earlier: ['Which nodes are the orders pods on?', 'Any node memory pressure on those?'],
    message: 'largest orders container working set right now, in MiB?',
    expect: { number: 'max(container_memory_working_set_bytes{container="orders"})', tolerance: 0.15 },
  },

  // media-disk-full-flapping-alert: /var/lib/media (200 GiB) on ip-10-0-2-34 at 0 bytes free from 37
  // min before the end, 943 MB free an hour before; / on that node has 42.4 GB free. A frontend
  // target on ip-10-0-1-23 flaps (FrontendTargetDown).
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'dev',
    message: 'When did /var/lib/media on ip-10-0-2-34 run out of space?',
    expect: { at: 37, tolerance: 2 },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'dev',
    earlier: ['Which mount on the media node is full?'],
    message: 'how much was free on it an hour ago?',
    expect: { number: `node_filesystem_avail_bytes{mountpoint="/var/lib/media"}${back(60)}`, tolerance: 0.15 },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'dev',
    message: 'FrontendTargetDown paged first. Is that what is failing media uploads, or is it something on the node?',
    expect: { contains: ['/var/lib/media'] },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'dev',
    message: 'Size of /var/lib/media, and how much free space is left on / of the same node?',
    expect: {
      all: [
        { number: 'node_filesystem_size_bytes{mountpoint="/var/lib/media"}', tolerance: 0.1 },
        { number: 'node_filesystem_avail_bytes{node=~"ip-10-0-2-34.*", mountpoint="/"}', tolerance: 0.15 },
      ],
    },
  },

  // search-traffic-surge: /api/search goes from 36 req/s to 211 req/s (ramp from 39 min before the
  // end); search containers at 3.97 cores now, 1.05 an hour ago (limit 2 each, 0.996 throttled).
  // frontend 5.2.1 rolled out 44 min before the end.
  {
    scenario: 'search-traffic-surge',
    split: 'dev',
    message: 'req/s on GET /api/search right now vs an hour ago?',
    expect: {
      all: [
        { number: `sum(rate(http_requests_total${ofJob('search', ', route="/api/search"')}[5m]))`, tolerance: 0.15 },
        { number: `sum(rate(http_requests_total${ofJob('search', ', route="/api/search"')}[5m]${back(60)}))`, tolerance: 0.15 },
      ],
    },
  },
  {
    scenario: 'search-traffic-surge',
    split: 'dev',
    earlier: ['how many CPU cores are the search pods burning right now?'],
    message: 'and before the page, an hour ago?',
    expect: { number: cpuCores('container="search"', back(60)), tolerance: 0.15 },
  },
  {
    scenario: 'search-traffic-surge',
    split: 'dev',
    message: 'frontend rolled 5.2.1 just before this. Is that what is hammering search?',
    expect: { contains: ['/api/search'] },
  },

  // cart-config-crashloop: cart-config edited 38 min before the end; the new cart pod (stalled
  // rollout) on ip-10-0-1-23 crash loops with reason Error, 12 restarts at the end; the three old
  // pods keep running.
  {
    scenario: 'cart-config-crashloop',
    split: 'dev',
    message: 'which node hosts the crashlooping cart pod?',
    expect: { contains: ['ip-10-0-1-23'] },
  },
  {
    scenario: 'cart-config-crashloop',
    split: 'dev',
    earlier: ['is the cart rollout hung?'],
    message: 'how many restarts has the new pod racked up so far?',
    expect: { number: 'max(kube_pod_container_status_restarts_total{container="cart"})', tolerance: 0.15 },
  },
  {
    scenario: 'cart-config-crashloop',
    split: 'dev',
    message: 'What changed right before the new cart ReplicaSet came up? Same image as before.',
    expect: { contains: ['cart-config'] },
  },

  // orders-worker-scaled-to-zero: spec replicas 2 -> 0 at 44 min before the end, the orders queue
  // has no consumers from then on; no changes list. FrontendTargetDown flaps.
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'dev',
    message: 'when did orders-worker drop to 0 replicas?',
    expect: { at: 44, tolerance: 2 },
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'dev',
    message: 'Who scaled orders-worker down, kubectl or the HPA?',
    expect: { cannot: true },
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'dev',
    earlier: ['FrontendTargetDown fired first. Which frontend pod is flapping?'],
    message: 'ok, and is that related to the orders queue backing up? what is actually wrong there?',
    expect: { contains: ['orders-worker'] },
  },

  // checkout-slow-partner-bank: payments' calls to partner-bank slow from 37 min before the end
  // (p50 0.091 s -> 1.17 s); checkout p99 on POST /api/checkout 4.9 s, up from under 0.5 s.
  // reports-batch saturates ip-10-0-2-34 (node CPU 0.98).
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    earlier: ['Node CPU on ip-10-0-2-34 right now?'],
    message: 'is that what is slowing checkout down?',
    expect: { contains: ['partner-bank'] },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    message: 'Median latency of payments calls to partner-bank over the last 5m?',
    expect: { number: peerP(0.5, 'payments', 'partner-bank'), tolerance: 0.15 },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    earlier: ['checkout p99 on POST /api/checkout now?'],
    message: 'vs 1h ago?',
    expect: { direction: 'up' },
  },

  // recommendations-cpu-throttled: a same-version rollout 40 min before the end lowers the CPU limit
  // from 1 to 0.3 cores; throttled ratio over 15m 0.715 (0.005 an hour before); p99 1.88 s now,
  // 0.258 s an hour ago.
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'dev',
    message: 'CPU limit on the recommendations containers now vs before the rollout?',
    expect: {
      all: [
        { number: limitOf('recommendations', 'cpu'), tolerance: 0.1 },
        { number: limitOf('recommendations', 'cpu', back(60)), tolerance: 0.1 },
      ],
    },
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'dev',
    earlier: ['When did the new recommendations ReplicaSet roll?', 'recommendations p99 right now?'],
    message: 'and what was it 60 minutes ago?',
    expect: { number: p(0.99, 'recommendations', undefined, back(60)), tolerance: 0.2 },
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'dev',
    message: 'What % of CFS periods are the recommendations containers getting throttled in, last 15m?',
    expect: { number: throttled('recommendations'), tolerance: 0.15 },
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'dev',
    message: 'is recomendations still being throttled?',
    expect: { asksFirst: 'recommendations' },
  },

  // node-not-ready: ip-10-0-3-41 Ready=false and node-exporter down from 36 min before the end; the
  // cart pod there is cart's pod -tk7ck (not made by a rollout); the node's CPU was 0.475 busy 40
  // min before the end.
  {
    scenario: 'node-not-ready',
    split: 'dev',
    message: 'Which node went NotReady, and when?',
    expect: { all: [{ contains: ['ip-10-0-3-41'] }, { at: 36, tolerance: 2 }] },
  },
  {
    scenario: 'node-not-ready',
    split: 'dev',
    earlier: ['which node became NotReady?'],
    message: 'which cart pod was scheduled on it?',
    expect: { contains: [['cart-d7b5fbc6d', 'tk7ck'].join('-')] },
  },
  {
    scenario: 'node-not-ready',
    split: 'dev',
    earlier: ['Which node stopped reporting?'],
    message: 'what was its CPU utilisation 40m ago, before it dropped off?',
    expect: { number: nodeBusy('ip-10-0-3-41', back(40)), tolerance: 0.15 },
  },

  // partner-bank-certificate-expired: api.partner-bank.example's certificate expires 35 min before the
  // end (probe fails from then); payments 5xx 0.971, its calls fail with tls_error. recommendations
  // throttled chronically.
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'dev',
    message: 'Which blackbox probe is failing, and when did its cert expire?',
    expect: { all: [{ contains: ['api.partner-bank.example'] }, { at: 35, tolerance: 2 }] },
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'dev',
    message: 'payments 5xx ratio over the last 5m?',
    expect: { number: errorRatio('payments'), tolerance: 0.1 },
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'dev',
    earlier: ['CPUThrottlingHigh is firing on recommendations again. Throttled ratio last 15m?'],
    message: 'is that connected to the payments failures, or is it something on the partner side?',
    expect: { contains: ['partner-bank'] },
  },

  // ordersdb-connections-exhausted: ordersdb's connections reach 199 of max_connections 200 (0.995;
  // 0.22 an hour before), idle in transaction, rising from 44 min before the end; orders fails 0.35
  // with too_many_connections. orders 2.3.1 rolled out 46 min before the end.
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'dev',
    message: 'What % of max_connections on ordersdb is in use right now?',
    expect: {
      number: 'sum(pg_stat_activity_count{server="ordersdb:5432"}) / sum(pg_settings_max_connections{server="ordersdb:5432"})',
      tolerance: 0.1,
    },
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'dev',
    earlier: ['Which state are most of the ordersdb connections in?'],
    message: 'when did they start piling up?',
    expect: { at: 43, tolerance: 3 },
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'dev',
    message: 'orders rolled 2.3.1 right before the errors. Should we roll it back?',
    expect: { contains: ['ordersdb'] },
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'dev',
    earlier: ['How many ordersdb connections are idle in transaction?'],
    message: 'which client or query is holding them open?',
    expect: { cannot: true },
  },

  // sessions-redis-down-flapping-alert: redis_up 0 from 36 min before the end (exporter still up);
  // cart 5xx 0.90 (connection_refused); redis used 1.44e9 bytes before it went down.
  // FrontendTargetDown flaps.
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'dev',
    message: 'When did sessions-redis go down, and what is the cart 5xx ratio now?',
    expect: {
      all: [
        { at: 36, tolerance: 2 },
        { number: errorRatio('cart'), tolerance: 0.1 },
      ],
    },
  },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'dev',
    earlier: ['Is the redis exporter for sessions-redis itself still being scraped?'],
    message: 'how much memory was that redis using right before it dropped?',
    expect: { number: `redis_memory_used_bytes{redis="sessions-redis"}${back(40)}`, tolerance: 0.1 },
  },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'dev',
    message: 'The frontend target flapping page came in first. Is that what is breaking cart?',
    expect: { contains: ['sessions-redis'] },
  },

  // payments-bad-version-noisy-neighbour: payments 1.9.0 from 36 min before the end, 5xx 0.20.
  // ledger-reconcile on ip-10-0-3-41 uses 3.71 cores from 40 min before the end (node CPU 0.98);
  // no payments pod there after the rollout.
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    message: 'Which payments pods run 1.9.0, and on which nodes?',
    expect: { podsOf: { workload: 'payments', version: '1.9.0' } },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    message: 'ip-10-0-3-41 is sitting at 98% CPU. Is that what is failing payments?',
    expect: { contains: ['1.9.0'] },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    earlier: ['What is burning the CPU on ip-10-0-3-41?'],
    message: 'how many CPU cores is it pulling, and starting when?',
    expect: {
      all: [
        { number: cpuCores('pod=~"ledger-reconcile-.*"'), tolerance: 0.15 },
        { at: 40, tolerance: 2 },
      ],
    },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    message: 'p99 of fraud-check since the payments rollout?',
    expect: { asks: true },
  },

  // checkout-memory-limit-lowered: a same-version (2.14.3) rollout 40 min before the end sets the
  // memory limit to 320 MiB (was 768 MiB); the new pods are OOMKilled in a loop, 9 restarts each,
  // 27 in all. No resource requests in the data.
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'dev',
    message: 'Memory limit on the checkout containers now vs an hour ago?',
    expect: {
      all: [
        { number: limitOf('checkout', 'memory'), tolerance: 0.1 },
        { number: limitOf('checkout', 'memory', back(60)), tolerance: 0.1 },
      ],
    },
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'dev',
    earlier: ['Why do the checkout pods crash loop?'],
    message: 'total restarts across them so far?',
    expect: { number: 'sum (kube_pod_container_status_restarts_total{container="checkout"})', tolerance: 0.15 },
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'dev',
    earlier: ['What did the last checkout rollout change, image or resources?'],
    message: 'and the memory request, did they drop that too?',
    expect: { cannot: true },
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'dev',
    message: 'how often is checkuot getting OOMKilled?',
    expect: { asksFirst: 'checkout' },
  },

  // ledger-volume-full-chronic-mount: the data-ledger claim (50 GiB) on ip-10-0-1-88 at 0 bytes
  // available from 36 min before the end, 433 MB an hour before; /var/log/archive on the same node
  // full for hours.
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'dev',
    message: 'When did the data-ledger PVC hit 0 bytes available?',
    expect: { at: 36, tolerance: 2 },
  },
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'dev',
    message: 'Capacity of the data-ledger volume, and how much was free on it an hour ago?',
    expect: {
      all: [
        { number: 'kubelet_volume_stats_capacity_bytes{persistentvolumeclaim="data-ledger"}', tolerance: 0.1 },
        { number: `kubelet_volume_stats_available_bytes{persistentvolumeclaim="data-ledger"}${back(60)}`, tolerance: 0.15 },
      ],
    },
  },
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'dev',
    earlier: ['What is full on ip-10-0-1-88?'],
    message: '/var/log/archive there has been at 0 bytes for hours though. What is actually failing ledger writes?',
    expect: { contains: ['data-ledger'] },
  },

  // accounts-pool-exhausted-harmless-rollout: HikariPool-1 at 0.95-1.0 of its max (10 per pod), 30
  // threads pending per pod; accounts 5xx 0.30 from 38 min before the end, p99 3.6 s;
  // accountsdb at 0.137 of max_connections. accounts 1.4.1 rolled out 47 min before the end.
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'dev',
    message: 'HikariPool-1 utilisation on accounts, active over max, right now?',
    expect: { number: `sum(hikaricp_connections_active${ofJob('accounts')}) / sum(hikaricp_connections_max${ofJob('accounts')})`, tolerance: 0.1 },
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'dev',
    message: 'accounts 5xx ratio and p99 over the last 5m?',
    expect: {
      all: [
        { number: errorRatio('accounts'), tolerance: 0.15 },
        { number: p(0.99, 'accounts'), tolerance: 0.2 },
      ],
    },
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'dev',
    earlier: ['Are accounts requests waiting on connections?'],
    message: 'is accountsdb itself anywhere near max_connections? what % is in use?',
    expect: { number: 'sum(pg_stat_activity_count) / sum(pg_settings_max_connections)', tolerance: 0.15 },
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'dev',
    earlier: ['When did accounts start throwing 5xx?'],
    message: '1.4.1 went out shortly before that. Is the rollout the problem?',
    expect: { contains: ['HikariPool-1'] },
  },

  // cart-liveness-slow-redis: cart's calls to sessions-redis slow from 38 min before the end (p50
  // 0.005 s -> 2.07 s); liveness probes fail from about 37 min before the end and the kubelet restarts
  // each cart container about once a minute (48 restarts in the last 15m, reason Error).
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'dev',
    message: 'How many times have the cart containers been restarted in the last 15m?',
    expect: { number: restartsIn('cart', '15m'), tolerance: 0.2 },
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'dev',
    message: 'p50 of cart calls to sessions-redis right now vs an hour ago?',
    expect: {
      all: [
        { number: peerP(0.5, 'cart', 'sessions-redis'), tolerance: 0.15 },
        { number: peerP(0.5, 'cart', 'sessions-redis', back(60)), tolerance: 0.2 },
      ],
    },
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'dev',
    earlier: ['Are the cart restarts OOMKills or liveness failures?'],
    message: 'when did the probe failures start?',
    expect: { at: 37, tolerance: 2 },
  },

  // inventory-liveness-unexplained: inventory's liveness probes fail from 37 min before the end, 67
  // restarts in the last 30m; catalog-sync bursts to 1.09 cores on ip-10-0-3-41 (node CPU 0.503).
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'dev',
    message: 'inventory container restarts over the last 30m, both pods together?',
    expect: { number: restartsIn('inventory', '30m'), tolerance: 0.15 },
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'dev',
    earlier: ['What node is catalog-sync running on?'],
    message: 'what is CPU utilisation on that node right now?',
    expect: { number: nodeBusy('ip-10-0-3-41'), tolerance: 0.15 },
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'dev',
    earlier: ['Why is the kubelet restarting inventory?'],
    message: 'which lock are the inventory threads stuck on?',
    expect: { cannot: true },
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'dev',
    message: 'is invetory still failing liveness?',
    expect: { asksFirst: 'inventory' },
  },

  // search-noisy-neighbour: the search pod on ip-10-0-2-34 has p99 2.41 s (the other, on
  // ip-10-0-3-41, 0.35 s); video-transcode takes 3.62 cores there (node CPU 0.98); ip-10-0-3-41 is at
  // 0.740 with log-shipper; image-resizer pegs ip-10-0-1-23.
  {
    scenario: 'search-noisy-neighbour',
    split: 'dev',
    message: 'Which search pod has the bad p99, and which node is it on?',
    expect: { contains: ['ip-10-0-2-34'] },
  },
  {
    scenario: 'search-noisy-neighbour',
    split: 'dev',
    earlier: ['Which search pod has the bad p99?'],
    message: 'what is hogging CPU on its node?',
    expect: { contains: ['video-transcode'] },
  },
  {
    scenario: 'search-noisy-neighbour',
    split: 'dev',
    message: 'Node CPU utilisation on ip-10-0-2-34 and on ip-10-0-3-41 over the last 5m?',
    expect: {
      all: [
        { number: nodeBusy('ip-10-0-2-34'), tolerance: 0.1 },
        { number: nodeBusy('ip-10-0-3-41'), tolerance: 0.1 },
      ],
    },
  },

  // billing-timeout-config-change: cfg-8841 by grace, 37 min before the end, lowers billing's ledger
  // client timeout 2s -> 150ms; billing 5xx (504) 0.20 from 36 min before the end. No ledger-proxy.
  {
    scenario: 'billing-timeout-config-change',
    split: 'dev',
    message: 'What changed on billing right before the 504s?',
    expect: { contains: ['150ms'] },
  },
  {
    scenario: 'billing-timeout-config-change',
    split: 'dev',
    earlier: ['What changed on billing right before the 504s?'],
    message: 'who pushed that?',
    expect: { contains: ['grace'] },
  },
  {
    scenario: 'billing-timeout-config-change',
    split: 'dev',
    message: 'billing 5xx ratio right now, and when did it begin?',
    expect: {
      all: [
        { number: errorRatio('billing'), tolerance: 0.15 },
        { at: 36, tolerance: 2 },
      ],
    },
  },
  {
    scenario: 'billing-timeout-config-change',
    split: 'dev',
    message: 'Is ledger-proxy healthy? billing goes through it to reach ledger.',
    expect: { asks: true },
  },

  // archive-down-reported-deploy-red-herring: archive's targets up 0 from 36 min before the end,
  // though its containers still run (0.41 cores between them); statements 5xx 0.60
  // (connection_refused). A statements asset deploy was reported 48 min before the end.
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'dev',
    message: 'statements got a deploy about 48m ago. Is that why it is failing?',
    expect: { contains: ['archive'] },
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'dev',
    earlier: ['Are the archive scrape targets up?'],
    message: 'from what time are they down?',
    expect: { at: 36, tolerance: 2 },
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'dev',
    earlier: ['Are the archive scrape targets up?', 'Are the archive containers still running, or did they get killed?'],
    message: 'how many CPU cores are they using between them?',
    expect: { number: cpuCores('container="archive"'), tolerance: 0.15 },
  },
];
