/**
 * Sixth holdout set of conversation questions, part A: 60 follow-up questions over the 23 incidents of
 * eval/scenarios.ts, two or three per incident, asked the way people type them into an incident channel.
 *
 * Voices, mixed across the file:
 * - a communications lead drafting the customer status-page update (plain numbers: how many requests
 *   fail, since when, is it getting better);
 * - an engineering director or VP dropping into the channel (short, blunt, business words mixed with
 *   technical ones);
 * - a release manager (which version went out when, rollbacks, whether a deploy is to blame);
 * - a QA engineer verifying a fix or a mitigation (now against the page or an hour ago, other services).
 *
 * Written from the scenario generators only (eval/scenarios.ts, shop.ts, cluster.ts, telemetry.ts,
 * random.ts, harness.ts) and the expectation types and judge. Every `number` oracle below was run
 * against the scenario's staged data (three hours ending at the staging time) and returned exactly one
 * finite value at the data's end; the value seen is noted beside it. Every `at` was derived from the
 * generator's offsets and checked with range queries in the staged data (minutes before the end); the
 * two times that only a reported change holds (billing's configuration push, the statements-static
 * deploy) were read from the scenario's change reports, and the one `direction` from a range query of
 * search's p99 around frontend 5.2.1's rollout.
 */
import type { Expect, QuestionCase } from '../conversation-cases';

const SPLIT = 'holdout-6' as const;

/** Requests per second of a job answered with a 5xx, over five minutes (optionally `offset`). */
const errorsPerSecond = (job: string, selector = '', offset = ''): string =>
  `sum(rate(http_requests_total{job="${job}"${selector}, code=~"5.."}[5m]${offset}))`;

/** The share of a job's requests answered with a 5xx, over five minutes (optionally `offset`). */
const errorRatio = (job: string, selector = '', offset = ''): string =>
  `${errorsPerSecond(job, selector, offset)} / sum(rate(http_requests_total{job="${job}"${selector}}[5m]${offset}))`;

/** The 99th percentile latency of a job's requests, over five minutes (optionally `offset`). */
const p99 = (job: string, offset = ''): string =>
  `histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{job="${job}"}[5m]${offset})))`;

/** Failed requests of a job (5xx) over a window. */
const failedOver = (job: string, selector: string, window: string): string =>
  `sum(increase(http_requests_total{job="${job}"${selector}, code=~"5.."}[${window}]))`;

/** CPU cores a container uses, over five minutes. */
const cores = (container: string): string => `sum(rate(container_cpu_usage_seconds_total{container="${container}"}[5m]))`;

/** Mean duration of a job's calls to a peer, over five minutes (optionally `offset`). */
const meanCall = (job: string, peer: string, offset = ''): string =>
  `sum(rate(http_client_request_duration_seconds_sum{job="${job}", peer="${peer}"}[5m]${offset})) / sum(rate(http_client_request_duration_seconds_count{job="${job}", peer="${peer}"}[5m]${offset}))`;

const number = (query: string, tolerance: number): Expect => ({ number: query, tolerance });
const at = (minutes: number, tolerance = 2): Expect => ({ at: minutes, tolerance });
const cannot: Expect = { cannot: true };

