/**
 * Held-out conversation questions (fourteenth holdout, part A), written before the code they score; never copy or tune on them (eval/holdout/README.md).
 * Voices: a backend developer of a calling service, an engineer verifying a fix or rollback, an operations veteran used to VMs, an on-call engineer typing on a phone at night.
 */
import type { QuestionCase } from '../conversation-cases';

export const FOURTEENTH_HOLDOUT_QUESTIONS_A: QuestionCase[] = [
  // checkout-bad-version
  {
    scenario: 'checkout-bad-version',
    split: 'holdout-14',
    message:
      "hey, mobile-api backend here. we POST to checkout's /api/checkout for every order we place. how many of those requests per second are coming back as 5xx right now?",
    expect: {
      number: 'sum(rate(http_requests_total{job="checkout", route="/api/checkout", code=~"5.."}[5m]))',
      tolerance: 0.2,
    },
  },
  {
    scenario: 'checkout-bad-version',
    split: 'holdout-14',
    message:
      "We pulled 2.15.0 and rolled checkout back about ten minutes ago. Is checkout's error ratio back to what it was before that deploy, or still higher?",
    expect: { direction: 'up' },
  },
  {
    scenario: 'checkout-bad-version',
    split: 'holdout-14',
    message: 'Which boxes did the new checkout build, 2.15.0, get installed on?',
    expect: { podsOf: { workload: 'checkout', version: '2.15.0' } },
  },

  // search-slow-version-chronic-alert
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'holdout-14',
    message:
      "storefront backend dev here - our product listing page calls search's /api/search. what's the average response time of /api/search at the moment?",
    expect: {
      number:
        'sum(rate(http_request_duration_seconds_sum{job="search", route="/api/search"}[5m])) / sum(rate(http_request_duration_seconds_count{job="search", route="/api/search"}[5m]))',
      tolerance: 0.2,
    },
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'holdout-14',
    earlier: [
      "storefront backend dev here - our product listing page calls search's /api/search. what's the average response time of /api/search at the moment?",
    ],
    message: 'and /api/suggest, which our autocomplete box hits? has its latency moved compared with before, or is it unchanged',
    expect: { direction: 'about the same' },
  },

  // inventory-down-harmless-rollout
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'holdout-14',
    message: "I own checkout. How many of checkout's outgoing calls to inventory are failing per second now?",
    expect: {
      number: 'sum(rate(http_client_requests_total{job="checkout", peer="inventory", code!="200"}[5m]))',
      tolerance: 0.2,
    },
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'holdout-14',
    earlier: ["checkout's calls to inventory are failing, is inventory down?"],
    message: 'we bounced the inventory pods and still nothing. for the timeline: from what time has inventory been unreachable?',
    expect: { at: 36, tolerance: 3 },
  },

  // orders-memory-leak-oom
  {
    scenario: 'orders-memory-leak-oom',
    split: 'holdout-14',
    message: 'ordrs keeps restartin wat kills it',
    expect: { contains: ['OOMKilled'] },
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: 'holdout-14',
    earlier: ["The orders app keeps getting bounced on every box. What's killing it?"],
    message: "What's the memory cap on those instances, and how much is the hungriest one using right now?",
    expect: {
      all: [
        { number: 'max(kube_pod_container_resource_limits{container="orders", resource="memory"})', tolerance: 0.1 },
        { number: 'max(container_memory_working_set_bytes{container="orders"})', tolerance: 0.15 },
      ],
    },
  },

  // media-disk-full-flapping-alert
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'holdout-14',
    message: 'Cleared old files off the media volume five minutes ago. Is the upload failure ratio back to normal? What is it now?',
    expect: {
      number:
        'sum(rate(http_requests_total{job="media", route="/api/uploads", code=~"5.."}[5m])) / sum(rate(http_requests_total{job="media", route="/api/uploads"}[5m]))',
      tolerance: 0.1,
    },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'holdout-14',
    earlier: ['media uploads alert wats up'],
    message: 'since wen',
    expect: { at: 37, tolerance: 3 },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'holdout-14',
    message: 'Which server ran out of disk space, and on which mount?',
    expect: { contains: ['ip-10-0-2-34', '/var/lib/media'] },
  },

  // search-traffic-surge
  {
    scenario: 'search-traffic-surge',
    split: 'holdout-14',
    message: "frontend team here. our 5.2.1 went out just before search got slow - was it us, or what's actually hitting search?",
    expect: { contains: ['/api/search'] },
  },
  {
    scenario: 'search-traffic-surge',
    split: 'holdout-14',
    message: "We blocked the crawler's user agent at the CDN. Has /api/search traffic dropped back? I need the req/s on /api/search now and an hour ago.",
    expect: {
      all: [
        { number: 'sum(rate(http_requests_total{job="search", route="/api/search"}[5m]))', tolerance: 0.15 },
        { number: 'sum(rate(http_requests_total{job="search", route="/api/search"}[5m] offset 1h))', tolerance: 0.15 },
      ],
    },
  },
  {
    scenario: 'search-traffic-surge',
    split: 'holdout-14',
    earlier: ['search slow af whats going on'],
    message: 'cpu pegged? how many cores is search using total rn',
    expect: { number: 'sum(rate(container_cpu_usage_seconds_total{container="search"}[5m]))', tolerance: 0.15 },
  },

  // cart-config-crashloop
  {
    scenario: 'cart-config-crashloop',
    split: 'holdout-14',
    message: "We paused the cart rollout. Is cart's error ratio normal again compared with before the configmap edit?",
    expect: { direction: 'about the same' },
  },
  {
    scenario: 'cart-config-crashloop',
    split: 'holdout-14',
    earlier: ['cart crashloop alert again wtf'],
    message: 'how many restarts on the broken pod so far',
    expect: { number: 'max(kube_pod_container_status_restarts_total{container="cart"})', tolerance: 0.2 },
  },
  {
    scenario: 'cart-config-crashloop',
    split: 'holdout-14',
    message: "The new cart instance won't stay up. Did somebody change a config file? Which one?",
    expect: { contains: ['cart-config'], excludes: ['frontend-config'] },
  },

  // orders-worker-scaled-to-zero
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'holdout-14',
    message: 'we publish order events from checkout onto the orders queue. how old is the oldest message still sitting in that queue, in seconds?',
    expect: { number: 'max(time() - rabbitmq_queue_head_message_timestamp{queue="orders"})', tolerance: 0.1 },
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'holdout-14',
    message: 'orders-worker is scaled back up now. For the incident doc: when did the orders queue end up with zero consumers?',
    expect: { at: 44, tolerance: 3 },
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'holdout-14',
    message: 'hows ord doin',
    expect: { asksFirst: 'orders' },
  },

  // checkout-slow-partner-bank
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'holdout-14',
    message: "checkout backend dev. our calls into payments feel sluggish - what's the mean duration of checkout's calls to payments right now?",
    expect: {
      number:
        'sum(rate(http_client_request_duration_seconds_sum{job="checkout", peer="payments"}[5m])) / sum(rate(http_client_request_duration_seconds_count{job="checkout", peer="payments"}[5m]))',
      tolerance: 0.2,
    },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'holdout-14',
    earlier: ['why is checkout slow?'],
    message: "partner-bank claims they fixed it on their side. what's the average time of payments' calls to partner-bank now, versus an hour ago?",
    expect: {
      all: [
        {
          number:
            'sum(rate(http_client_request_duration_seconds_sum{job="payments", peer="partner-bank"}[5m])) / sum(rate(http_client_request_duration_seconds_count{job="payments", peer="partner-bank"}[5m]))',
          tolerance: 0.2,
        },
        {
          number:
            'sum(rate(http_client_request_duration_seconds_sum{job="payments", peer="partner-bank"}[5m] offset 1h)) / sum(rate(http_client_request_duration_seconds_count{job="payments", peer="partner-bank"}[5m] offset 1h))',
          tolerance: 0.2,
        },
      ],
    },
  },

  // recommendations-cpu-throttled
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'holdout-14',
    message: 'Raised the recommendations CPU limit back up a few minutes ago. Is it still being throttled? What fraction of its CFS periods are throttled now?',
    expect: {
      number:
        'sum(rate(container_cpu_cfs_throttled_periods_total{container="recommendations"}[5m])) / sum(rate(container_cpu_cfs_periods_total{container="recommendations"}[5m]))',
      tolerance: 0.15,
    },
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'holdout-14',
    message: 'How many CPUs is each recommendations app instance allowed now, and what was it allowed before the change?',
    expect: {
      all: [
        { number: 'max(kube_pod_container_resource_limits{container="recommendations", resource="cpu"})', tolerance: 0.1 },
        {
          number: 'max(max_over_time(kube_pod_container_resource_limits{container="recommendations", resource="cpu"}[1h] offset 1h))',
          tolerance: 0.1,
        },
      ],
    },
  },

  // node-not-ready
  {
    scenario: 'node-not-ready',
    split: 'holdout-14',
    message: "frontend team - what percentage of frontend's calls to cart are timing out at the moment?",
    expect: {
      number:
        'sum(rate(http_client_requests_total{job="frontend", peer="cart", code="timeout"}[5m])) / sum(rate(http_client_requests_total{job="frontend", peer="cart"}[5m]))',
      tolerance: 0.1,
    },
  },
  {
    scenario: 'node-not-ready',
    split: 'holdout-14',
    message: "Drained ip-10-0-3-41 and cart should have moved. Are frontend's errors back to baseline? Give me the 5xx ratio now, and when it started.",
    expect: {
      all: [
        {
          number: 'sum(rate(http_requests_total{job="frontend", code=~"5.."}[5m])) / sum(rate(http_requests_total{job="frontend"}[5m]))',
          tolerance: 0.15,
        },
        { at: 36, tolerance: 3 },
      ],
    },
  },
  {
    scenario: 'node-not-ready',
    split: 'holdout-14',
    message: 'One of our servers went dark. Which host was it, and which cart instance was sitting on it?',
    expect: { contains: ['ip-10-0-3-41', 'cart-d7b5fbc6d-tk7ck'] },
  },

  // partner-bank-certificate-expired
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'holdout-14',
    message: "our checkout flow calls payments for every order. what share of payments' requests are erroring right now?",
    expect: {
      number: 'sum(rate(http_requests_total{job="payments", code=~"5.."}[5m])) / sum(rate(http_requests_total{job="payments"}[5m]))',
      tolerance: 0.1,
    },
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'holdout-14',
    message: "When exactly did the bank's SSL certificate run out, and how many payment requests per second are failing because of it?",
    expect: {
      all: [
        { at: 35, tolerance: 3 },
        { number: 'sum(rate(http_requests_total{job="payments", code=~"5.."}[5m]))', tolerance: 0.2 },
      ],
    },
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'holdout-14',
    message: 'who let the partner bank cert expire. whose team owns renewing it',
    expect: { cannot: true },
  },

  // ordersdb-connections-exhausted
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'holdout-14',
    message: 'ordersdb conns vs max_connections rn',
    expect: {
      all: [
        { number: 'sum(pg_stat_activity_count)', tolerance: 0.1 },
        { number: 'max(pg_settings_max_connections)', tolerance: 0.1 },
      ],
    },
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'holdout-14',
    earlier: ['how many connections does ordersdb have open compared to its max?'],
    message: "We killed the report export's sessions a couple of minutes ago. How many ordersdb connections are idle in transaction now?",
    expect: { number: 'sum(pg_stat_activity_count{state="idle in transaction"})', tolerance: 0.15 },
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'holdout-14',
    message: "Who kicked off the big report export that's hogging the orders database server? I want a name.",
    expect: { cannot: true },
  },

  // sessions-redis-down-flapping-alert
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'holdout-14',
    message: "I own frontend and we call cart on every page load. what fraction of cart's requests fail right now?",
    expect: {
      number: 'sum(rate(http_requests_total{job="cart", code=~"5.."}[5m])) / sum(rate(http_requests_total{job="cart"}[5m]))',
      tolerance: 0.1,
    },
  },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'holdout-14',
    message: 'sessions redis down since?? n how much of cart is failing',
    expect: {
      all: [
        { at: 36, tolerance: 3 },
        {
          number: 'sum(rate(http_requests_total{job="cart", code=~"5.."}[5m])) / sum(rate(http_requests_total{job="cart"}[5m]))',
          tolerance: 0.1,
        },
      ],
    },
  },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'holdout-14',
    message: "What's the state of the memcached-sessions box?",
    expect: { asks: true },
  },

  // payments-bad-version-noisy-neighbour
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'holdout-14',
    message: 'payments is a hard dependency of checkout, how hard is it hurting us? how many payments requests per second fail at the moment',
    expect: { number: 'sum(rate(http_requests_total{job="payments", code=~"5.."}[5m]))', tolerance: 0.2 },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'holdout-14',
    earlier: ['which nodes run payments 1.9.0?'],
    message: 'rolled those back to 1.8.0 ten min ago. compared with before the release, is the payments error ratio down again?',
    expect: { direction: 'up' },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'holdout-14',
    message: 'Payments 1.9.0: what servers is it running on?',
    expect: { podsOf: { workload: 'payments', version: '1.9.0' } },
  },

  // checkout-memory-limit-lowered
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'holdout-14',
    earlier: ['checkout crashlooping after the limits change?'],
    message: 'restarts total all pods so far',
    expect: { number: 'sum(kube_pod_container_status_restarts_total{container="checkout"})', tolerance: 0.2 },
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'holdout-14',
    message: 'What RAM cap is the checkout app running with now, and what did it have before all this started?',
    expect: {
      all: [
        { number: 'max(kube_pod_container_resource_limits{container="checkout", resource="memory"})', tolerance: 0.1 },
        {
          number: 'max(max_over_time(kube_pod_container_resource_limits{container="checkout", resource="memory"}[1h] offset 1h))',
          tolerance: 0.1,
        },
      ],
    },
  },

  // ledger-volume-full-chronic-mount
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'holdout-14',
    message: 'ledger writes failng since when??',
    expect: { at: 36, tolerance: 3 },
  },
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'holdout-14',
    message: "Which disk filled up on the ledger server? The log archive mount has been full forever, so I'm assuming it isn't that one.",
    expect: { contains: ['data-ledger'] },
  },

  // accounts-pool-exhausted-harmless-rollout
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'holdout-14',
    message:
      'Restarted both accounts instances five minutes ago to free up the pool. Relative to before the 1.4.1 rollout, is the accounts error ratio higher, lower or the same now?',
    expect: { direction: 'up' },
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'holdout-14',
    message: 'acc p99?',
    expect: { asksFirst: 'accounts' },
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'holdout-14',
    message: 'Is the accounts database server out of connections? How many does it have open right now?',
    expect: { number: 'sum(pg_stat_activity_count)', tolerance: 0.15 },
  },

  // cart-liveness-slow-redis
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'holdout-14',
    earlier: ['frontend backend here, are our calls to cart affected by all these cart restarts?'],
    message: "ok and how slow is cart for us, what's its p99 right now",
    expect: {
      number: 'histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{job="cart"}[5m])))',
      tolerance: 0.2,
    },
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'holdout-14',
    message: 'cart restarts last 15m all pods??',
    expect: { number: 'sum(increase(kube_pod_container_status_restarts_total{container="cart"}[15m]))', tolerance: 0.2 },
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'holdout-14',
    message: 'Why does the cart app keep getting bounced? The boxes themselves look perfectly healthy to me.',
    expect: { contains: ['sessions-redis'] },
  },

  // inventory-liveness-unexplained
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'holdout-14',
    message:
      "checkout team, we read stock from inventory on each request. since inventory started restarting, has checkout's error ratio gone up or is it about where it was?",
    expect: { direction: 'about the same' },
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'holdout-14',
    message: 'We restarted inventory by hand and the restarts keep coming anyway. At what time did the liveness restarts begin?',
    expect: { at: 37, tolerance: 3 },
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'holdout-14',
    message: 'inv pods keep restarting. which thread is deadlocked, got a stack trace?',
    expect: { cannot: true },
  },

  // search-noisy-neighbour
  {
    scenario: 'search-noisy-neighbour',
    split: 'holdout-14',
    message: 'Before we scale search out: is it actually getting more traffic than before the latency went up, or is it the same load?',
    expect: { direction: 'about the same' },
  },
  {
    scenario: 'search-noisy-neighbour',
    split: 'holdout-14',
    message: "Which box is the slow search instance sitting on, and what's eating that server's CPU?",
    expect: { contains: ['ip-10-0-2-34', 'video-transcode'] },
  },

  // billing-timeout-config-change
  {
    scenario: 'billing-timeout-config-change',
    split: 'holdout-14',
    message: "we're on the checkout team and call billing's POST /api/invoices. what proportion of invoice requests are failing now?",
    expect: {
      number: 'sum(rate(http_requests_total{job="billing", code=~"5.."}[5m])) / sum(rate(http_requests_total{job="billing"}[5m]))',
      tolerance: 0.1,
    },
  },
  {
    scenario: 'billing-timeout-config-change',
    split: 'holdout-14',
    earlier: ['what changed on billing around the time the errors started?'],
    message: 'We reverted the ledger timeout to 2s. How many 504s per second is billing still returning?',
    expect: { number: 'sum(rate(http_requests_total{job="billing", code="504"}[5m]))', tolerance: 0.2 },
  },
  {
    scenario: 'billing-timeout-config-change',
    split: 'holdout-14',
    message: 'who pushed the billing cfg chng',
    expect: { contains: ['grace'] },
  },

  // archive-down-reported-deploy-red-herring
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'holdout-14',
    message: 'statements service owner here. how many of our calls to archive are failing per second, and since what time?',
    expect: {
      all: [
        { number: 'sum(rate(http_client_requests_total{job="statements", peer="archive", code!="200"}[5m]))', tolerance: 0.2 },
        { at: 36, tolerance: 3 },
      ],
    },
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'holdout-14',
    message: 'statemnts deploy 12 min b4 this. roll it back or is smth else down',
    expect: { contains: ['archive'] },
  },
];
