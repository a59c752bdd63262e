/**
 * Development questions in the voices of people who need exact figures for a report or an impact
 * estimate: a data analyst, a finance/billing person estimating lost orders, a customer-success lead
 * counting affected requests. They ask for counts over ranges, shares, averages against peaks, when
 * things started, comparisons with the time before, and splits by route, pod or status code, often
 * refining the figure they were just given. What the telemetry cannot tell (revenue, customers,
 * order ids) expects `cannot`; a name the data does not know expects a question back.
 *
 * Every `number` oracle was run against the staged scenario (D=/tmp/deve node /tmp/tools/stage.js)
 * at the data's end and gave one finite value, noted beside it; every `at` was read off the staged
 * data; every name in `contains` is as the staged data shows it.
 */
import type { QuestionCase } from './conversation-cases';

const SPLIT = 'dev' as const;

/** Requests of `sel` (http_requests_total's labels) over the last `range`. */
const reqs = (sel: string, range: string, offset = ''): string => `sum(increase(http_requests_total{${sel}}[${range}]${offset}))`;
/** The share of `sel`'s requests answered with a 5xx over the last `range`. */
const failedShare = (sel: string, range: string, offset = ''): string => `${reqs(`${sel}, code=~"5.."`, range, offset)} / ${reqs(sel, range, offset)}`;
/** A latency quantile of `sel` over the last `range`. */
const quantile = (q: number, sel: string, range = '5m', offset = '', metric = 'http_request_duration_seconds'): string =>
  `histogram_quantile(${q}, sum by (le) (rate(${metric}_bucket{${sel}}[${range}]${offset})))`;
/** The mean latency of `sel` over the last `range`. */
const mean = (sel: string, range = '5m', offset = '', metric = 'http_request_duration_seconds'): string =>
  `sum(rate(${metric}_sum{${sel}}[${range}]${offset})) / sum(rate(${metric}_count{${sel}}[${range}]${offset}))`;
/** Container restarts of a workload over the last `range`. */
const restarts = (container: string, range: string): string => `sum(increase(kube_pod_container_status_restarts_total{container="${container}"}[${range}]))`;

