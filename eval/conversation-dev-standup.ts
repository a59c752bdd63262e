/**
 * Development conversation questions (the standup batch): a team lead in another time zone catching
 * up at the morning standup (LEAD), a test-automation engineer thinking in pass/fail, before/after and
 * reproducibility (QA), an on-call engineer pasting alert text, label sets and metric names (PASTE),
 * and a partner's solutions architect whose integration calls the affected APIs (PARTNER); they may
 * be tuned on.
 * Each case is tagged with its voice, and every number/at was checked against the staged data
 * (values at the data's end noted beside each; times in minutes before the end).
 */
import type { QuestionCase } from './conversation-cases';

export const STANDUP_DEV_CASES: QuestionCase[] = [
  // ── checkout-bad-version ──
  // LEAD
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    message: 'morning from sydney 👋 catching up on the overnight checkout page. when did it start, and what share of checkout requests are failing right now?',
    expect: {
      all: [
        { at: 38, tolerance: 3 }, // 2.15.0 rollout and first errors 38 min before the end
        {
          number: 'sum(rate(http_requests_total{job="checkout", code=~"5.."}[5m])) / sum(rate(http_requests_total{job="checkout"}[5m]))',
          tolerance: 0.2,
        }, // ≈ 0.077
      ],
    },
  },
  // QA
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    message: 'for the regression ticket: 5xx ratio on POST /api/checkout over the last 15 min pls. before the rollout it was basically 0',
    expect: {
      number:
        'sum(rate(http_requests_total{job="checkout", route="/api/checkout", code=~"5.."}[15m])) / sum(rate(http_requests_total{job="checkout", route="/api/checkout"}[15m]))',
      tolerance: 0.2,
    }, // ≈ 0.110 (≈ 0.0008 an hour before)
  },
  // PASTE
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    message: '[FIRING:1] CheckoutHighErrorRate (checkout shop critical) summary: checkout is failing requests. which pods are running 2.15.0 and on what nodes',
    expect: { podsOf: { workload: 'checkout', version: '2.15.0' } },
  },
  // PARTNER
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    earlier: [
      "Hi, solutions architect at one of your partners here. Our storefront integration POSTs to /api/checkout and we've seen intermittent 500s since early this morning. Anything on your side?",
    ],
    message: 'thanks. which release of yours is it, so I can reference it in our ticket?',
    expect: { contains: ['2.15.0'] },
  },

  // ── search-slow-version-chronic-alert ──
  // LEAD
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'dev',
    message: 'back online (PST). what did i miss with search overnight — how slow is /api/search at p99 now, and since when',
    expect: {
      all: [
        { number: 'histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{job="search", route="/api/search"}[5m])))', tolerance: 0.2 }, // ≈ 2.03 s
        { at: 40, tolerance: 3 }, // 3.3.0 rollout 40 min before the end
      ],
    },
  },
  // QA
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'dev',
    earlier: ['search p99 went up after last nights deploy?'],
    message: 'is it reproducible on both search pods or only one? p99 for /api/search over the last 10m',
    expect: {
      number: 'histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{job="search", route="/api/search"}[10m])))',
      tolerance: 0.2,
    }, // ≈ 2.03 s (both pods ≈ 2.03 s)
  },
  // PASTE
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'dev',
    message:
      'CPUThrottlingHigh {container="recommendations", namespace="shop", severity="info"} has been firing for hours and now SearchLatencyHigh {job="search", severity="warning"} too. is the throttling what slows search?',
    expect: { contains: ['3.3.0'] },
  },
  // PARTNER
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'dev',
    message: 'Our typeahead only calls GET /api/suggest, never /api/search. Has suggest latency changed compared to before your release?',
    expect: { direction: 'about the same' }, // suggest p99 ≈ 0.090 s now, ≈ 0.092 s an hour before
  },

  // ── inventory-down-harmless-rollout ──
  // PARTNER
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'dev',
    earlier: ['hey, partner integration here — our checkout calls started coming back 503 a while ago, what is going on?'],
    message: 'ok so is invntory back up yet? we also hit /api/stock/{sku} directly',
    expect: { asksFirst: 'inventory' },
  },
  // QA
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'dev',
    earlier: ['checkout errors: is it checkout itself or one of its dependencies?'],
    message: "what fraction of checkout's calls to inventory failed over the last 10 min, and with what outcome",
    expect: {
      number:
        'sum(rate(http_client_requests_total{job="checkout", peer="inventory", code!="200"}[10m])) / sum(rate(http_client_requests_total{job="checkout", peer="inventory"}[10m]))',
      tolerance: 0.15,
    }, // = 1 (all connection_refused)
  },
  // PASTE
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'dev',
    message: 'probe_success{instance="http://inventory.shop.svc:8080/healthz", job="blackbox", module="http_2xx"} 0 — since when is this 0?',
    expect: { at: 36, tolerance: 2 }, // 1 at 37 min before the end, 0 from 36
  },
  // PARTNER
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'dev',
    message: 'We call POST /api/checkout for every basket. What error rate should we expect on that endpoint right now, roughly?',
    expect: {
      number:
        'sum(rate(http_requests_total{job="checkout", route="/api/checkout", code=~"5.."}[5m])) / sum(rate(http_requests_total{job="checkout", route="/api/checkout"}[5m]))',
      tolerance: 0.2,
    }, // ≈ 0.62
  },

  // ── orders-memory-leak-oom ──
  // PASTE
  {
    scenario: 'orders-memory-leak-oom',
    split: 'dev',
    message:
      'KubePodRestartingOften pod=orders-6fb5cc5f8-rff78 container=orders namespace=shop "Pod orders-6fb5cc5f8-rff78 restarts often." how many restarts for orders over the past hour, both pods summed?',
    expect: { number: 'sum(increase(kube_pod_container_status_restarts_total{container="orders"}[1h]))', tolerance: 0.2 }, // = 12
  },
  // QA
  {
    scenario: 'orders-memory-leak-oom',
    split: 'dev',
    message: 'peak working set of orders over the last 10 min, as a % of its memory limit?',
    expect: {
      number: 'max(max_over_time(container_memory_working_set_bytes{container="orders"}[10m])) / max(container_spec_memory_limit_bytes{container="orders"})',
      tolerance: 0.15,
    }, // ≈ 1.00
  },
  // LEAD
  {
    scenario: 'orders-memory-leak-oom',
    split: 'dev',
    earlier: ["what's up with orders restarting all night?"],
    message: 'when was the first OOMKill, and is it still happening?',
    expect: { at: 40.5, tolerance: 2 }, // restarts 0 at 41 min before the end, 2 at 40
  },

  // ── media-disk-full-flapping-alert ──
  // PASTE
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'dev',
    message: 'node_filesystem_avail_bytes{mountpoint="/var/lib/media", node="ip-10-0-2-34.eu-west-1.compute.internal"} 0   <- when did it hit zero?',
    expect: { at: 37, tolerance: 2 }, // ≈ 20 MB free at 37.5 min before the end, 0 from 37
  },
  // LEAD
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'dev',
    earlier: ['two alerts in shop overnight, FrontendTargetDown and MediaUploadsFailing. which one matters?'],
    message: 'ok and how much of the uploads are failing right now?',
    expect: {
      number:
        'sum(rate(http_requests_total{job="media", route="/api/uploads", code=~"5.."}[5m])) / sum(rate(http_requests_total{job="media", route="/api/uploads"}[5m]))',
      tolerance: 0.15,
    }, // ≈ 0.97
  },
  // PARTNER
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'dev',
    message: 'Our app uploads product images via POST /api/uploads and has been getting HTTP 507 since this morning. Which disk is full, and on which node?',
    expect: { contains: ['/var/lib/media', 'ip-10-0-2-34'] },
  },

  // ── search-traffic-surge ──
  // LEAD
  {
    scenario: 'search-traffic-surge',
    split: 'dev',
    message: "search alert fired overnight my time, right after frontend shipped 5.2.1. was it the frontend release? what's actually going on",
    expect: { contains: ['/api/search'] },
  },
  // QA
  {
    scenario: 'search-traffic-surge',
    split: 'dev',
    message: 'request rate on /api/search now vs an hour ago: up, down or flat?',
    expect: { direction: 'up' }, // ≈ 212 req/s now, ≈ 36 req/s an hour before
  },
  // PASTE
  {
    scenario: 'search-traffic-surge',
    split: 'dev',
    message:
      'container_cpu_usage_seconds_total{container="search", namespace="shop"} looks pegged. how many cores is each search pod using right now? limit is 2',
    expect: { number: 'avg(rate(container_cpu_usage_seconds_total{container="search"}[5m]))', tolerance: 0.15 }, // ≈ 1.99 cores
  },
  // PARTNER
  {
    scenario: 'search-traffic-surge',
    split: 'dev',
    message: "We've been told a crawler of ours may be hitting GET /api/search hard. How many requests per second is search taking on that route right now?",
    expect: { number: 'sum(rate(http_requests_total{job="search", route="/api/search"}[5m]))', tolerance: 0.2 }, // ≈ 212 req/s
  },

  // ── cart-config-crashloop ──
  // PASTE
  {
    scenario: 'cart-config-crashloop',
    split: 'dev',
    message:
      'kube_pod_container_status_waiting_reason{container="cart", namespace="shop", reason="CrashLoopBackOff"} 1 — how many times has that crashing cart pod restarted?',
    expect: { number: 'max(kube_pod_container_status_restarts_total{container="cart"})', tolerance: 0.2 }, // = 12
  },
  // LEAD
  {
    scenario: 'cart-config-crashloop',
    split: 'dev',
    earlier: ['cart crashlooping since last night?'],
    message: 'what kicked it off, a deploy or a config change? which one',
    expect: { contains: ['cart-config'] },
  },
  // QA
  {
    scenario: 'cart-config-crashloop',
    split: 'dev',
    message: 'to write the repro i need the exact key that changed in cart-config. what was edited in it?',
    expect: { cannot: true },
  },

  // ── orders-worker-scaled-to-zero ──
  // LEAD
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'dev',
    message: 'QueueMessagesStale on the orders queue overnight. when did orders-worker go away?',
    expect: { at: 44, tolerance: 2 }, // spec replicas 2 → 0 at 44 min before the end
  },
  // PASTE
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'dev',
    message: 'rabbitmq_queue_messages_ready{queue="orders", vhost="/", pod="rabbitmq-0"} what is it at now',
    expect: { number: 'rabbitmq_queue_messages_ready{queue="orders"}', tolerance: 0.2 }, // ≈ 11225
  },
  // QA
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'dev',
    earlier: ['orders queue has no consumers?'],
    message: 'how old is the oldest message in orders right now? need the number for the test assertion',
    expect: { number: 'max(time() - rabbitmq_queue_head_message_timestamp{queue="orders"})', tolerance: 0.2 }, // ≈ 2641 s
  },
  // PARTNER
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'dev',
    message: 'Our order confirmations stopped arriving overnight. Is the fulfilment-bridge consumer down on your side?',
    expect: { asks: true },
  },

  // ── checkout-slow-partner-bank ──
  // PARTNER
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    message: 'Hi, bank-side integration team here. Your ops say our API is slow. What p99 are you measuring on calls to partner-bank over the last 10 minutes?',
    expect: {
      number: 'histogram_quantile(0.99, sum by (le) (rate(http_client_request_duration_seconds_bucket{job="payments", peer="partner-bank"}[10m])))',
      tolerance: 0.2,
    }, // ≈ 4.70 s
  },
  // LEAD
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    earlier: ["checkout latency alert overnight, what's the story?"],
    message: 'so is it the reports-batch job on the checkout node or something else? and whats checkout p99 now',
    expect: {
      all: [
        { contains: ['partner-bank'] },
        { number: 'histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{job="checkout"}[5m])))', tolerance: 0.2 }, // ≈ 4.80 s
      ],
    },
  },
  // QA
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    message: 'payments p99 now vs an hour ago, which way did it go?',
    expect: { direction: 'up' }, // ≈ 4.77 s now, ≈ 0.47 s an hour before
  },

  // ── recommendations-cpu-throttled ──
  // PASTE
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'dev',
    message:
      'container_cpu_cfs_throttled_periods_total{container="recommendations", namespace="shop"} — what share of cfs periods got throttled over the last 5m?',
    expect: {
      number:
        'sum(increase(container_cpu_cfs_throttled_periods_total{container="recommendations"}[5m])) / sum(increase(container_cpu_cfs_periods_total{container="recommendations"}[5m]))',
      tolerance: 0.2,
    }, // ≈ 0.74
  },
  // QA
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'dev',
    earlier: ['recommendations latency up since the last rollout?'],
    message: 'recommendations pods: what cpu limit now? was it different before',
    expect: { number: 'max(kube_pod_container_resource_limits{container="recommendations", resource="cpu"})', tolerance: 0.15 }, // = 0.3 cores
  },
  // LEAD
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'dev',
    message: 'recs got slow overnight apparently. when did that start?',
    expect: { at: 40, tolerance: 3 }, // limits-only rollout 40 min before the end
  },
  // PARTNER
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'dev',
    message: 'Is recomendations still slow for our widget? We call it on every product page.',
    expect: { asksFirst: 'recommendations' },
  },

  // ── node-not-ready ──
  // LEAD
  {
    scenario: 'node-not-ready',
    split: 'dev',
    message: 'frontend 502s overnight. is this a node thing? which node and since when',
    expect: { all: [{ contains: ['ip-10-0-3-41'] }, { at: 36, tolerance: 2 }] }, // Ready 1 at 36.5 min before the end, 0 at 35.5
  },
  // PASTE
  {
    scenario: 'node-not-ready',
    split: 'dev',
    message: 'kube_node_status_condition{condition="Ready", status="true", node="ip-10-0-3-41.eu-west-1.compute.internal"} 0 — which cart pod was on that box?',
    expect: { contains: ['cart-d7b5fbc6d-tk7ck'] },
  },
  // QA
  {
    scenario: 'node-not-ready',
    split: 'dev',
    message: "frontend 5xx ratio over the last 15 min? need the 'after' number for the before/after",
    expect: {
      number: 'sum(rate(http_requests_total{job="frontend", code=~"5.."}[15m])) / sum(rate(http_requests_total{job="frontend"}[15m]))',
      tolerance: 0.2,
    }, // ≈ 0.151
  },

  // ── partner-bank-certificate-expired ──
  // PARTNER
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'dev',
    message: 'partner-bank API team here. your payments calls to us have been failing, what error do you see on your side and since what time?',
    expect: { all: [{ contains: ['tls_error'] }, { at: 35, tolerance: 2 }] }, // every call tls_error from 35 min before the end
  },
  // PASTE
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'dev',
    message:
      'probe_ssl_earliest_cert_expiry{instance="https://api.partner-bank.example/health", module="http_2xx_tls"} when does that cert expire, or did it already',
    expect: { at: 35, tolerance: 1 }, // the value is the end less 35 min
  },
  // QA
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'dev',
    message: 'payments 5xx ratio over the last 10 min?',
    expect: {
      number: 'sum(rate(http_requests_total{job="payments", code=~"5.."}[10m])) / sum(rate(http_requests_total{job="payments"}[10m]))',
      tolerance: 0.15,
    }, // ≈ 0.97
  },
  // LEAD
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'dev',
    earlier: ['payments paged overnight, what broke?'],
    message: 'and the CPUThrottlingHigh on recommendations, can i ignore that? what is the actual cause',
    expect: { contains: ['partner-bank'] },
  },

  // ── ordersdb-connections-exhausted ──
  // PASTE
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'dev',
    message:
      'pg_stat_activity_count{datname="orders", state="idle in transaction", server="ordersdb:5432"} is way up. total connections on ordersdb right now, all states?',
    expect: { number: 'sum(pg_stat_activity_count)', tolerance: 0.15 }, // = 199 (max_connections 200)
  },
  // LEAD
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'dev',
    message: 'orders errors overnight, right after 2.3.1 went out. was it the deploy?',
    expect: { contains: ['ordersdb'] },
  },
  // QA
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'dev',
    message: 'who is holding those idle in transaction connections? i need the client application and the query to reproduce it',
    expect: { cannot: true },
  },
  // PARTNER
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'dev',
    earlier: ['Our order submissions (POST /api/orders) have been failing with 500s this morning. Anything known?'],
    message: 'When exactly did your 2.3.1 release go out?',
    expect: { at: 46, tolerance: 2 }, // 2.3.1 absent at 46.5 min before the end, present at 45.5
  },

  // ── sessions-redis-down-flapping-alert ──
  // PASTE
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'dev',
    message: 'redis_up{redis="sessions-redis", addr="redis://sessions-redis.shop.svc:6379"} 0 but up{job="redis-exporter"} 1. since when?',
    expect: { at: 36, tolerance: 2 }, // 1 at 36.5 min before the end, 0 at 35.5
  },
  // PARTNER
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'dev',
    message: 'Adding items through POST /api/cart/items fails for most of our users. What share of those requests fail right now?',
    expect: {
      number:
        'sum(rate(http_requests_total{job="cart", route="/api/cart/items", code=~"5.."}[5m])) / sum(rate(http_requests_total{job="cart", route="/api/cart/items"}[5m]))',
      tolerance: 0.15,
    }, // ≈ 0.90
  },
  // LEAD
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'dev',
    earlier: ['two pages in shop overnight, FrontendTargetDown first and then CartHighErrorRate'],
    message: "which one's real, and is it still going?",
    expect: { contains: ['sessions-redis'] },
  },

  // ── payments-bad-version-noisy-neighbour ──
  // PASTE
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    message: 'PaymentsHighErrorRate {job="payments", namespace="shop", severity="critical"} "payments is failing requests" — pods on 1.9.0 + their nodes?',
    expect: { podsOf: { workload: 'payments', version: '1.9.0' } },
  },
  // QA
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    message: 'payments 5xx ratio last 15m, all routes. is it consistent across the window or flaky?',
    expect: {
      number: 'sum(rate(http_requests_total{job="payments", code=~"5.."}[15m])) / sum(rate(http_requests_total{job="payments"}[15m]))',
      tolerance: 0.2,
    }, // ≈ 0.20
  },
  // LEAD
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    earlier: ['payments alert overnight, what happened?'],
    message: 'someone in the channel said a node is pegged by ledger-reconcile. is that the cause or not?',
    expect: { contains: ['1.9.0'] },
  },
  // PARTNER
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    message: 'Our card payments go through POST /api/payments and started failing at some point this morning. From what time exactly?',
    expect: { at: 36, tolerance: 2 }, // 1.9.0 rollout and first errors 36 min before the end
  },

  // ── checkout-memory-limit-lowered ──
  // PASTE
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'dev',
    message: 'KubePodCrashLooping container=checkout reason=CrashLoopBackOff, 3 of them. what memory limit do those pods have now?',
    expect: { number: 'max(kube_pod_container_resource_limits{container="checkout", resource="memory"})', tolerance: 0.15 }, // = 335544320 B (320 MiB)
  },
  // LEAD
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'dev',
    message: 'checkout has been crashlooping overnight?? how many restarts so far across all the checkout pods',
    expect: { number: 'sum(kube_pod_container_status_restarts_total{container="checkout"})', tolerance: 0.2 }, // = 27
  },
  // QA
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'dev',
    earlier: ["checkout pods getting OOMKilled since last night's rollout"],
    message: 'did that rollout change the version or only resources? which version is running now',
    expect: { contains: ['2.14.3'] },
  },

  // ── ledger-volume-full-chronic-mount ──
  // PASTE
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'dev',
    message: 'kubelet_volume_stats_available_bytes{persistentvolumeclaim="data-ledger", namespace="shop"} 0 — how big is that volume and when did it run out?',
    expect: {
      all: [
        { number: 'kubelet_volume_stats_capacity_bytes{persistentvolumeclaim="data-ledger"}', tolerance: 0.15 }, // = 53687091200 B (50 GiB)
        { at: 36, tolerance: 2 }, // ≈ 9 MB free at 36.5 min before the end, 0 at 35.5
      ],
    },
  },
  // LEAD
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'dev',
    earlier: ['ledger writes failing overnight?'],
    message: "there's also /var/log/archive at 0 bytes free on that node. is that the problem?",
    expect: { contains: ['data-ledger'] },
  },
  // PARTNER
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'dev',
    message: 'We post ledger entries (POST /api/ledger/entries) from our reconciliation service. What share of those writes are failing right now?',
    expect: {
      number:
        'sum(rate(http_requests_total{job="ledger", route="/api/ledger/entries", code=~"5.."}[5m])) / sum(rate(http_requests_total{job="ledger", route="/api/ledger/entries"}[5m]))',
      tolerance: 0.15,
    }, // ≈ 0.95
  },

  // ── accounts-pool-exhausted-harmless-rollout ──
  // PASTE
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'dev',
    message: 'hikaricp_connections_active{pool="HikariPool-1", service="accounts"} — how many connections in use per pod right now, out of how many?',
    expect: { number: 'max(hikaricp_connections_active{pool="HikariPool-1"})', tolerance: 0.15 }, // = 10 (max 10)
  },
  // LEAD
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'dev',
    message: 'accounts errors overnight. when did 1.4.1 roll out, and when did the errors start?',
    expect: {
      all: [
        { at: 47, tolerance: 2 }, // 1.4.1 absent at 47.5 min before the end, present at 46.5
        { at: 38, tolerance: 2 }, // errors from 38 min before the end
      ],
    },
  },
  // QA
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'dev',
    message: 'accounts 5xx ratio over the last 10 min?',
    expect: {
      number: 'sum(rate(http_requests_total{job="accounts", code=~"5.."}[10m])) / sum(rate(http_requests_total{job="accounts"}[10m]))',
      tolerance: 0.2,
    }, // ≈ 0.30
  },
  // PARTNER
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'dev',
    earlier: ['Transfers via POST /api/accounts/transfer have been timing out for us since this morning.'],
    message: 'Is your accountsdb overloaded?',
    expect: { contains: ['HikariPool-1'] },
  },

  // ── cart-liveness-slow-redis ──
  // PASTE
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'dev',
    message:
      'KubePodRestartingOften container=cart (3 pods) plus CPUThrottlingHigh container=recommendations. how many cart restarts in the last 15m, all pods?',
    expect: { number: 'sum(increase(kube_pod_container_status_restarts_total{container="cart"}[15m]))', tolerance: 0.2 }, // = 48
  },
  // QA
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'dev',
    message: "average latency of cart's calls to sessions-redis over the last 10 min, vs what it normally is?",
    expect: {
      number:
        'sum(rate(http_client_request_duration_seconds_sum{job="cart", peer="sessions-redis"}[10m])) / sum(rate(http_client_request_duration_seconds_count{job="cart", peer="sessions-redis"}[10m]))',
      tolerance: 0.2,
    }, // ≈ 2.33 s (≈ 0.0023 s an hour before)
  },
  // LEAD
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'dev',
    earlier: ['cart kept restarting all night?'],
    message: 'why, liveness probe? is redis down or what',
    expect: { contains: ['sessions-redis'] },
  },

  // ── inventory-liveness-unexplained ──
  // QA
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'dev',
    message: 'failed liveness probes on inventory over the last 30 min, both pods together?',
    expect: { number: 'sum(increase(prober_probe_total{container="inventory", result="failed"}[30m]))', tolerance: 0.2 }, // ≈ 201
  },
  // QA
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'dev',
    message: 'when did the liveness failures on inventory start? does it reproduce on both pods or just one',
    expect: { at: 37, tolerance: 2 }, // first failed probes 37 min before the end, first restart at 36.5
  },
  // PARTNER
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'dev',
    message: "Our stock lookups fail intermittently. Can you see what inventory's process is actually stuck on? A deadlock? Which lock?",
    expect: { cannot: true },
  },

  // ── search-noisy-neighbour ──
  // LEAD
  {
    scenario: 'search-noisy-neighbour',
    split: 'dev',
    message: 'search was slow overnight, was there a deploy? what happened',
    expect: { contains: ['video-transcode'] },
  },
  // PASTE
  {
    scenario: 'search-noisy-neighbour',
    split: 'dev',
    message: 'node_cpu_seconds_total{mode="idle", node="ip-10-0-2-34.eu-west-1.compute.internal"} flatlined. cpu utilisation of that node right now?',
    expect: { number: '1 - avg(rate(node_cpu_seconds_total{mode="idle", node="ip-10-0-2-34.eu-west-1.compute.internal"}[5m]))', tolerance: 0.15 }, // ≈ 0.98
  },
  // QA
  {
    scenario: 'search-noisy-neighbour',
    split: 'dev',
    message: 'p99 of search-878b86fb7-m9xrk over the last 10m, and the other search pod for comparison?',
    expect: {
      all: [
        {
          number: 'histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{job="search", pod="search-878b86fb7-m9xrk"}[10m])))',
          tolerance: 0.2,
        }, // ≈ 2.41 s (the other pod ≈ 0.35 s)
      ],
    },
  },
  // PARTNER
  {
    scenario: 'search-noisy-neighbour',
    split: 'dev',
    earlier: ['Our product search has been slow since early this morning.'],
    message: "Is product-finder affected as well? That's the name your API docs use.",
    expect: { asks: true },
  },

  // ── billing-timeout-config-change ──
  // PARTNER
  {
    scenario: 'billing-timeout-config-change',
    split: 'dev',
    message: 'Our invoicing integration (POST /api/invoices) has been getting 504s since this morning. Did you change anything?',
    expect: { contains: ['cfg-8841'] },
  },
  // QA
  {
    scenario: 'billing-timeout-config-change',
    split: 'dev',
    earlier: ['billing 504s since the config push?'],
    message: 'billing 5xx ratio over the last 15 min?',
    expect: {
      number: 'sum(rate(http_requests_total{job="billing", code=~"5.."}[15m])) / sum(rate(http_requests_total{job="billing"}[15m]))',
      tolerance: 0.2,
    }, // ≈ 0.20
  },
  // PARTNER
  {
    scenario: 'billing-timeout-config-change',
    split: 'dev',
    message: 'When exactly did the billing failures start, and when was the config change pushed? I need both for our incident report.',
    expect: {
      all: [
        { at: 37, tolerance: 1.5 }, // cfg-8841 reported 37 min before the end
        { at: 36, tolerance: 1.5 }, // 504s from 36 min before the end
      ],
    },
  },

  // ── archive-down-reported-deploy-red-herring ──
  // LEAD
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'dev',
    message: 'statements paged overnight. was it deploy-3301?',
    expect: { contains: ['archive'] },
  },
  // PARTNER
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'dev',
    message: 'We generate customer statements via POST /api/statements. What fraction of those calls fail right now?',
    expect: {
      number: 'sum(rate(http_requests_total{job="statements", code=~"5.."}[5m])) / sum(rate(http_requests_total{job="statements"}[5m]))',
      tolerance: 0.2,
    }, // ≈ 0.60
  },
  // PASTE
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'dev',
    message: 'up{job="archive", namespace="shop"} == 0 for both archive pods. since when?',
    expect: { at: 36, tolerance: 2 }, // archive down from 36 min before the end
  },
];
