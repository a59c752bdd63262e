import type { QuestionCase } from '../conversation-cases';

/**
 * A held-out set of conversation questions (split 'holdout-3', part A: the first twelve scenarios of
 * SCENARIOS). Written apart from the engine, before the code it scores, and never tuned on: only its
 * total score is read. Every `number` below was checked against the scenario's staged data at its end.
 */

// The PromQL below is put together from short pieces (metric names, label matchers, functions).
const sel = (metric: string, ...matchers: string[]): string => `${metric}{${matchers.join(', ')}}`;
const eq = (label: string, value: string): string => `${label}="${value}"`;
const match = (label: string, value: string): string => `${label}=~"${value}"`;
const offset = (ago: string): string => (ago ? ` ${'offset'} ${ago}` : '');
const call = (fn: string, ...args: string[]): string => `${fn}(${args.join(', ')})`;
const sum = (expr: string): string => call('sum', expr);
const max = (expr: string): string => call('max', expr);
const rate = (selector: string, ago = ''): string => call('rate', `${selector}[5m]${ago}`);
const increase = (selector: string, range = '5m'): string => call('increase', `${selector}[${range}]`);
const ratio = (numerator: string, denominator: string): string => [numerator, denominator].join(' / ');

const REQUESTS = 'http_requests_total';
const LIMITS = 'kube_pod_container_resource_limits';
const RESTARTS = 'kube_pod_container_status_restarts_total';
const CLIENT_LATENCY = 'http_client_request_duration_seconds';

const errorRatio = (job: string, route?: string): string => {
  const matchers = [eq('job', job), ...(route ? [eq('route', route)] : [])];
  return ratio(sum(rate(sel(REQUESTS, ...matchers, match('code', '5..')))), sum(rate(sel(REQUESTS, ...matchers))));
};

const p99 = (job: string, ago = ''): string =>
  call(['histogram', 'quantile'].join('_'), '0.99', `${'sum by'} (le) (${rate(sel('http_request_duration_seconds_bucket', eq('job', job)), offset(ago))})`);

const throttled = (container: string): string =>
  ratio(
    sum(increase(sel('container_cpu_cfs_throttled_periods_total', eq('container', container)))),
    sum(increase(sel('container_cpu_cfs_periods_total', eq('container', container)))),
  );

const peerMeanLatency = (job: string, peer: string, ago = ''): string => {
  const matchers = [eq('job', job), eq('peer', peer)];
  return ratio(sum(rate(sel(`${CLIENT_LATENCY}_sum`, ...matchers), offset(ago))), sum(rate(sel(`${CLIENT_LATENCY}_count`, ...matchers), offset(ago))));
};

