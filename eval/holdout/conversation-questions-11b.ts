/**
 * Held-out conversation questions (eleventh holdout, part B), written before the code they score; never copy or tune on them (eval/holdout/README.md).
 * Voices: the incident scribe keeping the timeline in the channel (exact times, order of events); an engineer of a partner
 * team whose service calls the affected one (how it affects their calls); a site-reliability lead in another region
 * joining at the start of their day (terse, abbreviated); a reliability architect (blast radius, dependencies, which
 * nodes, pods and routes are touched).
 */
import type { QuestionCase } from '../conversation-cases';

export const ELEVENTH_HOLDOUT_QUESTIONS_B: QuestionCase[] = [
  // checkout-bad-version
  // voice: incident scribe
  {
    scenario: 'checkout-bad-version',
    split: 'holdout-11',
    earlier: ['what is going on with checkout?'],
    message: 'for the timeline doc: exact UTC time the checkout 2.15.0 rollout began pls',
    expect: { at: 38, tolerance: 3 },
  },
  // voice: partner-team engineer
  {
    scenario: 'checkout-bad-version',
    split: 'holdout-11',
    message: 'hi, we send POST /api/checkout to checkout from our side all day. is that still failing, and what fraction of those calls errors right now?',
    expect: {
      number:
        'sum(rate(http_requests_total{job="checkout", route="/api/checkout", code=~"5.."}[5m])) / sum(rate(http_requests_total{job="checkout", route="/api/checkout"}[5m]))',
      tolerance: 0.15,
    },
  },
  // voice: reliability architect
  {
    scenario: 'checkout-bad-version',
    split: 'holdout-11',
    message: 'how much of the checkout fleet is on 2.15.0? list the pods running it and the nodes they are scheduled on',
    expect: { podsOf: { workload: 'checkout', version: '2.15.0' } },
  },

  // search-slow-version-chronic-alert
  // voice: SRE lead, other region
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'holdout-11',
    message: 'morning, catching up. srch p99 on /api/search rn?',
    expect: {
      number: 'histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{job="search", route="/api/search"}[5m])))',
      tolerance: 0.2,
    },
  },
  // voice: reliability architect
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'holdout-11',
    earlier: ['why is search slow?'],
    message: 'how far did 3.3.0 get? which search pods run it and on what nodes',
    expect: { podsOf: { workload: 'search', version: '3.3.0' } },
  },
  // voice: partner-team engineer
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'holdout-11',
    message:
      'our typeahead only calls GET /api/suggest on search. has suggest latency moved since the 3.3.0 rollout, or is it just /api/search that got slower?',
    expect: { direction: 'about the same' },
  },

  // inventory-down-harmless-rollout
  // voice: incident scribe
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'holdout-11',
    message: 'need two timestamps for the log, in order: when checkout 2.14.4 started rolling out, and when inventory stopped answering',
    expect: {
      all: [
        { at: 44, tolerance: 3 },
        { at: 36, tolerance: 3 },
      ],
    },
  },
  // voice: partner-team engineer
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'holdout-11',
    message: 'checkout team here. our calls into inventory, what share of them are failing at the moment?',
    expect: {
      number:
        'sum(rate(http_client_requests_total{job="checkout", peer="inventory", code!="200"}[5m])) / sum(rate(http_client_requests_total{job="checkout", peer="inventory"}[5m]))',
      tolerance: 0.1,
    },
  },
  // voice: reliability architect
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'holdout-11',
    message: 'blast radius check: which inventory pods are not answering, and which nodes are they on?',
    expect: {
      contains: ['inventory-cd568ccd7-psgzx', 'inventory-cd568ccd7-m6nmg', 'ip-10-0-1-88', 'ip-10-0-3-41'],
    },
  },

  // orders-memory-leak-oom
  // voice: SRE lead, other region
  {
    scenario: 'orders-memory-leak-oom',
    split: 'holdout-11',
    message: 'ordrs restarts last 15m? + reason on the last termination',
    expect: {
      all: [{ number: 'sum(increase(kube_pod_container_status_restarts_total{container="orders"}[15m]))', tolerance: 0.2 }, { contains: ['OOMKilled'] }],
    },
  },
  // voice: incident scribe
  {
    scenario: 'orders-memory-leak-oom',
    split: 'holdout-11',
    earlier: ['why do the orders pods keep restarting?'],
    message: 'for the record: at what time did orders memory start to climb, and when was the first OOM kill?',
    expect: {
      all: [
        { at: 75, tolerance: 5 },
        { at: 40, tolerance: 3 },
      ],
    },
  },
  // voice: reliability architect
  {
    scenario: 'orders-memory-leak-oom',
    split: 'holdout-11',
    message: 'which orders pods (and which nodes) run into the memory limit, and what is the limit set to?',
    expect: {
      all: [
        { contains: ['orders-6fb5cc5f8-rpc5b', 'orders-6fb5cc5f8-rff78', 'ip-10-0-1-88', 'ip-10-0-3-41'] },
        { number: 'max(kube_pod_container_resource_limits{container="orders", resource="memory"})', tolerance: 0.05 },
      ],
    },
  },

  // media-disk-full-flapping-alert
  // voice: partner-team engineer
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'holdout-11',
    message: 'we push user uploads to media through POST /api/uploads. how bad is it for us right now, what % of uploads fail?',
    expect: {
      number:
        'sum(rate(http_requests_total{job="media", route="/api/uploads", code=~"5.."}[5m])) / sum(rate(http_requests_total{job="media", route="/api/uploads"}[5m]))',
      tolerance: 0.1,
    },
  },
  // voice: SRE lead, other region
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'holdout-11',
    message: 'media disk: which node + mount is full, since when?',
    expect: {
      all: [{ contains: ['ip-10-0-2-34', '/var/lib/media'] }, { at: 37, tolerance: 3 }],
    },
  },

  // search-traffic-surge
  // voice: SRE lead, other region
  {
    scenario: 'search-traffic-surge',
    split: 'holdout-11',
    message: 'srch /api/search req/s now vs 1h ago?',
    expect: {
      all: [
        { number: 'sum(rate(http_requests_total{job="search", route="/api/search"}[5m]))', tolerance: 0.15 },
        { number: 'sum(rate(http_requests_total{job="search", route="/api/search"}[5m] offset 1h))', tolerance: 0.15 },
      ],
    },
  },
  // voice: incident scribe
  {
    scenario: 'search-traffic-surge',
    split: 'holdout-11',
    earlier: ['what is happening with search?'],
    message: 'timeline question: what time did the search traffic start ramping up, and when did frontend 5.2.1 go out? which came first',
    expect: {
      all: [
        { at: 39, tolerance: 3 },
        { at: 44, tolerance: 3 },
      ],
    },
  },

  // cart-config-crashloop
  // voice: incident scribe
  {
    scenario: 'cart-config-crashloop',
    split: 'holdout-11',
    message: 'for the incident log: when was the cart-config ConfigMap edited, and when did the new cart pod crash for the first time?',
    expect: {
      all: [
        { at: 38, tolerance: 3 },
        { at: 37.5, tolerance: 3 },
      ],
    },
  },
  // voice: SRE lead, other region
  {
    scenario: 'cart-config-crashloop',
    split: 'holdout-11',
    earlier: ['cart pod crashlooping?'],
    message: 'how many restarts on it so far',
    expect: { number: 'sum(kube_pod_container_status_restarts_total{container="cart"})', tolerance: 0.1 },
  },

  // orders-worker-scaled-to-zero
  // voice: incident scribe
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'holdout-11',
    message: 'exact time orders-worker got scaled to zero, please, for the timeline',
    expect: { at: 44, tolerance: 3 },
  },
  // voice: reliability architect
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'holdout-11',
    earlier: ['why are messages piling up in the orders queue?'],
    message: 'which orders-worker pods went away, and off which nodes?',
    expect: {
      contains: ['orders-worker-7cbf88dcd-qnz4n', 'orders-worker-7cbf88dcd-ds2pn', 'ip-10-0-1-23', 'ip-10-0-1-88'],
    },
  },
  // voice: SRE lead, other region
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'holdout-11',
    message: 'notif-dispatcher still consuming ok?',
    expect: { asks: true },
  },

  // checkout-slow-partner-bank
  // voice: partner-team engineer
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'holdout-11',
    message: 'checkout team here, our payment step feels sluggish. average latency of our calls to payments right now?',
    expect: {
      number:
        'sum(rate(http_client_request_duration_seconds_sum{job="checkout", peer="payments"}[5m])) / sum(rate(http_client_request_duration_seconds_count{job="checkout", peer="payments"}[5m]))',
      tolerance: 0.15,
    },
  },
  // voice: reliability architect
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'holdout-11',
    message: 'map the chain for me: checkout -> payments -> ? which hop is the slow one, and which checkout pod shares a node with reports-batch?',
    expect: {
      all: [{ contains: ['partner-bank'] }, { contains: ['checkout-bbb67f8ff-w4rdq', 'ip-10-0-2-34'] }],
    },
  },
  // voice: incident scribe
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'holdout-11',
    message: "when did payments' calls to partner-bank begin to slow down? need the minute",
    expect: { at: 37, tolerance: 3 },
  },

  // recommendations-cpu-throttled
  // voice: reliability architect
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'holdout-11',
    message: 'what CPU limit do the recommendations pods run with now, and what was it before the rollout?',
    expect: {
      all: [
        { number: 'max(kube_pod_container_resource_limits{container="recommendations", resource="cpu"})', tolerance: 0.05 },
        { number: 'max(kube_pod_container_resource_limits{container="recommendations", resource="cpu"} offset 1h)', tolerance: 0.05 },
      ],
    },
  },
  // voice: SRE lead, other region
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'holdout-11',
    earlier: ['reco slow, why?'],
    message: 'throttled % rn?',
    expect: {
      number:
        'sum(increase(container_cpu_cfs_throttled_periods_total{container="recommendations"}[5m])) / sum(increase(container_cpu_cfs_periods_total{container="recommendations"}[5m]))',
      tolerance: 0.15,
    },
  },
  // voice: partner-team engineer
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'holdout-11',
    message: 'our homepage widget calls GET /api/recommendations. is recommendations latency worse since the limits change went out?',
    expect: { direction: 'up' },
  },

  // node-not-ready
  // voice: reliability architect
  {
    scenario: 'node-not-ready',
    split: 'holdout-11',
    message: 'full list of the pods scheduled on ip-10-0-3-41 please, I need the blast radius of that node',
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
  // voice: partner-team engineer
  {
    scenario: 'node-not-ready',
    split: 'holdout-11',
    message: 'frontend team here: our calls to cart, what share of them time out right now?',
    expect: {
      number:
        'sum(rate(http_client_requests_total{job="frontend", peer="cart", code="timeout"}[5m])) / sum(rate(http_client_requests_total{job="frontend", peer="cart"}[5m]))',
      tolerance: 0.1,
    },
  },
  // voice: SRE lead, other region
  {
    scenario: 'node-not-ready',
    split: 'holdout-11',
    message: 'y did 3-41 go NotReady? kernel panic, kubelet crash, cloud maint?',
    expect: { cannot: true },
  },

  // partner-bank-certificate-expired
  // voice: incident scribe
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'holdout-11',
    message: "what time exactly did partner-bank's TLS certificate expire?",
    expect: { at: 35, tolerance: 2 },
  },
  // voice: partner-team engineer
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'holdout-11',
    earlier: ['why is payments failing?'],
    message: 'we call POST /api/payments from our service. still failing? what fraction of requests right now',
    expect: {
      number: 'sum(rate(http_requests_total{job="payments", code=~"5.."}[5m])) / sum(rate(http_requests_total{job="payments"}[5m]))',
      tolerance: 0.1,
    },
  },
  // voice: SRE lead, other region
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'holdout-11',
    message: 'tls errs/s payments->partner-bank rn',
    expect: { number: 'sum(rate(http_client_requests_total{job="payments", peer="partner-bank", code="tls_error"}[5m]))', tolerance: 0.15 },
  },

  // ordersdb-connections-exhausted
  // voice: reliability architect
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'holdout-11',
    message: 'ordersdb: how many connections are open against max_connections, and in which state are most of them?',
    expect: {
      all: [
        { number: 'sum(pg_stat_activity_count)', tolerance: 0.1 },
        { number: 'max(pg_settings_max_connections)', tolerance: 0.05 },
        { contains: ['idle in transaction'] },
      ],
    },
  },
  // voice: incident scribe
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'holdout-11',
    message: 'timeline pls: start of the orders 2.3.1 rollout, then the time orders started throwing errors',
    expect: {
      all: [
        { at: 46, tolerance: 3 },
        { at: 40, tolerance: 3 },
      ],
    },
  },
  // voice: partner-team engineer
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'holdout-11',
    earlier: ['is orders healthy?'],
    message: 'we create orders via POST /api/orders. what percentage of those requests fail right now?',
    expect: {
      number:
        'sum(rate(http_requests_total{job="orders", route="/api/orders", code=~"5.."}[5m])) / sum(rate(http_requests_total{job="orders", route="/api/orders"}[5m]))',
      tolerance: 0.1,
    },
  },

  // sessions-redis-down-flapping-alert
  // voice: SRE lead, other region
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'holdout-11',
    message: 'sessions-redis: server down or just its exporter? since when',
    expect: {
      all: [{ contains: ['sessions-redis'] }, { at: 36, tolerance: 3 }],
    },
  },
  // voice: partner-team engineer
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'holdout-11',
    message: 'we add items through POST /api/cart/items on cart. what share of those calls are failing now?',
    expect: {
      number:
        'sum(rate(http_requests_total{job="cart", route="/api/cart/items", code=~"5.."}[5m])) / sum(rate(http_requests_total{job="cart", route="/api/cart/items"}[5m]))',
      tolerance: 0.1,
    },
  },

  // payments-bad-version-noisy-neighbour
  // voice: reliability architect
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'holdout-11',
    message: 'which payments pods got 1.9.0 and on which nodes? want to see whether any of them overlaps with the busy node',
    expect: { podsOf: { workload: 'payments', version: '1.9.0' } },
  },
  // voice: incident scribe
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'holdout-11',
    message: "two times for the timeline: when the payments 1.9.0 rollout started, and when ledger-reconcile's cpu jumped. which one came first?",
    expect: {
      all: [
        { at: 36, tolerance: 3 },
        { at: 40, tolerance: 3 },
      ],
    },
  },
  // voice: SRE lead, other region
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'holdout-11',
    earlier: ['payments err rate?'],
    message: 'ledger-reconcile cpu rn, in cores?',
    expect: { number: 'sum(rate(container_cpu_usage_seconds_total{container="ledger-reconcile"}[5m]))', tolerance: 0.1 },
  },

  // checkout-memory-limit-lowered
  // voice: reliability architect
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'holdout-11',
    message: 'memory limit of the checkout pods now vs before the rollout? trying to see if that rollout touched resources',
    expect: {
      all: [
        { number: 'max(kube_pod_container_resource_limits{container="checkout", resource="memory"})', tolerance: 0.05 },
        { number: 'max(kube_pod_container_resource_limits{container="checkout", resource="memory"} offset 1h)', tolerance: 0.05 },
      ],
    },
  },
  // voice: SRE lead, other region
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'holdout-11',
    earlier: ['chkout crashlooping?'],
    message: 'restarts total across the chkout pods?',
    expect: { number: 'sum(kube_pod_container_status_restarts_total{container="checkout"})', tolerance: 0.1 },
  },

  // ledger-volume-full-chronic-mount
  // voice: reliability architect
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'holdout-11',
    message: 'which volume is full and on which node? and is the /var/log/archive mount on that same box part of it?',
    expect: { contains: ['data-ledger', 'ip-10-0-1-88'] },
  },
  // voice: partner-team engineer
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'holdout-11',
    message: 'we write to ledger with POST /api/ledger/entries. how much of that is failing at the moment?',
    expect: {
      number:
        'sum(rate(http_requests_total{job="ledger", route="/api/ledger/entries", code=~"5.."}[5m])) / sum(rate(http_requests_total{job="ledger", route="/api/ledger/entries"}[5m]))',
      tolerance: 0.1,
    },
  },

  // accounts-pool-exhausted-harmless-rollout
  // voice: SRE lead, other region
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'holdout-11',
    message: 'accts: which hikari pool is maxed out, whats its max size?',
    expect: {
      all: [{ contains: ['HikariPool-1'] }, { number: 'max(hikaricp_connections_max{job="accounts"})', tolerance: 0.05 }],
    },
  },
  // voice: incident scribe
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'holdout-11',
    message: 'need times for the doc: the accounts 1.4.1 rollout start, and when the connection pool began to run dry',
    expect: {
      all: [
        { at: 47, tolerance: 3 },
        { at: 39, tolerance: 3 },
      ],
    },
  },
  // voice: reliability architect
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'holdout-11',
    message: 'is accountsdb itself seeing more load? connection count on the database vs before this started',
    expect: { direction: 'about the same' },
  },

  // cart-liveness-slow-redis
  // voice: partner-team engineer
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'holdout-11',
    message: 'frontend team: our calls get connection resets from cart. which cart pods keep restarting, and on what nodes?',
    expect: {
      contains: ['cart-567575f65-gv5zw', 'cart-567575f65-nzlsm', 'cart-567575f65-x4hxp', 'ip-10-0-1-88', 'ip-10-0-2-34', 'ip-10-0-3-41'],
    },
  },
  // voice: incident scribe
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'holdout-11',
    message: "sequence please: when did cart's redis latency jump, and when was the first cart container restart?",
    expect: {
      all: [
        { at: 38, tolerance: 3 },
        { at: 36.5, tolerance: 3 },
      ],
    },
  },

  // inventory-liveness-unexplained
  // voice: reliability architect
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'holdout-11',
    message: "catalog-sync: which node is it on, which inventory pod shares that node, and how busy is that node's CPU?",
    expect: {
      all: [
        { contains: ['catalog-sync', 'ip-10-0-3-41', 'inventory-c58d68b5c-lfg9w'] },
        { number: '1 - avg(rate(node_cpu_seconds_total{mode="idle", node="ip-10-0-3-41.eu-west-1.compute.internal"}[5m]))', tolerance: 0.15 },
      ],
    },
  },
  // voice: SRE lead, other region
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'holdout-11',
    earlier: ['inv restarting?'],
    message: 'wht is it deadlocked on? which lock / thread',
    expect: { cannot: true },
  },

  // search-noisy-neighbour
  // voice: reliability architect
  {
    scenario: 'search-noisy-neighbour',
    split: 'holdout-11',
    message: 'which nodes are CPU-saturated right now, and which of those host a search pod?',
    expect: { contains: ['ip-10-0-2-34', 'ip-10-0-1-23', 'search-878b86fb7-m9xrk'] },
  },
  // voice: partner-team engineer
  {
    scenario: 'search-noisy-neighbour',
    split: 'holdout-11',
    message: 'our storefront calls GET /api/search. what is the p99 we should expect right now?',
    expect: {
      number: 'histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{job="search", route="/api/search"}[5m])))',
      tolerance: 0.15,
    },
  },
  // voice: incident scribe
  {
    scenario: 'search-noisy-neighbour',
    split: 'holdout-11',
    earlier: ['got paged for SearchLatencyHigh, what is behind it?'],
    message: 'for the log: at what time did video-transcode start burning cpu, and image-resizer?',
    expect: {
      all: [
        { at: 37, tolerance: 3 },
        { at: 39, tolerance: 3 },
      ],
    },
  },

  // billing-timeout-config-change
  // voice: incident scribe
  {
    scenario: 'billing-timeout-config-change',
    split: 'holdout-11',
    message: "timeline: when was cfg-8841 applied, and when did billing's first 504s show up?",
    expect: {
      all: [
        { at: 37, tolerance: 2 },
        { at: 36, tolerance: 3 },
      ],
    },
  },
  // voice: partner-team engineer
  {
    scenario: 'billing-timeout-config-change',
    split: 'holdout-11',
    message: 'we call POST /api/invoices on billing. what fraction of our calls comes back 504 now?',
    expect: {
      number: 'sum(rate(http_requests_total{job="billing", code="504"}[5m])) / sum(rate(http_requests_total{job="billing"}[5m]))',
      tolerance: 0.1,
    },
  },
  // voice: SRE lead, other region
  {
    scenario: 'billing-timeout-config-change',
    split: 'holdout-11',
    earlier: ['billing errs?'],
    message: 'wht changed in billing cfg exactly, new value? which dep does it hit',
    expect: { contains: ['150ms', 'ledger'] },
  },

  // archive-down-reported-deploy-red-herring
  // voice: incident scribe
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'holdout-11',
    message: 'in order, with times: the statements deploy (deploy-3301) and archive going down',
    expect: {
      all: [
        { at: 48, tolerance: 3 },
        { at: 36, tolerance: 3 },
      ],
    },
  },
  // voice: partner-team engineer
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'holdout-11',
    message: 'statements team here. how many of our calls to archive get refused per second right now?',
    expect: {
      number: 'sum(rate(http_client_requests_total{job="statements", peer="archive", code="connection_refused"}[5m]))',
      tolerance: 0.15,
    },
  },
];
