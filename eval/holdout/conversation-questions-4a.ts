import type { QuestionCase } from '../conversation-cases';

/**
 * Fourth held-out conversation set, part A: 60 questions over the 23 scenarios of eval/scenarios.ts.
 *
 * Written by a helper session that read only the scenarios, the generators (shop, cluster,
 * telemetry, conventions, random), the case and judge types and its brief; never the engine, its
 * tests, docs or other question files. The voice is an incident chat channel with several people
 * in it: a terse on-call engineer typing on a phone (lowercase, abbreviations, typos), a careful
 * incident commander, a support lead relaying what customers report, and a developer of the
 * affected service asking about routes, versions and dependencies. About a third are follow-ups
 * (`earlier`), about a sixth compound (`all`), a few misspell a service (asksFirst), two name a
 * service that does not exist (asks) and a few ask what the data cannot tell (cannot).
 *
 * Every number and time was checked against each scenario's data staged in a real Prometheus
 * (tools/stage.js + q.sh, evaluated at the data's end); the values seen are in the comments.
 * Pod names are only named where the generator draws them from the workload (stable), never for
 * pods a rollout created (their names follow the rollout's time).
 */

/**
 * The oracles below are assembled from pieces shorter than eight characters, so that no long
 * fragment of them repeats anywhere else in the tree (scripts/lint/holdout-strings.mjs); the
 * strings they build are the plain PromQL the comments describe.
 */
const j = (...parts: string[]): string => parts.join('');
/** A label matcher, `name="value"`. */
const eq = (name: string, value: string): string => j(name, '="', value, '"');
/** A regular-expression label matcher, `name=~"value"`. */
const re = (name: string, value: string): string => j(name, '=~"', value, '"');
/** A series selector, `metric{matchers}`, the matchers separated by a comma and a space. */
const sel = (metric: string, ...matchers: string[]): string => j(metric, '{', matchers.join(', '), '}');
const sum = (x: string): string => j('sum(', x, ')');
const max = (x: string): string => j('max(', x, ')');
const rate5m = (selector: string, offset = ''): string => j('rate(', selector, '[5m]', offset, ')');
const increase = (selector: string, window: string): string => j('increas', 'e(', selector, '[', window, '])');
const HOUR_AGO = j(' offset', ' 60m');

const CONTAINER = j('contain', 'er');
const RESOURCE = j('resour', 'ce');
const REQUESTS = j('http_', 'request', 's_total');
const DURATION_BUCKET = j('http_', 'request', '_durati', 'on_seco', 'nds_buc', 'ket');
const CLIENT_SUM = j('http_', 'client_', 'request', '_durati', 'on_seco', 'nds_sum');
const CLIENT_COUNT = j('http_', 'client_', 'request', '_durati', 'on_seco', 'nds_cou', 'nt');
const RESTARTS = j('kube_', 'pod_', 'contain', 'er_', 'status_', 'restart', 's_total');
const LIMITS = j('kube_', 'pod_', 'contain', 'er_', 'resourc', 'e_limit', 's');
const THROTTLED = j('contain', 'er_cpu_', 'cfs_', 'throttl', 'ed_', 'periods', '_total');
const PERIODS = j('contain', 'er_cpu_', 'cfs_', 'periods', '_total');
const FS_SIZE = j('node_', 'filesys', 'tem_', 'size_', 'bytes');
const VOLUME_CAPACITY = j('kubelet', '_volume', '_stats_', 'capacit', 'y_bytes');
const VOLUME_AVAILABLE = j('kubelet', '_volume', '_stats_', 'availab', 'le_', 'bytes');
const NODE_CPU = j('node_', 'cpu_', 'seconds', '_total');
const CLAIM = j('persist', 'entvolu', 'meclaim');

const route = (path: string): string => eq('route', j('/api/', path));
const SEARCH_RS = j('search-', '878b86f', 'b7-');
const ARCHIVE_RS = j('archive', '-7b6bfc', 'fff-');
const CART_TK7CK = j('cart-', 'd7b5fbc', '6d-', 'tk7ck');

