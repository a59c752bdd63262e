/**
 * Held-out conversation questions (tenth holdout, part A), written before the code they score; never copy or tune on them (eval/holdout/README.md).
 * Voices: a front-end performance engineer (user-facing latency, percentiles), a tier-1 support-desk agent relaying tickets, a sceptical staff engineer asking for evidence and alternatives, and an SRE running a live "five whys".
 */
import type { QuestionCase } from '../conversation-cases';

export const TENTH_HOLDOUT_QUESTIONS_A: QuestionCase[] = [
  // checkout-bad-version

  // voice: SRE running a five whys
  {
    scenario: 'checkout-bad-version',
    split: 'holdout-10',
    earlier: ['checkout is paging for errors, why', 'what changed on checkout right before it started'],
    message: 'ok which pods got 2.15.0 and what nodes are they on',
    expect: { podsOf: { workload: 'checkout', version: '2.15.0' } },
  },
  // voice: tier-1 support-desk agent
  {
    scenario: 'checkout-bad-version',
    split: 'holdout-10',
    message: "hi, got a bunch of tickets saying 'payment failed, please try again' at checkout. how many checkout requests are failing per second right now?",
    // 2.21 req/s at the end
    expect: { number: 'sum(rate(http_requests_total{job="checkout", code=~"5.."}[5m]))', tolerance: 0.2 },
  },
  // voice: front-end performance engineer
  {
    scenario: 'checkout-bad-version',
    split: 'holdout-10',
    message: 'is p99 on POST /api/checkout any different since the rollout ~40 min ago vs the hour before it, or is this purely errors',
    // p99 0.78 s over the last 30 min, 0.78 s before the rollout
    expect: { direction: 'about the same' },
  },

  // search-slow-version-chronic-alert

  // voice: front-end performance engineer
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'holdout-10',
    message: 'p95 for /api/search over last 10 min? and when did it start degrading — users say the results page takes ages',
    expect: {
      all: [
        // 0.96 s at the end
        {
          number: 'histogram_quantile(0.95, sum by (le) (rate(http_request_duration_seconds_bucket{job="search", route="/api/search"}[10m])))',
          tolerance: 0.25,
        },
        // search 3.3.0 rolled out 40 minutes before the end
        { at: 40, tolerance: 3 },
      ],
    },
  },
  // voice: sceptical staff engineer
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'holdout-10',
    message: 'before anyone rolls back: which pods are actually on 3.3.0 and on which nodes? i want to see the slow ones are the new ones and not a node thing',
    expect: { podsOf: { workload: 'search', version: '3.3.0' } },
  },

  // inventory-down-harmless-rollout

  // voice: front-end performance engineer
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'holdout-10',
    message:
      "stock badge on product pages just hangs for users. people are saying it's the checkout 2.14.4 deploy — what are checkout's outgoing calls actually failing on?",
    expect: { contains: ['inventory', 'connection_refused'] },
  },
  // voice: tier-1 support-desk agent
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'holdout-10',
    message: "customers can't finish orders, they get 'service unavailable'. is inventory down?? since what time",
    // inventory stops answering 36 minutes before the end
    expect: { at: 36, tolerance: 3 },
  },
  // voice: SRE running a five whys
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'holdout-10',
    earlier: ['why is checkout throwing 503s', 'why do those 503s happen — what is checkout calling that fails'],
    message: 'what fraction of checkout->inventory calls failed in the last 10 min',
    // 1.0 (all connection_refused)
    expect: {
      number:
        'sum(rate(http_client_requests_total{job="checkout", peer="inventory", code!="200"}[10m])) / sum(rate(http_client_requests_total{job="checkout", peer="inventory"}[10m]))',
      tolerance: 0.15,
    },
  },

  // orders-memory-leak-oom

  // voice: SRE running a five whys
  {
    scenario: 'orders-memory-leak-oom',
    split: 'holdout-10',
    earlier: ["what's restarting in shop", 'why do the orders containers keep dying'],
    message: 'how many restarts has orders had in total over the last hour',
    // 12 restarts
    expect: { number: 'sum(increase(kube_pod_container_status_restarts_total{namespace="shop", container="orders"}[1h]))', tolerance: 0.2 },
  },
  // voice: sceptical staff engineer
  {
    scenario: 'orders-memory-leak-oom',
    split: 'holdout-10',
    message: "before i buy 'memory leak': show me the peak working set of any orders container over the last 30 min, and how close that is to its limit",
    // 1.08e9 bytes (the limit is 1 GiB)
    expect: { number: 'max(max_over_time(container_memory_working_set_bytes{namespace="shop", container="orders"}[30m]))', tolerance: 0.15 },
  },
  // voice: tier-1 support-desk agent
  {
    scenario: 'orders-memory-leak-oom',
    split: 'holdout-10',
    message: "customer says the order history page won't load since this morning. is ordres ok?",
    expect: { asksFirst: 'orders' },
  },

  // media-disk-full-flapping-alert

  // voice: tier-1 support-desk agent
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'holdout-10',
    message: "tickets coming in: 'upload failed - insufficient storage' when people add photos. what % of uploads are failing right now?",
    // 0.97
    expect: {
      number:
        'sum(rate(http_requests_total{job="media", route="/api/uploads", code=~"5.."}[5m])) / sum(rate(http_requests_total{job="media", route="/api/uploads"}[5m]))',
      tolerance: 0.15,
    },
  },
  // voice: front-end performance engineer
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'holdout-10',
    message: 'first page was FrontendTargetDown so we were all staring at frontend latency. is that even related? which node / mount is out of space',
    expect: { contains: ['ip-10-0-2-34', '/var/lib/media'] },
  },

  // search-traffic-surge

  // voice: front-end performance engineer
  {
    scenario: 'search-traffic-surge',
    split: 'holdout-10',
    message: 'search p99 on /api/search for the last 5m? users on the results page are bouncing',
    // 4.55 s
    expect: {
      number: 'histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{job="search", route="/api/search"}[5m])))',
      tolerance: 0.2,
    },
  },
  // voice: sceptical staff engineer
  {
    scenario: 'search-traffic-surge',
    split: 'holdout-10',
    message: 'frontend 5.2.1 went out right before this. is /api/search actually getting more requests than an hour ago, or is search just slower per request?',
    // 212 req/s at the end against 36 req/s an hour before
    expect: { direction: 'up' },
  },
  // voice: SRE running a five whys
  {
    scenario: 'search-traffic-surge',
    split: 'holdout-10',
    earlier: ['why is search slow', "where's all that /api/search traffic coming from, is it real"],
    message: 'and how many cores is search burning in total right now',
    // 3.97 cores (two pods at their 2-core limit)
    expect: { number: 'sum(rate(container_cpu_usage_seconds_total{namespace="shop", container="search"}[5m]))', tolerance: 0.2 },
  },

  // cart-config-crashloop

  // voice: sceptical staff engineer
  {
    scenario: 'cart-config-crashloop',
    split: 'holdout-10',
    message: "cart's version didn't change, so what actually changed right before that pod started crashlooping? show me, not a guess",
    expect: { contains: ['cart-config'] },
  },
  // voice: tier-1 support-desk agent
  {
    scenario: 'cart-config-crashloop',
    split: 'holdout-10',
    message:
      "a customer's developer (they integrate with our api) wants the exact error cart logs when it crashes at startup. can you pull that log line for me?",
    expect: { cannot: true },
  },

  // orders-worker-scaled-to-zero

  // voice: SRE running a five whys
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'holdout-10',
    earlier: ['what is QueueMessagesStale about', 'why does the orders queue have no consumers'],
    message: 'when was orders-worker scaled down',
    // scaled to zero 44 minutes before the end
    expect: { at: 44, tolerance: 2 },
  },
  // voice: tier-1 support-desk agent
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'holdout-10',
    message: "customers say their orders sit on 'processing' forever. how many messages are stuck in the orders queue right now?",
    // 11225 ready messages
    expect: { number: 'sum(rabbitmq_queue_messages_ready{queue="orders"})', tolerance: 0.2 },
  },
  // voice: front-end performance engineer
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'holdout-10',
    message: 'is ordrs-worker even running? the order confirmation page just spins for users',
    expect: { asksFirst: 'orders-worker' },
  },

  // checkout-slow-partner-bank

  // voice: front-end performance engineer
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'holdout-10',
    message: "checkout p99 over the last 15 min, and the p99 of payments' calls to partner-bank over the same 15 min",
    expect: {
      all: [
        // 4.81 s
        { number: 'histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{job="checkout"}[15m])))', tolerance: 0.25 },
        // 4.70 s
        {
          number: 'histogram_quantile(0.99, sum by (le) (rate(http_client_request_duration_seconds_bucket{job="payments", peer="partner-bank"}[15m])))',
          tolerance: 0.25,
        },
      ],
    },
  },
  // voice: sceptical staff engineer
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'holdout-10',
    message: "reports-batch is pinning the cpu on one of the checkout nodes. why shouldn't i just kill it and move on? what's the evidence it's something else",
    expect: { contains: ['partner-bank'] },
  },
  // voice: SRE running a five whys
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'holdout-10',
    earlier: ['why is checkout slow', 'ok payments is slow too — why'],
    message: 'when did partner-bank start answering slowly',
    // from 37 minutes before the end
    expect: { at: 37, tolerance: 3 },
  },

  // recommendations-cpu-throttled

  // voice: sceptical staff engineer
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'holdout-10',
    message: "people keep saying 'throttling'. give me the actual throttled share of CFS periods for recommendations over the last 10 min",
    // 0.75
    expect: {
      number:
        'sum(increase(container_cpu_cfs_throttled_periods_total{namespace="shop", container="recommendations"}[10m])) / sum(increase(container_cpu_cfs_periods_total{namespace="shop", container="recommendations"}[10m]))',
      tolerance: 0.2,
    },
  },
  // voice: front-end performance engineer
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'holdout-10',
    message: 'recs widget feels sluggish. is recommendations p99 up compared to before the rollout ~40 min ago?',
    // p99 1.83 s over the last 10 min against 0.26 s before the rollout
    expect: { direction: 'up' },
  },
  // voice: SRE running a five whys
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'holdout-10',
    earlier: ['why is recommendations slow', 'why is it getting throttled'],
    message: "what's its cpu limit now, and what was it before the rollout",
    expect: {
      all: [
        // 0.3 cores now
        { number: 'max(kube_pod_container_resource_limits{namespace="shop", container="recommendations", resource="cpu"})', tolerance: 0.15 },
        // 1 core on the pods before the rollout
        {
          number: 'max(max_over_time(kube_pod_container_resource_limits{namespace="shop", container="recommendations", resource="cpu"}[1h]))',
          tolerance: 0.15,
        },
      ],
    },
  },

  // node-not-ready

  // voice: tier-1 support-desk agent
  {
    scenario: 'node-not-ready',
    split: 'holdout-10',
    message: 'getting tickets about 502 Bad Gateway on the homepage, on and off. what share of frontend requests failed in the last 15 min?',
    // 0.15
    expect: {
      number: 'sum(rate(http_requests_total{job="frontend", code=~"5.."}[15m])) / sum(rate(http_requests_total{job="frontend"}[15m]))',
      tolerance: 0.2,
    },
  },
  // voice: SRE running a five whys
  {
    scenario: 'node-not-ready',
    split: 'holdout-10',
    earlier: ['why is frontend returning 502s', "why are frontend's calls to cart timing out"],
    message: 'which node was that cart pod on and when did it drop out',
    // the node stops reporting 36 minutes before the end
    expect: { all: [{ contains: ['ip-10-0-3-41'] }, { at: 36, tolerance: 2 }] },
  },
  // voice: sceptical staff engineer
  {
    scenario: 'node-not-ready',
    split: 'holdout-10',
    message:
      "CPUThrottlingHigh on recommendations is firing too so maybe it's that. what fraction of frontend's calls to cart time out over the last 10 min — all of them or a slice?",
    // 0.33 (one cart pod of three)
    expect: {
      number:
        'sum(rate(http_client_requests_total{job="frontend", peer="cart", code="timeout"}[10m])) / sum(rate(http_client_requests_total{job="frontend", peer="cart"}[10m]))',
      tolerance: 0.2,
    },
  },

  // partner-bank-certificate-expired

  // voice: front-end performance engineer
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'holdout-10',
    message: "our payment step graphs go weird at some point this hour — when exactly did partner-bank's cert expire?",
    // probe_ssl_earliest_cert_expiry of api.partner-bank.example: 35 minutes before the end
    expect: { at: 35, tolerance: 2 },
  },
  // voice: tier-1 support-desk agent
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'holdout-10',
    message: 'merchants writing in that every card payment gets declined. what % of payments requests failed over the last 15 min?',
    // 0.97
    expect: {
      number: 'sum(rate(http_requests_total{job="payments", code=~"5.."}[15m])) / sum(rate(http_requests_total{job="payments"}[15m]))',
      tolerance: 0.15,
    },
  },

  // ordersdb-connections-exhausted

  // voice: SRE running a five whys
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'holdout-10',
    earlier: ['why is orders erroring', "why can't orders get db connections"],
    message: 'how many connections does ordersdb have open now vs max_connections',
    expect: {
      all: [
        // 199 connections
        { number: 'sum(pg_stat_activity_count)', tolerance: 0.15 },
        // max_connections 200
        { number: 'max(pg_settings_max_connections)', tolerance: 0.15 },
      ],
    },
  },
  // voice: tier-1 support-desk agent
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'holdout-10',
    message: "customers can't place orders. someone on the team says it's the orders 2.3.1 deploy from earlier — is it that or something else?",
    expect: { contains: ['ordersdb'] },
  },

  // sessions-redis-down-flapping-alert

  // voice: tier-1 support-desk agent
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'holdout-10',
    message: "lots of tickets 'my cart is empty' / 'something went wrong'. what's cart's error rate right now?",
    // 0.90
    expect: { number: 'sum(rate(http_requests_total{job="cart", code=~"5.."}[5m])) / sum(rate(http_requests_total{job="cart"}[5m]))', tolerance: 0.15 },
  },
  // voice: sceptical staff engineer
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'holdout-10',
    message: 'the redis exporter target shows up=1, so redis is fine, right? then what else explains cart failing',
    expect: { contains: ['sessions-redis'] },
  },
  // voice: front-end performance engineer
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'holdout-10',
    message: 'when did cart start failing? our RUM shows add-to-cart success falling off a cliff sometime this hour',
    // 36 minutes before the end
    expect: { at: 36, tolerance: 2 },
  },

  // payments-bad-version-noisy-neighbour

  // voice: SRE running a five whys
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'holdout-10',
    earlier: ['why are payments failing', 'what was deployed to payments'],
    message: 'which pods are on 1.9.0 and where do they run',
    expect: { podsOf: { workload: 'payments', version: '1.9.0' } },
  },
  // voice: sceptical staff engineer
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'holdout-10',
    message:
      'ledger-reconcile is hammering one of the payments nodes. before we blame it: are the errors only on the payments pod that shares that node, or on both?',
    expect: { contains: ['1.9.0'] },
  },
  // voice: front-end performance engineer
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'holdout-10',
    message: "what's the p99 on loyalty-api? users say the points widget on the payment page hangs",
    expect: { asks: true },
  },

  // checkout-memory-limit-lowered

  // voice: tier-1 support-desk agent
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'holdout-10',
    message: "customers can't check out. someone in the support channel said devs pushed a new checkout version — what version are the crashing pods on?",
    expect: { contains: ['2.14.3'] },
  },
  // voice: SRE running a five whys
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'holdout-10',
    earlier: ['why is checkout crashlooping', 'why are the new pods OOMKilled'],
    message: "what's the memory limit on the new pods, and what was it on the old ones",
    expect: {
      all: [
        // 320 MiB now
        { number: 'max(kube_pod_container_resource_limits{namespace="shop", container="checkout", resource="memory"})', tolerance: 0.15 },
        // 768 MiB on the pods before the rollout
        { number: 'max(max_over_time(kube_pod_container_resource_limits{namespace="shop", container="checkout", resource="memory"}[1h]))', tolerance: 0.15 },
      ],
    },
  },

  // ledger-volume-full-chronic-mount

  // voice: sceptical staff engineer
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'holdout-10',
    message: "/var/log/archive on that same node has had 0 bytes free for hours — why isn't that the answer? what is actually full",
    expect: { contains: ['data-ledger'] },
  },
  // voice: tier-1 support-desk agent
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'holdout-10',
    message: "finance says ledger entries won't save. how full is ledger's data volume right now, in %?",
    // 1.0 (used = capacity)
    expect: {
      number:
        'sum(kubelet_volume_stats_used_bytes{persistentvolumeclaim="data-ledger"}) / sum(kubelet_volume_stats_capacity_bytes{persistentvolumeclaim="data-ledger"})',
      tolerance: 0.15,
    },
  },
  // voice: front-end performance engineer
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'holdout-10',
    message: 'when did ledger writes start failing for users?',
    // the volume is full 36 minutes before the end
    expect: { at: 36, tolerance: 2 },
  },

  // accounts-pool-exhausted-harmless-rollout

  // voice: SRE running a five whys
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'holdout-10',
    earlier: ['why is accounts returning 500s', 'why are requests timing out waiting for a db connection'],
    message: 'how many hikari connections are active right now out of the max, across the accounts pods',
    expect: {
      all: [
        // 19-20 active connections (noise)
        { number: 'sum(hikaricp_connections_active{job="accounts"})', tolerance: 0.15 },
        // 20 max (10 per pod)
        { number: 'sum(hikaricp_connections_max{job="accounts"})', tolerance: 0.15 },
      ],
    },
  },
  // voice: sceptical staff engineer
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'holdout-10',
    message: "accounts 1.4.1 went out 9 min before the errors. why isn't it the deploy? and is accountsdb itself maxed out or not",
    expect: { contains: ['HikariPool-1'] },
  },
  // voice: front-end performance engineer
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'holdout-10',
    message: 'p99 of GET /api/accounts/{id} over the last 10 minutes? the account page feels frozen',
    // 1.66 s
    expect: {
      number: 'histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{job="accounts", route="/api/accounts/{id}"}[10m])))',
      tolerance: 0.25,
    },
  },

  // cart-liveness-slow-redis

  // voice: SRE running a five whys
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'holdout-10',
    earlier: ['why is cart restarting', "why are cart's liveness probes failing"],
    message: "what's the median latency of cart's calls to sessions-redis over the last 5 min",
    // 2.07 s
    expect: {
      number: 'histogram_quantile(0.5, sum by (le) (rate(http_client_request_duration_seconds_bucket{job="cart", peer="sessions-redis"}[5m])))',
      tolerance: 0.25,
    },
  },
  // voice: sceptical staff engineer
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'holdout-10',
    message: "CPUThrottlingHigh has been firing for hours on recommendations. could that be what's killing cart? if not, show me what else it would be",
    expect: { contains: ['sessions-redis'] },
  },
  // voice: tier-1 support-desk agent
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'holdout-10',
    message: 'customers keep losing their basket. how many times did the cart containers restart in the last 15 min?',
    // 48 restarts
    expect: { number: 'sum(increase(kube_pod_container_status_restarts_total{namespace="shop", container="cart"}[15m]))', tolerance: 0.2 },
  },

  // inventory-liveness-unexplained

  // voice: sceptical staff engineer
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'holdout-10',
    message: 'catalog-sync is bursting on ip-10-0-3-41 right next to an inventory pod. is that node actually cpu-starved? how busy is it right now',
    // 0.50
    expect: { number: '1 - avg(rate(node_cpu_seconds_total{mode="idle", node="ip-10-0-3-41.eu-west-1.compute.internal"}[5m]))', tolerance: 0.2 },
  },
  // voice: tier-1 support-desk agent
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'holdout-10',
    message: "stock shows 'unavailable' for customers. the devs are asking what inventory's threads are stuck on when it hangs — which lock is it?",
    expect: { cannot: true },
  },

  // search-noisy-neighbour

  // voice: front-end performance engineer
  {
    scenario: 'search-noisy-neighbour',
    split: 'holdout-10',
    message: "per-pod p99 for search over the last 10m — what's the worst pod at?",
    // 2.41 s (the search pod on ip-10-0-2-34)
    expect: {
      number: 'max(histogram_quantile(0.99, sum by (pod, le) (rate(http_request_duration_seconds_bucket{job="search"}[10m]))))',
      tolerance: 0.25,
    },
  },
  // voice: sceptical staff engineer
  {
    scenario: 'search-noisy-neighbour',
    split: 'holdout-10',
    message: 'image-resizer is also pinning a node at ~4 cores. why would you pick one batch job over the other? evidence please',
    expect: { contains: ['video-transcode'] },
  },
  // voice: SRE running a five whys
  {
    scenario: 'search-noisy-neighbour',
    split: 'holdout-10',
    earlier: ['why is search slow', 'why is only one of the search pods slow'],
    message: "how busy is ip-10-0-2-34's cpu right now",
    // 0.98
    expect: { number: '1 - avg(rate(node_cpu_seconds_total{mode="idle", node="ip-10-0-2-34.eu-west-1.compute.internal"}[5m]))', tolerance: 0.15 },
  },

  // billing-timeout-config-change

  // voice: SRE running a five whys
  {
    scenario: 'billing-timeout-config-change',
    split: 'holdout-10',
    earlier: ['why is billing failing', "why are billing's calls timing out"],
    message: 'what changed, and when?',
    // the config push cfg-8841 (ledger client timeout) 37 minutes before the end
    expect: { all: [{ at: 37, tolerance: 2 }, { contains: ['ledger'] }] },
  },
  // voice: tier-1 support-desk agent
  {
    scenario: 'billing-timeout-config-change',
    split: 'holdout-10',
    message: "customers say their invoices aren't generating. what fraction of billing's POST /api/invoices failed in the last 15 minutes?",
    // 0.20
    expect: {
      number:
        'sum(rate(http_requests_total{job="billing", route="/api/invoices", code=~"5.."}[15m])) / sum(rate(http_requests_total{job="billing", route="/api/invoices"}[15m]))',
      tolerance: 0.2,
    },
  },

  // archive-down-reported-deploy-red-herring

  // voice: sceptical staff engineer
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'holdout-10',
    message: "the statements-static deploy went out 12 min before the errors. prove to me it's not that",
    expect: { contains: ['archive'] },
  },
  // voice: front-end performance engineer
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'holdout-10',
    message: 'statements error ratio over the last 10 min? the statements page is failing for a lot of users',
    // 0.60
    expect: {
      number: 'sum(rate(http_requests_total{job="statements", code=~"5.."}[10m])) / sum(rate(http_requests_total{job="statements"}[10m]))',
      tolerance: 0.15,
    },
  },
];
