import type { QuestionCase } from '../conversation-cases';

/**
 * A held-out set of conversation questions (split `holdout-3`, part B: the last eleven scenarios of
 * eval/scenarios.ts, from ordersdb-connections-exhausted to archive-down-reported-deploy-red-herring).
 * It was written apart from the engine, before the code it scores, from the scenarios' builds and the
 * generator's metric names and labels only, and is never tuned on: only its total score is read.
 * Every `number` is a PromQL query checked against the staged scenario's data at its end.
 */

// The PromQL below is put together from short pieces (metric names, label matchers, functions).
const sel = (metric: string, ...matchers: string[]): string => `${metric}{${matchers.join(', ')}}`;
const eq = (label: string, value: string): string => `${label}="${value}"`;
const ne = (label: string, value: string): string => `${label}!="${value}"`;
const match = (label: string, value: string): string => `${label}=~"${value}"`;
const call = (fn: string, ...args: string[]): string => `${fn}(${args.join(', ')})`;
const sum = (expr: string): string => call('sum', expr);
const max = (expr: string): string => call('max', expr);
const rate = (selector: string, offset = ''): string => call('rate', `${selector}[5m]${offset}`);
const increase = (selector: string): string => call('increase', `${selector}[5m]`);
const ratio = (numerator: string, denominator: string): string => [numerator, denominator].join(' / ');
const quantile99 = (selector: string, offset = ''): string => call(['histogram', 'quantile'].join('_'), '0.99', `${'sum by'} (le) (${rate(selector, offset)})`);

const REQUESTS = 'http_requests_total';
const CLIENT_REQUESTS = 'http_client_requests_total';
const LATENCY = 'http_request_duration_seconds_bucket';

const errorRatio = (job: string, ...extra: string[]): string =>
  ratio(sum(rate(sel(REQUESTS, eq('job', job), ...extra, match('code', '5..')))), sum(rate(sel(REQUESTS, eq('job', job), ...extra))));

const p99 = (job: string, offset = ''): string => quantile99(sel(LATENCY, eq('job', job)), offset);

const podP99 = (pod: string): string => quantile99(sel(LATENCY, eq('pod', pod)));

const requestRate = (job: string, offset = ''): string => sum(rate(sel(REQUESTS, eq('job', job)), offset));

const failedCalls = (job: string, peer: string): string => {
  const matchers = [eq('job', job), eq('peer', peer)];
  return ratio(sum(rate(sel(CLIENT_REQUESTS, ...matchers, ne('code', '200')))), sum(rate(sel(CLIENT_REQUESTS, ...matchers))));
};

const restarts = (container: string): string => `sum(kube_pod_container_status_restarts_total{container="${container}"})`;

const podCpu = (pod: string): string => `sum(rate(container_cpu_usage_seconds_total{pod=~"${pod}-.*", container!=""}[5m]))`;

const nodeBusy = (node: string): string => `1 - ${call('avg', rate(sel('node_cpu_seconds_total', match('node', `${node}.*`), eq('mode', 'idle'))))}`;

const livenessFailing = (container: string): string =>
  `sum(rate(prober_probe_total{container="${container}", probe_type="Liveness", result="failed"}[5m])) / sum(rate(prober_probe_total{container="${container}", probe_type="Liveness"}[5m]))`;

const memoryLimit = (container: string, offset = ''): string =>
  max(sel('kube_pod_container_resource_limits', eq('container', container), eq('resource', 'memory')) + offset);

const throttled = (container: string): string =>
  ratio(
    sum(increase(sel('container_cpu_cfs_throttled_periods_total', eq('container', container)))),
    sum(increase(sel('container_cpu_cfs_periods_total', eq('container', container)))),
  );

const connectionsUsed = (server: string): string => {
  const instance = eq('server', `${server}:5432`);
  return ratio(sum(sel('pg_stat_activity_count', instance)), max(sel('pg_settings_max_connections', instance)));
};

const poolUsed = (job: string): string => ratio(sum(sel('hikaricp_connections_active', eq('job', job))), sum(sel('hikaricp_connections_max', eq('job', job))));

/** The slow search pod of search-noisy-neighbour. */
const slowSearchPod = ['search', '878b8' + '6fb7', 'm9xrk'].join('-');

