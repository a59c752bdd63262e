import type { QuestionCase } from './conversation-cases';

/**
 * Development questions in the voice of the developers who own the affected services, pulled into
 * the incident: they think in routes and methods, the version they shipped, the downstreams their
 * service calls (peers), pool and client settings, their pods, their container's memory and CPU,
 * restarts; some ask in full sentences, some in quick chat lines, some follow up on what they asked
 * before. Written from eval/scenarios.ts and the generators only (never the engine's code or other
 * question files); every number and time checked against each scenario staged in a real Prometheus
 * (the values noted per scenario, at the data's end unless said).
 */

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

/** PromQL's `offset` modifier reading an hour back, appended to a range or a selector (the helpers' `shift`). */
const HOUR_AGO = ['', 'offset', '60m'].join(' ');

/** The 5xx share of a job's requests (optionally one route) over the last five minutes. */
const errorRatio = (job: string, route?: string, shift = ''): string =>
  `sum(rate(http_requests_total${sel({ job, route }, 'code=~"5.."')}[5m]${shift})) / sum(rate(http_requests_total${sel({ job, route })}[5m]${shift}))`;

/** A job's p99 server latency (optionally one route), seconds. */
const p99 = (job: string, route?: string, shift = ''): string =>
  `histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket${sel({ job, route })}[5m]${shift})))`;

/** A job's p99 latency of its calls to a peer, seconds. */
const peerP99 = (job: string, peer: string, shift = ''): string =>
  `histogram_quantile(0.99, sum by (le) (rate(http_client_request_duration_seconds_bucket${sel({ job, peer })}[5m]${shift})))`;

/** A job's mean latency of its calls to a peer, seconds. */
const peerMean = (job: string, peer: string, shift = ''): string =>
  `sum(rate(http_client_request_duration_seconds_sum${sel({ job, peer })}[5m]${shift})) / sum(rate(http_client_request_duration_seconds_count${sel({ job, peer })}[5m]${shift}))`;

/** The failed share of a job's calls to a peer. */
const peerFailRatio = (job: string, peer: string): string =>
  `sum(rate(http_client_requests_total${sel({ job, peer }, 'code!="200"')}[5m])) / sum(rate(http_client_requests_total${sel({ job, peer })}[5m]))`;

/** A job's requests per second (optionally one route). */
const rps = (job: string, route?: string, shift = ''): string => `sum(rate(http_requests_total${sel({ job, route })}[5m]${shift}))`;

/** CPU cores a container uses, all its pods together. */
const cores = (container: string): string => `sum(rate(container_cpu_usage_seconds_total${sel({ container })}[5m]))`;

/** A container's limit of `resource` (cores or bytes), the largest of its pods'. */
const limit = (container: string, resource: 'cpu' | 'memory', shift = ''): string =>
  `max(kube_pod_container_resource_limits${sel({ container, resource })}${shift})`;

/** A pod's name: its workload, its pod template's hash and its own suffix. */
const pod = (workload: string, hash: string, suffix: string): string => [workload, hash, suffix].join('-');