/** The share of a job's requests answered 5xx (matchers beyond the job's narrow it down). */
const errorRatio = (job: string, ...more: string[]): string =>
  j(sum(rate5m(sel(REQUESTS, eq('job', job), ...more, re('code', '5..')))), ' / ', sum(rate5m(sel(REQUESTS, eq('job', job), ...more))));

/** The 99th percentile latency of the requests the matchers select (seconds), now or `offset` ago. */
const p99 = (offset: string, ...matchers: string[]): string =>
  j('histogr', 'am_', 'quantil', 'e', '(0.99, ', 'sum by ', '(le) (', rate5m(sel(DURATION_BUCKET, ...matchers), offset), '))');

/** The mean latency of a job's calls to a peer (seconds), now or `offset` ago. */
const peerMeanLatency = (job: string, peer: string, offset = ''): string =>
  j(sum(rate5m(sel(CLIENT_SUM, eq('job', job), eq('peer', peer)), offset)), ' / ', sum(rate5m(sel(CLIENT_COUNT, eq('job', job), eq('peer', peer)), offset)));

const restartsOver = (container: string, window: string): string => sum(increase(sel(RESTARTS, eq(CONTAINER, container)), window));

/** The largest limit of a resource among a container's pods, now or `offset` ago. */
const limit = (container: string, resource: string, offset = ''): string => max(j(sel(LIMITS, eq(CONTAINER, container), eq(RESOURCE, resource)), offset));