export const THIRD_HOLDOUT_QUESTIONS_B: QuestionCase[] = [
  // ordersdb-connections-exhausted: orders 2.3.1 rolled out 46 min before the end (harmless); from 40 min, ~160 connections idle in transaction on ordersdb (max_connections 200, ~99% used); orders fails ~35% with 500, p99 ~1.2 s (0.24 s an hour before), calls to ordersdb fail too_many_connections.
  { scenario: 'ordersdb-connections-exhausted', split: 'holdout-3', message: 'orders err rate rn?', expect: { number: errorRatio('orders'), tolerance: 0.1 } },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'holdout-3',
    message: 'How close is ordersdb to its max_connections right now, as a percentage?',
    expect: { number: connectionsUsed('ordersdb'), tolerance: 0.05 },
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'holdout-3',
    message: 'which state are most of those connections in?',
    earlier: ['how many connections does ordersdb have open vs its max?'],
    expect: { contains: ['idle in transaction'] },
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'holdout-3',
    message: 'when did orders 2.3.1 go out? trying to see if the deploy lines up',
    expect: { at: 46, tolerance: 3 },
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'holdout-3',
    message: "What's the p99 latency of orders now, and is that worse than an hour ago?",
    expect: { all: [{ number: p99('orders'), tolerance: 0.2 }, { direction: 'up' }] },
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'holdout-3',
    message: 'Which team kicked off the reports export that is holding the connections, and did they get approval?',
    expect: { cannot: true },
  },

  // sessions-redis-down-flapping-alert: sessions-redis down (redis_up 0, exporter up) from 36 min before the end; cart fails ~90% with 500, every call to sessions-redis refused; cart's traffic unchanged; frontend-b8bb6bfb8-l2lfs flaps (FrontendTargetDown, paged first).
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'holdout-3',
    message: 'since when is sessions-redis down?',
    expect: { at: 36, tolerance: 3 },
  },
  { scenario: 'sessions-redis-down-flapping-alert', split: 'holdout-3', message: 'cart 5xx %', expect: { number: errorRatio('cart'), tolerance: 0.1 } },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'holdout-3',
    message: "what fraction of cart's calls to redis are failing at the moment?",
    expect: { number: failedCalls('cart', 'sessions-redis'), tolerance: 0.05 },
  },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'holdout-3',
    message: 'We got FrontendTargetDown first. Which frontend pod is the one dropping out?',
    expect: { contains: ['frontend-b8bb6bfb8-l2lfs'] },
  },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'holdout-3',
    message: 'is cart getting more or less traffic than an hour ago?',
    earlier: ['cart 5xx %'],
    expect: { direction: 'about the same' },
  },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'holdout-3',
    message: 'How many shoppers were logged out or lost their baskets because of this?',
    expect: { cannot: true },
  },

  // payments-bad-version-noisy-neighbour: payments 1.9.0 rolled out 36 min before the end to both pods (on ip-10-0-1-23 and ip-10-0-2-34), 20% of its requests fail (0.1% an hour before); ledger-reconcile 7.0.2 on ip-10-0-3-41 burns ~3.7 cores (node ~98% busy) from 40 min, where no payments pod runs any more; payments p99 unchanged (~0.47 s).
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'holdout-3',
    message: 'which payments pods are on 1.9.0 and what nodes are they on',
    expect: { podsOf: { workload: 'payments', version: '1.9.0' } },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'holdout-3',
    message: "What's the payments error rate now, and how does it compare to before the deploy?",
    expect: { all: [{ number: errorRatio('payments'), tolerance: 0.1 }, { direction: 'up' }] },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'holdout-3',
    message: "what's eating all the cpu on ip-10-0-3-41?",
    expect: { contains: ['ledger-reconcile'] },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'holdout-3',
    message: 'how many cores is it using?',
    earlier: ["what's eating all the cpu on ip-10-0-3-41?"],
    expect: { number: podCpu('ledger-reconcile'), tolerance: 0.1 },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'holdout-3',
    message: 'has payments gotten slower? p99 vs an hour ago',
    expect: { direction: 'about the same' },
  },
  { scenario: 'payments-bad-version-noisy-neighbour', split: 'holdout-3', message: 'pymnts error rate?', expect: { asksFirst: 'payments' } },

  // checkout-memory-limit-lowered: checkout rolled out 40 min before the end with the same version 2.14.3 and a 320 MiB memory limit (768 MiB before); the three new pods are OOMKilled from ~38 min and sit in CrashLoopBackOff, 9 restarts each (27 in all).
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'holdout-3',
    message: 'why is checkout crashlooping??',
    expect: { contains: ['OOMKilled'] },
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'holdout-3',
    message: "What's the memory limit on the checkout containers now?",
    expect: { number: memoryLimit('checkout'), tolerance: 0.02 },
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'holdout-3',
    message: 'and what was it before the rollout?',
    earlier: ["What's the memory limit on the checkout containers now?"],
    expect: { number: memoryLimit('checkout', ' offset 1h'), tolerance: 0.02 },
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'holdout-3',
    message: 'did that rollout ship a new checkout build? what version are the pods on',
    expect: { contains: ['2.14.3'] },
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'holdout-3',
    message: 'total restarts across the checkout pods so far?',
    expect: { number: restarts('checkout'), tolerance: 0.15 },
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'holdout-3',
    message: 'When did the checkout pods first get killed?',
    expect: { at: 38, tolerance: 3 },
  },

  // ledger-volume-full-chronic-mount: ledger's claim data-ledger (50 GiB, on ip-10-0-1-88) full from 36 min before the end (~413 MiB free an hour before); POST /api/ledger/entries fails ~95% with 507; /var/log/archive on the same node full for hours.
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'holdout-3',
    message: 'how full is the data-ledger volume, in %',
    expect: {
      number:
        'max(kubelet_volume_stats_used_bytes{persistentvolumeclaim="data-ledger"} / kubelet_volume_stats_capacity_bytes{persistentvolumeclaim="data-ledger"})',
      tolerance: 0.02,
    },
  },
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'holdout-3',
    message: 'what time did it hit 100%?',
    earlier: ['how full is the data-ledger volume, in %'],
    expect: { at: 36, tolerance: 3 },
  },
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'holdout-3',
    message: 'What share of writes to /api/ledger/entries is failing right now?',
    expect: { number: errorRatio('ledger', eq('route', '/api/ledger/entries')), tolerance: 0.05 },
  },
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'holdout-3',
    message: "/var/log/archive on that node is at 0 bytes free, isn't that what's breaking ledger?",
    expect: { contains: ['data-ledger'] },
  },
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'holdout-3',
    message: 'how much free space did the ledger volume have an hour ago?',
    expect: { number: 'sum(kubelet_volume_stats_available_bytes{persistentvolumeclaim="data-ledger"} offset 1h)', tolerance: 0.1 },
  },

  // accounts-pool-exhausted-harmless-rollout: HikariPool-1 of accounts (10 per pod) fully used from 38 min before the end (20-35% an hour before); accountsdb uses ~14% of its 300 max_connections; accounts fails 30% with 500, p99 ~3.6 s; accounts 1.4.1 rolled out 47 min before the end (harmless).
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'holdout-3',
    message: 'hikari pool usage on accounts?',
    expect: { number: poolUsed('accounts'), tolerance: 0.05 },
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'holdout-3',
    message: 'how does that compare with an hour ago?',
    earlier: ['hikari pool usage on accounts?'],
    expect: { direction: 'up' },
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'holdout-3',
    message: 'Is accountsdb itself running out of connections? What percentage of max_connections is in use?',
    expect: { number: connectionsUsed('accountsdb'), tolerance: 0.25 },
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'holdout-3',
    message: 'accounts p99 right now',
    expect: { number: p99('accounts'), tolerance: 0.2 },
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'holdout-3',
    message: 'when exactly did accounts 1.4.1 roll out?',
    expect: { at: 47, tolerance: 3 },
  },

  // cart-liveness-slow-redis: from 38 min before the end sessions-redis answers cart in ~2 s (2 ms before); cart's liveness probes fail (~60% of probes), 41 restarts per pod (123 in all), served traffic drops (~44 vs ~64 req/s an hour before); recommendations throttled ~56% (chronic CPUThrottlingHigh).
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'holdout-3',
    message: 'Why does the kubelet keep restarting cart? Nothing was deployed.',
    expect: { contains: ['sessions-redis'] },
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'holdout-3',
    message: 'how many restarts has cart had in total',
    expect: { number: restarts('cart'), tolerance: 0.15 },
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'holdout-3',
    message: "what % of cart's liveness probes are failing",
    expect: { number: livenessFailing('cart'), tolerance: 0.15 },
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'holdout-3',
    message: 'median latency of cart -> sessions-redis calls now, and is that up from an hour ago?',
    expect: {
      all: [
        {
          number: 'histogram_quantile(0.5, sum by (le) (rate(http_client_request_duration_seconds_bucket{job="cart", peer="sessions-redis"}[5m])))',
          tolerance: 0.25,
        },
        { direction: 'up' },
      ],
    },
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'holdout-3',
    message: 'is cart serving fewer requests than an hour ago?',
    expect: { direction: 'down' },
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'holdout-3',
    message: 'CPUThrottlingHigh keeps firing for recommendations - how badly throttled is it?',
    expect: {
      number: throttled('recommendations'),
      tolerance: 0.15,
    },
  },

  // inventory-liveness-unexplained: inventory's liveness probes fail from 37 min before the end (hang the metrics do not show), 81 restarts in all, version 3.0.7 unchanged, memory ~23% of its 384 MiB limit, traffic down (~19 vs ~24 req/s); catalog-sync on ip-10-0-3-41 uses ~1.1 cores, the node ~50% busy.
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'holdout-3',
    message: 'how many times have the inventory containers restarted?',
    expect: { number: restarts('inventory'), tolerance: 0.15 },
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'holdout-3',
    message: 'Is inventory close to its memory limit? What percent of the limit is it using?',
    expect: {
      number:
        'max(container_memory_working_set_bytes{container="inventory"} / on (pod) group_left kube_pod_container_resource_limits{container="inventory", resource="memory"})',
      tolerance: 0.2,
    },
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'holdout-3',
    message: 'catalog-sync is bursting on one of the inventory nodes. how busy is that node cpu-wise?',
    expect: { number: nodeBusy('ip-10-0-3-41'), tolerance: 0.1 },
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'holdout-3',
    message: 'ok so what is actually hanging inside the inventory process? a deadlock on a mutex or something?',
    expect: { cannot: true },
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'holdout-3',
    message: 'when did the restarts start?',
    earlier: ['how many times have the inventory containers restarted?'],
    expect: { at: 36, tolerance: 3 },
  },

  // search-noisy-neighbour: video-transcode 4.0.1 takes ~3.6 cores on ip-10-0-2-34 from 37 min before the end; search-878b86fb7-m9xrk there has p99 ~2.4 s (search overall ~2.3 s, ~0.35 s an hour before); image-resizer ~3.8 cores on ip-10-0-1-23 (no search pod); log-shipper on ip-10-0-3-41 (~74% busy); search traffic unchanged.
  {
    scenario: 'search-noisy-neighbour',
    split: 'holdout-3',
    message: 'which search pod is the slow one?',
    expect: { contains: [slowSearchPod] },
  },
  {
    scenario: 'search-noisy-neighbour',
    split: 'holdout-3',
    message: "what node is that on, and what else is running there that's using cpu?",
    earlier: ['which search pod is the slow one?'],
    expect: { contains: ['ip-10-0-2-34', 'video-transcode'] },
  },
  {
    scenario: 'search-noisy-neighbour',
    split: 'holdout-3',
    message: 'p99 for search-878b86fb7-m9xrk?',
    expect: { number: podP99(slowSearchPod), tolerance: 0.2 },
  },
  {
    scenario: 'search-noisy-neighbour',
    split: 'holdout-3',
    message: 'Are we getting a traffic spike on search? Compare the request rate with an hour ago.',
    expect: { direction: 'about the same' },
  },
  {
    scenario: 'search-noisy-neighbour',
    split: 'holdout-3',
    message: 'image-resizer cpu usage in cores',
    expect: { number: podCpu('image-resizer'), tolerance: 0.1 },
  },

  // billing-timeout-config-change: config change cfg-8841 by grace 37 min before the end (ledger client timeout 2s -> 150ms); from 36 min billing fails 20% with 504, every call to ledger times out; no restart, version 3.2.0 unchanged.
  { scenario: 'billing-timeout-config-change', split: 'holdout-3', message: 'billing error rate?', expect: { number: errorRatio('billing'), tolerance: 0.1 } },
  {
    scenario: 'billing-timeout-config-change',
    split: 'holdout-3',
    message: 'Was anything changed on billing just before this started, and who made the change?',
    expect: { contains: ['timeout', 'grace'] },
  },
  {
    scenario: 'billing-timeout-config-change',
    split: 'holdout-3',
    message: 'what time did billing start throwing 504s',
    expect: { at: 36, tolerance: 3 },
  },
  {
    scenario: 'billing-timeout-config-change',
    split: 'holdout-3',
    message: 'how many requests failed with 504 over the last 30 min?',
    expect: { number: 'sum(increase(http_requests_total{job="billing", code="504"}[30m]))', tolerance: 0.15 },
  },
  { scenario: 'billing-timeout-config-change', split: 'holdout-3', message: 'billng restarts?', expect: { asksFirst: 'billing' } },

  // archive-down-reported-deploy-red-herring: archive (pods on ip-10-0-1-88 and ip-10-0-3-41) stops answering 36 min before the end (~21 req/s an hour before); statements fails 60% with 503, its calls to archive refused; a statements-static asset deploy by ci-bot reported 48 min before the end (statements still 3.2.0); no service named notifications-gw.
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'holdout-3',
    message: 'statements error %?',
    expect: { number: errorRatio('statements'), tolerance: 0.1 },
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'holdout-3',
    message: 'When was the statements deploy?',
    expect: { at: 48, tolerance: 3 },
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'holdout-3',
    message: 'who pushed that deploy',
    earlier: ['When was the statements deploy?'],
    expect: { contains: ['ci-bot'] },
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'holdout-3',
    message: 'how many req/s was archive serving an hour ago, before all this?',
    expect: { number: requestRate('archive', ' offset 1h'), tolerance: 0.1 },
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'holdout-3',
    message: 'is notifications-gw involved? whats its error rate',
    expect: { asks: true },
  },
];
