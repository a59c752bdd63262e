import type { QuestionCase } from './conversation-cases';

/**
 * A batch of development cases written apart from the engine, in the style of terse chat messages
 * typed on a phone during a page: lowercase, abbreviations (rn, atm, pls, wat, p95, rps, errs, 5xx),
 * typos in common words and sometimes in service names, fragments with no verb, two asks joined by
 * "and" / "+" / "&", and many follow-ups that refer back ("it", "that pod", "same for X", "and now?",
 * "b4 that?").
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

/** The share of a job's requests (optionally of one route) answered 5xx over the last 5 minutes, now or `offset` minutes before the end. */
const errRatio = (job: string, route?: string, offset?: number): string => {
  const of = (...codes: string[]): string => `sum(rate(http_requests_total${sel({ job, route }, ...codes)}[5m]${off(offset)}))`;
  return `${of('code=~"5.."')} / ${of()}`;
};

/** Requests a job answers 5xx per second, now. */
const errsPerSecond = (job: string): string => `sum(rate(http_requests_total${sel({ job }, 'code=~"5.."')}[5m]))`;

/** Requests per second of a job, now or `offset` minutes before the end. */
const rps = (job: string, offset?: number): string => `sum(rate(http_requests_total${sel({ job })}[5m]${off(offset)}))`;

/** A latency quantile of a job's requests (optionally one pod), now or `offset` minutes before the end. */
const quantile = (q: number, job: string, options: { pod?: string; offset?: number } = {}): string =>
  `histogram_quantile(${q}, sum by (le) (rate(http_request_duration_seconds_bucket${sel({ job, pod: options.pod })}[5m]${off(options.offset)})))`;

/** The share of a job's calls to a peer that did not succeed, now. */
const callFailing = (job: string, peer: string): string =>
  `sum(rate(http_client_requests_total${sel({ job, peer }, 'code!="200"')}[5m])) / sum(rate(http_client_requests_total${sel({ job, peer })}[5m]))`;

/** The p99 latency of a job's calls to a peer, now. */
const callP99 = (job: string, peer: string): string =>
  `histogram_quantile(0.99, sum by (le) (rate(http_client_request_duration_seconds_bucket${sel({ job, peer })}[5m])))`;

/** The mean latency of a job's calls to a peer, now. */
const callAvg = (job: string, peer: string): string =>
  `sum(rate(http_client_request_duration_seconds_sum${sel({ job, peer })}[5m])) / sum(rate(http_client_request_duration_seconds_count${sel({ job, peer })}[5m]))`;

/** CPU cores a container uses now, over all its pods. */
const coresOf = (container: string): string => `sum(rate(container_cpu_usage_seconds_total${sel({ container })}[5m]))`;

/** A container's limit of `resource` (cores or bytes), now or `offset` minutes before the end. */
const limit = (container: string, resource: 'cpu' | 'memory', offset?: number): string =>
  `max(kube_pod_container_resource_limits${sel({ container, resource })}${off(offset)})`;

/** The busy share of a node's CPUs, now. */
const busy = (short: string): string => `1 - avg(rate(node_cpu_seconds_total{node=~"${short}.*", mode="idle"}[5m]))`;

/** Container restarts of a container (optionally one pod) over the last `range`, or all of them so far. */
const restarts = (container: string, options: { range?: string; pod?: string } = {}): string =>
  options.range
    ? `sum(increase(kube_pod_container_status_restarts_total${sel({ container, pod: options.pod })}[${options.range}]))`
    : `sum(kube_pod_container_status_restarts_total${sel({ container, pod: options.pod })})`;

/** The search pod on ip-10-0-2-34 in search-noisy-neighbour (seeded name: workload, pod template hash, suffix). */
const SLOW_SEARCH_POD = ['search', '878b86fb7', 'm9xrk'].join('-');

