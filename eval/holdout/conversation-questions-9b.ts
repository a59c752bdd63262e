/**
 * Held-out conversation questions (ninth holdout, part B), written before the code they score; never copy or tune on them (eval/holdout/README.md).
 */
import type { QuestionCase } from '../conversation-cases';

const CHECKOUT_RATIO_30M = 'sum(rate(http_requests_total{job="checkout",code=~"5.."}[30m])) / sum(rate(http_requests_total{job="checkout"}[30m]))';
const p99 = (selector: string, window = '15m', offset = ''): string =>
  `histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{${selector}}[${window}]${offset})))`;
const errorRatio = (selector: string, window = '15m'): string =>
  `sum(rate(http_requests_total{${selector},code=~"5.."}[${window}])) / sum(rate(http_requests_total{${selector}}[${window}]))`;
const peerFailRatio = (job: string, peer: string): string =>
  `sum(rate(http_client_requests_total{job="${job}",peer="${peer}",code!="200"}[15m])) / sum(rate(http_client_requests_total{job="${job}",peer="${peer}"}[15m]))`;
const peerMean = (job: string, peer: string, offset = ''): string =>
  `sum(rate(http_client_request_duration_seconds_sum{job="${job}",peer="${peer}"}[${offset ? '30m' : '15m'}]${offset})) / sum(rate(http_client_request_duration_seconds_count{job="${job}",peer="${peer}"}[${offset ? '30m' : '15m'}]${offset}))`;
const throttled = (container: string, window: string, offset = ''): string =>
  `sum(increase(container_cpu_cfs_throttled_periods_total{container="${container}"}[${window}]${offset})) / sum(increase(container_cpu_cfs_periods_total{container="${container}"}[${window}]${offset}))`;

