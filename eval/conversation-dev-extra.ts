import type { QuestionCase } from './conversation-cases';

/**
 * Extra development cases of the conversation feature: follow-up questions an on-call engineer
 * types about an incident (typos, fragments, slang, references to earlier turns, compounds,
 * comparisons), each with what the scenario's data says a correct answer holds.
 *
 * Ratios (error rates, CPU against its limit, node busy) are written as fractions: an answer's
 * "7.8%" is 0.078.
 */

/** The selector `{job="checkout"}` of a job's series, with further matchers (each such as `, route="/api/checkout"`). */
const ofJob = (job: string, ...more: string[]): string => `{job="${job}"${more.join('')}}`;

/** The selector `{container="search"}` of a container's series, with further matchers (each such as `, resource="cpu"`). */
const ofContainer = (container: string, ...more: string[]): string => `{container="${container}"${more.join('')}}`;

/** The share of a job's requests answered 5xx now (optionally of one route). */
const errorRatioNow = (job: string, route?: string): string => {
  const r = route ? `, route="${route}"` : '';
  return `sum(rate(http_requests_total${ofJob(job, r, ', code=~"5.."')}[5m])) / sum(rate(http_requests_total${ofJob(job, r)}[5m]))`;
};

/** A latency quantile of a job's requests now (optionally of one route). */
const quantileNow = (q: number, job: string, route?: string): string => {
  const r = route ? `, route="${route}"` : '';
  return `histogram_quantile(${q}, sum by (le) (rate(http_request_duration_seconds_bucket${ofJob(job, r)}[5m])))`;
};

/** The busy share of a node's CPUs now. */
const nodeBusyNow = (short: string): string => `1 - avg(rate(node_cpu_seconds_total{node=~"${short}.*", mode="idle"}[5m]))`;