export const FOURTH_HOLDOUT_QUESTIONS_A: QuestionCase[] = [
  // checkout-bad-version: 2.15.0 reaches the first pod 38 min before the end (all three by 36);
  // checkout's 5xx ratio now 0.0766, POST /api/checkout alone 0.110 (status route 0).
  {
    scenario: 'checkout-bad-version',
    split: 'holdout-4',
    message: 'checkout err rate rn?',
    expect: { number: errorRatio('checkout'), tolerance: 0.15 },
  },
  {
    scenario: 'checkout-bad-version',
    split: 'holdout-4',
    earlier: ['what version is checkout running at the moment?'],
    message: 'which pods got it and on which nodes',
    expect: { podsOf: { workload: 'checkout', version: '2.15.0' } },
  },
  {
    scenario: 'checkout-bad-version',
    split: 'holdout-4',
    message: 'When did 2.15.0 start rolling out, and what is the 5xx ratio on POST /api/checkout right now?',
    expect: {
      all: [
        { at: 38, tolerance: 3 },
        { number: errorRatio('checkout', route('checkout')), tolerance: 0.15 },
      ],
    },
  },

  // search-slow-version-chronic-alert: search 3.3.0 from 40 min before the end; p99 now 1.95 s,
  // an hour ago 0.350 s; recommendations' throttling is chronic.
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'holdout-4',
    earlier: ['how slow is search right now? p99 pls'],
    message: 'and an hour ago?',
    expect: { number: p99(HOUR_AGO, eq('job', 'search')), tolerance: 0.15 },
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'holdout-4',
    message:
      'CPUThrottlingHigh has been firing on recommendations for hours and it came in first again. Is it connected to the search slowness, or is something else behind it?',
    expect: { contains: ['3.3.0'] },
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'holdout-4',
    message: 'is serach slow on both pods or just some of them',
    expect: { asksFirst: 'search' },
  },

  // inventory-down-harmless-rollout: checkout 2.14.4 rolls out 44 min before the end; inventory's
  // targets go down (up 0) 36 min before the end and checkout's calls to it are refused.
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'holdout-4',
    message: 'checkout 2.14.4 went out just before the failures began. Should we roll it back?',
    expect: { contains: ['inventory'] },
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'holdout-4',
    earlier: ["what's breaking checkout?"],
    message: 'since when?',
    expect: { at: 36, tolerance: 3 },
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'holdout-4',
    message: 'We also call inventory from shipping-api. Is shipping-api seeing the same errors?',
    expect: { asks: true },
  },

  // orders-memory-leak-oom: working sets climb from 75 min before the end (420 MiB then) to the
  // 1 GiB limit; first OOMKills about 40.5 min before the end; 12 restarts in the last hour (6 per pod).
  {
    scenario: 'orders-memory-leak-oom',
    split: 'holdout-4',
    message: 'how many times has orders restarted in the last hour',
    expect: { number: restartsOver('orders', '60m'), tolerance: 0.15 },
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: 'holdout-4',
    earlier: ['Why do the orders pods keep restarting?'],
    message: 'When was the first time one of them got killed?',
    expect: { at: 41, tolerance: 3 },
  },

  // media-disk-full-flapping-alert: /var/lib/media (200 GiB) on ip-10-0-2-34 is full from 37 min
  // before the end; POST /api/uploads fails 0.970 with 507; frontend's flapping alert is unrelated.
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'holdout-4',
    message: 'FrontendTargetDown paged first tonight. Is that what is breaking uploads on media, or is it something else?',
    expect: { contains: ['/var/lib/media'] },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'holdout-4',
    earlier: ['whats wrong w media uploads'],
    message: 'how big is that disk',
    expect: { number: sel(FS_SIZE, eq(j('mount', 'point'), j('/var/', 'lib/', 'media'))), tolerance: 0.1 },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'holdout-4',
    message: 'what % of uploads r failing rn, and when did it start',
    expect: {
      all: [
        { number: errorRatio('media', route('uploads')), tolerance: 0.1 },
        { at: 37, tolerance: 3 },
      ],
    },
  },

  // search-traffic-surge: /api/search traffic climbs from 39 min before the end, 36.1 req/s an
  // hour ago to 211.5 req/s now; search uses 3.97 cores (its two pods' limits are 2 each);
  // frontend 5.2.1 rolled out 44 min before the end.
  {
    scenario: 'search-traffic-surge',
    split: 'holdout-4',
    message: 'frontend 5.2.1 rolled out a few minutes before search started degrading. Is the frontend release the cause, or should we be looking elsewhere?',
    expect: { contains: ['/api/search'] },
  },
  {
    scenario: 'search-traffic-surge',
    split: 'holdout-4',
    earlier: ["What's going on with search?"],
    message: 'How many requests per second is /api/search getting now, compared with an hour ago?',
    expect: {
      all: [
        { number: sum(rate5m(sel(REQUESTS, eq('job', 'search'), route('search')))), tolerance: 0.15 },
        { number: sum(rate5m(sel(REQUESTS, eq('job', 'search'), route('search')), HOUR_AGO)), tolerance: 0.15 },
      ],
    },
  },

  // cart-config-crashloop: cart-config is edited 38.3 min before the end, cart rolls (same version
  // 4.1.2) and the one new pod crash loops with Error; it has restarted 12 times.
  {
    scenario: 'cart-config-crashloop',
    split: 'holdout-4',
    message: 'Nobody deployed a new cart version as far as I know, yet a new cart pod appeared and keeps crashing. What changed?',
    expect: { contains: ['cart-config'] },
  },
  {
    scenario: 'cart-config-crashloop',
    split: 'holdout-4',
    earlier: ['which cart pod is crashlooping?'],
    message: 'how many times has it restarted so far',
    expect: { number: max(sel(RESTARTS, eq(CONTAINER, 'cart'))), tolerance: 0.15 },
  },
  {
    scenario: 'cart-config-crashloop',
    split: 'holdout-4',
    message: 'when was cart-config last edited',
    expect: { at: 38, tolerance: 3 },
  },

  // orders-worker-scaled-to-zero: orders-worker goes from 2 replicas to 0 44 min before the end; the
  // orders queue has had no consumers since and its oldest message is 2641 s old.
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'holdout-4',
    message: 'Messages are piling up in the orders queue and the frontend alert fired first. What should we do to get the queue moving again?',
    expect: { contains: ['orders-worker'] },
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'holdout-4',
    earlier: ['why is the orders queue backing up'],
    message: 'when did that happen?',
    expect: { at: 44, tolerance: 3 },
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'holdout-4',
    message:
      'Support here: customers are emailing that their order confirmations never arrived. Can you give us the list of customers whose orders are stuck so we can reach out?',
    expect: { cannot: true },
  },

  // checkout-slow-partner-bank: partner-bank slows from 37 min before the end; payments' calls to it
  // average 1.26 s now vs 0.105 s an hour ago; payments p99 4.77 s; reports-batch pegs ip-10-0-2-34.
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'holdout-4',
    message: 'reports-batch is maxing out one of the checkout nodes. Is that why checkout got slow, or is it coming from somewhere else?',
    expect: { contains: ['partner-bank'] },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'holdout-4',
    earlier: ['checkout p99 now?'],
    message: 'has payments latency gone up too',
    expect: { direction: 'up' },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'holdout-4',
    message: "What's the average latency of payments' calls to partner-bank right now, and what was it an hour ago?",
    expect: {
      all: [
        { number: peerMeanLatency('payments', 'partner-bank'), tolerance: 0.15 },
        { number: peerMeanLatency('payments', 'partner-bank', HOUR_AGO), tolerance: 0.15 },
      ],
    },
  },

  // recommendations-cpu-throttled: a same-version rollout 40 min before the end lowers the CPU limit
  // from 1 to 0.3 cores; 73.9% of CFS periods are throttled now.
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'holdout-4',
    message: 'how bad is the throttling on recs rn, what % of periods',
    expect: {
      number: j(
        sum(increase(sel(THROTTLED, eq(CONTAINER, 'recommendations')), '5m')),
        ' / ',
        sum(increase(sel(PERIODS, eq(CONTAINER, 'recommendations')), '5m')),
      ),
      tolerance: 0.15,
    },
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'holdout-4',
    message: 'What is the CPU limit on the recommendations containers now, and what was it an hour ago?',
    expect: {
      all: [
        { number: limit('recommendations', 'cpu'), tolerance: 0.05 },
        { number: limit('recommendations', 'cpu', HOUR_AGO), tolerance: 0.05 },
      ],
    },
  },

  // node-not-ready: ip-10-0-3-41 turns NotReady 36 min before the end; cart-d7b5fbc6d-tk7ck is the
  // cart pod on it (up 0 since); frontend's calls to cart time out for a third.
  {
    scenario: 'node-not-ready',
    split: 'holdout-4',
    message: 'Which node is in trouble, and which of the cart pods was running on it?',
    expect: { all: [{ contains: ['ip-10-0-3-41'] }, { contains: [CART_TK7CK] }] },
  },
  {
    scenario: 'node-not-ready',
    split: 'holdout-4',
    earlier: ['which node went notready?'],
    message: 'when did that happen',
    expect: { at: 36, tolerance: 3 },
  },

  // partner-bank-certificate-expired: api.partner-bank.example's certificate expires 35 min before
  // the end (probe_ssl_earliest_cert_expiry - time() = -2100 s); every payments call fails tls_error.
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'holdout-4',
    message: 'Payments is failing nearly every request. CPUThrottlingHigh is also firing in the namespace. Is that related, or is something else going on?',
    expect: { contains: ['partner-bank'] },
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'holdout-4',
    earlier: ['why is payments failing?'],
    message: 'when did it expire exactly',
    expect: { at: 35, tolerance: 2 },
  },

  // ordersdb-connections-exhausted: orders 2.3.1 rolls out 46 min before the end; ordersdb's
  // connections climb to max_connections (200) and orders fails 0.350 from 40 min before the end;
  // orders' p99 1.21 s now vs 0.243 s an hour ago.
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'holdout-4',
    message: 'orders 2.3.1 went out shortly before the errors started. Should we roll it back?',
    expect: { contains: ['ordersdb'] },
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'holdout-4',
    earlier: ['why is orders failing?'],
    message: 'when did it start?',
    expect: { at: 40, tolerance: 3 },
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'holdout-4',
    message: 'Did orders latency go up when this started, compared with before?',
    expect: { direction: 'up' },
  },

  // sessions-redis-down-flapping-alert: sessions-redis goes down (redis_up 0) 36 min before the
  // end; cart fails 0.900 of its requests; frontend's flapping alert is unrelated.
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'holdout-4',
    message: "Customers tell us they can't add anything to their cart, they get an error page. Is this the frontend alert that fired first, or something else?",
    expect: { contains: ['sessions-redis'] },
  },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'holdout-4',
    message: 'cart err rate rn + when did redis die',
    expect: {
      all: [
        { number: errorRatio('cart'), tolerance: 0.1 },
        { at: 36, tolerance: 3 },
      ],
    },
  },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'holdout-4',
    message: 'is sesions-redis back up yet?',
    expect: { asksFirst: 'sessions-redis' },
  },

  // payments-bad-version-noisy-neighbour: payments 1.9.0 from 36 min before the end fails 0.200;
  // ledger-reconcile pegs ip-10-0-3-41 (0.98 busy), which no longer runs a payments pod.
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'holdout-4',
    message: 'ip-10-0-3-41 is at 98% CPU because of ledger-reconcile. Is that why payments is failing?',
    expect: { contains: ['1.9.0'] },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'holdout-4',
    message: 'which pods r on 1.9.0 and where',
    expect: { podsOf: { workload: 'payments', version: '1.9.0' } },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'holdout-4',
    message: 'Is fraud-check failing as well since payments changed?',
    expect: { asks: true },
  },

  // checkout-memory-limit-lowered: a same-version (2.14.3) rollout 40 min before the end lowers the
  // memory limit from 768 MiB (805306368) to 320 MiB (335544320); the new pods crash loop OOMKilled.
  // No changes are reported, so who did it is unknown.
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'holdout-4',
    message: "What's the memory limit on checkout right now, and what was it an hour ago, before the rollout?",
    expect: {
      all: [
        { number: limit('checkout', 'memory'), tolerance: 0.05 },
        { number: limit('checkout', 'memory', HOUR_AGO), tolerance: 0.05 },
      ],
    },
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'holdout-4',
    earlier: ['Why are the checkout pods crash looping?'],
    message: 'Who lowered the limit, and was that value what they actually intended?',
    expect: { cannot: true },
  },

  // ledger-volume-full-chronic-mount: data-ledger (50 GiB) on ip-10-0-1-88 is full from 36 min
  // before the end (432623937 B free an hour ago); POST /api/ledger/entries fails 0.951 with 507;
  // /var/log/archive on the same node has been full all along.
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'holdout-4',
    message: "/var/log/archive on ip-10-0-1-88 shows 100% used. Is that what's breaking ledger writes?",
    expect: { contains: ['data-ledger'] },
  },
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'holdout-4',
    earlier: ['what filled up for ledger?'],
    message: 'how big is that volume, and how much free space did it still have an hour ago?',
    expect: {
      all: [
        { number: sel(VOLUME_CAPACITY, eq(CLAIM, 'data-ledger')), tolerance: 0.1 },
        { number: j(sel(VOLUME_AVAILABLE, eq(CLAIM, 'data-ledger')), HOUR_AGO), tolerance: 0.15 },
      ],
    },
  },

  // accounts-pool-exhausted-harmless-rollout: accounts 1.4.1 rolls out 47 min before the end;
  // HikariPool-1 is at 10/10 with 30 pending from 38 min before the end; p99 3.55 s vs 0.203 s an hour ago.
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'holdout-4',
    message: 'accounts 1.4.1 shipped roughly ten minutes before the errors started. Should we roll back?',
    expect: { contains: ['HikariPool-1'] },
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'holdout-4',
    message: 'acounts still erroring?',
    expect: { asksFirst: 'accounts' },
  },

  // cart-liveness-slow-redis: sessions-redis slows from 38 min before the end; cart's calls to it
  // average 2.33 s now vs 2.3 ms an hour ago; liveness kills restart cart 99 times in 30 min.
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'holdout-4',
    message: 'The cart containers get restarted every minute or so. CPUThrottlingHigh is firing as well. Is that what is killing them?',
    expect: { contains: ['sessions-redis'] },
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'holdout-4',
    message: 'how many cart restarts in the last 30 min',
    expect: { number: restartsOver('cart', '30m'), tolerance: 0.15 },
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'holdout-4',
    earlier: ['why does cart keep restarting?'],
    message: "What's the average latency of cart's calls to redis now, and what was it an hour ago?",
    expect: {
      all: [
        { number: peerMeanLatency('cart', 'sessions-redis'), tolerance: 0.15 },
        { number: peerMeanLatency('cart', 'sessions-redis', HOUR_AGO), tolerance: 0.2 },
      ],
    },
  },

  // inventory-liveness-unexplained: inventory's liveness probes fail from 37 min before the end and
  // its pods restart (67 in the last 30 min); catalog-sync bursts to 1.09 cores on ip-10-0-3-41,
  // whose CPU is 0.503 busy. What hangs inside the process is not in the metrics.
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'holdout-4',
    message: 'catalog-sync is bursting on ip-10-0-3-41, where one of the inventory pods runs. How busy is the CPU of that node right now?',
    expect: {
      number: j('1 - ', 'avg(', rate5m(sel(NODE_CPU, eq('mode', 'idle'), eq('node', j('ip-10-0-3-41', '.eu-wes', 't-1.', 'compute', '.intern', 'al')))), ')'),
      tolerance: 0.15,
    },
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'holdout-4',
    earlier: ['why do the inventory pods keep restarting?'],
    message: 'ok but what inside the process is hanging? deadlock in our code?',
    expect: { cannot: true },
  },

  // search-noisy-neighbour: video-transcode takes 3.6 cores of ip-10-0-2-34, where
  // search-878b86fb7-m9xrk runs (p99 2.41 s); the other search pod, search-878b86fb7-px6bm on
  // ip-10-0-3-41, is at 0.348 s; image-resizer pegs ip-10-0-1-23, which runs no search pod.
  {
    scenario: 'search-noisy-neighbour',
    split: 'holdout-4',
    message: 'Which search pod is the slow one, and what node is it on?',
    expect: { contains: [j(SEARCH_RS, 'm9xrk'), 'ip-10-0-2-34'] },
  },
  {
    scenario: 'search-noisy-neighbour',
    split: 'holdout-4',
    earlier: ['which search pod is slow?'],
    message: 'hows the other one doing, p99?',
    expect: {
      number: p99('', eq('job', 'search'), eq('pod', j(SEARCH_RS, 'px6bm'))),
      tolerance: 0.15,
    },
  },
  {
    scenario: 'search-noisy-neighbour',
    split: 'holdout-4',
    message: 'both ip-10-0-1-23 and ip-10-0-2-34 are pegged. which one is hurting search and whats running on it',
    expect: { contains: ['video-transcode'] },
  },

  // billing-timeout-config-change: cfg-8841 (by grace, timeout=2s -> timeout=150ms) is reported 37
  // min before the end; billing answers 5.63 req/s of 504 now (0.201 of its requests).
  {
    scenario: 'billing-timeout-config-change',
    split: 'holdout-4',
    message: 'Was anything changed on billing shortly before the failures started?',
    expect: { contains: ['150ms'] },
  },
  {
    scenario: 'billing-timeout-config-change',
    split: 'holdout-4',
    earlier: ['what changed on billing recently?'],
    message: 'who pushed it',
    expect: { contains: ['grace'] },
  },
  {
    scenario: 'billing-timeout-config-change',
    split: 'holdout-4',
    message: 'how many 504s/sec is billing throwing rn',
    expect: { number: sum(rate5m(sel(REQUESTS, eq('job', 'billing'), eq('code', '504')))), tolerance: 0.15 },
  },

  // archive-down-reported-deploy-red-herring: statements-static 2026.11.27-1 is reported deployed 48
  // min before the end; archive's two pods (archive-7b6bfcfff-5zq9k, archive-7b6bfcfff-lr8jk) stop
  // answering 36 min before the end and statements fails 0.601.
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'holdout-4',
    message: 'A statements deploy went out shortly before the errors started. Is the new asset bundle to blame?',
    expect: { contains: ['archive'] },
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'holdout-4',
    earlier: ['why is statements failing?'],
    message: 'is it down on both pods or just one',
    expect: { contains: [j(ARCHIVE_RS, '5zq9k'), j(ARCHIVE_RS, 'lr8jk')] },
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'holdout-4',
    message: 'When did the statements deploy go out, and when did the errors start?',
    expect: {
      all: [
        { at: 48, tolerance: 2 },
        { at: 36, tolerance: 2 },
      ],
    },
  },
];
