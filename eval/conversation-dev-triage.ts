/**
 * Development conversation questions (the triage batch): a NOC operator following a runbook, a backend developer, a cost-conscious tech lead and an engineer new to Kubernetes; they may be tuned on.
 *
 * Each case is tagged with its voice: NOC (runbook operator), DEV (backend developer), COST (tech
 * lead), NEW (engineer new to Kubernetes). Every `number` and `at` was checked against the staged data.
 */
import type { QuestionCase } from './conversation-cases';

export const TRIAGE_DEV_CASES: QuestionCase[] = [
  // ---- checkout-bad-version ----
  {
    // DEV
    scenario: 'checkout-bad-version',
    split: 'dev',
    message: 'checkout 2.15.0 is my release from this morning, which pods did it land on and on what nodes',
    expect: { podsOf: { workload: 'checkout', version: '2.15.0' } },
  },
  {
    // NOC
    scenario: 'checkout-bad-version',
    split: 'dev',
    message: 'runbook step 2 says get the 5xx ratio of the paging service. checkout, over the last 15m?',
    expect: {
      number: 'sum(rate(http_requests_total{job="checkout",code=~"5.."}[15m])) / sum(rate(http_requests_total{job="checkout"}[15m]))',
      tolerance: 0.25,
    },
  },
  {
    // NEW
    scenario: 'checkout-bad-version',
    split: 'dev',
    earlier: ['why is checkout paging?'],
    message: 'ok so what is a rollout exactly, and when did this one start?',
    expect: { at: 38, tolerance: 3 },
  },
  {
    // COST
    scenario: 'checkout-bad-version',
    split: 'dev',
    message: 'do we also need to look at pricing-svc? its one of the pricier things we run',
    expect: { asks: true },
  },

  // ---- search-slow-version-chronic-alert ----
  {
    // NOC
    scenario: 'search-slow-version-chronic-alert',
    split: 'dev',
    message: 'SearchLatencyHigh on the board. step 1 of the runbook: current p99 for search?',
    expect: { number: 'histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{job="search"}[5m])))', tolerance: 0.3 },
  },
  {
    // DEV
    scenario: 'search-slow-version-chronic-alert',
    split: 'dev',
    message: 'which search pods are running 3.3.0? want to diff them against the old ones',
    expect: { podsOf: { workload: 'search', version: '3.3.0' } },
  },
  {
    // NEW
    scenario: 'search-slow-version-chronic-alert',
    split: 'dev',
    message: 'what is CPUThrottlingHigh, the other alert in here? how much is recommendations actually getting throttled',
    expect: {
      number:
        'sum(increase(container_cpu_cfs_throttled_periods_total{container="recommendations"}[5m])) / sum(increase(container_cpu_cfs_periods_total{container="recommendations"}[5m]))',
      tolerance: 0.25,
    },
  },
  {
    // COST
    scenario: 'search-slow-version-chronic-alert',
    split: 'dev',
    earlier: ['search p99 now?'],
    message: 'and how many cores are the search pods burning in total? would another replica even help',
    expect: { all: [{ number: 'sum(rate(container_cpu_usage_seconds_total{namespace="shop",container="search"}[5m]))', tolerance: 0.2 }] },
  },

  // ---- inventory-down-harmless-rollout ----
  {
    // DEV
    scenario: 'inventory-down-harmless-rollout',
    split: 'dev',
    message: 'I shipped checkout 2.14.4 about 45 min ago. is my deploy the reason checkout is erroring?',
    expect: { contains: ['inventory'] },
  },
  {
    // NOC
    scenario: 'inventory-down-harmless-rollout',
    split: 'dev',
    message: 'step 4, dependency check: are the inventory targets up? when did they go down',
    expect: { at: 36, tolerance: 3 },
  },
  {
    // NEW
    scenario: 'inventory-down-harmless-rollout',
    split: 'dev',
    earlier: ['whats wrong with checkout?'],
    message: "what does connection refused mean here, and how many of checkout's calls to inventory fail per second?",
    expect: {
      number: 'sum(rate(http_client_requests_total{job="checkout",peer="inventory",code="connection_refused"}[5m]))',
      tolerance: 0.2,
    },
  },
  {
    // COST
    scenario: 'inventory-down-harmless-rollout',
    split: 'dev',
    message: 'chekout error ratio right now?',
    expect: { asksFirst: 'checkout' },
  },

  // ---- orders-memory-leak-oom ----
  {
    // NEW
    scenario: 'orders-memory-leak-oom',
    split: 'dev',
    message: 'newbie q: what is OOMKilled? and how many times have the orders containers been killed so far',
    expect: { number: 'sum(kube_pod_container_status_restarts_total{namespace="shop",container="orders"})', tolerance: 0.15 },
  },
  {
    // COST
    scenario: 'orders-memory-leak-oom',
    split: 'dev',
    message: 'memory limit per orders pod? and how close is the working set to it right now',
    expect: {
      all: [
        { number: 'max(container_spec_memory_limit_bytes{namespace="shop",container="orders"})', tolerance: 0.05 },
        { number: 'max(container_memory_working_set_bytes{namespace="shop",container="orders"})', tolerance: 0.15 },
      ],
    },
  },
  {
    // NOC
    scenario: 'orders-memory-leak-oom',
    split: 'dev',
    earlier: ['orders restarts?'],
    message: 'runbook wants the time of the first restart',
    expect: { at: 41, tolerance: 3 },
  },
  {
    // DEV
    scenario: 'orders-memory-leak-oom',
    split: 'dev',
    message: 'is orders leaking since a deploy? what version is it even on',
    expect: { contains: ['2.3.0'] },
  },

  // ---- media-disk-full-flapping-alert ----
  {
    // NOC
    scenario: 'media-disk-full-flapping-alert',
    split: 'dev',
    message: 'FrontendTargetDown came in first but now MediaUploadsFailing too. runbook step 2: error ratio on media uploads?',
    expect: {
      number:
        'sum(rate(http_requests_total{job="media",route="/api/uploads",code=~"5.."}[5m])) / sum(rate(http_requests_total{job="media",route="/api/uploads"}[5m]))',
      tolerance: 0.1,
    },
  },
  {
    // DEV
    scenario: 'media-disk-full-flapping-alert',
    split: 'dev',
    message: 'what status code do the failed uploads get back?',
    expect: { contains: ['507'] },
  },
  {
    // NEW
    scenario: 'media-disk-full-flapping-alert',
    split: 'dev',
    earlier: ['why do media uploads fail?'],
    message: "what's a node in this context, which one is media on, and how full is that mount?",
    expect: {
      all: [
        { contains: ['ip-10-0-2-34'] },
        {
          number: '1 - max(node_filesystem_avail_bytes{mountpoint="/var/lib/media"}) / max(node_filesystem_size_bytes{mountpoint="/var/lib/media"})',
          tolerance: 0.05,
        },
      ],
    },
  },

  // ---- search-traffic-surge ----
  {
    // COST
    scenario: 'search-traffic-surge',
    split: 'dev',
    message: 'how many req/s is /api/search taking right now?',
    expect: { number: 'sum(rate(http_requests_total{job="search",route="/api/search"}[5m]))', tolerance: 0.2 },
  },
  {
    // COST
    scenario: 'search-traffic-surge',
    split: 'dev',
    earlier: ['search traffic now?'],
    message: 'so cores used vs the 2 core limit, are we maxed out? would adding pods help',
    expect: { all: [{ number: 'sum(rate(container_cpu_usage_seconds_total{namespace="shop",container="search"}[5m]))', tolerance: 0.2 }] },
  },
  {
    // DEV
    scenario: 'search-traffic-surge',
    split: 'dev',
    message: 'when did search traffic jump?',
    expect: { at: 38, tolerance: 3 },
  },
  {
    // DEV
    scenario: 'search-traffic-surge',
    split: 'dev',
    message: "frontend 5.2.1 is mine and went out just before. is search's request rate higher than before it?",
    expect: { direction: 'up' },
  },

  // ---- cart-config-crashloop ----
  {
    // NEW
    scenario: 'cart-config-crashloop',
    split: 'dev',
    message: 'what is CrashLoopBackOff? how many restarts does the crashing cart pod have',
    expect: { number: 'max(kube_pod_container_status_restarts_total{namespace="shop",container="cart"})', tolerance: 0.15 },
  },
  {
    // NOC
    scenario: 'cart-config-crashloop',
    split: 'dev',
    earlier: ['KubePodCrashLooping fired, which service?'],
    message: 'step 1: identify the crashlooping pod and the node its on',
    expect: { contains: ['ip-10-0-1-23'] },
  },
  {
    // DEV
    scenario: 'cart-config-crashloop',
    split: 'dev',
    earlier: ['why is cart crashlooping?'],
    message: 'did someone touch a configmap? which one and when',
    expect: { all: [{ contains: ['cart-config'] }, { at: 38, tolerance: 3 }] },
  },
  {
    // COST
    scenario: 'cart-config-crashloop',
    split: 'dev',
    message: 'are the 3 old cart replicas still carrying the load? total req/s on cart',
    expect: { number: 'sum(rate(http_requests_total{job="cart"}[5m]))', tolerance: 0.2 },
  },

  // ---- orders-worker-scaled-to-zero ----
  {
    // DEV
    scenario: 'orders-worker-scaled-to-zero',
    split: 'dev',
    message: 'QueueMessagesStale on the orders queue. how old is the oldest message, in seconds?',
    expect: { number: 'max(time() - rabbitmq_queue_head_message_timestamp{queue="orders"})', tolerance: 0.1 },
  },
  {
    // COST
    scenario: 'orders-worker-scaled-to-zero',
    split: 'dev',
    earlier: ['why are the orders messages stale'],
    message: 'when was it scaled down?',
    expect: { at: 44, tolerance: 3 },
  },
  {
    // NEW
    scenario: 'orders-worker-scaled-to-zero',
    split: 'dev',
    message: 'is the kafka cluster healthy? someone said orders go through kafka',
    expect: { asks: true },
  },

  // ---- checkout-slow-partner-bank ----
  {
    // DEV
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    message: 'p99 on POST /api/checkout now?',
    expect: {
      number: 'histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{job="checkout",route="/api/checkout"}[5m])))',
      tolerance: 0.3,
    },
  },
  {
    // NOC
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    message: 'runbook step 3 saturation: reports-batch sits on a checkout node, how many cores does it use?',
    expect: { number: 'sum(rate(container_cpu_usage_seconds_total{container="reports-batch"}[5m]))', tolerance: 0.15 },
  },
  {
    // COST
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    message: 'is it worth scaling checkout out? how many cores do the checkout pods use in total',
    expect: { all: [{ number: 'sum(rate(container_cpu_usage_seconds_total{namespace="shop",container="checkout"}[5m]))', tolerance: 0.2 }] },
  },
  {
    // NEW
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    earlier: ['what slows checkout down?'],
    message: 'whats a downstream dependency? when did partner-bank start slowing down',
    expect: { at: 37, tolerance: 3 },
  },

  // ---- recommendations-cpu-throttled ----
  {
    // NOC
    scenario: 'recommendations-cpu-throttled',
    split: 'dev',
    message: 'step 3 says check saturation: cpu vs limit for the recommendations pods?',
    expect: { all: [{ number: 'max(rate(container_cpu_usage_seconds_total{namespace="shop",container="recommendations"}[5m]))', tolerance: 0.2 }] },
  },
  {
    // NEW
    scenario: 'recommendations-cpu-throttled',
    split: 'dev',
    message: "what is cpu throttling? what fraction of recommendations' cpu periods get throttled",
    expect: {
      number:
        'sum(increase(container_cpu_cfs_throttled_periods_total{container="recommendations"}[5m])) / sum(increase(container_cpu_cfs_periods_total{container="recommendations"}[5m]))',
      tolerance: 0.25,
    },
  },
  {
    // COST
    scenario: 'recommendations-cpu-throttled',
    split: 'dev',
    message: 'whats the cpu request on recommendations? want to know what we reserve for it',
    expect: { cannot: true },
  },
  {
    // DEV
    scenario: 'recommendations-cpu-throttled',
    split: 'dev',
    earlier: ['recommendations cpu limit now?'],
    message: "is recommendations' p99 higher than before that change?",
    expect: { direction: 'up' },
  },

  // ---- node-not-ready ----
  {
    // NEW
    scenario: 'node-not-ready',
    split: 'dev',
    message: 'what does NotReady mean for a node? which one is it',
    expect: { contains: ['ip-10-0-3-41'] },
  },
  {
    // NOC
    scenario: 'node-not-ready',
    split: 'dev',
    earlier: ['the NotReady node, which is it?'],
    message: 'runbook: note the time it went NotReady',
    expect: { at: 36, tolerance: 3 },
  },
  {
    // DEV
    scenario: 'node-not-ready',
    split: 'dev',
    message: 'frontend is my service. what codes am i returning and whats the error ratio',
    expect: {
      all: [
        { contains: ['502'] },
        { number: 'sum(rate(http_requests_total{job="frontend",code=~"5.."}[5m])) / sum(rate(http_requests_total{job="frontend"}[5m]))', tolerance: 0.25 },
      ],
    },
  },

  // ---- partner-bank-certificate-expired ----
  {
    // NOC
    scenario: 'partner-bank-certificate-expired',
    split: 'dev',
    message: 'step 5 external probes: when did the partner-bank probe start failing?',
    expect: { at: 35, tolerance: 3 },
  },
  {
    // NEW
    scenario: 'partner-bank-certificate-expired',
    split: 'dev',
    earlier: ['what makes payments fail?'],
    message: 'whats a TLS handshake failure, and how many payments calls to partner-bank fail per second?',
    expect: { number: 'sum(rate(http_client_requests_total{job="payments",peer="partner-bank",code="tls_error"}[5m]))', tolerance: 0.2 },
  },
  {
    // COST
    scenario: 'partner-bank-certificate-expired',
    split: 'dev',
    message: 'how much money have we lost in failed payments so far, in euros?',
    expect: { cannot: true },
  },

  // ---- ordersdb-connections-exhausted ----
  {
    // NOC
    scenario: 'ordersdb-connections-exhausted',
    split: 'dev',
    message: 'step 3 saturation for the db: ordersdb connections as a % of max_connections?',
    expect: { number: 'sum(pg_stat_activity_count{server="ordersdb:5432"}) / max(pg_settings_max_connections{server="ordersdb:5432"})', tolerance: 0.1 },
  },
  {
    // DEV
    scenario: 'ordersdb-connections-exhausted',
    split: 'dev',
    message: 'orders 2.3.1 was my deploy, what pods run it',
    expect: { podsOf: { workload: 'orders', version: '2.3.1' } },
  },
  {
    // COST
    scenario: 'ordersdb-connections-exhausted',
    split: 'dev',
    earlier: ['ordersdb connections vs max?'],
    message: 'and the orders error ratio? p99 too',
    expect: {
      all: [
        { number: 'sum(rate(http_requests_total{job="orders",code=~"5.."}[5m])) / sum(rate(http_requests_total{job="orders"}[5m]))', tolerance: 0.2 },
        { number: 'histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{job="orders"}[5m])))', tolerance: 0.3 },
      ],
    },
  },
  {
    // NEW
    scenario: 'ordersdb-connections-exhausted',
    split: 'dev',
    earlier: ['what makes orders fail'],
    message: "what does 'idle in transaction' mean? when did those connections pile up",
    expect: { at: 41, tolerance: 3 },
  },

  // ---- sessions-redis-down-flapping-alert ----
  {
    // DEV
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'dev',
    message: 'cart error ratio right now?',
    expect: { number: 'sum(rate(http_requests_total{job="cart",code=~"5.."}[5m])) / sum(rate(http_requests_total{job="cart"}[5m]))', tolerance: 0.15 },
  },
  {
    // NOC
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'dev',
    earlier: ['frontend target down, whats that about?'],
    message: 'runbook says check deps next: is sesions-redis up?',
    expect: { asksFirst: 'sessions-redis' },
  },
  {
    // NEW
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'dev',
    message: 'redis_up vs up, is the exporter down or redis itself? and since when',
    expect: { at: 36, tolerance: 3 },
  },

  // ---- payments-bad-version-noisy-neighbour ----
  {
    // COST
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    message: 'paymnets error rate?',
    expect: { asksFirst: 'payments' },
  },
  {
    // DEV
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    message: 'payments 1.9.0 is mine. pods and nodes please',
    expect: { podsOf: { workload: 'payments', version: '1.9.0' } },
  },
  {
    // NOC
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    earlier: ['payments error ratio?'],
    message: 'ledger-reconcile is pinning a node. step 3: how many cores does it use?',
    expect: { number: 'sum(rate(container_cpu_usage_seconds_total{container="ledger-reconcile"}[5m]))', tolerance: 0.15 },
  },
  {
    // NEW
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    earlier: ["what's using all the cpu on that node?"],
    message: 'which node is that, and do any payments pods still run there?',
    expect: { contains: ['ip-10-0-3-41'] },
  },

  // ---- checkout-memory-limit-lowered ----
  {
    // NEW
    scenario: 'checkout-memory-limit-lowered',
    split: 'dev',
    message: 'OOMKilled means it ran out of memory right? whats the memory limit on the new checkout pods',
    expect: { number: 'max(container_spec_memory_limit_bytes{namespace="shop",container="checkout"})', tolerance: 0.05 },
  },
  {
    // COST
    scenario: 'checkout-memory-limit-lowered',
    split: 'dev',
    earlier: ['memory limit on the new checkout pods?'],
    message: 'what was it before the rollout?',
    expect: { number: 'max(max_over_time(container_spec_memory_limit_bytes{namespace="shop",container="checkout"}[1h]))', tolerance: 0.05 },
  },
  {
    // NOC
    scenario: 'checkout-memory-limit-lowered',
    split: 'dev',
    message: 'total restarts across the checkout pods since the rollout?',
    expect: { number: 'sum(kube_pod_container_status_restarts_total{namespace="shop",container="checkout"})', tolerance: 0.15 },
  },

  // ---- ledger-volume-full-chronic-mount ----
  {
    // DEV
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'dev',
    message: 'my ledger writes are failing, which PVC is full?',
    expect: { contains: ['data-ledger'] },
  },
  {
    // DEV
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'dev',
    earlier: ['which PVC is full?'],
    message: 'error ratio on POST /api/ledger/entries, and since when?',
    expect: {
      all: [
        {
          number:
            'sum(rate(http_requests_total{job="ledger",route="/api/ledger/entries",code=~"5.."}[5m])) / sum(rate(http_requests_total{job="ledger",route="/api/ledger/entries"}[5m]))',
          tolerance: 0.1,
        },
        { at: 36, tolerance: 3 },
      ],
    },
  },
  {
    // COST
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'dev',
    message: 'how big is the ledger volume anyway, and how much of it is free',
    expect: { all: [{ number: 'max(kubelet_volume_stats_capacity_bytes{persistentvolumeclaim="data-ledger"})', tolerance: 0.05 }] },
  },

  // ---- accounts-pool-exhausted-harmless-rollout ----
  {
    // DEV
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'dev',
    message: 'accounts 1.4.1 is my change from ~45 min ago. which pods have it?',
    expect: { podsOf: { workload: 'accounts', version: '1.4.1' } },
  },
  {
    // NOC
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'dev',
    message: 'hikari pool on accounts: active vs max, as a %?',
    expect: { number: 'sum(hikaricp_connections_active{job="accounts"}) / sum(hikaricp_connections_max{job="accounts"})', tolerance: 0.1 },
  },
  {
    // COST
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'dev',
    earlier: ['accounts error rate?'],
    message: 'accounts p99 now? would more replicas help at all',
    expect: {
      all: [{ number: 'histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{job="accounts"}[5m])))', tolerance: 0.3 }],
    },
  },
  {
    // NEW
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'dev',
    earlier: ['what makes accounts fail?'],
    message: 'whats a connection pool? when did it run dry',
    expect: { at: 38, tolerance: 3 },
  },

  // ---- cart-liveness-slow-redis ----
  {
    // NEW
    scenario: 'cart-liveness-slow-redis',
    split: 'dev',
    message: "what's a liveness probe, and how many times were cart containers restarted in the last 30 min?",
    expect: {
      number:
        'sum(kube_pod_container_status_restarts_total{namespace="shop",container="cart"}) - sum(kube_pod_container_status_restarts_total{namespace="shop",container="cart"} offset 30m)',
      tolerance: 0.15,
    },
  },
  {
    // NOC
    scenario: 'cart-liveness-slow-redis',
    split: 'dev',
    earlier: ['what restarts cart?'],
    message: "runbook: get the dependency latency. median time of cart's calls to sessions-redis?",
    expect: {
      number: 'histogram_quantile(0.5, sum by (le) (rate(http_client_request_duration_seconds_bucket{job="cart",peer="sessions-redis"}[5m])))',
      tolerance: 0.3,
    },
  },
  {
    // COST
    scenario: 'cart-liveness-slow-redis',
    split: 'dev',
    message: 'CPUThrottlingHigh on recommendations again. is that what keeps restarting cart?',
    expect: { contains: ['sessions-redis'] },
  },

  // ---- inventory-liveness-unexplained ----
  {
    // NOC
    scenario: 'inventory-liveness-unexplained',
    split: 'dev',
    message: 'inventroy restarts in the last 30m?',
    expect: { asksFirst: 'inventory' },
  },
  {
    // NEW
    scenario: 'inventory-liveness-unexplained',
    split: 'dev',
    earlier: ['what restarts inventory?'],
    message: 'what does failing liveness mean, and since when?',
    expect: { at: 36, tolerance: 3 },
  },
  {
    // COST
    scenario: 'inventory-liveness-unexplained',
    split: 'dev',
    message: 'catalog-sync is bursting on an inventory node. is that node out of cpu? how busy is it',
    expect: {
      all: [{ number: '1 - avg(rate(node_cpu_seconds_total{mode="idle",node="ip-10-0-3-41.eu-west-1.compute.internal"}[5m]))', tolerance: 0.25 }],
    },
  },

  // ---- search-noisy-neighbour ----
  {
    // NOC
    scenario: 'search-noisy-neighbour',
    split: 'dev',
    message: "step 3 saturation: the slow search pod: on which node, and how busy is that node's cpu?",
    expect: {
      all: [
        { contains: ['ip-10-0-2-34'] },
        { number: '1 - avg(rate(node_cpu_seconds_total{mode="idle",node="ip-10-0-2-34.eu-west-1.compute.internal"}[5m]))', tolerance: 0.1 },
      ],
    },
  },
  {
    // COST
    scenario: 'search-noisy-neighbour',
    split: 'dev',
    message: 'how many cores is video-transcode eating?',
    expect: { number: 'sum(rate(container_cpu_usage_seconds_total{container="video-transcode"}[5m]))', tolerance: 0.15 },
  },
  {
    // NEW
    scenario: 'search-noisy-neighbour',
    split: 'dev',
    earlier: ['the slow search pod: on which node?'],
    message: 'what else is running on that node?',
    expect: { contains: ['video-transcode'] },
  },

  // ---- billing-timeout-config-change ----
  {
    // DEV
    scenario: 'billing-timeout-config-change',
    split: 'dev',
    message: 'billing is mine. what rate of 504s is POST /api/invoices returning?',
    expect: { number: 'sum(rate(http_requests_total{job="billing",route="/api/invoices",code="504"}[5m]))', tolerance: 0.2 },
  },
  {
    // NOC
    scenario: 'billing-timeout-config-change',
    split: 'dev',
    earlier: ['what makes billing fail?'],
    message: 'runbook: was any change reported? when?',
    expect: { at: 37, tolerance: 3 },
  },
  {
    // NEW
    scenario: 'billing-timeout-config-change',
    split: 'dev',
    message: "what does a timeout between billing and ledger look like in the metrics? how many of billing's calls to ledger time out per sec",
    expect: { number: 'sum(rate(http_client_requests_total{job="billing",peer="ledger",code="timeout"}[5m]))', tolerance: 0.2 },
  },

  // ---- archive-down-reported-deploy-red-herring ----
  {
    // NOC
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'dev',
    message: 'runbook says roll back the most recent deploy, thats the statements one from 12 min before this. roll it back?',
    expect: { contains: ['archive'] },
  },
  {
    // DEV
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'dev',
    earlier: ["what's failing?"],
    message: 'statements error ratio now, and since when?',
    expect: {
      all: [
        { number: 'sum(rate(http_requests_total{job="statements",code=~"5.."}[5m])) / sum(rate(http_requests_total{job="statements"}[5m]))', tolerance: 0.15 },
        { at: 36, tolerance: 3 },
      ],
    },
  },
  {
    // COST
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'dev',
    message: 'is shipping-api part of this? it runs on the same nodes',
    expect: { asks: true },
  },
];
