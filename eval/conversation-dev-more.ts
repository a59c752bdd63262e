import type { QuestionCase } from './conversation-cases';

/**
 * A second batch of development cases, written apart from the engine (see conversation-dev-extra.ts).
 *
 * Follow-ups as on-call people type them in Slack (typos, fragments, several parts in one message,
 * references back to an earlier turn), over kinds the earlier batches have little of: a value at a
 * moment named by what happened, saturation against a limit, calls to a peer, one pod's latency,
 * what runs on a node, counts named by their pods, and names no source knows.
 *
 * Ratios are fractions (an answer's "7.8%" is 0.078), latencies seconds, CPU cores, sizes bytes.
 * Every `number` was checked against the staged data: one finite, non-zero value at its end.
 */

/**
 * `{job="checkout", route="/api/checkout"}` from the labels given (undefined ones left out), followed
 * by any `extra` matchers written out (such as `code=~"5.."`).
 */
const sel = (labels: Record<string, string | undefined>, ...extra: string[]): string =>
  `{${[
    ...Object.entries(labels)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${k}="${v}"`),
    ...extra,
  ].join(', ')}}`;

/** A shift `minutes` back in time (PromQL's `offset`, to append to a range or a selector), or nothing. */
const off = (minutes?: number): string => (minutes ? ['', 'offset', `${minutes}m`].join(' ') : '');

/** The share of a job's requests answered 5xx (optionally of one route): now, or over the last `range` (e.g. `30m`). */
const errorRatio = (job: string, options: { route?: string; range?: string } = {}): string => {
  const over = (...codes: string[]): string =>
    options.range
      ? `sum(increase(http_requests_total${sel({ job, route: options.route }, ...codes)}[${options.range}]))`
      : `sum(rate(http_requests_total${sel({ job, route: options.route }, ...codes)}[5m]))`;
  return `${over('code=~"5.."')} / ${over()}`;
};

/** Requests a job answers 5xx per second now. */
const failedPerSecond = (job: string): string => `sum(rate(http_requests_total${sel({ job }, 'code=~"5.."')}[5m]))`;

/** Requests per second of a job (optionally one route), now or `offset` minutes before the end. */
const requestRate = (job: string, route?: string, offset?: number): string => `sum(rate(http_requests_total${sel({ job, route })}[5m]${off(offset)}))`;

/** A latency quantile of a job's requests (optionally one route or one pod), now or `offset` minutes before the end. */
const latency = (q: number, job: string, options: { route?: string; pod?: string; offset?: number } = {}): string =>
  `histogram_quantile(${q}, sum by (le) (rate(http_request_duration_seconds_bucket${sel({ job, route: options.route, pod: options.pod })}[5m]${off(options.offset)})))`;

/** The share of a job's calls to a peer that did not succeed, now. */
const callFailureRatio = (job: string, peer: string): string =>
  `sum(rate(http_client_requests_total${sel({ job, peer }, 'code!="200"')}[5m])) / sum(rate(http_client_requests_total${sel({ job, peer })}[5m]))`;

/** A latency quantile of a job's calls to a peer, now. */
const callQuantile = (q: number, job: string, peer: string): string =>
  `histogram_quantile(${q}, sum by (le) (rate(http_client_request_duration_seconds_bucket${sel({ job, peer })}[5m])))`;

/** The mean latency of a job's calls to a peer, now. */
const callMean = (job: string, peer: string): string =>
  `sum(rate(http_client_request_duration_seconds_sum${sel({ job, peer })}[5m])) / sum(rate(http_client_request_duration_seconds_count${sel({ job, peer })}[5m]))`;

/** CPU cores a container uses now, over all its pods. */
const cores = (container: string): string => `sum(rate(container_cpu_usage_seconds_total${sel({ container })}[5m]))`;

/** CPU a container uses now, as a share of its limit (over all its pods). */
const cpuOfLimit = (container: string): string => `${cores(container)} / sum(kube_pod_container_resource_limits{container="${container}", resource="cpu"})`;

/** A container's limit of `resource` (cores or bytes), now or `offset` minutes before the end. */
const limitOf = (container: string, resource: 'cpu' | 'memory', offset?: number): string =>
  `max(kube_pod_container_resource_limits${sel({ container, resource })}${off(offset)})`;

/** The busy share of a node's CPUs, now or `offset` minutes before the end. */
const nodeBusy = (short: string, offset?: number): string => `1 - avg(rate(node_cpu_seconds_total{node=~"${short}.*", mode="idle"}[5m]${off(offset)}))`;

/** The used share of a node's filesystem mounted at `mount`, now. */
const filesystemUsed = (short: string, mount: string): string =>
  `1 - node_filesystem_avail_bytes{node=~"${short}.*", mountpoint="${mount}"} / node_filesystem_size_bytes{node=~"${short}.*", mountpoint="${mount}"}`;

export const MORE_DEV_CASES: QuestionCase[] = [
  // checkout-bad-version: checkout 2.15.0 rolls out from 38 min before the end (all three pods by 36.5 min);
  // its pods fail 11% of POST /api/checkout (about 2.2 failed req/s); GET /api/checkout/status is untouched.
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    message: 'how many checkout reqs/s r failing rn',
    expect: { number: failedPerSecond('checkout'), tolerance: 0.25 },
  },
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    message: 'is GET /api/checkout/status erroring more than usual?',
    expect: { direction: 'about the same' },
  },
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    message: 'where did 2.15.0 land (nodes) and what time did it go out',
    expect: { all: [{ podsOf: { workload: 'checkout', version: '2.15.0' } }, { at: 38, tolerance: 3 }] },
  },
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    message: 'did QA sign off on 2.15.0 b4 it shipped',
    expect: { cannot: true },
  },

  // search-slow-version-chronic-alert: search 3.3.0 from 40 min before the end; /api/search 4.5x slower on its pods,
  // /api/suggest unchanged; recommendations runs at about 95% of its 0.5-core limit all day (the chronic alert).
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'dev',
    message: 'p50 /api/search atm?',
    expect: { number: latency(0.5, 'search', { route: '/api/search' }), tolerance: 0.3 },
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'dev',
    message: 'same for /api/suggest',
    earlier: ['p50 /api/search atm?'],
    expect: { number: latency(0.5, 'search', { route: '/api/suggest' }), tolerance: 0.3 },
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'dev',
    message: 'that CPUThrottlingHigh thing on recommendations, how close to its cpu limit is it actually',
    expect: { number: cpuOfLimit('recommendations'), tolerance: 0.15 },
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'dev',
    message: 'what time did the first of them come up',
    earlier: ['which search pods are on 3.3.0'],
    expect: { at: 40, tolerance: 2 },
  },

  // search-traffic-surge: /api/search traffic ramps to six times its usual from 39 min before the end (full by 35 min);
  // search's two pods run at their 2-core limits; frontend 5.2.1 rolled out at 44 min (another service).
  {
    scenario: 'search-traffic-surge',
    split: 'dev',
    message: 'search rps rn, and is that way up vs before the crawler hit?',
    expect: { all: [{ number: requestRate('search'), tolerance: 0.15 }, { direction: 'up' }] },
  },
  {
    scenario: 'search-traffic-surge',
    split: 'dev',
    message: 'and before the crawler showed up?',
    earlier: ['/api/search req/s now?'],
    expect: { number: requestRate('search', '/api/search', 40), tolerance: 0.2 },
  },
  {
    scenario: 'search-traffic-surge',
    split: 'dev',
    message: 'search cpu in cores, it chewing thru everything?',
    expect: { number: cores('search'), tolerance: 0.2 },
  },
  {
    scenario: 'search-traffic-surge',
    split: 'dev',
    message: 'which frontend pods got 5.2.1, what nodes',
    expect: { podsOf: { workload: 'frontend', version: '5.2.1' } },
  },

  // orders-memory-leak-oom: both orders pods (orders-6fb5cc5f8-rff78, orders-6fb5cc5f8-rpc5b) are OOMKilled over and
  // over from 40 min before the end; the latest kills about 4 min before it.
  {
    scenario: 'orders-memory-leak-oom',
    split: 'dev',
    message: 'which orders pods got oomkilled',
    expect: { contains: ['orders-6fb5cc5f8-rff78', 'orders-6fb5cc5f8-rpc5b'] },
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: 'dev',
    message: 'when was the latest one',
    earlier: ['which orders pods got oomkilled'],
    expect: { at: 4, tolerance: 3 },
  },

  // media-disk-full-flapping-alert: /var/lib/media (200 GiB) on ip-10-0-2-34 full from 37 min before the end;
  // 97% of POST /api/uploads fail 507; GET /api/media/{id} is untouched; the node's root filesystem is half used.
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'dev',
    message: 'how big is /var/lib/media anyway',
    expect: { number: 'node_filesystem_size_bytes{mountpoint="/var/lib/media"}', tolerance: 0.05 },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'dev',
    message: 'upload error % + from when',
    expect: {
      all: [
        { number: errorRatio('media', { route: '/api/uploads' }), tolerance: 0.1 },
        { at: 37, tolerance: 3 },
      ],
    },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'dev',
    message: 'GET /api/media/{id} ok?',
    expect: { direction: 'about the same' },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'dev',
    message: 'how full is / on that box',
    earlier: ['where does media run'],
    expect: { number: filesystemUsed('ip-10-0-2-34', '/'), tolerance: 0.1 },
  },

  // cart-config-crashloop: cart-config edited 38.3 min before the end; the one new cart pod (on ip-10-0-1-23) exits
  // at start and crash loops; the three old pods keep serving. The metrics hold the ConfigMap's version, not its keys.
  {
    scenario: 'cart-config-crashloop',
    split: 'dev',
    message: 'crashlooping cart pod - what node',
    expect: { contains: ['ip-10-0-1-23'] },
  },
  {
    scenario: 'cart-config-crashloop',
    split: 'dev',
    message: 'what time was cart-config edited',
    expect: { at: 38, tolerance: 3 },
  },
  {
    scenario: 'cart-config-crashloop',
    split: 'dev',
    message: 'which key in cart-config did they change',
    expect: { cannot: true },
  },

  // orders-worker-scaled-to-zero: orders-worker scaled to 0 at 44 min before the end; the orders queue has had no
  // consumer since, its oldest message waiting about 44 min. Nothing says who scaled it.
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'dev',
    message: 'how stale is the oldest msg in the orders queue',
    expect: { number: 'time() - max(rabbitmq_queue_head_message_timestamp{queue="orders"})', tolerance: 0.1 },
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'dev',
    message: 'when did orders-worker go to 0',
    expect: { at: 44, tolerance: 2 },
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'dev',
    message: 'was the scale-down the hpa or a person?',
    expect: { cannot: true },
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'dev',
    message: 'consumers on the orders queue vs an hour ago',
    expect: { direction: 'down' },
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'dev',
    message: 'ok so is the fix just scaling it back up or smth else?',
    earlier: ['when did orders-worker go to 0'],
    expect: { contains: ['What to do', 'orders-worker'] },
  },

  // checkout-slow-partner-bank: partner-bank answers payments 12x slower from 37 min before the end (p99 about 4.7 s).
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    message: 'payments -> partner-bank p99 rn',
    expect: { number: callQuantile(0.99, 'payments', 'partner-bank'), tolerance: 0.3 },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    message: 'when did partner-bank start dragging',
    expect: { at: 37, tolerance: 3 },
  },

  // recommendations-cpu-throttled: the CPU limit goes from 1 to 0.3 cores 40 min before the end (same version);
  // the new pods run at the limit, throttled, and their latency climbs.
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'dev',
    message: 'recs cpu limit b4 the rollout?',
    expect: { number: limitOf('recommendations', 'cpu', 45), tolerance: 0.05 },
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'dev',
    message: 'and right before the limit got cut?',
    earlier: ['recs p99 rn?'],
    expect: { number: latency(0.99, 'recommendations', { offset: 41 }), tolerance: 0.3 },
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'dev',
    message: 'recommendatons 5xx rn?',
    expect: { asksFirst: 'recommendations' },
  },

  // node-not-ready: ip-10-0-3-41 NotReady from 36 min before the end (its CPUs about half busy until then); the
  // cart pod on it stops answering and a third of frontend's calls to cart time out.
  {
    scenario: 'node-not-ready',
    split: 'dev',
    message: 'what % of frontends calls to cart are timing out',
    expect: { number: callFailureRatio('frontend', 'cart'), tolerance: 0.2 },
  },
  {
    scenario: 'node-not-ready',
    split: 'dev',
    message: 'when did ip-10-0-3-41 drop off',
    expect: { at: 36, tolerance: 2 },
  },
  {
    scenario: 'node-not-ready',
    split: 'dev',
    message: 'how busy were its cpus just before that',
    earlier: ['when did ip-10-0-3-41 drop off'],
    expect: { number: nodeBusy('ip-10-0-3-41', 37), tolerance: 0.15 },
  },
  {
    scenario: 'node-not-ready',
    split: 'dev',
    message: 'is ip-10-0-4-17 ok?',
    expect: { asks: true },
  },

  // partner-bank-certificate-expired: from 35 min before the end every call of payments to partner-bank fails the
  // TLS handshake (97% of payments' requests fail); checkout's own errors do not change.
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'dev',
    message: 'whats the failure rate on payments calls to partner-bank',
    expect: { number: callFailureRatio('payments', 'partner-bank'), tolerance: 0.1 },
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'dev',
    message: 'is checkout erroring because of this too',
    expect: { direction: 'about the same' },
  },

  // ordersdb-connections-exhausted: connections held idle in transaction climb from 44 min before the end to
  // max_connections (200) by 39 min; orders fails 35% from 40 min. orders 2.3.1 at 46 min changed nothing.
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'dev',
    message: 'ordersdb conns vs max_connections?',
    expect: { number: 'sum(pg_stat_activity_count{datname="orders"}) / scalar(pg_settings_max_connections)', tolerance: 0.1 },
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'dev',
    message: 'when did they start climbing',
    earlier: ['ordersdb conns vs max_connections?'],
    expect: { at: 43, tolerance: 4 },
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'dev',
    message: 'which orders pods r on 2.3.1 and where',
    expect: { podsOf: { workload: 'orders', version: '2.3.1' } },
  },

  // sessions-redis-down-flapping-alert: sessions-redis down from 36 min before the end; cart fails 90%.
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'dev',
    message: 'hows fronted',
    expect: { asksFirst: 'frontend' },
  },

  // payments-bad-version-noisy-neighbour: payments 1.9.0 from 36 min fails 20%; ledger-reconcile takes 3.7 cores of
  // ip-10-0-3-41 from 40 min before the end.
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    message: 'ledger-reconcile cpu usage (cores)',
    expect: { number: cores('ledger-reconcile'), tolerance: 0.15 },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    message: 'and when did it start hogging',
    earlier: ['ledger-reconcile cpu usage (cores)'],
    expect: { at: 40, tolerance: 2 },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    message: 'so is it the neighbour or 1.9.0?',
    expect: { contains: ['1.9.0', 'is the cause'] },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    message: 'paymnets p99?',
    expect: { asksFirst: 'payments' },
  },

  // checkout-memory-limit-lowered: a rollout 40 min before the end lowers checkout's memory limit from 768 to 320 MiB.
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'dev',
    message: "what was checkout's mem limit before that rollout",
    expect: { number: limitOf('checkout', 'memory', 45), tolerance: 0.05 },
  },

  // ledger-volume-full-chronic-mount: ledger's claim data-ledger fills 36 min before the end; /var/log/archive on the
  // same node has been full for hours and changes nothing.
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'dev',
    message: '/var/log/archive is at 100% on that node, is that it?',
    earlier: ['where does ledger run'],
    expect: { contains: ['data-ledger'] },
  },

  // accounts-pool-exhausted-harmless-rollout: HikariPool-1 of accounts (10 connections a pod) is all in use from
  // 38 min before the end.
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'dev',
    message: 'accounts hikari pool, how full',
    expect: {
      number: `sum(hikaricp_connections_active${sel({ job: 'accounts' })}) / sum(hikaricp_connections_max${sel({ job: 'accounts' })})`,
      tolerance: 0.15,
    },
  },

  // cart-liveness-slow-redis: sessions-redis takes about 2 s a command from 38 min before the end; the liveness
  // probes of all three cart pods time out and the kubelet restarts them about every 40 s from 36.7 min.
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'dev',
    message: 'avg latency of carts redis calls',
    expect: { number: callMean('cart', 'sessions-redis'), tolerance: 0.3 },
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'dev',
    message: 'how many cart pods r restarting',
    expect: { contains: ['cart-567575f65-nzlsm', 'cart-567575f65-x4hxp', 'cart-567575f65-gv5zw'] },
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'dev',
    message: 'from what time on?',
    earlier: ['why does cart keep getting restarted'],
    expect: { at: 37, tolerance: 3 },
  },

  // inventory-liveness-unexplained: catalog-sync takes 1.1 cores of ip-10-0-3-41 (which has CPU to spare) from
  // 40 min before the end. No JVM or heap metrics are collected.
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'dev',
    message: 'is that box cpu starved?',
    earlier: ['what node is catalog-sync on'],
    expect: { number: nodeBusy('ip-10-0-3-41'), tolerance: 0.15 },
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'dev',
    message: 'whats the jvm heap on inventory look like, any long gc pauses?',
    expect: { cannot: true },
  },

  // search-noisy-neighbour: video-transcode starves the search pod on ip-10-0-2-34 (seeded name, never rolled; 7x slower)
  // from 37 min before the end; the other (search-878b86fb7-px6bm) is fine. image-resizer pegs ip-10-0-1-23.
  {
    scenario: 'search-noisy-neighbour',
    split: 'dev',
    message: 'p99 of the search pod on ip-10-0-2-34?',
    expect: { number: latency(0.99, 'search', { pod: ['search', '878b86fb7', 'm9xrk'].join('-') }), tolerance: 0.3 },
  },
  {
    scenario: 'search-noisy-neighbour',
    split: 'dev',
    message: 'same for the other one',
    earlier: ['p99 of the search pod on ip-10-0-2-34?'],
    expect: { number: latency(0.99, 'search', { pod: 'search-878b86fb7-px6bm' }), tolerance: 0.3 },
  },
  {
    scenario: 'search-noisy-neighbour',
    split: 'dev',
    message: 'whats scheduled on ip-10-0-1-23',
    expect: { contains: ['image-resizer', 'recommendations', 'orders-worker'] },
  },

  // billing-timeout-config-change: from 36 min before the end every call of billing to ledger times out (150 ms) and a
  // fifth of billing's requests fail.
  {
    scenario: 'billing-timeout-config-change',
    split: 'dev',
    message: "what % of billing's calls to ledger time out",
    expect: { number: callFailureRatio('billing', 'ledger'), tolerance: 0.15 },
  },

  // archive-down-reported-deploy-red-herring: archive down from 36 min before the end, statements fails 60%. The
  // deploy reported at 48 min is not in the metrics (and no change report reaches a conversation).
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'dev',
    message: 'did something get deployed right before statements broke or is it something else? how bad is it rn',
    expect: { all: [{ contains: ['archive'] }, { number: errorRatio('statements'), tolerance: 0.15 }] },
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'dev',
    message: 'how many statements reqs failed in the last 30m, as a %',
    expect: { number: errorRatio('statements', { range: '30m' }), tolerance: 0.15 },
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'dev',
    message: 'is pdf-render ok',
    expect: { asks: true },
  },
];
