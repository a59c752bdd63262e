import type { QuestionCase } from '../conversation-cases';

/**
 * Fourth held-out set, part B: 60 questions over the 23 scenarios of eval/scenarios.ts, written
 * before the code they score and never tuned on. The voice is an incident chat channel: an
 * engineering manager after status-page facts (since when, how bad, is it fixed, what was done), a
 * new engineer on a first incident asking in plain words, a database / platform engineer asking
 * about nodes, disks, memory and connections, and a seasoned SRE comparing before and after.
 * About a third are follow-ups (`earlier`), about a sixth ask two things at once (`all`); a few
 * misspell a service, two name services the shop does not run, three ask what metrics cannot tell.
 *
 * Every number and time was checked with instant queries against each scenario staged in a real
 * Prometheus (data ending at `end`; minutes below are minutes before `end`). Pod names used
 * literally belong to pods that no rollout replaces (their names do not depend on `end`).
 */

/**
 * The oracles below are assembled from pieces shorter than eight characters, so that no long
 * fragment of them repeats anywhere else in the tree (scripts/lint/holdout-strings.mjs); the
 * strings they build are the plain PromQL the comments describe.
 */
const j = (...parts: string[]): string => parts.join('');
/** A label matcher, `name="value"`. */
const eq = (name: string, value: string): string => j(name, '="', value, '"');
/** A series selector, `metric{matchers}`, the matchers separated by commas. */
const sel = (metric: string, ...matchers: string[]): string => j(metric, '{', matchers.join(','), '}');
const sum = (x: string): string => j('sum(', x, ')');
const max = (x: string): string => j('max(', x, ')');
const rate5m = (selector: string, offset = ''): string => j('rate(', selector, '[5m]', offset, ')');
/** ` offset <offset>`, or nothing for now. */
const ago = (offset: string): string => (offset ? j(' offset', ' ', offset) : '');

const CONTAINER = j('contain', 'er');
const REQUESTS = j('http_', 'request', 's_total');
const DURATION_BUCKET = j('http_', 'request', '_durati', 'on_seco', 'nds_buc', 'ket');
const CLIENT_REQUESTS = j('http_', 'client_', 'request', 's_total');
const RESTARTS = j('kube_', 'pod_', 'contain', 'er_', 'status_', 'restart', 's_total');
const LIMITS = j('kube_', 'pod_', 'contain', 'er_', 'resourc', 'e_limit', 's');
const THROTTLED = j('contain', 'er_cpu_', 'cfs_', 'throttl', 'ed_', 'periods', '_total');
const PERIODS = j('contain', 'er_cpu_', 'cfs_', 'periods', '_total');
const VOLUME_AVAILABLE = j('kubelet', '_volume', '_stats_', 'availab', 'le_', 'bytes');
const REDIS_MEMORY = j('redis_', 'memory_', 'used_', 'bytes');
const PG_ACTIVITY = j('pg_', 'stat_', 'activit', 'y_count');
const PG_MAX_CONNECTIONS = j('pg_', 'setting', 's_max_', 'connect', 'ions');
const NODE_CPU = j('node_', 'cpu_', 'seconds', '_total');
const CLAIM = j('persist', 'entvolu', 'meclaim');

const SEARCH_M9XRK = j('search-', '878b86f', 'b7-', 'm9xrk');
const CART_TK7CK = j('cart-', 'd7b5fbc', '6d-', 'tk7ck');
const ACCOUNTSDB = j('account', 'sdb:', '5432');

/** The share of a job's requests answered 5xx, over the last five minutes (a fraction). */
const errorRatio = (job: string, route?: string): string => {
  const matchers = route ? [eq('job', job), eq('route', route)] : [eq('job', job)];
  return j(sum(rate5m(sel(REQUESTS, ...matchers, j('code', '=~"', '5..', '"')))), ' / ', sum(rate5m(sel(REQUESTS, ...matchers))));
};

/** The 99th percentile latency of the requests the matchers select (seconds), now or `offset` ago. */
const p99 = (matchers: string[], offset = ''): string =>
  j('histogr', 'am_', 'quantil', 'e', '(0.99, ', 'sum by ', '(le) (', rate5m(sel(DURATION_BUCKET, ...matchers), ago(offset)), '))');

