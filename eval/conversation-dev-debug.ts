/**
 * Conversation questions (dev split) in the voice of the developer who owns one of the services,
 * debugging in the incident channel: precise questions about their own service and what it calls
 * (one route's p99 or 5xx ratio, calls to a peer and how they fail, pods one by one, restarts,
 * memory against the limit, throttling, the pool or queue it uses, which node a pod is on), often
 * two or three things in one message, and follow-ups that lean on the turns before.
 *
 * Written from the scenario generators (eval/scenarios.ts, shop.ts, cluster.ts, telemetry.ts) and
 * the expectation types. Every scenario was staged in a real Prometheus (three hours ending now)
 * and every `number` oracle below was run at the data's end and returned one finite value (the
 * value seen is noted beside it); every `at` was read off range queries of the staged data (minutes
 * before the end); names in `contains` are nodes, routes, outcomes, workloads and seed-fixed pod
 * names as the staged data shows them.
 */
import type { Expect, QuestionCase } from './conversation-cases';

const SPLIT = 'dev' as const;

/** A label selector of a workload's HTTP server series, optionally one route. */
const sel = (job: string, route?: string, extra = ''): string => `job="${job}"${route ? `, route="${route}"` : ''}${extra}`;

/** Requests per second of a workload (or one route), optionally `offset`. */
const rps = (job: string, route?: string, offset = ''): string => `sum(rate(http_requests_total{${sel(job, route)}}[5m]${offset}))`;

/** The share of a workload's (or one route's) requests answered with a 5xx. */
const ratio5xx = (job: string, route?: string): string =>
  `sum(rate(http_requests_total{${sel(job, route, ', code=~"5.."')}}[5m])) / sum(rate(http_requests_total{${sel(job, route)}}[5m]))`;

/** The p99 of a workload's server latency (a route, or extra matchers), optionally `offset`. */
const p99 = (job: string, route?: string, offset = '', extra = ''): string =>
  `histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{${sel(job, route, extra)}}[5m]${offset})))`;

/** A quantile of a workload's outgoing calls to a peer. */
const peerQuantile = (q: number, job: string, peer: string): string =>
  `histogram_quantile(${q}, sum by (le) (rate(http_client_request_duration_seconds_bucket{job="${job}", peer="${peer}"}[5m])))`;

/** Calls per second of a workload to a peer ending with `code` (an outcome such as `timeout`). */
const peerCalls = (job: string, peer: string, code: string): string =>
  `sum(rate(http_client_requests_total{job="${job}", peer="${peer}", code="${code}"}[5m]))`;

/** Container restarts of a workload (or one pod). */
const restarts = (container: string, pod?: string): string =>
  `sum(kube_pod_container_status_restarts_total{container="${container}"${pod ? `, pod="${pod}"` : ''}})`;

/** The share of CFS periods a workload's containers were throttled in. */
const throttled = (container: string): string =>
  `sum(increase(container_cpu_cfs_throttled_periods_total{container="${container}"}[5m])) / sum(increase(container_cpu_cfs_periods_total{container="${container}"}[5m]))`;

/** CPU cores a workload's containers use. */
const cores = (container: string): string => `sum(rate(container_cpu_usage_seconds_total{container="${container}"}[5m]))`;

/** The busy share of a node's CPUs. */
const nodeBusy = (node: string): string => `1 - avg(rate(node_cpu_seconds_total{mode="idle", node="${node}.eu-west-1.compute.internal"}[5m]))`;

/** A limit of a workload's containers (kube-state-metrics), optionally `offset`. */
const limit = (container: string, resource: 'memory' | 'cpu', offset = ''): string =>
  `max(kube_pod_container_resource_limits{container="${container}", resource="${resource}"}${offset})`;

const n = (number: string, tolerance = 0.15): Expect => ({ number, tolerance });

