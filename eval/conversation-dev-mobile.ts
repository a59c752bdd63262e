/**
 * Development conversation questions (the mobile batch); they may be tuned on.
 * Voices: a mobile-app engineer seeing failures or slowness from the client side; an SRE running the post-incident review the next morning; a finance / business analyst estimating the incident's cost; a junior engineer pairing with a senior and chaining follow-ups.
 */
import type { QuestionCase } from './conversation-cases';

export const MOBILE_DEV_CASES: QuestionCase[] = [
  // checkout-bad-version
  // voice: mobile engineer
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    message: 'ios app getting 500s on place order since ~30-40 min ago. which backend endpoint is throwing them exactly?',
    expect: { contains: ['/api/checkout'] },
  },
  // voice: SRE post-incident review
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    message: 'PIR timeline: what minute did checkout start throwing 5xx, and what version had just gone out on it?',
    expect: { all: [{ at: 38, tolerance: 3 }, { contains: ['2.15.0'] }] },
  },
  // voice: finance analyst
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    message: 'need a rough count for the cost writeup: how many checkout (place order) requests failed in total since the errors began?',
    expect: { number: 'sum(increase(http_requests_total{job="checkout",route="/api/checkout",code=~"5.."}[38m]))', tolerance: 0.2 },
  },
  // voice: junior engineer
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    message: 'ok and which pods got it, what nodes are they on?',
    earlier: ['anything change in checkout right before the errors?'],
    expect: { podsOf: { workload: 'checkout', version: '2.15.0' } },
  },

  // search-slow-version-chronic-alert
  // voice: mobile engineer
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'dev',
    message: 'android search screen spinning forever. whats the p99 of the search endpoint right now?',
    expect: {
      number: 'histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{job="search",route="/api/search"}[5m])))',
      tolerance: 0.2,
    },
  },
  // voice: SRE post-incident review
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'dev',
    message: 'when did search get slow (to the minute pls) and what was deployed to it then',
    expect: { all: [{ at: 40, tolerance: 3 }, { contains: ['3.3.0'] }] },
  },
  // voice: junior engineer
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'dev',
    message: 'and the throttling on it, did that get worse once search slowed down or is it the same as before?',
    earlier: ['there is a CPUThrottlingHigh in the channel too, which workload is that for?'],
    expect: { direction: 'about the same' },
  },

  // inventory-down-harmless-rollout
  // voice: mobile engineer
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'dev',
    message: 'our app gets 503 service unavailable from checkout for about half an hour now. is checkout itself broken or is it something it depends on?',
    expect: { contains: ['inventory'] },
  },
  // voice: SRE post-incident review
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'dev',
    message: 'for the review doc I need two timestamps: when the checkout deploy went out, and when inventory stopped answering. UTC pls',
    expect: {
      all: [
        { at: 44, tolerance: 3 },
        { at: 36, tolerance: 3 },
      ],
    },
  },
  // voice: finance analyst
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'dev',
    message: 'rough number of failed requests on checkout since inventory went down? just need an order of magnitude for the impact note',
    expect: { number: 'sum(increase(http_requests_total{job="checkout",code=~"5.."}[36m]))', tolerance: 0.2 },
  },
  // voice: junior engineer
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'dev',
    message: 'and warehouse-sync? is that one refusing connections too?',
    earlier: ['what does checkout call downstream?'],
    expect: { asks: true },
  },

  // orders-memory-leak-oom
  // voice: SRE post-incident review
  {
    scenario: 'orders-memory-leak-oom',
    split: 'dev',
    message: 'sequence for the PIR: when did orders memory start to grow, and when was the first container OOM killed?',
    expect: {
      all: [
        { at: 75, tolerance: 4 },
        { at: 40, tolerance: 3 },
      ],
    },
  },
  // voice: junior engineer
  {
    scenario: 'orders-memory-leak-oom',
    split: 'dev',
    message: 'how many restarts is that in total, both pods together?',
    earlier: ['orders pods keep restarting - why?'],
    expect: { number: 'sum(kube_pod_container_status_restarts_total{container="orders"})', tolerance: 0.15 },
  },
  // voice: finance analyst
  {
    scenario: 'orders-memory-leak-oom',
    split: 'dev',
    message: 'did we actually lose orders over this? how many order requests errored in the past hour',
    expect: { number: 'sum(increase(http_requests_total{job="orders",code=~"5.."}[1h]))', tolerance: 0.3 },
  },

  // media-disk-full-flapping-alert
  // voice: mobile engineer
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'dev',
    message: 'photo uploads from the app come back with HTTP 507, insufficent storage?? which machine / which disk is full',
    expect: { contains: ['ip-10-0-2-34', '/var/lib/media'] },
  },
  // voice: finance analyst
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'dev',
    message: 'how many uploads have failed since the storage filled up, roughly?',
    expect: { number: 'sum(increase(http_requests_total{job="media",route="/api/uploads",code=~"5.."}[37m]))', tolerance: 0.2 },
  },
  // voice: junior engineer
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'dev',
    message: 'and the other alert, the frontend one - which pod is that and where does it run?',
    earlier: ['two alerts paged within minutes of each other, which one is the real problem?'],
    expect: { contains: ['frontend-8fd6d76c8-dtqns', 'ip-10-0-1-23'] },
  },
  // voice: finance analyst
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'dev',
    message: 'support wants the list of customer accounts whose uploads failed so we can credit them. can you pull the names?',
    expect: { cannot: true },
  },

  // search-traffic-surge
  // voice: mobile engineer
  {
    scenario: 'search-traffic-surge',
    split: 'dev',
    message: 'search is crawling in the app and we didnt ship anything. is it load? req/s on /api/search now vs an hour ago',
    expect: {
      all: [
        { number: 'sum(rate(http_requests_total{job="search",route="/api/search"}[5m]))', tolerance: 0.15 },
        { number: 'sum(rate(http_requests_total{job="search",route="/api/search"}[5m] offset 1h))', tolerance: 0.15 },
      ],
    },
  },
  // voice: SRE post-incident review
  {
    scenario: 'search-traffic-surge',
    split: 'dev',
    message: 'for the writeup: what time did the jump in search traffic begin?',
    expect: { at: 39, tolerance: 3 },
  },
  // voice: junior engineer
  {
    scenario: 'search-traffic-surge',
    split: 'dev',
    message: 'is it being throttled then? what fraction of its cpu periods, and whats the limit per pod',
    earlier: ['how much cpu are the search pods using?'],
    expect: {
      all: [
        {
          number:
            'max(sum by (pod) (increase(container_cpu_cfs_throttled_periods_total{container="search"}[5m])) / sum by (pod) (increase(container_cpu_cfs_periods_total{container="search"}[5m])))',
          tolerance: 0.1,
        },
        { number: 'max(kube_pod_container_resource_limits{container="search",resource="cpu"})', tolerance: 0.1 },
      ],
    },
  },

  // cart-config-crashloop
  // voice: junior engineer
  {
    scenario: 'cart-config-crashloop',
    split: 'dev',
    message: 'and how many restarts has it had so far?',
    earlier: ['which cart pod is the one crash looping?'],
    expect: { number: 'max(kube_pod_container_status_restarts_total{container="cart"})', tolerance: 0.15 },
  },
  // voice: SRE post-incident review
  {
    scenario: 'cart-config-crashloop',
    split: 'dev',
    message: 'what time was the cart-config configmap changed? need it for the timeline',
    expect: { at: 38, tolerance: 3 },
  },
  // voice: finance analyst
  {
    scenario: 'cart-config-crashloop',
    split: 'dev',
    message: 'is this costing us sales at all? what % of cart requests are failing right now',
    expect: { number: 'sum(rate(http_requests_total{job="cart",code=~"5.."}[5m])) / sum(rate(http_requests_total{job="cart"}[5m]))', tolerance: 0.3 },
  },

  // orders-worker-scaled-to-zero
  // voice: mobile engineer
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'dev',
    message: 'orders in the app stay on "processing" forever. since when has nothing on the backend been picking them up?',
    expect: { at: 44, tolerance: 3 },
  },
  // voice: finance analyst
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'dev',
    message: 'how many orders are sitting unprocessed in the queue now, and how long has the oldest one been waiting?',
    expect: {
      all: [
        { number: 'rabbitmq_queue_messages_ready{queue="orders"}', tolerance: 0.15 },
        { number: 'time() - rabbitmq_queue_head_message_timestamp{queue="orders"}', tolerance: 0.15 },
      ],
    },
  },
  // voice: junior engineer
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'dev',
    message: 'what normally reads from that queue? is that thing still running?',
    earlier: ['what is QueueMessagesStale complaining about, which queue?'],
    expect: { contains: ['orders-worker'] },
  },

  // checkout-slow-partner-bank
  // voice: mobile engineer
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    message: 'pay button in the app hangs 4-5s. is that us or a third party? and whats the avg call time to that provider right now',
    expect: {
      all: [
        { contains: ['partner-bank'] },
        {
          number:
            'sum(rate(http_client_request_duration_seconds_sum{peer="partner-bank"}[5m])) / sum(rate(http_client_request_duration_seconds_count{peer="partner-bank"}[5m]))',
          tolerance: 0.2,
        },
      ],
    },
  },
  // voice: SRE post-incident review
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    message: 'PIR: at what time did calls to the bank start getting slow? need the minute it began',
    expect: { at: 37, tolerance: 3 },
  },
  // voice: junior engineer
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    message: 'which node is it on? and which checkout pod shares that node with it',
    earlier: ['something is eating cpu on one of the checkout nodes, what is it?'],
    expect: { contains: ['ip-10-0-2-34', 'checkout-bbb67f8ff-w4rdq'] },
  },
  // voice: finance analyst
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    message: 'typical (median) time a customer waits on place-order at the moment? plain seconds is fine',
    expect: {
      number: 'histogram_quantile(0.5, sum by (le) (rate(http_request_duration_seconds_bucket{job="checkout",route="/api/checkout"}[5m])))',
      tolerance: 0.2,
    },
  },

  // recommendations-cpu-throttled
  // voice: mobile engineer
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'dev',
    message: '"you might also like" row in the app loads super late. what is the p99 of recommendations rn',
    expect: { number: 'histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{job="recommendations"}[5m])))', tolerance: 0.2 },
  },
  // voice: SRE post-incident review
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'dev',
    message: 'was the recommendations rollout a new build? which version is running, and cpu limit per pod before vs after',
    expect: {
      all: [
        { contains: ['0.9.4'] },
        { number: 'max(kube_pod_container_resource_limits{container="recommendations",resource="cpu"} offset 1h)', tolerance: 0.1 },
        { number: 'max(kube_pod_container_resource_limits{container="recommendations",resource="cpu"})', tolerance: 0.1 },
      ],
    },
  },
  // voice: junior engineer
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'dev',
    message: 'how bad is it, what fraction of its cpu periods get throttled now?',
    earlier: ['is recommendations getting cpu throttled?'],
    expect: {
      number:
        'sum(increase(container_cpu_cfs_throttled_periods_total{container="recommendations"}[5m])) / sum(increase(container_cpu_cfs_periods_total{container="recommendations"}[5m]))',
      tolerance: 0.15,
    },
  },

  // node-not-ready
  // voice: mobile engineer
  {
    scenario: 'node-not-ready',
    split: 'dev',
    message: 'app shows "bad gateway" on roughly 1 in 7 product page loads. which backend service and which machine is the problem?',
    expect: { contains: ['cart', 'ip-10-0-3-41'] },
  },
  // voice: SRE post-incident review
  {
    scenario: 'node-not-ready',
    split: 'dev',
    message: 'for the timeline: at what time did ip-10-0-3-41 turn NotReady, and how many 5xx has frontend served since that moment?',
    expect: {
      all: [
        { at: 36, tolerance: 3 },
        { number: 'sum(increase(http_requests_total{job="frontend",code=~"5.."}[36m]))', tolerance: 0.2 },
      ],
    },
  },
  // voice: junior engineer
  {
    scenario: 'node-not-ready',
    split: 'dev',
    message: 'what else was running on that box besides it?',
    earlier: ['which node turned NotReady?', 'which cart pod was on it?'],
    expect: {
      contains: ['checkout-d5d857bc6-q46wv', 'frontend-76df58c6b-mwxnk', 'orders-5b685c77d-kzfcj', 'payments-dc6776f55-8jj77', 'search-bdb56cddc-9c86w'],
    },
  },
  // voice: finance analyst
  {
    scenario: 'node-not-ready',
    split: 'dev',
    message: 'does this also hit loyalty-points? customers earn points per order and I need to know if we owe anyone',
    expect: { asks: true },
  },

  // partner-bank-certificate-expired
  // voice: mobile engineer
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'dev',
    message: 'every card payment from the app errors out since ~35 min. our side or the payment provider? which one exactly',
    expect: { contains: ['partner-bank'] },
  },
  // voice: SRE post-incident review
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'dev',
    message: "what's the exact expiry time on the bank's tls cert per the probe? want it next to the first payments failure in the timeline",
    expect: { at: 35, tolerance: 2 },
  },
  // voice: finance analyst
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'dev',
    message: 'how many payment requests have failed since the cert expired? ballpark is fine',
    expect: { number: 'sum(increase(http_requests_total{job="payments",code=~"5.."}[35m]))', tolerance: 0.2 },
  },

  // ordersdb-connections-exhausted
  // voice: SRE post-incident review
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'dev',
    message: 'PIR: what time did the orders 2.3.1 rollout start, and what time did orders begin returning 500s? want the gap between them',
    expect: {
      all: [
        { at: 46, tolerance: 2 },
        { at: 40, tolerance: 2 },
      ],
    },
  },
  // voice: finance analyst
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'dev',
    message: 'impact estimate: how many orders requests errored since this kicked off ~40 min ago?',
    expect: { number: 'sum(increase(http_requests_total{job="orders",code=~"5.."}[40m]))', tolerance: 0.2 },
  },
  // voice: mobile engineer
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'dev',
    message: 'placing an order from the app is slow and sometimes fails. is the orders service itself the bottleneck or something behind it?',
    expect: { contains: ['ordersdb'] },
  },
  // voice: junior engineer
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'dev',
    message: 'out of how many allowed?',
    earlier: ['how many connections are open on ordersdb right now?'],
    expect: { number: 'pg_settings_max_connections{server="ordersdb:5432"}', tolerance: 0.1 },
  },

  // sessions-redis-down-flapping-alert
  // voice: mobile engineer
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'dev',
    message: 'add to cart from the app -> 500 every time since ~35 min. what dependency of cart is broken',
    expect: { contains: ['sessions-redis'] },
  },
  // voice: finance analyst
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'dev',
    message: 'how many add-to-basket attempts (the POST that adds an item) failed since redis went away?',
    expect: { number: 'sum(increase(http_requests_total{job="cart",route="/api/cart/items",code=~"5.."}[36m]))', tolerance: 0.2 },
  },
  // voice: junior engineer
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'dev',
    message: 'is its exporter dead too or just redis? which instance is the exporter on',
    earlier: ['is cart failing because of redis?'],
    expect: { contains: ['10.2.2.31:9121'] },
  },

  // payments-bad-version-noisy-neighbour
  // voice: SRE post-incident review
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    message: 'what happened first, the ledger-reconcile cpu spike or the payments rollout? need a timestamp for each',
    expect: {
      all: [
        { at: 40, tolerance: 2 },
        { at: 36, tolerance: 2 },
      ],
    },
  },
  // voice: finance analyst
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    message: 'ballpark: how many payment requests have errored since the new payments build went live?',
    expect: { number: 'sum(increase(http_requests_total{job="payments",code=~"5.."}[36m]))', tolerance: 0.2 },
  },
  // voice: junior engineer
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    message: 'is any payments pod still on that node? where do they run now',
    earlier: ['which node is the batch job maxing out?'],
    expect: { contains: ['ip-10-0-1-23', 'ip-10-0-2-34'] },
  },

  // checkout-memory-limit-lowered
  // voice: mobile engineer
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'dev',
    message: 'checkout calls from the app time out a lot. are those pods even staying up? how many restarts all together',
    expect: { number: 'sum(kube_pod_container_status_restarts_total{container="checkout"})', tolerance: 0.15 },
  },
  // voice: SRE post-incident review
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'dev',
    message: 'the checkout rollout ~40 min ago: new image or same one? what tag is running, and what time did the first container get OOM killed',
    expect: { all: [{ contains: ['2.14.3'] }, { at: 38, tolerance: 2 }] },
  },
  // voice: junior engineer
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'dev',
    message: 'and before the rollout, what was it?',
    earlier: ['why do the checkout pods keep crashing?', 'whats the memory limit on the new pods?'],
    expect: { number: 'max(kube_pod_container_resource_limits{container="checkout",resource="memory"} offset 1h)', tolerance: 0.1 },
  },
  // voice: finance analyst
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'dev',
    message: 'how much revenue in euros did we lose from the checkout crashes? need a figure for the finance report',
    expect: { cannot: true },
  },

  // ledger-volume-full-chronic-mount
  // voice: mobile engineer
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'dev',
    message: 'saving a ledger entry from the app gives 507 since a bit over half an hour. what storage is full?',
    expect: { contains: ['data-ledger'] },
  },
  // voice: SRE post-incident review
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'dev',
    message: 'when exactly did the ledger data volume run out of space?',
    expect: { at: 36, tolerance: 2 },
  },
  // voice: finance analyst
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'dev',
    message: 'how many ledger writes were rejected since the volume filled? rough count is ok',
    expect: { number: 'sum(increase(http_requests_total{job="ledger",route="/api/ledger/entries",code=~"5.."}[36m]))', tolerance: 0.2 },
  },
  // voice: junior engineer
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'dev',
    message: 'anything else full on that same node?',
    earlier: ['which volume filled up for ledger?'],
    expect: { contains: ['/var/log/archive'] },
  },

  // accounts-pool-exhausted-harmless-rollout
  // voice: mobile engineer
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'dev',
    message: 'account page + transfers in the app fail maybe 30% of the time. is accountsdb overloaded or is it something in accounts itself?',
    expect: { contains: ['HikariPool-1'] },
  },
  // voice: SRE post-incident review
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'dev',
    message: 'need the order of events: when did accounts 1.4.1 roll out, and when did the 500s start?',
    expect: {
      all: [
        { at: 47, tolerance: 2 },
        { at: 38, tolerance: 2 },
      ],
    },
  },
  // voice: finance analyst
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'dev',
    message: 'how long does a typical accounts request take now? median, in seconds',
    expect: { number: 'histogram_quantile(0.5, sum by (le) (rate(http_request_duration_seconds_bucket{job="accounts"}[5m])))', tolerance: 0.2 },
  },
  // voice: junior engineer
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'dev',
    message: 'ok and how many are waiting for a connection on each pod right now?',
    earlier: ['how big is the connection pool in accounts?'],
    expect: { number: 'max(hikaricp_connections_pending{job="accounts"})', tolerance: 0.15 },
  },

  // cart-liveness-slow-redis
  // voice: mobile engineer
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'dev',
    message: 'cart in the app is slow and now and then the request just drops. are the cart pods restarting? what is causing it',
    expect: { contains: ['sessions-redis'] },
  },
  // voice: SRE post-incident review
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'dev',
    message: "for the PIR: at what time did cart's calls to redis start to slow down?",
    expect: { at: 38, tolerance: 2 },
  },
  // voice: junior engineer
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'dev',
    message: 'how long do cart calls to it take now on avg?',
    earlier: ['what is making the cart pods restart?'],
    expect: {
      number:
        'sum(rate(http_client_request_duration_seconds_sum{job="cart",peer="sessions-redis"}[5m])) / sum(rate(http_client_request_duration_seconds_count{job="cart",peer="sessions-redis"}[5m]))',
      tolerance: 0.2,
    },
  },

  // inventory-liveness-unexplained
  // voice: junior engineer
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'dev',
    message: 'is that catalog-sync job on the same node starving it? how busy is that node cpu-wise right now',
    earlier: ['why are the inventory pods restarting?'],
    expect: { number: 'avg(1 - rate(node_cpu_seconds_total{mode="idle",node="ip-10-0-3-41.eu-west-1.compute.internal"}[5m]))', tolerance: 0.15 },
  },
  // voice: SRE post-incident review
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'dev',
    message: 'timeline check: what time did the first inventory container get restarted?',
    expect: { at: 36, tolerance: 2 },
  },
  // voice: SRE post-incident review
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'dev',
    message: 'what is inventory actually stuck on when the probe times out? which thread or lock is it waiting for',
    expect: { cannot: true },
  },
  // voice: mobile engineer
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'dev',
    message: 'stock lookups from the app feel patchy. is inventory answering more or fewer requests than before the restarts started?',
    expect: { direction: 'down' },
  },

  // search-noisy-neighbour
  // voice: mobile engineer
  {
    scenario: 'search-noisy-neighbour',
    split: 'dev',
    message: 'search is slow for some app users and fine for others. is it one bad replica? which pod',
    expect: { contains: ['search-878b86fb7-m9xrk'] },
  },
  // voice: SRE post-incident review
  {
    scenario: 'search-noisy-neighbour',
    split: 'dev',
    message: 'there were 3 batch jobs spinning up around then. which one started first and at what time? and when did search p99 go up',
    expect: { all: [{ contains: ['image-resizer'] }, { at: 39, tolerance: 2 }, { at: 37, tolerance: 2 }] },
  },
  // voice: junior engineer
  {
    scenario: 'search-noisy-neighbour',
    split: 'dev',
    message: 'what else is running on that node?',
    earlier: ['the slow search pod, which node is it on?'],
    expect: { contains: ['video-transcode'] },
  },

  // billing-timeout-config-change
  // voice: SRE post-incident review
  {
    scenario: 'billing-timeout-config-change',
    split: 'dev',
    message: "when did billing's 504s start, and who pushed the change that landed just before?",
    expect: { all: [{ at: 36, tolerance: 2 }, { contains: ['grace'] }] },
  },
  // voice: finance analyst
  {
    scenario: 'billing-timeout-config-change',
    split: 'dev',
    message: 'invoice impact: how many invoice requests failed since the errors started?',
    expect: { number: 'sum(increase(http_requests_total{job="billing",code=~"5.."}[36m]))', tolerance: 0.2 },
  },
  // voice: mobile engineer
  {
    scenario: 'billing-timeout-config-change',
    split: 'dev',
    message: 'invoices screen in the app gets 504 gateway timeout maybe 1 in 5. which downstream call from billing is timing out?',
    expect: { contains: ['ledger'] },
  },

  // archive-down-reported-deploy-red-herring
  // voice: mobile engineer
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'dev',
    message: 'statements tab in the app: mostly 503s. someone in #deploys says the statements deploy broke it, true? or is it something statements calls',
    expect: { contains: ['archive'] },
  },
  // voice: SRE post-incident review
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'dev',
    message: 'PIR order of events: what time was the statements deploy, and what time did archive stop answering?',
    expect: {
      all: [
        { at: 48, tolerance: 2 },
        { at: 36, tolerance: 2 },
      ],
    },
  },
  // voice: finance analyst
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'dev',
    message: 'is the pdf-renderer that produces the statement files down as well? trying to size how many customers got nothing',
    expect: { asks: true },
  },
  // voice: junior engineer
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'dev',
    message: 'and archive, what version does it run and on which nodes are its pods?',
    earlier: ['what version of statements is deployed?'],
    expect: { contains: ['5.0.3', 'ip-10-0-3-41', 'ip-10-0-1-88'] },
  },
];
