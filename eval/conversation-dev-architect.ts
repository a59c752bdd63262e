/**
 * Dev questions in four voices: a solutions architect thinking in dependencies (callers, callees,
 * calls between services, whether a failure propagates); an operator at a managed-service provider
 * running the cluster for the customer (nodes, pods, restarts, limits, what shares a node, what
 * changed); the owner of batch and background jobs (cron jobs, workers, queue consumers,
 * reconcilers) sharing nodes and databases with the shop; and an SLO owner (error ratios over
 * windows, availability, the share of slow requests, how long the SLO has been breached).
 *
 * Every oracle was checked against the staged scenario served by a real Prometheus, at the data's
 * end: each `number` returned one finite value (noted beside it), each `at` was read off the staged
 * data, and each name in a `contains` is written as the staged data writes it.
 */
import type { QuestionCase } from './conversation-cases';

/** The share of a job's requests answered 5xx over `w`. */
const errRatio = (job: string, w: string, extra = ''): string =>
  `sum(rate(http_requests_total{job="${job}",code=~"5..",${extra}}[${w}])) / sum(rate(http_requests_total{job="${job}",${extra}}[${w}]))`;
/** The share of a job's requests answered without a 5xx over `w`. */
const availability = (job: string, w: string): string => `1 - (${errRatio(job, w)})`;
/** The 99th percentile of a job's request latency over 5m. */
const p99 = (job: string, extra = ''): string =>
  `histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{job="${job}",${extra}}[5m])))`;
/** The share of a job's requests slower than `le` seconds over `w`. */
const slowerThan = (job: string, le: string, w: string, extra = ''): string =>
  `1 - sum(rate(http_request_duration_seconds_bucket{job="${job}",le="${le}",${extra}}[${w}])) / sum(rate(http_request_duration_seconds_count{job="${job}",${extra}}[${w}]))`;
/** The rate of a caller's calls to a callee (one outcome, or all). */
const callRate = (job: string, peer: string, code?: string): string =>
  `sum(rate(http_client_requests_total{job="${job}",peer="${peer}"${code ? `,code="${code}"` : ''}}[5m]))`;
/** The mean latency of a caller's calls to a callee over 5m. */
const callMean = (job: string, peer: string): string =>
  `sum(rate(http_client_request_duration_seconds_sum{job="${job}",peer="${peer}"}[5m])) / sum(rate(http_client_request_duration_seconds_count{job="${job}",peer="${peer}"}[5m]))`;
/** The cores a container uses, over its pods. */
const cores = (container: string): string => `sum(rate(container_cpu_usage_seconds_total{container="${container}"}[5m]))`;
/** A container's restarts over `w`. */
const restarts = (container: string, w: string): string => `sum(increase(kube_pod_container_status_restarts_total{container="${container}"}[${w}]))`;
/** The share of a container's CFS periods throttled over 5m. */
const throttled = (container: string): string =>
  `sum(increase(container_cpu_cfs_throttled_periods_total{container="${container}"}[5m])) / sum(increase(container_cpu_cfs_periods_total{container="${container}"}[5m]))`;

