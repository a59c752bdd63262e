/**
 * Fifth held-out question set, part A: the mixed voices of an incident channel. The on-call engineer
 * types fast (fragments, typos, "rn", "pls"); the incident commander asks for the state and the
 * timeline ("need times for the update"); developers of the affected service defend or suspect their
 * own deploy; a platform engineer asks about nodes, pods, disks, volumes and limits.
 *
 * How they were written: from the scenario generators only (eval/scenarios.ts, eval/shop.ts,
 * eval/cluster.ts, eval/telemetry.ts, eval/random.ts) and the judge's rules, without reading how the
 * service parses or answers questions, and without looking at any other question file.
 *
 * How they were checked: every scenario was staged in a real Prometheus (the harness'
 * stagePrometheus) and every `number` oracle was evaluated at the data's end (one finite value each);
 * every `at` was computed from the generator (minutes before the end) and confirmed in the data with
 * `min_over_time(timestamp(...)[3h:30s])`; every `contains` is a literal of the data (node, mount,
 * claim, ConfigMap, connection state, version, or the pod of a workload that never rolls out in that
 * scenario). The values seen are noted per scenario.
 */
import type { Expect, QuestionCase } from '../conversation-cases';

const S = 'holdout-5' as const;

/** Share of a job's requests answered 5xx (a ratio), over five minutes, optionally of one route. */
const errorRatio = (job: string, route?: string): string => {
  const sel = route ? `job="${job}",route="${route}"` : `job="${job}"`;
  return `sum(rate(http_requests_total{${sel},code=~"5.."}[5m])) / sum(rate(http_requests_total{${sel}}[5m]))`;
};

/** A job's p99 request latency (seconds). */
const p99 = (job: string): string => `histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{job="${job}"}[5m])))`;

/** Mean latency (seconds) of a job's calls to a peer. */
const peerMeanLatency = (job: string, peer: string): string =>
  `sum(rate(http_client_request_duration_seconds_sum{job="${job}",peer="${peer}"}[5m])) / sum(rate(http_client_request_duration_seconds_count{job="${job}",peer="${peer}"}[5m]))`;

/** Restarts of a container's pods in the last `window` (counter difference, no extrapolation). */
const restartsSince = (container: string, window: string): string =>
  `sum(kube_pod_container_status_restarts_total{container="${container}"}) - sum(kube_pod_container_status_restarts_total{container="${container}"} offset ${window})`;

/** Cores a single container uses now. */
const cores = (container: string): string => `sum(rate(container_cpu_usage_seconds_total{container="${container}"}[5m]))`;

/** Share of CFS periods a container's pods were throttled in (a ratio). */
const throttled = (container: string): string =>
  `sum(increase(container_cpu_cfs_throttled_periods_total{container="${container}"}[5m])) / sum(increase(container_cpu_cfs_periods_total{container="${container}"}[5m]))`;

/** A container's limit of a resource, `offset` before the end when given. */
const limit = (container: string, resource: 'cpu' | 'memory', offset = ''): string =>
  `max(kube_pod_container_resource_limits{container="${container}",resource="${resource}"}${offset ? ` offset ${offset}` : ''})`;

/** Busy share of a node's CPUs (a ratio). */
const nodeBusy = (node: string): string => `1 - avg(rate(node_cpu_seconds_total{mode="idle",node=~"${node}.*"}[5m]))`;

const n = (query: string, tolerance: number): Expect => ({ number: query, tolerance });
const at = (minutes: number, tolerance: number): Expect => ({ at: minutes, tolerance });
const has = (...contains: string[]): Expect => ({ contains });

