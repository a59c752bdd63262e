/**
 * Development conversation questions (the takeover batch); they may be tuned on.
 * Voices: an SRE in another time zone taking over mid-incident; a product manager asking about impact in plain words; a platform engineer on nodes, pods, containers, limits and restarts; a curious engineer asking "why" chains as follow-ups.
 */
import type { QuestionCase } from './conversation-cases';

export const TAKEOVER_DEV_CASES: QuestionCase[] = [
  // checkout-bad-version
  // voice: SRE taking over
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    message: 'morning from sydney, picking up CheckoutHighErrorRate from the EU shift. what version of checkout is out there now and when did it roll?',
    expect: { all: [{ contains: ['2.15.0'] }, { at: 38, tolerance: 3 }] },
  },
  // voice: product manager
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    message: 'how many checkouts are failing per second right now? need a number for the status page',
    expect: { number: 'sum(rate(http_requests_total{job="checkout",route="/api/checkout",code=~"5.."}[5m]))', tolerance: 0.2 },
  },
  // voice: platform engineer
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    message: 'which checkout pods are running 2.15.0 and what nodes did they land on',
    expect: { podsOf: { workload: 'checkout', version: '2.15.0' } },
  },

  // search-slow-version-chronic-alert
  // voice: curious engineer
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'dev',
    earlier: ['why is the search latency high?'],
    message: "ok and why's CPUThrottlingHigh going off in the same group? which workload is that even on",
    expect: { contains: ['recommendations'] },
  },
  // voice: product manager
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'dev',
    message: 'has search gotten slower for people? whats the p99 now',
    expect: {
      all: [
        { direction: 'up' },
        { number: 'histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{job="search"}[5m])))', tolerance: 0.2 },
      ],
    },
  },

  // inventory-down-harmless-rollout
  // voice: SRE taking over
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'dev',
    message: 'just inherited this one. handover says checkout 2.14.4 went out and then inventory fell over - since when exactly has inventory been down?',
    expect: { at: 36, tolerance: 3 },
  },
  // voice: curious engineer
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'dev',
    earlier: ['why is checkout throwing errors?'],
    message: 'why cant checkout talk to inventory tho, what error do those calls get back',
    expect: { contains: ['connection_refused'] },
  },
  // voice: product manager
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'dev',
    message: 'what percentage of checkout requests are failing at the moment?',
    expect: {
      number: 'sum(rate(http_requests_total{job="checkout",code=~"5.."}[5m])) / sum(rate(http_requests_total{job="checkout"}[5m]))',
      tolerance: 0.15,
    },
  },

  // orders-memory-leak-oom
  // voice: product manager
  {
    scenario: 'orders-memory-leak-oom',
    split: 'dev',
    message: 'in plain terms, how many times has the orders service crashed in the last hour?',
    expect: { number: 'sum(increase(kube_pod_container_status_restarts_total{namespace="shop",container="orders"}[1h]))', tolerance: 0.15 },
  },
  // voice: platform engineer
  {
    scenario: 'orders-memory-leak-oom',
    split: 'dev',
    message: 'whats the memory limit set on the orders containers',
    expect: { number: 'max(kube_pod_container_resource_limits{container="orders",resource="memory"})', tolerance: 0.1 },
  },
  // voice: curious engineer
  {
    scenario: 'orders-memory-leak-oom',
    split: 'dev',
    earlier: ['why do orders pods keep restarting?', 'why are they running out of memory?'],
    message: 'and what set that off - when did the memory first start creeping up?',
    expect: { at: 75, tolerance: 5 },
  },

  // media-disk-full-flapping-alert
  // voice: SRE taking over
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'dev',
    message:
      'taking over from day shift, both FrontendTargetDown and MediaUploadsFailing are open in the same group. are they the same problem? which node and which mount is involved in the uploads one',
    expect: { contains: ['ip-10-0-2-34', '/var/lib/media'] },
  },
  // voice: product manager
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'dev',
    message: 'what share of photo uploads are failing for users right now?',
    expect: {
      number:
        'sum(rate(http_requests_total{job="media",route="/api/uploads",code=~"5.."}[5m])) / sum(rate(http_requests_total{job="media",route="/api/uploads"}[5m]))',
      tolerance: 0.15,
    },
  },
  // voice: platform engineer
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'dev',
    message: 'how big is the /var/lib/media filesystem on that node, and at what time did it hit zero free?',
    expect: {
      all: [
        { number: 'node_filesystem_size_bytes{mountpoint="/var/lib/media"}', tolerance: 0.1 },
        { at: 37, tolerance: 3 },
      ],
    },
  },

  // search-traffic-surge
  // voice: product manager
  {
    scenario: 'search-traffic-surge',
    split: 'dev',
    message: 'how many search requests a second are we getting now? feels like way more than a normal morning',
    expect: { number: 'sum(rate(http_requests_total{job="search",route="/api/search"}[5m]))', tolerance: 0.15 },
  },
  // voice: curious engineer
  {
    scenario: 'search-traffic-surge',
    split: 'dev',
    message: 'search p99 is bad. why? is it because traffic to /api/search went up, or something else',
    expect: { direction: 'up' },
  },
  // voice: platform engineer
  {
    scenario: 'search-traffic-surge',
    split: 'dev',
    message: 'search containers: how many cores is the busiest pod actually using right now?',
    expect: { number: 'max(rate(container_cpu_usage_seconds_total{container="search"}[5m]))', tolerance: 0.15 },
  },

  // cart-config-crashloop
  // voice: platform engineer
  {
    scenario: 'cart-config-crashloop',
    split: 'dev',
    message: 'KubePodCrashLooping on cart - which pod is it and what node is it scheduled on?',
    expect: { contains: ['ip-10-0-1-23'] },
  },
  // voice: SRE taking over
  {
    scenario: 'cart-config-crashloop',
    split: 'dev',
    message: "hi, i'm on from the NA side now. what changed just before cart started crash looping? nothing in the handover doc",
    expect: { contains: ['cart-config'] },
  },
  // voice: curious engineer
  {
    scenario: 'cart-config-crashloop',
    split: 'dev',
    earlier: ['why is the new cart pod crash looping?'],
    message: 'ok the configmap edit. which key in it did they break?',
    expect: { cannot: true },
  },

  // orders-worker-scaled-to-zero
  // voice: SRE taking over
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'dev',
    message: 'got handed QueueMessagesStale for the orders queue. how many msgs are sitting in it right now?',
    expect: { number: 'rabbitmq_queue_messages_ready{queue="orders"}', tolerance: 0.15 },
  },
  // voice: curious engineer
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'dev',
    earlier: ['why are messages piling up on the orders queue?'],
    message: 'why does it have no consumers? when did orders-worker go to zero',
    expect: { at: 44, tolerance: 3 },
  },

  // checkout-slow-partner-bank
  // voice: product manager
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    message: 'is paying at checkout slower for shoppers than it was an hour ago?',
    expect: { direction: 'up' },
  },
  // voice: curious engineer
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    earlier: ['checkout p99 is through the roof, why?', 'why would payments be slow though?'],
    message: 'and what is payments itself waiting on?',
    expect: { contains: ['partner-bank'] },
  },
  // voice: platform engineer
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    message: 'that reports-batch job is pinning a box - which node is it on? is a checkout pod sharing it',
    expect: { contains: ['ip-10-0-2-34'] },
  },

  // recommendations-cpu-throttled
  // voice: platform engineer
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'dev',
    message: 'cpu limit on the recommendations containers right now?',
    expect: { number: 'max(kube_pod_container_resource_limits{container="recommendations",resource="cpu"})', tolerance: 0.1 },
  },
  // voice: SRE taking over
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'dev',
    message: 'catching up from APAC - has cfs throttling on recommendations gone up during this, or has it always been like that?',
    expect: { direction: 'up' },
  },
  // voice: curious engineer
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'dev',
    earlier: ['why is recommendations latency up?'],
    message: "why is it suddenly throttled when it wasn't yesterday? when did its cpu limit change",
    expect: { at: 40, tolerance: 3 },
  },

  // node-not-ready
  // voice: SRE taking over
  {
    scenario: 'node-not-ready',
    split: 'dev',
    message: 'taking the pager from berlin. FrontendHighErrorRate - handover mentions a node going away. which node, and what time did it drop?',
    expect: { all: [{ contains: ['ip-10-0-3-41'] }, { at: 36, tolerance: 3 }] },
  },
  // voice: product manager
  {
    scenario: 'node-not-ready',
    split: 'dev',
    message: 'roughly what fraction of website requests are erroring for customers right now',
    expect: {
      number: 'sum(rate(http_requests_total{job="frontend",code=~"5.."}[5m])) / sum(rate(http_requests_total{job="frontend"}[5m]))',
      tolerance: 0.15,
    },
  },
  // voice: platform engineer
  {
    scenario: 'node-not-ready',
    split: 'dev',
    message: 'which cart pod was scheduled on the notready node?',
    expect: { contains: ['cart-d7b5fbc6d-tk7ck'] },
  },

  // partner-bank-certificate-expired
  // voice: SRE taking over
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'dev',
    message: 'coming on shift in SF. PaymentsHighErrorRate - the notes say partner bank cert. at what exact time did that cert expire?',
    expect: { at: 35, tolerance: 2 },
  },
  // voice: curious engineer
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'dev',
    earlier: ['why do payments fail?'],
    message: 'why did nobody renew it? who was supposed to rotate that cert',
    expect: { cannot: true },
  },

  // ordersdb-connections-exhausted
  // voice: SRE taking over
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'dev',
    message:
      'late handover, sorry if this was answered already: how many connections are open on ordersdb right now, and what % of orders requests are failing?',
    expect: {
      all: [
        { number: 'sum(pg_stat_activity_count)', tolerance: 0.1 },
        { number: 'sum(rate(http_requests_total{job="orders",code=~"5.."}[5m])) / sum(rate(http_requests_total{job="orders"}[5m]))', tolerance: 0.15 },
      ],
    },
  },
  // voice: platform engineer
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'dev',
    message: 'where did orders 2.3.1 get scheduled? pods + nodes pls',
    expect: { podsOf: { workload: 'orders', version: '2.3.1' } },
  },
  // voice: product manager
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'dev',
    message: "what's the error rate for order right now?",
    expect: { asksFirst: 'orders' },
  },

  // sessions-redis-down-flapping-alert
  // voice: SRE taking over
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'dev',
    message: 'picking this up mid-way: CartHighErrorRate and FrontendTargetDown both firing. what is cart actually failing on and since when?',
    expect: { all: [{ contains: ['sessions-redis'] }, { at: 36, tolerance: 3 }] },
  },
  // voice: product manager
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'dev',
    message: 'are logins on the auth service broken as well?',
    expect: { asks: true },
  },

  // payments-bad-version-noisy-neighbour
  // voice: platform engineer
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    message: 'ledger-reconcile looks like its eating a whole node. which node, and how many cores does it use?',
    expect: {
      all: [{ contains: ['ip-10-0-3-41'] }, { number: 'sum(rate(container_cpu_usage_seconds_total{container="ledger-reconcile"}[5m]))', tolerance: 0.15 }],
    },
  },
  // voice: product manager
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    message: 'what portion of card payments are failing right now?',
    expect: {
      number: 'sum(rate(http_requests_total{job="payments",code=~"5.."}[5m])) / sum(rate(http_requests_total{job="payments"}[5m]))',
      tolerance: 0.15,
    },
  },
  // voice: curious engineer
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    earlier: ['why do payments fail?'],
    message: 'why only some of them? which pods have 1.9.0 and where do they run',
    expect: { podsOf: { workload: 'payments', version: '1.9.0' } },
  },

  // checkout-memory-limit-lowered
  // voice: platform engineer
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'dev',
    message: 'what memory limit are the checkout containers running with at the moment',
    expect: { number: 'max(kube_pod_container_resource_limits{container="checkout",resource="memory"})', tolerance: 0.1 },
  },
  // voice: curious engineer
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'dev',
    earlier: ['why does checkout keep crashlooping?'],
    message: 'why would it OOM all of a sudden, did they ship a new build? what version are the crashing pods on',
    expect: { contains: ['2.14.3'] },
  },
  // voice: SRE taking over
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'dev',
    message: 'just joined from the tokyo office. how many restarts do the current checkout pods have between them, and whats the last termination reason?',
    expect: { all: [{ number: 'sum(kube_pod_container_status_restarts_total{container="checkout"})', tolerance: 0.15 }, { contains: ['OOMKilled'] }] },
  },

  // ledger-volume-full-chronic-mount
  // voice: SRE taking over
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'dev',
    message: "LedgerWritesFailing — previous oncall thought it's the archive log mount that's been full all night. is it? what's actually full",
    expect: { contains: ['data-ledger'] },
  },
  // voice: platform engineer
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'dev',
    message: 'whats the capacity of the ledger pvc',
    expect: { number: 'kubelet_volume_stats_capacity_bytes{persistentvolumeclaim="data-ledger"}', tolerance: 0.1 },
  },

  // accounts-pool-exhausted-harmless-rollout
  // voice: curious engineer
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'dev',
    earlier: ['why are accounts requests timing out?'],
    message: 'why does the pool run dry so easily - how many connections is it allowed?',
    expect: { number: 'max(hikaricp_connections_max{job="accounts"})', tolerance: 0.1 },
  },
  // voice: platform engineer
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'dev',
    message: 'list the accounts pods on 1.4.1 with their nodes',
    expect: { podsOf: { workload: 'accounts', version: '1.4.1' } },
  },
  // voice: product manager
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'dev',
    message: 'how slow are account pages loading for customers? 99th percentile is fine',
    expect: { number: 'histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{job="accounts"}[5m])))', tolerance: 0.2 },
  },

  // cart-liveness-slow-redis
  // voice: platform engineer
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'dev',
    message: 'how many container restarts has cart had over the last 30 min, all pods together?',
    expect: { number: 'sum(increase(kube_pod_container_status_restarts_total{container="cart"}[30m]))', tolerance: 0.15 },
  },
  // voice: curious engineer
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'dev',
    earlier: ['why do cart containers keep getting restarted?', 'why is the liveness probe failing?'],
    message: 'and what caused that? what is the probe stuck waiting on',
    expect: { contains: ['sessions-redis'] },
  },
  // voice: SRE taking over
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'dev',
    message: "hey, US side here taking over. what's the average latency of cart's calls to sessions-redis now, and when did it go bad?",
    expect: {
      all: [
        {
          number:
            'sum(rate(http_client_request_duration_seconds_sum{job="cart",peer="sessions-redis"}[5m])) / sum(rate(http_client_request_duration_seconds_count{job="cart",peer="sessions-redis"}[5m]))',
          tolerance: 0.15,
        },
        { at: 38, tolerance: 3 },
      ],
    },
  },

  // inventory-liveness-unexplained
  // voice: curious engineer
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'dev',
    earlier: ['why do inventory pods keep restarting?'],
    message: "so the liveness probe fails - what in inventory's code is hanging? which function deadlocks",
    expect: { cannot: true },
  },
  // voice: product manager
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'dev',
    message: 'when did the inventory problems start? need it for the customer update',
    expect: { at: 37, tolerance: 3 },
  },

  // search-noisy-neighbour
  // voice: platform engineer
  {
    scenario: 'search-noisy-neighbour',
    split: 'dev',
    message: 'one search pod is way slower than the other. what node is it on and what else is hogging cpu there?',
    expect: { contains: ['ip-10-0-2-34', 'video-transcode'] },
  },
  // voice: SRE taking over
  {
    scenario: 'search-noisy-neighbour',
    split: 'dev',
    message: 'the handover mentions the thumbnailer cronjob - is that related to SearchLatencyHigh?',
    expect: { asks: true },
  },

  // billing-timeout-config-change
  // voice: product manager
  {
    scenario: 'billing-timeout-config-change',
    split: 'dev',
    message: 'what % of invoice requests are failing, and since when?',
    expect: {
      all: [
        { number: 'sum(rate(http_requests_total{job="billing",code=~"5.."}[5m])) / sum(rate(http_requests_total{job="billing"}[5m]))', tolerance: 0.15 },
        { at: 36, tolerance: 3 },
      ],
    },
  },
  // voice: curious engineer
  {
    scenario: 'billing-timeout-config-change',
    split: 'dev',
    message: 'why did billing start throwing 504s out of nowhere, and who made the change behind it?',
    expect: { contains: ['grace'] },
  },

  // archive-down-reported-deploy-red-herring
  // voice: SRE taking over
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'dev',
    message:
      'handover note says a statements deploy (2026.11.27-1) went out before StatementsHighErrorRate. was that it, or is statements failing on something it calls?',
    expect: { contains: ['archive'] },
  },
  // voice: product manager
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'dev',
    message: 'how many statement requests per second are failing for customers rn',
    expect: { number: 'sum(rate(http_requests_total{job="statements",code=~"5.."}[5m]))', tolerance: 0.2 },
  },
];