export const TERSE_DEV_CASES: QuestionCase[] = [
  // checkout-bad-version: checkout 2.15.0 rolls out from 38 min before the end; its pods fail 11% of
  // POST /api/checkout (70% of its traffic); latency and traffic as usual (p95 about 0.46 s, about 28 req/s).
  { scenario: 'checkout-bad-version', split: 'dev', message: 'chekout 5xx rn?', expect: { asksFirst: 'checkout' } },
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    message: 'wich pods got the new build & on wat nodes',
    earlier: ['errs since deploy?'],
    expect: { podsOf: { workload: 'checkout', version: '2.15.0' } },
  },
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    message: 'p95 checkout & how many rps',
    expect: {
      all: [
        { number: quantile(0.95, 'checkout'), tolerance: 0.25 },
        { number: rps('checkout'), tolerance: 0.2 },
      ],
    },
  },

  // search-slow-version-chronic-alert: search 3.3.0 rolls out from 40 min before the end; its pods
  // answer /api/search 4.5 times slower (p99 about 0.35 s before, 1.9 s now); /api/suggest is untouched.
  { scenario: 'search-slow-version-chronic-alert', split: 'dev', message: 'p99 search?', expect: { number: quantile(0.99, 'search'), tolerance: 0.25 } },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'dev',
    message: 'and b4 3.3.0?',
    earlier: ['p99 search?'],
    expect: { all: [{ number: quantile(0.99, 'search', { offset: 45 }), tolerance: 0.3 }, { direction: 'up' }] },
  },
  { scenario: 'search-slow-version-chronic-alert', split: 'dev', message: 'is /api/suggest any slwoer since 3.3.0', expect: { direction: 'about the same' } },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'dev',
    message: 'how many search pods on 3.3.0 rn and where',
    expect: { podsOf: { workload: 'search', version: '3.3.0' } },
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'dev',
    message: 'rollback or wat, whats the plan',
    earlier: ['why is search so slow'],
    expect: { contains: ['search', '3.3.0'] },
  },

  // inventory-down-harmless-rollout: inventory's two pods (inventory-cd568ccd7-m6nmg, -psgzx) stop
  // answering 36 min before the end; checkout fails 62% of its requests with 503 from then; payments
  // serves about 19 req/s as usual; checkout 2.14.4 rolled out 44 min before and changed nothing.
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'dev',
    message: 'checkout err % rn + wen did it start',
    expect: {
      all: [
        { number: errRatio('checkout'), tolerance: 0.2 },
        { at: 36, tolerance: 4 },
      ],
    },
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'dev',
    message: 'which inventory pods r down',
    expect: { contains: ['inventory-cd568ccd7-m6nmg', 'inventory-cd568ccd7-psgzx'] },
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'dev',
    message: 'same question for payments',
    earlier: ['rps checkout rn'],
    expect: { number: rps('payments'), tolerance: 0.2 },
  },

  // orders-memory-leak-oom: orders' working set climbs from 75 min before the end to its 1 GiB limit;
  // the first OOM kills come 41 min before the end, then one every few minutes per pod: 12 in all.
  { scenario: 'orders-memory-leak-oom', split: 'dev', message: 'oom kills so far on orders', expect: { number: restarts('orders'), tolerance: 0.2 } },
  { scenario: 'orders-memory-leak-oom', split: 'dev', message: 'wen did orders mem start climbing', expect: { at: 75, tolerance: 5 } },
  {
    scenario: 'orders-memory-leak-oom',
    split: 'dev',
    message: 'and the first oomkill?',
    earlier: ['wen did orders mem start climbing'],
    expect: { at: 41, tolerance: 4 },
  },

  // media-disk-full-flapping-alert: /var/lib/media (200 GiB) on ip-10-0-2-34 is full from 37 min before
  // the end; media answers 97% of POST /api/uploads with 507; a frontend target flaps in the same group.
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'dev',
    message: 'uploads 5xx ratio rn',
    expect: { number: errRatio('media', '/api/uploads'), tolerance: 0.15 },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'dev',
    message: 'wat node is that disk on',
    earlier: ['why r media uploads failing'],
    expect: { contains: ['ip-10-0-2-34', '/var/lib/media'] },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'dev',
    message: 'when did it fill up',
    earlier: ['/var/lib/media % full?'],
    expect: { at: 37, tolerance: 4 },
  },

  // search-traffic-surge: /api/search traffic rises sixfold from 39 min before the end (over 4 min;
  // search about 39 req/s before, 218 now); search's two pods use their 2-core CPU limits (about 4 cores).
  {
    scenario: 'search-traffic-surge',
    split: 'dev',
    message: 'search rps now vs b4 the spike',
    expect: { all: [{ number: rps('search'), tolerance: 0.2 }, { direction: 'up' }] },
  },
  { scenario: 'search-traffic-surge', split: 'dev', message: 'search burning how much cpu', expect: { number: coresOf('search'), tolerance: 0.2 } },
  {
    scenario: 'search-traffic-surge',
    split: 'dev',
    message: 'and wen did that kick off',
    earlier: ['search rps now vs b4 the spike'],
    expect: { at: 39, tolerance: 4 },
  },
  { scenario: 'search-traffic-surge', split: 'dev', message: 'kafka consumer lag?', expect: { asks: true } },

  // cart-config-crashloop: the cart-config ConfigMap is edited 38 min before the end; cart rolls (same
  // version, stalled) and its one new pod, the only cart pod on ip-10-0-1-23 (its name changes with the
  // data's end), exits at start and crash loops: 12 restarts; the three old pods keep serving.
  {
    scenario: 'cart-config-crashloop',
    split: 'dev',
    message: 'wat pod is crashlooping & on wich node',
    expect: { contains: ['ip-10-0-1-23'] },
  },
  {
    scenario: 'cart-config-crashloop',
    split: 'dev',
    message: 'restarts on it so far',
    earlier: ['wat pod is crashlooping & on wich node'],
    expect: { number: 'max(kube_pod_container_status_restarts_total{container="cart"})', tolerance: 0.2 },
  },
  { scenario: 'cart-config-crashloop', split: 'dev', message: 'wen was cart-config touched', expect: { at: 38, tolerance: 3 } },

  // orders-worker-scaled-to-zero: orders-worker is scaled to zero 44 min before the end; the orders
  // queue has no consumer from then and its messages pile up; no change report names who did it.
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'dev',
    message: 'since wen',
    earlier: ['orders q backing up?'],
    expect: { at: 44, tolerance: 4 },
  },
  { scenario: 'orders-worker-scaled-to-zero', split: 'dev', message: 'who scaled orders-worker down', expect: { cannot: true } },
  { scenario: 'orders-worker-scaled-to-zero', split: 'dev', message: 'orders-wroker replicas?', expect: { asksFirst: 'orders-worker' } },

  // checkout-slow-partner-bank: payments' calls to partner-bank slow twelvefold from 37 min before the
  // end (p99 about 0.43 s before, 4.7 s now); checkout's POST /api/checkout follows (p99 0.79 s an hour
  // ago, 4.8 s now); GET /api/checkout/status is untouched (p99 about 0.15 s).
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    message: 'p99 payments calls to partner-bank rn',
    expect: { number: callP99('payments', 'partner-bank'), tolerance: 0.3 },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    message: 'status route slow too?',
    earlier: ['p99 checkout rn'],
    expect: { direction: 'about the same' },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    message: 'and now?',
    earlier: ['checkout p99 an hour ago'],
    expect: { number: quantile(0.99, 'checkout'), tolerance: 0.3 },
  },

  // recommendations-cpu-throttled: a rollout 40 min before the end lowers recommendations' CPU limit
  // from 1 to 0.3 cores (same version); its containers are throttled in about 74% of CFS periods now.
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'dev',
    message: 'throttled % recommendations rn',
    expect: {
      number: `sum(increase(container_cpu_cfs_throttled_periods_total${sel({ container: 'recommendations' })}[5m])) / sum(increase(container_cpu_cfs_periods_total${sel({ container: 'recommendations' })}[5m]))`,
      tolerance: 0.2,
    },
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'dev',
    message: 'b4 the rollout?',
    earlier: ['cpu limit recommendations?'],
    expect: { number: limit('recommendations', 'cpu', 45), tolerance: 0.15 },
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'dev',
    message: 'same time yesterday?',
    earlier: ['p99 recommendations rn'],
    expect: { cannot: true },
  },

  // node-not-ready: ip-10-0-3-41 turns NotReady and its node-exporter stops answering 36 min before the
  // end; the cart pod on it (the only cart pod there) stops answering; frontend fails about 15% of its
  // requests with 502 from then.
  {
    scenario: 'node-not-ready',
    split: 'dev',
    message: 'wich node died & wat cart pod was on it',
    expect: { contains: ['ip-10-0-3-41', 'cart'] },
  },
  { scenario: 'node-not-ready', split: 'dev', message: 'frontend failing wat % of reqs atm', expect: { number: errRatio('frontend'), tolerance: 0.25 } },
  {
    scenario: 'node-not-ready',
    split: 'dev',
    message: 'wen did it go notready',
    earlier: ['wich node died & wat cart pod was on it'],
    expect: { at: 36, tolerance: 4 },
  },

  // partner-bank-certificate-expired: partner-bank's certificate expires 35 min before the end; payments
  // fails 97% of its requests with 502 from then; checkout (which calls payments) shows no more errors.
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'dev',
    message: 'payments 5xx + since wen',
    expect: {
      all: [
        { number: errRatio('payments'), tolerance: 0.15 },
        { at: 35, tolerance: 4 },
      ],
    },
  },
  { scenario: 'partner-bank-certificate-expired', split: 'dev', message: 'vendor contact for partner-bank pls', expect: { cannot: true } },
  { scenario: 'partner-bank-certificate-expired', split: 'dev', message: 'checkout hurt too?', expect: { direction: 'about the same' } },

  // ordersdb-connections-exhausted: transactions held open on ordersdb from 44 min before the end
  // bring its connections to about 199 of max 200; 24.5% of orders' calls to ordersdb fail from 40 min before.
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'dev',
    message: 'ordersdb conns % of max rn',
    expect: { number: 'sum(pg_stat_activity_count{datname="orders"}) / max by () (pg_settings_max_connections)', tolerance: 0.1 },
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'dev',
    message: 'and wat % of orders calls to it fail',
    earlier: ['ordersdb conns % of max rn'],
    expect: { number: callFailing('orders', 'ordersdb'), tolerance: 0.2 },
  },
  { scenario: 'ordersdb-connections-exhausted', split: 'dev', message: 'gateway p99?', expect: { asks: true } },

  // sessions-redis-down-flapping-alert: sessions-redis goes down 36 min before the end (redis_up 0);
  // every call of cart to it is refused and cart fails 90% of its requests (about 56 req/s) with 500.
  { scenario: 'sessions-redis-down-flapping-alert', split: 'dev', message: 'cart errs/s rn', expect: { number: errsPerSecond('cart'), tolerance: 0.2 } },
  { scenario: 'sessions-redis-down-flapping-alert', split: 'dev', message: 'sesions-redis mem', expect: { asksFirst: 'sessions-redis' } },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'dev',
    message: 'wat % of its calls to redis fail',
    earlier: ['cart errs/s rn'],
    expect: { number: callFailing('cart', 'sessions-redis'), tolerance: 0.15 },
  },

  // payments-bad-version-noisy-neighbour: payments 1.9.0 rolls out from 36 min before the end and its
  // pods fail 20% of requests (0.08% before); ledger-reconcile takes 3.7 cores of ip-10-0-3-41 (98% busy)
  // from 40 min before.
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    message: 'payments 5xx now vs b4 1.9.0',
    expect: { all: [{ number: errRatio('payments'), tolerance: 0.2 }, { direction: 'up' }] },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    message: 'cpu on the node ledger-reconcile is on',
    expect: { number: busy('ip-10-0-3-41'), tolerance: 0.15 },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    message: 'ok and rn?',
    earlier: ['payments err ratio 45 min ago'],
    expect: { number: errRatio('payments'), tolerance: 0.2 },
  },

  // checkout-memory-limit-lowered: a rollout 40 min before the end lowers checkout's memory limit from
  // 768 to 320 MiB (same version 2.14.3); the new pods are OOMKilled within two minutes and crash loop
  // (15 restarts in the last 30 min).
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'dev',
    message: 'mem limit of checkout rn and b4',
    expect: {
      all: [
        { number: limit('checkout', 'memory'), tolerance: 0.05 },
        { number: limit('checkout', 'memory', 45), tolerance: 0.05 },
      ],
    },
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'dev',
    message: 'restarts checkout last 30m',
    expect: { number: restarts('checkout', { range: '30m' }), tolerance: 0.25 },
  },
  { scenario: 'checkout-memory-limit-lowered', split: 'dev', message: 'y is it crashlooping', expect: { contains: ['OOM'] } },

  // ledger-volume-full-chronic-mount: ledger's claim data-ledger (50 GiB) on ip-10-0-1-88 is full from
  // 36 min before the end; 95% of POST /api/ledger/entries fail with 507; GET /api/ledger/{id} is
  // untouched; /var/log/archive on the same node has been full the whole three hours.
  { scenario: 'ledger-volume-full-chronic-mount', split: 'dev', message: "wat's full", expect: { contains: ['data-ledger'] } },
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'dev',
    message: 'ledger writes failing % rn',
    expect: { number: errRatio('ledger', '/api/ledger/entries'), tolerance: 0.15 },
  },
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'dev',
    message: 'reads too?',
    earlier: ['ledger writes failing % rn'],
    expect: { direction: 'about the same' },
  },

  // accounts-pool-exhausted-harmless-rollout: accounts' HikariPool-1 (10 per pod) runs dry from 40 to 38
  // min before the end (all connections active, 30 threads waiting per pod); accounts fails 30% of
  // requests; accountsdb uses about 41 of its 300 connections; accounts 1.4.1 rolled out 47 min before.
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'dev',
    message: 'accounts pool % used',
    expect: {
      number: `sum(hikaricp_connections_active${sel({ job: 'accounts' })}) / sum(hikaricp_connections_max${sel({ job: 'accounts' })})`,
      tolerance: 0.15,
    },
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'dev',
    message: 'is accountsdb near its conn limit, wat % used',
    expect: { number: 'sum(pg_stat_activity_count{datname="accounts"}) / max by () (pg_settings_max_connections)', tolerance: 0.25 },
  },
  { scenario: 'accounts-pool-exhausted-harmless-rollout', split: 'dev', message: 'did 1.4.1 brake it', expect: { contains: ['HikariPool-1'] } },

  // cart-liveness-slow-redis: sessions-redis slows a thousandfold from 38 min before the end (cart's
  // calls to it take about 2.3 s on average); cart's liveness probes time out and each cart pod is
  // restarted about every minute from 37 min before (48 restarts in the last 15 min).
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'dev',
    message: 'cart restarts last 15m',
    expect: { number: restarts('cart', { range: '15m' }), tolerance: 0.2 },
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'dev',
    message: 'avg redis call time from cart',
    expect: { number: callAvg('cart', 'sessions-redis'), tolerance: 0.3 },
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'dev',
    message: 'wen did those start',
    earlier: ['cart restarts last 15m'],
    expect: { at: 37, tolerance: 4 },
  },

  // inventory-liveness-unexplained: inventory's liveness probes fail from 37 min before the end and its
  // pods are restarted again and again (81 restarts; a hang the metrics do not show); catalog-sync bursts
  // to 1.1 cores on ip-10-0-3-41 (about half busy) from 40 min before.
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'dev',
    message: 'total inventory restarts so far',
    expect: { number: restarts('inventory'), tolerance: 0.2 },
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'dev',
    message: "cpu on catalog-sync's node",
    expect: { number: busy('ip-10-0-3-41'), tolerance: 0.2 },
  },
  { scenario: 'inventory-liveness-unexplained', split: 'dev', message: 'logs of the inventory pods pls', expect: { cannot: true } },

  // search-noisy-neighbour: video-transcode takes about 3.6 of the 4 cores of ip-10-0-2-34 from 37 min
  // before the end; the search pod there (seeded name, never rolled; p99 about 2.4 s) slows sevenfold;
  // the other search pod (on ip-10-0-3-41) is untouched.
  {
    scenario: 'search-noisy-neighbour',
    split: 'dev',
    message: 'whcih search pod is slow',
    expect: { contains: [SLOW_SEARCH_POD, 'ip-10-0-2-34'] },
  },
  {
    scenario: 'search-noisy-neighbour',
    split: 'dev',
    message: 'p99 of that pod?',
    earlier: ['whcih search pod is slow'],
    expect: { number: quantile(0.99, 'search', { pod: SLOW_SEARCH_POD }), tolerance: 0.3 },
  },
  { scenario: 'search-noisy-neighbour', split: 'dev', message: 'cores video-transcode using', expect: { number: coresOf('video-transcode'), tolerance: 0.15 } },

  // billing-timeout-config-change: grace's config push cfg-8841 lowers billing's ledger timeout from 2s
  // to 150ms 37 min before the end; every billing call to ledger times out and 20% of billing's requests
  // fail with 504 from 36 min before; ledger has no metrics of its own.
  { scenario: 'billing-timeout-config-change', split: 'dev', message: 'who changed wat on billing', expect: { contains: ['grace', '150ms'] } },
  {
    scenario: 'billing-timeout-config-change',
    split: 'dev',
    message: 'wen was it pushed',
    earlier: ['who changed wat on billing'],
    expect: { at: 37, tolerance: 3 },
  },
  { scenario: 'billing-timeout-config-change', split: 'dev', message: "ledger's own cpu?", expect: { cannot: true } },

  // archive-down-reported-deploy-red-herring: archive's two pods stop answering 36 min before the end;
  // statements fails 60% of its requests with 503; ci-bot's deploy-3301 of statements-static was
  // reported 48 min before and changed nothing.
  { scenario: 'archive-down-reported-deploy-red-herring', split: 'dev', message: 'was it the statements deploy', expect: { contains: ['archive'] } },
  { scenario: 'archive-down-reported-deploy-red-herring', split: 'dev', message: 'statemnts error rate pls', expect: { asksFirst: 'statements' } },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'dev',
    message: 'wat got deployed + by who',
    expect: { contains: ['statements', 'ci-bot'] },
  },
];
