import type { QuestionCase } from './conversation-cases';

/**
 * Development questions in the voice of an incident commander running the incident in a chat:
 * long conversations (most cases carry two to four earlier messages the final one leans on),
 * summaries to check understanding, timelines, "what next", "is it fixed", compound questions,
 * a few misspelled service names, two names the data does not know, and a few questions the
 * data cannot answer.
 *
 * Written from eval/scenarios.ts and the generators only (never from the service's code), and
 * every number and time checked against each scenario staged in a real Prometheus with
 * /tmp/tools/stage.js and q.sh at the data's end (the values are noted above each scenario's
 * cases; `Nm` = N minutes before the end).
 */

const MIN = '[5m]';

/** The selector `{job="checkout"}` of a job's series, with the further matchers of `sel` and `extra` (each such as `, route="/api/checkout"`). */
const ofJob = (job: string, sel = '', extra = ''): string => `{job="${job}"${sel}${extra}}`;

/** Ratio of 5xx among a job's requests (`sel` adds matchers, `off` a time shift such as HOUR_AGO). */
const errorRatio = (job: string, sel = '', off = ''): string =>
  `sum(rate(http_requests_total${ofJob(job, sel, ', code=~"5.."')}${MIN}${off})) / sum(rate(http_requests_total${ofJob(job, sel)}${MIN}${off}))`;

/** The p99 of a job's served requests, seconds. */
const p99 = (job: string, sel = '', off = ''): string =>
  `histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket${ofJob(job, sel)}${MIN}${off})))`;

/** The mean latency of a job's calls to a peer, seconds. */
const peerMean = (job: string, peer: string, off = ''): string => {
  const of = ofJob(job, `, peer="${peer}"`);
  return `sum(rate(http_client_request_duration_seconds_sum${of}${MIN}${off})) / sum(rate(http_client_request_duration_seconds_count${of}${MIN}${off}))`;
};

/** CPU cores a container uses, all its pods together. */
const cores = (container: string): string => {
  const of = `{container="${container}"}`;
  return `sum(rate(container_cpu_usage_seconds_total${of}${MIN}))`;
};

/** The share of a container's CFS periods that were throttled (`off` as for errorRatio). */
const throttled = (container: string, off = ''): string => {
  const of = `{container="${container}"}`;
  return `sum(increase(container_cpu_cfs_throttled_periods_total${of}${MIN}${off})) / sum(increase(container_cpu_cfs_periods_total${of}${MIN}${off}))`;
};

/** A container's limit of `resource` (cores or bytes), the largest of its pods' (`off` as for errorRatio). */
const limit = (container: string, resource: 'cpu' | 'memory', off = ''): string => {
  const of = `{container="${container}", resource="${resource}"}`;
  return `max(kube_pod_container_resource_limits${of}${off})`;
};

/** A pod's name: its workload, its pod template's hash and its own suffix. */
const pod = (workload: string, hash: string, suffix: string): string => [workload, hash, suffix].join('-');

/** Container restarts of a workload's pods over the last `window`. */
const restartsOver = (container: string, window: string): string =>
  `sum(increase(kube_pod_container_status_restarts_total{container="${container}"}[${window}]))`;

/** 5xx answers of a job over the last `window`. */
const failedOver = (job: string, window: string): string => `sum(increase(http_requests_total{job="${job}", code=~"5.."}[${window}]))`;

/** PromQL's `offset` modifier reading an hour back, appended to a range or a selector. */
const HOUR_AGO = ['', 'offset', '60m'].join(' ');