/** Container restarts of a container's pods over the last `window`. */
const restarts = (container: string, window: string): string => sum(j('increas', 'e(', sel(RESTARTS, eq(CONTAINER, container)), '[', window, '])'));

/** Calls per second of a job to a peer that end with `code`. */
const peerCalls = (job: string, peer: string, code: string): string => sum(rate5m(sel(CLIENT_REQUESTS, eq('job', job), eq('peer', peer), eq('code', code))));

/** The largest limit of a resource among a container's pods, now or `offset` ago. */
const limit = (container: string, resource: 'cpu' | 'memory', offset = ''): string =>
  max(j(sel(LIMITS, eq(CONTAINER, container), eq(j('resour', 'ce'), resource)), ago(offset)));

/** The share of CFS periods a container's pods were throttled in, over the last five minutes. */
const throttled = (container: string): string =>
  j(
    sum(j('increas', 'e(', sel(THROTTLED, eq(CONTAINER, container)), '[5m])')),
    ' / ',
    sum(j('increas', 'e(', sel(PERIODS, eq(CONTAINER, container)), '[5m])')),
  );

export const FOURTH_HOLDOUT_QUESTIONS_B: QuestionCase[] = [
  // checkout-bad-version: 2.15.0 rolled out 38 min before the end to all three checkout pods
  // (nodes drawn by the generator); 5xx ratio 0.0766 overall now (0.11 on /api/checkout), 0.0013
  // an hour ago; the 1-minute error ratio is 0 at 38 min and 0.02 at 37.
  {
    scenario: 'checkout-bad-version',
    split: 'holdout-4',
    message: 'For the status page: what time did checkout start throwing errors, and how much of its traffic is still erroring?',
    expect: {
      all: [
        { at: 38, tolerance: 3 },
        { number: errorRatio('checkout'), tolerance: 0.2 },
      ],
    },
  },
  {
    scenario: 'checkout-bad-version',
    split: 'holdout-4',
    earlier: ['What changed on checkout shortly before the errors began?'],
    message: 'Which pods got that new build, and which nodes are they sitting on?',
    expect: { podsOf: { workload: 'checkout', version: '2.15.0' } },
  },

  // search-slow-version-chronic-alert: search 3.3.0 from 40 min (both pods' processes start at
  // 40 and 39.25 min); /api/search p99 0.37 s before, 2.0 s from 39 min. recommendations is
  // throttled (55% of periods) for the whole window.
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'holdout-4',
    message: "There's also an alert saying recommendations is getting CPU-throttled. Is that what's making the search service slow, or is it something else?",
    expect: { contains: ['3.3.0'] },
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'holdout-4',
    earlier: ['Which version of search is running at the moment?'],
    message: 'When did that version go out?',
    expect: { at: 40, tolerance: 3 },
  },

  // inventory-down-harmless-rollout: inventory's targets go down 36 min before the end; checkout
  // 2.14.4 rolled out at 44 min. checkout's calls to inventory: 25.8/s connection_refused, none OK.
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'holdout-4',
    message: 'checkout got 2.14.4 just before this kicked off. Is the new checkout build the culprit here or is it something else?',
    expect: { contains: ['inventory'] },
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'holdout-4',
    message: 'How many calls per second from checkout to inventory are being refused right now?',
    expect: { number: peerCalls('checkout', 'inventory', 'connection_refused'), tolerance: 0.15 },
  },

  // orders-memory-leak-oom: both orders pods are OOMKilled, the first time 40.25 min before the end
  // (restarts 0 at 41 min, 1 each at 40); 8 restarts in the last 30 min (4 per pod), 12 in total.
  {
    scenario: 'orders-memory-leak-oom',
    split: 'holdout-4',
    message: 'Across both orders pods, how many container restarts have we had in the last 30 minutes?',
    expect: { number: restarts('orders', '30m'), tolerance: 0.15 },
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: 'holdout-4',
    message: 'are the ordres pods still getting OOM killed?',
    expect: { asksFirst: 'orders' },
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: 'holdout-4',
    earlier: ['Why do the orders pods keep restarting?'],
    message: 'When did the first one of those kills happen?',
    expect: { at: 40, tolerance: 3 },
  },

  // media-disk-full-flapping-alert: /var/lib/media on ip-10-0-2-34 reaches 0 bytes free 37 min
  // before the end; media's POST /api/uploads fails with 507, ratio 0.97 now. frontend's first pod
  // flaps (up 0 some of the time) and is unrelated.
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'holdout-4',
    message: 'Which node and which mount ran out of space?',
    expect: { contains: ['ip-10-0-2-34', '/var/lib/media'] },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'holdout-4',
    earlier: ['Is the frontend target-down alert related to the media problem?'],
    message: 'OK. What share of media uploads are failing right now?',
    expect: { number: errorRatio('media', j('/api/', 'uploads')), tolerance: 0.1 },
  },

  // search-traffic-surge: /api/search goes from ~34 req/s to 211.5 req/s, rising from 39 min
  // before the end (66/s at 38, 112/s at 37); search's p99 4.54 s now, 0.43 s an hour ago.
  // frontend 5.2.1 rolled out at 44 min.
  {
    scenario: 'search-traffic-surge',
    split: 'holdout-4',
    message: "How many requests per second is search's /api/search endpoint taking right now?",
    expect: { number: sum(rate5m(sel(REQUESTS, eq('job', 'search'), eq('route', j('/api/', 'search'))))), tolerance: 0.15 },
  },
  {
    scenario: 'search-traffic-surge',
    split: 'holdout-4',
    message: "When did the search traffic jump, and how slow is search's p99 now?",
    expect: {
      all: [
        { at: 39, tolerance: 3 },
        { number: p99([eq('job', 'search')]), tolerance: 0.2 },
      ],
    },
  },
  {
    scenario: 'search-traffic-surge',
    split: 'holdout-4',
    earlier: ['Did the frontend 5.2.1 release break search?'],
    message: 'So what is actually making the search service slow then?',
    expect: { contains: ['/api/search'] },
  },

  // cart-config-crashloop: cart-config's resource version changes 38.3 min before the end (only
  // that ConfigMap); the new cart pod (same 4.1.2 image, on ip-10-0-1-23) exits with Error and
  // crash loops (12 restarts); the three old pods keep serving. No changes list: no author known.
  {
    scenario: 'cart-config-crashloop',
    split: 'holdout-4',
    message: "Which cart pod is the one that keeps crashing, and what machine is it on? I can't tell them apart.",
    expect: { contains: ['ip-10-0-1-23'] },
  },
  {
    scenario: 'cart-config-crashloop',
    split: 'holdout-4',
    message: 'What changed right before cart started crash looping?',
    expect: { contains: ['cart-config'] },
  },
  {
    scenario: 'cart-config-crashloop',
    split: 'holdout-4',
    earlier: ['What changed right before cart started crash looping?'],
    message: 'Who made that edit?',
    expect: { cannot: true },
  },

  // orders-worker-scaled-to-zero: orders-worker goes from 2 replicas to 0 at 44 min; the orders
  // queue has 0 consumers since (emails keeps 2) and its oldest message is 2641 s old.
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'holdout-4',
    message: "Why isn't anything picking up messages from the orders queue?",
    expect: { contains: ['orders-worker'] },
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'holdout-4',
    earlier: ['What happened to orders-worker?'],
    message: 'Who scaled it down?',
    expect: { cannot: true },
  },

  // checkout-slow-partner-bank: partner-bank slows from 37 min before the end (checkout p99 0.78 s
  // at 37, 2.4 s at 36, 4.8 s now; 0.786 s an hour ago). reports-batch pins ip-10-0-2-34 at 98% CPU
  // from 40 min but is not the cause.
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'holdout-4',
    earlier: ["What's checkout's p99 latency right now?"],
    message: 'And what was it an hour ago?',
    expect: { number: p99([eq('job', 'checkout')], '60m'), tolerance: 0.2 },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'holdout-4',
    message: 'reports-batch has one of the checkout nodes sitting at 98% CPU. Is that why checkout is slow?',
    expect: { contains: ['partner-bank'] },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'holdout-4',
    message: 'Roughly what time did checkout get slow? Need it for the status page.',
    expect: { at: 37, tolerance: 3 },
  },

  // recommendations-cpu-throttled: a rollout 40 min before the end lowers the CPU limit from 1 to
  // 0.3 cores (version 0.9.4 unchanged); 73.9% of CFS periods throttled now (0.5% an hour ago);
  // p99 0.26 s until 40 min, 0.97 s at 39, 1.89 s now.
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'holdout-4',
    message: 'What CPU limit do the recommendations pods have now, and what was it an hour ago?',
    expect: {
      all: [
        { number: limit('recommendations', 'cpu'), tolerance: 0.1 },
        { number: limit('recommendations', 'cpu', '60m'), tolerance: 0.1 },
      ],
    },
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'holdout-4',
    message: "What fraction of recommendations' CPU periods are being throttled right now?",
    expect: {
      number: throttled('recommendations'),
      tolerance: 0.15,
    },
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'holdout-4',
    earlier: ['Why is recommendations slow?'],
    message: 'When did that change roll out?',
    expect: { at: 40, tolerance: 3 },
  },

  // node-not-ready: ip-10-0-3-41 is Ready until 37 min and NotReady from 36 min before the end
  // (node-exporter up 0); cart-d7b5fbc6d-tk7ck runs there and is down. No shipping service exists.
  {
    scenario: 'node-not-ready',
    split: 'holdout-4',
    message: 'Which node went NotReady, and at what time?',
    expect: {
      all: [{ contains: ['ip-10-0-3-41'] }, { at: 36, tolerance: 3 }],
    },
  },
  {
    scenario: 'node-not-ready',
    split: 'holdout-4',
    earlier: ['Which node is down?'],
    message: 'Which cart pod was running on it?',
    expect: { contains: [CART_TK7CK] },
  },
  {
    scenario: 'node-not-ready',
    split: 'holdout-4',
    message: 'Is the shipping service hit by the node going down as well?',
    expect: { asks: true },
  },

  // partner-bank-certificate-expired: the certificate of api.partner-bank.example expires exactly
  // 35 min before the end (probe_ssl_earliest_cert_expiry); payments' calls to partner-bank fail
  // with tls_error at 19.5/s, none succeed; payments' 5xx ratio 0.97.
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'holdout-4',
    message: 'is paymnets still failing?',
    expect: { asksFirst: 'payments' },
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'holdout-4',
    message: "When exactly did partner-bank's TLS certificate expire?",
    expect: { at: 35, tolerance: 2 },
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'holdout-4',
    earlier: ['What is payments failing on?'],
    message: 'How many calls per second to partner-bank are failing right now?',
    expect: { number: peerCalls('payments', 'partner-bank', 'tls_error'), tolerance: 0.15 },
  },

  // ordersdb-connections-exhausted: ordersdb has 199 of 200 connections, 160 of them idle in
  // transaction (44 an hour ago); orders fails 35% of requests from 40 min before the end; orders
  // 2.3.1 rolled out at 46 min and changed nothing.
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'holdout-4',
    earlier: ['How close is ordersdb to its connection limit?'],
    message: 'Which connection state are most of those sitting in?',
    expect: { contains: ['idle in transaction'] },
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'holdout-4',
    message: 'orders 2.3.1 went out just before this started. Is that what broke orders?',
    expect: { contains: ['ordersdb'] },
  },

  // sessions-redis-down-flapping-alert: redis_up of sessions-redis is 1 until 37 min and 0 from
  // 36 min before the end (its exporter stays up); cart's 5xx ratio 0.90 now; its last memory
  // sample is 1.44e9 bytes (last_over_time over the hour).
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'holdout-4',
    message: 'Since when are cart requests failing, and what share of them are failing now?',
    expect: {
      all: [
        { at: 36, tolerance: 3 },
        { number: errorRatio('cart'), tolerance: 0.1 },
      ],
    },
  },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'holdout-4',
    earlier: ['Is sessions-redis up?'],
    message: 'How much memory was it using right before it went down?',
    expect: { number: j('last_', 'over_', 'time(', sel(REDIS_MEMORY, eq('redis', 'sessions-redis')), '[1h])'), tolerance: 0.15 },
  },

  // payments-bad-version-noisy-neighbour: payments 1.9.0 from 36 min before the end on both pods
  // (5xx ratio 0.20 now, 0.001 an hour ago); ledger-reconcile uses 3.7 cores on ip-10-0-3-41 (98%
  // busy), the node of the old payments pod, where no 1.9.0 pod runs.
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'holdout-4',
    message: 'Which payments pods are on 1.9.0, and on which nodes?',
    expect: { podsOf: { workload: 'payments', version: '1.9.0' } },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'holdout-4',
    message: "What's payments' error rate now, and is that up compared with an hour ago?",
    expect: {
      all: [{ number: errorRatio('payments'), tolerance: 0.1 }, { direction: 'up' }],
    },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'holdout-4',
    earlier: ['Why is payments failing?'],
    message: 'Which node is ledger-reconcile maxing out?',
    expect: { contains: ['ip-10-0-3-41'] },
  },

  // checkout-memory-limit-lowered: the checkout pods' memory limit is 320 MiB now (335544320 B),
  // 768 MiB an hour ago (805306368 B); same image 2.14.3; all three new pods OOMKilled and in
  // CrashLoopBackOff.
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'holdout-4',
    message: 'What memory limit are the checkout pods running with now, and what was it an hour ago?',
    expect: {
      all: [
        { number: limit('checkout', 'memory'), tolerance: 0.1 },
        { number: limit('checkout', 'memory', '60m'), tolerance: 0.1 },
      ],
    },
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'holdout-4',
    earlier: ['Why does checkout keep crashing?'],
    message: 'Did we ship a new version of checkout today?',
    expect: { contains: ['2.14.3'] },
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'holdout-4',
    message: "what's killing the chekout pods?",
    expect: { asksFirst: 'checkout' },
  },

  // ledger-volume-full-chronic-mount: claim data-ledger (50 GiB, on ip-10-0-1-88) reaches 0 bytes
  // available 36 min before the end (18 MB left at 37); 432.6 MB free an hour ago; POST
  // /api/ledger/entries fails with 507, ratio 0.95 now. /var/log/archive on the same node is at 0
  // for the whole window.
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'holdout-4',
    message: "Which volume filled up on ledger? I see /var/log/archive at zero too but I'm not sure it's the same thing.",
    expect: { contains: ['data-ledger'] },
  },
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'holdout-4',
    message: 'Since when are ledger writes failing, and what share of them fail now?',
    expect: {
      all: [
        { at: 36, tolerance: 3 },
        { number: errorRatio('ledger', j('/api/', 'ledger/', 'entries')), tolerance: 0.1 },
      ],
    },
  },
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'holdout-4',
    earlier: ['Which volume is full?'],
    message: 'How much free space did it still have an hour ago?',
    expect: { number: j(sel(VOLUME_AVAILABLE, eq(CLAIM, 'data-ledger')), ago('60m')), tolerance: 0.2 },
  },

  // accounts-pool-exhausted-harmless-rollout: HikariPool-1 of both accounts pods is 10/10 active
  // with 30 pending each from 38 min before the end; accountsdb has 41 of 300 connections (0.137);
  // accounts 1.4.1 rolled out at 47 min and changed nothing.
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'holdout-4',
    message: 'Is accountsdb itself anywhere near its connection limit? Give me a percentage.',
    expect: { number: j(sum(sel(PG_ACTIVITY, eq('server', ACCOUNTSDB))), ' / ', max(sel(PG_MAX_CONNECTIONS, eq('server', ACCOUNTSDB)))), tolerance: 0.25 },
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'holdout-4',
    message: 'accounts 1.4.1 went out a few minutes before this started. Should we just roll it back?',
    expect: { contains: ['HikariPool-1'] },
  },

  // cart-liveness-slow-redis: sessions-redis answers cart in 2.3 s on average now (2.3 ms an hour
  // ago); cart's liveness probes fail and its containers restart about every minute, the first at
  // 36.7 min before the end (0 restarts at 37, 3 at 36). Memory is normal.
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'holdout-4',
    message: 'Why does the cart service keep restarting? Its memory looks totally normal to me.',
    expect: { contains: ['sessions-redis'] },
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'holdout-4',
    earlier: ['Why does cart keep restarting?'],
    message: 'And when did the restarts start?',
    expect: { at: 37, tolerance: 3 },
  },

  // inventory-liveness-unexplained: inventory's containers fail liveness probes and restart from
  // 36.5 min before the end, 67 restarts in the last 30 min; catalog-sync (1.1 cores) runs on
  // ip-10-0-3-41, which is 50% busy. Logs are not in the data.
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'holdout-4',
    earlier: ['Which node is catalog-sync running on?'],
    message: "How busy is that node's CPU right now?",
    expect: {
      number: j('1 - ', 'avg(', rate5m(sel(NODE_CPU, eq('mode', 'idle'), eq('node', j('ip-10-0-3-41', '.eu-wes', 't-1.', 'compute', '.intern', 'al')))), ')'),
      tolerance: 0.15,
    },
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'holdout-4',
    message: 'How many times have the inventory pods restarted in the last half hour, both of them together?',
    expect: { number: restarts('inventory', '30m'), tolerance: 0.15 },
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'holdout-4',
    message: "What do inventory's logs say right before each restart?",
    expect: { cannot: true },
  },

  // search-noisy-neighbour: video-transcode takes 3.6 cores on ip-10-0-2-34 (98% busy), where
  // search-878b86fb7-m9xrk runs (its p99 2.41 s; the other pod 0.35 s; search overall 2.29 s).
  // image-resizer pins ip-10-0-1-23 (no search pod); log-shipper bursts on ip-10-0-3-41 (74% busy).
  {
    scenario: 'search-noisy-neighbour',
    split: 'holdout-4',
    message: "Which node is the slow search pod on, and what's hogging that node's CPU?",
    expect: { contains: ['ip-10-0-2-34', 'video-transcode'] },
  },
  {
    scenario: 'search-noisy-neighbour',
    split: 'holdout-4',
    earlier: ['Why is search slow?'],
    message: 'image-resizer is pinning another node at 98% too. Does that one matter for search?',
    expect: { contains: ['video-transcode'] },
  },
  {
    scenario: 'search-noisy-neighbour',
    split: 'holdout-4',
    message: "Which search pod is the slow one, and what's that pod's p99 right now?",
    expect: {
      all: [{ contains: [SEARCH_M9XRK] }, { number: p99([eq('job', 'search'), eq('pod', SEARCH_M9XRK)]), tolerance: 0.15 }],
    },
  },

  // billing-timeout-config-change: the changes list reports cfg-8841 by grace at 37 min before the
  // end (ledger client timeout 2s -> 150ms); billing's 5xx (504) ratio 0.20 from 36 min.
  {
    scenario: 'billing-timeout-config-change',
    split: 'holdout-4',
    earlier: ['What changed on billing right before it started failing?'],
    message: 'Who pushed that change?',
    expect: { contains: ['grace'] },
  },
  {
    scenario: 'billing-timeout-config-change',
    split: 'holdout-4',
    message: "What fraction of billing's requests are failing now, and since when?",
    expect: {
      all: [
        { number: errorRatio('billing'), tolerance: 0.1 },
        { at: 36, tolerance: 3 },
      ],
    },
  },
  {
    scenario: 'billing-timeout-config-change',
    split: 'holdout-4',
    message: 'Did anything get changed on billing before this? A deploy, a config push, anything?',
    expect: { contains: ['150ms'] },
  },

  // archive-down-reported-deploy-red-herring: archive's targets go down 36 min before the end;
  // statements fails 60% of requests (connection_refused to archive). The changes list reports a
  // statements asset deploy at 48 min that changed nothing. No pdf-renderer service exists.
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'holdout-4',
    message: 'There was a statements deploy about ten minutes before this started. Is that deploy what broke it?',
    expect: { contains: ['archive'] },
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'holdout-4',
    earlier: ['When did statements start failing?'],
    message: 'And what time did that statements deploy go out?',
    expect: { at: 48, tolerance: 3 },
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'holdout-4',
    message: "what's the error rate of the pdf-renderer service?",
    expect: { asks: true },
  },
];
