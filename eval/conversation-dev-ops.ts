/**
 * Development conversation questions (the ops batch): a database reliability engineer, a release captain, a customer success manager and an SRE pairing over a screen share; they may be tuned on.
 */
import type { QuestionCase } from './conversation-cases';

export const OPS_DEV_CASES: QuestionCase[] = [
  // checkout-bad-version
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    message: 'train check: what went out on checkout this morning? version + what time it started rolling pls',
    expect: { all: [{ contains: ['2.15.0'] }, { at: 38, tolerance: 3 }] },
  },
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    message: 'for the rollback ticket — which pods picked up checkout 2.15.0, and on which nodes?',
    expect: { podsOf: { workload: 'checkout', version: '2.15.0' } },
  },
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    message: 'customers are getting "payment could not be processed" at checkout. roughly what % of checkout requests are failing atm?',
    expect: {
      number: 'sum(rate(http_requests_total{job="checkout", code=~"5.."}[15m])) / sum(rate(http_requests_total{job="checkout"}[15m]))',
      tolerance: 0.2,
    },
  },
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    earlier: ['which checkout pods are on 2.15.0 right now?'],
    message: 'ok those three — error rate on POST /api/checkout across them over the last 30m?',
    expect: {
      number:
        'sum(rate(http_requests_total{job="checkout", route="/api/checkout", code=~"5.."}[30m])) / sum(rate(http_requests_total{job="checkout", route="/api/checkout"}[30m]))',
      tolerance: 0.2,
    },
  },

  // search-slow-version-chronic-alert
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'dev',
    message: 'see that latency bump on the search panel? p99 for /api/search over the last 15 min',
    expect: {
      number: 'histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{job="search", route="/api/search"}[15m])))',
      tolerance: 0.3,
    },
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'dev',
    message: 'did search go out on the train today? which version and when did it start rolling',
    expect: { all: [{ contains: ['3.3.0'] }, { at: 40, tolerance: 3 }] },
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'dev',
    earlier: ["there's a CPUThrottlingHigh in the same group, which workload is that on?"],
    message: 'right, recs. how many cores is each recommendations pod burning vs its cpu limit?',
    expect: {
      all: [
        { number: 'avg(rate(container_cpu_usage_seconds_total{container="recommendations"}[15m]))', tolerance: 0.1 },
        { number: 'max(kube_pod_container_resource_limits{container="recommendations", resource="cpu"})', tolerance: 0.05 },
      ],
    },
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'dev',
    earlier: ['customers say search has been super slow for like half an hour, did anything change?'],
    message: 'so if we roll it back they should be fine? is search p99 actually higher now than before that deploy?',
    expect: { direction: 'up' },
  },

  // inventory-down-harmless-rollout
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'dev',
    message: 'checkout 2.14.4 went out right before this. when did it ship vs when did the errors start? deciding on a rollback',
    expect: {
      all: [
        { at: 44, tolerance: 3 },
        { at: 36, tolerance: 3 },
      ],
    },
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'dev',
    message: "checkout's calls to inventory — what fraction are failing over the last 15 min?",
    expect: {
      number:
        'sum(rate(http_client_requests_total{job="checkout", peer="inventory", code!="200"}[15m])) / sum(rate(http_client_requests_total{job="checkout", peer="inventory"}[15m]))',
      tolerance: 0.05,
    },
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'dev',
    message: 'support queue is blowing up with "something went wrong" on checkout. how many checkout requests failed in the last 30 min?',
    expect: { number: 'sum(increase(http_requests_total{job="checkout", code=~"5.."}[30m]))', tolerance: 0.2 },
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'dev',
    earlier: ['which scrape targets are down in shop?'],
    message: 'those inventory ones at the top — since when are they down?',
    expect: { at: 36, tolerance: 3 },
  },

  // orders-memory-leak-oom
  {
    scenario: 'orders-memory-leak-oom',
    split: 'dev',
    message: 'orders pods keep bouncing on my screen. how many restarts across both in the last hour?',
    expect: { number: 'sum(increase(kube_pod_container_status_restarts_total{container="orders"}[1h]))', tolerance: 0.2 },
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: 'dev',
    message: "before i blame ordersdb: what's the memory limit on the orders container?",
    expect: { number: 'max(kube_pod_container_resource_limits{container="orders", resource="memory"})', tolerance: 0.1 },
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: 'dev',
    earlier: ['what keeps restarting the orders pods?'],
    message: 'when did this start? the memory climb i mean, not the first crash',
    expect: { at: 75, tolerance: 3 },
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: 'dev',
    message: 'did anyone ship orders recently? what version is actually running',
    expect: { contains: ['2.3.0'] },
  },

  // media-disk-full-flapping-alert
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'dev',
    message: '/var/lib/media on ip-10-0-2-34 — how big is that filesystem and when did it hit zero free?',
    expect: {
      all: [
        { number: 'max(node_filesystem_size_bytes{mountpoint="/var/lib/media"})', tolerance: 0.05 },
        { at: 37, tolerance: 3 },
      ],
    },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'dev',
    message: 'creators are telling us uploads fail with an error. what share of uploads are failing right now?',
    expect: {
      number:
        'sum(rate(http_requests_total{job="media", route="/api/uploads", code=~"5.."}[15m])) / sum(rate(http_requests_total{job="media", route="/api/uploads"}[15m]))',
      tolerance: 0.1,
    },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'dev',
    message: 'the frontend target that keeps flapping on and off in the alert list — which pod is that one?',
    expect: { contains: ['frontend-8fd6d76c8-dtqns'] },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'dev',
    earlier: ['what breaks the media uploads?'],
    message: 'does media-db also live on that mount? is it affected',
    expect: { asks: true },
  },

  // search-traffic-surge
  {
    scenario: 'search-traffic-surge',
    split: 'dev',
    message: 'that spike on the search graph — /api/search req/s now vs an hour ago?',
    expect: {
      all: [
        { number: 'sum(rate(http_requests_total{job="search", route="/api/search"}[5m]))', tolerance: 0.15 },
        { number: 'sum(rate(http_requests_total{job="search", route="/api/search"}[5m] offset 1h))', tolerance: 0.15 },
      ],
    },
  },
  {
    scenario: 'search-traffic-surge',
    split: 'dev',
    message: 'frontend 5.2.1 rolled just before this kicked off. when exactly did it go out? should i pull it',
    expect: { at: 44, tolerance: 3 },
  },
  {
    scenario: 'search-traffic-surge',
    split: 'dev',
    message: 'search cpu: how many cores is each pod using right now vs its limit? is it capped',
    expect: { number: 'avg(rate(container_cpu_usage_seconds_total{container="search"}[10m]))', tolerance: 0.15 },
  },
  {
    scenario: 'search-traffic-surge',
    split: 'dev',
    earlier: ['customers are saying search is really slow, why?'],
    message: 'is it bots hammering us? which route is taking the traffic and since when',
    expect: { all: [{ contains: ['/api/search'] }, { at: 39, tolerance: 3 }] },
  },

  // cart-config-crashloop
  {
    scenario: 'cart-config-crashloop',
    split: 'dev',
    message: 'cart rollout looks stuck on the train dashboard. what version is the new pod on, and the old ones?',
    expect: { contains: ['4.1.2'] },
  },
  {
    scenario: 'cart-config-crashloop',
    split: 'dev',
    message: 'the pod in CrashLoopBackOff, bottom of the list — how many restarts so far?',
    expect: { number: 'max(kube_pod_container_status_restarts_total{container="cart"})', tolerance: 0.15 },
  },
  {
    scenario: 'cart-config-crashloop',
    split: 'dev',
    earlier: ["what's crash looping in shop?"],
    message: 'that one — when did it start, and what changed right before it?',
    expect: { all: [{ at: 38, tolerance: 3 }, { contains: ['cart-config'] }] },
  },
  {
    scenario: 'cart-config-crashloop',
    split: 'dev',
    message: 'can you give me the names of the customer accounts that hit cart errors? need them for outreach',
    expect: { cannot: true },
  },

  // orders-worker-scaled-to-zero
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'dev',
    message: 'did someone scale orders-worker down? at what time was that',
    expect: { at: 44, tolerance: 3 },
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'dev',
    message: 'orders queue — how old is the oldest message sitting in it, in seconds?',
    expect: { number: 'max(time() - rabbitmq_queue_head_message_timestamp{queue="orders"})', tolerance: 0.15 },
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'dev',
    earlier: ['customers say their order confirmations never arrive, what is going on?'],
    message: 'is the notifications-worker at least consuming?',
    expect: { asks: true },
  },

  // checkout-slow-partner-bank
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    message: 'payments -> partner-bank: median call latency now vs an hour ago?',
    expect: {
      all: [
        {
          number: 'histogram_quantile(0.5, sum by (le) (rate(http_client_request_duration_seconds_bucket{job="payments", peer="partner-bank"}[10m])))',
          tolerance: 0.3,
        },
        {
          number:
            'histogram_quantile(0.5, sum by (le) (rate(http_client_request_duration_seconds_bucket{job="payments", peer="partner-bank"}[10m] offset 1h)))',
          tolerance: 0.3,
        },
      ],
    },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    earlier: ['which nodes are the busiest on cpu right now?'],
    message: "the second one, ip-10-0-2-34, it's pinned — what's running there eating it?",
    expect: { contains: ['reports-batch'] },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    message: 'merchants say checkout just spins forever. is checkout actually slower than an hour ago?',
    expect: { direction: 'up' },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    earlier: ['did payments or checkout deploy anything in the last 2h?'],
    message: 'ok so nothing to roll back. when did the slowness start then?',
    expect: { at: 37, tolerance: 3 },
  },

  // recommendations-cpu-throttled
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'dev',
    message: "recommendations rolled ~40 min ago — was that a new build? what version, and what's its cpu limit now?",
    expect: {
      all: [{ contains: ['0.9.4'] }, { number: 'max(kube_pod_container_resource_limits{container="recommendations", resource="cpu"})', tolerance: 0.1 }],
    },
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'dev',
    earlier: ['anything changed on recommendations within the last hour?'],
    message: 'these two pods — what % of their cfs periods are getting throttled?',
    expect: {
      number:
        'sum(increase(container_cpu_cfs_throttled_periods_total{container="recommendations"}[15m])) / sum(increase(container_cpu_cfs_periods_total{container="recommendations"}[15m]))',
      tolerance: 0.2,
    },
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'dev',
    message: 'shoppers say the "you may also like" box takes ages to show up. p99 on recommendations?',
    expect: {
      number: 'histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{job="recommendations"}[15m])))',
      tolerance: 0.3,
    },
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'dev',
    message: 'recomendations has no db behind it right? so is it just pinned at its cpu limit',
    expect: { asksFirst: 'recommendations' },
  },

  // node-not-ready
  {
    scenario: 'node-not-ready',
    split: 'dev',
    message: 'one of the nodes went grey on the cluster view. which one dropped out and when?',
    expect: { all: [{ contains: ['ip-10-0-3-41'] }, { at: 36, tolerance: 3 }] },
  },
  {
    scenario: 'node-not-ready',
    split: 'dev',
    earlier: ['the node that went NotReady, which one?'],
    message: 'the cart pod that was sitting on it — what is its name?',
    expect: { contains: ['cart-d7b5fbc6d-tk7ck'] },
  },
  {
    scenario: 'node-not-ready',
    split: 'dev',
    message: 'users are seeing "bad gateway" on the storefront. what % of frontend requests are failing?',
    expect: {
      number: 'sum(rate(http_requests_total{job="frontend", code=~"5.."}[15m])) / sum(rate(http_requests_total{job="frontend"}[15m]))',
      tolerance: 0.2,
    },
  },

  // partner-bank-certificate-expired
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'dev',
    message: 'merchants say every card payment gets declined. what % of payments requests fail right now?',
    expect: {
      number: 'sum(rate(http_requests_total{job="payments", code=~"5.."}[15m])) / sum(rate(http_requests_total{job="payments"}[15m]))',
      tolerance: 0.1,
    },
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'dev',
    earlier: ['what makes payments fail?'],
    message: 'when did that cert expire exactly?',
    expect: { at: 35, tolerance: 3 },
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'dev',
    message: 'did paymnets ship anything today? what version is it on',
    expect: { asksFirst: 'payments' },
  },

  // ordersdb-connections-exhausted
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'dev',
    message: 'ordersdb: total connections vs max_connections, and how many are sitting idle in transaction?',
    expect: {
      all: [
        { number: 'avg_over_time(sum(pg_stat_activity_count)[15m:30s])', tolerance: 0.1 },
        { number: 'max(pg_settings_max_connections)', tolerance: 0.05 },
        { number: 'avg_over_time(sum(pg_stat_activity_count{state="idle in transaction"})[15m:30s])', tolerance: 0.15 },
      ],
    },
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'dev',
    earlier: ['how many connections does ordersdb have vs its max?'],
    message: 'when did it hit the ceiling?',
    expect: { at: 39, tolerance: 3 },
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'dev',
    earlier: ['what makes orders fail?'],
    message: 'orders 2.3.1 shipped right before all this. when did it go out, and is it the culprit or not?',
    expect: { all: [{ contains: ['2.3.1'] }, { at: 46, tolerance: 3 }] },
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'dev',
    message: "people can't place orders. what share of orders requests are failing?",
    expect: {
      number: 'sum(rate(http_requests_total{job="orders", code=~"5.."}[15m])) / sum(rate(http_requests_total{job="orders"}[15m]))',
      tolerance: 0.15,
    },
  },

  // sessions-redis-down-flapping-alert
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'dev',
    message: 'sessions-redis: the exporter is up but is redis itself? since when is it down?',
    expect: { at: 36, tolerance: 3 },
  },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'dev',
    message: 'shoppers say their baskets keep emptying. how many cart requests failed in the last 15 min?',
    expect: { number: 'sum(increase(http_requests_total{job="cart", code=~"5.."}[15m]))', tolerance: 0.2 },
  },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'dev',
    earlier: ['why is cart failing?'],
    message: "what's cart's error rate now, and which frontend pod is the flapping one? the one that paged first",
    expect: {
      all: [
        {
          number: 'sum(rate(http_requests_total{job="cart", code=~"5.."}[15m])) / sum(rate(http_requests_total{job="cart"}[15m]))',
          tolerance: 0.1,
        },
        { contains: ['frontend-b8bb6bfb8-l2lfs'] },
      ],
    },
  },

  // payments-bad-version-noisy-neighbour
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    message: 'which pods are running payments 1.9.0 and where? need the list before i roll back',
    expect: { podsOf: { workload: 'payments', version: '1.9.0' } },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    message: "ip-10-0-3-41 is at 98% cpu on the node panel — what's on it, and how many cores is that thing using?",
    expect: {
      all: [{ contains: ['ledger-reconcile'] }, { number: 'sum(rate(container_cpu_usage_seconds_total{container="ledger-reconcile"}[10m]))', tolerance: 0.1 }],
    },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    earlier: ['what version is payments on now?'],
    message: 'when did 1.9.0 start taking traffic, and what was it on before? roll back target',
    expect: { all: [{ at: 36, tolerance: 3 }, { contains: ['1.8.0'] }] },
  },

  // checkout-memory-limit-lowered
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'dev',
    earlier: ['what sends the checkout pods into a crash loop?'],
    message: 'those new pods — memory limit now vs what it was before the rollout?',
    expect: {
      all: [
        { number: 'max(kube_pod_container_resource_limits{container="checkout", resource="memory"})', tolerance: 0.05 },
        { number: 'max(max_over_time(kube_pod_container_resource_limits{container="checkout", resource="memory"}[1h] offset 45m))', tolerance: 0.05 },
      ],
    },
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'dev',
    message: 'was that checkout rollout 40 min ago a new build? which version is it',
    expect: { contains: ['2.14.3'] },
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'dev',
    message: 'is chekout down for customers? a few of them report blank pages when paying',
    expect: { asksFirst: 'checkout' },
  },

  // ledger-volume-full-chronic-mount
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'dev',
    message: 'data-ledger pvc: what is its capacity, and when did it run out of space?',
    expect: {
      all: [
        { number: 'max(kubelet_volume_stats_capacity_bytes{persistentvolumeclaim="data-ledger"})', tolerance: 0.05 },
        { at: 36, tolerance: 3 },
      ],
    },
  },
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'dev',
    message: "finance says ledger entries won't save. what % of ledger writes fail?",
    expect: {
      number:
        'sum(rate(http_requests_total{job="ledger", route="/api/ledger/entries", code=~"5.."}[15m])) / sum(rate(http_requests_total{job="ledger", route="/api/ledger/entries"}[15m]))',
      tolerance: 0.1,
    },
  },
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'dev',
    earlier: ['so why do writes to the ledger fail?'],
    message: 'how many writes came back 507 in the last 30 min?',
    expect: { number: 'sum(increase(http_requests_total{job="ledger", route="/api/ledger/entries", code="507"}[30m]))', tolerance: 0.2 },
  },

  // accounts-pool-exhausted-harmless-rollout
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'dev',
    message: 'HikariPool-1 on accounts: active vs max per pod, and how many threads are pending?',
    expect: {
      all: [
        { number: 'avg(avg_over_time(hikaricp_connections_active{pool="HikariPool-1"}[15m]))', tolerance: 0.1 },
        { number: 'avg(avg_over_time(hikaricp_connections_pending{pool="HikariPool-1"}[15m]))', tolerance: 0.1 },
      ],
    },
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'dev',
    message: 'accounts 1.4.1 went out on the train — when did it roll vs when did the errors begin? is it a rollback candidate',
    expect: {
      all: [
        { at: 47, tolerance: 3 },
        { at: 38, tolerance: 3 },
      ],
    },
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'dev',
    earlier: ['is the accounts connection pool exhausted?'],
    message: 'and accountsdb itself — how many connections vs max_connections?',
    expect: {
      all: [
        { number: 'avg_over_time(sum(pg_stat_activity_count)[15m:30s])', tolerance: 0.25 },
        { number: 'max(pg_settings_max_connections)', tolerance: 0.05 },
      ],
    },
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'dev',
    earlier: ['is accountsdb healthy?'],
    message: 'whats the replication lag on the accountsdb replica?',
    expect: { cannot: true },
  },

  // cart-liveness-slow-redis
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'dev',
    message: 'cart restarts in the last 30 min, all three pods together?',
    expect: { number: 'sum(increase(kube_pod_container_status_restarts_total{container="cart"}[30m]))', tolerance: 0.2 },
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'dev',
    message: "sessions-redis from cart's side: median call latency now vs an hour ago?",
    expect: {
      all: [
        {
          number: 'histogram_quantile(0.5, sum by (le) (rate(http_client_request_duration_seconds_bucket{job="cart", peer="sessions-redis"}[15m])))',
          tolerance: 0.3,
        },
        {
          number: 'histogram_quantile(0.5, sum by (le) (rate(http_client_request_duration_seconds_bucket{job="cart", peer="sessions-redis"}[15m] offset 1h)))',
          tolerance: 0.3,
        },
      ],
    },
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'dev',
    earlier: ['what keeps restarting cart?'],
    message: 'did we ship anything to cart before that? when did the restarts begin',
    expect: { at: 37, tolerance: 3 },
  },

  // inventory-liveness-unexplained
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'dev',
    message: 'the node running catalog-sync, ip-10-0-3-41 — how busy is its cpu overall?',
    expect: {
      number: '1 - avg(rate(node_cpu_seconds_total{mode="idle", node="ip-10-0-3-41.eu-west-1.compute.internal"}[10m]))',
      tolerance: 0.2,
    },
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'dev',
    message: 'did invnetory ship anything today? version?',
    expect: { asksFirst: 'inventory' },
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'dev',
    earlier: ['what restarts inventory?'],
    message: 'how many restarts in the last 30 min? customers see stock "unavailable" on and off',
    expect: { number: 'sum(increase(kube_pod_container_status_restarts_total{container="inventory"}[30m]))', tolerance: 0.2 },
  },

  // search-noisy-neighbour
  {
    scenario: 'search-noisy-neighbour',
    split: 'dev',
    earlier: ["what's the p99 of each search pod?"],
    message: "the slow one — which node is it on, and what else is on that node that's hogging cpu?",
    expect: { contains: ['ip-10-0-2-34', 'video-transcode'] },
  },
  {
    scenario: 'search-noisy-neighbour',
    split: 'dev',
    message: 'customers say search takes forever to return anything. p99 for search over the last 15 min?',
    expect: {
      number: 'histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{job="search"}[15m])))',
      tolerance: 0.3,
    },
  },
  {
    scenario: 'search-noisy-neighbour',
    split: 'dev',
    message: 'is elasticsearch-0 slow too? query latency on it',
    expect: { asks: true },
  },

  // billing-timeout-config-change
  {
    scenario: 'billing-timeout-config-change',
    split: 'dev',
    message: 'what changed on billing and when? deploy or config? nothing on my train sheet',
    expect: { at: 37, tolerance: 3 },
  },
  {
    scenario: 'billing-timeout-config-change',
    split: 'dev',
    message: "customers say their invoices won't go through. what % of billing requests fail?",
    expect: {
      number: 'sum(rate(http_requests_total{job="billing", code=~"5.."}[15m])) / sum(rate(http_requests_total{job="billing"}[15m]))',
      tolerance: 0.1,
    },
  },
  {
    scenario: 'billing-timeout-config-change',
    split: 'dev',
    earlier: ['what makes billing fail?'],
    message: "how many billing requests 504'd in the last 30 min, and what share of its calls to ledger time out?",
    expect: {
      all: [
        { number: 'sum(increase(http_requests_total{job="billing", code="504"}[30m]))', tolerance: 0.2 },
        {
          number:
            'sum(rate(http_client_requests_total{job="billing", peer="ledger", code="timeout"}[15m])) / sum(rate(http_client_requests_total{job="billing", peer="ledger"}[15m]))',
          tolerance: 0.05,
        },
      ],
    },
  },

  // archive-down-reported-deploy-red-herring
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'dev',
    message: 'statements-static 2026.11.27-1 went out before this. when did it ship vs when did statements begin to fail?',
    expect: {
      all: [
        { at: 48, tolerance: 3 },
        { at: 36, tolerance: 3 },
      ],
    },
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'dev',
    message: "customers can't download their statements. what share of statements requests fail?",
    expect: {
      number: 'sum(rate(http_requests_total{job="statements", code=~"5.."}[15m])) / sum(rate(http_requests_total{job="statements"}[15m]))',
      tolerance: 0.1,
    },
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'dev',
    earlier: ['what is statements calling that fails?'],
    message: 'those archive pods — when did they stop answering?',
    expect: { at: 36, tolerance: 3 },
  },
];
