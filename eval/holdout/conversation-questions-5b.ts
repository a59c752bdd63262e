/**
 * Fifth held-out set, part B: questions about the 23 incidents of eval/scenarios.ts as they are
 * typed into an incident channel by five kinds of people: a customer-support lead relaying tickets,
 * an engineering manager who wants impact and duration, an engineer new to the team, an SRE of a
 * neighbouring team asking whether their service is involved, and a database/queue specialist.
 *
 * How they were written: from the scenarios' stories and their generators only (eval/scenarios.ts,
 * shop.ts, cluster.ts, telemetry.ts, random.ts), without looking at how the service parses or
 * answers questions, and without reading any other question file.
 *
 * How they were checked: every scenario was staged in a real Prometheus (/tmp/tools/stage.js) and
 * each oracle queried at the data's end (/tmp/tools/q.sh): every `number` returns one finite value,
 * every `at` was located in the data (first sample of the new version, of `up == 0`, of a condition,
 * of the first restart...), every `contains` string is a label value of the staged series (pod
 * names only of workloads that do not roll out in that scenario, or of pods that the scenario
 * never replaces). The values seen are noted above each scenario's questions.
 */
import type { Expect, QuestionCase } from '../conversation-cases';

const SPLIT = 'holdout-5' as const;

/** Share of a job's requests (optionally of one route) answered 5xx over the last five minutes. */
const errorRatio = (job: string, route?: string): string => {
  const sel = route ? `job="${job}", route="${route}"` : `job="${job}"`;
  return `sum(rate(http_requests_total{${sel}, code=~"5.."}[5m])) / sum(rate(http_requests_total{${sel}}[5m]))`;
};

/** 5xx answers per second of a job. */
const errorRate = (job: string): string => `sum(rate(http_requests_total{job="${job}", code=~"5.."}[5m]))`;

/** A job's server-side latency quantile, all routes (optionally shifted back by `offset`). */
const serverQuantile = (job: string, q = 0.99, offset = ''): string =>
  `histogram_quantile(${q}, sum by (le) (rate(http_request_duration_seconds_bucket{job="${job}"}[5m]${offset ? ` offset ${offset}` : ''})))`;

/** A job's client-side latency quantile of its calls to `peer`. */
const clientQuantile = (job: string, peer: string, q = 0.99): string =>
  `histogram_quantile(${q}, sum by (le) (rate(http_client_request_duration_seconds_bucket{job="${job}", peer="${peer}"}[5m])))`;

/** Container restarts of a workload, all its current pods. */
const restarts = (container: string): string => `sum(kube_pod_container_status_restarts_total{namespace="shop", container="${container}"})`;

/** CPU cores a container uses (all its pods). */
const cores = (container: string): string => `sum(rate(container_cpu_usage_seconds_total{container="${container}"}[5m]))`;

/** Share of a node's CPU that is busy. */
const nodeBusy = (node: string): string => `1 - avg(rate(node_cpu_seconds_total{mode="idle", node="${node}"}[5m]))`;

const num = (number: string, tolerance = 0.15): Expect => ({ number, tolerance });
const at = (minutes: number, tolerance = 2): Expect => ({ at: minutes, tolerance });

