/**
 * Held-out conversation questions (ninth holdout, part A), written before the code they score; never copy or tune on them (eval/holdout/README.md).
 *
 * Voices: a data engineer whose pipelines consume the affected services' events (gaps, backfills);
 * a risk and compliance officer (customer impact in plain business words); the observability
 * engineer who built the dashboards (metric and label terms); an intern shadowing the on-call.
 */
import type { QuestionCase } from '../conversation-cases';

export const NINTH_HOLDOUT_QUESTIONS_A: QuestionCase[] = [
  // checkout-bad-version
  {
    scenario: 'checkout-bad-version',
    split: 'holdout-9',
    message: 'For my incident log: of all the requests checkout handles, what share is failing at the moment?',
    expect: {
      number: 'sum(rate(http_requests_total{job="checkout",code=~"5.."}[10m])) / sum(rate(http_requests_total{job="checkout"}[10m]))',
      tolerance: 0.25,
    },
  },
  {
    scenario: 'checkout-bad-version',
    split: 'holdout-9',
    earlier: ['hey whats actually broken with checkout'],
    message: 'ok and which pods got that new build? + what nodes are they sitting on, i only know kubectl get pods lol',
    expect: { podsOf: { workload: 'checkout', version: '2.15.0' } },
  },
  {
    scenario: 'checkout-bad-version',
    split: 'holdout-9',
    message: 'sizing a replay of checkout order events: roughly how many checkout requests errored since this kicked off, and what time did the errors begin?',
    expect: {
      all: [
        { number: 'sum(increase(http_requests_total{job="checkout",code=~"5.."}[40m]))', tolerance: 0.2 },
        { at: 38, tolerance: 3 },
      ],
    },
  },

  // search-slow-version-chronic-alert
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'holdout-9',
    message: 'p99 of http_request_duration_seconds for job=search, route=/api/search, last 15m?',
    expect: {
      number: 'histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{job="search",route="/api/search"}[15m])))',
      tolerance: 0.3,
    },
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'holdout-9',
    earlier: ['What is going on with search?'],
    message: 'Are customers who search on the site waiting longer for results than they were before this began?',
    expect: { direction: 'up' },
  },

  // inventory-down-harmless-rollout
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'holdout-9',
    message: 'what time did inventory stop answering? my stock-level backfill has to start from the first missing minute',
    expect: { at: 36, tolerance: 3 },
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'holdout-9',
    message: 'In business terms, what proportion of checkout requests are failing because of this outage?',
    expect: {
      number: 'sum(rate(http_requests_total{job="checkout",code=~"5.."}[10m])) / sum(rate(http_requests_total{job="checkout"}[10m]))',
      tolerance: 0.2,
    },
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'holdout-9',
    message: 'is inventroy back up yet or still dead?',
    expect: { asksFirst: 'inventory' },
  },

  // orders-memory-leak-oom
  {
    scenario: 'orders-memory-leak-oom',
    split: 'holdout-9',
    message: 'sum over pods of increase(kube_pod_container_status_restarts_total{container="orders"}[1h]) — what is it?',
    expect: { number: 'sum(increase(kube_pod_container_status_restarts_total{container="orders"}[1h]))', tolerance: 0.2 },
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: 'holdout-9',
    earlier: ['why do the orders pods keep getting restarted?'],
    message: 'when did the very first of those kills happen? anything orders wrote to the order-events stream after that might be half-written',
    expect: { at: 41, tolerance: 3 },
  },

  // media-disk-full-flapping-alert
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'holdout-9',
    message: 'What percentage of customer file uploads are being rejected right now?',
    expect: {
      number:
        'sum(rate(http_requests_total{job="media",route="/api/uploads",code=~"5.."}[10m])) / sum(rate(http_requests_total{job="media",route="/api/uploads"}[10m]))',
      tolerance: 0.1,
    },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'holdout-9',
    earlier: ['what paged us?', 'FrontendTargetDown was first in the group, is that related?'],
    message: 'when did node_filesystem_avail_bytes for mountpoint=/var/lib/media drop to 0?',
    expect: { at: 37, tolerance: 3 },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'holdout-9',
    message: 'how many uploads failed since the disk filled (need a count for the re-ingest job) and which node is that disk on?',
    expect: {
      all: [
        { number: 'sum(increase(http_requests_total{job="media",route="/api/uploads",code=~"5.."}[40m]))', tolerance: 0.2 },
        { contains: ['ip-10-0-2-34'] },
      ],
    },
  },

  // search-traffic-surge
  {
    scenario: 'search-traffic-surge',
    split: 'holdout-9',
    message: 'sum(rate(http_requests_total{job="search",route="/api/search"})) now, and what was it an hour ago?',
    expect: {
      all: [
        { number: 'sum(rate(http_requests_total{job="search",route="/api/search"}[10m]))', tolerance: 0.2 },
        { number: 'sum(rate(http_requests_total{job="search",route="/api/search"}[10m] offset 1h))', tolerance: 0.2 },
      ],
    },
  },
  {
    scenario: 'search-traffic-surge',
    split: 'holdout-9',
    earlier: ['why is search so slow?'],
    message: 'is the elasticsearch cluster behind it overloaded as well?',
    expect: { asks: true },
  },

  // cart-config-crashloop
  {
    scenario: 'cart-config-crashloop',
    split: 'holdout-9',
    message: 'sorry if dumb q — the cart pod thats crashing, which node is it on?',
    expect: { contains: ['ip-10-0-1-23'] },
  },
  {
    scenario: 'cart-config-crashloop',
    split: 'holdout-9',
    earlier: ["what's crash looping?"],
    message: 'Are shoppers getting more errors from cart than before this started, compared with earlier today?',
    expect: { direction: 'about the same' },
  },
  {
    scenario: 'cart-config-crashloop',
    split: 'holdout-9',
    message: 'when did kube_configmap_metadata_resource_version bump for cart-config, and how many restarts has the crashing cart container racked up?',
    expect: {
      all: [
        { at: 38, tolerance: 3 },
        { number: 'max(kube_pod_container_status_restarts_total{container="cart"})', tolerance: 0.2 },
      ],
    },
  },

  // orders-worker-scaled-to-zero
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'holdout-9',
    message: 'since when has nothing been consuming the orders queue? thats where my backfill window starts',
    expect: { at: 44, tolerance: 3 },
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'holdout-9',
    message: 'is ordrs-worker even running rn?',
    expect: { asksFirst: 'orders-worker' },
  },

  // checkout-slow-partner-bank
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'holdout-9',
    message: 'mean latency of payments -> peer="partner-bank" (rate of http_client_request_duration_seconds_sum over _count), last 15m?',
    expect: {
      number:
        'sum(rate(http_client_request_duration_seconds_sum{job="payments",peer="partner-bank"}[15m])) / sum(rate(http_client_request_duration_seconds_count{job="payments",peer="partner-bank"}[15m]))',
      tolerance: 0.25,
    },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'holdout-9',
    earlier: ['Why is checking out slow for customers?'],
    message: 'Is the problem on our side or with an outside party, and from what time?',
    expect: { all: [{ contains: ['partner-bank'] }, { at: 37, tolerance: 3 }] },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'holdout-9',
    message: 'is checkout slower than it was an hour ago? like actually slower',
    expect: { direction: 'up' },
  },

  // recommendations-cpu-throttled
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'holdout-9',
    message: 'ratio of container_cpu_cfs_throttled_periods_total to container_cpu_cfs_periods_total for recommendations over 10m?',
    expect: {
      number:
        'sum(increase(container_cpu_cfs_throttled_periods_total{container="recommendations"}[10m])) / sum(increase(container_cpu_cfs_periods_total{container="recommendations"}[10m]))',
      tolerance: 0.2,
    },
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'holdout-9',
    earlier: ['why is recommendations slow'],
    message: 'what cpu limit did it have before, and whats it set to now?',
    expect: {
      all: [
        { number: 'max(max_over_time(kube_pod_container_resource_limits{container="recommendations",resource="cpu"}[2h]))', tolerance: 0.1 },
        { number: 'max(kube_pod_container_resource_limits{container="recommendations",resource="cpu"})', tolerance: 0.1 },
      ],
    },
  },

  // node-not-ready
  {
    scenario: 'node-not-ready',
    split: 'holdout-9',
    message: 'which node died?? and which cart pod was on it',
    expect: { contains: ['ip-10-0-3-41', 'cart-d7b5fbc6d-tk7ck'] },
  },
  {
    scenario: 'node-not-ready',
    split: 'holdout-9',
    message: 'What fraction of requests to the storefront are failing at present?',
    expect: {
      number: 'sum(rate(http_requests_total{job="frontend",code=~"5.."}[10m])) / sum(rate(http_requests_total{job="frontend"}[10m]))',
      tolerance: 0.25,
    },
  },
  {
    scenario: 'node-not-ready',
    split: 'holdout-9',
    earlier: ["what's going on with frontend"],
    message: 'when did that node stop reporting? from then on our clickstream events may have holes',
    expect: { at: 36, tolerance: 3 },
  },

  // partner-bank-certificate-expired
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'holdout-9',
    message: 'What share of customer payments are failing right now?',
    expect: {
      number: 'sum(rate(http_requests_total{job="payments",code=~"5.."}[10m])) / sum(rate(http_requests_total{job="payments"}[10m]))',
      tolerance: 0.1,
    },
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'holdout-9',
    message: 'probe_ssl_earliest_cert_expiry on instance https://api.partner-bank.example/health — at what time did it pass?',
    expect: { at: 35, tolerance: 3 },
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'holdout-9',
    earlier: ['are payments failing?'],
    message: "my pipeline eats checkout events, not payments. has checkout's error rate moved compared to before?",
    expect: { direction: 'about the same' },
  },

  // ordersdb-connections-exhausted
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'holdout-9',
    message: 'sum(pg_stat_activity_count) for server ordersdb:5432 as a % of pg_settings_max_connections?',
    expect: {
      number: 'sum(avg_over_time(pg_stat_activity_count{server="ordersdb:5432"}[10m])) / max(pg_settings_max_connections{server="ordersdb:5432"})',
      tolerance: 0.1,
    },
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'holdout-9',
    message: 'Roughly what share of customer order requests are failing?',
    expect: {
      number: 'sum(rate(http_requests_total{job="orders",code=~"5.."}[10m])) / sum(rate(http_requests_total{job="orders"}[10m]))',
      tolerance: 0.15,
    },
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'holdout-9',
    earlier: ['why is orders failing'],
    message: 'so it was the 2.3.1 deploy then right?',
    expect: { contains: ['ordersdb'] },
  },

  // sessions-redis-down-flapping-alert
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'holdout-9',
    message: 'how many cart requests per second are failing right now? trying to estimate dropped cart events',
    expect: { number: 'sum(rate(http_requests_total{job="cart",code=~"5.."}[10m]))', tolerance: 0.2 },
  },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'holdout-9',
    earlier: ['which alert went off first?'],
    message: 'the frontend one was first tho, so frontend is the problem?',
    expect: { contains: ['sessions-redis'] },
  },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'holdout-9',
    message: 'is user-profile-memcached down as well?',
    expect: { asks: true },
  },

  // payments-bad-version-noisy-neighbour
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'holdout-9',
    message: 'which payments pods are on 1.9.0 and what nodes r they on?',
    expect: { podsOf: { workload: 'payments', version: '1.9.0' } },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'holdout-9',
    earlier: ["what's wrong with payments?"],
    message: "ledger-reconcile is eating ~4 cores on one payments node, isn't that the cause? and has payments' p99 moved vs an hour ago?",
    expect: { all: [{ contains: ['1.9.0'] }, { direction: 'about the same' }] },
  },

  // checkout-memory-limit-lowered
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'holdout-9',
    message: 'kube_pod_container_resource_limits{resource="memory"} for checkout: value now vs what it was before?',
    expect: {
      all: [
        { number: 'max(kube_pod_container_resource_limits{container="checkout",resource="memory"})', tolerance: 0.1 },
        { number: 'max(max_over_time(kube_pod_container_resource_limits{container="checkout",resource="memory"}[3h]))', tolerance: 0.1 },
      ],
    },
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'holdout-9',
    message: 'how many times have the checkout containers restarted since this began? each restart can drop in-flight order events',
    expect: { number: 'sum(increase(kube_pod_container_status_restarts_total{container="checkout"}[1h]))', tolerance: 0.2 },
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'holdout-9',
    earlier: ['Why are the checkout pods crash looping?'],
    message: 'From what time has this been affecting checkout?',
    expect: { at: 39, tolerance: 3 },
  },

  // ledger-volume-full-chronic-mount
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'holdout-9',
    message: 'ledger writes failing since when exactly? i need the window to replay entries from the upstream topic',
    expect: { at: 36, tolerance: 3 },
  },
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'holdout-9',
    message: 'Which customer accounts had their ledger entries rejected? Compliance needs the list of account holders.',
    expect: { cannot: true },
  },
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'holdout-9',
    earlier: ['what filled up?'],
    message: 'node_filesystem_avail_bytes{mountpoint="/var/log/archive"} is 0 on that node — is that the one?',
    expect: { contains: ['data-ledger'] },
  },

  // accounts-pool-exhausted-harmless-rollout
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'holdout-9',
    message: 'hikaricp_connections_active / hikaricp_connections_max for accounts, as a %, averaged over the last 10m?',
    expect: {
      number: 'sum(avg_over_time(hikaricp_connections_active{job="accounts"}[10m])) / sum(avg_over_time(hikaricp_connections_max{job="accounts"}[10m]))',
      tolerance: 0.1,
    },
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'holdout-9',
    message: 'What share of account requests are failing, and since what time?',
    expect: {
      all: [
        {
          number: 'sum(rate(http_requests_total{job="accounts",code=~"5.."}[10m])) / sum(rate(http_requests_total{job="accounts"}[10m]))',
          tolerance: 0.15,
        },
        { at: 38, tolerance: 3 },
      ],
    },
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'holdout-9',
    earlier: ['why is accounts failing?'],
    message: 'which pods have 1.4.1 on them again, and where do they run?',
    expect: { podsOf: { workload: 'accounts', version: '1.4.1' } },
  },

  // cart-liveness-slow-redis
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'holdout-9',
    message: 'increase(kube_pod_container_status_restarts_total{container="cart"}[1h]) summed over the cart pods?',
    expect: { number: 'sum(increase(kube_pod_container_status_restarts_total{container="cart"}[1h]))', tolerance: 0.2 },
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'holdout-9',
    message: "average latency of cart's calls to sessions-redis over the last 15 min, and what it was an hour before that?",
    expect: {
      all: [
        {
          number:
            'sum(rate(http_client_request_duration_seconds_sum{job="cart",peer="sessions-redis"}[15m])) / sum(rate(http_client_request_duration_seconds_count{job="cart",peer="sessions-redis"}[15m]))',
          tolerance: 0.25,
        },
        {
          number:
            'sum(rate(http_client_request_duration_seconds_sum{job="cart",peer="sessions-redis"}[15m] offset 1h)) / sum(rate(http_client_request_duration_seconds_count{job="cart",peer="sessions-redis"}[15m] offset 1h))',
          tolerance: 0.3,
        },
      ],
    },
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'holdout-9',
    message: 'is sesions-redis down?',
    expect: { asksFirst: 'sessions-redis' },
  },

  // inventory-liveness-unexplained
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'holdout-9',
    message: 'how many times has inventory restarted in the last hour, and when was the first restart? stock events go missing on each one',
    expect: {
      all: [
        { number: 'sum(increase(kube_pod_container_status_restarts_total{container="inventory"}[1h]))', tolerance: 0.2 },
        { at: 36, tolerance: 3 },
      ],
    },
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'holdout-9',
    earlier: ['Why does inventory keep restarting?'],
    message: 'Can you say exactly which piece of code or which lock inside inventory is hanging?',
    expect: { cannot: true },
  },

  // search-noisy-neighbour
  {
    scenario: 'search-noisy-neighbour',
    split: 'holdout-9',
    message: 'which search pod is the slow one, and what else is running on its node?',
    expect: { contains: ['search-878b86fb7-m9xrk', 'video-transcode'] },
  },
  {
    scenario: 'search-noisy-neighbour',
    split: 'holdout-9',
    earlier: ['why is search slow?'],
    message: 'what time did the slowdown start? search-result events after that have late timestamps in my pipeline',
    expect: { at: 37, tolerance: 3 },
  },

  // billing-timeout-config-change
  {
    scenario: 'billing-timeout-config-change',
    split: 'holdout-9',
    message: 'How many individual customers received a failed invoice? I need their names for the notification letters.',
    expect: { cannot: true },
  },
  {
    scenario: 'billing-timeout-config-change',
    split: 'holdout-9',
    earlier: ['why is billing failing?'],
    message: "what share of billing's calls to ledger are timing out, and since when?",
    expect: {
      all: [
        {
          number:
            'sum(rate(http_client_requests_total{job="billing",peer="ledger",code="timeout"}[10m])) / sum(rate(http_client_requests_total{job="billing",peer="ledger"}[10m]))',
          tolerance: 0.1,
        },
        { at: 36, tolerance: 3 },
      ],
    },
  },

  // archive-down-reported-deploy-red-herring
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'holdout-9',
    message: 'how many req/s was archive taking in before it went down? need it to size the backfill',
    expect: { number: 'sum(rate(http_requests_total{job="archive"}[20m] offset 37m))', tolerance: 0.2 },
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'holdout-9',
    earlier: ['Why are customer statements failing?'],
    message: 'A statements deploy was announced earlier this morning. Was that the cause?',
    expect: { contains: ['archive'] },
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'holdout-9',
    message: 'is archiver-v2 affected too or only the old one?',
    expect: { asks: true },
  },
];
