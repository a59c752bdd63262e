/**
 * Conversations that go on (dev split): an on-call engineer digging into an incident over several
 * turns. Most cases carry one to three `earlier` messages, and the scored `message` leans on them
 * ("that node", "those pods", "from when?", "what about an hour back?", "ok and the other one"), drifting
 * from the cause to a neighbour and back. The expectation is about the last message only; the
 * earlier turns only set its context.
 *
 * How they were written: from the scenarios' stories and generators alone (eval/scenarios.ts,
 * eval/shop.ts, eval/cluster.ts, eval/telemetry.ts, eval/random.ts), without looking at how the
 * service parses or answers questions. Times are minutes before the data's end, as the generators
 * place them (a rollout `c.ago(38)`, an onset `end - 36 * MINUTE`).
 *
 * How they were checked: each scenario was staged in a real Prometheus (/tmp/tools/stage.js) and
 * every `number` oracle was evaluated at the data's end (one finite value each), every `at` was
 * confirmed against the series by a one-minute range query around it, and every `contains` string
 * was seen as a label value of the staged data. Pod names are only expected for workloads that
 * never roll out in their scenario (their names are seeded, the same at every staging). The values
 * seen are noted per scenario below.
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
const back = (expr: string, by?: string): string => (by ? [expr, 'offset', by].join(' ') : expr);

/** Ratio of a job's requests answered 5xx over the last five minutes (optionally of one route). */
const errorRatio = (job: string, route?: string): string =>
  `sum(rate(http_requests_total${sel({ job, route }, 'code=~"5.."')}[5m])) / sum(rate(http_requests_total${sel({ job, route })}[5m]))`;

/** A quantile of a latency histogram over the last five minutes, in seconds (optionally read some time back). */
const quantile = (q: number, metric: string, labels: Record<string, string | undefined>, by?: string): string =>
  `histogram_quantile(${q}, sum by (le) (rate(${metric}_bucket${back(`${sel(labels)}[5m]`, by)})))`;

const p99 = (job: string, by?: string, route?: string): string => quantile(0.99, 'http_request_duration_seconds', { job, route }, by);

/** Requests per second of a job (optionally one route, optionally read some time back). */
const rps = (job: string, route?: string, by?: string): string => `sum(rate(http_requests_total${back(`${sel({ job, route })}[5m]`, by)}))`;

/** CPU cores a container uses, summed over its pods. */
const cores = (container: string): string => `sum(rate(container_cpu_usage_seconds_total${sel({ container })}[5m]))`;

/** A container's limit of `resource` (cores or bytes), the largest of its pods' (optionally read some time back). */
const limit = (container: string, resource: 'cpu' | 'memory', by?: string): string =>
  `max(${back(`kube_pod_container_resource_limits${sel({ container, resource })}`, by)})`;

/** Container restarts of a workload's pods so far (optionally as counted some time back). */
const restarts = (container: string, by?: string): string => `sum(${back(`kube_pod_container_status_restarts_total${sel({ container })}`, by)})`;

/** A pod's name: its workload, its pod template's hash and its own suffix. */
const pod = (workload: string, hash: string, suffix: string): string => [workload, hash, suffix].join('-');

/** Share of a container's CFS periods that were throttled over the last five minutes. */
const throttled = (container: string): string =>
  `sum(rate(container_cpu_cfs_throttled_periods_total{container="${container}"}[5m])) / sum(rate(container_cpu_cfs_periods_total{container="${container}"}[5m]))`;

/** Share of a node's CPU that is busy (not idle). */
const nodeBusy = (node: string): string => `1 - avg(rate(node_cpu_seconds_total{node=~"${node}.*", mode="idle"}[5m]))`;

const num = (query: string, tolerance = 0.15): Expect => ({ number: query, tolerance });
const at = (minutesAgo: number, tolerance = 2): Expect => ({ at: minutesAgo, tolerance });
const has = (...strings: string[]): Expect => ({ contains: strings });