export const ANALYST_DEV_CASES: QuestionCase[] = [
  // checkout-bad-version: checkout 2.15.0 from 38 min before the end fails ~11% of POST /api/checkout.
  {
    scenario: 'checkout-bad-version',
    split: SPLIT,
    message: 'hi, pulling together impact numbers for the checkout incident. how many checkout requests failed between the 2.15.0 deploy and now?',
    expect: { number: reqs('job="checkout", code=~"5.."', '38m'), tolerance: 0.15 }, // value seen: 4563
  },
  {
    scenario: 'checkout-bad-version',
    split: SPLIT,
    earlier: ['hi, pulling together impact numbers for the checkout incident. how many checkout requests failed between the 2.15.0 deploy and now?'],
    message: 'ok and as a share of the POST /api/checkout calls over that same window? just the %',
    expect: { number: failedShare('job="checkout", route="/api/checkout"', '38m'), tolerance: 0.15 }, // value seen: 0.107
  },
  {
    scenario: 'checkout-bad-version',
    split: SPLIT,
    message: "For the report I need checkout's error rate right now and the same figure one hour ago, both as percentages please",
    expect: {
      all: [
        { number: failedShare('job="checkout"', '5m'), tolerance: 0.15 }, // value seen: 0.07631
        { number: failedShare('job="checkout"', '5m', ' offset 1h'), tolerance: 0.25 }, // value seen: 0.001268
      ],
    },
  },
  {
    scenario: 'checkout-bad-version',
    split: SPLIT,
    earlier: [
      'hi, pulling together impact numbers for the checkout incident. how many checkout requests failed between the 2.15.0 deploy and now?',
      'ok and as a share of the POST /api/checkout calls over that same window? just the %',
    ],
    message: 'finance is asking what that is in lost revenue. can you turn the failed checkouts into a € amount? avg basket value if you have it',
    expect: { cannot: true },
  },

  // search-slow-version-chronic-alert: search 3.3.0 from 40 min before makes /api/search 4.5x slower.
  {
    scenario: 'search-slow-version-chronic-alert',
    split: SPLIT,
    message: 'search p99 latency now vs an hour ago? need both numbers for the weekly perf report',
    expect: {
      all: [
        { number: quantile(0.99, 'job="search"'), tolerance: 0.2 }, // value seen: 1.947
        { number: quantile(0.99, 'job="search"', '5m', ' offset 1h'), tolerance: 0.2 }, // value seen: 0.3499
      ],
    },
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: SPLIT,
    message: 'Since search 3.3.0 went out, what percentage of /api/search requests took longer than 1 second?',
    expect: {
      number:
        '1 - sum(increase(http_request_duration_seconds_bucket{job="search", route="/api/search", le="1"}[40m])) / sum(increase(http_request_duration_seconds_count{job="search", route="/api/search"}[40m]))',
      tolerance: 0.2, // value seen: 0.03113
    },
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: SPLIT,
    earlier: ['Since search 3.3.0 went out, what percentage of /api/search requests took longer than 1 second?'],
    message: 'and the p99 of /api/suggest over the same period? trying to show whether autocomplete was hit too',
    expect: { number: quantile(0.99, 'job="search", route="/api/suggest"', '40m'), tolerance: 0.2 }, // value seen: 0.09107
  },

  // inventory-down-harmless-rollout: inventory down from 36 min before; checkout answers 503 to 62%.
  {
    scenario: 'inventory-down-harmless-rollout',
    split: SPLIT,
    message: 'how many checkout requests came back with a 503 since inventory went down? CS wants a count',
    expect: { number: reqs('job="checkout", code="503"', '36m'), tolerance: 0.15 }, // value seen: 36045
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: SPLIT,
    earlier: ['how many checkout requests came back with a 503 since inventory went down? CS wants a count'],
    message: 'and how many of checkouts calls to inventory got connection refused over the same stretch?',
    expect: { number: 'sum(increase(http_client_requests_total{job="checkout", peer="inventory", code="connection_refused"}[36m]))', tolerance: 0.15 }, // value seen: 58136
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: SPLIT,
    message: 'we need to email everyone whose checkout failed while inventory was down. can you give me the list of customer emails / account ids?',
    expect: { cannot: true },
  },

  // orders-memory-leak-oom: orders' memory climbs from 75 min before to its 1 GiB limit; OOMKilled again and again.
  {
    scenario: 'orders-memory-leak-oom',
    split: SPLIT,
    message: 'how many times did orders get OOM killed in the last hour? total across pods is fine',
    expect: { number: restarts('orders', '1h'), tolerance: 0.2 }, // value seen: 12
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: SPLIT,
    earlier: ['how many times did orders get OOM killed in the last hour? total across pods is fine'],
    message: 'can you split that by pod',
    expect: { contains: ['orders-6fb5cc5f8-rpc5b', 'orders-6fb5cc5f8-rff78'] }, // seen: kube_pod_info of the orders pods
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: SPLIT,
    message: "orders memory for the capacity sheet: what was a pod's average working set over the last hour vs the peak, in MiB?",
    expect: {
      all: [
        { number: 'avg(avg_over_time(container_memory_working_set_bytes{container="orders"}[1h]))', tolerance: 0.15 }, // value seen: 805817512
        { number: 'max(max_over_time(container_memory_working_set_bytes{container="orders"}[1h]))', tolerance: 0.1 }, // value seen: 1081113070
      ],
    },
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: SPLIT,
    message: 'For the timeline: at what time did orders memory start to climb?',
    expect: { at: 75, tolerance: 5 }, // seen: working set rises from ~440 MB at 75 min before
  },

  // media-disk-full-flapping-alert: /var/lib/media on ip-10-0-2-34 full from 37 min before; uploads fail with 507.
  {
    scenario: 'media-disk-full-flapping-alert',
    split: SPLIT,
    message: 'how many uploads failed since the media disk filled up?',
    expect: { number: reqs('job="media", route="/api/uploads", code=~"5.."', '37m'), tolerance: 0.15 }, // value seen: 5545
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: SPLIT,
    earlier: ['how many uploads failed since the media disk filled up?'],
    message: 'and what % of ALL media requests is that in the same window, downloads included?',
    expect: { number: failedShare('job="media"', '37m'), tolerance: 0.15 }, // value seen: 0.3878
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: SPLIT,
    message: 'when exactly did /var/lib/media run out of space, and how big is that filesystem? need both for the postmortem doc',
    expect: {
      all: [
        { at: 37, tolerance: 3 }, // seen: avail 0 from 37.0 min before
        { number: 'max(node_filesystem_size_bytes{mountpoint="/var/lib/media"})', tolerance: 0.05 }, // value seen: 214748364800
      ],
    },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: SPLIT,
    message:
      'there is also a frontend target down alert in the same alert group as the media one. how many times did that target drop in the last 3 hours? trying to decide if it belongs in the report',
    expect: { number: 'sum(resets(up{job="frontend"}[3h]))', tolerance: 0.2 }, // value seen: 6
  },

  // search-traffic-surge: /api/search traffic x6 from 39 min before.
  {
    scenario: 'search-traffic-surge',
    split: SPLIT,
    message: 'hey, for the capacity review: search requests/sec right now vs an hour ago?',
    expect: {
      all: [
        { number: 'sum(rate(http_requests_total{job="search"}[5m]))', tolerance: 0.15 }, // value seen: 217.8
        { number: 'sum(rate(http_requests_total{job="search"}[5m] offset 1h))', tolerance: 0.15 }, // value seen: 42.49
      ],
    },
  },
  {
    scenario: 'search-traffic-surge',
    split: SPLIT,
    earlier: ['hey, for the capacity review: search requests/sec right now vs an hour ago?'],
    message: 'how many /api/search requests in total since the spike started?',
    expect: { number: reqs('job="search", route="/api/search"', '39m'), tolerance: 0.15 }, // value seen: 488359
  },
  {
    scenario: 'search-traffic-surge',
    split: SPLIT,
    earlier: ['hey, for the capacity review: search requests/sec right now vs an hour ago?', 'how many /api/search requests in total since the spike started?'],
    message: 'and for the same length of window one hour earlier? want to show the delta',
    expect: { number: reqs('job="search", route="/api/search"', '39m', ' offset 1h'), tolerance: 0.15 }, // value seen: 78430
  },
  {
    scenario: 'search-traffic-surge',
    split: SPLIT,
    message: 'Of the extra /api/search traffic, how much is the crawler and how much is real shoppers? Need the split by user agent for the capacity review',
    expect: { cannot: true },
  },

  // cart-config-crashloop: the cart-config edit rolls cart 38 min before; the new pod crash loops.
  {
    scenario: 'cart-config-crashloop',
    split: SPLIT,
    message: 'how many times has the new cart pod restarted since the cart-config change?',
    expect: { number: 'sum(kube_pod_container_status_restarts_total{container="cart"})', tolerance: 0.2 }, // value seen: 12
  },
  {
    scenario: 'cart-config-crashloop',
    split: SPLIT,
    earlier: ['how many times has the new cart pod restarted since the cart-config change?'],
    message: "did cart's error rate go up since then compared with before the change? trying to work out if customers saw anything",
    expect: { direction: 'about the same' },
  },
  {
    scenario: 'cart-config-crashloop',
    split: SPLIT,
    message: 'how many shoppers lost their carts because of the cart crashloop? a customer count is what the CS lead wants',
    expect: { cannot: true },
  },

  // orders-worker-scaled-to-zero: orders-worker scaled to 0 at 44 min before; the orders queue has no consumer.
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: SPLIT,
    message: 'from what time has nothing been consuming the orders queue?',
    expect: { at: 44, tolerance: 3 }, // seen: consumers 0 from 43.5 min before
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: SPLIT,
    earlier: ['from what time has nothing been consuming the orders queue?'],
    message: 'which deployment was consuming it before? need the name for the report',
    expect: { contains: ['orders-worker'] }, // seen: the workload scaled to 0
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: SPLIT,
    message: 'CS needs the order numbers of everything stuck in the orders queue so they can warn people their orders are delayed. can you pull them?',
    expect: { cannot: true },
  },

  // checkout-slow-partner-bank: partner-bank answers payments 12x slower from 37 min before.
  {
    scenario: 'checkout-slow-partner-bank',
    split: SPLIT,
    message: 'checkout p99 now vs 1h ago pls, doing the impact slide for the slowness',
    expect: {
      all: [
        { number: quantile(0.99, 'job="checkout"'), tolerance: 0.2 }, // value seen: 4.803
        { number: quantile(0.99, 'job="checkout"', '5m', ' offset 1h'), tolerance: 0.2 }, // value seen: 0.7856
      ],
    },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: SPLIT,
    message: "what's the average latency of payments' calls to partner-bank over the last 30 min, and what was it in the 30 min before this started?",
    expect: {
      all: [
        { number: mean('job="payments", peer="partner-bank"', '30m', '', 'http_client_request_duration_seconds'), tolerance: 0.15 }, // value seen: 1.256
        { number: mean('job="payments", peer="partner-bank"', '30m', ' offset 40m', 'http_client_request_duration_seconds'), tolerance: 0.15 }, // value seen: 0.1047
      ],
    },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: SPLIT,
    earlier: ["what's the average latency of payments' calls to partner-bank over the last 30 min, and what was it in the 30 min before this started?"],
    message: 'ok. what % of those partner-bank calls took more than 1s since it started?',
    expect: {
      number:
        '1 - sum(increase(http_client_request_duration_seconds_bucket{job="payments", peer="partner-bank", le="1"}[35m])) / sum(increase(http_client_request_duration_seconds_count{job="payments", peer="partner-bank"}[35m]))',
      tolerance: 0.2, // value seen: 0.5556
    },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: SPLIT,
    earlier: ['checkout p99 now vs 1h ago pls, doing the impact slide for the slowness'],
    message: 'can you split the current checkout p99 by route? /api/checkout vs the status endpoint',
    expect: {
      all: [
        { number: quantile(0.99, 'job="checkout", route="/api/checkout"'), tolerance: 0.2 }, // value seen: 4.907
        { number: quantile(0.99, 'job="checkout", route="/api/checkout/status"'), tolerance: 0.2 }, // value seen: 0.1515
      ],
    },
  },

  // recommendations-cpu-throttled: the CPU limit drops to 0.3 cores 40 min before; throttling and latency.
  {
    scenario: 'recommendations-cpu-throttled',
    split: SPLIT,
    message: 'what % of recommendations CPU periods are throttled now, vs the same figure an hour ago?',
    expect: {
      all: [
        {
          number:
            'sum(rate(container_cpu_cfs_throttled_periods_total{container="recommendations"}[5m])) / sum(rate(container_cpu_cfs_periods_total{container="recommendations"}[5m]))',
          tolerance: 0.15, // value seen: 0.739
        },
        {
          number:
            'sum(rate(container_cpu_cfs_throttled_periods_total{container="recommendations"}[5m] offset 1h)) / sum(rate(container_cpu_cfs_periods_total{container="recommendations"}[5m] offset 1h))',
          tolerance: 0.25, // value seen: 0.004833
        },
      ],
    },
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: SPLIT,
    message: 'recommendations latency over the last 30 min: average and p99? the avg alone hides the tail so I want both',
    expect: {
      all: [
        { number: mean('job="recommendations"', '30m'), tolerance: 0.15 }, // value seen: 0.3507
        { number: quantile(0.99, 'job="recommendations"', '30m'), tolerance: 0.2 }, // value seen: 1.519
      ],
    },
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: SPLIT,
    message: 'what was the recommendations cpu limit per pod before vs after the change today?',
    expect: {
      all: [
        { number: 'max(kube_pod_container_resource_limits{container="recommendations", resource="cpu"} offset 1h)', tolerance: 0.05 }, // value seen: 1
        { number: 'max(kube_pod_container_resource_limits{container="recommendations", resource="cpu"})', tolerance: 0.05 }, // value seen: 0.3
      ],
    },
  },

  // node-not-ready: ip-10-0-3-41 NotReady from 36 min before; frontend answers 502 for the stranded cart pod.
  {
    scenario: 'node-not-ready',
    split: SPLIT,
    message: 'hi! how many frontend requests got a 502 since ip-10-0-3-41 went NotReady? need the actual count for the incident report, not a ballpark',
    expect: { number: reqs('job="frontend", code="502"', '36m'), tolerance: 0.15 }, // value seen: 24960
  },
  {
    scenario: 'node-not-ready',
    split: SPLIT,
    earlier: ['hi! how many frontend requests got a 502 since ip-10-0-3-41 went NotReady? need the actual count for the incident report, not a ballpark'],
    message: 'as a % of all frontend traffic in that time?',
    expect: { number: `${reqs('job="frontend", code="502"', '36m')} / ${reqs('job="frontend"', '36m')}`, tolerance: 0.15 }, // value seen: 0.15
  },
  {
    scenario: 'node-not-ready',
    split: SPLIT,
    message: 'Which cart pod was on the node that went NotReady? I need the pod name for the incident record',
    expect: { contains: ['cart-d7b5fbc6d-tk7ck'] }, // seen: the cart pod on ip-10-0-3-41
  },
  {
    scenario: 'node-not-ready',
    split: SPLIT,
    message: 'how many frontend->cart calls timed out since the node went NotReady?',
    expect: { number: 'sum(increase(http_client_requests_total{job="frontend", peer="cart", code="timeout"}[36m]))', tolerance: 0.15 }, // value seen: 27734
  },

  // partner-bank-certificate-expired: the certificate expires 35 min before; payments fails 97% with 502.
  {
    scenario: 'partner-bank-certificate-expired',
    split: SPLIT,
    message: 'CS lead here - how many payments requests failed since the partner-bank certificate expired?',
    expect: { number: reqs('job="payments", code=~"5.."', '35m'), tolerance: 0.15 }, // value seen: 38905
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: SPLIT,
    earlier: ['CS lead here - how many payments requests failed since the partner-bank certificate expired?'],
    message: 'what share of all payments requests in that window is that?',
    expect: { number: failedShare('job="payments"', '35m'), tolerance: 0.1 }, // value seen: 0.9708
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: SPLIT,
    message: 'what time exactly did the partner-bank cert expire? our contract with them has an SLA clause so the minute matters',
    expect: { at: 35, tolerance: 2 }, // seen: cert expiry 2100 s before the end
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: SPLIT,
    earlier: [
      'CS lead here - how many payments requests failed since the partner-bank certificate expired?',
      'what share of all payments requests in that window is that?',
    ],
    message: 'and the total value of those payments in EUR? billing needs it for the reconciliation',
    expect: { cannot: true },
  },

  // ordersdb-connections-exhausted: ordersdb reaches max_connections 40 min before; orders fails 35%.
  {
    scenario: 'ordersdb-connections-exhausted',
    split: SPLIT,
    message: 'failed orders API requests since ordersdb ran out of connections, split by route please (POST /api/orders vs GET /api/orders/{id})',
    expect: {
      all: [
        { number: reqs('job="orders", route="/api/orders", code=~"5.."', '40m'), tolerance: 0.15 }, // value seen: 10800
        { number: reqs('job="orders", route="/api/orders/{id}", code=~"5.."', '40m'), tolerance: 0.15 }, // value seen: 2686
      ],
    },
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: SPLIT,
    message: 'ordersdb connections as a % of max_connections: peak over the last hour and right now?',
    expect: {
      all: [
        {
          number: 'max_over_time(sum(pg_stat_activity_count{server="ordersdb:5432"})[1h:30s]) / max(pg_settings_max_connections{server="ordersdb:5432"})',
          tolerance: 0.1, // value seen: 1.05
        },
        { number: 'sum(pg_stat_activity_count{server="ordersdb:5432"}) / max(pg_settings_max_connections{server="ordersdb:5432"})', tolerance: 0.1 }, // value seen: 0.995
      ],
    },
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: SPLIT,
    earlier: ['failed orders API requests since ordersdb ran out of connections, split by route please (POST /api/orders vs GET /api/orders/{id})'],
    message: 'only the POSTs then: what % of order placements failed over that window?',
    expect: { number: failedShare('job="orders", route="/api/orders"', '40m'), tolerance: 0.15 }, // value seen: 0.35
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: SPLIT,
    earlier: ['failed orders API requests since ordersdb ran out of connections, split by route please (POST /api/orders vs GET /api/orders/{id})'],
    message: 'refund team is asking for the order ids of the failed placements, can you export those?',
    expect: { cannot: true },
  },

  // sessions-redis-down-flapping-alert: sessions-redis down from 36 min before; cart fails 90%.
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: SPLIT,
    message: 'how many cart requests failed since sessions-redis went down, and what % of cart traffic is that?',
    expect: {
      all: [
        { number: reqs('job="cart", code=~"5.."', '36m'), tolerance: 0.15 }, // value seen: 126062
        { number: failedShare('job="cart"', '36m'), tolerance: 0.1 }, // value seen: 0.9
      ],
    },
  },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: SPLIT,
    earlier: ['how many cart requests failed since sessions-redis went down, and what % of cart traffic is that?'],
    message: 'only the POSTs (add to cart)?',
    expect: { number: reqs('job="cart", route="/api/cart/items", code=~"5.."', '36m'), tolerance: 0.15 }, // value seen: 37711
  },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: SPLIT,
    message: 'in the last 10 minutes, how many calls from cart to sessions-redis were refused?',
    expect: { number: 'sum(increase(http_client_requests_total{job="cart", peer="sessions-redis", code="connection_refused"}[10m]))', tolerance: 0.15 }, // value seen: 57343
  },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: SPLIT,
    message: 'whats the error rate on basket-api since this started? need it for the CS update',
    expect: { asks: true },
  },

  // payments-bad-version-noisy-neighbour: payments 1.9.0 from 36 min before fails 20% on its pods.
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: SPLIT,
    message: 'finance wants to estimate lost payments: how many payments requests have failed since 1.9.0 shipped?',
    expect: { number: reqs('job="payments", code=~"5.."', '36m'), tolerance: 0.15 }, // value seen: 8242
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: SPLIT,
    earlier: ['finance wants to estimate lost payments: how many payments requests have failed since 1.9.0 shipped?'],
    message: 'which pods are running 1.9.0 right now? want to split the failures by pod next',
    expect: { podsOf: { workload: 'payments', version: '1.9.0' } },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: SPLIT,
    earlier: ['finance wants to estimate lost payments: how many payments requests have failed since 1.9.0 shipped?'],
    message: 'same count for the fraud-check service pls, over the same window',
    expect: { asks: true },
  },

  // checkout-memory-limit-lowered: checkout's memory limit drops from 768 to 320 MiB 40 min before; OOMKilled in a loop.
  {
    scenario: 'checkout-memory-limit-lowered',
    split: SPLIT,
    message: 'how many OOM kills in total on checkout since the memory limit change? for the RCA timeline',
    expect: { number: 'sum(kube_pod_container_status_restarts_total{container="checkout"})', tolerance: 0.2 }, // value seen: 27
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: SPLIT,
    message: 'checkout memory limit before vs after the rollout, in MiB?',
    expect: {
      all: [
        { number: 'max(kube_pod_container_resource_limits{container="checkout", resource="memory"} offset 1h)', tolerance: 0.02 }, // value seen: 805306368
        { number: 'max(kube_pod_container_resource_limits{container="checkout", resource="memory"})', tolerance: 0.02 }, // value seen: 335544320
      ],
    },
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: SPLIT,
    message: 'checkout requests per second now vs an hour ago? trying to size how much traffic we dropped',
    expect: {
      all: [
        { number: 'sum(rate(http_requests_total{job="checkout"}[5m]))', tolerance: 0.2 }, // value seen: 18.39
        { number: 'sum(rate(http_requests_total{job="checkout"}[5m] offset 1h))', tolerance: 0.15 }, // value seen: 24.87
      ],
    },
  },

  // ledger-volume-full-chronic-mount: data-ledger fills 36 min before; ledger writes fail with 507.
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: SPLIT,
    message: 'how many ledger writes failed since the volume filled up?',
    expect: { number: reqs('job="ledger", route="/api/ledger/entries", code=~"5.."', '36m'), tolerance: 0.15 }, // value seen: 13208
  },
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: SPLIT,
    earlier: ['how many ledger writes failed since the volume filled up?'],
    message: 'and as % of all ledger requests, reads included?',
    expect: { number: failedShare('job="ledger"', '36m'), tolerance: 0.15 }, // value seen: 0.5702
  },
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: SPLIT,
    message: 'For the postmortem: what is the capacity of the data-ledger volume and at what time did it hit full?',
    expect: {
      all: [
        { number: 'max(kubelet_volume_stats_capacity_bytes{persistentvolumeclaim="data-ledger"})', tolerance: 0.05 }, // value seen: 53687091200
        { at: 36, tolerance: 3 }, // seen: available 0 from 36.0 min before
      ],
    },
  },

  // accounts-pool-exhausted-harmless-rollout: HikariPool-1 runs dry 38 min before; accounts fails 30%.
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: SPLIT,
    message: 'number of failed accounts requests since the connection pool ran dry, per route?',
    expect: {
      all: [
        { number: reqs('job="accounts", route="/api/accounts/transfer", code=~"5.."', '38m'), tolerance: 0.15 }, // value seen: 6557
        { number: reqs('job="accounts", route="/api/accounts/{id}", code=~"5.."', '38m'), tolerance: 0.15 }, // value seen: 15247
      ],
    },
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: SPLIT,
    message: 'accounts p99 latency now vs one hour ago?',
    expect: {
      all: [
        { number: quantile(0.99, 'job="accounts"'), tolerance: 0.2 }, // value seen: 3.592
        { number: quantile(0.99, 'job="accounts"', '5m', ' offset 1h'), tolerance: 0.2 }, // value seen: 0.2028
      ],
    },
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: SPLIT,
    earlier: ['accounts p99 latency now vs one hour ago?'],
    message: 'and the average latency right now? p99 alone looks scary in a slide',
    expect: { number: mean('job="accounts"'), tolerance: 0.15 }, // value seen: 0.6222
  },

  // cart-liveness-slow-redis: sessions-redis slows 38 min before; cart's liveness probe kills it about every minute.
  {
    scenario: 'cart-liveness-slow-redis',
    split: SPLIT,
    message: 'how many times did the cart containers restart in the last hour? all pods together',
    expect: { number: restarts('cart', '1h'), tolerance: 0.15 }, // value seen: 123
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: SPLIT,
    earlier: ['how many times did the cart containers restart in the last hour? all pods together'],
    message: 'per pod please',
    expect: { contains: ['cart-567575f65-gv5zw', 'cart-567575f65-nzlsm', 'cart-567575f65-x4hxp'] }, // seen: 41 restarts each in the last hour
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: SPLIT,
    message: "average latency of cart's calls to sessions-redis right now, and what was it one hour earlier?",
    expect: {
      all: [
        { number: mean('job="cart", peer="sessions-redis"', '5m', '', 'http_client_request_duration_seconds'), tolerance: 0.2 }, // value seen: 2.327
        { number: mean('job="cart", peer="sessions-redis"', '5m', ' offset 1h', 'http_client_request_duration_seconds'), tolerance: 0.2 }, // value seen: 0.002327
      ],
    },
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: SPLIT,
    message: 'trying to estimate lost orders from the cart restarts: how many shoppers abandoned their cart because of them?',
    expect: { cannot: true },
  },

  // inventory-liveness-unexplained: inventory's liveness probes fail from 37 min before; restarts.
  {
    scenario: 'inventory-liveness-unexplained',
    split: SPLIT,
    message: 'how many liveness probe failures has inventory had in the last 40 min?',
    expect: { number: 'sum(increase(prober_probe_total{container="inventory", probe_type="Liveness", result="failed"}[40m]))', tolerance: 0.2 }, // value seen: 241.7
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: SPLIT,
    earlier: ['how many liveness probe failures has inventory had in the last 40 min?'],
    message: 'and how many restarts did that cause, total?',
    expect: { number: restarts('inventory', '40m'), tolerance: 0.2 }, // value seen: 81
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: SPLIT,
    earlier: ['how many liveness probe failures has inventory had in the last 40 min?'],
    message: 'same two numbers for warehouse-sync please',
    expect: { asks: true },
  },

  // search-noisy-neighbour: video-transcode takes ip-10-0-2-34's cores 37 min before; the search pod there slows.
  {
    scenario: 'search-noisy-neighbour',
    split: SPLIT,
    message: 'search p99 right now, broken down per pod?',
    expect: {
      all: [
        { number: quantile(0.99, 'job="search", pod="search-878b86fb7-m9xrk"'), tolerance: 0.2 }, // value seen: 2.41
        { number: quantile(0.99, 'job="search", pod="search-878b86fb7-px6bm"'), tolerance: 0.2 }, // value seen: 0.3478
      ],
    },
  },
  {
    scenario: 'search-noisy-neighbour',
    split: SPLIT,
    message: 'CPU utilisation of node ip-10-0-2-34 as a %, currently and one hour back?',
    expect: {
      all: [
        { number: '1 - avg(rate(node_cpu_seconds_total{node="ip-10-0-2-34.eu-west-1.compute.internal", mode="idle"}[5m]))', tolerance: 0.1 }, // value seen: 0.98
        { number: '1 - avg(rate(node_cpu_seconds_total{node="ip-10-0-2-34.eu-west-1.compute.internal", mode="idle"}[5m] offset 1h))', tolerance: 0.2 }, // value seen: 0.472
      ],
    },
  },
  {
    scenario: 'search-noisy-neighbour',
    split: SPLIT,
    earlier: ['search p99 right now, broken down per pod?'],
    message: 'on the slow pod, what % of requests took over 1 second in the last 30 min?',
    expect: {
      number:
        '1 - sum(increase(http_request_duration_seconds_bucket{job="search", pod="search-878b86fb7-m9xrk", le="1"}[30m])) / sum(increase(http_request_duration_seconds_count{job="search", pod="search-878b86fb7-m9xrk"}[30m]))',
      tolerance: 0.2, // value seen: 0.1238
    },
  },

  // billing-timeout-config-change: billing's ledger timeout drops to 150 ms; a fifth of its requests fail with 504 from 36 min before.
  {
    scenario: 'billing-timeout-config-change',
    split: SPLIT,
    message: 'how many /api/invoices requests failed since the billing config push?',
    expect: { number: reqs('job="billing", route="/api/invoices", code=~"5.."', '36m'), tolerance: 0.15 }, // value seen: 11669
  },
  {
    scenario: 'billing-timeout-config-change',
    split: SPLIT,
    earlier: ['how many /api/invoices requests failed since the billing config push?'],
    message: 'and how many billing -> ledger calls timed out in that time?',
    expect: { number: 'sum(increase(http_client_requests_total{job="billing", peer="ledger", code="timeout"}[36m]))', tolerance: 0.15 }, // value seen: 58110
  },
  {
    scenario: 'billing-timeout-config-change',
    split: SPLIT,
    message: "how long have billing's errors been above 5%? I need the start of the impact window for the SLA calc",
    expect: { at: 36, tolerance: 2 }, // seen: 5xx share above 5% from 35.5 min before
  },
  {
    scenario: 'billing-timeout-config-change',
    split: SPLIT,
    message: 'for the finance close: how many invoices did not get issued because of the billing errors, and what is their total amount?',
    expect: { cannot: true },
  },

  // archive-down-reported-deploy-red-herring: archive down 36 min before; statements fails 60% with 503.
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: SPLIT,
    message: 'statements: how many requests failed since archive went down, and what % of statements traffic is that?',
    expect: {
      all: [
        { number: reqs('job="statements", code=~"5.."', '36m'), tolerance: 0.15 }, // value seen: 34867
        { number: failedShare('job="statements"', '36m'), tolerance: 0.1 }, // value seen: 0.6008
      ],
    },
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: SPLIT,
    earlier: ['statements: how many requests failed since archive went down, and what % of statements traffic is that?'],
    message: 'and how many failed in the same 36 min window one hour earlier, as a baseline?',
    expect: { number: reqs('job="statements", code=~"5.."', '36m', ' offset 1h'), tolerance: 0.25 }, // value seen: 43
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: SPLIT,
    message: "how many of statements' calls to archive failed since archive went down, and how did they fail (timeout, refused, ...)?",
    expect: {
      all: [
        { number: 'sum(increase(http_client_requests_total{job="statements", peer="archive", code!="200"}[36m]))', tolerance: 0.15 }, // value seen: 58034
        { contains: ['connection_refused'] }, // seen: the only failing code
      ],
    },
  },
];
