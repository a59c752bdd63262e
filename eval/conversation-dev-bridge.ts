import type { QuestionCase } from './conversation-cases';

/** The share of a workload's requests (of one route, when given) answered with a 5xx. */
const errorRatio = (job: string, route?: string): string => {
  const r = route ? `,route="${route}"` : '';
  return `sum(rate(http_requests_total{job="${job}"${r},code=~"5.."}[5m])) / sum(rate(http_requests_total{job="${job}"${r}}[5m]))`;
};

/** Container restarts of a workload's pods, all told. */
const restarts = (container: string): string => `sum(kube_pod_container_status_restarts_total{namespace="shop",container="${container}"})`;

/** A workload's resource limit as its pods have it now. */
const limit = (container: string, resource: 'memory' | 'cpu'): string =>
  `max(kube_pod_container_resource_limits{namespace="shop",container="${container}",resource="${resource}"})`;

const quantile = (q: number, metric: string, selector: string): string => `histogram_quantile(${q}, sum by (le) (rate(${metric}_bucket{${selector}}[5m])))`;

/**
 * Four voices: a frontend developer whose pages fail and who asks about the backends behind them,
 * a platform engineer who runs the Kubernetes clusters, a manager writing the status-page update,
 * and a night-shift operator who copies numbers and panel names from dashboards.
 */
