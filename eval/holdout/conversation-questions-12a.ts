/**
 * Held-out conversation questions (twelfth holdout, part a), written before the code they
 * score; never copy or tune on them (eval/holdout/README.md).
 * Voices: a release / QA engineer verifying a rollout, a VP of engineering after single numbers and
 * yes/no answers, a database administrator, and an on-call engineer typing from a phone.
 */
import type { QuestionCase } from '../conversation-cases';

export const TWELFTH_HOLDOUT_QUESTIONS_A: QuestionCase[] = [
  // checkout-bad-version
  // voice: release / QA
  {
    scenario: 'checkout-bad-version',
    split: 'holdout-12',
    message: 'rollout check on checkout: is 2.15.0 on all the pods yet or only part of them? list pod names w/ their nodes',
    expect: { podsOf: { workload: 'checkout', version: '2.15.0' } },
  },
  // voice: VP of engineering
  {
    scenario: 'checkout-bad-version',
    split: 'holdout-12',
    message: "Putting together the leadership update. What percentage of all checkout's requests are erroring right now, and from what time did that begin?",
    expect: {
      all: [
        { number: 'sum(rate(http_requests_total{job="checkout", code=~"5.."}[5m])) / sum(rate(http_requests_total{job="checkout"}[5m]))', tolerance: 0.2 },
        { at: 38, tolerance: 3 },
      ],
    },
  },
  // voice: on-call, phone
  {
    scenario: 'checkout-bad-version',
    split: 'holdout-12',
    earlier: ['checkout 500s since when??'],
    message: 'ok n latency? did p99 move w the new build or flat',
    expect: { direction: 'about the same' },
  },

  // search-slow-version-chronic-alert
  // voice: on-call, phone
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'holdout-12',
    message: "is search-indexer ok? thinkin it's mid reindex",
    expect: { asks: true },
  },
  // voice: release / QA
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'holdout-12',
    message: '3.3.0 is on both search pods now — whats the p99 for /api/search at the moment?',
    expect: {
      number: 'histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{job="search", route="/api/search"}[5m])))',
      tolerance: 0.2,
    },
  },
  // voice: VP of engineering
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'holdout-12',
    message: "Can you pull the release notes for search 3.3.0 — what did the team actually change in it? I'd like to quote them upstairs.",
    expect: { cannot: true },
  },

  // inventory-down-harmless-rollout
  // voice: release / QA
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'holdout-12',
    message: 'need the exact minute checkout began throwing errors so i can line it up against the 2.14.4 rollout',
    expect: { at: 36, tolerance: 3 },
  },
  // voice: on-call, phone
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'holdout-12',
    earlier: ['checkout throwing 503s, wats going on'],
    message: 'how many calls/sec from checkout to inventory failin rn',
    expect: { number: 'sum(rate(http_client_requests_total{job="checkout", peer="inventory", code!="200"}[5m]))', tolerance: 0.2 },
  },

  // orders-memory-leak-oom
  // voice: DBA
  {
    scenario: 'orders-memory-leak-oom',
    split: 'holdout-12',
    message: 'Before anyone points at ordersdb: what was the last termination reason recorded for the orders containers?',
    expect: { contains: ['OOMKilled'] },
  },
  // voice: VP of engineering
  {
    scenario: 'orders-memory-leak-oom',
    split: 'holdout-12',
    message: "When did orders' memory begin to climb? I want the start of the growth, not the first crash.",
    expect: { at: 75, tolerance: 4 },
  },

  // media-disk-full-flapping-alert
  // voice: on-call, phone
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'holdout-12',
    message: 'which node n mount ran outta disk, + what time did it hit 0 free',
    expect: { all: [{ contains: ['ip-10-0-2-34', '/var/lib/media'] }, { at: 37, tolerance: 3 }] },
  },
  // voice: VP of engineering
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'holdout-12',
    message: 'What share of media uploads are failing right now? One number is fine.',
    expect: {
      number:
        'sum(rate(http_requests_total{job="media", route="/api/uploads", code=~"5.."}[5m])) / sum(rate(http_requests_total{job="media", route="/api/uploads"}[5m]))',
      tolerance: 0.1,
    },
  },

  // search-traffic-surge
  // voice: release / QA
  {
    scenario: 'search-traffic-surge',
    split: 'holdout-12',
    message: 'frontend 5.2.1 shipped just before search degraded. to rule it out: which frontend pods run 5.2.1 and on which nodes?',
    expect: { podsOf: { workload: 'frontend', version: '5.2.1' } },
  },
  // voice: VP of engineering
  {
    scenario: 'search-traffic-surge',
    split: 'holdout-12',
    message: 'Is this a traffic thing? How many requests per second is search handling right now?',
    expect: { number: 'sum(rate(http_requests_total{job="search"}[5m]))', tolerance: 0.15 },
  },

  // cart-config-crashloop
  // voice: on-call, phone
  {
    scenario: 'cart-config-crashloop',
    split: 'holdout-12',
    message: 'which cart pod is crashloopin and on wat node',
    expect: { contains: ['ip-10-0-1-23'] },
  },
  // voice: release / QA
  {
    scenario: 'cart-config-crashloop',
    split: 'holdout-12',
    earlier: ['Is the cart rollout stuck?'],
    message: "what kicked it off — a new image or a config edit? cart's version looks unchanged to me",
    expect: { contains: ['cart-config'] },
  },

  // orders-worker-scaled-to-zero
  // voice: VP of engineering
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'holdout-12',
    message: 'How big is the orders backlog right now, and how long has the oldest message in it been waiting?',
    expect: {
      all: [
        { number: 'sum(rabbitmq_queue_messages_ready{queue="orders"})', tolerance: 0.15 },
        { number: 'max(time() - rabbitmq_queue_head_message_timestamp{queue="orders"})', tolerance: 0.15 },
      ],
    },
  },
  // voice: on-call, phone
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'holdout-12',
    message: 'when did orders-worker get scaled to 0',
    expect: { at: 44, tolerance: 3 },
  },
  // voice: VP of engineering
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'holdout-12',
    earlier: ['When was orders-worker scaled down to zero?'],
    message: 'Who made that change? I need a name for the incident report.',
    expect: { cannot: true },
  },

  // checkout-slow-partner-bank
  // voice: VP of engineering
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'holdout-12',
    message: 'For the exec summary: how slow is checkout for customers right now (p99, in seconds), and since when?',
    expect: {
      all: [
        { number: 'histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{job="checkout"}[5m])))', tolerance: 0.2 },
        { at: 37, tolerance: 3 },
      ],
    },
  },
  // voice: on-call, phone
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'holdout-12',
    earlier: ['checkout slow, y'],
    message: 'avg partner-bank call time from payments rn?',
    expect: {
      number:
        'sum(rate(http_client_request_duration_seconds_sum{job="payments", peer="partner-bank"}[5m])) / sum(rate(http_client_request_duration_seconds_count{job="payments", peer="partner-bank"}[5m]))',
      tolerance: 0.2,
    },
  },
  // voice: VP of engineering
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'holdout-12',
    message: 'Is fraud-guard in the checkout path, and is it slow too?',
    expect: { asks: true },
  },

  // recommendations-cpu-throttled
  // voice: release / QA
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'holdout-12',
    message: 'recommendations rolled ~40 min ago with no version bump. what cpu limit do the new pods have?',
    expect: { number: 'max(kube_pod_container_resource_limits{container="recommendations", resource="cpu"})', tolerance: 0.1 },
  },
  // voice: on-call, phone
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'holdout-12',
    message: 'recs throttling % rn',
    expect: {
      number:
        'sum(increase(container_cpu_cfs_throttled_periods_total{container="recommendations"}[5m])) / sum(increase(container_cpu_cfs_periods_total{container="recommendations"}[5m]))',
      tolerance: 0.2,
    },
  },
  // voice: VP of engineering
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'holdout-12',
    message: "Over the last fifteen minutes, has recommendations' latency been getting better or worse?",
    expect: { direction: 'up' },
  },

  // node-not-ready
  // voice: on-call, phone
  {
    scenario: 'node-not-ready',
    split: 'holdout-12',
    message: 'wich node dropped to notready',
    expect: { contains: ['ip-10-0-3-41'] },
  },
  // voice: on-call, phone
  {
    scenario: 'node-not-ready',
    split: 'holdout-12',
    earlier: ['wich node went notready'],
    message: 'wat pods r on it',
    expect: {
      contains: [
        'cart-d7b5fbc6d-tk7ck',
        'checkout-d5d857bc6-q46wv',
        'frontend-76df58c6b-mwxnk',
        'orders-5b685c77d-kzfcj',
        'payments-dc6776f55-8jj77',
        'search-bdb56cddc-9c86w',
      ],
    },
  },

  // partner-bank-certificate-expired
  // voice: VP of engineering
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'holdout-12',
    message: "Is checkout feeling this payments problem at all? What's checkout's error rate right now?",
    expect: { number: 'sum(rate(http_requests_total{job="checkout", code=~"5.."}[5m])) / sum(rate(http_requests_total{job="checkout"}[5m]))', tolerance: 0.3 },
  },
  // voice: on-call, phone
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'holdout-12',
    message: 'partner bank cert expired wen exactly',
    expect: { at: 35, tolerance: 2 },
  },
  // voice: release / QA
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'holdout-12',
    message: 'anything to roll back on payments? which version r the pods running and did it change in the last 3h',
    expect: { contains: ['1.8.0'] },
  },

  // ordersdb-connections-exhausted
  // voice: DBA
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'holdout-12',
    message: 'ordersdb: total backends connected right now, and how many of them are sitting idle in transaction?',
    expect: {
      all: [
        { number: 'sum(pg_stat_activity_count{server="ordersdb:5432"})', tolerance: 0.1 },
        { number: 'sum(pg_stat_activity_count{server="ordersdb:5432", state="idle in transaction"})', tolerance: 0.1 },
      ],
    },
  },
  // voice: DBA
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'holdout-12',
    earlier: ['How close is ordersdb to max_connections?'],
    message: 'Which application or client address is holding those idle-in-transaction sessions?',
    expect: { cannot: true },
  },
  // voice: release / QA
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'holdout-12',
    earlier: ['orders errors: is it the 2.3.1 rollout?'],
    message: 'what time did 2.3.1 go out, and what time did the orders errors start?',
    expect: {
      all: [
        { at: 46, tolerance: 3 },
        { at: 40, tolerance: 3 },
      ],
    },
  },

  // sessions-redis-down-flapping-alert
  // voice: DBA
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'holdout-12',
    message: 'sessions-redis: what time did the server itself stop responding? the exporter looks alive to me',
    expect: { at: 36, tolerance: 3 },
  },
  // voice: DBA
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'holdout-12',
    message: 'Is sessions-redis-replica still serving reads, or did it go down together with the primary?',
    expect: { asks: true },
  },
  // voice: DBA
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'holdout-12',
    earlier: ['When did sessions-redis go down?'],
    message: 'How much memory was it using just before that?',
    expect: { number: 'last_over_time(redis_memory_used_bytes{redis="sessions-redis"}[1h])', tolerance: 0.1 },
  },

  // payments-bad-version-noisy-neighbour
  // voice: release / QA
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'holdout-12',
    message: 'payments 1.9.0: fully rolled out or partial? pods and nodes please',
    expect: { podsOf: { workload: 'payments', version: '1.9.0' } },
  },
  // voice: release / QA
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'holdout-12',
    message: 'did 1.9.0 move payments latency too, or only errors? whats the p99 now',
    expect: { number: 'histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{job="payments"}[5m])))', tolerance: 0.2 },
  },
  // voice: on-call, phone
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'holdout-12',
    message: 'how pegged is the node ledger-reconcile runs on, cpu %',
    expect: { number: '1 - avg(rate(node_cpu_seconds_total{mode="idle", node="ip-10-0-3-41.eu-west-1.compute.internal"}[5m]))', tolerance: 0.1 },
  },

  // checkout-memory-limit-lowered
  // voice: release / QA
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'holdout-12',
    message: 'checkout rolled out ~40m ago. new build or same one? version on the pods + the memory limit they run with now',
    expect: {
      all: [{ contains: ['2.14.3'] }, { number: 'max(kube_pod_container_resource_limits{container="checkout", resource="memory"})', tolerance: 0.1 }],
    },
  },
  // voice: VP of engineering
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'holdout-12',
    message: 'How many times have the checkout containers restarted since this began? Just the number.',
    expect: { number: 'sum(kube_pod_container_status_restarts_total{container="checkout"})', tolerance: 0.2 },
  },
  // voice: on-call, phone
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'holdout-12',
    earlier: ['checkout pods crashlooping?'],
    message: 'y tho, oom or app crash',
    expect: { contains: ['OOMKilled'] },
  },

  // ledger-volume-full-chronic-mount
  // voice: DBA
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'holdout-12',
    message: "ledger's data volume: which claim filled up, and at what time did it reach zero free space?",
    expect: { all: [{ contains: ['data-ledger'] }, { at: 36, tolerance: 3 }] },
  },
  // voice: DBA
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'holdout-12',
    earlier: ['Which volume filled up on the ledger node?'],
    message: 'How many ledger writes have failed over the last 30 minutes?',
    expect: { number: 'sum(increase(http_requests_total{job="ledger", route="/api/ledger/entries", code=~"5.."}[30m]))', tolerance: 0.2 },
  },

  // accounts-pool-exhausted-harmless-rollout
  // voice: DBA
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'holdout-12',
    message: 'accounts HikariPool-1, per pod: how many connections are in use, and how many threads are queued waiting for one?',
    expect: {
      all: [
        { number: 'max(hikaricp_connections_active{job="accounts"})', tolerance: 0.1 },
        { number: 'max(hikaricp_connections_pending{job="accounts"})', tolerance: 0.15 },
      ],
    },
  },
  // voice: DBA
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'holdout-12',
    message: 'Is accountsdb itself under pressure? How many connections does postgres report right now?',
    expect: { number: 'sum(pg_stat_activity_count{server="accountsdb:5432"})', tolerance: 0.15 },
  },
  // voice: release / QA
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'holdout-12',
    earlier: ['did accounts 1.4.1 cause this?'],
    message: 'when did 1.4.1 finish rolling out?',
    expect: { at: 46, tolerance: 3 },
  },

  // cart-liveness-slow-redis
  // voice: DBA
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'holdout-12',
    message: "What's the average latency of cart's calls to sessions-redis right now?",
    expect: {
      number:
        'sum(rate(http_client_request_duration_seconds_sum{job="cart", peer="sessions-redis"}[5m])) / sum(rate(http_client_request_duration_seconds_count{job="cart", peer="sessions-redis"}[5m]))',
      tolerance: 0.2,
    },
  },
  // voice: DBA
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'holdout-12',
    earlier: ['Why does cart keep restarting?'],
    message: 'When did sessions-redis get slow, and is the redis server itself still up?',
    expect: { all: [{ at: 38, tolerance: 3 }, { contains: ['sessions-redis'] }] },
  },

  // inventory-liveness-unexplained
  // voice: release / QA
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'holdout-12',
    message: 'inventory keeps restarting — did a deploy go out? which version is it on, and has that changed in the last 3h?',
    expect: { contains: ['3.0.7'] },
  },
  // voice: VP of engineering
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'holdout-12',
    message: 'Give me one number: inventory container restarts over the last 30 minutes.',
    expect: { number: 'sum(increase(kube_pod_container_status_restarts_total{container="inventory"}[30m]))', tolerance: 0.2 },
  },
  // voice: on-call, phone
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'holdout-12',
    message: 'can u grab a thread dump from one of the inv pods? wanna see what its stuck on',
    expect: { cannot: true },
  },

  // search-noisy-neighbour
  // voice: release / QA
  {
    scenario: 'search-noisy-neighbour',
    split: 'holdout-12',
    message: 'is the p99 regression on both search pods or just one? which pod, which node',
    expect: { contains: ['search-878b86fb7-m9xrk', 'ip-10-0-2-34'] },
  },
  // voice: on-call, phone
  {
    scenario: 'search-noisy-neighbour',
    split: 'holdout-12',
    earlier: ['which search pod is slow'],
    message: 'whats hogging cpu on that box',
    expect: { contains: ['video-transcode'] },
  },
  // voice: VP of engineering
  {
    scenario: 'search-noisy-neighbour',
    split: 'holdout-12',
    message: 'Current search p99 in seconds, and is it recovering or holding steady?',
    expect: {
      all: [
        { number: 'histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{job="search"}[5m])))', tolerance: 0.2 },
        { direction: 'about the same' },
      ],
    },
  },

  // billing-timeout-config-change
  // voice: release / QA
  {
    scenario: 'billing-timeout-config-change',
    split: 'holdout-12',
    message: 'nothing was deployed to billing afaik — what minute did its 504s start?',
    expect: { at: 36, tolerance: 3 },
  },
  // voice: VP of engineering
  {
    scenario: 'billing-timeout-config-change',
    split: 'holdout-12',
    message: 'Billing: what fraction of its requests are failing at this moment?',
    expect: { number: 'sum(rate(http_requests_total{job="billing", code=~"5.."}[5m])) / sum(rate(http_requests_total{job="billing"}[5m]))', tolerance: 0.15 },
  },
  // voice: on-call, phone
  {
    scenario: 'billing-timeout-config-change',
    split: 'holdout-12',
    earlier: ['billing 504s since wen'],
    message: 'who pushed that timeout change',
    expect: { contains: ['grace'] },
  },

  // archive-down-reported-deploy-red-herring
  // voice: release / QA
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'holdout-12',
    message: 'statements-static deploy vs the failures: what time did that deploy land, and when did statements start erroring?',
    expect: {
      all: [
        { at: 48, tolerance: 3 },
        { at: 36, tolerance: 3 },
      ],
    },
  },
  // voice: VP of engineering
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'holdout-12',
    message: 'What share of statements requests are failing right now?',
    expect: {
      number: 'sum(rate(http_requests_total{job="statements", code=~"5.."}[5m])) / sum(rate(http_requests_total{job="statements"}[5m]))',
      tolerance: 0.15,
    },
  },
];
