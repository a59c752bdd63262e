/**
 * Development conversation questions (the kubectl batch): an operator fluent in kubectl words
 * (KUBE), an SRE manager who sends one-line status checks (MGR), a developer fluent in PromQL who
 * names metrics, labels and functions (PROMQL), and a product designer curious about what users
 * experience (DESIGN); they may be tuned on.
 * Each case is tagged with its voice, and every number and `at` was checked against the staged data
 * (the value at the data's end is noted beside each PromQL expression; `at` is minutes before the end).
 */
import type { QuestionCase } from './conversation-cases';

export const KUBECTL_DEV_CASES: QuestionCase[] = [
  // ── checkout-bad-version ──────────────────────────────────────────────────────────────────
  // KUBE
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    message: 'k get po -n shop -l app=checkout -o wide — which of those are on the 2.15.0 image and what nodes did they land on',
    expect: { podsOf: { workload: 'checkout', version: '2.15.0' } },
  },
  // MGR
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    message: 'checkout err rate rn + since when?',
    expect: {
      all: [
        // 0.0766
        {
          number: 'sum(rate(http_requests_total{job="checkout", code=~"5.."}[5m])) / sum(rate(http_requests_total{job="checkout"}[5m]))',
          tolerance: 0.2,
        },
        { at: 38, tolerance: 3 },
      ],
    },
  },
  // PROMQL
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    earlier: ['which checkout route is throwing the 500s?'],
    message:
      'ok so for that route, what does sum(rate(http_requests_total{job="checkout",route="/api/checkout",code=~"5.."}[15m])) / sum(rate(http_requests_total{job="checkout",route="/api/checkout"}[15m])) come out at',
    // 0.110
    expect: {
      number:
        'sum(rate(http_requests_total{job="checkout", route="/api/checkout", code=~"5.."}[15m])) / sum(rate(http_requests_total{job="checkout", route="/api/checkout"}[15m]))',
      tolerance: 0.2,
    },
  },
  // DESIGN
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    message: 'roughly what time did shoppers start hitting errors when they press "place order"?',
    expect: { at: 38, tolerance: 3 },
  },

  // ── search-slow-version-chronic-alert ─────────────────────────────────────────────────────
  // PROMQL
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'dev',
    message: 'histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{job="search"}[5m]))) — where is that sitting now?',
    // 1.951
    expect: {
      number: 'histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{job="search"}[5m])))',
      tolerance: 0.25,
    },
  },
  // MGR
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'dev',
    message: 'search slow: the recs CPUThrottlingHigh thing or something else?',
    expect: { contains: ['3.3.0'] },
  },
  // DESIGN
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'dev',
    earlier: ['is search broken for people right now?'],
    message: 'and are people waiting longer for their search results than they were an hour ago?',
    expect: { direction: 'up' },
  },

  // ── inventory-down-harmless-rollout ───────────────────────────────────────────────────────
  // KUBE
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'dev',
    message: 'checkout deploy went to 2.14.4 right before this, should i just kubectl rollout undo deploy/checkout or is something else broken',
    expect: { contains: ['inventory'] },
  },
  // PROMQL
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'dev',
    earlier: ['why is checkout 503ing?'],
    message: 'how many of those are connection refused? sum(rate(http_client_requests_total{job="checkout",peer="inventory",code="connection_refused"}[5m]))',
    // 26.09
    expect: {
      number: 'sum(rate(http_client_requests_total{job="checkout", peer="inventory", code="connection_refused"}[5m]))',
      tolerance: 0.2,
    },
  },
  // DESIGN
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'dev',
    message: 'what share of people trying to check out are getting an error right now?',
    // 0.621
    expect: {
      number: 'sum(rate(http_requests_total{job="checkout", code=~"5.."}[5m])) / sum(rate(http_requests_total{job="checkout"}[5m]))',
      tolerance: 0.2,
    },
  },
  // MGR
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'dev',
    message: 'invntory status?',
    expect: { asksFirst: 'inventory' },
  },

  // ── orders-memory-leak-oom ────────────────────────────────────────────────────────────────
  // KUBE
  {
    scenario: 'orders-memory-leak-oom',
    split: 'dev',
    message: 'orders po keep restarting. OOMKilled or something else? and how many restarts across both pods in the last hour',
    expect: {
      all: [
        { contains: ['OOMKilled'] },
        // 12
        { number: 'sum(increase(kube_pod_container_status_restarts_total{container="orders"}[1h]))', tolerance: 0.25 },
      ],
    },
  },
  // MGR
  {
    scenario: 'orders-memory-leak-oom',
    split: 'dev',
    message: 'orders — time of first OOM kill?',
    expect: { at: 40.5, tolerance: 2 },
  },
  // PROMQL
  {
    scenario: 'orders-memory-leak-oom',
    split: 'dev',
    message: 'max(max_over_time(container_memory_working_set_bytes{container="orders"}[30m])) — how high did it get vs the limit',
    // 1081113070 (limit 1073741824)
    expect: { number: 'max(max_over_time(container_memory_working_set_bytes{container="orders"}[30m]))', tolerance: 0.15 },
  },
  // DESIGN
  {
    scenario: 'orders-memory-leak-oom',
    split: 'dev',
    earlier: ['why does orders keep restarting?'],
    message: 'ok and can you tell me which customers lost their orders when it restarted? i want order ids so support can reach out',
    expect: { cannot: true },
  },

  // ── media-disk-full-flapping-alert ────────────────────────────────────────────────────────
  // KUBE
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'dev',
    message: 'FrontendTargetDown paged first but media is throwing 507s. which node is the media po on and which mount ran out of space',
    expect: { contains: ['ip-10-0-2-34', '/var/lib/media'] },
  },
  // MGR
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'dev',
    message: 'media uploads failing %?',
    // 0.970
    expect: {
      number:
        'sum(rate(http_requests_total{job="media", route="/api/uploads", code=~"5.."}[5m])) / sum(rate(http_requests_total{job="media", route="/api/uploads"}[5m]))',
      tolerance: 0.15,
    },
  },
  // PROMQL
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'dev',
    message: 'at what time did node_filesystem_avail_bytes{mountpoint="/var/lib/media"} hit 0?',
    expect: { at: 37, tolerance: 2 },
  },

  // ── search-traffic-surge ──────────────────────────────────────────────────────────────────
  // KUBE
  {
    scenario: 'search-traffic-surge',
    split: 'dev',
    message: 'kubectl top po -l app=search — how close are the search pods to their cpu limit right now?',
    // 0.994
    expect: {
      number:
        'sum(rate(container_cpu_usage_seconds_total{container="search"}[5m])) / sum(kube_pod_container_resource_limits{container="search", resource="cpu"})',
      tolerance: 0.15,
    },
  },
  // MGR
  {
    scenario: 'search-traffic-surge',
    split: 'dev',
    earlier: ['SearchLatencyHigh firing — whats up'],
    message: 'frontend shipped 5.2.1 just before. that it?',
    expect: { contains: ['/api/search'] },
  },
  // DESIGN
  {
    scenario: 'search-traffic-surge',
    split: 'dev',
    message: 'how long are the slowest searches taking for people at the moment — like the worst 1 in 100?',
    // 4.535
    expect: {
      number: 'histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{job="search"}[5m])))',
      tolerance: 0.2,
    },
  },

  // ── cart-config-crashloop ─────────────────────────────────────────────────────────────────
  // KUBE
  {
    scenario: 'cart-config-crashloop',
    split: 'dev',
    message: 'theres a cart po in CrashLoopBackOff, whats the restart count on it',
    // 12
    expect: { number: 'max(kube_pod_container_status_restarts_total{container="cart"})', tolerance: 0.2 },
  },
  // MGR
  {
    scenario: 'cart-config-crashloop',
    split: 'dev',
    message: 'cart crashloop — trigger?',
    expect: { contains: ['cart-config'] },
  },
  // DESIGN
  {
    scenario: 'cart-config-crashloop',
    split: 'dev',
    earlier: ['one of the cart servers keeps crashing, what happened?'],
    message: 'does the cart feel any slower for shoppers because of it, compared to an hour ago?',
    expect: { direction: 'about the same' },
  },

  // ── orders-worker-scaled-to-zero ──────────────────────────────────────────────────────────
  // KUBE
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'dev',
    message: 'k get deploy orders-worker says 0/0?? when did that get scaled down',
    expect: { at: 44, tolerance: 2 },
  },
  // PROMQL
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'dev',
    message: 'what does time() - rabbitmq_queue_head_message_timestamp{queue="orders"} give now, in seconds',
    // 2641.5
    expect: { number: 'max(time() - rabbitmq_queue_head_message_timestamp{queue="orders"})', tolerance: 0.15 },
  },
  // DESIGN
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'dev',
    earlier: ['what is the QueueMessagesStale alert about?'],
    message: 'so are customer orders just sitting there unprocessed? which service is supposed to pick them up',
    expect: { contains: ['orders-worker'] },
  },

  // ── checkout-slow-partner-bank ────────────────────────────────────────────────────────────
  // MGR
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    message: 'checkout p99 now?',
    // 4.80
    expect: {
      number: 'histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{job="checkout"}[5m])))',
      tolerance: 0.2,
    },
  },
  // PROMQL
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    message: 'histogram_quantile(0.5, sum by (le) (rate(http_client_request_duration_seconds_bucket{job="payments",peer="partner-bank"}[5m]))) — value?',
    // 1.169
    expect: {
      number: 'histogram_quantile(0.5, sum by (le) (rate(http_client_request_duration_seconds_bucket{job="payments", peer="partner-bank"}[5m])))',
      tolerance: 0.25,
    },
  },
  // KUBE
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    message: 'reports-batch po is pinning the node one of the checkout pods is on. is that the slowness or a red herring',
    expect: { contains: ['partner-bank'] },
  },
  // DESIGN
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    earlier: ['is paying at checkout slow for people right now?'],
    message: 'since about when?',
    expect: { at: 37, tolerance: 3 },
  },

  // ── recommendations-cpu-throttled ─────────────────────────────────────────────────────────
  // KUBE
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'dev',
    message: 'k describe po recommendations — what cpu limit are the pods running with now',
    // 0.3
    expect: { number: 'max(kube_pod_container_resource_limits{container="recommendations", resource="cpu"})', tolerance: 0.15 },
  },
  // PROMQL
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'dev',
    earlier: ['RecommendationsLatencyHigh — whats going on'],
    message:
      'check sum(increase(container_cpu_cfs_throttled_periods_total{container="recommendations"}[5m])) / sum(increase(container_cpu_cfs_periods_total{container="recommendations"}[5m])) for it',
    // 0.739
    expect: {
      number:
        'sum(increase(container_cpu_cfs_throttled_periods_total{container="recommendations"}[5m])) / sum(increase(container_cpu_cfs_periods_total{container="recommendations"}[5m]))',
      tolerance: 0.2,
    },
  },
  // MGR
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'dev',
    message: 'recs: new build went out? which version is live',
    expect: { contains: ['0.9.4'] },
  },
  // DESIGN
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'dev',
    message: 'are the "you might also like" recommendations loading slower for people than an hour ago?',
    expect: { direction: 'up' },
  },

  // ── node-not-ready ────────────────────────────────────────────────────────────────────────
  // KUBE
  {
    scenario: 'node-not-ready',
    split: 'dev',
    message: 'k get no shows one NotReady. which one, and which cart po was sitting on it',
    expect: { contains: ['ip-10-0-3-41', 'cart-d7b5fbc6d-tk7ck'] },
  },
  // MGR
  {
    scenario: 'node-not-ready',
    split: 'dev',
    earlier: ['frontend paging again?'],
    message: '5xx % on it now',
    // 0.151
    expect: {
      number: 'sum(rate(http_requests_total{job="frontend", code=~"5.."}[5m])) / sum(rate(http_requests_total{job="frontend"}[5m]))',
      tolerance: 0.2,
    },
  },
  // PROMQL
  {
    scenario: 'node-not-ready',
    split: 'dev',
    message: 'sum(rate(http_client_requests_total{job="frontend",peer="cart",code="timeout"}[5m])) — how many timeouts/s is frontend getting',
    // 13.77
    expect: { number: 'sum(rate(http_client_requests_total{job="frontend", peer="cart", code="timeout"}[5m]))', tolerance: 0.2 },
  },
  // DESIGN
  {
    scenario: 'node-not-ready',
    split: 'dev',
    message: 'when did shoppers start getting error pages on the storefront?',
    expect: { at: 36, tolerance: 2 },
  },

  // ── partner-bank-certificate-expired ──────────────────────────────────────────────────────
  // MGR
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'dev',
    message: 'partner-bank cert — expired when?',
    expect: { at: 35, tolerance: 2 },
  },
  // PROMQL
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'dev',
    message: 'sum(rate(http_client_requests_total{job="payments",peer="partner-bank",code="tls_error"}[5m])) pls',
    // 19.53
    expect: { number: 'sum(rate(http_client_requests_total{job="payments", peer="partner-bank", code="tls_error"}[5m]))', tolerance: 0.2 },
  },
  // DESIGN
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'dev',
    message: 'can we get the names of the customers whose card payment got declined? want to email them a sorry note',
    expect: { cannot: true },
  },

  // ── ordersdb-connections-exhausted ────────────────────────────────────────────────────────
  // PROMQL
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'dev',
    message:
      'sum(pg_stat_activity_count{server="ordersdb:5432"}) / pg_settings_max_connections — how close to the ceiling, and how many of them are state="idle in transaction"',
    expect: {
      all: [
        // 0.995
        {
          number: 'sum(pg_stat_activity_count{server="ordersdb:5432"}) / max(pg_settings_max_connections{server="ordersdb:5432"})',
          tolerance: 0.15,
        },
        // 160
        { number: 'sum(pg_stat_activity_count{server="ordersdb:5432", state="idle in transaction"})', tolerance: 0.15 },
      ],
    },
  },
  // KUBE
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'dev',
    message: 'orders went to 2.3.1 a few min before it started erroring. rollout undo deploy/orders?',
    expect: { contains: ['ordersdb'] },
  },
  // MGR
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'dev',
    earlier: ['orders error rate?'],
    message: 'loyalty-points affected too?',
    expect: { asks: true },
  },
  // DESIGN
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'dev',
    message: 'is placing an order slower for people than it was an hour ago?',
    expect: { direction: 'up' },
  },

  // ── sessions-redis-down-flapping-alert ────────────────────────────────────────────────────
  // KUBE
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'dev',
    message: 'is the sessions-memcached po up? cart is erroring',
    expect: { asks: true },
  },
  // PROMQL
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'dev',
    message: 'when did redis_up{redis="sessions-redis"} flip to 0',
    expect: { at: 36, tolerance: 2 },
  },
  // DESIGN
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'dev',
    message: 'how many "add to cart" clicks are failing per second for shoppers right now?',
    // 16.6
    expect: {
      number: 'sum(rate(http_requests_total{job="cart", route="/api/cart/items", code=~"5.."}[5m]))',
      tolerance: 0.2,
    },
  },

  // ── payments-bad-version-noisy-neighbour ──────────────────────────────────────────────────
  // KUBE
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    message: 'which payments po are running 1.9.0, and on which nodes? -o wide style',
    expect: { podsOf: { workload: 'payments', version: '1.9.0' } },
  },
  // MGR
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    message: 'payments: roll back? to what',
    expect: { contains: ['1.9.0'] },
  },
  // PROMQL
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    message: 'sum(rate(http_requests_total{job="payments",code=~"5.."}[5m])) / sum(rate(http_requests_total{job="payments"}[5m])) right now?',
    // 0.200
    expect: {
      number: 'sum(rate(http_requests_total{job="payments", code=~"5.."}[5m])) / sum(rate(http_requests_total{job="payments"}[5m]))',
      tolerance: 0.15,
    },
  },
  // DESIGN
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    earlier: ['payments are failing for some people, what changed?'],
    message: 'besides failing, is paying any slower for customers than an hour ago?',
    expect: { direction: 'about the same' },
  },

  // ── checkout-memory-limit-lowered ─────────────────────────────────────────────────────────
  // KUBE
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'dev',
    message: 'checkout po all in CrashLoopBackOff — OOMKilled? whats the memory limit on them now',
    expect: {
      all: [
        { contains: ['OOMKilled'] },
        // 335544320 (320 MiB)
        { number: 'max(kube_pod_container_resource_limits{container="checkout", resource="memory"})', tolerance: 0.15 },
      ],
    },
  },
  // MGR
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'dev',
    message: 'chekout restarts last 30m?',
    expect: { asksFirst: 'checkout' },
  },
  // PROMQL
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'dev',
    earlier: ['why does checkout crashloop'],
    message: 'what was kube_pod_container_resource_limits{container="checkout",resource="memory"} an hour ago, i.e. with offset 1h?',
    // 805306368 (768 MiB)
    expect: { number: 'max(kube_pod_container_resource_limits{container="checkout", resource="memory"} offset 1h)', tolerance: 0.15 },
  },
  // DESIGN
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'dev',
    message: 'are fewer people getting through to the checkout step than an hour ago? like is the traffic to checkout lower',
    expect: { direction: 'down' },
  },

  // ── ledger-volume-full-chronic-mount ──────────────────────────────────────────────────────
  // KUBE
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'dev',
    earlier: ['ledger writes failing, why'],
    message: 'k describe pvc — which claim is it and how full is it',
    expect: {
      all: [
        { contains: ['data-ledger'] },
        // 1
        {
          number:
            'max(kubelet_volume_stats_used_bytes{persistentvolumeclaim="data-ledger"} / kubelet_volume_stats_capacity_bytes{persistentvolumeclaim="data-ledger"})',
          tolerance: 0.15,
        },
      ],
    },
  },
  // MGR
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'dev',
    message: 'ledgr ok?',
    expect: { asksFirst: 'ledger' },
  },
  // PROMQL
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'dev',
    message:
      'share of code="507" on route="/api/ledger/entries" over the last 5m, i.e. sum(rate(http_requests_total{job="ledger",route="/api/ledger/entries",code="507"}[5m])) / sum(rate(...route="/api/ledger/entries"}[5m]))',
    // 0.950
    expect: {
      number:
        'sum(rate(http_requests_total{job="ledger", route="/api/ledger/entries", code="507"}[5m])) / sum(rate(http_requests_total{job="ledger", route="/api/ledger/entries"}[5m]))',
      tolerance: 0.15,
    },
  },

  // ── accounts-pool-exhausted-harmless-rollout ──────────────────────────────────────────────
  // KUBE
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'dev',
    message: 'accounts rolled to 1.4.1 like 45 min ago. kubectl rollout undo deploy/accounts and move on?',
    expect: { contains: ['HikariPool-1'] },
  },
  // PROMQL
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'dev',
    earlier: ['accounts requests timing out — db?'],
    message: 'sum(hikaricp_connections_active{job="accounts"}) / sum(hikaricp_connections_max{job="accounts"}) — what is it at',
    // 1
    expect: { number: 'sum(hikaricp_connections_active{job="accounts"}) / sum(hikaricp_connections_max{job="accounts"})', tolerance: 0.15 },
  },
  // MGR
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'dev',
    message: 'accounts error rate?',
    // 0.300
    expect: {
      number: 'sum(rate(http_requests_total{job="accounts", code=~"5.."}[5m])) / sum(rate(http_requests_total{job="accounts"}[5m]))',
      tolerance: 0.2,
    },
  },
  // DESIGN
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'dev',
    message: 'how many people gave up on a money transfer and closed the app because it hung?',
    expect: { cannot: true },
  },

  // ── cart-liveness-slow-redis ──────────────────────────────────────────────────────────────
  // KUBE
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'dev',
    message: 'cart po restarting nonstop. total restarts across the deploy in the last 15m?',
    // 48
    expect: { number: 'sum(increase(kube_pod_container_status_restarts_total{container="cart"}[15m]))', tolerance: 0.2 },
  },
  // PROMQL
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'dev',
    earlier: ['why does cart keep restarting'],
    message:
      'and histogram_quantile(0.5, sum by (le) (rate(http_client_request_duration_seconds_bucket{job="cart",peer="sessions-redis"}[5m]))) — what does that show',
    // 2.074
    expect: {
      number: 'histogram_quantile(0.5, sum by (le) (rate(http_client_request_duration_seconds_bucket{job="cart", peer="sessions-redis"}[5m])))',
      tolerance: 0.25,
    },
  },
  // MGR
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'dev',
    message: 'cart restarts: root cause?',
    expect: { contains: ['sessions-redis'] },
  },

  // ── inventory-liveness-unexplained ────────────────────────────────────────────────────────
  // KUBE
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'dev',
    message: 'inventory po keep getting restarted by the kubelet. restarts in the last 30 min, both pods summed',
    // 67
    expect: { number: 'sum(increase(kube_pod_container_status_restarts_total{container="inventory"}[30m]))', tolerance: 0.2 },
  },
  // PROMQL
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'dev',
    message: 'sum(increase(prober_probe_total{container="inventory",probe_type="Liveness",result="failed"}[15m]))?',
    // 99
    expect: {
      number: 'sum(increase(prober_probe_total{container="inventory", probe_type="Liveness", result="failed"}[15m]))',
      tolerance: 0.2,
    },
  },
  // DESIGN
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'dev',
    message: 'what exact error message do shoppers see on screen when inventory restarts? i want to reword it',
    expect: { cannot: true },
  },

  // ── search-noisy-neighbour ────────────────────────────────────────────────────────────────
  // KUBE
  {
    scenario: 'search-noisy-neighbour',
    split: 'dev',
    message: 'k top no — which node is pegged that has a search po on it, and which po is that',
    expect: { contains: ['ip-10-0-2-34', 'search-878b86fb7-m9xrk'] },
  },
  // MGR
  {
    scenario: 'search-noisy-neighbour',
    split: 'dev',
    message: 'search p99 now?',
    // 2.288
    expect: {
      number: 'histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{job="search"}[5m])))',
      tolerance: 0.2,
    },
  },
  // PROMQL
  {
    scenario: 'search-noisy-neighbour',
    split: 'dev',
    earlier: ['search latency alert, what is going on'],
    message:
      'split it per pod: histogram_quantile(0.99, sum by (pod, le) (rate(http_request_duration_seconds_bucket{job="search"}[5m]))) — what is the worst pod at',
    // 2.410
    expect: {
      number: 'max(histogram_quantile(0.99, sum by (pod, le) (rate(http_request_duration_seconds_bucket{job="search"}[5m]))))',
      tolerance: 0.2,
    },
  },
  // DESIGN
  {
    scenario: 'search-noisy-neighbour',
    split: 'dev',
    message: 'what is making search slow for shoppers today?',
    expect: { contains: ['video-transcode'] },
  },

  // ── billing-timeout-config-change ─────────────────────────────────────────────────────────
  // MGR
  {
    scenario: 'billing-timeout-config-change',
    split: 'dev',
    message: 'billing — what changed?',
    expect: { contains: ['150ms'] },
  },
  // PROMQL
  {
    scenario: 'billing-timeout-config-change',
    split: 'dev',
    message: 'sum(rate(http_client_requests_total{job="billing",peer="ledger",code="timeout"}[5m])) — how many per sec',
    // 28.15
    expect: { number: 'sum(rate(http_client_requests_total{job="billing", peer="ledger", code="timeout"}[5m]))', tolerance: 0.2 },
  },
  // DESIGN
  {
    scenario: 'billing-timeout-config-change',
    split: 'dev',
    earlier: ['are invoices failing for customers?'],
    message: 'the ones that do go through — are they any slower for customers than an hour ago?',
    expect: { direction: 'about the same' },
  },

  // ── archive-down-reported-deploy-red-herring ──────────────────────────────────────────────
  // KUBE
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'dev',
    earlier: ['statements erroring — whats the root'],
    message: 'archive po show no restarts tho. how many connection refused/s is statements getting from it',
    // 29.64
    expect: {
      number: 'sum(rate(http_client_requests_total{job="statements", peer="archive", code="connection_refused"}[5m]))',
      tolerance: 0.2,
    },
  },
  // MGR
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'dev',
    message: 'statements deploy 2026.11.27-1 the culprit?',
    expect: { contains: ['archive'] },
  },
  // DESIGN
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'dev',
    message: 'is the statments page broken for people?',
    expect: { asksFirst: 'statements' },
  },
];
