/**
 * Held-out conversation questions (tenth holdout, part B), written before the code they score; never copy or tune on them (eval/holdout/README.md).
 * Voices: a service-mesh and networking engineer, an on-call engineer handing off mid-incident, a platform engineer owning the shared Redis, Postgres and node fleet, and a product analyst asking in business words.
 */
import type { QuestionCase } from '../conversation-cases';

export const TENTH_HOLDOUT_QUESTIONS_B: QuestionCase[] = [
  // checkout-bad-version
  // product analyst
  {
    scenario: 'checkout-bad-version',
    split: 'holdout-10',
    message: 'what % of people hitting place order are getting an error right now? only the actual checkout call, not the status polling',
    // 0.110
    expect: {
      number:
        'sum(rate(http_requests_total{job="checkout",route="/api/checkout",code=~"5.."}[5m])) / sum(rate(http_requests_total{job="checkout",route="/api/checkout"}[5m]))',
      tolerance: 0.2,
    },
  },
  // on-call engineer handing off
  {
    scenario: 'checkout-bad-version',
    split: 'holdout-10',
    message: 'handing off in 5. need for the notes: which checkout pods are on 2.15.0 and what nodes are they on',
    expect: { podsOf: { workload: 'checkout', version: '2.15.0' } },
  },
  // service-mesh engineer
  {
    scenario: 'checkout-bad-version',
    split: 'holdout-10',
    message: 'checkout is 500ing on its inbound POST route, downstream deps look clean from the mesh side. when did the 2.15.0 rollout start going out?',
    expect: { at: 38, tolerance: 3 },
  },

  // search-slow-version-chronic-alert
  // service-mesh engineer
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'holdout-10',
    message: 'the search hop is eating most of the edge timeout budget. p99 of search /api/search over the last 15 min?',
    // 2.03 s
    expect: {
      number: 'histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{job="search",route="/api/search"}[15m])))',
      tolerance: 0.25,
    },
  },
  // platform engineer
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'holdout-10',
    message: 'CPUThrottlingHigh on recommendations has been going off all night again. is that whats making search slow or is it something on search itself',
    expect: { contains: ['3.3.0'] },
  },

  // inventory-down-harmless-rollout
  // service-mesh engineer
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'holdout-10',
    message: 'checkout -> inventory hop: what fraction of the calls fail right now, and how do they fail - refused, reset, timeouts?',
    // 1.0, all connection_refused
    expect: {
      all: [
        {
          number:
            'sum(rate(http_client_requests_total{job="checkout",peer="inventory",code!="200"}[5m])) / sum(rate(http_client_requests_total{job="checkout",peer="inventory"}[5m]))',
          tolerance: 0.15,
        },
        { contains: ['connection_refused'] },
      ],
    },
  },
  // product analyst
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'holdout-10',
    message: 'did the checkout release this morning (2.14.4?) break orders going through, or is it something else',
    expect: { contains: ['inventory'] },
  },

  // orders-memory-leak-oom
  // platform engineer
  {
    scenario: 'orders-memory-leak-oom',
    split: 'holdout-10',
    message: 'orders containers - how many restarts in the last hour, both pods together',
    // 12
    expect: { number: 'sum(increase(kube_pod_container_status_restarts_total{container="orders"}[1h]))', tolerance: 0.2 },
  },
  // product analyst
  {
    scenario: 'orders-memory-leak-oom',
    split: 'holdout-10',
    message: 'why does the orders service keep going down and coming back every few minutes?',
    expect: { contains: ['OOMKilled'] },
  },

  // media-disk-full-flapping-alert
  // product analyst
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'holdout-10',
    message: 'users say photo uploads are broken. what share of uploads failed in the last 10 min?',
    // 0.970
    expect: {
      number:
        'sum(rate(http_requests_total{job="media",route="/api/uploads",code=~"5.."}[10m])) / sum(rate(http_requests_total{job="media",route="/api/uploads"}[10m]))',
      tolerance: 0.15,
    },
  },
  // platform engineer
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'holdout-10',
    earlier: ['what share of media uploads failed in the last 10 min?'],
    message: 'and /var/lib/media on ip-10-0-2-34, how full is it now',
    // 1.0 (no bytes left of 200 GiB)
    expect: {
      number: '1 - node_filesystem_avail_bytes{mountpoint="/var/lib/media"} / node_filesystem_size_bytes{mountpoint="/var/lib/media"}',
      tolerance: 0.15,
    },
  },

  // search-traffic-surge
  // product analyst
  {
    scenario: 'search-traffic-surge',
    split: 'holdout-10',
    message: 'how many searches per second are we serving right now? feels like way more than a normal morning',
    // 211.5 req/s
    expect: { number: 'sum(rate(http_requests_total{job="search",route="/api/search"}[5m]))', tolerance: 0.2 },
  },
  // service-mesh engineer
  {
    scenario: 'search-traffic-surge',
    split: 'holdout-10',
    message: 'inbound rps on search since frontend went to 5.2.1, up or down compared to before it?',
    expect: { direction: 'up' },
  },
  // on-call engineer handing off
  {
    scenario: 'search-traffic-surge',
    split: 'holdout-10',
    message: 'for the handover doc - what time did the search traffic spike start',
    expect: { at: 39, tolerance: 3 },
  },

  // cart-config-crashloop
  // platform engineer
  {
    scenario: 'cart-config-crashloop',
    split: 'holdout-10',
    message: 'which configmap got touched right before cart started crashlooping? theres a couple in shop',
    expect: { contains: ['cart-config'], excludes: ['frontend-config'] },
  },
  // on-call engineer handing off
  {
    scenario: 'cart-config-crashloop',
    split: 'holdout-10',
    message: 'quick one before i hand over: how many times has the crashlooping cart pod restarted so far',
    // 12
    expect: { number: 'sum(kube_pod_container_status_restarts_total{container="cart"})', tolerance: 0.2 },
  },

  // orders-worker-scaled-to-zero
  // product analyst
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'holdout-10',
    message: 'how many orders are sitting in the queue unprocessed right now?',
    // 11225
    expect: { number: 'sum(rabbitmq_queue_messages_ready{queue="orders"})', tolerance: 0.15 },
  },
  // on-call engineer handing off
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'holdout-10',
    message: 'when exactly did orders-worker get scaled down? need the time for the timeline',
    expect: { at: 44, tolerance: 3 },
  },
  // platform engineer
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'holdout-10',
    message: 'ordrs-worker replica count, what is it at now',
    expect: { asksFirst: 'orders-worker' },
  },

  // checkout-slow-partner-bank
  // service-mesh engineer
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'holdout-10',
    message: 'payments -> partner-bank egress, p99 on that hop over the last 10m?',
    // 4.70 s
    expect: {
      number: 'histogram_quantile(0.99, sum by (le) (rate(http_client_request_duration_seconds_bucket{job="payments",peer="partner-bank"}[10m])))',
      tolerance: 0.2,
    },
  },
  // product analyst
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'holdout-10',
    message: 'someone in the channel said a reports batch job is hogging one of the servers, is that why checkouts are slow?',
    expect: { contains: ['partner-bank'] },
  },
  // product analyst
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'holdout-10',
    message: 'how long are the slowest 1% of checkouts taking right now',
    // 4.91 s
    expect: {
      number: 'histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{job="checkout",route="/api/checkout"}[5m])))',
      tolerance: 0.2,
    },
  },

  // recommendations-cpu-throttled
  // platform engineer
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'holdout-10',
    message: 'cpu limit on the recommendations pods now vs an hour ago? looks like someone touched resources',
    // 0.3 now, 1 an hour ago
    expect: {
      all: [
        { number: 'max(kube_pod_container_resource_limits{container="recommendations",resource="cpu"})', tolerance: 0.15 },
        { number: 'max(kube_pod_container_resource_limits{container="recommendations",resource="cpu"} offset 60m)', tolerance: 0.15 },
      ],
    },
  },
  // service-mesh engineer
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'holdout-10',
    message: 'recs pods are slow answering their upstream callers. what fraction of their CFS periods got throttled in the last 10 minutes',
    // 0.746
    expect: {
      number:
        'sum(increase(container_cpu_cfs_throttled_periods_total{container="recommendations"}[10m])) / sum(increase(container_cpu_cfs_periods_total{container="recommendations"}[10m]))',
      tolerance: 0.2,
    },
  },

  // node-not-ready
  // platform engineer
  {
    scenario: 'node-not-ready',
    split: 'holdout-10',
    message: 'which of my nodes went NotReady, and at what time',
    expect: { all: [{ contains: ['ip-10-0-3-41'] }, { at: 36, tolerance: 3 }] },
  },
  // service-mesh engineer
  {
    scenario: 'node-not-ready',
    split: 'holdout-10',
    message: 'frontend -> cart hop, what share of the upstream calls are timing out now?',
    // 0.333
    expect: {
      number:
        'sum(rate(http_client_requests_total{job="frontend",peer="cart",code="timeout"}[5m])) / sum(rate(http_client_requests_total{job="frontend",peer="cart"}[5m]))',
      tolerance: 0.2,
    },
  },
  // product analyst
  {
    scenario: 'node-not-ready',
    split: 'holdout-10',
    earlier: ['which node dropped out?'],
    message: 'ok so how many page loads per second are erroring because of that, currently',
    // 12.5 req/s
    expect: { number: 'sum(rate(http_requests_total{job="frontend",code=~"5.."}[5m]))', tolerance: 0.25 },
  },

  // partner-bank-certificate-expired
  // service-mesh engineer
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'holdout-10',
    message: 'payments egress to partner-bank: fail ratio now + what kind of failure (handshake? refused? 5xx from them?)',
    // 1.0, all tls_error
    expect: {
      all: [
        {
          number:
            'sum(rate(http_client_requests_total{job="payments",peer="partner-bank",code!="200"}[5m])) / sum(rate(http_client_requests_total{job="payments",peer="partner-bank"}[5m]))',
          tolerance: 0.15,
        },
        { contains: ['tls_error'] },
      ],
    },
  },
  // on-call engineer handing off
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'holdout-10',
    earlier: ['whats wrong with payments calls to partner-bank'],
    message: 'when did their cert actually expire then',
    expect: { at: 35, tolerance: 2 },
  },
  // product analyst
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'holdout-10',
    message: 'what share of payments failed over the last 15 min',
    // 0.971
    expect: {
      number: 'sum(rate(http_requests_total{job="payments",code=~"5.."}[15m])) / sum(rate(http_requests_total{job="payments"}[15m]))',
      tolerance: 0.15,
    },
  },

  // ordersdb-connections-exhausted
  // platform engineer
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'holdout-10',
    message: 'ordersdb - connections in use vs max_connections right now?',
    // 199 of 200
    expect: {
      all: [
        { number: 'sum(pg_stat_activity_count)', tolerance: 0.15 },
        { number: 'max(pg_settings_max_connections)', tolerance: 0.15 },
      ],
    },
  },
  // on-call engineer handing off
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'holdout-10',
    earlier: ['orders error ratio now?'],
    message: 'and how many of the ordersdb connections are idle in transaction atm',
    // 160
    expect: { number: 'sum(pg_stat_activity_count{state="idle in transaction"})', tolerance: 0.15 },
  },
  // product analyst
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'holdout-10',
    message: 'was it the orders 2.3.1 release that broke order placement?',
    expect: { contains: ['ordersdb'] },
  },

  // sessions-redis-down-flapping-alert
  // platform engineer
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'holdout-10',
    message: 'sessions-redis - what time did it go down? is the exporter itself still being scraped',
    expect: { at: 36, tolerance: 3 },
  },
  // service-mesh engineer
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'holdout-10',
    message: 'cart -> sessions-redis, failure ratio on that hop over the last 5m',
    // 1.0
    expect: {
      number:
        'sum(rate(http_client_requests_total{job="cart",peer="sessions-redis",code!="200"}[5m])) / sum(rate(http_client_requests_total{job="cart",peer="sessions-redis"}[5m]))',
      tolerance: 0.15,
    },
  },
  // product analyst
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'holdout-10',
    message: 'how many cart views / add to cart clicks are failing per second right now',
    // 56.5 req/s
    expect: { number: 'sum(rate(http_requests_total{job="cart",code=~"5.."}[5m]))', tolerance: 0.2 },
  },

  // payments-bad-version-noisy-neighbour
  // on-call engineer handing off
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'holdout-10',
    message: 'for the handoff: payments pods running 1.9.0 + their nodes pls',
    expect: { podsOf: { workload: 'payments', version: '1.9.0' } },
  },
  // platform engineer
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'holdout-10',
    message: 'that ledger-reconcile batch, how many cores is it burning now',
    // 3.71 cores
    expect: { number: 'sum(rate(container_cpu_usage_seconds_total{container="ledger-reconcile"}[5m]))', tolerance: 0.15 },
  },
  // product analyst
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'holdout-10',
    message: 'how much revenue have we lost to the failed payments so far, in euros',
    expect: { cannot: true },
  },

  // checkout-memory-limit-lowered
  // platform engineer
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'holdout-10',
    message: 'checkout memory limit now vs an hour ago',
    // 320 MiB now, 768 MiB an hour ago
    expect: {
      all: [
        { number: 'max(kube_pod_container_resource_limits{container="checkout",resource="memory"})', tolerance: 0.15 },
        { number: 'max(kube_pod_container_resource_limits{container="checkout",resource="memory"} offset 60m)', tolerance: 0.15 },
      ],
    },
  },
  // on-call engineer handing off
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'holdout-10',
    message: 'whats the termination reason on the checkout pods that keep restarting',
    expect: { contains: ['OOMKilled'] },
  },
  // on-call engineer handing off
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'holdout-10',
    message: 'chekout restarts in the last 30 min?',
    expect: { asksFirst: 'checkout' },
  },

  // ledger-volume-full-chronic-mount
  // platform engineer
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'holdout-10',
    message: 'how full is the data-ledger pvc right now, %',
    // 1.0
    expect: {
      number:
        'sum(kubelet_volume_stats_used_bytes{persistentvolumeclaim="data-ledger"}) / sum(kubelet_volume_stats_capacity_bytes{persistentvolumeclaim="data-ledger"})',
      tolerance: 0.15,
    },
  },
  // service-mesh engineer
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'holdout-10',
    message: 'ledger is answering 507 upstream. share of its write calls (POST entries) failing over the last 10 min?',
    // 0.951
    expect: {
      number:
        'sum(rate(http_requests_total{job="ledger",route="/api/ledger/entries",code=~"5.."}[10m])) / sum(rate(http_requests_total{job="ledger",route="/api/ledger/entries"}[10m]))',
      tolerance: 0.15,
    },
  },

  // accounts-pool-exhausted-harmless-rollout
  // platform engineer
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'holdout-10',
    message: 'accounts HikariPool-1: how many connections in use out of the max, both pods added up? accountsdb itself looks bored to me',
    // 19–20 of 20 (active varies by one with noise)
    expect: {
      all: [
        { number: 'sum(hikaricp_connections_active{job="accounts"})', tolerance: 0.15 },
        { number: 'sum(hikaricp_connections_max{job="accounts"})', tolerance: 0.15 },
      ],
    },
  },
  // product analyst
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'holdout-10',
    message: 'what share of account lookups and transfers are failing at the moment',
    // 0.300
    expect: {
      number: 'sum(rate(http_requests_total{job="accounts",code=~"5.."}[5m])) / sum(rate(http_requests_total{job="accounts"}[5m]))',
      tolerance: 0.15,
    },
  },
  // on-call engineer handing off
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'holdout-10',
    message: 'next shift will ask: did accounts 1.4.1 cause this or not? if not what did',
    expect: { contains: ['HikariPool-1'] },
  },

  // cart-liveness-slow-redis
  // platform engineer
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'holdout-10',
    message: 'average latency of cart calls to sessions-redis over the last 10 min? redis box looks fine from my side',
    // 2.33 s
    expect: {
      number:
        'sum(rate(http_client_request_duration_seconds_sum{job="cart",peer="sessions-redis"}[10m])) / sum(rate(http_client_request_duration_seconds_count{job="cart",peer="sessions-redis"}[10m]))',
      tolerance: 0.2,
    },
  },
  // on-call engineer handing off
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'holdout-10',
    message: 'cart restarts in the last 15 min, all pods total?',
    // 48
    expect: { number: 'sum(increase(kube_pod_container_status_restarts_total{container="cart"}[15m]))', tolerance: 0.2 },
  },
  // service-mesh engineer
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'holdout-10',
    message: 'why is the kubelet killing cart? liveness? and what is it waiting on downstream',
    expect: { contains: ['sessions-redis'] },
  },

  // inventory-liveness-unexplained
  // platform engineer
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'holdout-10',
    message: 'which lock or thread are the inventory processes stuck on when they hang',
    expect: { cannot: true },
  },
  // on-call engineer handing off
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'holdout-10',
    earlier: ['why does inventory keep restarting'],
    message: 'how many restarts in the last 30 min, both pods together',
    // 67
    expect: { number: 'sum(increase(kube_pod_container_status_restarts_total{container="inventory"}[30m]))', tolerance: 0.2 },
  },
  // service-mesh engineer
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'holdout-10',
    message: 'failed liveness probes on inventory in the last 15m?',
    // 99
    expect: { number: 'sum(increase(prober_probe_total{container="inventory",result="failed"}[15m]))', tolerance: 0.2 },
  },

  // search-noisy-neighbour
  // on-call engineer handing off
  {
    scenario: 'search-noisy-neighbour',
    split: 'holdout-10',
    message: 'one search pod slow, other fine? which node is the slow one on and whats eating that node',
    expect: { contains: ['ip-10-0-2-34', 'video-transcode'] },
  },
  // service-mesh engineer
  {
    scenario: 'search-noisy-neighbour',
    split: 'holdout-10',
    message: 'p99 on search right now across both endpoints',
    // 2.29 s
    expect: { number: 'histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{job="search"}[5m])))', tolerance: 0.25 },
  },

  // billing-timeout-config-change
  // service-mesh engineer
  {
    scenario: 'billing-timeout-config-change',
    split: 'holdout-10',
    message: 'billing -> ledger: what share of the calls on that hop end in a client-side timeout now',
    // 1.0
    expect: {
      number:
        'sum(rate(http_client_requests_total{job="billing",peer="ledger",code="timeout"}[5m])) / sum(rate(http_client_requests_total{job="billing",peer="ledger"}[5m]))',
      tolerance: 0.15,
    },
  },
  // on-call engineer handing off
  {
    scenario: 'billing-timeout-config-change',
    split: 'holdout-10',
    message: 'when did the billing config push land? want it next to the error start in the timeline',
    expect: { at: 37, tolerance: 2 },
  },

  // archive-down-reported-deploy-red-herring
  // on-call engineer handing off
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'holdout-10',
    message: 'did deploy-3301 break statements? need a yes/no and whats actually broken for the next person',
    expect: { contains: ['archive'] },
  },
  // service-mesh engineer
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'holdout-10',
    message: 'statements -> archive: refused connections per second on that hop right now',
    // 29.6 req/s
    expect: {
      number: 'sum(rate(http_client_requests_total{job="statements",peer="archive",code="connection_refused"}[5m]))',
      tolerance: 0.2,
    },
  },
  // product analyst
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'holdout-10',
    message: 'is the pdf-renderer service ok? customers say statement downloads are broken',
    expect: { asks: true },
  },
];