export const FIFTH_HOLDOUT_QUESTIONS_A: QuestionCase[] = [
  // checkout-bad-version: checkout 5xx ratio 0.076 overall, 0.110 on POST /api/checkout; 2.15.0's
  // first pod reports 38 min before the end, its 500s pass 0.5 req/s 36.5 min before; payments 0.001.
  {
    scenario: 'checkout-bad-version',
    split: S,
    message: 'IC here, putting together the update: what share of checkout requests are 5xx right now, and what time did this kick off?',
    expect: { all: [n(errorRatio('checkout'), 0.2), at(37, 3)] },
  },
  {
    scenario: 'checkout-bad-version',
    split: S,
    message: 'which pods r actually on 2.15.0 and on what nodes',
    expect: { podsOf: { workload: 'checkout', version: '2.15.0' } },
  },
  {
    scenario: 'checkout-bad-version',
    split: S,
    earlier: ['checkout error rate?'],
    message: "that's all routes mixed right? give me just POST /api/checkout",
    expect: n(errorRatio('checkout', '/api/checkout'), 0.15),
  },

  // search-slow-version-chronic-alert: search p99 1.95 s (0.35 s an hour before); 3.3.0 from 40 min
  // before the end (second pod 39); recommendations throttled in 0.55 of its CFS periods all along.
  {
    scenario: 'search-slow-version-chronic-alert',
    split: S,
    message: 'search p99 rn?',
    expect: n(p99('search'), 0.2),
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: S,
    earlier: ['what version is search running now?'],
    message: 'when did that version go out',
    expect: at(40, 3),
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: S,
    message:
      "platform q: the CPUThrottlingHigh that's been going off all morning on recommendations - how badly is it actually throttled, what % of cfs periods?",
    expect: n(throttled('recommendations'), 0.2),
  },

  // inventory-down-harmless-rollout: checkout 2.14.4 from 44 min before the end (pods 44, 43, 42.5);
  // inventory's targets and its /healthz probe fail from 36.5 min; checkout 5xx 0.62.
  {
    scenario: 'inventory-down-harmless-rollout',
    split: S,
    message: 'checkout dev here. yes our 2.14.4 went out just before this - what time exactly did it roll, and what time did inventory stop answering?',
    expect: { all: [at(44, 2), at(36, 2)] },
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: S,
    message: 'who approved the 2.14.4 checkout rollout? need the name for the timeline',
    expect: { cannot: true },
  },

  // orders-memory-leak-oom: orders limit 1 GiB; working set climbs from 420 MiB 75 min before the end
  // (427 MB at -80 min, 533 MB at -70, 721 MB at -60); first OOMKill 40 min before; 12 OOMKills (6 a
  // pod), all in the last hour.
  {
    scenario: 'orders-memory-leak-oom',
    split: S,
    message: 'how many times have the orders containers been OOMKilled in the last hour?',
    expect: n(restartsSince('orders', '1h'), 0.15),
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: S,
    earlier: ['why do the orders pods keep restarting?'],
    message: 'ok and when did the memory start creeping up, roughly?',
    expect: at(75, 6),
  },

  // media-disk-full-flapping-alert: /var/lib/media (200 GiB) on ip-10-0-2-34 at 0 bytes free from
  // 37 min before the end; 507s from 36.5 min; uploads fail 0.97; the flapping frontend target is
  // frontend-8fd6d76c8-dtqns (last down 30 min before the end), the other two never go down.
  {
    scenario: 'media-disk-full-flapping-alert',
    split: S,
    message: 'which node and which mountpoint ran out of space?',
    expect: has('ip-10-0-2-34', '/var/lib/media'),
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: S,
    message: 'for the status page: what percent of media uploads are failing and since what time (UTC)?',
    expect: { all: [n(errorRatio('media', '/api/uploads'), 0.1), at(37, 2)] },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: S,
    earlier: ['we got paged for FrontendTargetDown first, is that the same thing?'],
    message: 'which frontend pod is the one flapping',
    expect: has('frontend-8fd6d76c8-dtqns'),
  },

  // search-traffic-surge: /api/search 211 req/s (36 an hour before), ramping up from 39 min before the
  // end (crosses 60 req/s at 38); frontend 5.2.1 from 44 min (pods 44, 43, 42.5); search at its 2 cores.
  {
    scenario: 'search-traffic-surge',
    split: S,
    message: 'is search getting more traffic than an hour ago or is it the same?',
    expect: { direction: 'up' },
  },
  {
    scenario: 'search-traffic-surge',
    split: S,
    message: 'frontend dev - pretty sure our 5.2.1 isnt it. can someone give me the time 5.2.1 rolled out and the time search traffic jumped?',
    expect: { all: [at(44, 2), at(39, 2)] },
  },

  // cart-config-crashloop: cart-config's resource version changes 38 min before the end (the cart
  // Deployment's generation too); the new pod's first restart 37.5 min before; 12 restarts, all its.
  {
    scenario: 'cart-config-crashloop',
    split: S,
    message: 'what time was cart-config edited?',
    expect: at(38, 2),
  },
  {
    scenario: 'cart-config-crashloop',
    split: S,
    earlier: ["what's crashlooping in shop?"],
    message: 'how many restarts has it racked up so far',
    expect: n('sum(kube_pod_container_status_restarts_total{container="cart"})', 0.15),
  },

  // orders-worker-scaled-to-zero: spec replicas 0 from 44 min before the end, orders queue consumers 0
  // from 43.5; oldest orders message 2641.5 s old; emails queue keeps 2 consumers.
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: S,
    message: 'when did orders-worker go to 0 replicas',
    expect: at(44, 2),
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: S,
    message: 'how old is the oldest message sitting in the orders queue? in seconds pls',
    expect: n('max(time() - rabbitmq_queue_head_message_timestamp{queue="orders"})', 0.1),
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: S,
    message: 'who scaled orders-worker down - someone with kubectl or an autoscaler?',
    expect: { cannot: true },
  },

  // checkout-slow-partner-bank: checkout p99 0.79 s an hour before, above 1 s from 36.5 min before the
  // end (4.8 s now); payments→partner-bank mean 1.26 s (0.10 s an hour before); reports-batch uses
  // 3.5 cores on ip-10-0-2-34, whose CPUs are 98% busy.
  {
    scenario: 'checkout-slow-partner-bank',
    split: S,
    earlier: ['checkout p99 now?'],
    message: 'when did it start climbing',
    expect: at(37, 2),
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: S,
    message: 'payments devs asking: avg latency of our calls out to partner-bank right now?',
    expect: n(peerMeanLatency('payments', 'partner-bank'), 0.2),
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: S,
    message: 'reports-batch looks like its hammering a node. which node is it on and how busy is that node cpu-wise?',
    expect: { all: [has('ip-10-0-2-34'), n(nodeBusy('ip-10-0-2-34'), 0.1)] },
  },

  // recommendations-cpu-throttled: CPU limit 0.3 cores now, 1 core an hour before (new pods 40 and 39
  // min before the end); throttled in 0.74 of CFS periods (0.005 an hour before); p99 1.88 s (0.26 s).
  {
    scenario: 'recommendations-cpu-throttled',
    split: S,
    message: 'recommendations cpu limit now vs before that rollout?',
    expect: { all: [n(limit('recommendations', 'cpu'), 0.05), n(limit('recommendations', 'cpu', '1h'), 0.05)] },
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: S,
    earlier: ['recs latency is way up, is it being throttled?'],
    message: 'what fraction of its cfs periods are getting throttled',
    expect: n(throttled('recommendations'), 0.2),
  },

  // node-not-ready: ip-10-0-3-41 Ready=false and node-exporter down from 36 min before the end; the cart
  // pod there is cart-d7b5fbc6d-tk7ck (up 0, not replaced); frontend 5xx 0.151; 1/3 of its cart calls time out.
  {
    scenario: 'node-not-ready',
    split: S,
    message: 'platform: which node went NotReady, and at what time?',
    expect: { all: [has('ip-10-0-3-41'), at(36, 2)] },
  },
  {
    scenario: 'node-not-ready',
    split: S,
    message: 'frontend 5xx % at the moment?',
    expect: n(errorRatio('frontend'), 0.15),
  },
  {
    scenario: 'node-not-ready',
    split: S,
    earlier: ["what's going on with ip-10-0-3-41?"],
    message: 'which cart pod was sitting on it',
    expect: has('cart-d7b5fbc6d-tk7ck'),
  },

  // partner-bank-certificate-expired: api.partner-bank.example's certificate expires 35 min before the
  // end (probe fails from 35.5); payments 5xx 0.971; checkout 5xx 0.0008 now and an hour before.
  {
    scenario: 'partner-bank-certificate-expired',
    split: S,
    message: 'what time did the partner-bank cert expire?',
    expect: at(35, 2),
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: S,
    message: 'payments error ratio rn',
    expect: n(errorRatio('payments'), 0.1),
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: S,
    message: "checkout's error rate - any different from an hour ago?",
    expect: { direction: 'about the same' },
  },

  // ordersdb-connections-exhausted: 199 of 200 connections (0.995; 0.22 an hour before), 160 of them
  // idle in transaction; above 150 from 40 min before the end; orders 5xx 0.35 from 40 min; orders
  // 2.3.1 from 46 min (pods 46, 45).
  {
    scenario: 'ordersdb-connections-exhausted',
    split: S,
    message: 'how close is ordersdb to max_connections? as a %',
    expect: n('sum(pg_stat_activity_count{server="ordersdb:5432"}) / max(pg_settings_max_connections{server="ordersdb:5432"})', 0.1),
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: S,
    earlier: ['orders error rate?'],
    message: 'did orders 2.3.1 go out before or after the errors started? need both times',
    expect: { all: [at(46, 2), at(40, 2)] },
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: S,
    message: 'what state are most of the ordersdb connections in',
    expect: has('idle in transaction'),
  },

  // sessions-redis-down-flapping-alert: redis_up 0 from 36 min before the end (its exporter up 1);
  // cart 5xx 0.90; the flapping frontend target is frontend-b8bb6bfb8-l2lfs. No "session-store".
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: S,
    message: 'what % of cart requests are failing rn',
    expect: n(errorRatio('cart'), 0.1),
  },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: S,
    earlier: ['is sessions-redis up?'],
    message: 'since when has it been down',
    expect: at(36, 2),
  },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: S,
    message: 'anyone looked at session-store? is it healthy',
    expect: { asks: true },
  },

  // payments-bad-version-noisy-neighbour: payments 1.9.0 from 36 min before the end (pods 36, 35, on
  // ip-10-0-1-23 and ip-10-0-2-34); 5xx 0.20; ledger-reconcile uses 3.71 cores on ip-10-0-3-41 (98%
  // busy), the node of an old payments pod; after the rollout no payments pod runs there.
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: S,
    message: 'list the payments pods on 1.9.0 w/ their nodes',
    expect: { podsOf: { workload: 'payments', version: '1.9.0' } },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: S,
    message: 'how many cores is ledger-reconcile burning right now?',
    expect: n(cores('ledger-reconcile'), 0.15),
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: S,
    earlier: ['payments error rate?'],
    message: 'when did 1.9.0 start rolling out',
    expect: at(36, 2),
  },

  // checkout-memory-limit-lowered: memory limit 320 MiB now, 768 MiB an hour before (generation 2 from
  // 40 min before the end); version stays 2.14.3; 27 OOMKill restarts, 15 in the last 30 min; all
  // three new pods in CrashLoopBackOff, 0 replicas available.
  {
    scenario: 'checkout-memory-limit-lowered',
    split: S,
    message: "what's the checkout memory limit now, and what was it before the deploy?",
    expect: { all: [n(limit('checkout', 'memory'), 0.05), n(limit('checkout', 'memory', '1h'), 0.05)] },
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: S,
    message: 'restarts across all checkout pods in the last 30 min?',
    expect: n(restartsSince('checkout', '30m'), 0.25),
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: S,
    earlier: ['why is checkout crashlooping?'],
    message: 'is it a new build tho? what version are those pods',
    expect: has('2.14.3'),
  },

  // ledger-volume-full-chronic-mount: claim data-ledger (50 GiB, on ip-10-0-1-88) at 0 bytes available
  // from 36 min before the end; 507s from 35.5; entries fail 0.95; /var/log/archive on the same node
  // is at 0 bytes free for the whole three hours.
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: S,
    message: 'IC: since what time have ledger writes been failing?',
    expect: at(36, 2),
  },
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: S,
    earlier: ['/var/log/archive is at 100% on the ledger node - is that our problem?'],
    message: "so what's actually full for ledger then",
    expect: has('data-ledger'),
  },

  // accounts-pool-exhausted-harmless-rollout: accounts 1.4.1 from 47 min before the end (pods 47, 46);
  // 5xx 0.30 from 38 min; HikariPool-1 10 of 10 active on both pods, 30 pending each (above 5 from
  // 39.5 min); accountsdb 41 of 300 connections.
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: S,
    earlier: ['anything deployed to accounts today?'],
    message: 'when did 1.4.1 go out vs when did the errors start? times pls',
    expect: { all: [at(47, 2), at(38, 2)] },
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: S,
    message: 'accounts db pool: what % of the hikari connections are in use?',
    expect: n('sum(hikaricp_connections_active{job="accounts"}) / sum(hikaricp_connections_max{job="accounts"})', 0.1),
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: S,
    message: 'which SQL statement is hogging the pool connections?',
    expect: { cannot: true },
  },

  // cart-liveness-slow-redis: cart→sessions-redis mean 2.33 s (0.0023 s an hour before); liveness
  // kills from 36.5 min before the end (Redis slow from 38); 123 restarts, 48 in the last 15 min.
  {
    scenario: 'cart-liveness-slow-redis',
    split: S,
    message: 'cart restarts in the last 15 min?',
    expect: n(restartsSince('cart', '15m'), 0.2),
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: S,
    message: 'avg latency of cart -> sessions-redis calls right now',
    expect: n(peerMeanLatency('cart', 'sessions-redis'), 0.2),
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: S,
    earlier: ['why are the cart pods restarting?'],
    message: 'since when',
    expect: at(37, 2),
  },

  // inventory-liveness-unexplained: liveness failures from 37 and 35.5 min before the end, 81 restarts;
  // catalog-sync uses 1.09 cores on ip-10-0-3-41 (50% busy). No "invetory-sync".
  {
    scenario: 'inventory-liveness-unexplained',
    split: S,
    message: 'is invetory-sync restarting too?',
    expect: { asks: true },
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: S,
    message: 'what are the inventory processes actually stuck on? deadlock? anyone got a thread dump',
    expect: { cannot: true },
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: S,
    message: 'platform: catalog-sync is on one of the inventory nodes - how many cores is it using?',
    expect: n(cores('catalog-sync'), 0.15),
  },

  // search-noisy-neighbour: search p99 2.29 s, 2.41 s on the pod of ip-10-0-2-34, 0.35 s on the other;
  // video-transcode uses 3.6 cores on ip-10-0-2-34 (98% busy) from 37 min before the end;
  // image-resizer 3.8 cores on ip-10-0-1-23 (no search pod); log-shipper 1.1 on ip-10-0-3-41.
  {
    scenario: 'search-noisy-neighbour',
    split: S,
    message: 'which node is the slow search pod running on?',
    expect: has('ip-10-0-2-34'),
  },
  {
    scenario: 'search-noisy-neighbour',
    split: S,
    earlier: ["what's eating the cpu on ip-10-0-2-34?"],
    message: 'how many cores is that thing pulling',
    expect: n(cores('video-transcode'), 0.15),
  },

  // billing-timeout-config-change: billing 5xx (504) 0.20 from 35.5 min before the end (the config push
  // reported 37 min before); version 3.2.0, no restarts. No "billing-worker".
  {
    scenario: 'billing-timeout-config-change',
    split: S,
    message: 'billing: current 5xx ratio and the time it started, for the timeline',
    expect: { all: [n(errorRatio('billing'), 0.15), at(36, 2)] },
  },
  {
    scenario: 'billing-timeout-config-change',
    split: S,
    message: 'hows billing-worker doing, any restarts there?',
    expect: { asks: true },
  },

  // archive-down-reported-deploy-red-herring: archive's targets down from 36.5 min before the end;
  // statements 5xx (503) 0.60 from 35.5 min; statements runs 3.2.0 now and an hour before.
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: S,
    message: 'statements error % now?',
    expect: n(errorRatio('statements'), 0.1),
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: S,
    earlier: ['was anything deployed to statements before this started?'],
    message: 'did that change what version the statements pods are running?',
    expect: has('3.2.0'),
  },
];
