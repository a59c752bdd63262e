import type { QuestionCase } from '../conversation-cases';

/**
 * Held-out conversation questions (twelfth holdout, part B), written before the code they score; never copy or tune on them (eval/holdout/README.md).
 * Voices: a capacity planner, an observability engineer, a second-line support engineer paraphrasing customers' tickets, and a Kubernetes cluster administrator.
 */
export const TWELFTH_HOLDOUT_QUESTIONS_B: QuestionCase[] = [
  // inventory-down-harmless-rollout
  // voice: observability engineer
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'holdout-12',
    message: "checkout's outbound client calls, per peer and outcome - which dependency is erroring and with what?",
    expect: { contains: ['inventory', 'connection_refused'] },
  },
  // search-noisy-neighbour
  // voice: Kubernetes cluster admin
  {
    scenario: 'search-noisy-neighbour',
    split: 'holdout-12',
    earlier: ['which search pod is the slow one?'],
    message: "what else is scheduled on that pod's node, and how many cores is the biggest of those using",
    expect: {
      all: [{ contains: ['video-transcode'] }, { number: 'sum(rate(container_cpu_usage_seconds_total{container="video-transcode"}[5m]))', tolerance: 0.15 }],
    },
  },
  // billing-timeout-config-change
  // voice: observability engineer
  {
    scenario: 'billing-timeout-config-change',
    split: 'holdout-12',
    message: 'billing error responses by status code - which code dominates and from what time did it show up',
    expect: { all: [{ contains: ['504'] }, { at: 36, tolerance: 3 }] },
  },
  // sessions-redis-down-flapping-alert
  // voice: support engineer
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'holdout-12',
    message: "users report they can't stay logged in and their basket is empty every time they reload. which backend is cart choking on?",
    expect: { contains: ['sessions-redis'] },
  },
  // archive-down-reported-deploy-red-herring
  // voice: Kubernetes cluster admin
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'holdout-12',
    earlier: ['ci-bot deployed statements ~50 min ago right?'],
    message: 'did that actually roll the statements pods? what version are the running ones on',
    expect: { contains: ['3.2.0'] },
  },
  // orders-memory-leak-oom
  // voice: observability engineer
  {
    scenario: 'orders-memory-leak-oom',
    split: 'holdout-12',
    message: 'from what time does the orders memory graph start its climb? it looked flat at ~400MiB before',
    expect: { at: 75, tolerance: 3 },
  },
  // search-traffic-surge
  // voice: capacity planner
  {
    scenario: 'search-traffic-surge',
    split: 'holdout-12',
    message: 'how many times more req/s is search taking than an hour ago? need the multiplier for the scaling ticket',
    expect: {
      number: 'sum(rate(http_requests_total{job="search"}[5m])) / sum(rate(http_requests_total{job="search"}[5m] offset 1h))',
      tolerance: 0.2,
    },
  },
  // accounts-pool-exhausted-harmless-rollout
  // voice: support engineer
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'holdout-12',
    message: "customers: 'bank transfer spins for ages then says something went wrong'. what percentage of accounts requests are failing right now?",
    expect: {
      number: 'sum(rate(http_requests_total{job="accounts", code=~"5.."}[5m])) / sum(rate(http_requests_total{job="accounts"}[5m]))',
      tolerance: 0.15,
    },
  },
  // search-slow-version-chronic-alert
  // voice: observability engineer
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'holdout-12',
    message: 'search p99 over the last 5m, and which route label is dragging it up?',
    expect: {
      all: [
        {
          number: 'histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{job="search"}[5m])))',
          tolerance: 0.2,
        },
        { contains: ['/api/search'] },
      ],
    },
  },
  // orders-memory-leak-oom
  // voice: Kubernetes cluster admin
  {
    scenario: 'orders-memory-leak-oom',
    split: 'holdout-12',
    message: 'orders pods bouncing. total container restarts over the past hour, and what was the last terminated reason?',
    expect: {
      all: [{ number: 'sum(increase(kube_pod_container_status_restarts_total{container="orders"}[1h]))', tolerance: 0.2 }, { contains: ['OOMKilled'] }],
    },
  },
  // recommendations-cpu-throttled
  // voice: capacity planner
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'holdout-12',
    message: 'recs cpu limit per pod - what is it set to now and what was it an hour ago?',
    expect: {
      all: [
        { number: 'max(kube_pod_container_resource_limits{container="recommendations", resource="cpu"})', tolerance: 0.1 },
        { number: 'max(kube_pod_container_resource_limits{container="recommendations", resource="cpu"} offset 1h)', tolerance: 0.1 },
      ],
    },
  },
  // payments-bad-version-noisy-neighbour
  // voice: Kubernetes cluster admin
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'holdout-12',
    message: 'which payments pods are running 1.9.0 and what nodes are they scheduled to',
    expect: { podsOf: { workload: 'payments', version: '1.9.0' } },
  },
  // ordersdb-connections-exhausted
  // voice: support engineer
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'holdout-12',
    message: "bunch of tickets: 'order could not be placed, please try again later'. when did orders start throwing errors?",
    expect: { at: 40, tolerance: 3 },
  },
  // cart-liveness-slow-redis
  // voice: Kubernetes cluster admin
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'holdout-12',
    message: 'cart containers keep getting restarted by kubelet. total restarts over the last 30m across all cart pods?',
    expect: { number: 'sum(increase(kube_pod_container_status_restarts_total{container="cart"}[30m]))', tolerance: 0.2 },
  },
  // orders-worker-scaled-to-zero
  // voice: capacity planner
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'holdout-12',
    message: 'orders queue backlog - how many msgs are sitting ready in it right now?',
    expect: { number: 'max(rabbitmq_queue_messages_ready{queue="orders"})', tolerance: 0.15 },
  },
  // media-disk-full-flapping-alert
  // voice: Kubernetes cluster admin
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'holdout-12',
    earlier: ['frontend target down alert again, ignore that one for now'],
    message: 'the media pod - what node is it scheduled on and which mount on that box ran out of space?',
    expect: { contains: ['ip-10-0-2-34', '/var/lib/media'] },
  },
  // billing-timeout-config-change
  // voice: support engineer
  {
    scenario: 'billing-timeout-config-change',
    split: 'holdout-12',
    message:
      "accounts team escalated: 'invoice generation fails with a gateway timeout roughly one time in five'. how many invoice requests failed in the past 30 minutes?",
    expect: { number: 'sum(increase(http_requests_total{job="billing", code=~"5.."}[30m]))', tolerance: 0.2 },
  },
  // checkout-memory-limit-lowered
  // voice: Kubernetes cluster admin
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'holdout-12',
    message: 'new checkout pods all in CrashLoopBackOff. last terminated reason? and how many restarts has the worst one done',
    expect: {
      all: [{ contains: ['OOMKilled'] }, { number: 'max(kube_pod_container_status_restarts_total{container="checkout"})', tolerance: 0.2 }],
    },
  },
  // media-disk-full-flapping-alert
  // voice: support engineer
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'holdout-12',
    message:
      "seller ticket: 'my product photos won't upload, just get an error, and new images missing from listings'. since what time are media uploads failing?",
    expect: { at: 37, tolerance: 3 },
  },
  // search-noisy-neighbour
  // voice: observability engineer
  {
    scenario: 'search-noisy-neighbour',
    split: 'holdout-12',
    message: 'search p99 by pod label pls - is it both replicas or just one? which pod',
    expect: { contains: ['search-878b86fb7-m9xrk'] },
  },
  // ledger-volume-full-chronic-mount
  // voice: Kubernetes cluster admin
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'holdout-12',
    message: 'any PVC in shop at 0 bytes free? which claim, and which node is the kubelet reporting it from',
    expect: { contains: ['data-ledger', 'ip-10-0-1-88'] },
  },
  // checkout-bad-version
  // voice: observability engineer
  {
    scenario: 'checkout-bad-version',
    split: 'holdout-12',
    earlier: ['break down checkout 5xx per route for me'],
    message: 'ok. and at what time did that 500 rate start lifting off its baseline?',
    expect: { at: 38, tolerance: 3 },
  },
  // search-noisy-neighbour
  // voice: capacity planner
  {
    scenario: 'search-noisy-neighbour',
    split: 'holdout-12',
    message: 'search got more traffic than normal? compare req/s with an hour ago',
    expect: { direction: 'about the same' },
  },
  // partner-bank-certificate-expired
  // voice: observability engineer
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'holdout-12',
    earlier: ['payments client calls broken down by peer and code label?'],
    message: "and the blackbox cert expiry for that peer's health url - what time did it run out?",
    expect: { at: 35, tolerance: 3 },
  },
  // node-not-ready
  // voice: support engineer
  {
    scenario: 'node-not-ready',
    split: 'holdout-12',
    message:
      'shoppers writing in that the site throws a bad gateway page every so often, like 1 in 6 clicks. what fraction of frontend requests are failing now?',
    expect: {
      number: 'sum(rate(http_requests_total{job="frontend", code=~"5.."}[5m])) / sum(rate(http_requests_total{job="frontend"}[5m]))',
      tolerance: 0.2,
    },
  },
  // recommendations-cpu-throttled
  // voice: Kubernetes cluster admin
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'holdout-12',
    earlier: ['anything deployed on recommendations lately?'],
    message: 'so new pods ~40m ago - did the image tag actually change or only the spec? what version do they run',
    expect: { contains: ['0.9.4'] },
  },
  // sessions-redis-down-flapping-alert
  // voice: capacity planner
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'holdout-12',
    message: 'is cart seeing more traffic than usual? req/s now vs an hour ago',
    expect: { direction: 'about the same' },
  },
  // search-traffic-surge
  // voice: support engineer
  {
    scenario: 'search-traffic-surge',
    split: 'holdout-12',
    earlier: ['search latency alert - anything obvious?'],
    message: "CS says folks complain results 'spin forever' since around 40 min ago. what time exactly did the search traffic jump?",
    expect: { at: 38, tolerance: 3 },
  },
  // orders-worker-scaled-to-zero
  // voice: Kubernetes cluster admin
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'holdout-12',
    message: 'when did someone scale the orders-worker deployment down',
    expect: { at: 44, tolerance: 3 },
  },
  // recommendations-cpu-throttled
  // voice: observability engineer
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'holdout-12',
    message: 'ratio of throttled cfs periods for the recommendations containers, last 5 min',
    expect: {
      number:
        'sum(increase(container_cpu_cfs_throttled_periods_total{container="recommendations"}[5m])) / sum(increase(container_cpu_cfs_periods_total{container="recommendations"}[5m]))',
      tolerance: 0.15,
    },
  },
  // inventory-liveness-unexplained
  // voice: capacity planner
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'holdout-12',
    message: 'is the node under inventory-c58d68b5c-lfg9w short on cpu? its utilisation now + what else is scheduled there',
    expect: {
      all: [
        { contains: ['catalog-sync'] },
        { number: '1 - avg(rate(node_cpu_seconds_total{mode="idle", node="ip-10-0-3-41.eu-west-1.compute.internal"}[5m]))', tolerance: 0.15 },
      ],
    },
  },
  // checkout-slow-partner-bank
  // voice: support engineer
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'holdout-12',
    message: "customer says after hitting pay the spinner sits there 4-5 secs before the order confirms. whats checkout's p99 right now?",
    expect: {
      number: 'histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{job="checkout"}[5m])))',
      tolerance: 0.2,
    },
  },
  // ordersdb-connections-exhausted
  // voice: observability engineer
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'holdout-12',
    earlier: ['orders 500s - db side?'],
    message: 'split pg_stat_activity by state. which state blew up and how many conns are in it now',
    expect: {
      all: [
        { contains: ['idle in transaction'] },
        { number: 'sum(pg_stat_activity_count{server="ordersdb:5432", state="idle in transaction"})', tolerance: 0.15 },
      ],
    },
  },
  // checkout-bad-version
  // voice: Kubernetes cluster admin
  {
    scenario: 'checkout-bad-version',
    split: 'holdout-12',
    message: 'list the checkout pods on 2.15.0 + which node each one landed on',
    expect: { podsOf: { workload: 'checkout', version: '2.15.0' } },
  },
  // archive-down-reported-deploy-red-herring
  // voice: support engineer
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'holdout-12',
    message: "tickets piling up: 'can't download my monthly statement, page says service unavailable'. how much of statements traffic is failing atm?",
    expect: {
      number: 'sum(rate(http_requests_total{job="statements", code=~"5.."}[5m])) / sum(rate(http_requests_total{job="statements"}[5m]))',
      tolerance: 0.15,
    },
  },
  // orders-memory-leak-oom
  // voice: capacity planner
  {
    scenario: 'orders-memory-leak-oom',
    split: 'holdout-12',
    message: 'whats the working set of the fattest orders pod right now? trying to see how much room is left under the limit',
    expect: { number: 'max(container_memory_working_set_bytes{container="orders"})', tolerance: 0.2 },
  },
  // payments-bad-version-noisy-neighbour
  // voice: observability engineer
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'holdout-12',
    earlier: ['payments erroring - whats the overall 5xx ratio'],
    message: 'split that by pod label - one bad pod or is every pod failing at about the same ratio? give me the worst pod value',
    expect: {
      number: 'max(sum by (pod) (rate(http_requests_total{job="payments", code=~"5.."}[5m])) / sum by (pod) (rate(http_requests_total{job="payments"}[5m])))',
      tolerance: 0.15,
    },
  },
  // checkout-memory-limit-lowered
  // voice: capacity planner
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'holdout-12',
    message: 'what memory limit did the new checkout replicaset get? in MiB',
    expect: { number: 'max(kube_pod_container_resource_limits{container="checkout", resource="memory"})', tolerance: 0.05 },
  },
  // partner-bank-certificate-expired
  // voice: support engineer
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'holdout-12',
    message: "merchants say every card payment comes back 'payment failed' for the last half hour or so. what share of payments requests error out now",
    expect: {
      number: 'sum(rate(http_requests_total{job="payments", code=~"5.."}[5m])) / sum(rate(http_requests_total{job="payments"}[5m]))',
      tolerance: 0.1,
    },
  },
  // ledger-volume-full-chronic-mount
  // voice: capacity planner
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'holdout-12',
    earlier: ['ledger writes failing, disk?'],
    message: 'what time did free space on that ledger volume actually hit zero',
    expect: { at: 36, tolerance: 3 },
  },
  // inventory-down-harmless-rollout
  // voice: support engineer
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'holdout-12',
    message:
      "a few merchants emailing that checkout shows 'service unavailable' about half the time they try. roughly what % of checkout requests are erroring at the moment?",
    expect: {
      number: 'sum(rate(http_requests_total{job="checkout", code=~"5.."}[5m])) / sum(rate(http_requests_total{job="checkout"}[5m]))',
      tolerance: 0.15,
    },
  },
  // cart-config-crashloop
  // voice: Kubernetes cluster admin
  {
    scenario: 'cart-config-crashloop',
    split: 'holdout-12',
    message: 'the cart pod stuck in crashloopbackoff - how many restarts has it racked up so far',
    expect: { number: 'max(kube_pod_container_status_restarts_total{container="cart"})', tolerance: 0.2 },
  },
  // search-slow-version-chronic-alert
  // voice: support engineer
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'holdout-12',
    message: "customer writes 'searching the catalogue now takes ages, several seconds per query'. when did search start getting slow?",
    expect: { at: 40, tolerance: 3 },
  },
  // cart-liveness-slow-redis
  // voice: observability engineer
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'holdout-12',
    message: 'avg latency of the cart -> sessions-redis client calls now, and what it was an hour ago',
    expect: {
      all: [
        {
          number:
            'sum(rate(http_client_request_duration_seconds_sum{job="cart", peer="sessions-redis"}[5m])) / sum(rate(http_client_request_duration_seconds_count{job="cart", peer="sessions-redis"}[5m]))',
          tolerance: 0.2,
        },
        {
          number:
            'sum(rate(http_client_request_duration_seconds_sum{job="cart", peer="sessions-redis"}[5m] offset 1h)) / sum(rate(http_client_request_duration_seconds_count{job="cart", peer="sessions-redis"}[5m] offset 1h))',
          tolerance: 0.2,
        },
      ],
    },
  },
  // media-disk-full-flapping-alert
  // voice: support engineer
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'holdout-12',
    message: 'can u grab the filenames of the uploads that failed for that seller so I can send them back a list',
    expect: { cannot: true },
  },
  // node-not-ready
  // voice: Kubernetes cluster admin
  {
    scenario: 'node-not-ready',
    split: 'holdout-12',
    message: 'which node flipped to NotReady, at what time, and which cart pod was sitting on it?',
    expect: {
      all: [{ contains: ['ip-10-0-3-41', 'cart-d7b5fbc6d-tk7ck'] }, { at: 36, tolerance: 3 }],
    },
  },
  // accounts-pool-exhausted-harmless-rollout
  // voice: observability engineer
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'holdout-12',
    earlier: ['accounts timing out, pool?'],
    message: 'is accountsdb itself saturated tho? total pg connections now vs its max_connections setting',
    expect: {
      all: [
        { number: 'sum(pg_stat_activity_count{server="accountsdb:5432"})', tolerance: 0.2 },
        { number: 'max(pg_settings_max_connections{server="accountsdb:5432"})', tolerance: 0.05 },
      ],
    },
  },
  // checkout-memory-limit-lowered
  // voice: capacity planner
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'holdout-12',
    message: 'what memory *request* do the checkout pods ask for? want to know if the scheduler is packing them too tight on their nodes',
    expect: { cannot: true },
  },
  // ledger-volume-full-chronic-mount
  // voice: support engineer
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'holdout-12',
    message: "finance team says new ledger entries won't save, reading old ones works fine. which ledger route is failing and with which status code?",
    expect: { contains: ['/api/ledger/entries', '507'] },
  },
  // node-not-ready
  // voice: observability engineer
  {
    scenario: 'node-not-ready',
    split: 'holdout-12',
    earlier: ['frontend 502s up, see it?'],
    message: 'is loyalty-points throwing 5xx as well? whats its error ratio',
    expect: { asks: true },
  },
  // search-slow-version-chronic-alert
  // voice: capacity planner
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'holdout-12',
    message:
      'that throttling alert on recommendations has been going all morning. how much of its cpu limit is it actually using across its pods, as a percentage?',
    expect: {
      number:
        'sum(rate(container_cpu_usage_seconds_total{container="recommendations"}[5m])) / sum(kube_pod_container_resource_limits{container="recommendations", resource="cpu"})',
      tolerance: 0.15,
    },
  },
  // inventory-down-harmless-rollout
  // voice: Kubernetes cluster admin
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'holdout-12',
    message: 'two times pls: when did the checkout 2.14.4 rollout start, and when did inventory stop answering',
    expect: {
      all: [
        { at: 44, tolerance: 3 },
        { at: 36, tolerance: 3 },
      ],
    },
  },
  // cart-config-crashloop
  // voice: observability engineer
  {
    scenario: 'cart-config-crashloop',
    split: 'holdout-12',
    earlier: ['cart crashlooping, new replicaset only'],
    message: 'did any configmap resource_version bump right before that? which one, and at what time',
    expect: { all: [{ contains: ['cart-config'] }, { at: 38, tolerance: 3 }] },
  },
  // checkout-slow-partner-bank
  // voice: capacity planner
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'holdout-12',
    message: 'node cpu utilisation across the cluster - which box is close to 100% and whats eating it?',
    expect: { contains: ['ip-10-0-2-34', 'reports-batch'] },
  },
  // archive-down-reported-deploy-red-herring
  // voice: observability engineer
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'holdout-12',
    message: 'up{} for archive-proxy - when did its targets go to 0?',
    expect: { asks: true },
  },
  // payments-bad-version-noisy-neighbour
  // voice: capacity planner
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'holdout-12',
    message: 'ip-10-0-3-41 is pegged on cpu. what workload is hogging it, is it even one of the payments pods?',
    expect: { contains: ['ledger-reconcile'] },
  },
  // inventory-liveness-unexplained
  // voice: observability engineer
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'holdout-12',
    earlier: ['inventory liveness failing since ~35m ago'],
    message: 'pull up what the inventory process logged right before kubelet killed it - stack trace or whatever',
    expect: { cannot: true },
  },
  // orders-worker-scaled-to-zero
  // voice: support engineer
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'holdout-12',
    message: 'customer placed order A-88213 over an hour ago and has no confirmation. is that specific order sitting in the stuck queue?',
    expect: { cannot: true },
  },
  // sessions-redis-down-flapping-alert
  // voice: Kubernetes cluster admin
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'holdout-12',
    earlier: ['cart 500s, redis dead?'],
    message: 'and sessions-memcached, is that pod dead too or only the redis one',
    expect: { asks: true },
  },
  // checkout-bad-version
  // voice: support engineer
  {
    scenario: 'checkout-bad-version',
    split: 'holdout-12',
    message:
      "ticket from a shopper: 'tried paying 3 times, the place order button just says something went wrong, been like this maybe 40 min'. what share of checkout POSTs are actualy failing right now?",
    expect: {
      number:
        'sum(rate(http_requests_total{job="checkout", route="/api/checkout", code=~"5.."}[5m])) / sum(rate(http_requests_total{job="checkout", route="/api/checkout"}[5m]))',
      tolerance: 0.2,
    },
  },
];
