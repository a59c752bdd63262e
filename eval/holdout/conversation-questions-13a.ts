import type { QuestionCase } from '../conversation-cases';

/**
 * Held-out conversation questions (thirteenth holdout, part A), written before the code they
 * score; never copy or tune on them (eval/holdout/README.md).
 * Voices: the tech lead of the payments/checkout backend team (precise, a bit impatient); an
 * on-call engineer pasting fragments of the alert or dashboard into the question; a technical
 * program manager keeping the incident's timeline (when, and in which order); a performance
 * engineer asking about percentiles, ratios, per-second rates and headroom against limits.
 */
export const THIRTEENTH_HOLDOUT_QUESTIONS_A: QuestionCase[] = [
  // checkout-bad-version
  {
    scenario: 'checkout-bad-version',
    split: 'holdout-13',
    message: 'which checkout pods are running 2.15.0 and on what nodes. exact list please, it goes into the rollback ticket',
    expect: { podsOf: { workload: 'checkout', version: '2.15.0' } },
  },
  {
    scenario: 'checkout-bad-version',
    split: 'holdout-13',
    message: 'CheckoutHighErrorRate firing — "checkout is failing requests". whats the 5xx ratio on POST /api/checkout by itself',
    expect: {
      number:
        'sum(rate(http_requests_total{namespace="shop", job="checkout", route="/api/checkout", code=~"5.."}[5m])) / sum(rate(http_requests_total{namespace="shop", job="checkout", route="/api/checkout"}[5m]))',
      tolerance: 0.2,
    },
  },
  {
    scenario: 'checkout-bad-version',
    split: 'holdout-13',
    earlier: ['what version is checkout on right now?'],
    message: 'ok and what time did that version start going out? need it for the timeline',
    expect: { at: 38, tolerance: 2 },
  },

  // search-slow-version-chronic-alert
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'holdout-13',
    message: 'p99 of GET /api/search right now, and what it was an hour ago',
    expect: {
      all: [
        {
          number: 'histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{job="search", route="/api/search"}[5m])))',
          tolerance: 0.25,
        },
        {
          number: 'histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{job="search", route="/api/search"}[5m] offset 1h)))',
          tolerance: 0.3,
        },
      ],
    },
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'holdout-13',
    message:
      'got paged w/ SearchLatencyHigh (warning) and CPUThrottlingHigh on recommendations in the same group. is the throttling what slows search down or is it something else',
    expect: { contains: ['3.3.0'] },
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'holdout-13',
    earlier: ['why did search get slow?'],
    message: 'when did SearchLatencyHigh actually fire, and when did the latency itself start going up? both times, in order',
    expect: {
      all: [
        { at: 34.5, tolerance: 2 },
        { at: 40, tolerance: 2 },
      ],
    },
  },

  // inventory-down-harmless-rollout
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'holdout-13',
    message: 'we rolled checkout 2.14.4 right before checkout started throwing 503s. is my deploy the problem? yes or no, and if no, what is',
    expect: { contains: ['inventory'] },
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'holdout-13',
    message: 'for the postmortem timeline: when did the checkout 2.14.4 rollout start, and when did inventory stop answering?',
    expect: {
      all: [
        { at: 44, tolerance: 2 },
        { at: 36, tolerance: 2 },
      ],
    },
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'holdout-13',
    message: 'how many calls per second from checkout to inventory are getting connection refused?',
    expect: {
      number: 'sum(rate(http_client_requests_total{job="checkout", peer="inventory", code="connection_refused"}[5m]))',
      tolerance: 0.2,
    },
  },

  // orders-memory-leak-oom
  {
    scenario: 'orders-memory-leak-oom',
    split: 'holdout-13',
    message: 'orders restarting again. root cause, one line please',
    expect: { contains: ['OOMKilled'] },
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: 'holdout-13',
    message: 'timeline q on orders: when did its memory start climbing, and when was the first OOM kill?',
    expect: {
      all: [
        { at: 75, tolerance: 3 },
        { at: 41, tolerance: 2 },
      ],
    },
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: 'holdout-13',
    earlier: ['KubePodRestartingOften — "Pod orders-6fb5cc5f8-rff78 restarts often." what is killing it?'],
    message: 'how many times have the orders containers been killed in the past hour, both pods together',
    expect: {
      number:
        'sum(kube_pod_container_status_restarts_total{namespace="shop", container="orders"}) - sum(kube_pod_container_status_restarts_total{namespace="shop", container="orders"} offset 1h)',
      tolerance: 0.05,
    },
  },

  // media-disk-full-flapping-alert
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'holdout-13',
    message:
      'MediaUploadsFailing critical, and FrontendTargetDown on frontend-8fd6d76c8-dtqns just before it. same incident? what is really behind the uploads failing',
    expect: { contains: ['/var/lib/media'] },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'holdout-13',
    message: 'what fraction of POST /api/uploads requests fail right now',
    expect: {
      number:
        'sum(rate(http_requests_total{job="media", route="/api/uploads", code=~"5.."}[5m])) / sum(rate(http_requests_total{job="media", route="/api/uploads"}[5m]))',
      tolerance: 0.2,
    },
  },

  // search-traffic-surge
  {
    scenario: 'search-traffic-surge',
    split: 'holdout-13',
    message: 'req/s on /api/search at the moment?',
    expect: { number: 'sum(rate(http_requests_total{job="search", route="/api/search"}[5m]))', tolerance: 0.2 },
  },
  {
    scenario: 'search-traffic-surge',
    split: 'holdout-13',
    message: "frontend 5.2.1 went out minutes before search fell over. is that the cause or not? I don't want to roll back for nothing",
    expect: { contains: ['/api/search'] },
  },
  {
    scenario: 'search-traffic-surge',
    split: 'holdout-13',
    earlier: ['why is search latency so high?'],
    message: 'when did that extra traffic start?',
    expect: { at: 39, tolerance: 2 },
  },

  // cart-config-crashloop
  {
    scenario: 'cart-config-crashloop',
    split: 'holdout-13',
    message: 'KubePodCrashLooping — container=cart reason=CrashLoopBackOff "Pod is crash looping." no new version went out afaik. what set it off',
    expect: { contains: ['cart-config'] },
  },
  {
    scenario: 'cart-config-crashloop',
    split: 'holdout-13',
    message: 'what time was the cart-config ConfigMap edited?',
    expect: { at: 38, tolerance: 2 },
  },
  {
    scenario: 'cart-config-crashloop',
    split: 'holdout-13',
    earlier: ['which cart pod is crash looping?'],
    message: 'how many restarts has it racked up so far',
    expect: { number: 'max(kube_pod_container_status_restarts_total{namespace="shop", container="cart"})', tolerance: 0.05 },
  },

  // orders-worker-scaled-to-zero
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'holdout-13',
    message: 'QueueMessagesStale crit, queue=orders "Messages in orders wait for more than ten minutes" — how old is the oldest message right now',
    expect: { number: 'max(time() - rabbitmq_queue_head_message_timestamp{queue="orders"})', tolerance: 0.1 },
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'holdout-13',
    message: 'when was orders-worker scaled down to zero replicas?',
    expect: { at: 44, tolerance: 2 },
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'holdout-13',
    earlier: ['who consumes the orders queue, and are they running?'],
    message: "how big is the backlog on it now, and what's the publish rate per second",
    expect: {
      all: [
        { number: 'sum(rabbitmq_queue_messages_ready{queue="orders"})', tolerance: 0.1 },
        { number: 'sum(rate(rabbitmq_queue_messages_published_total{queue="orders"}[5m]))', tolerance: 0.2 },
      ],
    },
  },

  // checkout-slow-partner-bank
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'holdout-13',
    message: "avg latency of payments' calls to partner-bank now, vs an hour ago",
    expect: {
      all: [
        {
          number:
            'sum(rate(http_client_request_duration_seconds_sum{job="payments", peer="partner-bank"}[5m])) / sum(rate(http_client_request_duration_seconds_count{job="payments", peer="partner-bank"}[5m]))',
          tolerance: 0.25,
        },
        {
          number:
            'sum(rate(http_client_request_duration_seconds_sum{job="payments", peer="partner-bank"}[5m] offset 1h)) / sum(rate(http_client_request_duration_seconds_count{job="payments", peer="partner-bank"}[5m] offset 1h))',
          tolerance: 0.25,
        },
      ],
    },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'holdout-13',
    message: "checkout p99 is awful. reports-batch is pinning one of our nodes — is that it? tell me what's actually slow",
    expect: { contains: ['partner-bank'] },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'holdout-13',
    message: 'CheckoutLatencyHigh firing, p99 way over 1s. is shipping-quotes slow as well? it sits on the checkout path',
    expect: { asks: true },
  },

  // recommendations-cpu-throttled
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'holdout-13',
    message: 'what share of CFS periods are the recommendations containers throttled in right now?',
    expect: {
      number:
        'sum(increase(container_cpu_cfs_throttled_periods_total{namespace="shop", container="recommendations"}[5m])) / sum(increase(container_cpu_cfs_periods_total{namespace="shop", container="recommendations"}[5m]))',
      tolerance: 0.2,
    },
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'holdout-13',
    message: 'at what time did the recommendations rollout that changed its cpu limit happen?',
    expect: { at: 40, tolerance: 2 },
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'holdout-13',
    earlier: ['what changed on recommendations in the last hour?'],
    message: 'and its p99 since then, up or down?',
    expect: { direction: 'up' },
  },

  // node-not-ready
  {
    scenario: 'node-not-ready',
    split: 'holdout-13',
    message: 'FrontendHighErrorRate critical — "~15% of frontend\'s requests fail", mostly 502s. which node is behind this?',
    expect: { contains: ['ip-10-0-3-41'] },
  },
  {
    scenario: 'node-not-ready',
    split: 'holdout-13',
    message: 'what time did ip-10-0-3-41 go NotReady?',
    expect: { at: 36, tolerance: 2 },
  },
  {
    scenario: 'node-not-ready',
    split: 'holdout-13',
    message: "what's the p99 on wishlist-api right now? wondering if it drags frontend down",
    expect: { asks: true },
  },

  // partner-bank-certificate-expired
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'holdout-13',
    message: 'payments is 5xxing on nearly every request. we shipped nothing today. what broke',
    expect: { contains: ['partner-bank'] },
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'holdout-13',
    earlier: ['why are payments failing?'],
    message: 'what time exactly did it expire?',
    expect: { at: 35, tolerance: 2 },
  },

  // ordersdb-connections-exhausted
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'holdout-13',
    message: 'ordersdb connections in use as a fraction of max_connections?',
    expect: {
      number: 'sum(pg_stat_activity_count{server="ordersdb:5432"}) / max(pg_settings_max_connections{server="ordersdb:5432"})',
      tolerance: 0.1,
    },
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'holdout-13',
    message: "orders 2.3.1 rolled out minutes before orders started failing. roll back y/n? what's the real cause",
    expect: { contains: ['ordersdb'] },
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'holdout-13',
    earlier: ['why is orders failing?'],
    message: 'which came first, the 2.3.1 rollout or the errors? give me both times',
    expect: {
      all: [
        { at: 46, tolerance: 2 },
        { at: 40, tolerance: 2 },
      ],
    },
  },

  // sessions-redis-down-flapping-alert
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'holdout-13',
    message:
      "CartHighErrorRate (critical) and FrontendTargetDown for frontend-b8bb6bfb8-l2lfs landed in the same group. which one do I work first, what's broken",
    expect: { contains: ['sessions-redis'] },
  },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'holdout-13',
    message: 'what time did sessions-redis go down?',
    expect: { at: 36, tolerance: 2 },
  },

  // payments-bad-version-noisy-neighbour
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'holdout-13',
    message: 'list every payments pod on 1.9.0 with its node',
    expect: { podsOf: { workload: 'payments', version: '1.9.0' } },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'holdout-13',
    message:
      'PaymentsHighErrorRate — "20.00% of payments\'s requests fail." ip-10-0-3-41 is also at 98% cpu from ledger-reconcile. is that what is failing payments?',
    expect: { contains: ['1.9.0'] },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'holdout-13',
    earlier: ['is ledger-reconcile hurting payments?'],
    message: "how busy is that node's cpu, and how many cores is the job using",
    expect: {
      all: [
        {
          number: '1 - avg(rate(node_cpu_seconds_total{node="ip-10-0-3-41.eu-west-1.compute.internal", mode="idle"}[5m]))',
          tolerance: 0.05,
        },
        { number: 'sum(rate(container_cpu_usage_seconds_total{container="ledger-reconcile"}[5m]))', tolerance: 0.15 },
      ],
    },
  },

  // checkout-memory-limit-lowered
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'holdout-13',
    message: 'checkout container memory limit now vs before the rollout?',
    expect: {
      all: [
        { number: 'max(kube_pod_container_resource_limits{namespace="shop", container="checkout", resource="memory"})', tolerance: 0.02 },
        { number: 'max(kube_pod_container_resource_limits{namespace="shop", container="checkout", resource="memory"} offset 1h)', tolerance: 0.02 },
      ],
    },
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'holdout-13',
    message: 'checkout has been crashlooping since the rollout. did we ship a bad build? why are the pods dying',
    expect: { contains: ['OOMKilled'] },
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'holdout-13',
    message: "who approved the change to checkout's memory limit? need a name for the postmortem",
    expect: { cannot: true },
  },

  // ledger-volume-full-chronic-mount
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'holdout-13',
    message: 'LedgerWritesFailing — "ledger is failing requests". node ip-10-0-1-88 shows /var/log/archive with 0 bytes free. is that why ledger cant write?',
    expect: { contains: ['data-ledger'] },
  },
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'holdout-13',
    message: '507s per second on POST /api/ledger/entries right now?',
    expect: { number: 'sum(rate(http_requests_total{job="ledger", route="/api/ledger/entries", code="507"}[5m]))', tolerance: 0.2 },
  },

  // accounts-pool-exhausted-harmless-rollout
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'holdout-13',
    message: 'how many threads are stuck waiting for a HikariPool-1 connection, across the accounts pods?',
    expect: { number: 'sum(hikaricp_connections_pending{job="accounts", pool="HikariPool-1"})', tolerance: 0.05 },
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'holdout-13',
    message: 'accounts 1.4.1 went out ~10 min before the 500s started. revert it or not? whats the cause',
    expect: { contains: ['HikariPool-1'] },
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'holdout-13',
    message: 'how many customers had a transfer fail during this? need the impact number for the incident report',
    expect: { cannot: true },
  },

  // cart-liveness-slow-redis
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'holdout-13',
    message: 'KubePodRestartingOften — "Pod cart-567575f65-gv5zw restarts often." redis_up is 1 so redis looks fine?? why does cart keep restarting',
    expect: { contains: ['sessions-redis'] },
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'holdout-13',
    earlier: ['KubePodRestartingOften — "Pod cart-567575f65-gv5zw restarts often." redis_up is 1 so redis looks fine?? why does cart keep restarting'],
    message: "how slow are cart's redis calls on average right now",
    expect: {
      number:
        'sum(rate(http_client_request_duration_seconds_sum{job="cart", peer="sessions-redis"}[5m])) / sum(rate(http_client_request_duration_seconds_count{job="cart", peer="sessions-redis"}[5m]))',
      tolerance: 0.25,
    },
  },

  // inventory-liveness-unexplained
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'holdout-13',
    message: 'inventory pods restarting nonstop. some batch job is bursting on one of its nodes, is that it or what',
    expect: { contains: ['liveness'] },
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'holdout-13',
    message: 'KubePodRestartingOften inventory-c58d68b5c-lfg9w — can you pull the stack trace / thread dump from right before the last kill?',
    expect: { cannot: true },
  },

  // search-noisy-neighbour
  {
    scenario: 'search-noisy-neighbour',
    split: 'holdout-13',
    message: 'search p99 blew up. a few batch jobs got busy around then — which one is actually hurting search?',
    expect: { contains: ['video-transcode'] },
  },
  {
    scenario: 'search-noisy-neighbour',
    split: 'holdout-13',
    earlier: ['which job is starving search?'],
    message: "is it both search pods or just one? which pod, and what's its p99",
    expect: {
      all: [
        { contains: ['search-878b86fb7-m9xrk'] },
        {
          number: 'histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{job="search", pod="search-878b86fb7-m9xrk"}[5m])))',
          tolerance: 0.25,
        },
      ],
    },
  },

  // billing-timeout-config-change
  {
    scenario: 'billing-timeout-config-change',
    split: 'holdout-13',
    message: 'timeline for billing: when did cfg-8841 get applied and when did the 504s start?',
    expect: {
      all: [
        { at: 37, tolerance: 2 },
        { at: 36, tolerance: 2 },
      ],
    },
  },
  {
    scenario: 'billing-timeout-config-change',
    split: 'holdout-13',
    message: 'billing: did its p99 latency move at all since the config push, or is it just errors?',
    expect: { direction: 'about the same' },
  },

  // archive-down-reported-deploy-red-herring
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'holdout-13',
    message: 'StatementsHighErrorRate critical. deploy-3301 (statements-static 2026.11.27-1, ci-bot) went out a bit before. roll that back?',
    expect: { contains: ['archive'] },
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'holdout-13',
    message: 'how many calls/s from statements to archive are failing right now?',
    expect: { number: 'sum(rate(http_client_requests_total{job="statements", peer="archive", code!="200"}[5m]))', tolerance: 0.2 },
  },
];
