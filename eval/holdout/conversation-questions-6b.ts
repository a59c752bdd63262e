/**
 * Sixth holdout set of conversation questions, part B (split `holdout-6`): 60 follow-up questions
 * about the 23 incidents of eval/scenarios.ts (two or three each), written before the code they score
 * and never to be tuned on.
 *
 * Written by one writer in four voices, mixed through the file:
 * - an SRE in another time zone, writing in non-native English (articles dropped, unusual word
 *   order: "how much is the errors");
 * - a mobile app developer whose app calls the affected API and sees its failures from outside
 *   (routes, status codes, timeouts, latency);
 * - a capacity / FinOps engineer (CPU, memory, disk, connections, limits, headroom, how full);
 * - the on-call engineer typing on a phone (short, lowercase, slips in ordinary words, no
 *   punctuation).
 * About a third are follow-ups (`earlier`), about one in six ask several things at once (`all`),
 * six ask what the data cannot tell, four name something the data does not know or misspell a
 * service.
 *
 * The expectations come from the scenario generators and what they write (eval/scenarios.ts,
 * eval/shop.ts, eval/cluster.ts, eval/telemetry.ts, eval/harness.ts): onsets, rollouts, limits,
 * routes, pods and nodes. Every scenario was staged in a real Prometheus (three hours of data ending
 * at staging) and every `number` oracle was run as an instant query at the data's end: each returned
 * exactly one finite value, noted beside its case. Every `at` was read off range queries of the
 * staged data (minutes before the end), and agrees with the generator's offsets.
 */
import type { Expect, QuestionCase } from '../conversation-cases';

const SPLIT = 'holdout-6' as const;

/** The ratio of a job's requests (optionally one route's) answered with a status matching `code`, over 5 min. */
const codeRatio = (job: string, code: string, route?: string): string => {
  const r = route ? `, route="${route}"` : '';
  return `sum(rate(http_requests_total{job="${job}"${r}, code=~"${code}"}[5m])) / sum(rate(http_requests_total{job="${job}"${r}}[5m]))`;
};

/** Requests per second of a job answered with `code` (optionally one route's), over 5 min. */
const codeRate = (job: string, code: string, route?: string): string =>
  `sum(rate(http_requests_total{job="${job}"${route ? `, route="${route}"` : ''}, code=~"${code}"}[5m]))`;

/** The p99 latency of a job's requests (optionally one route's), over 5 min. */
const p99 = (job: string, route?: string, offset = ''): string =>
  `histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{job="${job}"${route ? `, route="${route}"` : ''}}[5m]${offset})))`;

/** The mean latency of a job's calls to a peer, over 5 min. */
const peerMean = (job: string, peer: string, offset = ''): string =>
  `sum(rate(http_client_request_duration_seconds_sum{job="${job}", peer="${peer}"}[5m]${offset})) / sum(rate(http_client_request_duration_seconds_count{job="${job}", peer="${peer}"}[5m]${offset}))`;

/** CPU cores a container uses (all its pods), over 5 min. */
const cores = (container: string): string => `sum(rate(container_cpu_usage_seconds_total{container="${container}"}[5m]))`;

/** The busy share of a node's CPUs, over 5 min. */
const nodeBusy = (node: string): string => `1 - avg(rate(node_cpu_seconds_total{mode="idle", node="${node}.eu-west-1.compute.internal"}[5m]))`;

/** A container's limit of a resource (the same in each of its pods). */
const limit = (container: string, resource: 'cpu' | 'memory', offset = ''): string =>
  `max(kube_pod_container_resource_limits{container="${container}", resource="${resource}"}${offset})`;

/** Container restarts of a workload over a window. */
const restartsIn = (container: string, window: string): string =>
  `sum(increase(kube_pod_container_status_restarts_total{container="${container}"}[${window}]))`;

const num = (number: string, tolerance: number): Expect => ({ number, tolerance });
const at = (minutes: number, tolerance = 2): Expect => ({ at: minutes, tolerance });

