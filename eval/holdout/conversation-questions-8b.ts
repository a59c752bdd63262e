/**
 * Eighth holdout set, part B: questions about the 23 scenarios of eval/scenarios.ts, written in four
 * voices: a performance / load-test engineer (percentiles, throughput, saturation, units), a
 * game-day / chaos engineer testing hypotheses out loud, an engineering manager deciding whether to
 * escalate, and an operator typing terminal shorthand.
 *
 * Every oracle was checked against the scenario staged in a real Prometheus (three hours of data
 * ending at the staging's end): each `number` PromQL returned one finite value at the data's end (the
 * value seen is noted beside it), each `at` was read off the staged data (minutes before its end), and
 * each name in a `contains` is written as the staged data writes it.
 */
import type { QuestionCase } from '../conversation-cases';

/** The ratio of a job's 5xx responses to all its responses over `window` (optionally one route). */
const errorRatio = (job: string, window: string, route?: string): string => {
  const r = route ? `, route="${route}"` : '';
  return `sum(rate(http_requests_total{job="${job}"${r}, code=~"5.."}[${window}])) / sum(rate(http_requests_total{job="${job}"${r}}[${window}]))`;
};

/** A job's failed (5xx) responses counted over `window`. */
const failedCount = (job: string, window: string): string => `sum(increase(http_requests_total{job="${job}", code=~"5.."}[${window}]))`;

/** A server-side latency quantile of a job (optionally one route), over 5m, optionally offset. */
const quantile = (q: number, job: string, route?: string, offset?: string): string => {
  const r = route ? `, route="${route}"` : '';
  const o = offset ? ` offset ${offset}` : '';
  return `histogram_quantile(${q}, sum by (le) (rate(http_request_duration_seconds_bucket{job="${job}"${r}}[5m]${o})))`;
};

/** Container restarts of a workload's containers counted over `window`. */
const restarts = (container: string, window: string): string =>
  `sum(increase(kube_pod_container_status_restarts_total{namespace="shop", container="${container}"}[${window}]))`;

/** CPU utilisation (0..1) of a node over 5m. */
const nodeCpu = (node: string): string => `1 - avg(rate(node_cpu_seconds_total{mode="idle", node="${node}"}[5m]))`;

/** Mean latency of a job's calls to a peer over 5m, optionally offset. */
const peerMean = (job: string, peer: string, offset?: string): string => {
  const o = offset ? ` offset ${offset}` : '';
  return (
    `sum(rate(http_client_request_duration_seconds_sum{job="${job}", peer="${peer}"}[5m]${o}))` +
    ` / sum(rate(http_client_request_duration_seconds_count{job="${job}", peer="${peer}"}[5m]${o}))`
  );
};