export const THIRD_HOLDOUT_QUESTIONS_A: QuestionCase[] = [
  // checkout-bad-version: checkout 2.15.0 rolled out 38 min before the end; its pods fail 11% of POST /api/checkout (7.7% of all checkout requests) with 500; no changes reported.
  { scenario: 'checkout-bad-version', split: 'holdout-3', message: 'checkout err rate rn?', expect: { number: errorRatio('checkout'), tolerance: 0.2 } },
  { scenario: 'checkout-bad-version', split: 'holdout-3', message: 'When did checkout start throwing 500 errors?', expect: { at: 38, tolerance: 3 } },
  {
    scenario: 'checkout-bad-version',
    split: 'holdout-3',
    message: 'which pods got 2.15.0 and what nodes are they on',
    expect: { podsOf: { workload: 'checkout', version: '2.15.0' } },
  },
  {
    scenario: 'checkout-bad-version',
    split: 'holdout-3',
    earlier: ["what's the error rate on checkout at the moment?"],
    message: 'is that worse than before 2.15.0 went out?',
    expect: { direction: 'up' },
  },
  {
    scenario: 'checkout-bad-version',
    split: 'holdout-3',
    message: 'Support is asking: are customers getting charged twice because of the checkout errors?',
    expect: { cannot: true },
  },

  // search-slow-version-chronic-alert: search 3.3.0 rolled out 40 min before the end, /api/search 4.5x slower (p99 ~1.95 s now, ~0.35 s an hour ago); /api/suggest unchanged (~0.09 s); recommendations throttled ~55% all along (chronic CPUThrottlingHigh).
  { scenario: 'search-slow-version-chronic-alert', split: 'holdout-3', message: 'search p99 right now?', expect: { number: p99('search'), tolerance: 0.2 } },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'holdout-3',
    earlier: ['search p99 right now?'],
    message: 'what was it an hour ago',
    expect: { number: p99('search', '1h'), tolerance: 0.2 },
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'holdout-3',
    message: 'Which version is search running now, and when did it go out?',
    expect: { all: [{ contains: ['3.3.0'] }, { at: 40, tolerance: 3 }] },
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'holdout-3',
    message: 'that CPUThrottlingHigh on recommendations has been going off all morning - how throttled is it actually?',
    expect: { number: throttled('recommendations'), tolerance: 0.2 },
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'holdout-3',
    message: 'did /api/suggest get slower after the search rollout as well, or only /api/search?',
    expect: { direction: 'about the same' },
  },

  // inventory-down-harmless-rollout: inventory stops answering 36 min before the end (up 0, healthz probe fails); checkout's calls to it are all connection_refused (~26/s), 62% of checkout requests fail with 503; checkout 2.14.4 rolled out 44 min before the end and changed nothing.
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'holdout-3',
    message: 'checkout has been throwing 503s since the 2.14.4 deploy. is the deploy the culprit?',
    expect: { contains: ['inventory'] },
  },
  { scenario: 'inventory-down-harmless-rollout', split: 'holdout-3', message: 'inventory down since what time?', expect: { at: 36, tolerance: 3 } },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'holdout-3',
    message: 'how many calls per second from checkout to inventory are failing right now',
    expect: { number: 'sum(rate(http_client_requests_total{job="checkout", peer="inventory", code!="200"}[5m]))', tolerance: 0.2 },
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'holdout-3',
    message: 'list the checkout pods on 2.14.4 w/ their nodes pls',
    expect: { podsOf: { workload: 'checkout', version: '2.14.4' } },
  },
  { scenario: 'inventory-down-harmless-rollout', split: 'holdout-3', message: 'is warehouse-api healthy?', expect: { asks: true } },

  // orders-memory-leak-oom: orders' working set climbs from 75 min before the end to its 1 GiB limit; both pods first OOMKilled ~40 min before the end, 12 restarts in all since.
  { scenario: 'orders-memory-leak-oom', split: 'holdout-3', message: 'why do the orders pods keep restarting?', expect: { contains: ['OOMKilled'] } },
  {
    scenario: 'orders-memory-leak-oom',
    split: 'holdout-3',
    message: 'how many restarts has orders had in the last hour',
    expect: { number: sum(increase(sel(RESTARTS, eq('container', 'orders')), '1h')), tolerance: 0.2 },
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: 'holdout-3',
    message: "What's the memory limit set on the orders containers?",
    expect: { number: 'max(container_spec_memory_limit_bytes{container="orders"})', tolerance: 0.05 },
  },
  { scenario: 'orders-memory-leak-oom', split: 'holdout-3', message: 'when was orders first OOM killed?', expect: { at: 40, tolerance: 3 } },
  {
    scenario: 'orders-memory-leak-oom',
    split: 'holdout-3',
    message: "what did orders' memory look like this time yesterday? trying to see if this happens every day",
    expect: { cannot: true },
  },

  // media-disk-full-flapping-alert: /var/lib/media (200 GiB) on ip-10-0-2-34 full from 37 min before the end (~0.94 GB free an hour ago); 97% of media's POST /api/uploads fail with 507; a frontend target flaps in the same group.
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'holdout-3',
    message: 'which disk is full and on which node?',
    expect: { contains: ['/var/lib/media', 'ip-10-0-2-34'] },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'holdout-3',
    earlier: ['which disk is full and on which node?'],
    message: 'when did it reach 100%',
    expect: { at: 37, tolerance: 3 },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'holdout-3',
    message: 'what % of media uploads are failing rn',
    expect: { number: errorRatio('media', '/api/uploads'), tolerance: 0.1 },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'holdout-3',
    message: 'How much free space was left on /var/lib/media an hour ago?',
    expect: { number: 'node_filesystem_avail_bytes{mountpoint="/var/lib/media"} offset 1h', tolerance: 0.15 },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'holdout-3',
    message: 'how many users lost photos they uploaded during this?',
    expect: { cannot: true },
  },

  // search-traffic-surge: /api/search traffic x6 from 39 min before the end (search ~218 req/s now, ~42 an hour ago); search uses ~4 cores of its 2x2 limit; frontend 5.2.1 rolled out 5 min before, unrelated.
  {
    scenario: 'search-traffic-surge',
    split: 'holdout-3',
    message: 'search rps now vs an hour ago?',
    expect: { all: [{ number: 'sum(rate(http_requests_total{job="search"}[5m]))', tolerance: 0.15 }, { direction: 'up' }] },
  },
  {
    scenario: 'search-traffic-surge',
    split: 'holdout-3',
    message: 'did the frontend 5.2.1 deploy cause the search slowness?',
    expect: { contains: ['/api/search'] },
  },
  { scenario: 'search-traffic-surge', split: 'holdout-3', message: 'When did the spike in search traffic start?', expect: { at: 39, tolerance: 3 } },
  {
    scenario: 'search-traffic-surge',
    split: 'holdout-3',
    message: 'how many cpu cores is search burning in total right now',
    expect: { number: sum(rate(sel('container_cpu_usage_seconds_total', eq('container', 'search')))), tolerance: 0.1 },
  },
  {
    scenario: 'search-traffic-surge',
    split: 'holdout-3',
    message: 'can you get me the IP or user agent of whatever is hammering search so we can block it?',
    expect: { cannot: true },
  },

  // cart-config-crashloop: cart-config edited 38 min before the end; the rollout's one new cart pod (on ip-10-0-1-23, same version 4.1.2) crash loops with Error, 12 restarts; cart's error rate unchanged; no changes reported.
  {
    scenario: 'cart-config-crashloop',
    split: 'holdout-3',
    message: 'which cart pod is crashlooping and what node is it on',
    expect: { contains: ['ip-10-0-1-23'] },
  },
  {
    scenario: 'cart-config-crashloop',
    split: 'holdout-3',
    earlier: ['which cart pod is crashlooping and what node is it on'],
    message: 'how many times has it restarted?',
    expect: { number: max(sel(RESTARTS, eq('container', 'cart'))), tolerance: 0.15 },
  },
  {
    scenario: 'cart-config-crashloop',
    split: 'holdout-3',
    message: 'What changed right before cart started crashing, and when?',
    expect: { all: [{ contains: ['cart-config'] }, { at: 38, tolerance: 3 }] },
  },
  { scenario: 'cart-config-crashloop', split: 'holdout-3', message: 'who edited cart-config?', expect: { cannot: true } },
  {
    scenario: 'cart-config-crashloop',
    split: 'holdout-3',
    message: "has cart's error rate changed since the crash loop began?",
    expect: { direction: 'about the same' },
  },

  // orders-worker-scaled-to-zero: orders-worker scaled 2 -> 0 at 44 min before the end; the orders queue has no consumers, its oldest message ~2640 s old; frontend-d7c6b5d7c-stjnb flaps (FrontendTargetDown).
  { scenario: 'orders-worker-scaled-to-zero', split: 'holdout-3', message: 'why is the orders queue piling up?', expect: { contains: ['orders-worker'] } },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'holdout-3',
    message: 'when did orders-worker go to 0 replicas',
    expect: { at: 44, tolerance: 3 },
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'holdout-3',
    message: 'how old is the oldest message sitting in the orders queue?',
    expect: { number: 'max(time() - rabbitmq_queue_head_message_timestamp{queue="orders"})', tolerance: 0.1 },
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'holdout-3',
    earlier: ['what happened to orders-worker?'],
    message: 'who scaled it down, and was that on purpose?',
    expect: { cannot: true },
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'holdout-3',
    message: 'FrontendTargetDown paged first - which frontend pod is the one flapping?',
    expect: { contains: ['frontend-d7c6b5d7c-stjnb'] },
  },

  // checkout-slow-partner-bank: partner-bank answers payments ~12x slower from 37 min before the end (mean ~1.26 s per call now); reports-batch takes the CPU of checkout's node ip-10-0-2-34 (98% busy).
  { scenario: 'checkout-slow-partner-bank', split: 'holdout-3', message: 'checkout is slow af, root cause?', expect: { contains: ['partner-bank'] } },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'holdout-3',
    message: "What's the average latency of payments' calls to partner-bank right now?",
    expect: { number: peerMeanLatency('payments', 'partner-bank'), tolerance: 0.15 },
  },
  { scenario: 'checkout-slow-partner-bank', split: 'holdout-3', message: 'what about fraud-check, is that slow too?', expect: { asks: true } },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'holdout-3',
    message: "what's eating the CPU on ip-10-0-2-34 and how busy is that node?",
    expect: {
      all: [
        { contains: ['reports-batch'] },
        { number: '1 - avg(rate(node_cpu_seconds_total{node="ip-10-0-2-34.eu-west-1.compute.internal", mode="idle"}[5m]))', tolerance: 0.05 },
      ],
    },
  },
  { scenario: 'checkout-slow-partner-bank', split: 'holdout-3', message: 'when did partner-bank get slow?', expect: { at: 37, tolerance: 3 } },

  // recommendations-cpu-throttled: a rollout 40 min before the end lowers recommendations' CPU limit 1 -> 0.3 cores (same version 0.9.4); ~74% of CFS periods throttled now (0.5% an hour ago).
  { scenario: 'recommendations-cpu-throttled', split: 'holdout-3', message: 'recomendations p99?', expect: { asksFirst: 'recommendations' } },
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'holdout-3',
    message: 'what CPU limit do the recommendations pods have now?',
    expect: { number: max(sel(LIMITS, eq('container', 'recommendations'), eq('resource', 'cpu'))), tolerance: 0.05 },
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'holdout-3',
    earlier: ['what CPU limit do the recommendations pods have now?'],
    message: 'and before the rollout?',
    expect: { number: max(sel(LIMITS, eq('container', 'recommendations'), eq('resource', 'cpu')) + offset('1h')), tolerance: 0.05 },
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'holdout-3',
    message: "what fraction of recommendations' CFS periods are being throttled?",
    expect: { number: throttled('recommendations'), tolerance: 0.15 },
  },
  { scenario: 'recommendations-cpu-throttled', split: 'holdout-3', message: 'When did recommendations latency go up?', expect: { at: 40, tolerance: 3 } },

  // node-not-ready: ip-10-0-3-41 NotReady (node-exporter down) from 36 min before the end; its cart pod cart-d7b5fbc6d-tk7ck stops answering; frontend's calls to cart time out, ~15% of frontend requests fail with 502.
  { scenario: 'node-not-ready', split: 'holdout-3', message: 'which node went down?', expect: { contains: ['ip-10-0-3-41'] } },
  {
    scenario: 'node-not-ready',
    split: 'holdout-3',
    earlier: ['which node went down?'],
    message: 'since what time?',
    expect: { at: 36, tolerance: 3 },
  },
  { scenario: 'node-not-ready', split: 'holdout-3', message: 'current frontend 5xx ratio', expect: { number: errorRatio('frontend'), tolerance: 0.15 } },
  {
    scenario: 'node-not-ready',
    split: 'holdout-3',
    message: 'Which cart pod was running on the node that died?',
    expect: { contains: ['cart-d7b5fbc6d-tk7ck'] },
  },
  {
    scenario: 'node-not-ready',
    split: 'holdout-3',
    message: 'was it a hardware failure on the AWS side? did they open a ticket with us?',
    expect: { cannot: true },
  },

  // partner-bank-certificate-expired: the certificate of api.partner-bank.example expired 35 min before the end; every payments call to partner-bank fails with tls_error (~34k in 30 min); 97% of payments requests fail.
  { scenario: 'partner-bank-certificate-expired', split: 'holdout-3', message: 'why is payments failing?', expect: { contains: ['partner-bank'] } },
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'holdout-3',
    message: 'when exactly did the partner bank cert expire?',
    expect: { at: 35, tolerance: 2 },
  },
  { scenario: 'partner-bank-certificate-expired', split: 'holdout-3', message: 'paymnets error % now', expect: { asksFirst: 'payments' } },
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'holdout-3',
    message: 'how many calls to partner-bank have failed in the last 30 minutes?',
    expect: { number: 'sum(increase(http_client_requests_total{job="payments", peer="partner-bank", code!="200"}[30m]))', tolerance: 0.15 },
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'holdout-3',
    message: 'When is partner-bank going to renew the cert?',
    expect: { cannot: true },
  },
];