export const BRIDGE_DEV_CASES: QuestionCase[] = [
  // --- the frontend developer ---
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    message: 'chekout api is throwing 500s when people hit "place order", not for everyone though. frontend hasnt shipped anything today. whats up with it',
    expect: { asksFirst: 'checkout' },
  },
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    earlier: ["checkout submit returns 500 for some users since this evening, our bundle didn't change. what's going on with the checkout backend?"],
    message: 'is it only the POST /api/checkout call or the status polling too? and what % of the POSTs come back 500',
    expect: {
      all: [{ contains: ['/api/checkout'] }, { number: errorRatio('checkout', '/api/checkout'), tolerance: 0.3 }],
    },
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'dev',
    message:
      'placing an order fails with 503 from the api, cart and product pages are fine. backend shipped checkout 2.14.4 earlier tonight - is that what broke it or is something behind checkout down?',
    expect: { contains: ['inventory'] },
  },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'dev',
    message: 'cart page renders empty for everyone, the GET /api/cart xhr comes back 500 every time. which backend is cart choking on?',
    expect: { contains: ['sessions-redis'] },
  },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'dev',
    earlier: ['cart page renders empty for everyone, /api/cart returns 500. which backend is cart choking on?'],
    message: 'ok thx. since when? want to check if it lines up with the sentry spike on our side',
    expect: { at: 36, tolerance: 3 },
  },
  {
    scenario: 'node-not-ready',
    split: 'dev',
    message:
      "roughly 15% of homepage and product page loads get a 502 from frontend, looks random per request. i checked the frontend pods and they look healthy. what's it calling that's broken?",
    expect: { contains: ['cart', 'ip-10-0-3-41'] },
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'dev',
    message: 'search results page takes ages, devtools shows /api/search at 1-2s while /api/suggest is snappy as usual. did the search team deploy something?',
    expect: { contains: ['3.3.0'] },
  },
  {
    scenario: 'search-traffic-surge',
    split: 'dev',
    message:
      'search page crawling again. we released frontend 5.2.1 a bit before it started so ppl are pointing at us :( is traffic to /api/search actually up? how many req/s is it getting now?',
    expect: {
      all: [{ direction: 'up' }, { number: 'sum(rate(http_requests_total{job="search",route="/api/search"}[5m]))', tolerance: 0.25 }],
    },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    message:
      'order confirmation screen hangs 4-5 seconds on the spinner after submit. no errors, just slow. which backend call under checkout is slow? payments?',
    expect: { contains: ['partner-bank'] },
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'dev',
    message:
      'payment step fails with 502 bad gateway for literally every card i try in prod. is that all payments requests or just some? whats the error rate on payments',
    expect: { number: errorRatio('payments'), tolerance: 0.15 },
  },
  {
    scenario: 'cart-config-crashloop',
    split: 'dev',
    message: "we got pinged about cart crashlooping but the cart page works fine for me?? did somebody change cart's config, which configmap",
    expect: { contains: ['cart-config'] },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'dev',
    message: 'profile photo upload fails with 507 Insufficient Storage, viewing existing images still works. what is full and where?',
    expect: { contains: ['ip-10-0-2-34', '/var/lib/media'] },
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'dev',
    message:
      'statements page shows "could not load your statements", network tab says 503 on POST /api/statements. ci-bot deployed statements-static a while before. did that deploy break it?',
    expect: { contains: ['archive'] },
  },
  {
    scenario: 'billing-timeout-config-change',
    split: 'dev',
    message: 'invoice page: the biling api gives a 504 gateway timeout about 1 in 5 times. what is it waiting on?',
    expect: { asksFirst: 'billing' },
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'dev',
    message:
      'account overview hangs a good second or more before it loads, sometimes errors out. is accounts slow on plain reads too? whats p99 on GET /api/accounts/{id} right now',
    expect: { number: quantile(0.99, 'http_request_duration_seconds', 'job="accounts",route="/api/accounts/{id}"'), tolerance: 0.3 },
  },

  // --- the platform engineer ---
  {
    scenario: 'orders-memory-leak-oom',
    split: 'dev',
    message: 'KubePodRestartingOften on orders, both replicas. OOM or is something else killing the containers?',
    expect: { contains: ['OOMKilled'] },
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: 'dev',
    earlier: ['KubePodRestartingOften on orders, both replicas. OOM or is something else killing the containers?'],
    message: 'how many restarts so far across both pods, and when was the first kill',
    expect: {
      all: [
        { number: restarts('orders'), tolerance: 0.25 },
        { at: 41, tolerance: 3 },
      ],
    },
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'dev',
    message: "checkout is crashlooping since tonight's rollout but the image tag is the same 2.14.3. what's the memory limit on the new pods?",
    expect: { number: limit('checkout', 'memory'), tolerance: 0.15 },
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'dev',
    message: 'recommendations latency went up right after a limits-only rollout. how much of the time are its containers cfs throttled now?',
    expect: {
      number:
        'sum(increase(container_cpu_cfs_throttled_periods_total{namespace="shop",container="recommendations"}[5m])) / sum(increase(container_cpu_cfs_periods_total{namespace="shop",container="recommendations"}[5m]))',
      tolerance: 0.25,
    },
  },
  {
    scenario: 'cart-config-crashloop',
    split: 'dev',
    message: 'cart deployment rollout is stuck, one new pod in CrashLoopBackOff and the old replicaset still up. how many times has the new one restarted?',
    expect: { number: restarts('cart'), tolerance: 0.25 },
  },
  {
    scenario: 'node-not-ready',
    split: 'dev',
    message: 'ip-10-0-3-41 is NotReady and node-exporter on it stopped answering. when exactly did it drop out?',
    expect: { at: 36, tolerance: 2 },
  },
  {
    scenario: 'search-noisy-neighbour',
    split: 'dev',
    message: 'search p99 alert, but only one of the two search pods is slow. smells like a node problem - what else is scheduled next to the slow one?',
    expect: { contains: ['video-transcode'] },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    message: 'ledger-reconcile is pinning a node at close to 4 cores, same node a payments pod sits on. is that why payments is throwing 500s?',
    expect: { contains: ['1.9.0'] },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    earlier: ['ledger-reconcile is pinning a node at close to 4 cores, same node a payments pod sits on. is that why payments is throwing 500s?'],
    message: 'ok so which payments pods are on 1.9.0 and which nodes did they land on',
    expect: { podsOf: { workload: 'payments', version: '1.9.0' } },
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'dev',
    message:
      'cart containers get killed roughly every minute, exit code 137 but the reason is not OOMKilled. how many restarts in total across the cart pods so far?',
    expect: { number: restarts('cart'), tolerance: 0.25 },
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'dev',
    message: 'inventory restart count keeps climbing on both pods. how many restarts so far, and is it the liveness probe killing them or OOM?',
    expect: { all: [{ number: restarts('inventory'), tolerance: 0.25 }, { contains: ['liveness'] }] },
  },
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'dev',
    earlier: ['ledger returns 507 on writes. is a volume full? which one'],
    message: 'how big is that pvc and at what time did it hit zero free',
    expect: {
      all: [
        { number: 'max(kubelet_volume_stats_capacity_bytes{persistentvolumeclaim="data-ledger"})', tolerance: 0.15 },
        { at: 36, tolerance: 2 },
      ],
    },
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'dev',
    message: 'rabbitmq says the orders queue has 0 consumers. the consumer deployment - when did its replica count change?',
    expect: { at: 44, tolerance: 2 },
  },
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    message: 'checkout rolled out a new build ~40 min ago. which pods run 2.15.0 and what nodes were they scheduled on?',
    expect: { podsOf: { workload: 'checkout', version: '2.15.0' } },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    message: 'reports-batch is eating a whole node (ip-10-0-2-34 at 98% cpu) and a checkout pod runs there. is the noisy neighbour why checkout is slow?',
    expect: { contains: ['partner-bank'] },
  },

  // --- the manager writing the status page ---
  {
    scenario: 'billing-timeout-config-change',
    split: 'dev',
    message: 'writing the status page update for invoicing. since what time have invoices been failing?',
    expect: { at: 36, tolerance: 2 },
  },
  {
    scenario: 'billing-timeout-config-change',
    split: 'dev',
    earlier: ['writing the status page update for invoicing. since what time have invoices been failing?'],
    message: 'I was told it was a config change. who pushed it?',
    expect: { contains: ['grace'] },
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'dev',
    message:
      'Customers cannot download statements. For the status page I need the cause in plain words, and what share of statement requests are failing right now.',
    expect: { all: [{ contains: ['archive'] }, { number: errorRatio('statements'), tolerance: 0.2 }] },
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'dev',
    message: "card payments are failing. before I post anything publicly: is this on our side or the bank's side? one line please",
    expect: { contains: ['partner-bank'] },
  },
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    message: 'support says some checkouts fail. what percentage of checkouts are failing, since when, and is it fixed yet?',
    expect: {
      all: [{ number: errorRatio('checkout', '/api/checkout'), tolerance: 0.3 }, { at: 38, tolerance: 3 }, { contains: ['still'] }],
    },
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'dev',
    message: "my draft says 'a small number of orders fail to go through'. is that accurate? what fraction of order requests are failing?",
    expect: { number: errorRatio('orders'), tolerance: 0.2 },
  },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'dev',
    earlier: ["cart is broken for customers, what's the cause?"],
    message: 'is it over yet? need to update the status page in 5 min',
    expect: { contains: ['still'] },
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'dev',
    message: "customers say their order confirmation emails aren't arriving. is order processing stuck? and since when",
    expect: { all: [{ contains: ['orders-worker'] }, { at: 44, tolerance: 3 }] },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'dev',
    earlier: ["what's going on with uploads? customers can't upload photos"],
    message: 'are all uploads failing or only some? and from what time should I say it started',
    expect: {
      all: [
        { number: errorRatio('media', '/api/uploads'), tolerance: 0.15 },
        { at: 37, tolerance: 2 },
      ],
    },
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'dev',
    message: 'Support says account pages time out. Who is affected - just money transfers, or people looking at their account as well?',
    expect: { contains: ['/api/accounts/transfer', '/api/accounts/{id}'] },
  },
  {
    scenario: 'search-traffic-surge',
    split: 'dev',
    earlier: ['search is really slow for customers right now, what is going on?'],
    message: 'ok so a traffic spike. roughly what time did that begin? I need a start time for the status page',
    expect: { at: 39, tolerance: 3 },
  },
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'dev',
    message: 'ledger incident - what time did the write failures begin? putting together the timeline',
    expect: { at: 36, tolerance: 2 },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    message: 'paymnets errors: which release caused it and when did it go out? need it for the public timeline',
    expect: { asksFirst: 'payments' },
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'dev',
    message: 'how many unique customers were hit by the inventory restarts? support wants a head count for the apology email',
    expect: { cannot: true },
  },
  {
    scenario: 'node-not-ready',
    split: 'dev',
    message: 'for the status page - is the giftcards service affected by this too? a customer asked',
    expect: { asks: true },
  },

  // --- the night-shift operator ---
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'dev',
    message:
      'night shift here. CPUThrottlingHigh on recommendations came in first, then SearchLatencyHigh (p99 over 2s) in the same group. are they related or is search its own thing',
    expect: { contains: ['3.3.0'] },
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'dev',
    message:
      '"HTTP p99 by route" panel for search: /api/search way up, /api/suggest flat. what is the p99 of /api/search right now and when did that climb begin',
    expect: {
      all: [
        { number: quantile(0.99, 'http_request_duration_seconds', 'job="search",route="/api/search"'), tolerance: 0.3 },
        { at: 40, tolerance: 3 },
      ],
    },
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'dev',
    message:
      'KubePodRestartingOften cart. "Restarts (15m)" panel shows ~16 per pod. CPUThrottlingHigh also firing in shop ns since before my shift. which one do i chase',
    expect: { contains: ['sessions-redis'] },
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'dev',
    earlier: [
      'KubePodRestartingOften cart. "Restarts (15m)" panel shows ~16 per pod. CPUThrottlingHigh also firing in shop ns since before my shift. which one do i chase',
    ],
    message: '"Redis client latency" panel for cart is all red. whats the p50 from cart to redis right now',
    expect: { number: quantile(0.5, 'http_client_request_duration_seconds', 'job="cart",peer="sessions-redis"'), tolerance: 0.3 },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'dev',
    message:
      'FrontendTargetDown paged first, then MediaUploadsFailing. "Targets" panel shows one frontend target flapping, uploads "Error ratio" panel at 97%. is frontend the problem here?',
    expect: { contains: ['/var/lib/media'] },
  },
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'dev',
    message: '"Disk usage" panel: /var/log/archive on ip-10-0-1-88 at 100%. LedgerWritesFailing fired, 507s. is that disk the problem?',
    expect: { contains: ['data-ledger'] },
  },
  {
    scenario: 'search-noisy-neighbour',
    split: 'dev',
    message:
      '"Node CPU" dashboard: ip-10-0-2-34 and ip-10-0-1-23 both pegged, ip-10-0-3-41 busier than usual. SearchLatencyHigh firing. which node matters for search and how busy is it exactly',
    expect: {
      all: [
        { contains: ['ip-10-0-2-34'] },
        { number: '1 - avg(rate(node_cpu_seconds_total{node="ip-10-0-2-34.eu-west-1.compute.internal",mode="idle"}[5m]))', tolerance: 0.15 },
      ],
    },
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'dev',
    message: 'AccountsHighErrorRate, panel says 30%. accounts 1.4.1 went out ~10 min before it fired. roll back??',
    expect: { contains: ['HikariPool-1'] },
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'dev',
    earlier: ['OrdersHighErrorRate 35%. orders 2.3.1 went out shortly before. is it the deploy?'],
    message: 'pg "Connections" panel for ordersdb sitting at ~200, max_connections 200. how many of those are idle in transaction',
    expect: { number: 'sum(pg_stat_activity_count{datname="orders",state="idle in transaction"})', tolerance: 0.2 },
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'dev',
    message:
      'QueueMessagesStale on queue orders. "Oldest message age" 2600s+ and climbing, "Consumers" panel = 0. FrontendTargetDown firing too. where did the consumers go',
    expect: { contains: ['orders-worker'] },
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'dev',
    message: 'RecommendationsLatencyHigh. "CPU throttling" panel for recommendations ~70%. was the cpu limit changed? what is it now',
    expect: { number: limit('recommendations', 'cpu'), tolerance: 0.15 },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    message:
      'payments "5xx ratio" panel at 20%, and "Node CPU" for ip-10-0-3-41 near 100% since a few min before. what is eating cpu on that node, and is it what breaks payments',
    expect: { all: [{ contains: ['ledger-reconcile'] }, { contains: ['1.9.0'] }] },
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'dev',
    earlier: ['KubePodCrashLooping checkout. why are the new pods dying?'],
    message: '"Memory working set" panel tops out around 320MiB before each drop, last terminated reason OOMKilled. when was the limit changed',
    expect: { at: 40, tolerance: 2 },
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'dev',
    message:
      'CheckoutHighErrorRate 62%. "Blackbox probes" panel: inventory.shop.svc healthz red, shop.example.com green. inventory targets down on the Targets page. when did inventory go down',
    expect: { at: 36, tolerance: 2 },
  },
  {
    scenario: 'billing-timeout-config-change',
    split: 'dev',
    message: 'BillingHighErrorRate. "Error ratio" panel 20%, all 504. deploy panel shows nothing for billing. what changed?',
    expect: { contains: ['150ms'] },
  },
];