export const DEBUG_DEV_CASES: QuestionCase[] = [
  // checkout-bad-version: checkout's owner.
  {
    scenario: 'checkout-bad-version',
    split: SPLIT,
    message: "checkout owner here. what's the 5xx ratio on POST /api/checkout right now, and how many rps is that route doing?",
    // 0.110; 20.1 req/s
    expect: { all: [n(ratio5xx('checkout', '/api/checkout'), 0.2), n(rps('checkout', '/api/checkout'))] },
  },
  {
    scenario: 'checkout-bad-version',
    split: SPLIT,
    earlier: ['what versions are the checkout pods running rn?'],
    message: 'ok and when did 2.15.0 start going out?',
    // the first 2.15.0 pod from 38 min before the end
    expect: { at: 38, tolerance: 2 },
  },
  {
    scenario: 'checkout-bad-version',
    split: SPLIT,
    message: 'which of my pods got 2.15.0 and what nodes are they on',
    expect: { podsOf: { workload: 'checkout', version: '2.15.0' } },
  },
  {
    scenario: 'checkout-bad-version',
    split: SPLIT,
    message: 'who approved the 2.15.0 rollout? want to loop them in before i roll back',
    expect: { cannot: true },
  },

  // search-slow-version-chronic-alert: search's owner.
  {
    scenario: 'search-slow-version-chronic-alert',
    split: SPLIT,
    message: 'p99 on /api/search vs /api/suggest rn? trying to see if its just the one route',
    // 2.03 s; 0.092 s
    expect: { all: [n(p99('search', '/api/search'), 0.2), n(p99('search', '/api/suggest'), 0.2)] },
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: SPLIT,
    earlier: ['p99 of GET /api/search at the moment?'],
    message: 'same but an hour ago',
    // 0.372 s
    expect: n(p99('search', '/api/search', ' offset 1h'), 0.2),
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: SPLIT,
    message: 'CPUThrottlingHigh keeps firing for recommendations in our namespace, is it actually throttled? what % of its cfs periods',
    // 0.549
    expect: n(throttled('recommendations'), 0.15),
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: SPLIT,
    message: 'what version is serch running on each pod',
    expect: { asksFirst: 'search' },
  },

  // inventory-down-harmless-rollout: checkout's owner.
  {
    scenario: 'inventory-down-harmless-rollout',
    split: SPLIT,
    message: 'my checkout calls to inventory, how many are failing per sec and with what error?',
    // 25.6 req/s, all connection_refused
    expect: { all: [n(`sum(rate(http_client_requests_total{job="checkout", peer="inventory", code!="200"}[5m]))`), { contains: ['connection_refused'] }] },
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: SPLIT,
    earlier: ['is inventory even up? checkout gets errors on every call to it'],
    message: 'since when?',
    // up{job="inventory"} 0 from 36 min before the end
    expect: { at: 36, tolerance: 2 },
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: SPLIT,
    earlier: ['5xx ratio on POST /api/checkout right now?'],
    message: 'and for /api/checkout/status?',
    // 0.621
    expect: n(ratio5xx('checkout', '/api/checkout/status')),
  },

  // orders-memory-leak-oom: orders' owner.
  {
    scenario: 'orders-memory-leak-oom',
    split: SPLIT,
    message: 'how many OOMKills across both orders pods so far, total',
    // 12 (6 + 6)
    expect: n(restarts('orders'), 0.05),
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: SPLIT,
    earlier: ['are the orders pods restarting? seeing gaps in my dashboards'],
    message: 'when was the first OOMKill?',
    // both pods' first kill between 40.5 and 40 min before the end
    expect: { at: 40.5, tolerance: 2 },
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: SPLIT,
    message: "working set of orders-6fb5cc5f8-rff78 right now, and what's its mem limit",
    // 835 MB; 1 GiB
    expect: {
      all: [
        n(`sum(container_memory_working_set_bytes{container="orders", pod="orders-6fb5cc5f8-rff78"})`, 0.15),
        n(`max(container_spec_memory_limit_bytes{container="orders", pod="orders-6fb5cc5f8-rff78"})`, 0.05),
      ],
    },
  },

  // media-disk-full-flapping-alert: media's owner.
  {
    scenario: 'media-disk-full-flapping-alert',
    split: SPLIT,
    message: 'media here - 507 ratio on POST /api/uploads atm? also how big is /var/lib/media on the node',
    // 0.970; 200 GiB
    expect: { all: [n(ratio5xx('media', '/api/uploads'), 0.1), n(`max(node_filesystem_size_bytes{mountpoint="/var/lib/media"})`, 0.05)] },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: SPLIT,
    earlier: ['which node is the media pod on?'],
    message: 'when did /var/lib/media run out of space there?',
    // node_filesystem_avail_bytes 0 from 37 min before the end
    expect: { at: 37, tolerance: 2 },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: SPLIT,
    earlier: ['how many req/s on POST /api/uploads now?'],
    message: 'and an hour ago then?',
    // 2.31 req/s
    expect: n(rps('media', '/api/uploads', ' offset 1h')),
  },

  // search-traffic-surge: search's owner.
  {
    scenario: 'search-traffic-surge',
    split: SPLIT,
    message: 'rps on /api/search now vs an hour ago? feels like way more traffic',
    // 211.5 req/s; 36.1 req/s
    expect: { all: [n(rps('search', '/api/search')), n(rps('search', '/api/search', ' offset 1h'))] },
  },
  {
    scenario: 'search-traffic-surge',
    split: SPLIT,
    earlier: ["what's the request rate on GET /api/search?"],
    message: 'when did it jump?',
    // the ramp starts 39 min before the end (sixfold by 35)
    expect: { at: 39, tolerance: 2 },
  },
  {
    scenario: 'search-traffic-surge',
    split: SPLIT,
    message: 'are my search pods getting cpu throttled? % of periods pls, and whats p99 on /api/search',
    // 0.996; 4.55 s
    expect: { all: [n(throttled('search'), 0.1), n(p99('search', '/api/search'), 0.2)] },
  },
  {
    scenario: 'search-traffic-surge',
    split: SPLIT,
    message: 'can you tell which crawler it is? user agent or source ips would do',
    expect: { cannot: true },
  },

  // cart-config-crashloop: cart's owner.
  {
    scenario: 'cart-config-crashloop',
    split: SPLIT,
    message: 'how many restarts on the new cart pod so far, and which node did it land on',
    // 12 (the old pods 0); the new pod is on ip-10-0-1-23
    expect: { all: [n(restarts('cart'), 0.05), { contains: ['ip-10-0-1-23'] }] },
  },
  {
    scenario: 'cart-config-crashloop',
    split: SPLIT,
    earlier: ['what makes the new cart pod crashloop? exit reason?'],
    message: 'when was cart-config edited?',
    // its resource version changes 38.3 min before the end
    expect: { at: 38.3, tolerance: 2 },
  },
  {
    scenario: 'cart-config-crashloop',
    split: SPLIT,
    earlier: ['are the old cart pods still serving traffic?'],
    message: 'what rps are they doing on GET /api/cart',
    // 46.7 req/s
    expect: n(rps('cart', '/api/cart')),
  },

  // orders-worker-scaled-to-zero: orders-worker's owner.
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: SPLIT,
    message: 'how old is the oldest message sitting in the orders queue',
    // 2641.5 s
    expect: n(`max(time() - rabbitmq_queue_head_message_timestamp{queue="orders"})`, 0.1),
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: SPLIT,
    earlier: ['how many consumers on the orders queue right now?'],
    message: 'when did it drop to 0?',
    // replicas 0 at 44, consumers 0 from 43.5 min before the end
    expect: { at: 44, tolerance: 2 },
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: SPLIT,
    message: 'who scaled orders-worker down? the hpa or someone with kubectl?',
    expect: { cannot: true },
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: SPLIT,
    message: 'is fulfillment-worker still consuming from orders?',
    expect: { asks: true },
  },

  // checkout-slow-partner-bank: checkout's owner.
  {
    scenario: 'checkout-slow-partner-bank',
    split: SPLIT,
    message: 'p99 for POST /api/checkout and for GET /api/checkout/status? only checkout is paging',
    // 4.91 s; 0.152 s
    expect: { all: [n(p99('checkout', '/api/checkout'), 0.2), n(p99('checkout', '/api/checkout/status'), 0.2)] },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: SPLIT,
    earlier: ["whats the p99 of checkout's outbound calls to payments?"],
    message: 'and what does payments see from partner-bank, same p99?',
    // 4.69 s
    expect: n(peerQuantile(0.99, 'payments', 'partner-bank'), 0.2),
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: SPLIT,
    earlier: ["what's reports-batch doing cpu-wise?"],
    message: 'is one of my checkout pods on the same node as it? which one',
    // reports-batch runs on ip-10-0-2-34 with checkout-bbb67f8ff-w4rdq
    expect: { contains: ['checkout-bbb67f8ff-w4rdq'] },
  },

  // recommendations-cpu-throttled: recommendations' owner.
  {
    scenario: 'recommendations-cpu-throttled',
    split: SPLIT,
    message: 'recs owner - % of cfs periods throttled on recommendations right now, and whats the cpu limit on the pods?',
    // 0.739; 0.3 cores
    expect: { all: [n(throttled('recommendations')), n(limit('recommendations', 'cpu'), 0.05)] },
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: SPLIT,
    earlier: ['cpu limit on the recommendations pods now?'],
    message: 'and how was it an hour ago, before the rollout?',
    // 1 core
    expect: n(limit('recommendations', 'cpu', ' offset 1h'), 0.05),
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: SPLIT,
    message: 'whats the p99 for recomendations atm',
    expect: { asksFirst: 'recommendations' },
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: SPLIT,
    message: 'did p99 of /api/recommendations go up after the rollout ~40 min ago?',
    // 0.258 s an hour ago, 1.89 s now
    expect: { direction: 'up' },
  },

  // node-not-ready: frontend's owner.
  {
    scenario: 'node-not-ready',
    split: SPLIT,
    message: 'frontend -> cart calls timing out, how many per sec?',
    // 13.8 req/s
    expect: n(peerCalls('frontend', 'cart', 'timeout')),
  },
  {
    scenario: 'node-not-ready',
    split: SPLIT,
    message: 'when did ip-10-0-3-41 turn NotReady?',
    // Ready false from 36 min before the end
    expect: { at: 36, tolerance: 2 },
  },
  {
    scenario: 'node-not-ready',
    split: SPLIT,
    earlier: ['frontend 5xx ratio right now?'],
    message: 'which cart pod was on ip-10-0-3-41?',
    expect: { contains: ['cart-d7b5fbc6d-tk7ck'] },
  },
  {
    scenario: 'node-not-ready',
    split: SPLIT,
    message: '5xx ratio on GET / vs GET /product/{id} for frontend',
    // 0.151 both
    expect: { all: [n(ratio5xx('frontend', '/')), n(ratio5xx('frontend', '/product/{id}'))] },
  },

  // partner-bank-certificate-expired: payments' owner.
  {
    scenario: 'partner-bank-certificate-expired',
    split: SPLIT,
    message: 'when did the partner-bank cert expire exactly',
    // probe_ssl_earliest_cert_expiry 35 min before the end
    expect: { at: 35, tolerance: 2 },
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: SPLIT,
    message: "how many of payments' calls to partner-bank fail with tls_error per sec",
    // 19.5 req/s
    expect: n(peerCalls('payments', 'partner-bank', 'tls_error')),
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: SPLIT,
    earlier: ['payments req/s right now?'],
    message: 'and an hour ago then?',
    // 17.75 req/s
    expect: n(rps('payments', undefined, ' offset 1h')),
  },

  // ordersdb-connections-exhausted: orders' owner.
  {
    scenario: 'ordersdb-connections-exhausted',
    split: SPLIT,
    message: 'ordersdb connections in use vs max_connections, as a %?',
    // 0.995
    expect: n(`sum(pg_stat_activity_count) / max(pg_settings_max_connections)`, 0.1),
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: SPLIT,
    message: "orders -> ordersdb calls failing per sec and what's the error?",
    // 11.3 req/s, too_many_connections
    expect: { all: [n(peerCalls('orders', 'ordersdb', 'too_many_connections')), { contains: ['too_many_connections'] }] },
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: SPLIT,
    earlier: ['5xx ratio on POST /api/orders now?'],
    message: 'and on GET /api/orders/{id}?',
    // 0.350
    expect: n(ratio5xx('orders', '/api/orders/{id}')),
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: SPLIT,
    earlier: ['when did orders 2.3.1 roll out?'],
    message: 'and when did the 500s start? want to see if they line up',
    // 500s from 40 min before the end (2.3.1 from 46)
    expect: { at: 40, tolerance: 2 },
  },

  // sessions-redis-down-flapping-alert: cart's owner.
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: SPLIT,
    message: 'cart here. how many connection_refused per sec from cart to sessions-redis?',
    // 94.2 req/s
    expect: n(peerCalls('cart', 'sessions-redis', 'connection_refused')),
  },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: SPLIT,
    message: 'at what point did sessions-redis go down? redis_up i mean',
    // redis_up 0 from 36 min before the end
    expect: { at: 36, tolerance: 2 },
  },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: SPLIT,
    earlier: ['whats carts 5xx ratio now'],
    message: 'for POST /api/cart/items specifically?',
    // 0.900
    expect: n(ratio5xx('cart', '/api/cart/items'), 0.1),
  },

  // payments-bad-version-noisy-neighbour: payments' owner.
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: SPLIT,
    message: 'which pods are on payments 1.9.0 and on which nodes',
    expect: { podsOf: { workload: 'payments', version: '1.9.0' } },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: SPLIT,
    message: 'how many cores is ledger-reconcile burning, and how busy is ip-10-0-3-41 overall (cpu %)?',
    // 3.71 cores; 0.98
    expect: { all: [n(cores('ledger-reconcile')), n(nodeBusy('ip-10-0-3-41'), 0.1)] },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: SPLIT,
    earlier: ['payments 5xx ratio now?'],
    message: 'and the p99?',
    // 0.472 s
    expect: n(p99('payments'), 0.2),
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: SPLIT,
    earlier: ['when did payments 1.9.0 start rolling out?'],
    message: 'and when did ledger-reconcile start eating cpu?',
    // from 40 min before the end (the rollout from 36)
    expect: { at: 40, tolerance: 2 },
  },

  // checkout-memory-limit-lowered: checkout's owner.
  {
    scenario: 'checkout-memory-limit-lowered',
    split: SPLIT,
    message: 'memory limit on checkout pods now vs an hour ago? think the last rollout changed it',
    // 320 MiB; 768 MiB
    expect: { all: [n(limit('checkout', 'memory'), 0.05), n(limit('checkout', 'memory', ' offset 1h'), 0.05)] },
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: SPLIT,
    message: 'how many OOMKills on checkout since the rollout, all pods together',
    // 27 (9 per pod)
    expect: n(restarts('checkout'), 0.05),
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: SPLIT,
    earlier: ['is checkout crashlooping?'],
    message: 'when was the first OOMKill?',
    // 110 s after the rollout began 40 min before the end
    expect: { at: 38.2, tolerance: 2 },
  },

  // ledger-volume-full-chronic-mount: ledger's owner.
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: SPLIT,
    message: 'how big is the data-ledger volume and when did it fill up',
    // 50 GiB; available 0 from 36 min before the end
    expect: {
      all: [n(`max(kubelet_volume_stats_capacity_bytes{persistentvolumeclaim="data-ledger"})`, 0.05), { at: 36, tolerance: 2 }],
    },
  },
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: SPLIT,
    earlier: ['which node is ledger running on?'],
    message: 'how big is /var/log/archive on that node, and how much is free on / there?',
    // 20 GiB; 44.9 GiB
    expect: {
      all: [
        n(`max(node_filesystem_size_bytes{mountpoint="/var/log/archive"})`, 0.05),
        n(`max(node_filesystem_avail_bytes{mountpoint="/", node="ip-10-0-1-88.eu-west-1.compute.internal"})`, 0.05),
      ],
    },
  },
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: SPLIT,
    earlier: ['how much free space on data-ledger right now?'],
    message: 'and an hour ago then?',
    // 433 MB
    expect: n(`max(kubelet_volume_stats_available_bytes{persistentvolumeclaim="data-ledger"} offset 1h)`, 0.1),
  },

  // accounts-pool-exhausted-harmless-rollout: accounts' owner.
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: SPLIT,
    message: 'HikariPool-1 on accounts: % of the pool in use? and accountsdb connections vs its max_connections %, want to rule out the db',
    // 1.0; 0.137
    expect: {
      all: [
        n(`sum(hikaricp_connections_active{job="accounts", pool="HikariPool-1"}) / sum(hikaricp_connections_max{job="accounts", pool="HikariPool-1"})`, 0.1),
        n(`sum(pg_stat_activity_count) / max(pg_settings_max_connections)`, 0.2),
      ],
    },
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: SPLIT,
    message: 'p99 of POST /api/accounts/transfer right now',
    // 4.65 s
    expect: n(p99('accounts', '/api/accounts/transfer'), 0.2),
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: SPLIT,
    earlier: ['when did accounts 1.4.1 roll out?'],
    message: 'and when did the 500s start?',
    // 500s from 38 min before the end (1.4.1 from 47)
    expect: { at: 38, tolerance: 2 },
  },

  // cart-liveness-slow-redis: cart's owner.
  {
    scenario: 'cart-liveness-slow-redis',
    split: SPLIT,
    message: 'restarts on cart-567575f65-gv5zw? and total across all cart pods?',
    // 41; 123
    expect: { all: [n(restarts('cart', 'cart-567575f65-gv5zw'), 0.05), n(restarts('cart'), 0.05)] },
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: SPLIT,
    message: "median latency of cart's calls to sessions-redis rn",
    // 2.07 s
    expect: n(peerQuantile(0.5, 'cart', 'sessions-redis'), 0.2),
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: SPLIT,
    earlier: ['how many times has cart restarted?'],
    message: 'when was the first restart?',
    // every pod's first kill 36.7 min before the end
    expect: { at: 36.7, tolerance: 2 },
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: SPLIT,
    message: "is this the same redis slowness as last tuesday's incident?",
    expect: { cannot: true },
  },

  // inventory-liveness-unexplained: inventory's owner.
  {
    scenario: 'inventory-liveness-unexplained',
    split: SPLIT,
    message: 'restarts on inventory-c58d68b5c-lfg9w?',
    // 41
    expect: n(restarts('inventory', 'inventory-c58d68b5c-lfg9w'), 0.05),
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: SPLIT,
    earlier: ['which node does catalog-sync run on?'],
    message: 'how busy is that node, cpu %? and how many cores is catalog-sync using',
    // 0.503; 1.09 cores
    expect: { all: [n(nodeBusy('ip-10-0-3-41')), n(cores('catalog-sync'))] },
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: SPLIT,
    earlier: ['how many restarts on inventory so far?'],
    message: 'when did they start?',
    // the first kill 36.5 min before the end
    expect: { at: 36.5, tolerance: 2 },
  },

  // search-noisy-neighbour: search's owner.
  {
    scenario: 'search-noisy-neighbour',
    split: SPLIT,
    message: 'p99 per pod: search-878b86fb7-m9xrk vs search-878b86fb7-px6bm?',
    // 2.41 s; 0.348 s
    expect: {
      all: [n(p99('search', undefined, '', ', pod="search-878b86fb7-m9xrk"'), 0.2), n(p99('search', undefined, '', ', pod="search-878b86fb7-px6bm"'), 0.2)],
    },
  },
  {
    scenario: 'search-noisy-neighbour',
    split: SPLIT,
    earlier: ["what's eating all the cpu on ip-10-0-2-34?"],
    message: 'and on the node where my other search pod runs?',
    // log-shipper on ip-10-0-3-41
    expect: { contains: ['log-shipper'] },
  },
  {
    scenario: 'search-noisy-neighbour',
    split: SPLIT,
    earlier: ['which node is search-878b86fb7-m9xrk on?'],
    message: 'what about the other pod',
    expect: { contains: ['ip-10-0-3-41'] },
  },

  // billing-timeout-config-change: billing's owner.
  {
    scenario: 'billing-timeout-config-change',
    split: SPLIT,
    message: 'billing -> ledger calls timing out, how many per sec',
    // 28.2 req/s
    expect: n(peerCalls('billing', 'ledger', 'timeout')),
  },
  {
    scenario: 'billing-timeout-config-change',
    split: SPLIT,
    message: 'when did the ledger client timeout change land? cfg-8841',
    // reported 37 min before the end (504s from 36)
    expect: { at: 37, tolerance: 2 },
  },
  {
    scenario: 'billing-timeout-config-change',
    split: SPLIT,
    earlier: ['504 ratio on billing now?'],
    message: 'and p99 on POST /api/invoices?',
    // 0.375 s
    expect: n(p99('billing', '/api/invoices'), 0.2),
  },
  {
    scenario: 'billing-timeout-config-change',
    split: SPLIT,
    message: 'why did grace push cfg-8841? is there a ticket for it?',
    expect: { cannot: true },
  },

  // archive-down-reported-deploy-red-herring: statements' owner.
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: SPLIT,
    message: 'statements -> archive calls: how many failing per sec and with what',
    // 29.6 req/s, all connection_refused
    expect: { all: [n(peerCalls('statements', 'archive', 'connection_refused')), { contains: ['connection_refused'] }] },
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: SPLIT,
    message: 'at what time did archive stop answering?',
    // up{job="archive"} 0 from 36 min before the end
    expect: { at: 36, tolerance: 2 },
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: SPLIT,
    earlier: ['what version is statements on?'],
    message: 'and which nodes are the archive pods on?',
    expect: { contains: ['ip-10-0-1-88', 'ip-10-0-3-41'] },
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: SPLIT,
    message: 'is archiv down or is it just us?',
    expect: { asksFirst: 'archive' },
  },
];