export const CHAINS_DEV_CASES: QuestionCase[] = [
  // checkout-bad-version: checkout 2.15.0 rolls out 38 min before the end (3 pods, 45 s apart);
  // checkout 5xx 7.6% overall, 11.0% of POST /api/checkout; the 1-min error ratio jumps at 37 min.
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    earlier: ['which version does checkout run now?'],
    message: 'which pods are on that one, and what nodes are they on',
    expect: { podsOf: { workload: 'checkout', version: '2.15.0' } },
  },
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    earlier: ['checkout 5xx ratio rn?'],
    message: 'just POST /api/checkout?',
    expect: num(errorRatio('checkout', '/api/checkout')),
  },
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    earlier: ['is checkout failing?', 'is payments failing too or just checkout'],
    message: 'ok back to checkout. when did its errors kick off, and what went out right around then?',
    expect: { all: [at(38, 3), has('2.15.0')] },
  },

  // search-slow-version-chronic-alert: search 3.3.0 rolls out 40 min before the end; search's p99
  // 1.95 s (0.35 s an hour ago); /api/suggest p99 0.091 s now and an hour ago; recommendations runs
  // at ~55% throttled periods at the end (0.32-0.72 over the three hours: chronic).
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'dev',
    earlier: ['search latency alert fired, p99?', 'CPUThrottlingHigh is firing in the same group too, which workload is that on'],
    message: 'how throttled is it right now, % of cfs periods?',
    expect: num(throttled('recommendations')),
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'dev',
    earlier: ['p99 for search?'],
    message: 'what version are the slow search pods on and when did it go out',
    expect: { all: [has('3.3.0'), at(40)] },
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'dev',
    earlier: ['p99 of search now?', 'is it both routes or only /api/search?'],
    message: 'is /api/suggest slower than an hour ago too?',
    expect: { direction: 'about the same' },
  },

  // inventory-down-harmless-rollout: checkout 2.14.4 rolls out 44 min before the end; inventory
  // stops answering at 36 min (up 0, healthz probe 0); checkout 5xx 62.1%, all of its inventory
  // calls fail with connection_refused (25.5/s).
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'dev',
    earlier: ['checkout throwing 503s, how bad is it?'],
    message: 'is that the 2.14.4 deploy? when did that roll out vs when did the errors start',
    expect: { all: [at(44), at(36)] },
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'dev',
    earlier: ["what's checkout's error ratio?"],
    message: 'what are its calls to inventory failing with',
    expect: has('connection_refused'),
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'dev',
    earlier: ['checkout 503s', 'is inventory even up?'],
    message: 'from when?',
    expect: at(36),
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'dev',
    earlier: ['checkout is failing 60%', 'payments looks fine'],
    message: 'and fraud-check, is that one ok?',
    expect: { asks: true },
  },

  // orders-memory-leak-oom: orders' working set climbs from 75 min before the end to its 1 GiB
  // limit; first OOM kills of both pods between 41 and 40 min; 12 restarts in all (6 per pod);
  // orders-worker's working set 468 MB now vs 462 MB an hour ago.
  {
    scenario: 'orders-memory-leak-oom',
    split: 'dev',
    earlier: ['orders pods keep restarting - why?'],
    message: 'how many restarts in total across those pods',
    expect: num(restarts('orders')),
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: 'dev',
    earlier: ['orders memory usage per pod?'],
    message: 'whats the limit on those',
    expect: num(limit('orders', 'memory'), 0.05),
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: 'dev',
    earlier: ['orders restarting', 'when did orders memory start climbing?'],
    message: 'and the first OOM kill?',
    expect: at(41),
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: 'dev',
    earlier: ['orders memory leaking?', 'ok what about orders-worker'],
    message: 'is its memory up compared to an hour ago or flat',
    expect: { direction: 'about the same' },
  },

  // media-disk-full-flapping-alert: /var/lib/media on ip-10-0-2-34 reaches 0 bytes free 37 min
  // before the end; uploads fail 507 (97.0%); / on that node has 42.4e9 bytes free; the flapping
  // frontend target (one frontend pod) was last down from 36.5 to 30 min (and 61-55 before).
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'dev',
    message: 'media uploads 507ing. which node and mount is the full disk on?',
    expect: has('ip-10-0-2-34', '/var/lib/media'),
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'dev',
    earlier: ['is /var/lib/media full on ip-10-0-2-34?'],
    message: 'how much space is left on / on that node then',
    expect: num('node_filesystem_avail_bytes{mountpoint="/", node=~"ip-10-0-2-34.*"}', 0.1),
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'dev',
    earlier: ['FrontendTargetDown paged first, is it related to media?'],
    message: 'when did that frontend target go down this last time',
    expect: at(36),
  },

  // search-traffic-surge: /api/search traffic ramps x6 from 39 min before the end: 211.5 req/s now
  // vs 36.1 an hour ago; search uses 3.97 cores (2 pods at their 2-core limit, 99.6% throttled);
  // frontend 5.2.1 rolls out 44 min before the end.
  {
    scenario: 'search-traffic-surge',
    split: 'dev',
    earlier: ["search's p99 is through the roof"],
    message: 'how many req/s is /api/search getting now vs an hour ago?',
    expect: { all: [num(rps('search', '/api/search')), num(rps('search', '/api/search', '1h'))] },
  },
  {
    scenario: 'search-traffic-surge',
    split: 'dev',
    earlier: ['search req rate?'],
    message: 'and how much cpu are teh pods burning, in cores, in total',
    expect: num(cores('search')),
  },
  {
    scenario: 'search-traffic-surge',
    split: 'dev',
    earlier: ['search traffic jumped', 'frontend rolled 5.2.1 today right?'],
    message: 'when exactly',
    expect: at(44),
  },
  {
    scenario: 'search-traffic-surge',
    split: 'dev',
    earlier: ['/api/search is getting 6x the usual traffic'],
    message: 'which crawler is it? user agent / source ip?',
    expect: { cannot: true },
  },

  // cart-config-crashloop: cart-config's resource version bumps 38 min 20 s before the end; cart
  // rolls one new pod at 38 min (same 4.1.2) that exits with Error and crash loops: 12 restarts.
  {
    scenario: 'cart-config-crashloop',
    split: 'dev',
    earlier: ['a cart pod is crashlooping'],
    message: 'anything change right before? a configmap maybe?',
    expect: has('cart-config'),
  },
  {
    scenario: 'cart-config-crashloop',
    split: 'dev',
    earlier: ['cart crashloop - what changed?'],
    message: 'when was that configmap edited',
    expect: at(38),
  },
  {
    scenario: 'cart-config-crashloop',
    split: 'dev',
    earlier: ['which cart pod is crashlooping'],
    message: 'how many restarts does it have so far',
    expect: num('max(kube_pod_container_status_restarts_total{container="cart"})'),
  },

  // orders-worker-scaled-to-zero: orders-worker's desired replicas go 2 -> 0 44 min before the end;
  // the orders queue has 0 consumers and its oldest message is 2641.5 s old (emails: 2 consumers).
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'dev',
    earlier: ["QueueMessagesStale on the orders queue, what's up"],
    message: 'how old is the oldest msg in there now, in seconds',
    expect: num(`max(time() - rabbitmq_queue_head_message_timestamp${sel({ queue: 'orders' })})`, 0.1),
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'dev',
    earlier: ['orders queue has no consumers?', 'orders-worker replicas?'],
    message: 'when was it scaled down',
    expect: at(44),
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'dev',
    earlier: ['orders-worker is at 0 replicas'],
    message: 'who set it to zero replicas, and was there a change ticket for it?',
    expect: { cannot: true },
  },

  // checkout-slow-partner-bank: partner-bank slows from 37 min before the end; payments p99 4.77 s
  // (0.47 s an hour ago), checkout p99 4.80 s; median of payments' partner-bank calls 1.17 s vs
  // 0.091 s an hour ago; reports-batch takes ip-10-0-2-34 to 98% CPU (3.5 cores).
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    earlier: ['checkout p99?'],
    message: "and payments'?",
    expect: num(p99('payments')),
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    earlier: ['payments p99 went way up', 'is it its own code or something downstream'],
    message: 'median of its calls to partner-bank, now and an hour ago',
    expect: {
      all: [
        num(quantile(0.5, 'http_client_request_duration_seconds', { job: 'payments', peer: 'partner-bank' }), 0.2),
        num(quantile(0.5, 'http_client_request_duration_seconds', { job: 'payments', peer: 'partner-bank' }, '1h'), 0.2),
      ],
    },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    earlier: ['checkout slow', 'someone said reports-batch is hammering one of the checkout nodes?'],
    message: 'which node, and how busy is it',
    expect: { all: [has('ip-10-0-2-34'), num(nodeBusy('ip-10-0-2-34'), 0.1)] },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    earlier: ['payments -> partner-bank calls slow?'],
    message: 'from when',
    expect: at(37),
  },

  // recommendations-cpu-throttled: a rollout 40 min before the end lowers the CPU limit 1 -> 0.3
  // cores (same 0.9.4); throttled periods 73.9% (0.5% an hour ago); p99 1.89 s (0.26 s an hour ago).
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'dev',
    earlier: ['recommendations latency alert, p99?'],
    message: 'cpu limit on those pods now vs before?',
    expect: {
      all: [num(limit('recommendations', 'cpu'), 0.1), num(limit('recommendations', 'cpu', '1h'), 0.1)],
    },
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'dev',
    earlier: ['recommendations slow', 'is it getting throttled?'],
    message: 'what share of its periods',
    expect: num(throttled('recommendations')),
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'dev',
    earlier: ['recommendations p99 now', 'looks like new pods, was there a rollout?'],
    message: 'when did it happen',
    expect: at(40),
  },

  // node-not-ready: ip-10-0-3-41 goes NotReady (and node-exporter down) 36 min before the end;
  // its cart pod (seeded name, never rolled) stops answering; frontend 5xx 15.1%, its cart calls time out.
  {
    scenario: 'node-not-ready',
    split: 'dev',
    message: 'frontend 5xx spiking and a node alert in #infra, whcih node went NotReady?',
    expect: has('ip-10-0-3-41'),
  },
  {
    scenario: 'node-not-ready',
    split: 'dev',
    earlier: ['ip-10-0-3-41 is NotReady'],
    message: 'which cart pod was on it',
    expect: has(pod('cart', 'd7b5fbc6d', 'tk7ck')),
  },
  {
    scenario: 'node-not-ready',
    split: 'dev',
    earlier: ['frontend error ratio?'],
    message: 'starting when',
    expect: at(36),
  },
  {
    scenario: 'node-not-ready',
    split: 'dev',
    earlier: ['which node went NotReady', 'cart lost a pod there'],
    message: 'did the wishlist service lose pods there too?',
    expect: { asks: true },
  },

  // partner-bank-certificate-expired: partner-bank's certificate expires 35 min before the end (probe
  // 0 from then); payments 5xx 97.1% (502), its partner-bank calls fail tls_error; checkout p99
  // 0.78 s now and an hour ago.
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'dev',
    earlier: ["payments' error rate?"],
    message: 'what are its calls to partner-bank failing with',
    expect: has('tls_error'),
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'dev',
    earlier: ["when does partner-bank's cert expire?"],
    message: 'wait, so when did it',
    expect: at(35),
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'dev',
    earlier: ['payments failing ~97%', 'partner-bank probe is red'],
    message: 'is checkout any slower than an hour ago? p99',
    expect: { direction: 'about the same' },
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'dev',
    earlier: ['payments failing'],
    message: 'how many customer complaints / support tickets about failed payments so far?',
    expect: { cannot: true },
  },

  // ordersdb-connections-exhausted: orders 2.3.1 rolls out 46 min before the end; ordersdb's idle
  // in transaction connections climb from 44 min; orders 5xx 35% from 40 min; ordersdb 199/200
  // connections (160 idle in transaction); orders' ordersdb calls fail too_many_connections.
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'dev',
    earlier: ["orders' error ratio?"],
    message: 'how near is ordersdb to its max_connections, in %?',
    expect: num('sum(pg_stat_activity_count) / max(pg_settings_max_connections{})', 0.1),
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'dev',
    earlier: ['orders failing a third of requests', 'did orders 2.3.1 break it?'],
    message: 'when did that version roll out vs when did errors begin',
    expect: { all: [at(46), at(40)] },
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'dev',
    earlier: ['ordersdb connections by state?'],
    message: 'which state are most of them in',
    expect: has('idle in transaction'),
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'dev',
    earlier: ['orders failing', 'ordersdb near max conns'],
    message: 'and orders db calls fail with what exactly',
    expect: has('too_many_connections'),
  },

  // sessions-redis-down-flapping-alert: sessions-redis goes down (redis_up 0, exporter up) 36 min
  // before the end; cart 5xx 90%; its last memory reading 1.44e9 bytes.
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'dev',
    earlier: ['cart errors?'],
    message: 'what about its redis, is it up?',
    expect: has('sessions-redis'),
  },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'dev',
    earlier: ['frontend target flapping again', 'ignore that, cart is on fire', 'is sessions-redis down?'],
    message: 'from what time?',
    expect: at(36),
  },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'dev',
    earlier: ['sessions-redis is down', 'is its exporter still up?'],
    message: 'how much memory was the redis using before it went away',
    expect: num('last_over_time(redis_memory_used_bytes{redis="sessions-redis"}[1h])', 0.1),
  },

  // payments-bad-version-noisy-neighbour: payments 1.9.0 rolls out 36 min before the end (5xx
  // 20.0%); ledger-reconcile burns 3.71 cores on ip-10-0-3-41 from 40 min (node 98% busy), where a
  // payments pod ran before the rollout; the new payments pods run on ip-10-0-1-23 and ip-10-0-2-34.
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    earlier: ['payments errors'],
    message: 'which version are the failing pods on',
    expect: has('1.9.0'),
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    earlier: ['payments failing', 'ledger-reconcile is burning cpu somewhere'],
    message: 'which node is it on and how much cpu is it using, in cores',
    expect: { all: [has('ip-10-0-3-41'), num(cores('ledger-reconcile'))] },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    earlier: ['did payments 1.9.0 go out today?'],
    message: 'pods on it + their nodes pls',
    expect: { podsOf: { workload: 'payments', version: '1.9.0' } },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    earlier: ['which payments pods run 1.9.0'],
    message: 'and the error ratio of the whole service',
    expect: num(errorRatio('payments')),
  },

  // checkout-memory-limit-lowered: a rollout 40 min before the end lowers checkout's memory limit
  // 768 MiB -> 320 MiB (same 2.14.3); first OOMKilled at 38 min; 27 restarts (9 per pod).
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'dev',
    earlier: ['checkout is crashlooping'],
    message: 'memory limit of the new pods vs the old ones?',
    expect: {
      all: [
        num(`min(kube_pod_container_resource_limits${sel({ container: 'checkout', resource: 'memory' })})`, 0.05),
        num(limit('checkout', 'memory', '1h'), 0.05),
      ],
    },
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'dev',
    earlier: ['why are checkout pods restarting'],
    message: 'last terminated reason?',
    expect: has('OOMKilled'),
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'dev',
    earlier: ['checkout crashlooping', 'payments seems fine'],
    message: 'is cart-api affected as well?',
    expect: { asksFirst: 'cart' },
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'dev',
    earlier: ['checkout pods crashlooping'],
    message: 'when did the first one die',
    expect: at(38),
  },

  // ledger-volume-full-chronic-mount: data-ledger (50 GiB, on ip-10-0-1-88) reaches 0 bytes free
  // 36 min before the end (1.51e9 free two hours before); POST /api/ledger/entries 5xx 95.1% (507);
  // /var/log/archive on the same node is at 0 bytes free through all three hours.
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'dev',
    message: 'ledger writes failing with 507 - which volume filled up?',
    expect: has('data-ledger'),
  },
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'dev',
    earlier: ['ledger 507s', 'data-ledger full?'],
    message: 'when did it hit zero',
    expect: at(36),
  },
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'dev',
    earlier: ['ledger writes failing', 'which claim is full', '/var/log/archive on that node is at 0 too btw'],
    message: 'ok back to the ledger volume, how big is it and how much was free 2h ago',
    expect: {
      all: [
        num('kubelet_volume_stats_capacity_bytes{persistentvolumeclaim="data-ledger"}', 0.05),
        num(back('kubelet_volume_stats_available_bytes{persistentvolumeclaim="data-ledger"}', '2h'), 0.1),
      ],
    },
  },

  // accounts-pool-exhausted-harmless-rollout: accounts 1.4.1 rolls out 47 min before the end; 5xx
  // 30% from 38 min; HikariPool-1 at 10/10 active, 30 pending per pod; accountsdb 41/300
  // connections (13.7%); accounts p99 3.61 s (0.20 s an hour ago).
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'dev',
    earlier: ['accounts error rate?'],
    message: 'is accountsdb ok? connections as % of max',
    expect: num('sum(pg_stat_activity_count{server=~"accountsdb.*"}) / max(pg_settings_max_connections{server=~"accountsdb.*"})', 0.2),
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'dev',
    earlier: ['accounts requests timing out', 'db looks fine'],
    message: 'what connection pool is it waiting on then',
    expect: has('HikariPool-1'),
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'dev',
    earlier: ['was this caused by accounts 1.4.1?'],
    message: 'when did it roll out and when did the errors start',
    expect: { all: [at(47), at(38)] },
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'dev',
    earlier: ['accounts errors', 'pool is at max'],
    message: 'p99 now?',
    expect: num(p99('accounts'), 0.2),
  },

  // cart-liveness-slow-redis: sessions-redis slows from 38 min before the end; cart's liveness
  // probes fail from 37 min and its 3 pods restart: 123 restarts, 99 in the last 30 min; median of
  // cart's sessions-redis calls 2.07 s (5 ms an hour ago); CPUThrottlingHigh is recommendations'.
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'dev',
    earlier: ['cart restarting, why'],
    message: 'how many restarts in the last 30 min',
    expect: num(`${restarts('cart')} - ${restarts('cart', '30m')}`),
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'dev',
    earlier: ['cart liveness failing', "are cart's redis calls slow?"],
    message: 'median latency of those calls?',
    expect: num(quantile(0.5, 'http_client_request_duration_seconds', { job: 'cart', peer: 'sessions-redis' }), 0.2),
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'dev',
    earlier: ['cart pods restarting', 'CPUThrottlingHigh is also firing'],
    message: 'which container is it on, is that cart?',
    expect: has('recommendations'),
  },

  // inventory-liveness-unexplained: inventory's liveness probes fail from 37 min before the end,
  // restarts from 36.5 min (81 in all); catalog-sync uses 1.09 cores on ip-10-0-3-41 from 40 min,
  // which is 50% busy.
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'dev',
    earlier: ['inventory pods restarting', 'liveness probe failures?'],
    message: 'anything in the app logs about a deadlock? got a thread dump?',
    expect: { cannot: true },
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'dev',
    earlier: ['inventory restarts', 'catalog-sync is bursting on ip-10-0-3-41, one of the inventory nodes'],
    message: 'how busy is that node overall, cpu %',
    expect: num(nodeBusy('ip-10-0-3-41')),
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'dev',
    earlier: ['inventory pods restarting?'],
    message: 'from when',
    expect: at(37),
  },

  // search-noisy-neighbour: video-transcode takes ip-10-0-2-34 from 37 min before the end (3.6
  // cores, node 98%); the search pod there (seeded name, never rolled) has p99 2.41 s (search 2.29 s,
  // 0.35 s an hour ago); image-resizer saturates ip-10-0-1-23, where no search pod runs.
  {
    scenario: 'search-noisy-neighbour',
    split: 'dev',
    earlier: ["search's p99 high"],
    message: 'which search pod is the slow one, and what node is it on',
    expect: has(pod('search', '878b86fb7', 'm9xrk'), 'ip-10-0-2-34'),
  },
  {
    scenario: 'search-noisy-neighbour',
    split: 'dev',
    earlier: ['search slow on one pod', "what's eating cpu on ip-10-0-2-34?"],
    message: 'how much cpu is it using, in cores',
    expect: num(cores('video-transcode')),
  },
  {
    scenario: 'search-noisy-neighbour',
    split: 'dev',
    earlier: ['video-transcode is the hog on the search node', 'image-resizer is hot too'],
    message: 'what node is that one on? any search pod there?',
    expect: has('ip-10-0-1-23'),
  },

  // billing-timeout-config-change: from 36 min before the end billing answers 20.1% 504; its ledger
  // calls fail with timeout; no version, restart or latency change.
  {
    scenario: 'billing-timeout-config-change',
    split: 'dev',
    message: 'billing is erroring, which status code is it returning',
    expect: has('504'),
  },
  {
    scenario: 'billing-timeout-config-change',
    split: 'dev',
    earlier: ['billing error ratio?'],
    message: 'and its calls to ledger, failing how?',
    expect: has('timeout'),
  },
  {
    scenario: 'billing-timeout-config-change',
    split: 'dev',
    earlier: ['billing 504s'],
    message: 'starting when',
    expect: at(36),
  },
  {
    scenario: 'billing-timeout-config-change',
    split: 'dev',
    earlier: ['billing failing a fifth of requests', 'checkout looks ok'],
    message: 'what about invoicer-api, is it ok?',
    expect: { asks: true },
  },

  // archive-down-reported-deploy-red-herring: archive stops answering 36 min before the end (up 0);
  // statements 5xx 60.1% (503), its archive calls fail connection_refused.
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'dev',
    earlier: ['statements errors?'],
    message: "what's it calling that fails, and with what outcome",
    expect: { all: [has('archive'), has('connection_refused')] },
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'dev',
    earlier: ['statements failing', 'is archive up?'],
    message: 'when did it stop answering',
    expect: at(36),
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'dev',
    earlier: ['a statements-static deploy went out ~48 min ago'],
    message: 'was that bundle tested in staging first?',
    expect: { cannot: true },
  },
];