export const EXTRA_DEV_CASES: QuestionCase[] = [
  // checkout-bad-version: checkout 2.15.0 from 38 min before the end fails 11% of POST /api/checkout.
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    message: 'checkout erors rn?',
    expect: { number: errorRatioNow('checkout'), tolerance: 0.25 },
  },
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    message: 'when did that start',
    earlier: ['checkout erors rn?'],
    expect: { at: 38, tolerance: 4 },
  },
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    message: 'which checkout pods are on the new version and whats the error rate on /api/checkout',
    expect: {
      all: [{ podsOf: { workload: 'checkout', version: '2.15.0' } }, { number: errorRatioNow('checkout', '/api/checkout'), tolerance: 0.25 }],
    },
  },
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    message: 'checkuot p95?',
    expect: { asksFirst: 'checkout' },
  },
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    message: 'hows fraud-check doing',
    expect: { asks: true },
  },

  // search-slow-version-chronic-alert: search 3.3.0 from 40 min before the end answers /api/search 4.5x slower.
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'dev',
    message: 'how has search latncy changed since the rollout of 3.3.0',
    expect: { direction: 'up' },
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'dev',
    message: 'who approved the 3.3.0 deploy',
    expect: { cannot: true },
  },

  // search-traffic-surge: /api/search traffic x6 from 39 min before the end; search CPU at its limit; frontend 5.2.1 at 44 min.
  {
    scenario: 'search-traffic-surge',
    split: 'dev',
    message: 'how much /api/search traffic now compared to an hour ago',
    expect: { direction: 'up' },
  },
  {
    scenario: 'search-traffic-surge',
    split: 'dev',
    message: 'what % of its cpu limit is search using',
    expect: {
      number: `sum(rate(container_cpu_usage_seconds_total${ofContainer('search')}[5m])) / sum(kube_pod_container_resource_limits${ofContainer('search', ', resource="cpu"')})`,
      tolerance: 0.15,
    },
  },
  {
    scenario: 'search-traffic-surge',
    split: 'dev',
    message: 'anything deplyed around when search got slow',
    expect: { contains: ['frontend', '5.2.1'] },
  },

  // orders-memory-leak-oom: memory climbs from 75 min before the end; OOMKilled every few minutes from about 41 min.
  {
    scenario: 'orders-memory-leak-oom',
    split: 'dev',
    message: 'how many restrats did orders have in the last hour',
    expect: { number: 'sum(increase(kube_pod_container_status_restarts_total{container="orders"}[1h]))', tolerance: 0.35 },
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: 'dev',
    message: 'why do they keep dying',
    earlier: ['how many restrats did orders have in the last hour'],
    expect: { contains: ['OOMKilled'] },
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: 'dev',
    message: 'when did orders memory start climbing',
    expect: { at: 75, tolerance: 5 },
  },

  // media-disk-full-flapping-alert: /var/lib/media on ip-10-0-2-34 full from 37 min before the end; uploads fail 507.
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'dev',
    message: 'media uploads failing from when',
    expect: { at: 37, tolerance: 4 },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'dev',
    message: 'on what node does media run, and which mount is full',
    expect: { all: [{ contains: ['ip-10-0-2-34'] }, { contains: ['/var/lib/media'] }] },
  },

  // node-not-ready: ip-10-0-3-41 NotReady from 36 min before the end; frontend fails 15% (calls to its cart pod time out).
  {
    scenario: 'node-not-ready',
    split: 'dev',
    message: 'which node went notready',
    expect: { contains: ['ip-10-0-3-41'] },
  },
  {
    scenario: 'node-not-ready',
    split: 'dev',
    message: 'what was running on it',
    earlier: ['which node went notready'],
    expect: { contains: ['cart', 'search', 'orders'] },
  },
  {
    scenario: 'node-not-ready',
    split: 'dev',
    message: '5xx ratio of frontend right now',
    expect: { number: errorRatioNow('frontend'), tolerance: 0.25 },
  },

  // payments-bad-version-noisy-neighbour: payments 1.9.0 from 36 min fails 20%; ledger-reconcile takes ip-10-0-3-41's CPU from 40 min.
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    message: 'anything weird with payments',
    expect: { contains: ['1.9.0'] },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    message: 'which pods are on 1.9.0 and whats their error rate?',
    expect: { all: [{ podsOf: { workload: 'payments', version: '1.9.0' } }, { number: errorRatioNow('payments'), tolerance: 0.25 }] },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    message: 'whats eating cpu on ip-10-0-3-41',
    expect: { contains: ['ledger-reconcile'] },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    message: 'how busy is that node',
    earlier: ['whats eating cpu on ip-10-0-3-41'],
    expect: { number: nodeBusyNow('ip-10-0-3-41'), tolerance: 0.15 },
  },

  // cart-config-crashloop: cart-config edited 38 min before the end; the new cart pod crash loops (12 restarts by the end).
  {
    scenario: 'cart-config-crashloop',
    split: 'dev',
    message: 'did any configmap get edited',
    expect: { contains: ['cart-config'], excludes: ['frontend-config'] },
  },
  {
    scenario: 'cart-config-crashloop',
    split: 'dev',
    message: 'crashlooping cart pod, how many restarts so far',
    expect: { number: 'max(kube_pod_container_status_restarts_total{container="cart"})', tolerance: 0.2 },
  },
  {
    scenario: 'cart-config-crashloop',
    split: 'dev',
    message: 'is carrt ok',
    expect: { asksFirst: 'cart' },
  },

  // search-noisy-neighbour: video-transcode takes ip-10-0-2-34's cores from 37 min; the search pod there is slow.
  {
    scenario: 'search-noisy-neighbour',
    split: 'dev',
    message: 'which of the search pods is slow and what node is it on',
    expect: { contains: ['ip-10-0-2-34'] },
  },
  {
    scenario: 'search-noisy-neighbour',
    split: 'dev',
    message: 'whats also running on that host and how busy is it',
    earlier: ['which of the search pods is slow and what node is it on'],
    expect: { all: [{ contains: ['video-transcode'] }, { number: nodeBusyNow('ip-10-0-2-34'), tolerance: 0.15 }] },
  },
  {
    scenario: 'search-noisy-neighbour',
    split: 'dev',
    message: 'p99 of search vs an hour ago',
    expect: { direction: 'up' },
  },

  // sessions-redis-down-flapping-alert: sessions-redis down from 36 min before the end; cart fails 90%.
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'dev',
    message: 'is cart on fire',
    expect: { number: errorRatioNow('cart'), tolerance: 0.15 },
  },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'dev',
    message: 'what does it call',
    earlier: ['is cart on fire'],
    expect: { contains: ['sessions-redis'] },
  },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'dev',
    message: 'is search affected? p95 now vs before redis went down',
    expect: { direction: 'about the same' },
  },

  // checkout-slow-partner-bank: partner-bank 12x slower from 37 min; payments then checkout slow; reports-batch pegs ip-10-0-2-34.
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    message: 'payments p95 latency now',
    expect: { number: quantileNow(0.95, 'payments'), tolerance: 0.3 },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    message: 'same for checkout',
    earlier: ['payments p95 latency now'],
    expect: { number: quantileNow(0.95, 'checkout'), tolerance: 0.3 },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    message: 'and compared to an hour ago?',
    earlier: ['payments p95 latency now', 'same for checkout'],
    expect: { direction: 'up' },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    message: 'one of the checkout nodes looks pegged, whats running there',
    expect: { contains: ['reports-batch', 'ip-10-0-2-34'] },
  },

  // recommendations-cpu-throttled: CPU limit lowered to 0.3 cores 40 min before the end (same version 0.9.4).
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'dev',
    message: 'recommendations cpu limit now?',
    expect: { number: `max(kube_pod_container_resource_limits${ofContainer('recommendations', ', resource="cpu"')})`, tolerance: 0.15 },
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'dev',
    message: 'how throttled is it',
    earlier: ['recommendations cpu limit now?'],
    expect: {
      number: `sum(increase(container_cpu_cfs_throttled_periods_total${ofContainer('recommendations')}[5m])) / sum(increase(container_cpu_cfs_periods_total${ofContainer('recommendations')}[5m]))`,
      tolerance: 0.3,
    },
  },

  // billing-timeout-config-change: cfg-8841 by grace (timeout 2s -> 150ms) 37 min before the end; billing fails 20% from 36 min.
  {
    scenario: 'billing-timeout-config-change',
    split: 'dev',
    message: 'what changed on billing and who did it',
    expect: { all: [{ contains: ['150ms'] }, { contains: ['grace'] }] },
  },
  {
    scenario: 'billing-timeout-config-change',
    split: 'dev',
    message: 'billing erors now',
    expect: { number: errorRatioNow('billing'), tolerance: 0.2 },
  },
  {
    scenario: 'billing-timeout-config-change',
    split: 'dev',
    message: 'is notifications erroring too',
    expect: { asks: true },
  },

  // archive-down-reported-deploy-red-herring: archive down from 36 min; statements fails 60%; statements-static deployed at 48 min.
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'dev',
    message: 'statements failing from when',
    expect: { at: 36, tolerance: 4 },
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'dev',
    message: 'is it still happening',
    earlier: ['statements failing from when'],
    expect: { number: errorRatioNow('statements'), tolerance: 0.2 },
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'dev',
    message: 'who calls archive',
    expect: { contains: ['statements'] },
  },

  // accounts-pool-exhausted-harmless-rollout: accounts 1.4.1 at 47 min; its pool runs dry at 38 min, latency x21.
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'dev',
    message: 'which pods run 1.4.1',
    expect: { podsOf: { workload: 'accounts', version: '1.4.1' } },
  },

  // inventory-down-harmless-rollout: checkout 2.14.4 at 44 min; inventory down from 36 min; checkout fails 62%.
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'dev',
    message: 'how many checkout requests failed since then',
    earlier: ['when did inventory go down?'],
    expect: { number: 'sum(increase(http_requests_total{job="checkout", code=~"5.."}[36m]))', tolerance: 0.3 },
  },

  // checkout-memory-limit-lowered: checkout's memory limit lowered from 768 to 320 MiB 40 min before the end.
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'dev',
    message: 'checkout memory limit now',
    expect: { number: `max(kube_pod_container_resource_limits${ofContainer('checkout', ', resource="memory"')})`, tolerance: 0.15 },
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'dev',
    message: 'compared to before the rollout?',
    earlier: ['checkout memory limit now'],
    expect: { direction: 'down' },
  },

  // partner-bank-certificate-expired: the certificate expired 35 min before the end.
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'dev',
    message: 'when did the partner-bank cert expire',
    expect: { at: 35, tolerance: 3 },
  },

  // inventory-liveness-unexplained: the hang is a deadlock the metrics do not show.
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'dev',
    message: 'why exactly did the inventory process hang, which thread',
    expect: { cannot: true },
  },
];