export const FIFTH_HOLDOUT_QUESTIONS_B: QuestionCase[] = [
  // checkout-bad-version: checkout 5xx ratio 0.0758 (POST /api/checkout 0.110), 2.12 failed req/s;
  // 2.15.0 from 38 min before the end on three pods checkout-668d8dd65-*.
  {
    scenario: 'checkout-bad-version',
    split: SPLIT,
    message: 'support here, tickets coming in about orders not going through at checkout. what % of checkout requests are failing atm?',
    expect: num(errorRatio('checkout')),
  },
  {
    scenario: 'checkout-bad-version',
    split: SPLIT,
    earlier: ['what version is checkout running right now?'],
    message: 'ok which pods got that version, and what nodes are they on?',
    expect: { podsOf: { workload: 'checkout', version: '2.15.0' } },
  },

  // search-slow-version-chronic-alert: search p99 1.95 s now, 0.35 s an hour before; 3.3.0 on both
  // search pods from 40 min before the end; recommendations p99 0.258 s now and 0.259 s an hour before.
  {
    scenario: 'search-slow-version-chronic-alert',
    split: SPLIT,
    message: 'what got deployed to search recently, and at what time did it go out?',
    expect: { all: [{ contains: ['3.3.0'] }, at(40, 3)] },
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: SPLIT,
    message:
      "recommendations owner here. CPUThrottlingHigh on our pods is in the same alert group as the search page. has recommendations' p99 latency gone up compared to an hour ago?",
    expect: { direction: 'about the same' },
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: SPLIT,
    earlier: ["what's search's p99 right now?"],
    message: 'and what was it an hour ago, before all this?',
    expect: num(serverQuantile('search', 0.99, '1h')),
  },

  // inventory-down-harmless-rollout: checkout fails 15.8 req/s (ratio 0.62, 503); inventory's
  // targets are down from 36 min before the end; checkout 2.14.4 rolled out 44 min before.
  {
    scenario: 'inventory-down-harmless-rollout',
    split: SPLIT,
    message: 'customers keep getting errors when they place orders. how many failed requests per second is checkout returning right now?',
    expect: num(errorRate('checkout')),
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: SPLIT,
    earlier: ["what's breaking checkout?"],
    message: 'since what time has inventory been unreachable?',
    expect: at(36),
  },

  // orders-memory-leak-oom: 12 restarts (6 per pod, all OOMKilled), the first 40 min before the end;
  // working sets climb from about 75 min before the end (413 MB at -90, 440 MB at -75, 533 MB at -70).
  {
    scenario: 'orders-memory-leak-oom',
    split: SPLIT,
    message: 'how many times have the orders containers been OOM killed so far? need a number for the status update',
    expect: num(restarts('orders')),
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: SPLIT,
    earlier: ['why do the orders pods keep restarting?'],
    message: 'when did the memory start creeping up in the first place?',
    expect: at(75, 5),
  },

  // media-disk-full-flapping-alert: POST /api/uploads 5xx ratio 0.970; /var/lib/media on ip-10-0-2-34 is
  // 200 GiB and has 0 bytes free from 37 min before the end; the flapping frontend target is
  // frontend-8fd6d76c8-dtqns (down -36.5 to -30, up at the end).
  {
    scenario: 'media-disk-full-flapping-alert',
    split: SPLIT,
    message: 'users say photo uploads just spin and then fail. what percentage of uploads are failing?',
    expect: num(errorRatio('media', '/api/uploads'), 0.05),
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: SPLIT,
    message: 'frontend oncall. FrontendTargetDown paged us right before the media alert. which frontend pod was it, and is it part of the media problem?',
    expect: { contains: ['frontend-8fd6d76c8-dtqns'] },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: SPLIT,
    earlier: ['which disk filled up?'],
    message: 'how big is that filesystem, and what time did it hit zero free?',
    expect: { all: [num('max(node_filesystem_size_bytes{mountpoint="/var/lib/media"})', 0.05), at(37)] },
  },

  // search-traffic-surge: search serves 217.8 req/s (42.5 an hour before; /api/search 211.5,
  // /api/suggest 6.3), rising from 39 min before the end; frontend 120.1 req/s now, 119.0 at -50
  // before its 5.2.1 rollout at -44.
  {
    scenario: 'search-traffic-surge',
    split: SPLIT,
    message: 'how much traffic is search taking right now, and since when has it been elevated?',
    expect: { all: [num('sum(rate(http_requests_total{job="search"}[5m]))'), at(39, 3)] },
  },
  {
    scenario: 'search-traffic-surge',
    split: SPLIT,
    message: "frontend team: we rolled out 5.2.1 just before search got slow. did frontend's request rate go up compared to before our rollout?",
    expect: { direction: 'about the same' },
  },

  // cart-config-crashloop: cart-config's resource version changes 38 min before the end; the one new
  // cart pod crash loops (12 restarts, reason Error); the three old pods have none.
  {
    scenario: 'cart-config-crashloop',
    split: SPLIT,
    message: "i'm new here — a cart pod is crashlooping. what changed right before it started?",
    expect: { contains: ['cart-config'] },
  },
  {
    scenario: 'cart-config-crashloop',
    split: SPLIT,
    message: 'how many times has the crashlooping cart pod restarted so far?',
    expect: num(restarts('cart')),
  },

  // orders-worker-scaled-to-zero: orders-worker desired replicas 0 from 44 min before the end; the
  // orders queue has no consumers since then and its oldest message is 2641 s old (11225 ready);
  // emails keeps its 2 consumers and a 1.5 s old head.
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: SPLIT,
    message: 'queue person here. how old is the oldest message sitting in the orders queue right now?',
    expect: num('max(time() - rabbitmq_queue_head_message_timestamp{queue="orders"})', 0.1),
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: SPLIT,
    message: 'who scaled orders-worker down to zero? a person or some automation?',
    expect: { cannot: true },
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: SPLIT,
    earlier: ["what's going on with the orders queue?"],
    message: 'same on the emails queue? did its consumer count go down compared to an hour ago?',
    expect: { direction: 'about the same' },
  },

  // checkout-slow-partner-bank: payments' calls to partner-bank p99 4.69 s (0.43 s an hour before);
  // checkout p99 4.80 s, jumping 37 to 35 min before the end; reports-batch runs 3.5 cores on
  // ip-10-0-2-34, next to checkout-bbb67f8ff-w4rdq.
  {
    scenario: 'checkout-slow-partner-bank',
    split: SPLIT,
    message: "payments oncall, trying to see if we're in the blast radius. what's the p99 of payments' calls to partner-bank right now?",
    expect: num(clientQuantile('payments', 'partner-bank')),
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: SPLIT,
    earlier: ['why is checkout slow?'],
    message: 'someone mentioned a batch job hogging one of the checkout nodes. which job and which node is that?',
    expect: { contains: ['reports-batch', 'ip-10-0-2-34'] },
  },

  // recommendations-cpu-throttled: CPU limit 0.3 cores on both pods from 40 min before the end
  // (1 core before); throttled share of CFS periods 0.74 now, 0.005 an hour before; p99 1.89 s.
  {
    scenario: 'recommendations-cpu-throttled',
    split: SPLIT,
    message: 'what cpu limit do the recommendations pods have now, and what was it before the rollout?',
    expect: {
      all: [
        num('max(kube_pod_container_resource_limits{container="recommendations", resource="cpu"})', 0.05),
        num('max(max_over_time(kube_pod_container_resource_limits{container="recommendations", resource="cpu"}[3h]))', 0.05),
      ],
    },
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: SPLIT,
    message: 'is recommendations getting cpu throttled more than it was before the rollout?',
    expect: { direction: 'up' },
  },

  // node-not-ready: ip-10-0-3-41 NotReady from 36 min before the end; frontend 5xx ratio 0.151, a
  // third of its calls to cart time out; every shop pod on that node stops being scraped (cart,
  // checkout, frontend, orders, payments and search-bdb56cddc-9c86w); search's own 5xx ratio 0.0009.
  {
    scenario: 'node-not-ready',
    split: SPLIT,
    message: 'getting reports of the storefront throwing errors. what share of frontend requests fail right now?',
    expect: num(errorRatio('frontend')),
  },
  {
    scenario: 'node-not-ready',
    split: SPLIT,
    message: 'search team here, I think we had a pod on ip-10-0-3-41. which search pod is on that node, and is it still being scraped?',
    expect: { contains: ['search-bdb56cddc-9c86w'] },
  },
  {
    scenario: 'node-not-ready',
    split: SPLIT,
    earlier: ['which node is broken?'],
    message: 'since what time has it been NotReady?',
    expect: at(36),
  },

  // partner-bank-certificate-expired: payments 5xx ratio 0.971; the probe's certificate expiry is
  // 35 min before the end; checkout's 5xx ratio 0.00097 now, 0.0008 an hour before.
  {
    scenario: 'partner-bank-certificate-expired',
    split: SPLIT,
    message: 'card payments are failing for basically everyone according to support. what % of payments requests error out?',
    expect: num(errorRatio('payments'), 0.05),
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: SPLIT,
    earlier: ['why are payments failing?'],
    message: 'what time exactly did that cert expire?',
    expect: at(35),
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: SPLIT,
    message: 'has partner-bank told us when they will put a new certificate in place?',
    expect: { cannot: true },
  },

  // ordersdb-connections-exhausted: ordersdb 199 of 200 connections (0.995; 0.22 an hour before),
  // 160 idle in transaction; orders 5xx ratio 0.350 from 40 min before the end; orders 2.3.1 at -46.
  {
    scenario: 'ordersdb-connections-exhausted',
    split: SPLIT,
    message: 'db side: how close is ordersdb to max_connections? give me it as a percentage',
    expect: num('sum(pg_stat_activity_count{server="ordersdb:5432"}) / max(pg_settings_max_connections{server="ordersdb:5432"})', 0.05),
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: SPLIT,
    earlier: ['who is holding all the ordersdb connections?'],
    message: 'what state are most of those connections in?',
    expect: { contains: ['idle in transaction'] },
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: SPLIT,
    message: 'for the exec summary: what fraction of orders requests are failing, and from what time?',
    expect: { all: [num(errorRatio('orders'), 0.1), at(40)] },
  },

  // sessions-redis-down-flapping-alert: cart 5xx ratio 0.900; redis_up of sessions-redis 0 from
  // -36 (its exporter up); the flapping frontend target is frontend-b8bb6bfb8-l2lfs (last down -29).
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: SPLIT,
    message: "lots of tickets saying the cart won't load or empties itself. what fraction of cart requests are erroring?",
    expect: num(errorRatio('cart'), 0.05),
  },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: SPLIT,
    message: 'frontend oncall: our FrontendTargetDown came in before the cart page. which frontend pod was flapping?',
    expect: { contains: ['frontend-b8bb6bfb8-l2lfs'] },
  },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: SPLIT,
    message: 'is auth-gateway seeing errors too?',
    expect: { asks: true },
  },

  // payments-bad-version-noisy-neighbour: payments 5xx ratio 0.200; 1.9.0 from -36 on two new pods
  // (on ip-10-0-1-23 and ip-10-0-2-34); ledger-reconcile uses 3.71 cores from -40 on ip-10-0-3-41,
  // a node where, after the rollout, no payments pod runs.
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: SPLIT,
    message: 'which payments pods are on 1.9.0 and where are they scheduled?',
    expect: { podsOf: { workload: 'payments', version: '1.9.0' } },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: SPLIT,
    message: 'we own ledger-reconcile and people are saying our batch is starving payments. how much cpu is it using, and which node is it on?',
    expect: { all: [num(cores('ledger-reconcile'), 0.1), { contains: ['ip-10-0-3-41'] }] },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: SPLIT,
    message: "what's the error rate of paymnets-api right now?",
    expect: { asksFirst: 'payments' },
  },

  // checkout-memory-limit-lowered: memory limit 320 MiB (335544320) on the three new pods from -40,
  // 768 MiB (805306368) before; 27 restarts (9 a pod, OOMKilled); the version stays 2.14.3.
  {
    scenario: 'checkout-memory-limit-lowered',
    split: SPLIT,
    message: "new to this service — what's checkout's memory limit now, and what was it before?",
    expect: {
      all: [
        num('max(kube_pod_container_resource_limits{container="checkout", resource="memory"})', 0.05),
        num('max(max_over_time(kube_pod_container_resource_limits{container="checkout", resource="memory"}[3h]))', 0.05),
      ],
    },
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: SPLIT,
    earlier: ['why is checkout crashlooping?'],
    message: 'was that rollout a new build? what version are the pods on?',
    expect: { contains: ['2.14.3'] },
  },

  // ledger-volume-full-chronic-mount: POST /api/ledger/entries 5xx ratio 0.951; claim data-ledger
  // (50 GiB) has 0 bytes free from 36 min before the end on ip-10-0-1-88; /var/log/archive on the
  // same node has been full for the whole three hours.
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: SPLIT,
    message: 'finance team says ledger entries are not saving. what % of ledger writes are failing?',
    expect: num(errorRatio('ledger', '/api/ledger/entries'), 0.05),
  },
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: SPLIT,
    message:
      "logging team: /var/log/archive on ip-10-0-1-88 is at 100%, but it's been like that for ages. is that what's breaking ledger, or is it a different volume?",
    expect: { contains: ['data-ledger'] },
  },
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: SPLIT,
    earlier: ['which volume filled up on ledger?'],
    message: 'how big is it?',
    expect: num('max(kubelet_volume_stats_capacity_bytes{persistentvolumeclaim="data-ledger"})', 0.05),
  },

  // accounts-pool-exhausted-harmless-rollout: accounts 5xx ratio 0.300 from 38 min before the end;
  // HikariPool-1 10 of 10 active, 30 pending per pod; accountsdb 41 of 300 connections (0.137).
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: SPLIT,
    message: 'DBA here. is accountsdb anywhere near max_connections? what percentage is in use?',
    expect: num('sum(pg_stat_activity_count{server="accountsdb:5432"}) / max(pg_settings_max_connections{server="accountsdb:5432"})', 0.2),
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: SPLIT,
    earlier: ['accounts requests are timing out, is the database the problem?'],
    message: "what about the app's own connection pool? which one is maxed out?",
    expect: { contains: ['HikariPool-1'] },
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: SPLIT,
    message: 'how bad is the accounts thing (share of requests failing) and from what time?',
    expect: { all: [num(errorRatio('accounts'), 0.1), at(38)] },
  },

  // cart-liveness-slow-redis: 99 cart restarts in the last 30 min (123 in all, the first at -36.5);
  // cart's calls to sessions-redis average 2.33 s (2.3 ms an hour before), median 2.07 s.
  {
    scenario: 'cart-liveness-slow-redis',
    split: SPLIT,
    message: 'how many times has cart restarted in the last 30 minutes?',
    expect: num(`${restarts('cart')} - sum(kube_pod_container_status_restarts_total{namespace="shop", container="cart"} offset 30m)`),
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: SPLIT,
    message: "redis side: on average how long are cart's calls to sessions-redis taking right now?",
    expect: num(
      'sum(rate(http_client_request_duration_seconds_sum{job="cart", peer="sessions-redis"}[5m])) / sum(rate(http_client_request_duration_seconds_count{job="cart", peer="sessions-redis"}[5m]))',
    ),
  },

  // inventory-liveness-unexplained: 81 inventory restarts (40 + 41, reason Error), the first at
  // -36.5; catalog-sync uses 1.09 cores on ip-10-0-3-41, whose CPU is 50% busy.
  {
    scenario: 'inventory-liveness-unexplained',
    split: SPLIT,
    message: "catalog-sync owner here. is our job starving inventory? how much cpu is catalog-sync using and how busy is that node's cpu overall?",
    expect: { all: [num(cores('catalog-sync'), 0.1), num(nodeBusy('ip-10-0-3-41.eu-west-1.compute.internal'), 0.1)] },
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: SPLIT,
    message: 'what exactly is inventory hanging on? which lock or thread is stuck?',
    expect: { cannot: true },
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: SPLIT,
    message: 'how many restarts have the inventory pods racked up since this began?',
    expect: num(restarts('inventory')),
  },

  // search-noisy-neighbour: search-878b86fb7-m9xrk on ip-10-0-2-34 (p99 2.41 s) shares the node with
  // video-transcode (3.6 cores); search-878b86fb7-px6bm on ip-10-0-3-41 (p99 0.35 s) with
  // log-shipper (1.1 cores); image-resizer takes 3.8 cores of ip-10-0-1-23, where no search pod
  // runs; search p99 2.29 s, jumping between 37 and 36 min before the end.
  {
    scenario: 'search-noisy-neighbour',
    split: SPLIT,
    message: 'image-resizer team: our batch is pegging ip-10-0-1-23. which nodes do the search pods actually run on?',
    expect: { contains: ['ip-10-0-2-34', 'ip-10-0-3-41'] },
  },
  {
    scenario: 'search-noisy-neighbour',
    split: SPLIT,
    message: 'when did search latency go bad?',
    expect: at(37),
  },
  {
    scenario: 'search-noisy-neighbour',
    split: SPLIT,
    earlier: ["why's search slow?"],
    message: "which of the search pods is the slow one, and what's hogging its node?",
    expect: { contains: ['search-878b86fb7-m9xrk', 'video-transcode'] },
  },

  // billing-timeout-config-change: billing 5xx ratio 0.201 (504) from 35.5 min before the end (the
  // reported config change at -37); every billing call to ledger times out; no series of ledger's own.
  {
    scenario: 'billing-timeout-config-change',
    split: SPLIT,
    message: "customers can't generate invoices. what percentage of billing requests are failing?",
    expect: num(errorRatio('billing'), 0.1),
  },
  {
    scenario: 'billing-timeout-config-change',
    split: SPLIT,
    message: 'since when has billing been failing?',
    expect: at(36),
  },
  {
    scenario: 'billing-timeout-config-change',
    split: SPLIT,
    message: "ledger oncall. what's ledger's own server-side p99 latency, from ledger's metrics rather than billing's?",
    expect: { cannot: true },
  },

  // archive-down-reported-deploy-red-herring: statements fails 17.8 req/s (ratio 0.601, 503); both
  // archive targets are down from 36 min before the end; statements stays on 3.2.0 throughout.
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: SPLIT,
    message: 'statements page is erroring for customers. how many failed requests a second is statements serving?',
    expect: num(errorRate('statements')),
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: SPLIT,
    earlier: ['why is statements failing?'],
    message: 'since when is archive down? and after that statements deploy, do the metrics show statements on a new version?',
    expect: { all: [at(36), { contains: ['3.2.0'] }] },
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: SPLIT,
    message: 'is pdf-export affected too?',
    expect: { asks: true },
  },
];
