import type { QuestionCase } from '../conversation-cases';

const ratio = (job: string, route?: string): string => {
  const r = route ? `, route="${route}"` : '';
  return `sum(rate(http_requests_total{job="${job}"${r}, code=~"5.."}[5m])) / sum(rate(http_requests_total{job="${job}"${r}}[5m]))`;
};

export const FIFTEENTH_HOLDOUT_QUESTIONS_A: QuestionCase[] = [
  // A release manager who tracks versions, rollouts and what shipped when.
  {
    scenario: 'checkout-bad-version',
    split: 'holdout-15',
    message:
      'release train q. checkout 2.15.0 went out this morning and CheckoutHighErrorRate is paging now. what time exactly did the 2.15.0 rollout start? need it for the release log',
    expect: { at: 38, tolerance: 3 },
  },
  {
    scenario: 'checkout-bad-version',
    split: 'holdout-15',
    earlier: ['when did checkout 2.15.0 start rolling out?'],
    message:
      'ok. is 2.15.0 on every checkout pod already or only some of them? give me the pods on 2.15.0 and which nodes they sit on, before I call the rollback',
    expect: { podsOf: { workload: 'checkout', version: '2.15.0' } },
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'holdout-15',
    message: 'SearchLatencyHigh just went off. for the rollback ticket i need two versions: what search is running right now and what it ran before that',
    expect: { contains: ['3.3.0', '3.2.1'] },
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'holdout-15',
    message:
      "we pushed checkout 2.14.4 maybe 10 min before checkout started erroring. I'm about to pull it from the train. is 2.14.4 really the culprit or is something else broken?",
    expect: { contains: ['inventory'] },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'holdout-15',
    message: 'payments is throwing 500s. which version are the payments pods on right now, and what time did that version land?',
    expect: { all: [{ contains: ['1.9.0'] }, { at: 36, tolerance: 3 }] },
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'holdout-15',
    message: 'orders 2.3.1 shipped a few min before OrdersHighErrorRate fired. do i roll orders back to 2.3.0 or is the problem somewhere else?',
    expect: { contains: ['ordersdb'] },
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'holdout-15',
    earlier: ['why are accounts requests failing?'],
    message: 'for the incident timeline: what time did accounts 1.4.1 roll out?',
    expect: { at: 47, tolerance: 3 },
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'holdout-15',
    message:
      'deploy bot says statements-static 2026.11.27-1 went out a bit under an hour ago, and now statements is 5xx-ing. should i revert that deploy or is it something else',
    expect: { contains: ['archive'] },
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'holdout-15',
    message:
      "checkout had a rollout ~40 min ago and the new pods are crashlooping. I don't have a release for it on my calendar. was it a new build? what version is it running, and what did that rollout actually change?",
    expect: {
      all: [{ contains: ['2.14.3'] }, { number: 'max(kube_pod_container_resource_limits{container="checkout", resource="memory"})', tolerance: 0.15 }],
    },
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'holdout-15',
    message: 'did recomendations get a new release today? seeing a fresh replicaset but no release notes anywhere',
    expect: { asksFirst: 'recommendations' },
  },
  {
    scenario: 'search-traffic-surge',
    split: 'holdout-15',
    message: 'frontend 5.2.1 went out right before search started crawling. do I need to roll frontend back, or is search slow for another reason?',
    expect: { contains: ['/api/search'] },
  },
  {
    scenario: 'cart-config-crashloop',
    split: 'holdout-15',
    earlier: ['why is the new cart pod crashlooping?'],
    message: 'what time was that config edited? the change log needs a timestamp',
    expect: { at: 38, tolerance: 3 },
  },
  {
    scenario: 'billing-timeout-config-change',
    split: 'holdout-15',
    message: "no billing release in today's train but BillingHighErrorRate is firing. did anything change for billing, deploy or config, and when was it?",
    expect: { all: [{ contains: ['150'] }, { at: 37, tolerance: 3 }] },
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'holdout-15',
    message: 'QueueMessagesStale on the orders queue. nobody deployed orders-worker today as far as I know. did its replica count change? what time?',
    expect: { at: 44, tolerance: 3 },
  },
  {
    scenario: 'node-not-ready',
    split: 'holdout-15',
    message: "FrontendHighErrorRate firing. we're in a deploy freeze so nothing should have shipped. was this a release or an infra thing?",
    expect: { contains: ['ip-10-0-3-41'] },
  },

  // A database administrator who thinks in connections, pools, queries and disks.
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'holdout-15',
    message: 'dba here. ordersdb looks pinned. how many backends are sitting idle in transaction on it right now?',
    expect: { number: 'sum(pg_stat_activity_count{datname="orders", state="idle in transaction"})', tolerance: 0.2 },
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'holdout-15',
    earlier: ['how many connections does ordersdb have open right now?'],
    message: 'when did it actually hit max_connections? want to line it up against the cron schedule',
    expect: { at: 39, tolerance: 3 },
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'holdout-15',
    message: 'can you pull the query text for the sessions stuck idle in transaction on ordersdb? i want to know which statement is holding them open',
    expect: { cannot: true },
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'holdout-15',
    message:
      'accounts requests are timing out and people are already blaming accountsdb. how many connections does accountsdb actually have open, and is the app-side pool the bottleneck instead?',
    expect: { all: [{ number: 'sum(pg_stat_activity_count{datname="accounts"})', tolerance: 0.3 }, { contains: ['HikariPool-1'] }] },
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'holdout-15',
    earlier: ['is accountsdb overloaded?'],
    message: 'ok then the hikari side. how many connections are active per accounts pod, out of the pool max?',
    expect: { number: 'max(hikaricp_connections_active{job="accounts"})', tolerance: 0.15 },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'holdout-15',
    message: 'media uploads returning 507, smells like a full disk to me. which node and which mount, and when did it run out of space?',
    expect: { all: [{ contains: ['ip-10-0-2-34', '/var/lib/media'] }, { at: 37, tolerance: 3 }] },
  },
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'holdout-15',
    message:
      "ledger writes failing w/ 507. there's also a mount at 100% on /var/log/archive on that node. which volume is actually the problem here, and how big is it?",
    expect: {
      all: [{ contains: ['data-ledger'] }, { number: 'max(kubelet_volume_stats_capacity_bytes{persistentvolumeclaim="data-ledger"})', tolerance: 0.15 }],
    },
  },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'holdout-15',
    message: 'cart is erroring. is sessions-redis itself down or did only its exporter die? and when did it go?',
    expect: { all: [{ contains: ['sessions-redis'] }, { at: 36, tolerance: 3 }] },
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'holdout-15',
    earlier: ['why are the cart pods restarting?'],
    message:
      "i look after sessions-redis and redis_up has been 1 the whole time. is redis really part of this? what's the p50 on cart's calls to it right now?",
    expect: {
      all: [
        { contains: ['liveness'] },
        {
          number: 'histogram_quantile(0.5, sum by (le) (rate(http_client_request_duration_seconds_bucket{job="cart", peer="sessions-redis"}[5m])))',
          tolerance: 0.3,
        },
      ],
    },
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'holdout-15',
    message:
      'kubelet keeps restarting inventory. do we have anything that shows a lock or a deadlock inside the inventory process? lock waits, thread dumps, whatever',
    expect: { cannot: true },
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: 'holdout-15',
    message:
      'orders pods keep restarting and my ordersdb connection graph looks like a sawtooth because of it. is the db kicking them off, or are the pods dying on their own?',
    expect: { contains: ['OOM'] },
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'holdout-15',
    message: 'quick rabbit one: how many consumers does the invoice-events queue have right now?',
    expect: { asks: true },
  },
  {
    scenario: 'search-noisy-neighbour',
    split: 'holdout-15',
    message: "search p99 is up but nothing changed on the index side. is it the box? what's chewing cpu on the node under the slow search pod?",
    expect: { contains: ['video-transcode', 'ip-10-0-2-34'] },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'holdout-15',
    message:
      "checkout got slow. checkout doesn't hit a database directly, payments does its own thing downstream, and there's a batch job hammering one of the checkout nodes. where is the time actually going?",
    expect: { contains: ['partner-bank'] },
  },
  {
    scenario: 'billing-timeout-config-change',
    split: 'holdout-15',
    message:
      "billing's calls to ledger are timing out. what share of those calls time out right now, and is ledger slow (its db is mine) or did billing's timeout change?",
    expect: {
      all: [
        {
          number:
            'sum(rate(http_client_requests_total{job="billing", peer="ledger", code="timeout"}[5m])) / sum(rate(http_client_requests_total{job="billing", peer="ledger"}[5m]))',
          tolerance: 0.25,
        },
        { contains: ['150'] },
      ],
    },
  },

  // A product manager asking about customer impact in plain words.
  {
    scenario: 'checkout-bad-version',
    split: 'holdout-15',
    message:
      "hi, PM for checkout. support says some people can't complete their purchase. roughly what percent of people placing an order are getting an error right now?",
    expect: { number: ratio('checkout', '/api/checkout'), tolerance: 0.25 },
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'holdout-15',
    message: 'non-technical question, sorry: can customers still check out? what portion of checkout attempts are failing at the moment?',
    expect: { number: ratio('checkout'), tolerance: 0.2 },
  },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'holdout-15',
    earlier: ["what's wrong with the cart?"],
    message: 'ok in plain words, how many shoppers does this hit? like what fraction of cart actions fail right now',
    expect: { number: ratio('cart'), tolerance: 0.15 },
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'holdout-15',
    message: 'are customers able to pay right now? for the status page I need how many payments are failing (a percentage is fine) and when this started',
    expect: {
      all: [
        { number: ratio('payments'), tolerance: 0.15 },
        { at: 35, tolerance: 3 },
      ],
    },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'holdout-15',
    message: 'users keep telling us their photo uploads fail. is it everyone or just some people? what share of uploads are failing?',
    expect: { number: ratio('media', '/api/uploads'), tolerance: 0.15 },
  },
  {
    scenario: 'search-traffic-surge',
    split: 'holdout-15',
    message: 'search feels sluggish to the team. are more people searching than earlier today, or fewer?',
    expect: { direction: 'up' },
  },
  {
    scenario: 'node-not-ready',
    split: 'holdout-15',
    message: "someone on slack said the site is 'partly broken'. out of all the visits to the website right now, what share end up on an error page?",
    expect: { number: ratio('frontend'), tolerance: 0.3 },
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'holdout-15',
    message: "customers say their order confirmations haven't arrived. what is holding the orders up?",
    expect: { contains: ['orders-worker'] },
  },
  {
    scenario: 'billing-timeout-config-change',
    split: 'holdout-15',
    message: 'finance is asking if invoices are still going out. what share of invoice requests are failing right now?',
    expect: { number: ratio('billing'), tolerance: 0.2 },
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'holdout-15',
    message: "customers can't download their statements. is it all of them? a rough percentage of failing requests would help",
    expect: { number: ratio('statements'), tolerance: 0.2 },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'holdout-15',
    message: 'a few customers complained checkout is slow. is it actually slower than it was, or are they imagining it?',
    expect: { direction: 'up' },
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'holdout-15',
    message: "the 'you might also like' bit on product pages is loading slowly. since what time? I want to give the team a start time",
    expect: { at: 40, tolerance: 4 },
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: 'holdout-15',
    message: "eng says the orders service keeps 'restarting'. when did the very first of those restarts happen?",
    expect: { at: 41, tolerance: 3 },
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'holdout-15',
    earlier: ['is search down?'],
    message: 'customers say searching takes forever. how long do the slowest 1 in 100 searches take now, in seconds?',
    expect: {
      number: 'histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{job="search", route="/api/search"}[5m])))',
      tolerance: 0.3,
    },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'holdout-15',
    message: 'leadership wants a number: how much revenue have we lost from the failed payments so far?',
    expect: { cannot: true },
  },

  // An engineer whose English is a second language.
  {
    scenario: 'orders-memory-leak-oom',
    split: 'holdout-15',
    message: 'orders pod restart many times in last hour. what is reason of restart, and what is memory limit of orders container?',
    expect: { all: [{ contains: ['OOM'] }, { number: 'max(container_spec_memory_limit_bytes{container="orders"})', tolerance: 0.15 }] },
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'holdout-15',
    message: 'after deploy the checkout pods is crashloop. how many restart all checkout pods have together until now?',
    expect: { number: 'sum(kube_pod_container_status_restarts_total{namespace="shop", container="checkout"})', tolerance: 0.25 },
  },
  {
    scenario: 'cart-config-crashloop',
    split: 'holdout-15',
    message: 'new cart pod is crash at start, exit with error. image is same, nobody change code. so what is changed?',
    expect: { contains: ['cart-config'] },
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'holdout-15',
    earlier: ['why recommendations latency is high?'],
    message: 'how much percent of cpu periods is throttled now for recommendations?',
    expect: {
      number:
        'sum(rate(container_cpu_cfs_throttled_periods_total{container="recommendations"}[5m])) / sum(rate(container_cpu_cfs_periods_total{container="recommendations"}[5m]))',
      tolerance: 0.25,
    },
  },
  {
    scenario: 'search-noisy-neighbour',
    split: 'holdout-15',
    message: 'only one search pod is slow, other one is fine. traffic to search is increased or not?',
    expect: { direction: 'about the same' },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'holdout-15',
    message: 'payments node has cpu almost 100% because of some batch job. this is reason of payments 500 errors?',
    expect: { contains: ['1.9.0'] },
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'holdout-15',
    message: 'cart containers restart each minute, liveness probe fail. but why probe is failing? cart code not changed',
    expect: { contains: ['sessions-redis'] },
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'holdout-15',
    earlier: ['why inventory pods restart?'],
    message: 'how many restart inventory have in last 30 minutes, both pods together?',
    expect: { number: 'sum(increase(kube_pod_container_status_restarts_total{namespace="shop", container="inventory"}[30m]))', tolerance: 0.3 },
  },
  {
    scenario: 'billing-timeout-config-change',
    split: 'holdout-15',
    message: 'billing have errors. is tax-calculator service also failing?',
    expect: { asks: true },
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'holdout-15',
    earlier: ['why statements service return 503?'],
    message: 'when archive stopped to answer? need exact time for report',
    expect: { at: 36, tolerance: 3 },
  },
  {
    scenario: 'node-not-ready',
    split: 'holdout-15',
    message: 'frontend have 502 errors. which node has problem, and from when it is not ready?',
    expect: { all: [{ contains: ['ip-10-0-3-41'] }, { at: 36, tolerance: 3 }] },
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'holdout-15',
    message: 'paymnts is failing since half hour. what is error rate of paymnts?',
    expect: { asksFirst: 'payments' },
  },
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'holdout-15',
    message: 'ledger return 507 for POST entries. which volume is full?',
    expect: { contains: ['data-ledger'] },
  },
  {
    scenario: 'search-traffic-surge',
    split: 'holdout-15',
    message: 'search rps on /api/search now is how much? before it was around 40',
    expect: { number: 'sum(rate(http_requests_total{job="search", route="/api/search"}[5m]))', tolerance: 0.2 },
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'holdout-15',
    earlier: ['why payments calls to partner bank fail?'],
    message: 'when certificate is expired exactly?',
    expect: { at: 35, tolerance: 2 },
  },
];
