/**
 * Eighth holdout, set A: questions about the recorded incidents in four voices:
 * - a FinOps / cloud-cost engineer (use against requests and limits, replicas, traffic, over- or under-provisioning),
 * - an auditor / compliance reviewer reconstructing an exact timeline (when, in what order, how long, how many),
 * - an engineer in their first week on call (guessed or half-remembered names, basic questions, apologies),
 * - a vendor's support engineer (database, cache, queue, partner API, node hardware) asking about their own component.
 *
 * Every oracle was checked against the staged scenario (stage.js, a real Prometheus over the
 * scenario's three hours of data): each `number` returns one finite value at the data's end (the value
 * seen is noted beside it), each `at` was read off the staged data in minutes before its end, and each
 * name in a `contains` is written as the staged data writes it.
 */
import type { QuestionCase } from '../conversation-cases';

const split = 'holdout-8' as const;

/** The share of a selection's HTTP requests answered 5xx over the last five minutes. */
const errorRatio = (sel: string): string => `sum(rate(http_requests_total{${sel}, code=~"5.."}[5m])) / sum(rate(http_requests_total{${sel}}[5m]))`;

/** Requests per second of a selection over the last five minutes. */
const requestRate = (sel: string): string => `sum(rate(http_requests_total{${sel}}[5m]))`;

/** The 99th percentile of a selection's server latency over the last five minutes. */
const p99 = (sel: string): string => `histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{${sel}}[5m])))`;

/** CPU cores a container uses, summed over its pods. */
const cpuCores = (container: string): string => `sum(rate(container_cpu_usage_seconds_total{container="${container}"}[5m]))`;

/** A container's CPU use over its CPU limit, summed over its pods. */
const cpuOfLimit = (container: string): string => `${cpuCores(container)} / sum(kube_pod_container_resource_limits{container="${container}", resource="cpu"})`;

/** A node's busy CPU share over the last five minutes. */
const nodeBusy = (node: string): string => `1 - avg(rate(node_cpu_seconds_total{node="${node}", mode="idle"}[5m]))`;

