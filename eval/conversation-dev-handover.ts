/**
 * Dev questions in the voice of an engineer taking over an incident at a shift change and writing
 * the handover note: where things stand now against when the page fired and an hour ago, what
 * changed in the last minutes, from when, what is still broken, which neighbours are fine, and the
 * numbers the note needs ("5xx now vs at the page", "restarts in the last 30 min", "free space 2h
 * ago"), typed the way people type in an incident channel, with follow-ups on earlier turns.
 *
 * Written from the generators only (eval/scenarios.ts, shop.ts, cluster.ts, telemetry.ts), without
 * looking at how the service parses or answers questions. Every oracle was checked against each
 * scenario staged in a real Prometheus, in two separate stagings (/tmp/tools/stage.js, instant
 * queries at the data's end, range queries for when a change shows):
 * each `number` returns exactly one finite value, each `at` matches the change in the data (alert
 * times as the rule manager derives them from the staged data), each `contains` string is a label
 * value of the staged series and never the name of a pod a rollout created. "When the page fired"
 * is written as an `offset` of the page's minutes before the end; "an hour ago" as `offset 1h`.
 */
import type { Expect, QuestionCase } from './conversation-cases';

/**
 * The selector `{job="checkout", route="/api/checkout"}` of the labels given (undefined ones left
 * out), followed by any `extra` matchers written out (such as `code=~"5.."`).
 */