export const IC_DEV_CASES: QuestionCase[] = [
  // checkout-bad-version: 2.15.0 on all three checkout pods from 38m (5xx from 38-37m); error ratio
  // 0.077 overall, 0.110 on POST /api/checkout; p99 0.785 s now vs 0.782 s 50m ago (unchanged).
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    earlier: ["checkout just paged for errors. what's its error rate right now?", 'and that is all checkout pods?'],
    message: "is that spread over every route or is it the checkout POST? what's POST /api/checkout on its own?",
    expect: { number: errorRatio('checkout', ', route="/api/checkout"'), tolerance: 0.15 },
  },
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    earlier: ['which version is checkout running now?', 'when did that one go out?'],
    message: 'ok and which pods got it, on which nodes?',
    expect: { podsOf: { workload: 'checkout', version: '2.15.0' } },
  },
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    message: "for the timeline: checkout's error rate right now, and what time did the errors start?",
    expect: {
      all: [
        { number: errorRatio('checkout'), tolerance: 0.15 },
        { at: 38, tolerance: 3 },
      ],
    },
  },
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    earlier: ['checkout is failing requests since the rollout', 'is it only the new pods failing?'],
    message: "has checkout's latency moved at all, or is this purely errors?",
    expect: { direction: 'about the same' },
  },

  // search-slow-version-chronic-alert: search 3.3.0 from 40m, p99 1.95 s now vs 0.35 s 60m ago
  // (jump at 39-38m); traffic 42.0 req/s now vs 42.0 an hour ago; recommendations throttled all along.
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'dev',
    earlier: ["SearchLatencyHigh is firing. what's the p99 of search right now?", 'is it the whole of search or one route?'],
    message: 'what was it one hour ago?',
    expect: { number: p99('search', '', HOUR_AGO), tolerance: 0.2 },
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'dev',
    earlier: ["there's also a CPUThrottlingHigh on recommendations that's been going for hours", 'is search slow on every route or just one?'],
    message: "so I don't chase the throttling alert: what actually made search slow? which version should we look at?",
    expect: { contains: ['3.3.0'] },
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'dev',
    message: "search's p99 is near 2 seconds. did search get more traffic than before, or is it the same load just answered slower?",
    expect: { direction: 'about the same' },
  },

  // inventory-down-harmless-rollout: inventory pods up 0 from 36m (probe fails too); checkout 2.14.4
  // rollout from 44m; checkout error ratio 0.621, calls to inventory all connection_refused.
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'dev',
    earlier: ['checkout is failing about 60% of its requests, what is going on?', 'what are its calls to inventory returning?', 'is inventory up?'],
    message: "so checkout's fine on its own and it's inventory. from what time has inventory been down?",
    expect: { at: 36, tolerance: 3 },
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'dev',
    earlier: ["checkout's error rate?", 'checkout got a deploy just before this, 2.14.4 I think'],
    message: 'so was it the deploy or not? what is checkout actually failing on?',
    expect: { contains: ['inventory'] },
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'dev',
    message: 'writing the timeline: when did the checkout rollout start, and when did inventory go down?',
    expect: {
      all: [
        { at: 44, tolerance: 2 },
        { at: 36, tolerance: 2 },
      ],
    },
  },

  // orders-memory-leak-oom: orders working set climbs from 75m; first OOMKills at 41-40m, then every
  // few minutes (8 restarts in the last 30m, 6 per pod in all); memory limit 1 GiB.
  {
    scenario: 'orders-memory-leak-oom',
    split: 'dev',
    message: 'how many restarts on ordrs in the last 30 minutes?',
    expect: { asksFirst: 'orders' },
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: 'dev',
    earlier: ['KubePodRestartingOften on orders. why does it keep restarting?', 'is it OOM?', 'both orders pods?'],
    message: 'ok and how long has that been going on? when did the first OOM kill hit?',
    expect: { at: 40.5, tolerance: 2.5 },
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: 'dev',
    message: "orders containers keep getting OOMKilled. what is orders' memory limit set to?",
    expect: { number: limit('orders', 'memory'), tolerance: 0.05 },
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: 'dev',
    message: 'orders is OOMing every few minutes. did somebody push a change to orders before this started? who was it?',
    expect: { cannot: true },
  },

  // media-disk-full-flapping-alert: /var/lib/media on ip-10-0-2-34 at 0 bytes free from 37m; media
  // uploads error ratio 0.970 (507); GET /api/media/{id} ~0.0008 before and after; frontend target
  // flapped 37-30m.
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'dev',
    earlier: ['first page was FrontendTargetDown and now MediaUploadsFailing. are those the same thing?', 'what status are the uploads failing with?'],
    message: "what's actually making the uploads fail? which node and which mount?",
    expect: { contains: ['ip-10-0-2-34', '/var/lib/media'] },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'dev',
    message: "what's the error rate on media uploads right now?",
    expect: { number: errorRatio('media', ', route="/api/uploads"'), tolerance: 0.1 },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'dev',
    earlier: ["what's the upload error rate?", 'and how long has that been going on?', "ok so it's the disk"],
    message: 'and the read side, GET /api/media/{id}, has its error rate changed?',
    expect: { direction: 'about the same' },
  },

  // search-traffic-surge: /api/search 211.5 req/s now vs 36.1 req/s 60m ago (rise from 39m); search
  // p99 4.5 s; search CPU 3.97 cores (1.05 an hour ago); frontend 5.2.1 rollout from 44m.
  {
    scenario: 'search-traffic-surge',
    split: 'dev',
    message: "search's p99 is over 4 s. give me /api/search traffic now and what it was an hour ago",
    expect: {
      all: [
        { number: `sum(rate(http_requests_total${ofJob('search', ', route="/api/search"')}${MIN}))`, tolerance: 0.15 },
        { number: `sum(rate(http_requests_total${ofJob('search', ', route="/api/search"')}${MIN}${HOUR_AGO}))`, tolerance: 0.15 },
      ],
    },
  },
  {
    scenario: 'search-traffic-surge',
    split: 'dev',
    message: 'search is slow, is it CPU? how many CPU cores is search burning right now, all pods together?',
    expect: { number: cores('search'), tolerance: 0.15 },
  },
  {
    scenario: 'search-traffic-surge',
    split: 'dev',
    earlier: ['frontend rolled 5.2.1 just before this, right?', 'and search got slow a few minutes after that'],
    message: 'so was it the frontend deploy or not? which route is driving this?',
    expect: { contains: ['/api/search'] },
  },

  // cart-config-crashloop: cart-config edited at 38m (frontend-config untouched); the new pod
  // cart-6cdffd5b8-z2njf (ip-10-0-1-23) crash loops, 12 restarts, Error; old cart pods fine.
  {
    scenario: 'cart-config-crashloop',
    split: 'dev',
    earlier: ['KubePodCrashLooping on cart. which pod is it?', 'why is it crashing?'],
    message: 'how many times did it restart so far?',
    expect: { number: 'sum (kube_pod_container_status_restarts_total{container="cart"})', tolerance: 0.15 },
  },
  {
    scenario: 'cart-config-crashloop',
    split: 'dev',
    message: 'what changed just before cart began crash looping?',
    expect: { contains: ['cart-config'] },
  },
  {
    scenario: 'cart-config-crashloop',
    split: 'dev',
    earlier: ['cart has a pod crash looping', 'are the other cart pods ok?'],
    message: 'is cart-sessions-worker affected as well?',
    expect: { asks: true },
  },

  // orders-worker-scaled-to-zero: orders-worker desired replicas 0 (2 an hour ago), the orders queue
  // has 0 consumers from 44-43m and 11225 ready messages; frontend target flapped 35-28m.
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'dev',
    earlier: ['QueueMessagesStale on orders. is anything consuming the orders queue?', 'how many messages are waiting?'],
    message: 'from what time on? when did the consumers go away?',
    expect: { at: 44, tolerance: 3 },
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'dev',
    earlier: ['first page was a FrontendTargetDown', 'is frontend still flapping?', 'and now the orders queue is backing up'],
    message: 'are those related? what do we have to fix to get the queue moving again?',
    expect: { contains: ['orders-worker'] },
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'dev',
    earlier: ['the orders queue has no consumers', 'so orders-worker is at zero replicas?'],
    message: 'who scaled that down?',
    expect: { cannot: true },
  },

  // checkout-slow-partner-bank: partner-bank calls slow from 37m (payments→partner-bank p99 4.69 s);
  // payments p99 4.77 s (0.47 s 60m ago); checkout p99 4.80 s; reports-batch pegs ip-10-0-2-34 from 40m.
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    earlier: ["CheckoutLatencyHigh. what's checkout's p99?", 'is it payments?'],
    message: "and what's payments waiting on? what's the p99 of its calls to partner-bank?",
    expect: {
      number: `histogram_quantile(0.99, sum by (le) (rate(http_client_request_duration_seconds_bucket${ofJob('payments', ', peer="partner-bank"')}${MIN})))`,
      tolerance: 0.15,
    },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    earlier: ['checkout is slow', "there's a batch job pegging one of the checkout nodes"],
    message: "is that batch job what's slowing checkout, or is it something else?",
    expect: { contains: ['partner-bank'] },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    message: 'what time did partner-bank start answering slowly?',
    expect: { at: 37, tolerance: 2.5 },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    earlier: ["what's checkout's p99?", 'which checkout route is slow?', "so it's the checkout POST, the one that calls payments"],
    message: "has payments' latency gone up too?",
    expect: { direction: 'up' },
  },

  // recommendations-cpu-throttled: new pods (same 0.9.4) from 40m with a 0.3-core limit (1 before);
  // throttled periods 0.739 now vs 0.0048 60m ago; p99 1.89 s now vs 0.258 s 60m ago.
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'dev',
    earlier: ["RecommendationsLatencyHigh. what's its p99 right now?", 'did anything roll out?'],
    message: 'and one hour ago?',
    expect: { number: p99('recommendations', '', HOUR_AGO), tolerance: 0.2 },
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'dev',
    earlier: ['did recommendations get a new version?', 'but it did roll out new pods?'],
    message: "same version then. so what's different on the new pods, what CPU limit do they have?",
    expect: { number: limit('recommendations', 'cpu'), tolerance: 0.1 },
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'dev',
    message: "what's recomendations' CPU usage right now?",
    expect: { asksFirst: 'recommendations' },
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'dev',
    message: "what share of recommendations' CFS periods are throttled now, and what was that share an hour ago?",
    expect: {
      all: [
        { number: throttled('recommendations'), tolerance: 0.15 },
        { number: throttled('recommendations', HOUR_AGO), tolerance: 0.25 },
      ],
    },
  },

  // node-not-ready: ip-10-0-3-41 Ready false from 36m (node-exporter up 0); its cart pod
  // cart's pod -tk7ck is up 0; frontend error ratio 0.151 (502s, 0.0008 40m ago); a third of
  // frontend's calls to cart time out.
  {
    scenario: 'node-not-ready',
    split: 'dev',
    earlier: ["frontend is throwing 502s. what's its error rate?", 'is it cart?'],
    message: 'which cart pod is the problem and what node is it on?',
    expect: { contains: [['cart-d7b5fbc6d', 'tk7ck'].join('-'), 'ip-10-0-3-41'] },
  },
  {
    scenario: 'node-not-ready',
    split: 'dev',
    message: "what's frontend's error rate now and what time did it start?",
    expect: {
      all: [
        { number: errorRatio('frontend'), tolerance: 0.15 },
        { at: 36, tolerance: 2 },
      ],
    },
  },
  {
    scenario: 'node-not-ready',
    split: 'dev',
    message: "what fraction of frontend's calls to cart are failing right now?",
    expect: {
      number: `sum(rate(http_client_requests_total${ofJob('frontend', ', peer="cart"', ', code!="200"')}${MIN})) / sum(rate(http_client_requests_total${ofJob('frontend', ', peer="cart"')}${MIN}))`,
      tolerance: 0.15,
    },
  },

  // partner-bank-certificate-expired: api.partner-bank.example's certificate expired at 35m (probe
  // fails); payments error ratio 0.971 (tls_error on every partner-bank call); 33153 failed payments
  // requests over the last 30m; recommendations throttled all along.
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'dev',
    earlier: ["payments is failing nearly everything. what's the error rate?", 'what are its calls to partner-bank failing with?'],
    message: 'so when did the partner-bank cert expire?',
    expect: { at: 35, tolerance: 2 },
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'dev',
    earlier: ["PaymentsHighErrorRate. what's payments' error rate?", 'the CPUThrottlingHigh on recommendations is firing too'],
    message: "is that part of this? what's actually breaking payments?",
    expect: { contains: ['partner-bank'] },
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'dev',
    earlier: ["partner-bank's certificate expired", 'payments fails every call to them'],
    message: 'when will partner-bank have a renewed certificate in place?',
    expect: { cannot: true },
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'dev',
    message: 'for the impact line: how many payments requests failed over the last 30 minutes?',
    expect: { number: failedOver('payments', '30m'), tolerance: 0.15 },
  },

  // ordersdb-connections-exhausted: ordersdb 199 of 200 connections (160 idle in transaction; 44 an
  // hour ago, climbing from 44m); orders 2.3.1 rollout from 46m; orders 5xx from 40m, ratio 0.35.
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'dev',
    earlier: ["what's orders' error rate?", 'and its latency?', 'orders rolled out 2.3.1 just before, is that it?'],
    message: "so was it the deploy or not? what's orders failing on?",
    expect: { contains: ['ordersdb'] },
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'dev',
    message: 'when did 2.3.1 go out on orders, and when did orders start throwing errors?',
    expect: {
      all: [
        { at: 46, tolerance: 2 },
        { at: 40, tolerance: 2 },
      ],
    },
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'dev',
    earlier: ['orders is failing about a third of its requests', 'and ordersdb is sitting at max connections'],
    message: 'what state are those connections in?',
    expect: { contains: ['idle in transaction'] },
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'dev',
    message: 'ordersdb is full of connections idle in transaction. which query keeps those transactions open?',
    expect: { cannot: true },
  },

  // sessions-redis-down-flapping-alert: redis_up 0 for sessions-redis from 36m (its exporter up);
  // cart error ratio 0.90 on both routes; frontend target flapped 36-29m.
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'dev',
    earlier: ['first page was FrontendTargetDown, now CartHighErrorRate. same thing?', "what's cart's error rate?"],
    message: 'ok so what is cart actually failing on?',
    expect: { contains: ['sessions-redis'] },
  },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'dev',
    message: 'sessions-redis went down at what time?',
    expect: { at: 36, tolerance: 2 },
  },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'dev',
    earlier: ["what's cart's error rate?", "so cart's at about 90% errors"],
    message: "both routes or just one? what's the error rate on POST /api/cart/items?",
    expect: { number: errorRatio('cart', ', route="/api/cart/items"'), tolerance: 0.1 },
  },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'dev',
    earlier: ['sessions-redis is down', 'cart is failing because of it'],
    message: 'is sessions-memcached ok?',
    expect: { asks: true },
  },

  // payments-bad-version-noisy-neighbour: payments 1.9.0 on both pods from 36m, error ratio 0.200
  // (0.00106 an hour ago, on 1.8.0); ledger-reconcile pegs ip-10-0-3-41 from 40m, where no payments
  // pod runs any more.
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    earlier: ['payments is failing about 20% of requests', 'which version is it on?'],
    message: 'and which pods run that, and where?',
    expect: { podsOf: { workload: 'payments', version: '1.9.0' } },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    earlier: ["what's payments' error rate?", 'is it both payments pods?', "there's a ledger-reconcile job pinning ip-10-0-3-41, is that doing it?"],
    message: 'so what is it then?',
    expect: { contains: ['1.9.0'] },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    message: "payments' error rate now, and what it was an hour ago?",
    expect: {
      all: [
        { number: errorRatio('payments'), tolerance: 0.15 },
        { number: errorRatio('payments', '', HOUR_AGO), tolerance: 0.25 },
      ],
    },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    earlier: ['payments 1.9.0 is failing a fifth of its requests', 'both pods?'],
    message: 'ok, what do we roll it back to?',
    expect: { contains: ['1.8.0'] },
  },

  // checkout-memory-limit-lowered: a same-version (2.14.3) rollout at 40m sets checkout's memory limit
  // to 320 MiB (768 MiB 60m ago); all three new pods OOMKilled and crash looping, 15 restarts in 30m.
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'dev',
    earlier: ['KubePodCrashLooping on checkout. why are they crashing?', 'was there a rollout?', 'same version though?'],
    message: "what's the memory limit on the new pods, and what was it before?",
    expect: {
      all: [
        { number: limit('checkout', 'memory'), tolerance: 0.05 },
        { number: limit('checkout', 'memory', HOUR_AGO), tolerance: 0.05 },
      ],
    },
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'dev',
    message: 'how many restarts across the chckout pods in the last 30 minutes?',
    expect: { asksFirst: 'checkout' },
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'dev',
    earlier: ['is this a new checkout version?', 'so the version is the same as before?'],
    message: "then why are they dying? what's the termination reason?",
    expect: { contains: ['OOMKilled'] },
  },

  // ledger-volume-full-chronic-mount: claim data-ledger (50 GiB, ip-10-0-1-88) at 0 bytes free from
  // 36m; ledger writes fail with 507 (0.95); /var/log/archive on the same node full all along.
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'dev',
    earlier: ["LedgerWritesFailing. what's the error rate on writes?", "there's also a full disk on /var/log/archive on that node"],
    message: "so is it the archive mount or something else that's breaking ledger?",
    expect: { contains: ['data-ledger'] },
  },
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'dev',
    message: 'when did data-ledger run out of space?',
    expect: { at: 36, tolerance: 2 },
  },
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'dev',
    message: 'how big is the data-ledger volume? need it for the resize ticket',
    expect: { number: `max(kubelet_volume_stats_capacity_bytes${'{persistentvolumeclaim="data-ledger"}'})`, tolerance: 0.05 },
  },

  // accounts-pool-exhausted-harmless-rollout: accounts 1.4.1 rollout from 47m; 5xx from 38m (0.30);
  // HikariPool-1 at its max 10 with 30 waiting per pod; accountsdb 41 of 300 connections; p99 3.61 s
  // now vs 0.203 s 60m ago.
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'dev',
    earlier: ["accounts' error rate?", 'is it the 1.4.1 rollout?', 'is accountsdb ok?', 'how many connections does it have?'],
    message: 'then where are the requests getting stuck?',
    expect: { contains: ['HikariPool-1'] },
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'dev',
    message: 'timeline check: when did 1.4.1 roll out on accounts, and when did the errors start?',
    expect: {
      all: [
        { at: 47, tolerance: 2 },
        { at: 38, tolerance: 2 },
      ],
    },
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'dev',
    message: "what's accounts' p99 now versus an hour ago?",
    expect: {
      all: [
        { number: p99('accounts'), tolerance: 0.15 },
        { number: p99('accounts', '', HOUR_AGO), tolerance: 0.2 },
      ],
    },
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'dev',
    message: "what's acounts' error rate?",
    expect: { asksFirst: 'accounts' },
  },

  // cart-liveness-slow-redis: cart's liveness kills from ~37m, 41 restarts per pod (123 in all); cart's
  // calls to sessions-redis average 2.33 s now vs 0.0023 s 60m ago; redis_up stays 1.
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'dev',
    earlier: ['KubePodRestartingOften on cart. which pods?', 'all three of them?'],
    message: 'how many restarts in total across them?',
    expect: { number: 'sum (kube_pod_container_status_restarts_total{container="cart"})', tolerance: 0.15 },
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'dev',
    earlier: ["why's cart restarting, is it OOM?", 'what does the last termination say?'],
    message: "so if it's not memory, what's killing them?",
    expect: { contains: ['sessions-redis'] },
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'dev',
    message: "average latency of cart's calls to sessions-redis, now and one hour ago?",
    expect: {
      all: [
        { number: peerMean('cart', 'sessions-redis'), tolerance: 0.15 },
        { number: peerMean('cart', 'sessions-redis', HOUR_AGO), tolerance: 0.2 },
      ],
    },
  },

  // inventory-liveness-unexplained: inventory's liveness kills from ~36.5m, 67 restarts in the last
  // 30m; catalog-sync (1.1 cores) on ip-10-0-3-41, which is at 50% CPU; version 3.0.7 unchanged.
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'dev',
    message: 'how many restarts has inventory had in the last 30 minutes?',
    expect: { number: restartsOver('inventory', '30m'), tolerance: 0.15 },
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'dev',
    earlier: ['inventory keeps restarting', "there's a catalog-sync job burning CPU on one of its nodes"],
    message: 'is that node actually out of CPU? what % busy is ip-10-0-3-41?',
    expect: {
      number: '1 - avg(rate(node_cpu_seconds_total{node=~"ip-10-0-3-41.*", mode="idle"}[5m]))',
      tolerance: 0.15,
    },
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'dev',
    earlier: ["inventory's liveness probes are failing", 'nothing was deployed?'],
    message: 'what inside inventory is hanging? which code path is stuck?',
    expect: { cannot: true },
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'dev',
    earlier: ["why's inventory restarting?", 'so the kubelet is killing it on liveness'],
    message: 'from what time on? what time was the first restart?',
    expect: { at: 36.5, tolerance: 2 },
  },

  // search-noisy-neighbour: the search pod on ip-10-0-2-34 (seeded name, never rolled) p99 2.41 s,
  // search-878b86fb7-px6bm (ip-10-0-3-41) 0.348 s; video-transcode takes 3.6 cores on ip-10-0-2-34 from 37m; image-resizer
  // saturates ip-10-0-1-23 (no search pod), log-shipper bursts on ip-10-0-3-41.
  {
    scenario: 'search-noisy-neighbour',
    split: 'dev',
    earlier: ["SearchLatencyHigh. what's search's p99?", 'is it both search pods or one?'],
    message: 'which of the search pods is slow, and which node is it on?',
    expect: { contains: [pod('search', '878b86fb7', 'm9xrk'), 'ip-10-0-2-34'] },
  },
  {
    scenario: 'search-noisy-neighbour',
    split: 'dev',
    earlier: ['which search pods are there?', `what's ${pod('search', '878b86fb7', 'm9xrk')}'s p99?`],
    message: 'and the other one?',
    expect: { number: p99('search', ', pod="search-878b86fb7-px6bm"'), tolerance: 0.15 },
  },
  {
    scenario: 'search-noisy-neighbour',
    split: 'dev',
    earlier: ['search is slow only on the pod on ip-10-0-2-34', 'is that node busy?'],
    message: "what's eating cpu on it?",
    expect: { contains: ['video-transcode'] },
  },

  // billing-timeout-config-change: change cfg-8841 by grace at 37m (ledger client timeout 2s ->
  // 150ms); billing 504s from 36m, ratio 0.20, 9836 failed requests over the last 30m.
  {
    scenario: 'billing-timeout-config-change',
    split: 'dev',
    earlier: ["billing's error rate?", 'any deploy?', 'version and restarts unchanged?'],
    message: 'so what changed then, and when?',
    expect: { all: [{ contains: ['150ms'] }, { at: 37, tolerance: 2 }] },
  },
  {
    scenario: 'billing-timeout-config-change',
    split: 'dev',
    earlier: ["what's billing failing on?", 'was there a config push?'],
    message: 'who pushed that?',
    expect: { contains: ['grace'] },
  },
  {
    scenario: 'billing-timeout-config-change',
    split: 'dev',
    message: 'how many billing requests have failed in the last 30 minutes?',
    expect: { number: failedOver('billing', '30m'), tolerance: 0.15 },
  },

  // archive-down-reported-deploy-red-herring: archive pods up 0 from 36m; statements error ratio
  // 0.601 (calls to archive refused); statements-static deploy 2026.11.27-1 by ci-bot at 48m.
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'dev',
    earlier: ["statements' error rate?", 'from what time on?', 'there was a statements deploy just before, was it that?'],
    message: "so was it the deploy or not? what's statements failing on?",
    expect: { contains: ['archive'] },
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'dev',
    message: 'when did the statements deploy happen, and when did archive go down?',
    expect: {
      all: [
        { at: 48, tolerance: 2 },
        { at: 36, tolerance: 2 },
      ],
    },
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'dev',
    earlier: ['what changed before statements started failing?', 'so statements-static got deployed before this started'],
    message: 'who deployed it?',
    expect: { contains: ['ci-bot'] },
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'dev',
    earlier: ['archive is down', 'statements calls it on every request?'],
    message: "and right now, what's statements' error rate?",
    expect: { number: errorRatio('statements'), tolerance: 0.1 },
  },
];