export const EIGHTH_HOLDOUT_QUESTIONS_B: QuestionCase[] = [
  // ---------------------------------------------------------------- checkout-bad-version
  {
    scenario: 'checkout-bad-version',
    split: 'holdout-8',
    message: 'Running the numbers for the perf review: p99 of POST /api/checkout over the last 5 minutes, in milliseconds please.',
    expect: { number: quantile(0.99, 'checkout', '/api/checkout'), tolerance: 0.2 }, // value seen: 0.852
  },
  {
    scenario: 'checkout-bad-version',
    split: 'holdout-8',
    message: "I need to tell the checkout team exactly what's affected. Which pods are running 2.15.0, and on which nodes?",
    expect: { podsOf: { workload: 'checkout', version: '2.15.0' } },
  },
  {
    scenario: 'checkout-bad-version',
    split: 'holdout-8',
    earlier: ['checkout err rate now?'],
    message: 'ok. 5xx count last 30m',
    expect: { number: failedCount('checkout', '30m'), tolerance: 0.15 }, // value seen: 3721
  },

  // ---------------------------------------------------------------- search-slow-version-chronic-alert
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'holdout-8',
    message:
      'Working hypothesis: the 3.3.0 build is what slowed search down. For that to hold, the slowdown has to line up with the rollout. When did the first 3.3.0 pod come up?',
    expect: { at: 40, tolerance: 2 }, // first app_build_info{version="3.3.0"} 40 min before the end
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'holdout-8',
    message: 'search p99 vs 1h ago up or down',
    expect: { direction: 'up' }, // p99 /api/search 2.03 s now, 0.37 s an hour before
  },

  // ---------------------------------------------------------------- inventory-down-harmless-rollout
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'holdout-8',
    message:
      "Everyone's staring at the checkout 2.14.4 deploy. If the deploy did it, checkout's 5xx would begin the moment 2.14.4 went out. So when did checkout's 5xx actually begin?",
    expect: { at: 36, tolerance: 2 }, // 5xx above 1 req/s from 35.5 min before the end; 2.14.4 at 44
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'holdout-8',
    message:
      "Trying to work out who to wake. Checkout's alert fired, but is checkout itself the thing that's broken, or something it depends on? Which service is it?",
    expect: { contains: ['inventory'] },
  },

  // ---------------------------------------------------------------- orders-memory-leak-oom
  {
    scenario: 'orders-memory-leak-oom',
    split: 'holdout-8',
    message: 'oom restarts orders last 1h total',
    expect: { number: restarts('orders', '1h'), tolerance: 0.15 }, // value seen: 12
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: 'holdout-8',
    message: 'How long has this been going on? When did the first orders container get killed?',
    expect: { at: 40, tolerance: 2 }, // first restart of an orders container 40 min before the end
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: 'holdout-8',
    message: "What's the working set of the biggest orders container right now, and what's the memory limit it's running into? MiB is fine.",
    expect: {
      all: [
        { number: 'max(container_memory_working_set_bytes{namespace="shop", container="orders"})', tolerance: 0.15 }, // value seen: 835190994
        { number: 'max(container_spec_memory_limit_bytes{namespace="shop", container="orders"})', tolerance: 0.1 }, // value seen: 1073741824
      ],
    },
  },

  // ---------------------------------------------------------------- media-disk-full-flapping-alert
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'holdout-8',
    message:
      "The FrontendTargetDown page came in first but I think it's a bystander: if frontend were the problem we'd see its own errors climb. Rule it out for me, then tell me which filesystem is actually full and on which node.",
    expect: { contains: ['/var/lib/media', 'ip-10-0-2-34'] },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'holdout-8',
    message: 'What fraction of POST /api/uploads requests failed over the last 15 minutes?',
    expect: { number: errorRatio('media', '15m', '/api/uploads'), tolerance: 0.1 }, // value seen: 0.971
  },

  // ---------------------------------------------------------------- search-traffic-surge
  {
    scenario: 'search-traffic-surge',
    split: 'holdout-8',
    message: 'Throughput on GET /api/search right now in req/s, and the same figure an hour ago for comparison.',
    expect: {
      all: [
        { number: 'sum(rate(http_requests_total{job="search", route="/api/search"}[5m]))', tolerance: 0.15 }, // value seen: 211.5
        { number: 'sum(rate(http_requests_total{job="search", route="/api/search"}[5m] offset 1h))', tolerance: 0.15 }, // value seen: 36.13
      ],
    },
  },
  {
    scenario: 'search-traffic-surge',
    split: 'holdout-8',
    message:
      "Frontend shipped 5.2.1 just before this kicked off. Is that what's hurting search, or is it something else? I need the cause so I know which team to pull in.",
    expect: { contains: ['/api/search'] },
  },
  {
    scenario: 'search-traffic-surge',
    split: 'holdout-8',
    earlier: ["What's the p99 of /api/search right now?"],
    message: 'Can you pull the p99 of api-gateway for the same window? I want to see whether the slowdown shows up at the edge too.',
    expect: { asks: true },
  },

  // ---------------------------------------------------------------- cart-config-crashloop
  {
    scenario: 'cart-config-crashloop',
    split: 'holdout-8',
    earlier: ['cart pods status?'],
    message: 'crashlooping one is on which node',
    expect: { contains: ['ip-10-0-1-23'] },
  },
  {
    scenario: 'cart-config-crashloop',
    split: 'holdout-8',
    message: 'Who edited cart-config, and what were they trying to change?',
    expect: { cannot: true },
  },

  // ---------------------------------------------------------------- orders-worker-scaled-to-zero
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'holdout-8',
    message: 'How old is the oldest message waiting in the orders queue right now, in seconds?',
    expect: { number: 'max(time() - rabbitmq_queue_head_message_timestamp{queue="orders"})', tolerance: 0.1 }, // value seen: 2641.5
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'holdout-8',
    message: 'When did orders-worker drop to zero replicas? I need a start time for the incident doc.',
    expect: { at: 44, tolerance: 2 }, // kube_deployment_spec_replicas 0 from 44 min before the end
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'holdout-8',
    message: 'payments-worker replicas now?',
    expect: { asks: true },
  },

  // ---------------------------------------------------------------- checkout-slow-partner-bank
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'holdout-8',
    message:
      "reports-batch has pinned ip-10-0-2-34 and a checkout pod lives there. If the node were the cause, only that pod would be slow and checkout's callees would look fine. Is it the node, or something downstream? What's the actual cause?",
    expect: { contains: ['partner-bank'] },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'holdout-8',
    message: "p95 of payments' outbound calls to partner-bank over the last 5m, in ms please.",
    expect: {
      number: 'histogram_quantile(0.95, sum by (le) (rate(http_client_request_duration_seconds_bucket{job="payments", peer="partner-bank"}[5m])))',
      tolerance: 0.2,
    }, // value seen: 3.05
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'holdout-8',
    message: "Bottom line for me: is checkout's p99 latency higher or lower than it was an hour ago?",
    expect: { direction: 'up' }, // p99 checkout 4.80 s now, 0.79 s an hour before
  },

  // ---------------------------------------------------------------- recommendations-cpu-throttled
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'holdout-8',
    earlier: ["What's recommendations' p99 right now?"],
    message: "And what share of recommendations' CFS periods were throttled over the last 5 minutes?",
    expect: {
      number:
        'sum(increase(container_cpu_cfs_throttled_periods_total{container="recommendations"}[5m])) / sum(increase(container_cpu_cfs_periods_total{container="recommendations"}[5m]))',
      tolerance: 0.1,
    }, // value seen: 0.739
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'holdout-8',
    message: 'reco cpu limit now vs 1h ago (cores)',
    expect: {
      all: [
        { number: 'max(kube_pod_container_resource_limits{container="recommendations", resource="cpu"})', tolerance: 0.1 }, // value seen: 0.3
        { number: 'max(kube_pod_container_resource_limits{container="recommendations", resource="cpu"} offset 1h)', tolerance: 0.1 }, // value seen: 1
      ],
    },
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'holdout-8',
    message:
      "Hypothesis: the limit cut is the cause. If so, throttling should jump exactly when the new pods came up, not before. When did recommendations' throttling start?",
    expect: { at: 40, tolerance: 2 }, // throttled ratio over 25% from 39.5 min before the end
  },

  // ---------------------------------------------------------------- node-not-ready
  {
    scenario: 'node-not-ready',
    split: 'holdout-8',
    message: "If a node died we'd see it flip NotReady. Did one? Which, and since when?",
    expect: { all: [{ contains: ['ip-10-0-3-41'] }, { at: 36, tolerance: 2 }] }, // Ready false from 36 min before the end
  },
  {
    scenario: 'node-not-ready',
    split: 'holdout-8',
    message: "How many frontend requests have failed in the last 30 minutes? I'm trying to size how many users' requests we've hurt.",
    expect: { number: failedCount('frontend', '30m'), tolerance: 0.15 }, // value seen: 20891
  },

  // ---------------------------------------------------------------- partner-bank-certificate-expired
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'holdout-8',
    message: 'partner-bank cert expiry time?',
    expect: { at: 35, tolerance: 2 }, // probe_ssl_earliest_cert_expiry 35 min before the end
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'holdout-8',
    message: 'How many payment requests have we failed in the last 30 minutes?',
    expect: { number: failedCount('payments', '30m'), tolerance: 0.15 }, // value seen: 33153
  },

  // ---------------------------------------------------------------- ordersdb-connections-exhausted
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'holdout-8',
    message: 'ordersdb: total connections as a percentage of max_connections, right now.',
    expect: {
      number: 'sum(pg_stat_activity_count{server="ordersdb:5432"}) / max(pg_settings_max_connections{server="ordersdb:5432"})',
      tolerance: 0.1,
    }, // value seen: 0.995
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'holdout-8',
    message:
      "Rule out the orders 2.3.1 rollout for me. If it caused this, the errors start with the new pods. Give me both times: when 2.3.1 rolled out and when orders' errors started.",
    expect: {
      all: [
        { at: 46, tolerance: 2 },
        { at: 40, tolerance: 2 },
      ],
    }, // first 2.3.1 pod 46 min before the end; 5xx from 40
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'holdout-8',
    message: 'order ids of the failed POSTs last 10m?',
    expect: { cannot: true },
  },

  // ---------------------------------------------------------------- sessions-redis-down-flapping-alert
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'holdout-8',
    message: 'sessions-redis redis_up 0 since when',
    expect: { at: 36, tolerance: 2 }, // redis_up 0 from 36 min before the end
  },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'holdout-8',
    message: "What share of cart's requests are failing at the moment?",
    expect: { number: errorRatio('cart', '5m'), tolerance: 0.1 }, // value seen: 0.900
  },

  // ---------------------------------------------------------------- payments-bad-version-noisy-neighbour
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'holdout-8',
    message:
      "ledger-reconcile is hammering one node. If the neighbour were the cause, only a payments pod sharing its node would fail. What's the error ratio of each payments pod?",
    expect: {
      all: [
        {
          number:
            'max(sum by (pod) (rate(http_requests_total{job="payments", code=~"5.."}[5m])) / sum by (pod) (rate(http_requests_total{job="payments"}[5m])))',
          tolerance: 0.1,
        }, // value seen: 0.2001
        {
          number:
            'min(sum by (pod) (rate(http_requests_total{job="payments", code=~"5.."}[5m])) / sum by (pod) (rate(http_requests_total{job="payments"}[5m])))',
          tolerance: 0.1,
        }, // value seen: 0.200
      ],
    },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'holdout-8',
    message: 'payments pods on 1.9.0 + nodes',
    expect: { podsOf: { workload: 'payments', version: '1.9.0' } },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'holdout-8',
    message: 'CPU utilisation of the node ledger-reconcile runs on, averaged over the last 5 minutes?',
    expect: { number: nodeCpu('ip-10-0-3-41.eu-west-1.compute.internal'), tolerance: 0.1 }, // value seen: 0.98
  },

  // ---------------------------------------------------------------- checkout-memory-limit-lowered
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'holdout-8',
    message: 'checkout mem limit now vs 1h ago',
    expect: {
      all: [
        { number: 'max(kube_pod_container_resource_limits{container="checkout", resource="memory"})', tolerance: 0.1 }, // value seen: 335544320
        { number: 'max(kube_pod_container_resource_limits{container="checkout", resource="memory"} offset 1h)', tolerance: 0.1 }, // value seen: 805306368
      ],
    },
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'holdout-8',
    message: "How many times have checkout's containers restarted in the last 45 minutes?",
    expect: { number: restarts('checkout', '45m'), tolerance: 0.15 }, // value seen: 27
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'holdout-8',
    message:
      "My bet is a bad build. If that's right, the crash-looping checkout pods run a different version than before the rollout. What version are they on?",
    expect: { contains: ['2.14.3'] },
  },

  // ---------------------------------------------------------------- ledger-volume-full-chronic-mount
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'holdout-8',
    message:
      "/var/log/archive has been full for hours, so I'm discounting it. If that's right, something else filled up recently. What filled, and when did it hit zero?",
    expect: { all: [{ contains: ['data-ledger'] }, { at: 36, tolerance: 2 }] }, // available 0 from 36 min before the end
  },
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'holdout-8',
    message: 'Error ratio on POST /api/ledger/entries over the last 10 minutes?',
    expect: { number: errorRatio('ledger', '10m', '/api/ledger/entries'), tolerance: 0.1 }, // value seen: 0.951
  },

  // ---------------------------------------------------------------- accounts-pool-exhausted-harmless-rollout
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'holdout-8',
    message: 'accounts p90 now vs an hour ago, both in ms.',
    expect: {
      all: [
        { number: quantile(0.9, 'accounts'), tolerance: 0.2 }, // value seen: 1.712
        { number: quantile(0.9, 'accounts', undefined, '1h'), tolerance: 0.2 }, // value seen: 0.0727
      ],
    },
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'holdout-8',
    message: 'Rule out 1.4.1 for me: when did it roll out, and when did the errors begin?',
    expect: {
      all: [
        { at: 47, tolerance: 2 },
        { at: 38, tolerance: 2 },
      ],
    }, // first 1.4.1 pod 47 min before the end; 5xx from 38
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'holdout-8',
    message: 'How many accounts requests have failed over the last 15 minutes?',
    expect: { number: failedCount('accounts', '15m'), tolerance: 0.15 }, // value seen: 8704
  },

  // ---------------------------------------------------------------- cart-liveness-slow-redis
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'holdout-8',
    earlier: ['why cart restarting'],
    message: 'cart restarts 30m',
    expect: { number: restarts('cart', '30m'), tolerance: 0.15 }, // value seen: 99
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'holdout-8',
    message: "Mean latency of cart's calls to sessions-redis now, and the same an hour ago, in ms.",
    expect: {
      all: [
        { number: peerMean('cart', 'sessions-redis'), tolerance: 0.15 }, // value seen: 2.327
        { number: peerMean('cart', 'sessions-redis', '1h'), tolerance: 0.15 }, // value seen: 0.002327
      ],
    },
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'holdout-8',
    message: "If redis is the trigger, cart's liveness failures should start when redis slowed down, not before. When did the first liveness probe fail?",
    expect: { at: 37, tolerance: 2 }, // prober_probe_total{result="failed"} above 0 from 37 min before the end
  },

  // ---------------------------------------------------------------- inventory-liveness-unexplained
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'holdout-8',
    message: "catalog-sync is bursting on ip-10-0-3-41. If it were starving inventory we'd see that node's CPU near 100%. What's its CPU utilisation?",
    expect: { number: nodeCpu('ip-10-0-3-41.eu-west-1.compute.internal'), tolerance: 0.15 }, // value seen: 0.503
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'holdout-8',
    message: "Do we actually know why inventory keeps restarting? What's killing it?",
    expect: { contains: ['liveness'] },
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'holdout-8',
    message: 'inv failed liveness probes last 30m',
    expect: { number: 'sum(increase(prober_probe_total{container="inventory", result="failed"}[30m]))', tolerance: 0.15 }, // value seen: 201
  },

  // ---------------------------------------------------------------- search-noisy-neighbour
  {
    scenario: 'search-noisy-neighbour',
    split: 'holdout-8',
    message:
      'Two batch jobs are pegging nodes, image-resizer and video-transcode. Only one of them can be hurting search: the one sharing a node with a search pod. Which one, and on which node?',
    expect: { contains: ['video-transcode', 'ip-10-0-2-34'] },
  },
  {
    scenario: 'search-noisy-neighbour',
    split: 'holdout-8',
    message: 'Which search pod has the worst p99 right now, and what is it in ms?',
    expect: {
      all: [
        { contains: ['search-878b86fb7-m9xrk'] },
        { number: 'max(histogram_quantile(0.99, sum by (pod, le) (rate(http_request_duration_seconds_bucket{job="search"}[5m]))))', tolerance: 0.2 }, // value seen: 2.41
      ],
    },
  },

  // ---------------------------------------------------------------- billing-timeout-config-change
  {
    scenario: 'billing-timeout-config-change',
    split: 'holdout-8',
    message: 'billing: 5xx ratio over the last 5 minutes, plus throughput in req/s.',
    expect: {
      all: [
        { number: errorRatio('billing', '5m'), tolerance: 0.1 }, // value seen: 0.2009
        { number: 'sum(rate(http_requests_total{job="billing"}[5m]))', tolerance: 0.15 }, // value seen: 28.16
      ],
    },
  },
  {
    scenario: 'billing-timeout-config-change',
    split: 'holdout-8',
    message: 'billing->ledger timeouts per sec',
    expect: { number: 'sum(rate(http_client_requests_total{job="billing", peer="ledger", code="timeout"}[5m]))', tolerance: 0.15 }, // value seen: 28.15
  },
  {
    scenario: 'billing-timeout-config-change',
    split: 'holdout-8',
    message: 'When did billing start failing requests? I need the start time for the status page.',
    expect: { at: 36, tolerance: 2 }, // 5xx above 1 req/s from 35.5 min before the end
  },

  // ---------------------------------------------------------------- archive-down-reported-deploy-red-herring
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'holdout-8',
    message:
      "A statements deploy went out twelve minutes before the alert. If the deploy broke it, statements would be failing on its own with everything it calls healthy. Rule it out: what's actually failing?",
    expect: { contains: ['archive'] },
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'holdout-8',
    message: 'archive down since?',
    expect: { at: 36, tolerance: 2 }, // up{job="archive"} 0 from 36 min before the end
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'holdout-8',
    message: 'How many of our users were affected by the statements outage?',
    expect: { cannot: true },
  },
];