export const OWNER_DEV_CASES: QuestionCase[] = [
  // checkout-bad-version: checkout 2.15.0 rolled out 38 min before the end (first 5xx at 37 min;
  // 2-min error ratio 0.0003 at 38 min, 0.015 at 37, 0.042 at 36); all three pods run 2.15.0 at the
  // end (checkout-7bb6cdfbb-2bwbp@ip-10-0-1-23, -gfd6q@ip-10-0-2-34, -cs224@ip-10-0-1-88).
  // 5xx ratio of /api/checkout 0.110, of /api/checkout/status 0, overall 0.077 (0.0013 an hour
  // ago); p99 of /api/checkout 0.855 s now, 0.852 s an hour ago.
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    message: 'What fraction of POST /api/checkout requests are coming back 5xx right now?',
    expect: { number: errorRatio('checkout', '/api/checkout'), tolerance: 0.15 },
  },
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    message: 'I pushed a checkout release earlier. Did my release do this?',
    expect: { contains: ['2.15.0'] },
  },
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    earlier: ["what's checkout's 5xx rate now?"],
    message: 'and when did it begin climbing?',
    expect: { at: 38, tolerance: 3 },
  },
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    message: 'which of my checkout pods are running 2.15.0, and on which nodes?',
    expect: { podsOf: { workload: 'checkout', version: '2.15.0' } },
  },

  // search-slow-version-chronic-alert: search 3.3.0 on both pods (search-56585bc67-jj47k started
  // 40 min before the end, -fw4md 39.25 min); p99 of /api/search 2.03 s now, 0.372 s an hour ago;
  // p99 of /api/suggest 0.0916 s; 42 req/s now and an hour ago; CPUThrottlingHigh's throttling is
  // on recommendations (0.55 of periods), search uses 0.5 cores a pod.
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'dev',
    message: "what's p99 on GET /api/search now, and what was it one hour ago?",
    expect: {
      all: [
        { number: p99('search', '/api/search'), tolerance: 0.2 },
        { number: p99('search', '/api/search', HOUR_AGO), tolerance: 0.2 },
      ],
    },
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'dev',
    message: 'When did our last search rollout go out?',
    expect: { at: 40, tolerance: 3 },
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'dev',
    earlier: ['why is search this slow?', 'we also have CPUThrottlingHigh firing, is that our search pods being throttled?'],
    message: 'ok so should I roll back search?',
    expect: { contains: ['3.3.0'] },
  },

  // inventory-down-harmless-rollout: checkout 2.14.4 rolled out 44 min before the end (all three:
  // checkout-5c7b6db76-tdwlv@ip-10-0-1-23, -8jrz4@ip-10-0-1-88, -4g4cj@ip-10-0-2-34); inventory's
  // targets down from 36 min (up 2 at 37 min, 0 at 36); every checkout call to inventory fails
  // (connection_refused, ratio 1.0); 5xx ratio of /api/checkout/status 0.621.
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'dev',
    message: 'I shipped checkout 2.14.4 maybe ten minutes before this started. Did my release do this?',
    expect: { contains: ['inventory'] },
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'dev',
    message: 'what share of our calls to inventory are failing atm?',
    expect: { number: peerFailRatio('checkout', 'inventory'), tolerance: 0.1 },
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'dev',
    earlier: ['is checkout failing because of inventory?'],
    message: 'is it only POST /api/checkout or is GET /api/checkout/status failing too? give me the status route error ratio',
    expect: { number: errorRatio('checkout', '/api/checkout/status'), tolerance: 0.15 },
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'dev',
    earlier: ['what is checkout failing on?'],
    message: 'when did inventory stop answering us?',
    expect: { at: 36, tolerance: 3 },
  },

  // orders-memory-leak-oom: orders (2.3.0, unchanged) working set climbs from 75 min before the end
  // (406 MiB at 80 min, 420 at 75, 506 at 70) to its 1 GiB limit (1073741824 B); first OOM kills at
  // ~40.5 min (restarts 0 at 41 min, 2 at 40); 12 restarts in all now (6 per pod), the last
  // termination of both pods OOMKilled; orders-worker never restarts.
  {
    scenario: 'orders-memory-leak-oom',
    split: 'dev',
    message: 'why do my orders pods keep restarting?',
    expect: { contains: ['OOMKilled'] },
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: 'dev',
    earlier: ['why is orders restarting?'],
    message: 'when did the first one get killed?',
    expect: { at: 41, tolerance: 3 },
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: 'dev',
    message: 'what memory limit is the orders container running with, and when did its memory start going up?',
    expect: {
      all: [
        { number: 'max (container_spec_memory_limit_bytes{container="orders"})', tolerance: 0.1 },
        { at: 75, tolerance: 6 },
      ],
    },
  },

  // media-disk-full-flapping-alert: media's one pod (media-bcbd8f765-zzmww) on ip-10-0-2-34;
  // /var/lib/media free 82 MB at 39 min, 41 MB at 38, 0 from 37 min before the end (943196883 B free
  // an hour ago, size 200 GiB); POST /api/uploads answers 507 at 2.62 req/s (first 507s between 37
  // and 36 min), 5xx ratio 0.970; GET /api/media/{id} fine; media 1.4.2 uses 0.22 cores, 308 MiB.
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'dev',
    message: 'uploads are failing on media. why?',
    expect: { contains: ['/var/lib/media', 'ip-10-0-2-34'] },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'dev',
    earlier: ['why do media uploads fail?'],
    message: 'how much free space did that mount have an hour ago?',
    expect: { number: `node_filesystem_avail_bytes{mountpoint="/var/lib/media"}${HOUR_AGO}`, tolerance: 0.15 },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'dev',
    earlier: ['why do media uploads fail?'],
    message: 'when exactly did it fill up?',
    expect: { at: 37, tolerance: 3 },
  },

  // search-traffic-surge: GET /api/search at 211.5 req/s now vs 36.1 an hour ago (1-min rate 35 at
  // 39 min before the end, 66 at 38, 112 at 37, 196 at 35); /api/suggest 6.3 req/s both times;
  // search's two pods use 3.97 cores together (0.52 each an hour ago), throttled in 0.996 of
  // periods; p99 of /api/search 4.55 s (0.443 an hour ago), of /api/suggest 0.0909 s (0.0910);
  // search still 3.2.1, frontend now 5.2.1.
  {
    scenario: 'search-traffic-surge',
    split: 'dev',
    message: 'How many CPU cores are the search pods burning altogether?',
    expect: { number: cores('search'), tolerance: 0.15 },
  },
  {
    scenario: 'search-traffic-surge',
    split: 'dev',
    earlier: ['why is search latency up?'],
    message: 'when did the extra traffic start hitting us?',
    expect: { at: 39, tolerance: 4 },
  },
  {
    scenario: 'search-traffic-surge',
    split: 'dev',
    message: "we haven't shipped search today, so what's making our p99 climb? is it a specific route?",
    expect: { contains: ['/api/search'] },
  },

  // cart-config-crashloop: cart-config's resource version changed between 39 and 38 min before the
  // end (frontend-config never); the rollout's one new pod (on ip-10-0-1-23, same image cart:4.1.2;
  // its name follows the rollout's time, so it is not expected by name) exits with Error from ~38 min
  // (restarts 0 at 38 min, 3 at 37), 12 restarts now (the only cart restarts), waiting in
  // CrashLoopBackOff; the three old pods (cart-bcdb8f5bd-*, on the other three nodes) keep serving
  // 66.7 req/s with the usual 0.0007 5xx ratio.
  {
    scenario: 'cart-config-crashloop',
    split: 'dev',
    message: 'which cart pod is crash looping, and what node is it on?',
    expect: { contains: ['ip-10-0-1-23'] },
  },
  {
    scenario: 'cart-config-crashloop',
    split: 'dev',
    earlier: ['which of the cart pods is crash looping?'],
    message: 'how many times did it restart?',
    expect: { number: 'sum (kube_pod_container_status_restarts_total{container="cart"})', tolerance: 0.15 },
  },
  {
    scenario: 'cart-config-crashloop',
    split: 'dev',
    message: "We didn't release a new cart build, it's still 4.1.2. So what changed that rolled the deployment?",
    expect: { contains: ['cart-config'] },
  },
  {
    scenario: 'cart-config-crashloop',
    split: 'dev',
    message: 'are the old cart pods still taking traffic? what req/s is cart serving right now, and when did the crash loop begin?',
    expect: {
      all: [
        { number: rps('cart'), tolerance: 0.15 },
        { at: 38, tolerance: 3 },
      ],
    },
  },

  // orders-worker-scaled-to-zero: orders-worker's desired replicas 2 until 45 min before the end, 0
  // from 44 min; the orders queue has 0 consumers (emails 2), its oldest message 2641.5 s old at the
  // end, 11225 ready messages (4 an hour ago); published 4.26 msg/s. No changes list.
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'dev',
    message: 'why does the orders queue keep growing? my consumers are orders-worker',
    expect: { contains: ['orders-worker'] },
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'dev',
    message: 'how long has the oldest message on the orders queue been waiting?',
    expect: { number: '-rabbitmq_queue_head_message_timestamp{queue="orders"} + time()', tolerance: 0.15 },
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'dev',
    earlier: ['why does the orders queue keep growing?'],
    message: 'when did orders-worker go to zero replicas?',
    expect: { at: 44, tolerance: 3 },
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'dev',
    earlier: ['why does the orders queue keep growing?', 'when did orders-worker go to zero?'],
    message: 'who scaled us down? was it someone on my team?',
    expect: { cannot: true },
  },

  // checkout-slow-partner-bank: payments' p99 to partner-bank 4.69 s now, 0.427 s an hour ago (1-min
  // p99 0.430 at 37 min before the end, 2.36 at 36, 4.49 at 35); checkout's p99 to payments 4.82 s;
  // p99 of POST /api/checkout 4.91 s (0.855 an hour ago); reports-batch (ip-10-0-2-34, beside
  // checkout's pod -w4rdq) uses 3.53 cores from ~40 min, checkout's pods 0.33 cores each and
  // barely throttled (0.005).
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    message: 'what does our p99 to partner-bank look like vs. an hour ago? (payments here)',
    expect: {
      all: [
        { number: peerP99('payments', 'partner-bank'), tolerance: 0.2 },
        { number: peerP99('payments', 'partner-bank', HOUR_AGO), tolerance: 0.2 },
      ],
    },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    message: "checkout p99 is through the roof and we didn't deploy. is it us or something downstream of us?",
    expect: { contains: ['partner-bank'] },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    message: 'p99 on POST /api/checkout rn?',
    expect: { number: p99('checkout', '/api/checkout'), tolerance: 0.2 },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    earlier: ['why is checkout so slow?'],
    message: 'there is a reports-batch pod pegging one of our nodes too. how many CPU cores is it eating?',
    expect: { number: cores('reports-batch'), tolerance: 0.15 },
  },

  // recommendations-cpu-throttled: a rollout 40 min before the end (recommendations-dc6b6c687-vf5ct
  // at 40 min, -xhnj8 at 39) keeps 0.9.4 but the CPU limit goes from 1 to 0.3 cores; the pods use
  // 0.30-0.31 cores and are throttled in 0.739 of CFS periods (0.0048 an hour ago); p99 1.89 s now,
  // 0.258 s an hour ago; no restarts.
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'dev',
    message: 'How much of the time is the recommendations container getting CPU-throttled?',
    expect: {
      number:
        'sum(rate(container_cpu_cfs_throttled_periods_total{container="recommendations"}[5m])) / sum(rate(container_cpu_cfs_periods_total{container="recommendations"}[5m]))',
      tolerance: 0.15,
    },
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'dev',
    earlier: ['is recommendations being throttled?', 'what CPU limit are our recommendations pods running with?'],
    message: 'when did the new pods with that limit come up?',
    expect: { at: 40, tolerance: 3 },
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'dev',
    message: 'recomendations p99 right now?',
    expect: { asksFirst: 'recommendations' },
  },

  // node-not-ready: ip-10-0-3-41 Ready until 37 min before the end, NotReady from 36 min; cart's pod
  // there (cart's pod -tk7ck) is down (up 0), the other two (-vvq28@ip-10-0-1-23,
  // -gttt7@ip-10-0-2-34) serve 34 req/s each; frontend's calls to cart time out at a ratio of
  // 0.333; frontend's 5xx ratio on GET / 0.151 (502s); no version changed (cart 4.1.2).
  {
    scenario: 'node-not-ready',
    split: 'dev',
    message: 'Which of our cart pods has stopped answering, and where does it run?',
    expect: { contains: [['cart-d7b5fbc6d', 'tk7ck'].join('-'), 'ip-10-0-3-41'] },
  },
  {
    scenario: 'node-not-ready',
    split: 'dev',
    message: 'frontend owner here. what share of our calls to cart are timing out?',
    expect: { number: peerFailRatio('frontend', 'cart'), tolerance: 0.15 },
  },
  {
    scenario: 'node-not-ready',
    split: 'dev',
    earlier: ['which cart pod is down?'],
    message: 'when did its node go NotReady?',
    expect: { at: 36, tolerance: 3 },
  },
  {
    scenario: 'node-not-ready',
    split: 'dev',
    earlier: ['why is frontend throwing 502s?'],
    message: 'what is the 5xx ratio on GET / right now, and did we ship anything for cart today?',
    expect: {
      all: [{ number: errorRatio('frontend', '/'), tolerance: 0.15 }, { contains: ['4.1.2'] }],
    },
  },

  // partner-bank-certificate-expired: partner-bank's certificate (probe of
  // https://api.partner-bank.example/health) expired 35 min before the end
  // (probe_ssl_earliest_cert_expiry = end - 2100 s); payments' calls to partner-bank all fail with
  // tls_error at 19.5/s (first between 35 and 34 min); payments' 5xx ratio 0.971 (502s); payments
  // still 1.8.0; checkout's 5xx ratio only 0.001.
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'dev',
    message: 'payments is 502ing on basically everything and we did not deploy. is it my code?',
    expect: { contains: ['partner-bank'] },
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'dev',
    message: 'error ratio on POST /api/payments right now?',
    expect: { number: errorRatio('payments', '/api/payments'), tolerance: 0.1 },
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'dev',
    earlier: ['why are our calls to partner-bank failing?'],
    message: 'when did their cert expire?',
    expect: { at: 35, tolerance: 2 },
  },

  // ordersdb-connections-exhausted: orders 2.3.1 rolled out 46 min before the end (both pods:
  // orders-b6bfd6c58-vfdc8@ip-10-0-1-23, -vqk54@ip-10-0-2-34); ordersdb's connections 40 at 44 min,
  // 101 at 42, 166 at 40, 199 of max_connections 200 now (160 idle in transaction); orders' 5xx
  // from 40 min, ratio 0.350 on both routes; calls to ordersdb fail (too_many_connections) at a
  // ratio of 0.245; p99 of POST /api/orders 1.47 s (0.245 s an hour ago).
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'dev',
    message: 'We rolled orders 2.3.1 not long before this started. Did my release do this?',
    expect: { contains: ['ordersdb'] },
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'dev',
    earlier: ['why does orders keep erroring?'],
    message: 'p99 on POST /api/orders now vs an hour ago?',
    expect: {
      all: [
        { number: p99('orders', '/api/orders'), tolerance: 0.2 },
        { number: p99('orders', '/api/orders', HOUR_AGO), tolerance: 0.2 },
      ],
    },
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'dev',
    message: 'which orders pods are on 2.3.1 and on what nodes?',
    expect: { podsOf: { workload: 'orders', version: '2.3.1' } },
  },

  // sessions-redis-down-flapping-alert: sessions-redis down (redis_up 1 at 37 min before the end, 0
  // from 36; its exporter up); every cart call to it is refused (ratio 1.0, 94 calls/s); cart's
  // 5xx ratio 0.900 on both GET /api/cart and POST /api/cart/items; cart 4.1.2, no restarts.
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'dev',
    message: 'Cart is returning 500s on almost everything. Why?',
    expect: { contains: ['sessions-redis'] },
  },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'dev',
    earlier: ['why is cart failing?'],
    message: "is it only POST /api/cart/items or GET /api/cart as well? what's the error ratio on GET /api/cart?",
    expect: { number: errorRatio('cart', '/api/cart'), tolerance: 0.1 },
  },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'dev',
    earlier: ['why is cart failing?'],
    message: 'who owns sessions-redis and have they been paged yet?',
    expect: { cannot: true },
  },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'dev',
    message: "cartt's error rate now?",
    expect: { asksFirst: 'cart' },
  },

  // payments-bad-version-noisy-neighbour: payments 1.9.0 rolled out 36 min before the end (both
  // pods: payments-df787dfcb-b87p7@ip-10-0-1-23, -n4t56@ip-10-0-2-34; the old pods ran on
  // ip-10-0-1-88 and ip-10-0-3-41); 5xx ratio 0.200 now, 0.00106 an hour ago; calls to
  // partner-bank all succeed; p99 0.473 s now and an hour ago; ledger-reconcile (ip-10-0-3-41,
  // where no payments pod runs at the end) uses 3.71 cores from ~40 min; payments' pods 0.21
  // cores, throttled 0.004.
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    message: 'did my payments release do this?',
    expect: { contains: ['1.9.0'] },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    earlier: ['did the payments rollout cause the errors?'],
    message: 'which of our pods are on the new build, and where?',
    expect: { podsOf: { workload: 'payments', version: '1.9.0' } },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    message: 'someone said ledger-reconcile is hogging a node. how many CPU cores is it using and which node is that?',
    expect: {
      all: [{ number: cores('ledger-reconcile'), tolerance: 0.15 }, { contains: ['ip-10-0-3-41'] }],
    },
  },

  // checkout-memory-limit-lowered: a rollout 40 min before the end (first new pod at 40, second at
  // 39.25) keeps the image checkout:2.14.3 and lowers the memory limit from 805306368 B (768 MiB)
  // to 335544320 B (320 MiB); the three new pods (checkout-fdf7585ff-rrcfb, -rx246, -gzwcw) are
  // OOMKilled and in CrashLoopBackOff (first restart between 39 and 38 min), 9 restarts each, 27 in
  // all; no replica available at the end.
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'dev',
    message: "my checkout pods are crash looping and we didn't touch the code. what's killing them?",
    expect: { contains: ['OOMKilled'] },
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'dev',
    message: 'what memory limit is checkout running with now, and what did it have an hour ago?',
    expect: {
      all: [
        { number: limit('checkout', 'memory'), tolerance: 0.1 },
        { number: limit('checkout', 'memory', HOUR_AGO), tolerance: 0.1 },
      ],
    },
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'dev',
    earlier: ['why does checkout keep crash looping?'],
    message: 'who lowered our memory limit, and what were they trying to do?',
    expect: { cannot: true },
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'dev',
    message: 'which image are the new checkout pods running? was it a new build?',
    expect: { contains: ['2.14.3'] },
  },

  // ledger-volume-full-chronic-mount: ledger's one pod (ledger-d7d5f65bc-48vvf, ip-10-0-1-88); claim
  // data-ledger (50 GiB) free 72 MB at 40 min before the end, 18 MB at 37, 0 from 36 (432623937 B
  // an hour ago); POST /api/ledger/entries answers 507 at 5.97 req/s, 5xx ratio 0.951; GET
  // /api/ledger/{id} fine; /var/log/archive on the same node has 0 free all along; no restarts.
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'dev',
    message: 'Why are POST /api/ledger/entries requests failing?',
    expect: { contains: ['data-ledger'] },
  },
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'dev',
    message: 'what share of ledger writes are failing right now?',
    expect: { number: errorRatio('ledger', '/api/ledger/entries'), tolerance: 0.1 },
  },
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'dev',
    earlier: ['so why do writes to the ledger fail?'],
    message: 'how much free space did our volume have an hour ago?',
    expect: { number: `kubelet_volume_stats_available_bytes{persistentvolumeclaim="data-ledger"}${HOUR_AGO}`, tolerance: 0.15 },
  },

  // accounts-pool-exhausted-harmless-rollout: accounts 1.4.1 rolled out 47 min before the end (both
  // pods: accounts-bffb5b5dc-x4s9t@ip-10-0-2-34, -vjrtz@ip-10-0-3-41); from 38 min (1-min 5xx rate
  // 0.017 at 39 min, 5.1 at 38) 0.300 of requests fail on both routes; HikariPool-1 at 10 of 10
  // active with 30 pending per pod (4 active in all an hour ago); p99 of POST
  // /api/accounts/transfer 4.64 s (0.238 s an hour ago); calls to accountsdb all succeed, p99
  // 0.0145 s; accountsdb 41 of 300 connections.
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'dev',
    message: 'I shipped accounts 1.4.1 about ten minutes before the alert fired. Did my release do this?',
    expect: { contains: ['HikariPool-1'] },
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'dev',
    earlier: ['why is accounts timing out?'],
    message: 'is accountsdb itself slow? what is our p99 to it?',
    expect: { number: peerP99('accounts', 'accountsdb'), tolerance: 0.2 },
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'dev',
    message: 'acounts error rate right now?',
    expect: { asksFirst: 'accounts' },
  },

  // cart-liveness-slow-redis: cart's calls to sessions-redis average 2.33 s now (0.00233 s an hour
  // ago; median 2.07 s); its liveness probes fail and the kubelet restarts every cart pod
  // (cart-567575f65-gv5zw, -nzlsm, -x4hxp): restarts 0 at 37 min before the end, 3 at 36, 6 at 35,
  // 123 in all now (41 each); sessions-redis still up; CPUThrottlingHigh's throttling is on
  // recommendations (0.56 of periods), cart's only 0.002.
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'dev',
    message: 'the kubelet keeps restarting my cart pods. what is going on?',
    expect: { contains: ['sessions-redis'] },
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'dev',
    earlier: ['cart: why all the restarts?'],
    message: "What's the average latency of our calls to sessions-redis now, and what was it one hour ago?",
    expect: {
      all: [
        { number: peerMean('cart', 'sessions-redis'), tolerance: 0.2 },
        { number: peerMean('cart', 'sessions-redis', HOUR_AGO), tolerance: 0.2 },
      ],
    },
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'dev',
    message: 'CPUThrottlingHigh is firing in the namespace too. Is that my cart containers?',
    expect: { contains: ['recommendations'] },
  },

  // inventory-liveness-unexplained: inventory (3.0.7, unchanged) restarted by failed liveness probes
  // from ~36.5 min before the end (restarts 0 at 37 min, 1 at 36, 3 at 35), 81 in all now
  // (inventory-c58d68b5c-9t5rx@ip-10-0-1-88 40, -lfg9w@ip-10-0-3-41 41), last terminated Error;
  // catalog-sync (ip-10-0-3-41) uses 1.09 cores, that node's CPU is 0.503 busy; inventory's pods use
  // 0.09 cores and 87 MiB; checkout's calls to inventory succeed. Nothing in the metrics says why
  // the probes fail.
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'dev',
    message: 'how many restarts have our inventory pods had so far, and when did they start?',
    expect: {
      all: [
        { number: 'sum (kube_pod_container_status_restarts_total{container="inventory"})', tolerance: 0.15 },
        { at: 36, tolerance: 3 },
      ],
    },
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'dev',
    message: 'catalog-sync shares a node with one of our inventory pods. how many CPU cores is it using?',
    expect: { number: cores('catalog-sync'), tolerance: 0.15 },
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'dev',
    earlier: ['how much CPU is catalog-sync using?'],
    message: 'and how busy is the CPU of the node it runs on, overall?',
    expect: {
      number: '1 - avg(rate(node_cpu_seconds_total{node="ip-10-0-3-41.eu-west-1.compute.internal", mode="idle"}[5m]))',
      tolerance: 0.15,
    },
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'dev',
    earlier: ['why does inventory keep on restarting?'],
    message: 'is our process deadlocking? which thread is stuck?',
    expect: { cannot: true },
  },

  // search-noisy-neighbour: search 3.2.1 (unchanged); p99 of the search pod on ip-10-0-2-34 (seeded
  // name, never rolled) 2.41 s, of search-878b86fb7-px6bm (ip-10-0-3-41) 0.348 s; search's p99 2.29 s now, 0.348 s an hour ago (1-min
  // p99 0.344 at 37 min before the end, 2.11 at 36); video-transcode on ip-10-0-2-34 uses 3.62
  // cores (that node 0.98 busy); image-resizer on ip-10-0-1-23 (no search pod) 3.82 cores;
  // log-shipper on ip-10-0-3-41 1.10 cores (node 0.74 busy); search's pods 0.50 cores, barely
  // throttled (0.005).
  {
    scenario: 'search-noisy-neighbour',
    split: 'dev',
    message: 'Is it both of our search pods that are slow, or just one of them? Which one?',
    expect: { contains: [pod('search', '878b86fb7', 'm9xrk')] },
  },
  {
    scenario: 'search-noisy-neighbour',
    split: 'dev',
    earlier: ['which of the search pods is slow?'],
    message: "what's eating the CPU on that pod's node?",
    expect: { contains: ['video-transcode', 'ip-10-0-2-34'] },
  },
  {
    scenario: 'search-noisy-neighbour',
    split: 'dev',
    message: "search's p99 now vs an hour ago, and when did it jump?",
    expect: {
      all: [
        { number: p99('search'), tolerance: 0.2 },
        { number: p99('search', undefined, HOUR_AGO), tolerance: 0.2 },
        { at: 37, tolerance: 3 },
      ],
    },
  },

  // billing-timeout-config-change: the changes list has cfg-8841 (config, billing, by grace, 37 min
  // before the end: "billing: ledger client timeout 2s -> 150ms", timeout=2s -> timeout=150ms);
  // billing 3.2.0 unchanged, no restarts; from 36 min (1-min 504 rate empty at 36, 5.3/s at 35)
  // 0.201 of POST /api/invoices fail with 504; every call to ledger ends in timeout (28/s); billing's
  // p99 to ledger 0.221 s now, 0.220 s an hour ago.
  {
    scenario: 'billing-timeout-config-change',
    split: 'dev',
    message: "billing started throwing 504s and we haven't deployed. what changed?",
    expect: { contains: ['150ms'] },
  },
  {
    scenario: 'billing-timeout-config-change',
    split: 'dev',
    earlier: ['what was changed on billing?'],
    message: 'who pushed that, and when?',
    expect: { all: [{ contains: ['grace'] }, { at: 37, tolerance: 2 }] },
  },
  {
    scenario: 'billing-timeout-config-change',
    split: 'dev',
    message: 'What share of POST /api/invoices is failing right now?',
    expect: { number: errorRatio('billing', '/api/invoices'), tolerance: 0.15 },
  },
  {
    scenario: 'billing-timeout-config-change',
    split: 'dev',
    earlier: ['why does billing fail?'],
    message: 'has our p99 to ledger changed compared to an hour ago?',
    expect: { direction: 'about the same' },
  },

  // archive-down-reported-deploy-red-herring: the changes list has deploy-3301 (statements-static
  // 2026.11.27-1, by ci-bot) 48 min before the end; statements 3.2.0 unchanged on both pods;
  // archive's two targets down from 36 min (up 2 at 37, 0 at 36); every statements call to archive
  // refused (ratio 1.0); statements' 5xx ratio 0.601 now, 0.00085 an hour ago (1-min 5xx rate
  // 0.03/s at 36 min, 15.9/s at 35); p99 0.373 s now and an hour ago.
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'dev',
    message: 'We deployed a new statements asset bundle earlier today. Did my release do this?',
    expect: { contains: ['archive'] },
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'dev',
    earlier: ['why is statements erroring?'],
    message: 'what share of our calls to archive fail right now?',
    expect: { number: peerFailRatio('statements', 'archive'), tolerance: 0.1 },
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'dev',
    earlier: ['did the statements deploy cause this?'],
    message: 'when did our deploy go out, and when did the 5xx start?',
    expect: {
      all: [
        { at: 48, tolerance: 2 },
        { at: 36, tolerance: 3 },
      ],
    },
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'dev',
    earlier: ['why is statements erroring?'],
    message: 'is the notifier service erroring as well?',
    expect: { asks: true },
  },
];