export const SIXTH_HOLDOUT_QUESTIONS_A: QuestionCase[] = [
  // checkout-bad-version: 2.15.0 from 38 min before the end fails 11% of POST /api/checkout.
  {
    scenario: 'checkout-bad-version',
    split: SPLIT,
    message: 'drafting teh status page update - roughly how many checkout requests are failing per second right now?',
    expect: number(errorsPerSecond('checkout'), 0.15), // 2.21 req/s
  },
  {
    scenario: 'checkout-bad-version',
    split: SPLIT,
    earlier: ['what version is checkout running now?'],
    message: 'and when did that rollout start? need the exact time for the release log',
    expect: at(38),
  },
  {
    scenario: 'checkout-bad-version',
    split: SPLIT,
    message: 'before I roll back 2.15.0 - which checkout pods got it and what nodes are they on?',
    expect: { podsOf: { workload: 'checkout', version: '2.15.0' } },
  },

  // search-slow-version-chronic-alert: search 3.3.0 from 40 min before the end, /api/search 4.5 times slower.
  {
    scenario: 'search-slow-version-chronic-alert',
    split: SPLIT,
    message: 'search p99 now vs an hour ago? need both numbers for the exec update',
    expect: { all: [number(p99('search'), 0.2), number(p99('search', ' offset 1h'), 0.25)] }, // 1.94 s, 0.35 s
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: SPLIT,
    earlier: ['did search get a new version today?'],
    message: 'what time did 3.3.0 start going out? lining it up against when the latency alert fired',
    expect: at(40),
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: SPLIT,
    message: 'qa here - is serch p99 back under half a second yet?',
    expect: { asksFirst: 'search' },
  },

  // inventory-down-harmless-rollout: inventory down from 36 min; checkout 2.14.4 rolled out from 44 min.
  {
    scenario: 'inventory-down-harmless-rollout',
    split: SPLIT,
    message:
      'checkout 2.14.4 went out today too. what time did it start rolling, and what time did checkout start throwing 5xx? trying to rule the deploy in or out',
    expect: { all: [at(44), at(36)] },
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: SPLIT,
    earlier: ['is inventory up?', "what's checkout getting back when it calls inventory?"],
    message: 'since when has the inventory healthz probe been failing?',
    expect: at(36),
  },

  // orders-memory-leak-oom: the working set climbs from 75 min; OOMKilled from about 41 min, every few minutes.
  {
    scenario: 'orders-memory-leak-oom',
    split: SPLIT,
    message: 'how many times have the orders pods been OOM killed in the last hour? leadership wants a number',
    expect: number('sum(increase(kube_pod_container_status_restarts_total{namespace="shop", container="orders"}[1h]))', 0.1), // 12
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: SPLIT,
    earlier: ["what's the memory limit on orders?"],
    message: 'ok and when did the working set start climbing towards it? trying to find where the leak begins',
    expect: at(75, 3),
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: SPLIT,
    message: 'what time was the very first OOMKill on orders today? need it for the timeline',
    expect: at(41),
  },

  // media-disk-full-flapping-alert: /var/lib/media on ip-10-0-2-34 full from 37 min; uploads fail with 507.
  {
    scenario: 'media-disk-full-flapping-alert',
    split: SPLIT,
    message: 'for the status page: how many uploads have failed in the last 30 min?',
    expect: number(failedOver('media', ', route="/api/uploads"', '30m'), 0.15), // 4535
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: SPLIT,
    earlier: ['why are media uploads failing?'],
    message: 'what time did /var/lib/media actually hit zero free?',
    expect: at(37),
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: SPLIT,
    message: 'can you pull the list of customers whose uploads failed? account management is asking',
    expect: cannot,
  },

  // search-traffic-surge: /api/search traffic six times from 39 min; frontend 5.2.1 from 44 min.
  {
    scenario: 'search-traffic-surge',
    split: SPLIT,
    message: "how much traffic is /api/search taking right now in rps, and what's normal - say an hour ago?",
    expect: {
      all: [
        number('sum(rate(http_requests_total{job="search", route="/api/search"}[5m]))', 0.15), // 211.5 req/s
        number('sum(rate(http_requests_total{job="search", route="/api/search"}[5m] offset 1h))', 0.15), // 36.1 req/s
      ],
    },
  },
  {
    scenario: 'search-traffic-surge',
    split: SPLIT,
    earlier: ['when did frontend 5.2.1 roll out?'],
    message: 'did search p99 go up after that?',
    expect: { direction: 'up' },
  },

  // cart-config-crashloop: cart-config edited 38 min before the end; the new cart pod crash loops.
  {
    scenario: 'cart-config-crashloop',
    split: SPLIT,
    message: 'how many times has the new cart pod restarted so far',
    expect: number('sum(kube_pod_container_status_restarts_total{namespace="shop", container="cart"})', 0.05), // 12
  },
  {
    scenario: 'cart-config-crashloop',
    split: SPLIT,
    message: 'when was the cart-config configmap last edited? no image change went out for cart as far as I know',
    expect: at(38),
  },

  // orders-worker-scaled-to-zero: orders-worker scaled to zero 44 min before the end; the orders queue has no consumers.
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: SPLIT,
    message: 'status page: since what time have orders not been getting processed? just need a start time',
    expect: at(44),
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: SPLIT,
    message: 'who scaled orders-worker down to zero? was it a planned change?',
    expect: cannot,
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: SPLIT,
    message: 'is the fulfilment-worker still consuming from the orders queue?',
    expect: { asks: true },
  },

  // checkout-slow-partner-bank: partner-bank twelve times slower from 37 min; payments and checkout follow.
  {
    scenario: 'checkout-slow-partner-bank',
    split: SPLIT,
    message: 'verifying before I sign off: is checkout p99 still up? give me now and an hour ago',
    expect: { all: [number(p99('checkout'), 0.15), number(p99('checkout', ' offset 1h'), 0.2)] }, // 4.80 s, 0.79 s
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: SPLIT,
    earlier: ['why is checkout slow?'],
    message: 'how slow is partner-bank for payments right now? average per call is fine',
    expect: number(meanCall('payments', 'partner-bank'), 0.2), // 1.26 s
  },

  // recommendations-cpu-throttled: CPU limit lowered from 1 to 0.3 cores by a rollout 40 min before the end.
  {
    scenario: 'recommendations-cpu-throttled',
    split: SPLIT,
    message: 'the recommendations rollout earlier was resources only, right? what time exactly, and how hard is it getting throttled now?',
    expect: {
      all: [
        at(40),
        number(
          'sum(increase(container_cpu_cfs_throttled_periods_total{container="recommendations"}[5m])) / sum(increase(container_cpu_cfs_periods_total{container="recommendations"}[5m]))',
          0.15,
        ), // 0.74
      ],
    },
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: SPLIT,
    earlier: ["what's the cpu limit on recommendations now?"],
    message: 'and what was it before the rollout?',
    expect: number('max(kube_pod_container_resource_limits{container="recommendations", resource="cpu"} offset 1h)', 0.05), // 1 core
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: SPLIT,
    message: 'is recomendations latency still bad?',
    expect: { asksFirst: 'recommendations' },
  },

  // node-not-ready: ip-10-0-3-41 NotReady from 36 min; frontend's calls to the cart pod there time out.
  {
    scenario: 'node-not-ready',
    split: SPLIT,
    message: 'what fraction of frontend requests are failling at the moment? one number for the status page please',
    expect: number(errorRatio('frontend'), 0.2), // 0.151
  },
  {
    scenario: 'node-not-ready',
    split: SPLIT,
    earlier: ['which node is NotReady?'],
    message: 'what time did it drop out?',
    expect: at(36),
  },

  // partner-bank-certificate-expired: the certificate expired 35 min before the end; payments' calls fail.
  {
    scenario: 'partner-bank-certificate-expired',
    split: SPLIT,
    message: 'what % of payments requests are failing rn?',
    expect: number(errorRatio('payments'), 0.1), // 0.97
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: SPLIT,
    earlier: ['why are payments failing?'],
    message: 'when exactly did the partner-bank cert expire?',
    expect: at(35),
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: SPLIT,
    message: "has partner-bank told us when they'll have the renewed cert in place? execs want an ETA",
    expect: cannot,
  },

  // ordersdb-connections-exhausted: orders fails 35% from 40 min; orders 2.3.1 rolled out from 46 min.
  {
    scenario: 'ordersdb-connections-exhausted',
    split: SPLIT,
    earlier: ['when did orders start throwing 500s?'],
    message: 'and 2.3.1, what time did that go out? before or after?',
    expect: at(46),
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: SPLIT,
    message: 'status page update: what share of orders requests fail right now, and since when?',
    expect: { all: [number(errorRatio('orders'), 0.15), at(40)] }, // 0.35
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: SPLIT,
    message: "who kicked off the reports export that's hogging ordersdb? need a name to ping",
    expect: cannot,
  },

  // sessions-redis-down-flapping-alert: sessions-redis down from 36 min; cart fails 90% of its requests.
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: SPLIT,
    message: "has cart's error rate come down at all since the page? what's it at now",
    expect: number(errorRatio('cart'), 0.1), // 0.90
  },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: SPLIT,
    earlier: ["what's broken with cart?"],
    message: 'what time did sessions-redis go down? for the customer update',
    expect: at(36),
  },

  // payments-bad-version-noisy-neighbour: payments 1.9.0 from 36 min fails a fifth of its requests.
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: SPLIT,
    message: 'which payments pods are on 1.9.0, and on which nodes? planning the rollback',
    expect: { podsOf: { workload: 'payments', version: '1.9.0' } },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: SPLIT,
    message: 'is paymnets still failing a fifth of requests?',
    expect: { asksFirst: 'payments' },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: SPLIT,
    earlier: ["what's the payments error rate now?"],
    message: 'and an hour ago, before 1.9.0?',
    expect: number(errorRatio('payments', '', ' offset 1h'), 0.25), // 0.00106
  },

  // checkout-memory-limit-lowered: a rollout 40 min before the end lowers the limit from 768 to 320 MiB; OOMKilled.
  {
    scenario: 'checkout-memory-limit-lowered',
    split: SPLIT,
    message: "what's checkout's memory limit now vs an hour ago?",
    expect: {
      all: [
        number('max(kube_pod_container_resource_limits{container="checkout", resource="memory"})', 0.05), // 320 MiB
        number('max(kube_pod_container_resource_limits{container="checkout", resource="memory"} offset 1h)', 0.05), // 768 MiB
      ],
    },
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: SPLIT,
    message: 'how many OOM kills has checkout had since the rollout?',
    expect: number('sum(kube_pod_container_status_restarts_total{namespace="shop", container="checkout"})', 0.1), // 27
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: SPLIT,
    earlier: ['is checkout on a new version?'],
    message: 'so what rolled out then, and what time did it start?',
    expect: at(40),
  },

  // ledger-volume-full-chronic-mount: data-ledger full from 36 min; POST /api/ledger/entries fails with 507.
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: SPLIT,
    message: 'how many ledger entry writes are failing, as a %? plain number for the update pls',
    expect: number(errorRatio('ledger', ', route="/api/ledger/entries"'), 0.1), // 0.95
  },
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: SPLIT,
    earlier: ["what's full on the ledger node?"],
    message: 'ok, when did data-ledger run out of space?',
    expect: at(36),
  },
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: SPLIT,
    message: "which customer accounts had ledger entries that didn't get written? finance needs the ids",
    expect: cannot,
  },

  // accounts-pool-exhausted-harmless-rollout: HikariPool-1 runs dry from 38 min; accounts 1.4.1 from 47 min.
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: SPLIT,
    message: 'how full is HikariPool-1 on accounts now vs an hour ago? percent is fine',
    expect: {
      all: [
        number('sum(hikaricp_connections_active{job="accounts"}) / sum(hikaricp_connections_max{job="accounts"})', 0.15), // 0.95 to 1
        number('sum(hikaricp_connections_active{job="accounts"} offset 1h) / sum(hikaricp_connections_max{job="accounts"} offset 1h)', 0.25), // 0.2
      ],
    },
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: SPLIT,
    earlier: ['since when are accounts requests failing?'],
    message: 'was 1.4.1 before or after that? what time did it go out',
    expect: at(47),
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: SPLIT,
    message: 'sorry if this was asked already - how many accounts requests are erroring per second right now?',
    expect: number(errorsPerSecond('accounts'), 0.15), // 10.1 req/s
  },

  // cart-liveness-slow-redis: liveness probes time out from 37 min; cart's containers restart about every minute.
  {
    scenario: 'cart-liveness-slow-redis',
    split: SPLIT,
    message: 'how many cart restarts in the last 30 min, ballpark is fine',
    expect: number('sum(increase(kube_pod_container_status_restarts_total{namespace="shop", container="cart"}[30m]))', 0.1), // 99
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: SPLIT,
    earlier: ['why is cart restarting?'],
    message: "when did the first restart happen? we didn't ship cart today",
    expect: at(37),
  },

  // inventory-liveness-unexplained: inventory's liveness probes fail from 37 min; catalog-sync bursts on one of its nodes.
  {
    scenario: 'inventory-liveness-unexplained',
    split: SPLIT,
    message: 'how many restarts have the inventory pods racked up, and when was the first one?',
    expect: {
      all: [number('sum(kube_pod_container_status_restarts_total{namespace="shop", container="inventory"})', 0.1), at(36.5)], // 81
    },
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: SPLIT,
    message: 'what is inventory actually hung on? which lock or thread? devs are asking',
    expect: cannot,
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: SPLIT,
    earlier: ['is catalog-sync hogging the node inventory runs on?'],
    message: 'how many cores is it using right now',
    expect: number(cores('catalog-sync'), 0.15), // 1.09 cores
  },

  // search-noisy-neighbour: video-transcode takes the cores of ip-10-0-2-34 from 37 min; the search pod there slows.
  {
    scenario: 'search-noisy-neighbour',
    split: SPLIT,
    message: 'how many cores is video-transcode eating? bottom line pls',
    expect: number(cores('video-transcode'), 0.15), // 3.6 cores
  },
  {
    scenario: 'search-noisy-neighbour',
    split: SPLIT,
    earlier: ["what's search p99 right now?"],
    message: 'and an hour ago, before the batch jobs kicked in?',
    expect: number(p99('search', ' offset 1h'), 0.2), // 0.35 s
  },
  {
    scenario: 'search-noisy-neighbour',
    split: SPLIT,
    message: 'which node is the slow search pod on, and how busy is that nodes cpu?',
    expect: {
      all: [
        { contains: ['ip-10-0-2-34'] },
        number('1 - avg(rate(node_cpu_seconds_total{mode="idle", node="ip-10-0-2-34.eu-west-1.compute.internal"}[5m]))', 0.1), // 0.98
      ],
    },
  },

  // billing-timeout-config-change: the ledger client timeout lowered 37 min before the end; a fifth of billing's requests fail.
  {
    scenario: 'billing-timeout-config-change',
    split: SPLIT,
    message: 'for the status page: how many invoice requests have failed in the last 30 min?',
    expect: number(failedOver('billing', '', '30m'), 0.15), // 9836
  },
  {
    scenario: 'billing-timeout-config-change',
    split: SPLIT,
    message: 'nothing was deployed to billing today, right? so what changed, and at what time?',
    expect: at(37),
  },

  // archive-down-reported-deploy-red-herring: archive down from 36 min; a statements-static deploy reported at 48 min.
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: SPLIT,
    earlier: ['was statements deployed today?'],
    message: 'what time did that statements-static deploy go out?',
    expect: at(48),
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: SPLIT,
    message: 'how many statements requests are failing each second right now?',
    expect: number(errorsPerSecond('statements'), 0.15), // 17.8 req/s
  },
];