const sel = (labels: Record<string, string | undefined>, ...extra: string[]): string =>
  `{${[
    ...Object.entries(labels)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${k}="${v}"`),
    ...extra,
  ].join(', ')}}`;

/** `expr` (a selector or a range) read `by` back in time (e.g. `1h`, with PromQL's `offset`), or `expr` as is. */
const back = (expr: string, by = ''): string => (by ? [expr, 'offset', by].join(' ') : expr);

/** The ratio of a job's requests answered 5xx over `window` (optionally on one route), `by` before the end. */
const errRatio = (job: string, window = '5m', by = '', route?: string): string => {
  const requests = (...extra: string[]): string => `sum(rate(http_requests_total${back(`${sel({ job, route }, ...extra)}[${window}]`, by)}))`;
  return `${requests('code=~"5.."')} / ${requests()}`;
};

/** The p99 of a latency histogram's series matching `labels`, in seconds, `by` before the end. */
const p99Of = (metric: string, labels: Record<string, string | undefined>, by = ''): string =>
  `histogram_quantile(0.99, sum by (le) (rate(${metric}_bucket${back(`${sel(labels)}[5m]`, by)})))`;

/** A job's server p99 in seconds, `by` before the end. */
const p99 = (job: string, by = ''): string => p99Of('http_request_duration_seconds', { job }, by);

/** The p99 of a job's calls to a peer, in seconds. */
const clientP99 = (job: string, peer: string, by = ''): string => p99Of('http_client_request_duration_seconds', { job, peer }, by);

/** The ratio of a job's calls to a peer that did not succeed. */
const clientFailRatio = (job: string, peer: string): string =>
  `sum(rate(http_client_requests_total${sel({ job, peer }, 'code!="200"')}[5m])) / sum(rate(http_client_requests_total${sel({ job, peer })}[5m]))`;

/** A job's requests per second. */
const rps = (job: string, by = ''): string => `sum(rate(http_requests_total${back(`${sel({ job })}[5m]`, by)}))`;

/** Container restarts of a workload over `window`. */
const restarts = (container: string, window: string): string => `sum(increase(kube_pod_container_status_restarts_total{container="${container}"}[${window}]))`;

/** The busy share of a node's CPUs (1 - idle). */
const nodeBusy = (node: string): string => `1 - avg(rate(node_cpu_seconds_total{node=~"${node}.*", mode="idle"}[5m]))`;

/** CPU cores a container uses. */
const cores = (container: string): string => `sum(rate(container_cpu_usage_seconds_total${sel({ container })}[5m]))`;

/** Container restarts of a workload's pods so far. */
const restartsSoFar = (container: string): string => `sum(kube_pod_container_status_restarts_total${sel({ container })})`;

/** A container's limit of `resource` (cores or bytes), the largest of its pods', `by` before the end. */
const limit = (container: string, resource: 'cpu' | 'memory', by = ''): string =>
  `max(${back(`kube_pod_container_resource_limits${sel({ container, resource })}`, by)})`;

/** The age in seconds of the oldest message waiting in a RabbitMQ queue. */
const oldestMessageAge = (queue: string): string => `max(time() - rabbitmq_queue_head_message_timestamp${sel({ queue })})`;

/** A pod's name: its workload, its pod template's hash and its own suffix. */
const pod = (workload: string, hash: string, suffix: string): string => [workload, hash, suffix].join('-');

const n = (number: string, tolerance = 0.15): Expect => ({ number, tolerance });

export const HANDOVER_DEV_CASES: QuestionCase[] = [
  // checkout-bad-version: 2.15.0 rolled out 38 min before the end; CheckoutHighErrorRate fired 28.5 min
  // before. checkout 5xx 7.7% now and 7.7% at the page (0.13% an hour ago); POST /api/checkout ~11%.
  // payments p99 0.47 s, inventory p99 0.048 s, both unchanged.
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    message: 'taking over from Sam. checkout 5xx ratio right now, and what time did CheckoutHighErrorRate fire? need both for the handover',
    expect: { all: [n(errRatio('checkout')), { at: 28.5, tolerance: 2 }] },
  },
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    message: 'which pods are running 2.15.0 atm? listing them in the handover doc',
    expect: { podsOf: { workload: 'checkout', version: '2.15.0' } },
  },
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    message: 'payments and inventory p99 right now? want to write down that the neighbours are fine',
    earlier: ['when did checkout start throwing 500s?'],
    expect: { all: [n(p99('payments')), n(p99('inventory'))] },
  },
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    message: 'also someone mentioned shipping-quotes timing out since the page, hows that one looking?',
    expect: { asks: true },
  },

  // search-slow-version-chronic-alert: search 3.3.0 rolled out 40 min before the end, SearchLatencyHigh
  // fired 34.5 min before. search's p99 1.95 s now, 0.35 s an hour ago. recommendations throttled in 55% of
  // periods now, 62% an hour ago (CPUThrottlingHigh firing since the start of the data).
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'dev',
    message: "for the note: search's p99 now vs an hour ago?",
    expect: { all: [n(p99('search')), n(p99('search', '1h'))] },
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'dev',
    message: 'which search pods have 3.3.0 on them',
    expect: { podsOf: { workload: 'search', version: '3.3.0' } },
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'dev',
    message: 'what time did the search rollout start? trying to line it up with the page in the timeline',
    expect: { at: 40, tolerance: 3 },
  },

  // inventory-down-harmless-rollout: inventory stops answering 36 min before the end (both pods up 0),
  // checkout 2.14.4 rolled out 44 min before; CheckoutHighErrorRate fired 30.5 min before. checkout 5xx
  // 62% now and at the page; checkout->inventory calls fail 100%. payments unaffected (p99 0.47 s).
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'dev',
    message: 'where are we with checkout? 5xx % right now, and roughly when did inventory stop answering scrapes',
    expect: { all: [n(errRatio('checkout')), { at: 36, tolerance: 2 }] },
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'dev',
    message: 'which inventory pods are down right now',
    expect: { contains: ['inventory-cd568ccd7-psgzx', 'inventory-cd568ccd7-m6nmg'] },
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'dev',
    message: 'and the checkout 2.14.4 deploy people keep bringing up, what time did that go out?',
    earlier: ['where are we with checkout? 5xx % right now, and roughly when did inventory stop answering scrapes'],
    expect: { at: 44, tolerance: 2 },
  },

  // orders-memory-leak-oom: the leak starts 75 min before the end; each orders container reaches its
  // 1 GiB limit ~41 min before the end and is OOMKilled again every few minutes (12 restarts in all).
  // KubePodRestartingOften fired 33 min before. orders p99 0.243 s now and two hours ago.
  {
    scenario: 'orders-memory-leak-oom',
    split: 'dev',
    message: 'how many OOM kills has orders had in the last hour? (both pods together)',
    expect: n(restarts('orders', '1h'), 0.2),
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: 'dev',
    message: 'and when did the first one happen?',
    earlier: ['how many OOM kills has orders had in the last hour? (both pods together)'],
    expect: { at: 40.5, tolerance: 2 },
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: 'dev',
    message: 'did orders latency move at all with all these restarts, p99 now vs 2h ago?',
    expect: { direction: 'about the same' },
  },

  // media-disk-full-flapping-alert: /var/lib/media on ip-10-0-2-34 is full from 37 min before the end
  // (3.4 GB free two hours before); POST /api/uploads fails 97% since. MediaUploadsFailing fired 31.5 min
  // before; FrontendTargetDown (one frontend pod, flapping every 25 min) fired 35.5 min before.
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'dev',
    message: 'which node + mount filled up? need exact names for the ticket',
    expect: { contains: ['ip-10-0-2-34', '/var/lib/media'] },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'dev',
    message: 'how much free space did that mount have 2h ago?',
    earlier: ['which node + mount filled up? need exact names for the ticket'],
    expect: n(back('node_filesystem_avail_bytes{mountpoint="/var/lib/media"}', '2h')),
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'dev',
    message: 'uploads failure ratio now, and what time did MediaUploadsFailing fire?',
    expect: { all: [n(errRatio('media', '5m', '', '/api/uploads')), { at: 31.5, tolerance: 2 }] },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'dev',
    message: 'the FrontendTargetDown that paged first — which frontend pod is the flapper, and from when to when was it down the last time?',
    expect: { all: [{ contains: [pod('frontend', '8fd6d76c8', 'dtqns')] }, { at: 35.5, tolerance: 2 }, { at: 29.5, tolerance: 2 }] },
  },

  // search-traffic-surge: /api/search traffic x6 from 39 min before the end (ramp of 4 min); search
  // 218 req/s now vs 42 an hour ago, ~4 cores used (two pods, 2-core limits, 99.6% of periods
  // throttled); p99 4.5 s. SearchLatencyHigh fired 32 min before; frontend 5.2.1 44 min before, its p99
  // steady at 0.239 s.
  {
    scenario: 'search-traffic-surge',
    split: 'dev',
    message: 'search req/s now vs an hour ago? numbers for the handover',
    expect: { all: [n(rps('search')), n(rps('search', '1h'))] },
  },
  {
    scenario: 'search-traffic-surge',
    split: 'dev',
    message: "and cpu, what's search burning right now, in cores?",
    earlier: ['search req/s now vs an hour ago? numbers for the handover'],
    expect: n(cores('search')),
  },
  {
    scenario: 'search-traffic-surge',
    split: 'dev',
    message: 'frontend 5.2.1 went out just before this — did frontend p99 change vs an hour ago?',
    expect: { direction: 'about the same' },
  },

  // cart-config-crashloop: cart-config edited 38 min 20 s before the end; the rollout that follows
  // stalls on one new pod that crash loops (12 restarts, reason Error). KubePodCrashLooping fired 32.5
  // min before. The three old cart pods keep serving: 66.7 req/s, p99 0.1 s.
  {
    scenario: 'cart-config-crashloop',
    split: 'dev',
    message: 'how many restarts has cart racked up so far?',
    expect: n(restartsSoFar('cart'), 0.1),
  },
  {
    scenario: 'cart-config-crashloop',
    split: 'dev',
    message: 'when was cart-config last changed?',
    expect: { at: 38.3, tolerance: 2 },
  },
  {
    scenario: 'cart-config-crashloop',
    split: 'dev',
    message: 'are the old cart pods still taking traffic ok? req/s right now',
    expect: n(rps('cart')),
  },
  {
    scenario: 'cart-config-crashloop',
    split: 'dev',
    message: 'who made that configmap edit and what key did they change?',
    earlier: ['when was cart-config last changed?'],
    expect: { cannot: true },
  },

  // orders-worker-scaled-to-zero: orders-worker scaled to 0 44 min before the end; the orders queue
  // has had no consumer since and its oldest message is ~44 min old; emails still consumed (1.5 s).
  // QueueMessagesStale fired 29 min before; FrontendTargetDown flaps on one frontend pod.
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'dev',
    message: 'what time did orders-worker go to 0 replicas?',
    expect: { at: 44, tolerance: 2 },
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'dev',
    message: 'how old is the oldest message in the orders queue now, in seconds?',
    expect: n(oldestMessageAge('orders')),
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'dev',
    message: 'same for emails? is that queue still draining',
    earlier: ['how old is the oldest message in the orders queue now, in seconds?'],
    expect: n(oldestMessageAge('emails'), 0.2),
  },

  // checkout-slow-partner-bank: partner-bank slows from 37 min before the end (x12 in 2 min); payments
  // ->partner-bank p99 4.7 s, checkout p99 4.8 s vs 0.79 s an hour ago. CheckoutLatencyHigh fired 31 min
  // before. reports-batch takes 3.6 cores of ip-10-0-2-34 (98% busy) from 40 min before.
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    message: 'checkout p99 — still up vs an hour ago, or has it come back down?',
    expect: { direction: 'up' },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    message: 'payments -> partner-bank p99 right now?',
    expect: n(clientP99('payments', 'partner-bank')),
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    message: 'what time did that start climbing',
    earlier: ['payments -> partner-bank p99 right now?'],
    expect: { at: 37, tolerance: 3 },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    message: 'the reports-batch thing, how busy is the node it runs on? cpu % of the whole node',
    expect: n(nodeBusy('ip-10-0-2-34'), 0.05),
  },

  // recommendations-cpu-throttled: a limits-only rollout 40 min before the end takes recommendations'
  // CPU limit from 1 to 0.3 cores (still 0.9.4); 74% of periods throttled now; p99 1.9 s vs 0.26 s an
  // hour ago. RecommendationsLatencyHigh fired 34.5 min before.
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'dev',
    message: 'what share of cfs periods is recommendations getting throttled in right now?',
    expect: n(
      'sum(rate(container_cpu_cfs_throttled_periods_total{container="recommendations"}[5m])) / sum(rate(container_cpu_cfs_periods_total{container="recommendations"}[5m]))',
    ),
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'dev',
    message: 'cpu limit on recommendations now vs an hour ago?',
    expect: {
      all: [n(limit('recommendations', 'cpu'), 0.05), n(limit('recommendations', 'cpu', '1h'), 0.05)],
    },
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'dev',
    message: 'and its p99 right now?',
    earlier: ['what share of cfs periods is recommendations getting throttled in right now?'],
    expect: n(p99('recommendations')),
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'dev',
    message: 'is recomendation-svc still slow? p99 pls',
    expect: { asksFirst: 'recommendations' },
  },

  // node-not-ready: ip-10-0-3-41 NotReady and node-exporter down from 36 min before the end; its cart
  // pod (seeded name, never rolled) stops answering. frontend 5xx 15% now and at the page (FrontendHighErrorRate
  // fired 31 min before); a third of frontend's calls to cart time out.
  {
    scenario: 'node-not-ready',
    split: 'dev',
    message: 'which node went NotReady and from when?',
    expect: { all: [{ contains: ['ip-10-0-3-41'] }, { at: 36, tolerance: 2 }] },
  },
  {
    scenario: 'node-not-ready',
    split: 'dev',
    message: 'which cart pod is stranded on it?',
    earlier: ['which node went NotReady and from when?'],
    expect: { contains: [pod('cart', 'd7b5fbc6d', 'tk7ck')] },
  },
  {
    scenario: 'node-not-ready',
    split: 'dev',
    message: 'frontend 5xx ratio at the moment? has it improved since the page',
    expect: n(errRatio('frontend')),
  },
  {
    scenario: 'node-not-ready',
    split: 'dev',
    message: 'what fraction of frontend->cart calls are failing now',
    expect: n(clientFailRatio('frontend', 'cart')),
  },

  // partner-bank-certificate-expired: partner-bank's certificate expires 35 min before the end;
  // payments->partner-bank calls fail 100%, payments 5xx 97%. PaymentsHighErrorRate fired 29.5 min
  // before. checkout p99 0.78 s, unchanged. CPUThrottlingHigh on recommendations all along.
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'dev',
    message: 'what time exactly did the partner-bank cert expire?',
    expect: { at: 35, tolerance: 2 },
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'dev',
    message: 'payments error ratio right now, for the note',
    expect: n(errRatio('payments')),
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'dev',
    message: 'checkout ok though? p99 now',
    earlier: ['payments error ratio right now, for the note'],
    expect: n(p99('checkout')),
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'dev',
    message: 'has partner-bank told us when the renewed cert goes live?',
    expect: { cannot: true },
  },

  // ordersdb-connections-exhausted: held connections on ordersdb climb from 44 min before the end to
  // ~all 200 by 39; orders 5xx 35% from 40 min before (over the last 15 min and at the page alike), p99
  // 1.2 s vs 0.24 s an hour ago. orders 2.3.1 rolled out 46 min before. OrdersHighErrorRate fired 34.5
  // min before.
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'dev',
    message: 'what % of max_connections is in use on ordersdb right now?',
    expect: n('sum(pg_stat_activity_count) / max(pg_settings_max_connections{})', 0.1),
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'dev',
    message: 'orders 5xx ratio over the last 15 min, and what was it when OrdersHighErrorRate fired?',
    expect: { all: [n(errRatio('orders', '15m')), n(errRatio('orders', '5m', '34m'))] },
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'dev',
    message: 'timeline check: what time did orders 2.3.1 roll out? people keep asking if that is the cause',
    expect: { at: 46, tolerance: 2 },
  },

  // sessions-redis-down-flapping-alert: sessions-redis down (redis_up 0) from 36 min before the end;
  // cart 5xx 90%. frontend's p99 0.239 s unchanged. FrontendTargetDown flaps on one frontend pod.
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'dev',
    message: 'from what time has sessions-redis been down?',
    expect: { at: 36, tolerance: 2 },
  },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'dev',
    message: "cart's 5xx % now",
    expect: n(errRatio('cart')),
  },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'dev',
    message: 'frontend p99 now vs an hour ago — did it move?',
    earlier: ["cart's 5xx % now"],
    expect: { direction: 'about the same' },
  },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'dev',
    message: 'is the auth-gateway affected too? errors since the page?',
    expect: { asks: true },
  },

  // payments-bad-version-noisy-neighbour: payments 1.9.0 rolled out 36 min before the end (pods now on
  // ip-10-0-1-23 and ip-10-0-2-34), 5xx 20%; PaymentsHighErrorRate fired 29 min before. ledger-reconcile
  // (ledger-reconcile-7c8d7f7cc-m4xj2) takes 3.7 cores on ip-10-0-3-41 from 40 min before.
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    message: 'which pods are on payments 1.9.0?',
    expect: { podsOf: { workload: 'payments', version: '1.9.0' } },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    message: 'what version was payments on an hour ago',
    earlier: ['payments error ratio now vs when the page fired'],
    expect: { contains: ['1.8.0'] },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    message: 'ledger-reconcile: which node is it running on?',
    expect: { contains: ['ip-10-0-3-41'] },
  },

  // checkout-memory-limit-lowered: a limits-only rollout 40 min before the end lowers checkout's memory
  // limit from 768 to 320 MiB (still 2.14.3); the new pods are OOMKilled and crash loop (27 restarts).
  // KubePodCrashLooping fired 31 min before.
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'dev',
    message: 'checkout memory limit now vs before the rollout (say 1h ago)?',
    expect: {
      all: [n(limit('checkout', 'memory'), 0.05), n(limit('checkout', 'memory', '1h'), 0.05)],
    },
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'dev',
    message: 'did the image version change as well or just the limits?',
    earlier: ['checkout memory limit now vs before the rollout (say 1h ago)?'],
    expect: { contains: ['2.14.3'] },
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'dev',
    message: 'checkout restarts in the last 30 min, all pods?',
    expect: n(restarts('checkout', '30m'), 0.2),
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'dev',
    message: 'last terminated reason on those checkout containers?',
    expect: { contains: ['OOMKilled'] },
  },

  // ledger-volume-full-chronic-mount: claim data-ledger (50 GiB) is full from 36 min before the end,
  // 1.4 GiB free two hours before; POST /api/ledger/entries fails 95%. LedgerWritesFailing fired 30.5
  // min before. /var/log/archive on the same node (ip-10-0-1-88) has been full all along.
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'dev',
    message: 'which PVC is out of space?',
    expect: { contains: ['data-ledger'] },
  },
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'dev',
    message: 'how much free did it have 2h ago',
    earlier: ['which PVC is out of space?'],
    expect: n(`sum(${back('kubelet_volume_stats_available_bytes{persistentvolumeclaim="data-ledger"}', '2h')})`),
  },
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'dev',
    message: 'POST /api/ledger/entries failure ratio right now?',
    expect: n(errRatio('ledger', '5m', '', '/api/ledger/entries')),
  },

  // accounts-pool-exhausted-harmless-rollout: HikariPool-1 of accounts runs dry 38 min before the end;
  // 5xx 30%, p99 3.6 s vs 0.2 s an hour ago. accounts 1.4.1 rolled out 47 min before. accountsdb uses
  // ~14% of its 300 connections. AccountsHighErrorRate fired 32.5 min before.
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'dev',
    message: "accounts' p99 right now?",
    expect: n(p99('accounts')),
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'dev',
    message: 'and the error ratio over the last 30 min?',
    earlier: ["accounts' p99 right now?"],
    expect: n(errRatio('accounts', '30m')),
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'dev',
    message: 'when did 1.4.1 roll out, and when did the errors start? want both in the timeline',
    expect: {
      all: [
        { at: 47, tolerance: 2 },
        { at: 38, tolerance: 2 },
      ],
    },
  },

  // cart-liveness-slow-redis: sessions-redis slows to seconds from 38 min before the end; cart's liveness
  // probe times out and cart restarts about every minute (123 restarts). cart->sessions-redis p99 at the
  // 5 s top bucket vs 10 ms an hour ago. KubePodRestartingOften fired 35.5 min before. frontend p99 0.239 s.
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'dev',
    message: 'cart restarts in the last 30 min?',
    expect: n(restarts('cart', '30m'), 0.2),
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'dev',
    message: 'is cart -> sessions-redis latency up compared with an hour ago?',
    expect: { direction: 'up' },
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'dev',
    message: 'frontend p99 right now? checking the blast radius',
    earlier: ['cart restarts in the last 30 min?'],
    expect: n(p99('frontend')),
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'dev',
    message: 'which redis command is the slow one — is someone running KEYS?',
    expect: { cannot: true },
  },

  // inventory-liveness-unexplained: inventory's liveness probes fail from 37 min before the end, first
  // kill 36.5 min before; 81 restarts since. catalog-sync bursts to 1.1 cores on ip-10-0-3-41 (node ~50%
  // busy). KubePodRestartingOften fired 35.5 min before.
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'dev',
    message: 'inventory restarts in the last hour, total?',
    expect: n(restarts('inventory', '1h'), 0.2),
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'dev',
    message: 'when did the first one happen?',
    earlier: ['inventory restarts in the last hour, total?'],
    expect: { at: 36.5, tolerance: 2 },
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'dev',
    message: 'catalog-sync — which node, and how much cpu is it using, in cores',
    expect: { all: [{ contains: ['ip-10-0-3-41'] }, n(cores('catalog-sync'))] },
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'dev',
    message: 'do we know why the inventory processes hang? deadlock in the app?',
    expect: { cannot: true },
  },

  // search-noisy-neighbour: video-transcode takes ip-10-0-2-34 from 37 min before the end; the search
  // pod there (seeded name, never rolled) slows, search's p99 2.3 s vs 0.35 s an hour ago. The other search
  // pod (ip-10-0-3-41, log-shipper node) stays at ~0.35 s. SearchLatencyHigh fired 31 min before.
  {
    scenario: 'search-noisy-neighbour',
    split: 'dev',
    message: 'which search pod is the slow one and what node is it on?',
    expect: { contains: [pod('search', '878b86fb7', 'm9xrk'), 'ip-10-0-2-34'] },
  },
  {
    scenario: 'search-noisy-neighbour',
    split: 'dev',
    message: "what's eating that node's cpu?",
    earlier: ['which search pod is the slow one and what node is it on?'],
    expect: { contains: ['video-transcode'] },
  },
  {
    scenario: 'search-noisy-neighbour',
    split: 'dev',
    message: "p99 of the other search pod, the one on ip-10-0-3-41? want to note it's fine",
    expect: n(p99Of('http_request_duration_seconds', { job: 'search', pod: 'search-878b86fb7-px6bm' })),
  },

  // billing-timeout-config-change: from 36 min before the end a fifth of billing's requests fail 504
  // (calls to ledger time out); no restart, version 3.2.0 throughout. billing->ledger p99 0.22 s before
  // and after. BillingHighErrorRate fired 30 min before.
  {
    scenario: 'billing-timeout-config-change',
    split: 'dev',
    message: 'billing 5xx ratio now',
    expect: n(errRatio('billing')),
  },
  {
    scenario: 'billing-timeout-config-change',
    split: 'dev',
    message: 'from when?',
    earlier: ['billing 5xx ratio now'],
    expect: { at: 36, tolerance: 2 },
  },
  {
    scenario: 'billing-timeout-config-change',
    split: 'dev',
    message: 'any billing restarts at all in the last 2h?',
    expect: n(restarts('billing', '2h')),
  },

  // archive-down-reported-deploy-red-herring: archive stops answering 36 min before the end (both pods
  // up 0); statements 5xx 60%, every statements->archive call refused. statements stays on 3.2.0.
  // StatementsHighErrorRate fired 30.5 min before.
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'dev',
    message: 'statements error ratio over the last 10 min?',
    expect: n(errRatio('statements', '10m')),
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'dev',
    message: 'ci-bot shipped a statements deploy ~50 min ago — did the statements version actually change? what is it running',
    earlier: ['statements error ratio over the last 10 min?'],
    expect: { contains: ['3.2.0'] },
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'dev',
    message: 'what time did archive go dark, and what % of statements->archive calls fail now',
    expect: { all: [{ at: 36, tolerance: 2 }, n(clientFailRatio('statements', 'archive'))] },
  },
];
