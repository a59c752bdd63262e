/**
 * Held-out conversation questions (fourteenth holdout, part B), written before the code they score; never copy or tune on them (eval/holdout/README.md).
 * Voices: an SRE thinking in dashboard panel titles and PromQL words; a team lead collecting a status for the bridge call; a support engineer relaying what customers see; a reliability lead deciding what to do next.
 */
import type { QuestionCase } from '../conversation-cases';

export const FOURTEENTH_HOLDOUT_QUESTIONS_B: QuestionCase[] = [
  // ── SRE: dashboard panels and PromQL words ──
  {
    scenario: 'checkout-bad-version',
    split: 'holdout-14',
    message: "checkout 'Error ratio' panel, POST /api/checkout only — sum(rate 5xx) / sum(rate all) over 5m, what's it reading now?",
    expect: {
      number:
        'sum(rate(http_requests_total{job="checkout", route="/api/checkout", code=~"5.."}[5m])) / sum(rate(http_requests_total{job="checkout", route="/api/checkout"}[5m]))',
      tolerance: 0.15,
    },
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'holdout-14',
    message: 'p99 panel for search looks wild. histogram_quantile 0.99 on /api/search w/ a 5m window, current value?',
    expect: {
      number: 'histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{job="search", route="/api/search"}[5m])))',
      tolerance: 0.2,
    },
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'holdout-14',
    earlier: ['checkout 5xx spiking, whats going on'],
    message: "sum by (code) on checkout's outbound calls to inventory — what fraction is non-200 atm",
    expect: {
      number:
        'sum(rate(http_client_requests_total{job="checkout", peer="inventory", code!="200"}[5m])) / sum(rate(http_client_requests_total{job="checkout", peer="inventory"}[5m]))',
      tolerance: 0.1,
    },
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: 'holdout-14',
    message: 'restarts panel for orders: increase over the last 1h, summed across both pods?',
    expect: { number: 'sum(increase(kube_pod_container_status_restarts_total{namespace="shop", container="orders"}[1h]))', tolerance: 0.15 },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'holdout-14',
    message: 'media uploads 5xx % , rate 5m, route POST /api/uploads. number pls',
    expect: {
      number:
        'sum(rate(http_requests_total{job="media", route="/api/uploads", code=~"5.."}[5m])) / sum(rate(http_requests_total{job="media", route="/api/uploads"}[5m]))',
      tolerance: 0.1,
    },
  },
  {
    scenario: 'search-traffic-surge',
    split: 'holdout-14',
    message: 'req/s on search /api/search right now? sum(rate(http_requests_total[5m])) across pods',
    expect: { number: 'sum(rate(http_requests_total{job="search", route="/api/search"}[5m]))', tolerance: 0.15 },
  },
  {
    scenario: 'cart-config-crashloop',
    split: 'holdout-14',
    message: 'kube_pod_container_status_restarts_total for cart, summed over pods — where is it at',
    expect: { number: 'sum(kube_pod_container_status_restarts_total{namespace="shop", container="cart"})', tolerance: 0.15 },
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'holdout-14',
    message: 'rate(process_cpu_seconds_total) for the order pods, summed?',
    expect: { asksFirst: 'orders' },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'holdout-14',
    message: "p95 of payments' outbound calls to partner-bank (client duration histogram, 5m rate)?",
    expect: {
      number: 'histogram_quantile(0.95, sum by (le) (rate(http_client_request_duration_seconds_bucket{job="payments", peer="partner-bank"}[5m])))',
      tolerance: 0.2,
    },
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'holdout-14',
    message: 'throttling panel: throttled cfs periods / all cfs periods for recommendations, increase over 5m, both pods together?',
    expect: {
      number:
        'sum(increase(container_cpu_cfs_throttled_periods_total{container="recommendations"}[5m])) / sum(increase(container_cpu_cfs_periods_total{container="recommendations"}[5m]))',
      tolerance: 0.15,
    },
  },
  {
    scenario: 'node-not-ready',
    split: 'holdout-14',
    message: 'frontend error ratio, 5xx over total, rate 5m summed for the whole job — current value',
    expect: {
      number: 'sum(rate(http_requests_total{job="frontend", code=~"5.."}[5m])) / sum(rate(http_requests_total{job="frontend"}[5m]))',
      tolerance: 0.15,
    },
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'holdout-14',
    message: 'sum(pg_stat_activity_count) on ordersdb, all states together — how many conns is that vs max_connections',
    expect: { number: 'sum(pg_stat_activity_count{datname="orders"})', tolerance: 0.1 },
  },
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'holdout-14',
    message: 'kubelet_volume_stats used / capacity for the data-ledger claim, what % full?',
    expect: {
      number: 'kubelet_volume_stats_used_bytes{persistentvolumeclaim="data-ledger"} / kubelet_volume_stats_capacity_bytes{persistentvolumeclaim="data-ledger"}',
      tolerance: 0.1,
    },
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'holdout-14',
    message: 'KubePodRestartingOften on cart. sum(increase(restarts[15m])) over the cart pods?',
    expect: { number: 'sum(increase(kube_pod_container_status_restarts_total{namespace="shop", container="cart"}[15m]))', tolerance: 0.2 },
  },
  {
    scenario: 'search-noisy-neighbour',
    split: 'holdout-14',
    message: 'node CPU busy on ip-10-0-2-34, i.e. 1 - avg(rate(node_cpu_seconds_total{mode="idle"}[5m])). value?',
    expect: {
      number: '1 - avg(rate(node_cpu_seconds_total{mode="idle", node="ip-10-0-2-34.eu-west-1.compute.internal"}[5m]))',
      tolerance: 0.1,
    },
  },

  // ── Team lead: status for the bridge call ──
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'holdout-14',
    message: 'bridge in 5. when did search start getting slow and what version is it running now?',
    expect: { all: [{ at: 40, tolerance: 3 }, { contains: ['3.3.0'] }] },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'holdout-14',
    message: 'need a status line: which mount filled up, on which node, and roughly what time',
    expect: { all: [{ contains: ['/var/lib/media', 'ip-10-0-2-34'] }, { at: 37, tolerance: 3 }] },
  },
  {
    scenario: 'cart-config-crashloop',
    split: 'holdout-14',
    message: 'for the call — what config got changed for cart, and at what time did its new pod start crashing?',
    expect: { all: [{ contains: ['cart-config'] }, { at: 38, tolerance: 3 }] },
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'holdout-14',
    message: 'quick summary pls: how old is the oldest message in the orders queue, and since when has nothing been consuming it?',
    expect: {
      all: [
        { number: 'max(time() - rabbitmq_queue_head_message_timestamp{queue="orders"})', tolerance: 0.15 },
        { at: 44, tolerance: 3 },
      ],
    },
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'holdout-14',
    message: 'status check on recommendations: when did latency jump, and is it still on the same build version as before?',
    expect: { all: [{ at: 40, tolerance: 3 }, { contains: ['0.9.4'] }] },
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'holdout-14',
    message: 'also for the notes — who on our side owns the partner-bank cert renewal, and did anyone get warned before it lapsed?',
    expect: { cannot: true },
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'holdout-14',
    earlier: ["orders is throwing 500s, what's the cause?"],
    message: 'how many of those db connections are idle in transaction right now? want the number for the bridge',
    expect: { number: 'sum(pg_stat_activity_count{datname="orders", state="idle in transaction"})', tolerance: 0.15 },
  },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'holdout-14',
    message: 'where are we on cart: what % of its requests fail right now, and when did that start?',
    expect: {
      all: [
        { number: 'sum(rate(http_requests_total{job="cart", code=~"5.."}[5m])) / sum(rate(http_requests_total{job="cart"}[5m]))', tolerance: 0.1 },
        { at: 36, tolerance: 3 },
      ],
    },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'holdout-14',
    earlier: ['whats going on with payments?'],
    message: 'someone on the bridge keeps bringing up ledger-reconcile — which node is that batch job on?',
    expect: { contains: ['ip-10-0-3-41'] },
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'holdout-14',
    earlier: ['why is checkout crash looping?'],
    message: 'ok. total restarts across the checkout pods so far?',
    expect: { number: 'sum(kube_pod_container_status_restarts_total{namespace="shop", container="checkout"})', tolerance: 0.15 },
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'holdout-14',
    message: 'two things for the bridge: accounts error rate at the moment, and what time the failures began',
    expect: {
      all: [
        {
          number: 'sum(rate(http_requests_total{job="accounts", code=~"5.."}[5m])) / sum(rate(http_requests_total{job="accounts"}[5m]))',
          tolerance: 0.1,
        },
        { at: 38, tolerance: 3 },
      ],
    },
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'holdout-14',
    message: 'is warehouse-api hit by this too? people on the call keep asking',
    expect: { asks: true },
  },
  {
    scenario: 'billing-timeout-config-change',
    split: 'holdout-14',
    message: 'billing — what share of requests are timing out with 504 right now, and from when?',
    expect: {
      all: [
        { number: 'sum(rate(http_requests_total{job="billing", code="504"}[5m])) / sum(rate(http_requests_total{job="billing"}[5m]))', tolerance: 0.15 },
        { at: 36, tolerance: 3 },
      ],
    },
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'holdout-14',
    message: 'can someone paste the exception archive is logging? need it for the incident doc',
    expect: { cannot: true },
  },
  {
    scenario: 'node-not-ready',
    split: 'holdout-14',
    message: 'heard its a node issue?? which node, and when did it drop out',
    expect: { all: [{ contains: ['ip-10-0-3-41'] }, { at: 36, tolerance: 3 }] },
  },

  // ── Support engineer: what customers see ──
  {
    scenario: 'checkout-bad-version',
    split: 'holdout-14',
    message: "we have ~40 tickets saying 'payment could not be completed' after clicking Place order. which service is behind that and what version is it on?",
    expect: { contains: ['checkout', '2.15.0'] },
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'holdout-14',
    message: "customers get 'service unavailable' at the very last step of checkout, browsing is fine. what's actually down behind it?",
    expect: { contains: ['inventory'] },
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: 'holdout-14',
    message: 'order history page 502s on and off for customers, someone said the orders pods keep dying. why do they die?',
    expect: { contains: ['OOMKilled'] },
  },
  {
    scenario: 'search-traffic-surge',
    split: 'holdout-14',
    message: 'search results take forever to load for shoppers. which endpoint is getting hammered?',
    expect: { contains: ['/api/search'] },
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'holdout-14',
    message: "customers say orders sit at 'processing' for 40+ min and no confirmation arrives. which service is supposed to process them?",
    expect: { contains: ['orders-worker'] },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'holdout-14',
    earlier: ['checkout is slow, why?'],
    message: 'first tickets about the spinning pay button came in a while ago — when exactly did it start getting slow?',
    expect: { at: 37, tolerance: 3 },
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'holdout-14',
    message: 'cards are being declined at payment for basically everyone. is it us or the bank, and since what time?',
    expect: { all: [{ contains: ['partner-bank'] }, { at: 35, tolerance: 3 }] },
  },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'holdout-14',
    message: 'shoppers report the add to cart button does nothing and their carts come back empty. what is behind that',
    expect: { contains: ['sessions-redis'] },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'holdout-14',
    message: 'a customer says the loyalty-points service is down as well, can you check on it?',
    expect: { asks: true },
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'holdout-14',
    message: 'checkout fails randomly for customers and a retry usually works. are the checkout pods crashing? for what reason?',
    expect: { contains: ['OOMKilled'] },
  },
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'holdout-14',
    message: "finance users can't post ledger entries, the error says 507 Insufficient Storage. what ran out of space?",
    expect: { contains: ['data-ledger'] },
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'holdout-14',
    message: 'cart page takes ages and then errors for shoppers. which thing underneath cart is slow?',
    expect: { contains: ['sessions-redis'] },
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'holdout-14',
    message: "stock levels on product pages flicker to 'unavailable' and back. which service keeps restarting?",
    expect: { contains: ['inventory'] },
  },
  {
    scenario: 'billing-timeout-config-change',
    split: 'holdout-14',
    message: 'B2B customers say invoice generation fails with a gateway timeout about 1 in 5 tries. which dependency is timing out?',
    expect: { contains: ['ledger'] },
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'holdout-14',
    message: 'customers cant download their monthly statements, just an error page. what service is behind it?',
    expect: { contains: ['archive'] },
  },

  // ── Reliability lead: what to do next, with evidence ──
  {
    scenario: 'checkout-bad-version',
    split: 'holdout-14',
    message: 'leaning toward rolling back checkout. list the pods running 2.15.0 and their nodes so I know the blast radius',
    expect: { podsOf: { workload: 'checkout', version: '2.15.0' } },
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'holdout-14',
    earlier: ['why did SearchLatencyHigh fire?'],
    message: 'ok rollback it is. which pods have 3.3.0 on them right now?',
    expect: { podsOf: { workload: 'search', version: '3.3.0' } },
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: 'holdout-14',
    message: "options are bump the limit or keep restarting orders. what's the memory limit on the orders containers today?",
    expect: { number: 'max(kube_pod_container_resource_limits{container="orders", resource="memory"})', tolerance: 0.1 },
  },
  {
    scenario: 'search-traffic-surge',
    split: 'holdout-14',
    earlier: ['why is search latency high?'],
    message: 'before I scale search out: is the request volume really higher than before the alert, or is this the frontend 5.2.1 deploy?',
    expect: { direction: 'up' },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'holdout-14',
    message: 'checkout p99 is red. do I evict reports-batch from the checkout node or is the slowness downstream? show me',
    expect: { contains: ['partner-bank'] },
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'holdout-14',
    earlier: ['recommendations latency alert — cause?'],
    message: 'if we revert that: what cpu limit do the recommendations containers run with now?',
    expect: { number: 'max(kube_pod_container_resource_limits{container="recommendations", resource="cpu"})', tolerance: 0.1 },
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'holdout-14',
    earlier: ['payments failing, why?'],
    message: "thinking about failing over to the backup acquirer. what share of payments' calls to partner-bank fail at the moment?",
    expect: {
      number:
        'sum(rate(http_client_requests_total{job="payments", peer="partner-bank", code!="200"}[5m])) / sum(rate(http_client_requests_total{job="payments", peer="partner-bank"}[5m]))',
      tolerance: 0.1,
    },
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'holdout-14',
    message: 'orders 2.3.1 went out just before the errors. roll back, or is it something else? evidence pls',
    expect: { contains: ['ordersdb'] },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'holdout-14',
    message: 'we go back to payments 1.8.0 — which pods carry 1.9.0 and on what nodes?',
    expect: { podsOf: { workload: 'payments', version: '1.9.0' } },
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'holdout-14',
    message: "the checkout rollout was 'resources only' per the PR. what memory limit do the new pods actually get?",
    expect: { number: 'max(kube_pod_container_resource_limits{container="checkout", resource="memory"})', tolerance: 0.1 },
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'holdout-14',
    message: 'accounts 1.4.1 shipped a few min before this. is it a rollback candidate, or what is actually saturated?',
    expect: { contains: ['HikariPool-1'] },
  },
  {
    scenario: 'search-noisy-neighbour',
    split: 'holdout-14',
    earlier: ['why is search p99 up?'],
    message: 'so do we evict something or reschedule search? which workload is hogging the node, and which node is it',
    expect: { contains: ['video-transcode', 'ip-10-0-2-34'] },
  },
  {
    scenario: 'billing-timeout-config-change',
    split: 'holdout-14',
    earlier: ['why is billing failing?'],
    message: 'do I revert the config push? what exactly did it set the timeout to?',
    expect: { contains: ['150ms'] },
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'holdout-14',
    message: 'statements had deploy-3301 right before this. roll it back, or is the problem elsewhere — and since when?',
    expect: { all: [{ contains: ['archive'] }, { at: 36, tolerance: 3 }] },
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'holdout-14',
    earlier: ['why does inventory keep restarting?'],
    message: 'before I restart it by hand again: which function in inventory is hanging? decides hotfix vs restart',
    expect: { cannot: true },
  },
];