export const SIXTH_HOLDOUT_QUESTIONS_B: QuestionCase[] = [
  // checkout-bad-version: 2.15.0 from 38 min before the end fails 11% of POST /api/checkout.
  {
    scenario: 'checkout-bad-version',
    split: SPLIT,
    earlier: ['our android app gets HTTP 500 from checkout since maybe 40 min, is it on your side?'],
    message: 'ok. what share of POST /api/checkout calls fail right now? need a number for our status page',
    expect: num(codeRatio('checkout', '5..', '/api/checkout'), 0.15), // 0.110
  },
  {
    scenario: 'checkout-bad-version',
    split: SPLIT,
    message: 'which pods r running 2.15.0 n on what nodes',
    expect: { podsOf: { workload: 'checkout', version: '2.15.0' } },
  },

  // search-slow-version-chronic-alert: search 3.3.0 (40 min) answers /api/search 4.5x slower; recommendations throttled for hours.
  {
    scenario: 'search-slow-version-chronic-alert',
    split: SPLIT,
    message: 'The search screen of our iOS app spins for seconds. What is the p99 of GET /api/search at the moment? Our client timeout is 3 s.',
    expect: num(p99('search', '/api/search'), 0.2), // 2.03 s
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: SPLIT,
    earlier: ['is the CPUThrottlingHigh alert related to the search slowness?'],
    message: 'anyway, recommendations: how much of its CPU limit is it using right now, in percent? I suspect we sized it too tight',
    expect: num(`${cores('recommendations')} / sum(kube_pod_container_resource_limits{container="recommendations", resource="cpu"})`, 0.1), // 0.963
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: SPLIT,
    message: 'is serch on 3.3.0 evrywhere',
    expect: { asksFirst: 'search' },
  },

  // inventory-down-harmless-rollout: inventory down 36 min before the end; checkout 503s 62%; checkout 2.14.4 rolled out at 44 min.
  {
    scenario: 'inventory-down-harmless-rollout',
    split: SPLIT,
    message: 'Checkout answers 503 to our app on both of its routes. What fraction of checkout requests come back 503 now?',
    expect: num(codeRatio('checkout', '503'), 0.1), // 0.620
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: SPLIT,
    earlier: ['since when inventory is not answering?'],
    message: 'and rollout of checkout 2.14.4, at what time it was made? before or after inventory go down?',
    expect: at(44, 3),
  },

  // orders-memory-leak-oom: orders climbs to its 1 GiB limit; first OOM kills about 40.5 min before the end, 12 in all.
  {
    scenario: 'orders-memory-leak-oom',
    split: SPLIT,
    message:
      'orders: what memory limit does each container have, and how many OOM kills did we take in the last hour across both pods? trying to decide if we just bump the limit',
    expect: { all: [num(limit('orders', 'memory'), 0.05), num(restartsIn('orders', '1h'), 0.1)] }, // 1073741824 B, 12
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: SPLIT,
    earlier: ['orders pods keep restarting why'],
    message: 'when was the frist oom',
    expect: at(40.5),
  },

  // media-disk-full-flapping-alert: /var/lib/media on ip-10-0-2-34 full 37 min before the end; uploads fail with 507.
  {
    scenario: 'media-disk-full-flapping-alert',
    split: SPLIT,
    message: 'Photo uploads from the app get HTTP 507. What percentage of POST /api/uploads requests fail right now?',
    expect: num(codeRatio('media', '5..', '/api/uploads'), 0.1), // 0.970
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: SPLIT,
    earlier: ['how big is /var/lib/media on ip-10-0-2-34?'],
    message: 'and how much free space did it still have an hour ago? want to see how fast it got eaten',
    expect: num('node_filesystem_avail_bytes{mountpoint="/var/lib/media"} offset 1h', 0.1), // 943196883 B
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: SPLIT,
    message: 'also thumbnailer service, it have same problem with uploads?',
    expect: { asks: true },
  },

  // search-traffic-surge: /api/search traffic six-fold from 39 min before the end; search at its CPU limit.
  {
    scenario: 'search-traffic-surge',
    split: SPLIT,
    message: 'is search pegged? how many CPU cores are the search pods burning right now, all together?',
    expect: num(cores('search'), 0.1), // 3.97 cores
  },
  {
    scenario: 'search-traffic-surge',
    split: SPLIT,
    earlier: ['how much requests per second /api/search is getting now?'],
    message: 'and one hour before, how much it was?',
    expect: num('sum(rate(http_requests_total{job="search", route="/api/search"}[5m] offset 1h))', 0.15), // 36.1 req/s
  },

  // cart-config-crashloop: cart-config edited 38 min 20 s before the end; the new cart pod crash loops (12 restarts).
  {
    scenario: 'cart-config-crashloop',
    split: SPLIT,
    message: 'how many times has the new cart pod restarted sofar',
    expect: num('sum(kube_pod_container_status_restarts_total{container="cart"})', 0.1), // 12
  },
  {
    scenario: 'cart-config-crashloop',
    split: SPLIT,
    message: 'at what time somebody edit the cart-config configmap?',
    expect: at(38),
  },
  {
    scenario: 'cart-config-crashloop',
    split: SPLIT,
    message: 'which key in cart-config was changed and what was old value? I want revert it exactly',
    expect: { cannot: true },
  },

  // orders-worker-scaled-to-zero: scaled to zero 44 min before the end; the orders queue has no consumers.
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: SPLIT,
    earlier: ['how many seconds the oldest message of orders queue is waiting?'],
    message: 'and from what time orders-worker has no pod running?',
    expect: at(44),
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: SPLIT,
    message: 'who scaled orders-worker to 0 which user did it',
    expect: { cannot: true },
  },

  // checkout-slow-partner-bank: partner-bank 12x slower from 37 min before the end; reports-batch on a checkout node.
  {
    scenario: 'checkout-slow-partner-bank',
    split: SPLIT,
    message: 'the checkout button in our app takes forever. p99 of POST /api/checkout now?',
    expect: num(p99('checkout', '/api/checkout'), 0.15), // 4.91 s
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: SPLIT,
    earlier: ['who is slow, payments or partner-bank behind it?'],
    message: 'how much is average latency of payments calls to partner-bank now, and how much one hour ago?',
    expect: { all: [num(peerMean('payments', 'partner-bank'), 0.15), num(peerMean('payments', 'partner-bank', ' offset 1h'), 0.2)] }, // 1.26 s, 0.105 s
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: SPLIT,
    message: 'That reports-batch job sitting next to checkout: how many cores is it eating right now?',
    expect: num(cores('reports-batch'), 0.1), // 3.53 cores
  },

  // recommendations-cpu-throttled: CPU limit 1 -> 0.3 cores 40 min before the end; throttled, p99 up.
  {
    scenario: 'recommendations-cpu-throttled',
    split: SPLIT,
    message: "recommendations' CPU limit: what is it per container now, and what was it before the rollout?",
    expect: { all: [num(limit('recommendations', 'cpu'), 0.05), num(limit('recommendations', 'cpu', ' offset 1h'), 0.05)] }, // 0.3, 1 core
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: SPLIT,
    message: 'throttling % on recommendations rn',
    expect: num(
      'sum(rate(container_cpu_cfs_throttled_periods_total{container="recommendations"}[5m])) / sum(rate(container_cpu_cfs_periods_total{container="recommendations"}[5m]))',
      0.15,
    ), // 0.739
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: SPLIT,
    earlier: ['p99 of recommendations, how much is now?'],
    message: 'it go up after the rollout 40 minutes ago, or was same already before?',
    expect: { direction: 'up' },
  },

  // node-not-ready: ip-10-0-3-41 NotReady 36 min before the end; frontend's calls to the cart pod there time out (502s).
  {
    scenario: 'node-not-ready',
    split: SPLIT,
    message: 'when did ip-10-0-3-41 go notready',
    expect: at(36),
  },
  {
    scenario: 'node-not-ready',
    split: SPLIT,
    earlier: ['home screen of our app shows errors coming from frontend, is something down?'],
    message: 'how many 502s per second is frontend giving back now?',
    expect: num(codeRate('frontend', '502'), 0.15), // 12.4 req/s
  },
  {
    scenario: 'node-not-ready',
    split: SPLIT,
    message: 'ip-10-0-3-41 is spot instance terminated by AWS, or only kubelet is dead? which EC2 event it was?',
    expect: { cannot: true },
  },

  // partner-bank-certificate-expired: the certificate expired 35 min before the end; payments fails 97%.
  {
    scenario: 'partner-bank-certificate-expired',
    split: SPLIT,
    message: 'at what time certificate of partner-bank is expired, exactly?',
    expect: at(35),
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: SPLIT,
    earlier: ['payments fails for our app users, is it the bank?'],
    message: 'what share of POST /api/payments requests fail right now?',
    expect: num(codeRatio('payments', '5..', '/api/payments'), 0.1), // 0.971
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: SPLIT,
    message: 'Our app also calls bank-gateway for card tokens. Is bank-gateway affected too?',
    expect: { asks: true },
  },

  // ordersdb-connections-exhausted: connections reach max_connections (200) 40 min before the end; orders fails 35%; orders 2.3.1 at 46 min.
  {
    scenario: 'ordersdb-connections-exhausted',
    split: SPLIT,
    message: 'ordersdb: what % of max_connections is in use now, and what was it an hour ago? need to know if we are at the ceiling',
    expect: {
      all: [
        num('sum(pg_stat_activity_count) / sum(pg_settings_max_connections)', 0.1), // 0.995
        num('sum(pg_stat_activity_count offset 1h) / sum(pg_settings_max_connections offset 1h)', 0.25), // 0.22
      ],
    },
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: SPLIT,
    earlier: ['how much is the errors of orders now?'],
    message: 'which pods run orders 2.3.1 and on what nodes?',
    expect: { podsOf: { workload: 'orders', version: '2.3.1' } },
  },

  // sessions-redis-down-flapping-alert: sessions-redis down 36 min before the end; cart fails 90%.
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: SPLIT,
    earlier: ['add to cart fails in our app, is cart down?'],
    message: 'what is the error rate of POST /api/cart/items right now?',
    expect: num(codeRatio('cart', '5..', '/api/cart/items'), 0.1), // 0.900
  },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: SPLIT,
    message: 'how much errors per second cart is returning now, and from what time sessions-redis is down?',
    expect: { all: [num(codeRate('cart', '5..'), 0.15), at(36)] }, // 56.5 req/s
  },

  // payments-bad-version-noisy-neighbour: payments 1.9.0 (36 min) fails 20%; ledger-reconcile saturates ip-10-0-3-41.
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: SPLIT,
    message: 'which pods got payments 1.9.0 and on wich nodes',
    expect: { podsOf: { workload: 'payments', version: '1.9.0' } },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: SPLIT,
    message: 'The node where ledger-reconcile runs: how busy is its CPU overall, in %?',
    expect: num(nodeBusy('ip-10-0-3-41'), 0.1), // 0.98
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: SPLIT,
    message: 'who approved the release of payments 1.9.0? need his name for postmortem',
    expect: { cannot: true },
  },

  // checkout-memory-limit-lowered: a rollout lowers checkout's memory limit 768 -> 320 MiB (same 2.14.3) 40 min before the end; OOM crash loops.
  {
    scenario: 'checkout-memory-limit-lowered',
    split: SPLIT,
    message: 'What memory limit do the checkout containers have right now?',
    expect: num(limit('checkout', 'memory'), 0.05), // 335544320 B
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: SPLIT,
    message: 'how many oom kills on chekout last 30 min',
    expect: { asksFirst: 'checkout' },
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: SPLIT,
    earlier: ['why checkout pods are crashing?'],
    message: 'the version is also changed with this rollout or it is same version?',
    expect: { contains: ['2.14.3'] },
  },

  // ledger-volume-full-chronic-mount: data-ledger (50 GiB) full 36 min before the end; POST /api/ledger/entries fails with 507.
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: SPLIT,
    message: 'How full is the data-ledger volume, in percent?',
    expect: num(
      'sum(kubelet_volume_stats_used_bytes{persistentvolumeclaim="data-ledger"}) / sum(kubelet_volume_stats_capacity_bytes{persistentvolumeclaim="data-ledger"})',
      0.05,
    ), // 1
  },
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: SPLIT,
    earlier: ['what is failing on ledger?'],
    message: 'how many 507s per second is POST /api/ledger/entries returning now? our app retries them',
    expect: num(codeRate('ledger', '507', '/api/ledger/entries'), 0.15), // 5.97 req/s
  },

  // accounts-pool-exhausted-harmless-rollout: HikariPool-1 (10) runs dry 38 min before the end; accountsdb fine; accounts 1.4.1 at 47 min.
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: SPLIT,
    message: 'money transfer in the app times out. p99 of POST /api/accounts/transfer right now?',
    expect: num(p99('accounts', '/api/accounts/transfer'), 0.15), // 4.63 s
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: SPLIT,
    message: 'how full is HikariPool-1 of accounts in percent, and accountsdb connections how full versus max_connections?',
    expect: {
      all: [
        num('sum(hikaricp_connections_active) / sum(hikaricp_connections_max)', 0.1), // 0.95
        num('sum(pg_stat_activity_count) / sum(pg_settings_max_connections)', 0.25), // 0.137
      ],
    },
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: SPLIT,
    earlier: ['what version is accounts on'],
    message: 'when did 1.4.1 go out',
    expect: at(47),
  },

  // cart-liveness-slow-redis: sessions-redis seconds per command from 38 min before the end; cart's liveness probe restarts it each minute.
  {
    scenario: 'cart-liveness-slow-redis',
    split: SPLIT,
    message: 'cart restarts last 15 min',
    expect: num(restartsIn('cart', '15m'), 0.15), // 48 (48-51 over the last minutes)
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: SPLIT,
    message: 'GET /api/cart p99 right now? the cart screen in our app gives up after 2 s',
    expect: num(p99('cart', '/api/cart'), 0.2), // 2.25 s
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: SPLIT,
    earlier: ['what is wrong with cart? it is the CPUThrottlingHigh?'],
    message: 'how slow is sessions-redis for cart, average per call, now and one hour before?',
    expect: { all: [num(peerMean('cart', 'sessions-redis'), 0.15), num(peerMean('cart', 'sessions-redis', ' offset 1h'), 0.25)] }, // 2.33 s, 0.0023 s
  },

  // inventory-liveness-unexplained: inventory restarted by its liveness probe from 36.5 min before the end; catalog-sync on ip-10-0-3-41 with CPU to spare.
  {
    scenario: 'inventory-liveness-unexplained',
    split: SPLIT,
    earlier: ['which node is catalog-sync running on?'],
    message: "how busy is that node's CPU overall, in %? does it still have headroom?",
    expect: num(nodeBusy('ip-10-0-3-41'), 0.15), // 0.503
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: SPLIT,
    message: 'wen did inventory start restarting',
    expect: at(36.5),
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: SPLIT,
    message: 'please give me thread dump of inventory, which thread is blocked?',
    expect: { cannot: true },
  },

  // search-noisy-neighbour: video-transcode takes ip-10-0-2-34 from 37 min before the end; image-resizer saturates ip-10-0-1-23.
  {
    scenario: 'search-noisy-neighbour',
    split: SPLIT,
    message: 'video-transcode: which node is it on, and how many cores is it using right now?',
    expect: { all: [{ contains: ['ip-10-0-2-34'] }, num(cores('video-transcode'), 0.1)] }, // 3.62 cores
  },
  {
    scenario: 'search-noisy-neighbour',
    split: SPLIT,
    message: 'search p99 how much is now, and how much was one hour ago?',
    expect: { all: [num(p99('search'), 0.15), num(p99('search', undefined, ' offset 1h'), 0.2)] }, // 2.29 s, 0.348 s
  },
  {
    scenario: 'search-noisy-neighbour',
    split: SPLIT,
    earlier: ['image-resizer is on which node?'],
    message: 'How busy is the CPU of that node, in %?',
    expect: num(nodeBusy('ip-10-0-1-23'), 0.1), // 0.98
  },

  // billing-timeout-config-change: cfg-8841 by grace 37 min before the end; billing fails 20% with 504.
  {
    scenario: 'billing-timeout-config-change',
    split: SPLIT,
    message: 'who pushed the billing config chnage and when',
    expect: { all: [{ contains: ['grace'] }, at(37)] },
  },
  {
    scenario: 'billing-timeout-config-change',
    split: SPLIT,
    earlier: ['invoices fail from our app since half an hour, what is going on?'],
    message: 'how many 504s per second is POST /api/invoices returning now?',
    expect: num(codeRate('billing', '504', '/api/invoices'), 0.15), // 5.63 req/s
  },

  // archive-down-reported-deploy-red-herring: archive down 36 min before the end; statements fails 60%; a statements deploy 12 min earlier.
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: SPLIT,
    message: 'Can you tell which of our app users got the failed statements? Support needs the user ids.',
    expect: { cannot: true },
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: SPLIT,
    message: 'how much % of statements requests is failing now, and from when archive is down?',
    expect: { all: [num(codeRatio('statements', '5..'), 0.1), at(36)] }, // 0.601
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: SPLIT,
    earlier: ['whats going on w statements'],
    message: 'did the statements deploy 2026.11.27-1 brake it or is it smth else',
    expect: { contains: ['archive'] },
  },
];