export const ARCHITECT_DEV_CASES: QuestionCase[] = [
  // ---- checkout-bad-version ----
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    message: "we're burning checkout's error budget fast. what share of checkout requests came back 5xx over the last 30 minutes?",
    expect: { number: errRatio('checkout', '30m'), tolerance: 0.15 }, // value seen: 0.0771
  },
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    message: 'which checkout pods are running 2.15.0 and on what nodes? need it for the customer report',
    expect: { podsOf: { workload: 'checkout', version: '2.15.0' } },
  },
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    message: 'how many calls/sec is checkout making to payments right now? want to know if the blast radius reaches payments',
    expect: { number: callRate('checkout', 'payments'), tolerance: 0.15 }, // value seen: 19.99
  },
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    message: 'what time did checkout 2.15.0 start rolling out?',
    earlier: ["what's checkout's error ratio in the last 5m?"],
    expect: { at: 38, tolerance: 3 }, // read off: first app_build_info of 2.15.0 at 38.0 min before end
  },

  // ---- search-slow-version-chronic-alert ----
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'dev',
    message: 'SLO for GET /api/search is 500ms. what fraction of /api/search requests in the last 5 min were slower than 500ms?',
    expect: { number: slowerThan('search', '0.5', '5m', 'route="/api/search"'), tolerance: 0.15 }, // value seen: 0.2751
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'dev',
    message: 'frontend depends on search for /api/search - p99 of that route on search right now?',
    expect: { number: p99('search', 'route="/api/search"'), tolerance: 0.2 }, // value seen: 2.033
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'dev',
    message:
      "CPUThrottlingHigh on recommendations again, it's been firing since this morning. how much of recommendations' cpu periods are being throttled at the moment?",
    expect: { number: throttled('recommendations'), tolerance: 0.2 }, // value seen: 0.5493
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'dev',
    message: 'is search p99 on /api/search worse than it was an hour ago, or about the same?',
    expect: { direction: 'up' },
  },

  // ---- inventory-down-harmless-rollout ----
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'dev',
    message: 'checkout -> inventory: how many of those calls per second are failing with connection refused?',
    expect: { number: callRate('checkout', 'inventory', 'connection_refused'), tolerance: 0.15 }, // value seen: 25.79
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'dev',
    message: "what's checkout's availability over the past hour? (non-5xx / total)",
    expect: { number: availability('checkout', '1h'), tolerance: 0.1 }, // value seen: 0.6134
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'dev',
    message:
      'checkout shipped 2.14.4 just before this. is the new checkout build failing on its own, or is a downstream dependency taking it down? which service?',
    expect: { contains: ['inventory'] },
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'dev',
    message: "blackbox has inventory's /healthz probe red. since when?",
    expect: { at: 36, tolerance: 2 }, // read off: probe_success 0 from 36.0 min before end
  },

  // ---- orders-memory-leak-oom ----
  {
    scenario: 'orders-memory-leak-oom',
    split: 'dev',
    message: 'how many times have the orders containers restarted in the last 60 min, both pods together?',
    expect: { number: restarts('orders', '1h'), tolerance: 0.15 }, // value seen: 12
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: 'dev',
    message: "I own orders-worker, it runs next to orders. is it getting hit? what's its total working set memory and cpu usage across its pods?",
    expect: {
      all: [
        { number: 'sum(container_memory_working_set_bytes{container="orders-worker"})', tolerance: 0.1 }, // value seen: 468092078
        { number: cores('orders-worker'), tolerance: 0.2 }, // value seen: 0.2292
      ],
    },
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: 'dev',
    message: 'when was the first orders container killed/restarted today?',
    expect: { at: 40, tolerance: 3 }, // read off: first restart of an orders container 40.0 min before end
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: 'dev',
    message: 'how much did the orders incident cost us in lost orders so far, in euros?',
    expect: { cannot: true },
  },

  // ---- media-disk-full-flapping-alert ----
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'dev',
    message: 'at what time did /var/lib/media run out of space?',
    expect: { at: 37, tolerance: 2 }, // read off: node_filesystem_avail_bytes 0 from 37.0 min before end
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'dev',
    message: "uploads SLO check: share of POST /api/uploads on media that 5xx'd over the last half hour?",
    expect: { number: errRatio('media', '30m', 'route="/api/uploads"'), tolerance: 0.1 }, // value seen: 0.9707
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'dev',
    message: 'which node is the media pod scheduled on? want to see what else lives there',
    expect: { contains: ['ip-10-0-2-34.eu-west-1.compute.internal'] },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'dev',
    message: 'which customers had their uploads rejected? need a list for the account managers',
    expect: { cannot: true },
  },

  // ---- search-traffic-surge ----
  {
    scenario: 'search-traffic-surge',
    split: 'dev',
    message: 'request rate into search on /api/search - higher, lower or same as an hour ago?',
    expect: { direction: 'up' },
  },
  {
    scenario: 'search-traffic-surge',
    split: 'dev',
    message: 'how many cores are the search containers burning right now in total?',
    expect: { number: cores('search'), tolerance: 0.15 }, // value seen: 3.975
  },
  {
    scenario: 'search-traffic-surge',
    split: 'dev',
    message: "our search latency SLO is 1s. over the last 30m what % of search's requests took longer than 1s?",
    expect: { number: slowerThan('search', '1', '30m'), tolerance: 0.15 }, // value seen: 0.4856
  },
  {
    scenario: 'search-traffic-surge',
    split: 'dev',
    message: 'whats the user agent / source IP of whoever is hammering search?',
    expect: { cannot: true },
  },

  // ---- cart-config-crashloop ----
  {
    scenario: 'cart-config-crashloop',
    split: 'dev',
    message: 'one cart pod is in CrashLoopBackOff. which node is it on?',
    expect: { contains: ['ip-10-0-1-23.eu-west-1.compute.internal'] },
  },
  {
    scenario: 'cart-config-crashloop',
    split: 'dev',
    message: 'how many cart container restarts in the last 30 min?',
    expect: { number: restarts('cart', '30m'), tolerance: 0.2 }, // value seen: 6
  },
  {
    scenario: 'cart-config-crashloop',
    split: 'dev',
    message: 'what changed in the cluster before this? when was the cart-config configmap edited?',
    expect: { at: 38, tolerance: 2 }, // read off: resource version of cart-config changes at 38.0 min before end
  },
  {
    scenario: 'cart-config-crashloop',
    split: 'dev',
    message: 'my cart-purge cronjob ran around then, did it break anything?',
    expect: { asks: true },
  },

  // ---- orders-worker-scaled-to-zero ----
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'dev',
    message: 'the orders queue is piling up. since when has it had zero consumers?',
    expect: { at: 44, tolerance: 2 }, // read off: rabbitmq_queue_consumers{queue="orders"} 0 from 43.5 min before end
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'dev',
    message: 'which deployment is supposed to be consuming the orders queue and what happened to it?',
    expect: { contains: ['orders-worker'] },
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'dev',
    message: 'who scaled my workers down, and why did they do it?',
    earlier: ['what is the current replica count of orders-worker?'],
    expect: { cannot: true },
  },

  // ---- checkout-slow-partner-bank ----
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    message: "payments calls out to partner-bank. what's the p99 of those outbound calls right now?",
    expect: {
      number: 'histogram_quantile(0.99, sum by (le)(rate(http_client_request_duration_seconds_bucket{job="payments",peer="partner-bank"}[5m])))',
      tolerance: 0.2,
    }, // value seen: 4.691
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    message: "and one hop up, the average latency of checkout's calls into payments?",
    earlier: ['is partner-bank slow for payments?'],
    expect: { number: callMean('checkout', 'payments'), tolerance: 0.15 }, // value seen: 1.368
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    message: 'my reports-batch job is pinning one of the checkout nodes since a few min before the alert. is that what is slowing checkout down?',
    expect: { contains: ['partner-bank'] },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    message: 'SLO is 1s for POST /api/checkout. share of those requests over 1s in the last 30 minutes?',
    expect: { number: slowerThan('checkout', '1', '30m', 'route="/api/checkout"'), tolerance: 0.15 }, // value seen: 0.6675
  },

  // ---- recommendations-cpu-throttled ----
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'dev',
    message: 'recommendations is slow. what share of its cfs periods got throttled over the last 5m?',
    expect: { number: throttled('recommendations'), tolerance: 0.15 }, // value seen: 0.739
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'dev',
    message: "what's the cpu limit on the recommendations containers now?",
    expect: { number: 'max(kube_pod_container_resource_limits{container="recommendations",resource="cpu"})', tolerance: 0.05 }, // value seen: 0.3
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'dev',
    message: 'recommendations p99 vs an hour ago, did it go up?',
    expect: { direction: 'up' },
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'dev',
    message: 'when did the recommendations pods get their new cpu limit?',
    expect: { at: 40, tolerance: 2 }, // read off: kube_pod_container_resource_limits cpu 0.3 from 40.0 min before end
  },

  // ---- node-not-ready ----
  {
    scenario: 'node-not-ready',
    split: 'dev',
    message: 'is any node NotReady? which one?',
    expect: { contains: ['ip-10-0-3-41.eu-west-1.compute.internal'] },
  },
  {
    scenario: 'node-not-ready',
    split: 'dev',
    message: 'which cart pod was on ip-10-0-3-41?',
    earlier: ['which of the nodes became NotReady?'],
    expect: { contains: ['cart-d7b5fbc6d-tk7ck'] },
  },
  {
    scenario: 'node-not-ready',
    split: 'dev',
    message: 'frontend -> cart calls: how many per sec are timing out?',
    expect: { number: callRate('frontend', 'cart', 'timeout'), tolerance: 0.15 }, // value seen: 13.77
  },
  {
    scenario: 'node-not-ready',
    split: 'dev',
    message: 'error ratio of frontend over the last 5 minutes, and since when has the node been not ready?',
    expect: {
      all: [
        { number: errRatio('frontend', '5m'), tolerance: 0.15 }, // value seen: 0.1508
        { at: 36, tolerance: 2 }, // read off: Ready=true 0 from 36.0 min before end
      ],
    },
  },

  // ---- partner-bank-certificate-expired ----
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'dev',
    message: 'payments → partner-bank, rate of calls failing with tls errors?',
    expect: { number: callRate('payments', 'partner-bank', 'tls_error'), tolerance: 0.15 }, // value seen: 19.53
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'dev',
    message: "at what exact time did partner-bank's certificate expire?",
    expect: { at: 35, tolerance: 2 }, // read off: probe_ssl_earliest_cert_expiry is 35.0 min before end
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'dev',
    message: 'payments availability for the last 30m please, I need it for the SLO review',
    expect: { number: availability('payments', '30m'), tolerance: 0.25 }, // value seen: 0.0292
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'dev',
    message: 'when is partner-bank going to put a new certificate in place?',
    expect: { cannot: true },
  },

  // ---- ordersdb-connections-exhausted ----
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'dev',
    message: 'what % of its max_connections is ordersdb using at the moment?',
    expect: { number: 'sum(pg_stat_activity_count{server="ordersdb:5432"}) / sum(pg_settings_max_connections{server="ordersdb:5432"})', tolerance: 0.1 }, // value seen: 0.995
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'dev',
    message: "orders' calls to ordersdb, how many per second fail with too many connections?",
    expect: { number: callRate('orders', 'ordersdb', 'too_many_connections'), tolerance: 0.15 }, // value seen: 11.21
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'dev',
    message: 'orders 2.3.1 went out just before. regression in orders, or is something underneath it the real problem? name it',
    expect: { contains: ['ordersdb'] },
  },

  // ---- sessions-redis-down-flapping-alert ----
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'dev',
    message: 'cart → sessions-redis: connection refused rate?',
    expect: { number: callRate('cart', 'sessions-redis', 'connection_refused'), tolerance: 0.15 }, // value seen: 94.16
  },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'dev',
    message: 'at what point did sessions-redis go down? the exporter looks up to me',
    expect: { at: 36, tolerance: 2 }, // read off: redis_up 0 from 36.0 min before end
  },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'dev',
    message: 'cart availabilty over the last 30 min?',
    expect: { number: availability('cart', '30m'), tolerance: 0.2 }, // value seen: 0.09999
  },

  // ---- payments-bad-version-noisy-neighbour ----
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    message: 'ledger-reconcile is mine. how many CPU cores does it consume at the moment?',
    expect: { number: cores('ledger-reconcile'), tolerance: 0.1 }, // value seen: 3.709
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    message:
      'my reconcile job started chewing cpu right before payments started failing. did my job cause the payments errors or is it something in payments itself?',
    expect: { contains: ['1.9.0'] },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    message: 'which node does ledger-reconcile run on?',
    expect: { contains: ['ip-10-0-3-41.eu-west-1.compute.internal'] },
  },

  // ---- checkout-memory-limit-lowered ----
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'dev',
    message: "what's the memory limit on the checkout containers currently?",
    expect: { number: 'max(kube_pod_container_resource_limits{container="checkout",resource="memory"})', tolerance: 0.05 }, // value seen: 335544320
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'dev',
    message: 'checkout restarts in the past 30 minutes, all pods?',
    expect: { number: restarts('checkout', '30m'), tolerance: 0.2 }, // value seen: 15
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'dev',
    message: 'when was the checkout deployment rolled with the new limits?',
    expect: { at: 40, tolerance: 2 }, // read off: memory limit below 400 MB from 40.0 min before end
  },

  // ---- ledger-volume-full-chronic-mount ----
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'dev',
    message: 'how big is the data-ledger PVC?',
    expect: { number: 'kubelet_volume_stats_capacity_bytes{persistentvolumeclaim="data-ledger"}', tolerance: 0.05 }, // value seen: 53687091200
  },
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'dev',
    message: 'how long have ledger writes been failing? give me the start time',
    expect: { at: 36, tolerance: 2 }, // read off: entries error ratio above 10% from 35.5 min before end, volume empty from 36.0
  },

  // ---- accounts-pool-exhausted-harmless-rollout ----
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'dev',
    message: 'accounts is timing out. is it accountsdb, or something in front of the db? which resource is exhausted?',
    expect: { contains: ['HikariPool-1'] },
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'dev',
    message: 'p99 latency for accounts right now?',
    expect: { number: p99('accounts'), tolerance: 0.2 }, // value seen: 3.574
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'dev',
    message: 'which accounts pods run 1.4.1, and on which nodes?',
    expect: { podsOf: { workload: 'accounts', version: '1.4.1' } },
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'dev',
    message: "we've breached the accounts SLO. what % of accounts requests errored over the last 30 minutes?",
    expect: { number: errRatio('accounts', '30m'), tolerance: 0.1 }, // value seen: 0.3000
  },

  // ---- cart-liveness-slow-redis ----
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'dev',
    message: 'cart pods keep restarting. how many restarts in the last 30 minutes?',
    expect: { number: restarts('cart', '30m'), tolerance: 0.15 }, // value seen: 99
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'dev',
    message: "how long do cart's calls to sessions-redis take on average now?",
    expect: { number: callMean('cart', 'sessions-redis'), tolerance: 0.2 }, // value seen: 2.327
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'dev',
    message: 'cart mean response time now, and is that up on an hour ago?',
    expect: {
      all: [
        {
          number: 'sum(rate(http_request_duration_seconds_sum{job="cart"}[5m])) / sum(rate(http_request_duration_seconds_count{job="cart"}[5m]))',
          tolerance: 0.2,
        }, // value seen: 0.5984
        { direction: 'up' },
      ],
    },
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'dev',
    message: 'when did the first cart restart happen?',
    expect: { at: 37, tolerance: 2 }, // read off: first restart of a cart container 36.5 min before end
  },

  // ---- inventory-liveness-unexplained ----
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'dev',
    message: "catalog-sync shares a node with inventory. what's its cpu usage in cores?",
    expect: { number: cores('catalog-sync'), tolerance: 0.15 }, // value seen: 1.091
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'dev',
    message: 'can you pull the thread dump from the hung inventory process so we see where it is stuck?',
    expect: { cannot: true },
  },

  // ---- search-noisy-neighbour ----
  {
    scenario: 'search-noisy-neighbour',
    split: 'dev',
    message: 'video-transcode is my batch. how many cores is it eating?',
    expect: { number: cores('video-transcode'), tolerance: 0.1 }, // value seen: 3.615
  },
  {
    scenario: 'search-noisy-neighbour',
    split: 'dev',
    message: 'which node is image-resizer on?',
    expect: { contains: ['ip-10-0-1-23.eu-west-1.compute.internal'] },
  },
  {
    scenario: 'search-noisy-neighbour',
    split: 'dev',
    message: 'which search pod is the slow one, and what is its p99?',
    expect: {
      all: [
        { contains: ['search-878b86fb7-m9xrk'] },
        {
          number: 'histogram_quantile(0.99, sum by (le)(rate(http_request_duration_seconds_bucket{job="search",pod="search-878b86fb7-m9xrk"}[5m])))',
          tolerance: 0.2,
        }, // value seen: 2.410
      ],
    },
  },

  // ---- billing-timeout-config-change ----
  {
    scenario: 'billing-timeout-config-change',
    split: 'dev',
    message: 'billing -> ledger: how many of those calls per second end in a timeout?',
    expect: { number: callRate('billing', 'ledger', 'timeout'), tolerance: 0.15 }, // value seen: 28.15
  },
  {
    scenario: 'billing-timeout-config-change',
    split: 'dev',
    message: 'billing error ratio over the last hour, and when did the errors start?',
    expect: {
      all: [
        { number: errRatio('billing', '1h'), tolerance: 0.15 }, // value seen: 0.1231
        { at: 35, tolerance: 2 }, // read off: error ratio above 5% from 35.0 min before end
      ],
    },
  },
  {
    scenario: 'billing-timeout-config-change',
    split: 'dev',
    message: "is ledger actually slow for billing? avg latency of billing's calls to ledger",
    expect: { number: callMean('billing', 'ledger'), tolerance: 0.2 }, // value seen: 0.0465
  },

  // ---- archive-down-reported-deploy-red-herring ----
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'dev',
    message: 'statements → archive calls, rate of connection refused?',
    expect: { number: callRate('statements', 'archive', 'connection_refused'), tolerance: 0.15 }, // value seen: 29.64
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'dev',
    message: 'there was a statements deploy 12 minutes before the errors. is that it, or is a dependency of statements down? which one?',
    expect: { contains: ['archive'] },
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'dev',
    message: 'and how is vault-sync doing, is it affected as well?',
    expect: { asks: true },
  },
];