export const NINTH_HOLDOUT_QUESTIONS_B: QuestionCase[] = [
  // checkout-bad-version
  {
    scenario: 'checkout-bad-version',
    split: 'holdout-9',
    message:
      'ok im on the bridge cant hear much so what percent of checkout requests failed over the last half our and what time did the new version start rolling out',
    expect: {
      all: [
        { number: CHECKOUT_RATIO_30M, tolerance: 0.25 },
        { at: 38, tolerance: 3 },
      ],
    },
  },
  {
    scenario: 'checkout-bad-version',
    split: 'holdout-9',
    earlier: ['whats new on checkout since this morning'],
    message: 'right so which pods are running that new build and what nodes are they sitting on',
    expect: { podsOf: { workload: 'checkout', version: '2.15.0' } },
  },
  {
    scenario: 'checkout-bad-version',
    split: 'holdout-9',
    message:
      'Hi, I lead the storefront team, we sit in front of checkout. Before I brief my director: how much revenue have we lost so far because of these failed checkouts?',
    expect: { cannot: true },
  },

  // search-slow-version-chronic-alert
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'holdout-9',
    message:
      "CPUThrottlingHigh on recommendations landed before the search page. I want to know if that's just steady state: what fraction of recommendations' CFS periods were throttled over the last 30 minutes?",
    expect: { number: throttled('recommendations', '30m'), tolerance: 0.2 },
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'holdout-9',
    earlier: ['when did SearchLatencyHigh go pending?'],
    message: 'OK. So what does the p99 say since then — higher or lower than the hour before, and by how much?',
    expect: {
      all: [{ number: p99('job="search"'), tolerance: 0.3 }, { direction: 'up' }],
    },
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'holdout-9',
    message: 'our autocomplete widget depends on serch — should we expect it to stay this slow for the next hour?',
    expect: { asksFirst: 'search' },
  },

  // inventory-down-harmless-rollout
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'holdout-9',
    message:
      "I run the checkout team. Inventory looks dead from where we sit — what share of our calls to inventory fail right now, and what share of checkout's own requests are erroring because of it?",
    expect: {
      all: [
        { number: peerFailRatio('checkout', 'inventory'), tolerance: 0.1 },
        { number: errorRatio('job="checkout"'), tolerance: 0.2 },
      ],
    },
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'holdout-9',
    message: "Blackbox has a probe on inventory's /healthz. Did it catch the outage, and at what time did it first go red?",
    expect: { at: 36, tolerance: 3 },
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'holdout-9',
    earlier: ['what changed right before CheckoutHighErrorRate?'],
    message:
      'Interesting. And the checkout 2.14.4 rollout — when did it start, and when did inventory stop answering? What does the gap between the two tell you?',
    expect: {
      all: [
        { at: 44, tolerance: 3 },
        { at: 36, tolerance: 3 },
      ],
    },
  },

  // orders-memory-leak-oom
  {
    scenario: 'orders-memory-leak-oom',
    split: 'holdout-9',
    message: 'orders is restarting like crazy how many restarts in the passed hour across the orders pods and what was the last termination reason',
    expect: {
      all: [{ number: 'sum(increase(kube_pod_container_status_restarts_total{container="orders"}[1h]))', tolerance: 0.2 }, { contains: ['OOMKilled'] }],
    },
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: 'holdout-9',
    message: "Before we blame the kills themselves — when did orders' working set actually start climbing? Before or after the first OOM?",
    expect: { all: [{ at: 75, tolerance: 4 }] },
  },

  // media-disk-full-flapping-alert
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'holdout-9',
    message: 'media uploads are failing which disk filled up on which node and what time did it hit zero',
    expect: {
      all: [{ contains: ['ip-10-0-2-34', '/var/lib/media'] }, { at: 37, tolerance: 3 }],
    },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'holdout-9',
    earlier: ['is media down?'],
    message: "We're the listings team — we upload photos to media and fetch them back later. Which of those is broken for us, and how badly?",
    expect: {
      all: [{ contains: ['/api/uploads'] }, { number: errorRatio('job="media",route="/api/uploads"'), tolerance: 0.1 }],
    },
  },

  // search-traffic-surge
  {
    scenario: 'search-traffic-surge',
    split: 'holdout-9',
    message: "Web team lead here. Someone says our new frontend is hammering search. What is search's request rate now, and what was it an hour ago?",
    expect: {
      all: [
        { number: 'sum(rate(http_requests_total{job="search"}[15m]))', tolerance: 0.2 },
        { number: 'sum(rate(http_requests_total{job="search"}[30m] offset 1h))', tolerance: 0.25 },
      ],
    },
  },
  {
    scenario: 'search-traffic-surge',
    split: 'holdout-9',
    earlier: ["what's search's p99 right now?"],
    message: "And why would it be that slow? How many cores is search actually burning at the moment — have you held that against what it's allowed?",
    expect: { all: [{ number: 'sum(rate(container_cpu_usage_seconds_total{container="search"}[15m]))', tolerance: 0.2 }] },
  },
  {
    scenario: 'search-traffic-surge',
    split: 'holdout-9',
    message: 'search latency when did it actually start going up and was that before or after the front end roll out',
    expect: { all: [{ at: 39, tolerance: 3 }] },
  },

  // cart-config-crashloop
  {
    scenario: 'cart-config-crashloop',
    split: 'holdout-9',
    earlier: ['which cart pod is crash looping?'],
    message: 'Did the rollout stall the way it should, with the old replicas still serving? And how many restarts has the broken pod racked up so far?',
    expect: { all: [{ number: 'sum(kube_pod_container_status_restarts_total{container="cart"})', tolerance: 0.2 }] },
  },
  {
    scenario: 'cart-config-crashloop',
    split: 'holdout-9',
    message: 'cart crash looping was it the config map or a new image that changed and what time was that',
    expect: {
      all: [{ contains: ['cart-config'] }, { at: 38, tolerance: 3 }],
    },
  },
  {
    scenario: 'cart-config-crashloop',
    split: 'holdout-9',
    message: 'My team owns wishlist-svc and it reads cart data. Is wishlist-svc affected by this, or can we stand down?',
    expect: { asks: true },
  },

  // orders-worker-scaled-to-zero
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'holdout-9',
    message: 'Fulfilment team here, we wait on orders being processed. How far behind is the orders queue — how old is the oldest message still waiting?',
    expect: { number: 'max(time() - rabbitmq_queue_head_message_timestamp{queue="orders"})', tolerance: 0.15 },
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'holdout-9',
    earlier: ['why are messages in the orders queue going stale?'],
    message: 'Right. So when exactly did the queue lose its last consumer — and does that line up with the replica change?',
    expect: { at: 44, tolerance: 3 },
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'holdout-9',
    message: 'Was ordrs-worker taken down by the autoscaler or by a human? I need to know whether our scale-to-zero guard failed.',
    expect: { asksFirst: 'orders-worker' },
  },

  // checkout-slow-partner-bank
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'holdout-9',
    message: "What does partner-bank's average response time look like from payments' side now, and what was it an hour ago?",
    expect: {
      all: [
        { number: peerMean('payments', 'partner-bank'), tolerance: 0.25 },
        { number: peerMean('payments', 'partner-bank', ' offset 1h'), tolerance: 0.25 },
      ],
    },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'holdout-9',
    message:
      'payments is meant to retry partner-bank calls twice with backoff. How many retries has payments actually made against partner-bank in the last 30 minutes?',
    expect: { cannot: true },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'holdout-9',
    earlier: ['is checkout down?'],
    message: "Mobile app lead. OK so not down but slow — what's checkout's p99 right now, and are any of our checkout calls actually failing?",
    expect: {
      all: [
        { number: p99('job="checkout"'), tolerance: 0.3 },
        { number: errorRatio('job="checkout"'), tolerance: 0.35 },
      ],
    },
  },

  // recommendations-cpu-throttled
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'holdout-9',
    message:
      'The new recommendations pods run with a smaller CPU quota. Is CFS enforcing it — what share of periods are throttled now, versus the same share an hour ago?',
    expect: {
      all: [
        { number: throttled('recommendations', '15m'), tolerance: 0.2 },
        { number: throttled('recommendations', '30m', ' offset 1h'), tolerance: 0.35 },
      ],
    },
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'holdout-9',
    earlier: ['why is recommendations slow?'],
    message: 'And the CPU limit on those pods — what is it now, and what was it before the rollout?',
    expect: {
      all: [
        { number: 'max(kube_pod_container_resource_limits{container="recommendations",resource="cpu"})', tolerance: 0.1 },
        { number: 'max(kube_pod_container_resource_limits{container="recommendations",resource="cpu"} offset 1h)', tolerance: 0.1 },
      ],
    },
  },

  // node-not-ready
  {
    scenario: 'node-not-ready',
    split: 'holdout-9',
    message: 'frontend throwing 502s which node went not ready and what time did it drop of',
    expect: {
      all: [{ contains: ['ip-10-0-3-41'] }, { at: 36, tolerance: 3 }],
    },
  },
  {
    scenario: 'node-not-ready',
    split: 'holdout-9',
    message: 'Frontend team lead: what share of our calls to cart are failing right now, and which cart pod is the bad one?',
    expect: {
      all: [{ number: peerFailRatio('frontend', 'cart'), tolerance: 0.2 }, { contains: ['cart-d7b5fbc6d-tk7ck'] }],
    },
  },
  {
    scenario: 'node-not-ready',
    split: 'holdout-9',
    earlier: ['which node is NotReady?'],
    message:
      'The cart pod on that node should have been evicted and rescheduled once the toleration ran out. Was it, or is it still stuck there? Give me its name.',
    expect: { contains: ['cart-d7b5fbc6d-tk7ck'] },
  },

  // partner-bank-certificate-expired
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'holdout-9',
    message: 'Does this outage hit fraud-check too? My team owns fraud-check and it sits behind payments.',
    expect: { asks: true },
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'holdout-9',
    message: "Going by the blackbox probe, when exactly did partner-bank's certificate expire, and did the probe start failing at that same moment?",
    expect: { all: [{ at: 35, tolerance: 3 }] },
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'holdout-9',
    earlier: ['payments alert what is it'],
    message: 'ok what percent of payments requests are failing right now and since what time',
    expect: {
      all: [
        { number: errorRatio('job="payments"'), tolerance: 0.1 },
        { at: 35, tolerance: 3 },
      ],
    },
  },

  // ordersdb-connections-exhausted
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'holdout-9',
    message: 'How close is ordersdb to its max_connections, as a percentage — and which state are most of those connections sitting in?',
    expect: {
      all: [{ number: 'sum(pg_stat_activity_count) / max(pg_settings_max_connections)', tolerance: 0.1 }, { contains: ['idle in transaction'] }],
    },
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'holdout-9',
    earlier: ['orders errors whats going on'],
    message: 'ok and the orders roll out to 2.3.1 was that before or after the database connections maxed out give me both times',
    expect: {
      all: [
        { at: 46, tolerance: 3 },
        { at: 40, tolerance: 3 },
      ],
    },
  },

  // sessions-redis-down-flapping-alert
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'holdout-9',
    message: 'Is redis_exporter itself still being scraped fine? And at what time did sessions-redis report down?',
    expect: { all: [{ at: 36, tolerance: 3 }] },
  },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'holdout-9',
    earlier: ['why did FrontendTargetDown page before the cart alert?'],
    message:
      "So is that flapping frontend target your cause, or a bystander? What share of cart's requests fail now, and what share of cart's calls to sessions-redis?",
    expect: {
      all: [
        { number: errorRatio('job="cart"'), tolerance: 0.1 },
        { number: peerFailRatio('cart', 'sessions-redis'), tolerance: 0.1 },
      ],
    },
  },

  // payments-bad-version-noisy-neighbour
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'holdout-9',
    message: 'ledger-reconcile is pinning a node. How many cores is it using, on which node, and does any payments pod still run there after the rollout?',
    expect: {
      all: [{ number: 'sum(rate(container_cpu_usage_seconds_total{container="ledger-reconcile"}[15m]))', tolerance: 0.15 }, { contains: ['ip-10-0-3-41'] }],
    },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'holdout-9',
    message: 'payments new version which pods got it and what nodes there on',
    expect: { podsOf: { workload: 'payments', version: '1.9.0' } },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'holdout-9',
    message: 'Checkout lead here: payments keeps handing us 500s. What share of payments requests fail, and since when?',
    expect: {
      all: [
        { number: errorRatio('job="payments"'), tolerance: 0.15 },
        { at: 36, tolerance: 3 },
      ],
    },
  },

  // checkout-memory-limit-lowered
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'holdout-9',
    message: 'Resources-only rollout on checkout: what memory limit do the new pods get, what did the old ones have, and is the kill reason OOMKilled?',
    expect: {
      all: [
        { number: 'max(kube_pod_container_resource_limits{container="checkout",resource="memory"})', tolerance: 0.05 },
        { number: 'max(kube_pod_container_resource_limits{container="checkout",resource="memory"} offset 1h)', tolerance: 0.05 },
        { contains: ['OOMKilled'] },
      ],
    },
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'holdout-9',
    message: 'Frontend lead here. With checkout crash looping, how many requests per second is checkout still serving, compared with an hour ago?',
    expect: {
      all: [
        { number: 'sum(rate(http_requests_total{job="checkout"}[15m]))', tolerance: 0.25 },
        { number: 'sum(rate(http_requests_total{job="checkout"}[30m] offset 1h))', tolerance: 0.2 },
      ],
    },
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'holdout-9',
    earlier: ["what's crash looping?"],
    message: 'Fine. How many restarts over the last half hour across those checkout pods — and is it slowing down the way backoff should make it?',
    expect: { all: [{ number: 'sum(increase(kube_pod_container_status_restarts_total{container="checkout"}[30m]))', tolerance: 0.25 }] },
  },

  // ledger-volume-full-chronic-mount
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'holdout-9',
    earlier: ['ledger writes failing'],
    message: 'is it the archive disk on that node or ledgers own volume and what time did it run out of space',
    expect: {
      all: [{ contains: ['data-ledger'] }, { at: 36, tolerance: 3 }],
    },
  },
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'holdout-9',
    message: "What's the capacity of ledger's volume claim? And the full /var/log/archive mount on the same node — new since the page, or full all along?",
    expect: {
      all: [{ number: 'max(kubelet_volume_stats_capacity_bytes{persistentvolumeclaim="data-ledger"})', tolerance: 0.05 }, { contains: ['/var/log/archive'] }],
    },
  },

  // accounts-pool-exhausted-harmless-rollout
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'holdout-9',
    earlier: ['accounts failing what is it'],
    message: 'ok and that accounts roll out 1.4.1 when did it go out and when did the errors start give me both',
    expect: {
      all: [
        { at: 47, tolerance: 3 },
        { at: 38, tolerance: 3 },
      ],
    },
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'holdout-9',
    message: 'login team here — is acounts going to keep timing out on us?',
    expect: { asksFirst: 'accounts' },
  },

  // cart-liveness-slow-redis
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'holdout-9',
    message:
      "What does cart's latency to sessions-redis look like now, on average, next to an hour ago? Then tell me what a one-second liveness timeout does with that.",
    expect: {
      all: [
        { number: peerMean('cart', 'sessions-redis'), tolerance: 0.3 },
        { number: peerMean('cart', 'sessions-redis', ' offset 1h'), tolerance: 0.35 },
      ],
    },
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'holdout-9',
    message: 'Frontend team: cart keeps restarting under us. How much traffic is cart still serving in req/s, and what was normal an hour ago?',
    expect: {
      all: [
        { number: 'sum(rate(http_requests_total{job="cart"}[15m]))', tolerance: 0.2 },
        { number: 'sum(rate(http_requests_total{job="cart"}[30m] offset 1h))', tolerance: 0.2 },
      ],
    },
  },

  // inventory-liveness-unexplained
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'holdout-9',
    message: "What do inventory's own logs say in the seconds before each kill? Show me the stack it was stuck in.",
    expect: { cannot: true },
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'holdout-9',
    earlier: ['why is inventory restarting?'],
    message: "catalog-sync bursts on one of inventory's nodes. Which node, and how many cores is catalog-sync using there — enough to starve anything?",
    expect: {
      all: [{ number: 'sum(rate(container_cpu_usage_seconds_total{container="catalog-sync"}[15m]))', tolerance: 0.2 }, { contains: ['ip-10-0-3-41'] }],
    },
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'holdout-9',
    message: 'inventory pods keep getting restarted how many restarts in the last half hour all together and is it the liveness probe doing it',
    expect: { all: [{ number: 'sum(increase(kube_pod_container_status_restarts_total{container="inventory"}[30m]))', tolerance: 0.2 }] },
  },

  // search-noisy-neighbour
  {
    scenario: 'search-noisy-neighbour',
    split: 'holdout-9',
    earlier: ['which batch jobs got busy around the page?'],
    message: "Three of them, yes. Which one actually shares a node with a search pod that slowed down — which pod is that, and what's its p99 now?",
    expect: {
      all: [{ contains: ['video-transcode', 'search-878b86fb7-m9xrk'] }, { number: p99('job="search",pod="search-878b86fb7-m9xrk"'), tolerance: 0.3 }],
    },
  },
  {
    scenario: 'search-noisy-neighbour',
    split: 'holdout-9',
    message: 'search p99 what is it now and what was it an our ago roughly',
    expect: {
      all: [
        { number: p99('job="search"'), tolerance: 0.3 },
        { number: p99('job="search"', '30m', ' offset 1h'), tolerance: 0.3 },
      ],
    },
  },

  // billing-timeout-config-change
  {
    scenario: 'billing-timeout-config-change',
    split: 'holdout-9',
    message: "With a 150ms client timeout billing ought to fail fast, not hang. What's billing's p99 now, and is it any different from before the change?",
    expect: { all: [{ number: p99('job="billing"'), tolerance: 0.3 }] },
  },
  {
    scenario: 'billing-timeout-config-change',
    split: 'holdout-9',
    message: 'billing errors what percent and what got changed right before it and who pushed it',
    expect: {
      all: [{ number: errorRatio('job="billing"'), tolerance: 0.15 }, { contains: ['grace'] }],
    },
  },
  {
    scenario: 'billing-timeout-config-change',
    split: 'holdout-9',
    earlier: ['what changed on billing?'],
    message: 'When was that pushed, and when did the first 504s show up? What does the order of those two tell you?',
    expect: {
      all: [
        { at: 37, tolerance: 3 },
        { at: 36, tolerance: 3 },
      ],
    },
  },

  // archive-down-reported-deploy-red-herring
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'holdout-9',
    message: 'Customer portal lead: statements is failing for our users — how much of it, and is that their own deploy or something they depend on?',
    expect: {
      all: [{ number: errorRatio('job="statements"'), tolerance: 0.15 }, { contains: ['archive'] }],
    },
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'holdout-9',
    message:
      'The statements-static deploy went out before the page. When exactly — and when did archive stop answering? Which of the two lines up with the errors?',
    expect: {
      all: [
        { at: 48, tolerance: 3 },
        { at: 36, tolerance: 3 },
      ],
    },
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'holdout-9',
    earlier: ['is archive down?'],
    message: 'Did the circuit breaker in statements-edge trip the way it should, or is it still hammering archive?',
    expect: { asks: true },
  },
];
