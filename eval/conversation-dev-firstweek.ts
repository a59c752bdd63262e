/**
 * Development conversation questions (the firstweek batch); they may be tuned on.
 * Voices: a new SRE in their first week (full sentences, sometimes the wrong term); a database-minded engineer who suspects the datastore first; an incident commander running the call (short status checks); the developer who shipped the latest change (defensive).
 */
import type { QuestionCase } from './conversation-cases';

export const FIRSTWEEK_DEV_CASES: QuestionCase[] = [
  // checkout-bad-version
  // voice: developer who shipped the change
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    message: "2.15.0 is mine but i doubt it's the culprit, old pods probably error too. which pods are actually running 2.15.0 and on what nodes?",
    expect: { podsOf: { workload: 'checkout', version: '2.15.0' } },
  },
  // voice: incident commander
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    message: 'checkout 5xx ratio rn?',
    expect: {
      number: 'sum(rate(http_requests_total{job="checkout",code=~"5.."}[5m])) / sum(rate(http_requests_total{job="checkout"}[5m]))',
      tolerance: 0.1,
    },
  },
  // voice: new SRE
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    message:
      "I'm putting together the timeline for my first postmortem. At what time did checkout start returning errors? Not when the alert fired, when the errors actually began.",
    expect: { at: 38, tolerance: 3 },
  },

  // search-slow-version-chronic-alert
  // voice: new SRE
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'dev',
    message: 'Sorry if this is a basic question, but which version of search is deployed right now, and at what time did that version get rolled out?',
    expect: { all: [{ contains: ['3.3.0'] }, { at: 40, tolerance: 3 }] },
  },
  // voice: developer who shipped the change
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'dev',
    message:
      'before everyone piles on 3.3.0: CPUThrottlingHigh has been going off on recommendations all day. what share of its CFS periods are throttled right now, both pods together?',
    expect: {
      number:
        'sum(increase(container_cpu_cfs_throttled_periods_total{container="recommendations"}[5m])) / sum(increase(container_cpu_cfs_periods_total{container="recommendations"}[5m]))',
      tolerance: 0.2,
    },
  },
  // voice: incident commander
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'dev',
    earlier: ['search p99 now?'],
    message: 'and an hour ago, before the rollout?',
    expect: {
      number: 'histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{job="search"}[5m] offset 1h)))',
      tolerance: 0.2,
    },
  },

  // inventory-down-harmless-rollout
  // voice: developer who shipped the change
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'dev',
    message: "checkout 2.14.4 is my release and it finished well before any of this. at what time did checkout's calls to inventory start failing?",
    expect: { at: 36, tolerance: 3 },
  },
  // voice: database-minded engineer
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'dev',
    message: 'checkout -> inventory calls: connection refused? how many per second are failing that way right now',
    expect: {
      number: 'sum(rate(http_client_requests_total{job="checkout",peer="inventory",code="connection_refused"}[5m]))',
      tolerance: 0.15,
    },
  },
  // voice: incident commander
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'dev',
    message: 'status of inventory? still down? + checkout error ratio now',
    expect: {
      all: [
        { contains: ['inventory'] },
        {
          number: 'sum(rate(http_requests_total{job="checkout",code=~"5.."}[5m])) / sum(rate(http_requests_total{job="checkout"}[5m]))',
          tolerance: 0.1,
        },
      ],
    },
  },

  // orders-memory-leak-oom
  // voice: new SRE
  {
    scenario: 'orders-memory-leak-oom',
    split: 'dev',
    message:
      'The alert is KubePodRestartingOften on orders and I see OOMKilled in the pod description. How many times did the orders containers restart in the last hour, counting both pods?',
    expect: { number: 'sum(increase(kube_pod_container_status_restarts_total{namespace="shop",container="orders"}[1h]))', tolerance: 0.2 },
  },
  // voice: database-minded engineer
  {
    scenario: 'orders-memory-leak-oom',
    split: 'dev',
    earlier: ['which orders pods got OOMKilled?'],
    message: 'whats the working set of the fattest orders pod right now, in MiB?',
    expect: { number: 'max(container_memory_working_set_bytes{container="orders"})', tolerance: 0.2 },
  },

  // media-disk-full-flapping-alert
  // voice: new SRE
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'dev',
    message:
      'I got paged for FrontendTargetDown first, but I think MediaUploadsFailing is the real one. Which server and which disk partition ran out of space, and when did it fill up?',
    expect: { all: [{ contains: ['ip-10-0-2-34', '/var/lib/media'] }, { at: 37, tolerance: 3 }] },
  },
  // voice: database-minded engineer
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'dev',
    message: 'is the media volume slow as well? what are the read/write IOPS on that disk',
    expect: { cannot: true },
  },
  // voice: incident commander
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'dev',
    earlier: ['whats firing in shop rn'],
    message: 'what fraction of media uploads are failing currently?',
    expect: {
      number:
        'sum(rate(http_requests_total{job="media",route="/api/uploads",code=~"5.."}[5m])) / sum(rate(http_requests_total{job="media",route="/api/uploads"}[5m]))',
      tolerance: 0.1,
    },
  },

  // search-traffic-surge
  // voice: developer who shipped the change
  {
    scenario: 'search-traffic-surge',
    split: 'dev',
    message: "frontend 5.2.1 is mine but it's search that's melting. how many req/s is /api/search taking right now?",
    expect: { number: 'sum(rate(http_requests_total{job="search",route="/api/search"}[5m]))', tolerance: 0.15 },
  },
  // voice: new SRE
  {
    scenario: 'search-traffic-surge',
    split: 'dev',
    message: 'When SearchLatencyHigh fired, did the amount of traffic hitting search go up, go down, or stay flat?',
    expect: { direction: 'up' },
  },

  // cart-config-crashloop
  // voice: new SRE
  {
    scenario: 'cart-config-crashloop',
    split: 'dev',
    message: 'A teammate said a ConfigMap was edited just before cart began crash looping. Which ConfigMap was it?',
    expect: { contains: ['cart-config'], excludes: ['frontend-config'] },
  },
  // voice: developer who shipped the change
  {
    scenario: 'cart-config-crashloop',
    split: 'dev',
    message: "haven't shipped cart in a week so this isn't a release. which cart pod is crashlooping and what image tag is it running",
    expect: { contains: ['CrashLoopBackOff', '4.1.2'] },
  },
  // voice: incident commander
  {
    scenario: 'cart-config-crashloop',
    split: 'dev',
    earlier: ['which of the cart pods is crashlooping?'],
    message: 'restart count on it so far?',
    expect: { number: 'sum(kube_pod_container_status_restarts_total{container="cart"})', tolerance: 0.2 },
  },

  // orders-worker-scaled-to-zero
  // voice: incident commander
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'dev',
    message: 'orders queue backlog — how many msgs ready?',
    expect: { number: 'rabbitmq_queue_messages_ready{queue="orders"}', tolerance: 0.15 },
  },
  // voice: new SRE
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'dev',
    earlier: ['Why is QueueMessagesStale firing?'],
    message: 'Which deployment is supposed to consume the orders queue, and is it running at the moment?',
    expect: { contains: ['orders-worker'] },
  },
  // voice: database-minded engineer
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'dev',
    message: "how's the order svc's db side looking? conns, latency",
    expect: { asksFirst: 'orders' },
  },

  // checkout-slow-partner-bank
  // voice: database-minded engineer
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    message: "p99 of payments' outbound calls to partner-bank right now?",
    expect: {
      number: 'histogram_quantile(0.99, sum by (le) (rate(http_client_request_duration_seconds_bucket{job="payments",peer="partner-bank"}[5m])))',
      tolerance: 0.2,
    },
  },
  // voice: developer who shipped the change
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    message: "checkout is slow because it's waiting on payments, not because of anything in checkout. what's the p99 of checkout's calls to payments now?",
    expect: {
      number: 'histogram_quantile(0.99, sum by (le) (rate(http_client_request_duration_seconds_bucket{job="checkout",peer="payments"}[5m])))',
      tolerance: 0.2,
    },
  },
  // voice: incident commander
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    message: 'checkout p99 now, and when did it go bad?',
    expect: {
      all: [
        { number: 'histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{job="checkout"}[5m])))', tolerance: 0.2 },
        { at: 37, tolerance: 3 },
      ],
    },
  },

  // recommendations-cpu-throttled
  // voice: developer who shipped the change
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'dev',
    message: 'recs latency is up but nobody released a new recommendations build today. what version are its pods on?',
    expect: { contains: ['0.9.4'] },
  },
  // voice: database-minded engineer
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'dev',
    message: "is recommendations waiting on its database? what's its query latency to the db",
    expect: { cannot: true },
  },

  // node-not-ready
  // voice: incident commander
  {
    scenario: 'node-not-ready',
    split: 'dev',
    message: 'which node went away?',
    expect: { contains: ['ip-10-0-3-41'] },
  },
  // voice: new SRE
  {
    scenario: 'node-not-ready',
    split: 'dev',
    message: "I'm still learning to read kube_node_status_condition. At what time did ip-10-0-3-41 become NotReady?",
    expect: { at: 36, tolerance: 3 },
  },
  // voice: developer who shipped the change
  {
    scenario: 'node-not-ready',
    split: 'dev',
    earlier: ['why is frontend throwing 502s?'],
    message: 'right, those 502s are cart timing out, not frontend code. how many frontend->cart calls per second time out now?',
    expect: { number: 'sum(rate(http_client_requests_total{job="frontend",peer="cart",code="timeout"}[5m]))', tolerance: 0.2 },
  },

  // partner-bank-certificate-expired
  // voice: new SRE
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'dev',
    message: "Is the fraud-check service affected by this too? I don't know yet which services depend on partner-bank.",
    expect: { asks: true },
  },
  // voice: database-minded engineer
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'dev',
    message: "partner-bank cert: when did it expire, and what fraction of payments' calls to it fail now?",
    expect: {
      all: [
        { at: 35, tolerance: 2 },
        {
          number:
            'sum(rate(http_client_requests_total{job="payments",peer="partner-bank",code!="200"}[5m])) / sum(rate(http_client_requests_total{job="payments",peer="partner-bank"}[5m]))',
          tolerance: 0.1,
        },
      ],
    },
  },
  // voice: incident commander
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'dev',
    earlier: ["what's paging?"],
    message: 'payments err rate atm?',
    expect: {
      number: 'sum(rate(http_requests_total{job="payments",code=~"5.."}[5m])) / sum(rate(http_requests_total{job="payments"}[5m]))',
      tolerance: 0.1,
    },
  },

  // ordersdb-connections-exhausted
  // voice: database-minded engineer
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'dev',
    message: 'ordersdb — total connections right now vs max_connections?',
    expect: {
      all: [
        { number: 'sum(pg_stat_activity_count{server="ordersdb:5432"})', tolerance: 0.1 },
        { number: 'max(pg_settings_max_connections{server="ordersdb:5432"})', tolerance: 0.1 },
      ],
    },
  },
  // voice: developer who shipped the change
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'dev',
    message: 'orders 2.3.1 changed nothing db related. how many ordersdb connections are sitting idle in transaction right now?',
    expect: { number: 'sum(pg_stat_activity_count{server="ordersdb:5432",state="idle in transaction"})', tolerance: 0.15 },
  },
  // voice: incident commander
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'dev',
    message: 'is reports-export still running?',
    expect: { asks: true },
  },

  // sessions-redis-down-flapping-alert
  // voice: database-minded engineer
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'dev',
    message: 'sessions-redis: at what time did redis_up drop to 0?',
    expect: { at: 36, tolerance: 3 },
  },
  // voice: incident commander
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'dev',
    earlier: ['sessions-redis status?'],
    message: 'how bad is cart now, % of requests erroring?',
    expect: {
      number: 'sum(rate(http_requests_total{job="cart",code=~"5.."}[5m])) / sum(rate(http_requests_total{job="cart"}[5m]))',
      tolerance: 0.1,
    },
  },

  // payments-bad-version-noisy-neighbour
  // voice: developer who shipped the change
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    message: 'ledger-reconcile is hogging a payments node. how many cores does it use right now?',
    expect: { number: 'sum(rate(container_cpu_usage_seconds_total{container="ledger-reconcile"}[5m]))', tolerance: 0.15 },
  },
  // voice: incident commander
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    message: '1.9.0 pods + nodes?',
    expect: { podsOf: { workload: 'payments', version: '1.9.0' } },
  },
  // voice: new SRE
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    message: "Who approved the payments 1.9.0 release? I'd like to ask them what was in it.",
    expect: { cannot: true },
  },

  // checkout-memory-limit-lowered
  // voice: developer who shipped the change
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'dev',
    message: 'checkout 2.14.3 went out days ago, this crashloop is not a new build. right now, what memory limit do the checkout containers have?',
    expect: { number: 'max(kube_pod_container_resource_limits{container="checkout",resource="memory"})', tolerance: 0.1 },
  },
  // voice: new SRE
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'dev',
    message:
      'I see a checkout pod in CrashLoopBackOff. What is the last terminated reason on the checkout containers, and how many reboots have they had in total?',
    expect: {
      all: [{ contains: ['OOMKilled'] }, { number: 'sum(kube_pod_container_status_restarts_total{container="checkout"})', tolerance: 0.25 }],
    },
  },
  // voice: database-minded engineer
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'dev',
    earlier: ['checkout memory limit right now?'],
    message: 'and what was the limit before that rollout?',
    expect: { number: 'max(kube_pod_container_resource_limits{container="checkout",resource="memory"} offset 1h)', tolerance: 0.1 },
  },

  // ledger-volume-full-chronic-mount
  // voice: database-minded engineer
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'dev',
    message: 'ledger throwing 507s on writes — is it the db volume? which PVC is full',
    expect: { contains: ['data-ledger'] },
  },
  // voice: incident commander
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'dev',
    message: 'ledger write failure ratio on /api/ledger/entries now, and which node is ledger on?',
    expect: {
      all: [
        {
          number:
            'sum(rate(http_requests_total{job="ledger",route="/api/ledger/entries",code=~"5.."}[5m])) / sum(rate(http_requests_total{job="ledger",route="/api/ledger/entries"}[5m]))',
          tolerance: 0.1,
        },
        { contains: ['ip-10-0-1-88'] },
      ],
    },
  },
  // voice: new SRE
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'dev',
    earlier: ['Which volume filled up for ledger?'],
    message: 'At what time did it run out of space completely?',
    expect: { at: 36, tolerance: 3 },
  },

  // accounts-pool-exhausted-harmless-rollout
  // voice: database-minded engineer
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'dev',
    message: "hikari on accounts: how many threads are waiting for a connection across both pods, and what's the pool max?",
    expect: {
      all: [
        { number: 'sum(hikaricp_connections_pending{job="accounts"})', tolerance: 0.15 },
        { number: 'max(hikaricp_connections_max{job="accounts"})', tolerance: 0.1 },
      ],
    },
  },
  // voice: developer who shipped the change
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'dev',
    message: "1.4.1 went out nine minutes before the errors and it's a tiny change. which pods run 1.4.1, on which nodes",
    expect: { podsOf: { workload: 'accounts', version: '1.4.1' } },
  },
  // voice: database-minded engineer
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'dev',
    message: 'accounts latency since the pool ran dry — up or down?',
    expect: { direction: 'up' },
  },

  // cart-liveness-slow-redis
  // voice: database-minded engineer
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'dev',
    message: 'cart -> sessions-redis call latency, is it higher than before the restarts began?',
    expect: { direction: 'up' },
  },
  // voice: new SRE
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'dev',
    earlier: ['What does KubePodRestartingOften mean?'],
    message: 'Thanks. How many restarts did cart have in the last 15 minutes, all pods added together?',
    expect: { number: 'sum(increase(kube_pod_container_status_restarts_total{container="cart"}[15m]))', tolerance: 0.2 },
  },

  // inventory-liveness-unexplained
  // voice: developer who shipped the change
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'dev',
    message: 'inventory hasnt been deployed in ages. confirm what version its pods are running?',
    expect: { contains: ['3.0.7'] },
  },
  // voice: incident commander
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'dev',
    message: "what's inventory stuck on? need the thread dump / stack",
    expect: { cannot: true },
  },

  // search-noisy-neighbour
  // voice: new SRE
  {
    scenario: 'search-noisy-neighbour',
    split: 'dev',
    message: 'There are two search pods and only one of them seems slow. Which node is the slow one running on?',
    expect: { contains: ['ip-10-0-2-34'] },
  },
  // voice: developer who shipped the change
  {
    scenario: 'search-noisy-neighbour',
    split: 'dev',
    earlier: ['the slow search pod, which node is it on'],
    message: "so it's a neighbour, not search code. which batch workload is sharing that node with it?",
    expect: { contains: ['video-transcode'] },
  },

  // billing-timeout-config-change
  // voice: developer who shipped the change
  {
    scenario: 'billing-timeout-config-change',
    split: 'dev',
    message: "cfg-8841 just tightened a client timeout, it shouldn't break anything. are billing's calls to ledger actually timing out? how many/s",
    expect: { number: 'sum(rate(http_client_requests_total{job="billing",peer="ledger",code="timeout"}[5m]))', tolerance: 0.15 },
  },
  // voice: new SRE
  {
    scenario: 'billing-timeout-config-change',
    split: 'dev',
    message: "I can't find the deploy history. What change happened right before billing started failing, and at what time was it made?",
    expect: { all: [{ contains: ['150ms'] }, { at: 37, tolerance: 3 }] },
  },

  // archive-down-reported-deploy-red-herring
  // voice: incident commander
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'dev',
    message: 'statements — what share of requests failing at the moment?',
    expect: {
      number: 'sum(rate(http_requests_total{job="statements",code=~"5.."}[5m])) / sum(rate(http_requests_total{job="statements"}[5m]))',
      tolerance: 0.1,
    },
  },
  // voice: database-minded engineer
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'dev',
    message: 'archive is the store statements writes to, right? at what time did archive stop answering?',
    expect: { at: 36, tolerance: 3 },
  },
];