export const EIGHTH_HOLDOUT_QUESTIONS_A: QuestionCase[] = [
  // ---------------------------------------------------------------- checkout-bad-version
  {
    // auditor
    scenario: 'checkout-bad-version',
    split,
    message:
      'For the incident record I need two facts: the time the first checkout pod running 2.15.0 came up, and the number of POST /api/checkout requests that got a 5xx between then and now.',
    expect: {
      all: [
        { at: 38, tolerance: 2 },
        // value seen: 4605
        { number: 'sum(increase(http_requests_total{job="checkout", route="/api/checkout", code=~"5.."}[38m]))', tolerance: 0.15 },
      ],
    },
  },
  {
    // newcomer
    scenario: 'checkout-bad-version',
    split,
    message: 'hi, sorry, first week on call here. which pods are running the new checkout build? and what node is each one on',
    expect: { podsOf: { workload: 'checkout', version: '2.15.0' } },
  },
  {
    // finops
    scenario: 'checkout-bad-version',
    split,
    message: 'checkout runs 3 replicas with a 1 core limit each. how many cores is it actually using right now, all pods together?',
    // value seen: 1.01 (cores)
    expect: { number: cpuCores('checkout'), tolerance: 0.2 },
  },

  // ---------------------------------------------------------------- search-slow-version-chronic-alert
  {
    // finops
    scenario: 'search-slow-version-chronic-alert',
    split,
    message:
      'CPUThrottlingHigh on recommendations has been firing all afternoon. Before I bump its limit: what percentage of its CPU limit is recommendations using, all pods together?',
    // value seen: 0.963
    expect: { number: cpuOfLimit('recommendations'), tolerance: 0.1 },
  },
  {
    // auditor
    scenario: 'search-slow-version-chronic-alert',
    split,
    message: 'Please state when the first search pod on version 3.3.0 started, and the 99th percentile latency of GET /api/search at present.',
    expect: {
      all: [
        { at: 40, tolerance: 2 },
        // value seen: 2.03 (s)
        { number: p99('job="search", route="/api/search"'), tolerance: 0.2 },
      ],
    },
  },
  {
    // newcomer
    scenario: 'search-slow-version-chronic-alert',
    split,
    message: "someone in #eng said search-indexer is behind again?? is it? sorry don't know where to look yet",
    expect: { asks: true },
  },

  // ---------------------------------------------------------------- inventory-down-harmless-rollout
  {
    // auditor
    scenario: 'inventory-down-harmless-rollout',
    split,
    message:
      'I am reconstructing the sequence. Give me the time checkout 2.14.4 started rolling out and the time inventory stopped answering, so I can put them in order.',
    expect: {
      all: [
        { at: 44, tolerance: 2 },
        { at: 36, tolerance: 2 },
      ],
    },
  },
  {
    // newcomer
    scenario: 'inventory-down-harmless-rollout',
    split,
    message: 'sorry if this is obvious - of the calls checkout makes to inventory, what fraction are failing right now?',
    // value seen: 1
    expect: {
      number:
        'sum(rate(http_client_requests_total{job="checkout", peer="inventory", code!="200"}[5m])) / sum(rate(http_client_requests_total{job="checkout", peer="inventory"}[5m]))',
      tolerance: 0.1,
    },
  },

  // ---------------------------------------------------------------- orders-memory-leak-oom
  {
    // finops
    scenario: 'orders-memory-leak-oom',
    split,
    message: "orders pods get a 1 GiB memory limit. what's the biggest working set of any orders pod at the moment?",
    // value seen: 835190994 (bytes, about 797 MiB)
    expect: { number: 'max(container_memory_working_set_bytes{container="orders"})', tolerance: 0.1 },
  },
  {
    // auditor
    scenario: 'orders-memory-leak-oom',
    split,
    message: 'At what time, to the minute, was an orders container OOMKilled for the first time in this incident?',
    // value seen: 40 (first OOMKilled restart, minutes before the end)
    expect: { at: 40, tolerance: 2 },
  },
  {
    // newcomer
    scenario: 'orders-memory-leak-oom',
    split,
    message: 'sorry, dumb question maybe - the page says restarting often. how many restarts has orders had over the last hour, all pods?',
    // value seen: 12
    expect: { number: 'sum(increase(kube_pod_container_status_restarts_total{container="orders"}[1h]))', tolerance: 0.15 },
  },

  // ---------------------------------------------------------------- media-disk-full-flapping-alert
  {
    // vendor: node storage
    scenario: 'media-disk-full-flapping-alert',
    split,
    message:
      'Storage support for the node hardware here. How big is the /var/lib/media filesystem on ip-10-0-2-34, and at what time did its free space hit zero?',
    expect: {
      all: [
        // value seen: 214748364800 (200 GiB); free space 0 from 37 min before the end
        { number: 'max(node_filesystem_size_bytes{mountpoint="/var/lib/media"})', tolerance: 0.1 },
        { at: 37, tolerance: 2 },
      ],
    },
  },
  {
    // finops
    scenario: 'media-disk-full-flapping-alert',
    split,
    message: 'media is only one replica. how much traffic does it take in total, req/s, right now?',
    // value seen: 6.81
    expect: { number: requestRate('job="media"'), tolerance: 0.15 },
  },

  // ---------------------------------------------------------------- search-traffic-surge
  {
    // finops
    scenario: 'search-traffic-surge',
    split,
    message: "we're getting hammered on search. what's /api/search doing in req/s right now, and how much of search's CPU limit is in use across its pods?",
    expect: {
      all: [
        // value seen: 211.5
        { number: requestRate('job="search", route="/api/search"'), tolerance: 0.15 },
        // value seen: 0.994
        { number: cpuOfLimit('search'), tolerance: 0.1 },
      ],
    },
  },
  {
    // auditor
    scenario: 'search-traffic-surge',
    split,
    message: "For the record: compared with an hour ago, is search's CPU usage higher, lower, or unchanged?",
    // value seen: 3.97 cores now against 1.05 an hour before (the surge began 39 min before the end)
    expect: { direction: 'up' },
  },
  {
    // newcomer
    scenario: 'search-traffic-surge',
    split,
    message: 'did somebody deploy search?? which version is search on right now, sorry',
    expect: { contains: ['3.2.1'] },
  },

  // ---------------------------------------------------------------- cart-config-crashloop
  {
    // auditor
    scenario: 'cart-config-crashloop',
    split,
    message: 'When was the cart-config ConfigMap modified, and how many times has the new cart container restarted since?',
    expect: {
      all: [
        { at: 38, tolerance: 2 },
        // value seen: 12 (ConfigMap resource version changed 38 min before the end)
        { number: 'sum(kube_pod_container_status_restarts_total{container="cart"})', tolerance: 0.15 },
      ],
    },
  },
  {
    // newcomer
    scenario: 'cart-config-crashloop',
    split,
    message: 'who changed cart-config, and what exactly did they change in it? want to ping them',
    expect: { cannot: true },
  },

  // ---------------------------------------------------------------- orders-worker-scaled-to-zero
  {
    // vendor: RabbitMQ
    scenario: 'orders-worker-scaled-to-zero',
    split,
    message: 'RabbitMQ support engineer here. From your metrics, how old is the oldest message sitting in the orders queue right now?',
    // value seen: 2641.5 (s)
    expect: { number: 'max(time() - rabbitmq_queue_head_message_timestamp{queue="orders"})', tolerance: 0.1 },
  },
  {
    // vendor: RabbitMQ
    scenario: 'orders-worker-scaled-to-zero',
    split,
    earlier: ['Hi, RabbitMQ support. How many consumers does the orders queue have at the moment?'],
    message: 'And the ready message count in that queue, is it growing or shrinking over the last half hour?',
    // value seen: 11225 ready now, 3363 thirty minutes before, rising steadily since 44 min before the end (ready now vs 30m ago)
    expect: { direction: 'up' },
  },

  // ---------------------------------------------------------------- checkout-slow-partner-bank
  {
    // vendor: partner-bank API
    scenario: 'checkout-slow-partner-bank',
    split,
    message:
      'Partner-bank API team. Our side looks fine to us. What p99 does payments measure on its calls to partner-bank now, and from what time did it start climbing?',
    expect: {
      all: [
        // value seen: 4.69 (s); rising from 37 min before the end
        {
          number: 'histogram_quantile(0.99, sum by (le) (rate(http_client_request_duration_seconds_bucket{job="payments", peer="partner-bank"}[5m])))',
          tolerance: 0.2,
        },
        { at: 37, tolerance: 3 },
      ],
    },
  },
  {
    // finops
    scenario: 'checkout-slow-partner-bank',
    split,
    message: 'reports-batch shares a node with checkout. how many cores is that batch job burning against its 4 core limit?',
    // value seen: 3.53 (cores)
    expect: { number: cpuCores('reports-batch'), tolerance: 0.1 },
  },
  {
    // auditor
    scenario: 'checkout-slow-partner-bank',
    split,
    message: 'What was the mean latency of POST /api/checkout over the last 15 minutes?',
    // value seen: 1.48 (s)
    expect: {
      number:
        'sum(rate(http_request_duration_seconds_sum{job="checkout", route="/api/checkout"}[15m])) / sum(rate(http_request_duration_seconds_count{job="checkout", route="/api/checkout"}[15m]))',
      tolerance: 0.15,
    },
  },

  // ---------------------------------------------------------------- recommendations-cpu-throttled
  {
    // finops
    scenario: 'recommendations-cpu-throttled',
    split,
    message: "looks like someone changed recommendations' CPU limit. what's the limit per pod now, and what share of its CFS periods are getting throttled?",
    expect: {
      all: [
        // value seen: 0.3 (cores)
        { number: 'max(kube_pod_container_resource_limits{container="recommendations", resource="cpu"})', tolerance: 0.05 },
        // value seen: 0.739
        {
          number:
            'sum(rate(container_cpu_cfs_throttled_periods_total{container="recommendations"}[5m])) / sum(rate(container_cpu_cfs_periods_total{container="recommendations"}[5m]))',
          tolerance: 0.15,
        },
      ],
    },
  },
  {
    // newcomer
    scenario: 'recommendations-cpu-throttled',
    split,
    message: "alert says recs is slow. what's the p99 on recommendations right now? (sorry if wrong channel)",
    // value seen: 1.89 (s)
    expect: { number: p99('job="recommendations"'), tolerance: 0.2 },
  },

  // ---------------------------------------------------------------- node-not-ready
  {
    // vendor: node hardware
    scenario: 'node-not-ready',
    split,
    message: 'EC2 support here, following up on your case. Which of your nodes went NotReady, and at what time did it happen?',
    expect: {
      all: [{ contains: ['ip-10-0-3-41.eu-west-1.compute.internal'] }, { at: 36, tolerance: 2 }],
    },
  },
  {
    // newcomer
    scenario: 'node-not-ready',
    split,
    message: "the cart pod that was sitting on the broken node - what's its name? need it for the ticket, sorry",
    expect: { contains: ['cart-d7b5fbc6d-tk7ck'] },
  },
  {
    // finops
    scenario: 'node-not-ready',
    split,
    message: 'what % of frontend requests are failing at the moment?',
    // value seen: 0.151
    expect: { number: errorRatio('job="frontend"'), tolerance: 0.15 },
  },

  // ---------------------------------------------------------------- partner-bank-certificate-expired
  {
    // vendor: partner-bank API
    scenario: 'partner-bank-certificate-expired',
    split,
    message: 'partner-bank here re our cert rotation. according to your blackbox probe, at what time did the certificate on api.partner-bank.example expire?',
    expect: { at: 35, tolerance: 2 },
  },
  {
    // auditor
    scenario: 'partner-bank-certificate-expired',
    split,
    message: 'How many calls from payments to partner-bank have failed since the certificate expired?',
    // value seen: 40075
    expect: {
      number: 'sum(increase(http_client_requests_total{job="payments", peer="partner-bank", code!="200"}[35m]))',
      tolerance: 0.15,
    },
  },
  {
    // finops
    scenario: 'partner-bank-certificate-expired',
    split,
    message: 'finance is asking: how much revenue have we lost from failed payments during this outage?',
    expect: { cannot: true },
  },

  // ---------------------------------------------------------------- ordersdb-connections-exhausted
  {
    // vendor: Postgres
    scenario: 'ordersdb-connections-exhausted',
    split,
    message: "Postgres support. What percentage of ordersdb's max_connections is in use right now, per the exporter?",
    // value seen: 0.995
    expect: {
      number: 'sum(pg_stat_activity_count{server="ordersdb:5432"}) / max(pg_settings_max_connections{server="ordersdb:5432"})',
      tolerance: 0.1,
    },
  },
  {
    // auditor
    scenario: 'ordersdb-connections-exhausted',
    split,
    message: 'Timeline check: when did orders 2.3.1 begin rolling out, and when did orders begin returning errors?',
    expect: {
      all: [
        { at: 46, tolerance: 2 },
        { at: 40, tolerance: 2 },
      ],
    },
  },
  {
    // newcomer
    scenario: 'ordersdb-connections-exhausted',
    split,
    message: 'sorry, not sure how to read the db graph - are the connections on ordersdb going up or down compared to an hour ago?',
    // value seen: 199 connections now against 44 an hour before
    expect: { direction: 'up' },
  },

  // ---------------------------------------------------------------- sessions-redis-down-flapping-alert
  {
    // vendor: Redis
    scenario: 'sessions-redis-down-flapping-alert',
    split,
    message: 'Redis support. Our exporter is still up but reports the instance down. When did redis_up for sessions-redis go to 0?',
    expect: { at: 36, tolerance: 2 },
  },
  {
    // finops
    scenario: 'sessions-redis-down-flapping-alert',
    split,
    message: 'how many req/s is cart serving at the moment, and what share of those fail?',
    expect: {
      all: [
        // value seen: 62.8
        { number: requestRate('job="cart"'), tolerance: 0.15 },
        // value seen: 0.900
        { number: errorRatio('job="cart"'), tolerance: 0.1 },
      ],
    },
  },
  {
    // newcomer
    scenario: 'sessions-redis-down-flapping-alert',
    split,
    message: 'is sessions-memcached down too? cart team told me to check it, sorry',
    expect: { asks: true },
  },

  // ---------------------------------------------------------------- payments-bad-version-noisy-neighbour
  {
    // newcomer
    scenario: 'payments-bad-version-noisy-neighbour',
    split,
    message: 'which payments pods got 1.9.0? and sorry, which nodes are those on',
    expect: { podsOf: { workload: 'payments', version: '1.9.0' } },
  },
  {
    // vendor: node hardware
    scenario: 'payments-bad-version-noisy-neighbour',
    split,
    message: "Hardware vendor support. The node ledger-reconcile runs on: what's its overall CPU utilisation right now?",
    // value seen: 0.98
    expect: { number: nodeBusy('ip-10-0-3-41.eu-west-1.compute.internal'), tolerance: 0.1 },
  },
  {
    // finops
    scenario: 'payments-bad-version-noisy-neighbour',
    split,
    message: 'payments: how many req/s is it taking and what exact share is erroring right now?',
    expect: {
      all: [
        // value seen: 18.7
        { number: requestRate('job="payments"'), tolerance: 0.15 },
        // value seen: 0.200
        { number: errorRatio('job="payments"'), tolerance: 0.15 },
      ],
    },
  },

  // ---------------------------------------------------------------- checkout-memory-limit-lowered
  {
    // finops
    scenario: 'checkout-memory-limit-lowered',
    split,
    message: "checkout's memory limit per pod: what was it an hour ago, and what is it now?",
    expect: {
      all: [
        // value seen: 805306368 (768 MiB)
        { number: 'max(kube_pod_container_resource_limits{container="checkout", resource="memory"} offset 1h)', tolerance: 0.05 },
        // value seen: 335544320 (320 MiB)
        { number: 'max(kube_pod_container_resource_limits{container="checkout", resource="memory"})', tolerance: 0.05 },
      ],
    },
  },
  {
    // auditor
    scenario: 'checkout-memory-limit-lowered',
    split,
    message: 'Across all checkout containers, how many restarts have there been since the limit was changed?',
    // value seen: 27
    expect: { number: 'sum(increase(kube_pod_container_status_restarts_total{container="checkout"}[40m]))', tolerance: 0.15 },
  },

  // ---------------------------------------------------------------- ledger-volume-full-chronic-mount
  {
    // vendor: storage
    scenario: 'ledger-volume-full-chronic-mount',
    split,
    message: 'Storage vendor support. What is the capacity of the data-ledger volume claim, and at what time did it run out of space?',
    expect: {
      all: [
        // value seen: 53687091200 (50 GiB); available 0 from 36 min before the end
        { number: 'max(kubelet_volume_stats_capacity_bytes{persistentvolumeclaim="data-ledger"})', tolerance: 0.05 },
        { at: 36, tolerance: 2 },
      ],
    },
  },
  {
    // finops
    scenario: 'ledger-volume-full-chronic-mount',
    split,
    message: "there's a /var/log/archive mount on the node ledger runs on. how big is that filesystem, in GiB?",
    // value seen: 21474836480 (20 GiB)
    expect: { number: 'max(node_filesystem_size_bytes{mountpoint="/var/log/archive"})', tolerance: 0.05 },
  },

  // ---------------------------------------------------------------- accounts-pool-exhausted-harmless-rollout
  {
    // vendor: Postgres
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split,
    message: 'DBA from the accountsdb side. Is the database anywhere near max_connections? What percentage is in use now?',
    // value seen: 0.137
    expect: {
      number: 'sum(pg_stat_activity_count{server="accountsdb:5432"}) / max(pg_settings_max_connections{server="accountsdb:5432"})',
      tolerance: 0.15,
    },
  },
  {
    // finops
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split,
    message: 'is the accounts connection pool undersized? what % of HikariPool-1 is in use right now across the pods?',
    // value seen: 0.95
    expect: { number: 'sum(hikaricp_connections_active{pool="HikariPool-1"}) / sum(hikaricp_connections_max{pool="HikariPool-1"})', tolerance: 0.1 },
  },
  {
    // auditor
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split,
    message: 'I need the order of events: when did accounts 1.4.1 roll out, and when did accounts start answering with 500s?',
    expect: {
      all: [
        { at: 47, tolerance: 2 },
        { at: 38, tolerance: 2 },
      ],
    },
  },

  // ---------------------------------------------------------------- cart-liveness-slow-redis
  {
    // vendor: Redis
    scenario: 'cart-liveness-slow-redis',
    split,
    message: 'Redis vendor support here. What average latency does cart see on its calls to sessions-redis at the moment?',
    // value seen: 2.33 (s)
    expect: {
      number:
        'sum(rate(http_client_request_duration_seconds_sum{job="cart", peer="sessions-redis"}[5m])) / sum(rate(http_client_request_duration_seconds_count{job="cart", peer="sessions-redis"}[5m]))',
      tolerance: 0.15,
    },
  },
  {
    // auditor
    scenario: 'cart-liveness-slow-redis',
    split,
    message: 'How many cart container restarts have there been in total over the last 30 minutes?',
    // value seen: 99
    expect: { number: 'sum(increase(kube_pod_container_status_restarts_total{container="cart"}[30m]))', tolerance: 0.15 },
  },
  {
    // newcomer
    scenario: 'cart-liveness-slow-redis',
    split,
    message: 'why does cart keep restarting?? is it OOM? sorry, new here',
    expect: { contains: ['sessions-redis'] },
  },

  // ---------------------------------------------------------------- inventory-liveness-unexplained
  {
    // auditor
    scenario: 'inventory-liveness-unexplained',
    split,
    message: 'When did the first inventory container restart happen in this incident?',
    // value seen: 36.5 (first inventory restart, minutes before the end)
    expect: { at: 36.5, tolerance: 2 },
  },
  {
    // vendor: node hardware
    scenario: 'inventory-liveness-unexplained',
    split,
    message: 'Hardware support. The node catalog-sync is on: how busy is its CPU now, as a percentage?',
    // value seen: 0.503
    expect: { number: nodeBusy('ip-10-0-3-41.eu-west-1.compute.internal'), tolerance: 0.15 },
  },
  {
    // newcomer
    scenario: 'inventory-liveness-unexplained',
    split,
    message: 'which line of code in inventory is deadlocking? the dev lead wants to know, sorry',
    expect: { cannot: true },
  },

  // ---------------------------------------------------------------- search-noisy-neighbour
  {
    // vendor: node hardware
    scenario: 'search-noisy-neighbour',
    split,
    message: "AWS support, looking at ip-10-0-2-34. What's its CPU utilisation right now, and which batch workload there uses the most?",
    expect: {
      all: [
        // value seen: 0.98
        { number: nodeBusy('ip-10-0-2-34.eu-west-1.compute.internal'), tolerance: 0.1 },
        { contains: ['video-transcode'] },
      ],
    },
  },
  {
    // finops
    scenario: 'search-noisy-neighbour',
    split,
    message: 'image-resizer - how many cores is it using at the moment?',
    // value seen: 3.82 (cores)
    expect: { number: cpuCores('image-resizer'), tolerance: 0.1 },
  },
  {
    // newcomer
    scenario: 'search-noisy-neighbour',
    split,
    message: "which search pod is the slow one, and what's that pod's p99? sorry if i'm asking wrong",
    expect: {
      all: [
        { contains: ['search-878b86fb7-m9xrk'] },
        // value seen: 2.41 (s)
        { number: p99('job="search", pod="search-878b86fb7-m9xrk"'), tolerance: 0.2 },
      ],
    },
  },

  // ---------------------------------------------------------------- billing-timeout-config-change
  {
    // auditor
    scenario: 'billing-timeout-config-change',
    split,
    message: "For the audit trail: when was cfg-8841 applied, and when did billing's 504s begin?",
    expect: {
      all: [
        { at: 37, tolerance: 2 },
        { at: 36, tolerance: 2 },
      ],
    },
  },
  {
    // finops
    scenario: 'billing-timeout-config-change',
    split,
    message: 'billing has 2 pods at 1 core limit each; what % of that CPU limit is it actually using? wondering if we can shrink it',
    // value seen: 0.214
    expect: { number: cpuOfLimit('billing'), tolerance: 0.2 },
  },

  // ---------------------------------------------------------------- archive-down-reported-deploy-red-herring
  {
    // auditor
    scenario: 'archive-down-reported-deploy-red-herring',
    split,
    message: 'Two timestamps for the report: the statements deploy that was reported, and archive going down.',
    expect: {
      all: [
        { at: 48, tolerance: 2 },
        { at: 36, tolerance: 2 },
      ],
    },
  },
  {
    // newcomer
    scenario: 'archive-down-reported-deploy-red-herring',
    split,
    message: "what's the error rate on statement? (statements? sorry not sure of the exact name)",
    // value seen: 0.601
    expect: { number: errorRatio('job="statements"'), tolerance: 0.15 },
  },
];
