/**
 * Development questions in the voice of a sceptical tech lead reviewing what an investigation said:
 * challenging its conclusion and asking for evidence ("are you sure it's X and not Y?", "show me the
 * numbers", "before or after the deploy?", "is the node the cause or a victim?"), with follow-ups that
 * refer to earlier answers, comparisons of two services, pods or times, a few questions the telemetry
 * cannot answer, and a few naming a service the data does not know.
 *
 * Every `number` oracle was run against the staged scenario (one finite value at the data's end; the
 * value seen is noted beside it), every `at` read off the staged data in minutes before its end, and
 * every name in `contains` taken from the staged series (seed-fixed pod and node names).
 */
import type { QuestionCase } from './conversation-cases';

const SPLIT = 'dev' as const;

/** The ratio of a workload's requests answered 5xx (over the last five minutes), optionally of a route or pod. */
const errRatio = (job: string, extra = ''): string =>
  `sum(rate(http_requests_total{job="${job}"${extra}, code=~"5.."}[5m])) / sum(rate(http_requests_total{job="${job}"${extra}}[5m]))`;

/** Each pod's 5xx ratio of a workload (one series a pod). */
const podErrRatios = (job: string): string =>
  `sum by (pod) (rate(http_requests_total{job="${job}", code=~"5.."}[5m])) / sum by (pod) (rate(http_requests_total{job="${job}"}[5m]))`;

/** The 99th percentile of a workload's request latency, optionally of a route or pod, optionally `offset`. */
const p99 = (job: string, extra = '', offset = ''): string =>
  `histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{job="${job}"${extra}}[5m]${offset})))`;

/** The 99th percentile of a workload's calls to a peer. */
const peerP99 = (job: string, peer: string, offset = ''): string =>
  `histogram_quantile(0.99, sum by (le) (rate(http_client_request_duration_seconds_bucket{job="${job}", peer="${peer}"}[5m]${offset})))`;

/** Calls per second from a workload to a peer, optionally of one outcome. */
const peerRate = (job: string, peer: string, extra = ''): string => `sum(rate(http_client_requests_total{job="${job}", peer="${peer}"${extra}}[5m]))`;

/** The share of a container's CFS periods that were throttled. */
const throttled = (container: string, offset = ''): string =>
  `sum(rate(container_cpu_cfs_throttled_periods_total{container="${container}"}[5m]${offset})) / sum(rate(container_cpu_cfs_periods_total{container="${container}"}[5m]${offset}))`;

/** The used share of a node's filesystem. */
const fsUsed = (mountpoint: string, node: string): string =>
  `1 - sum(node_filesystem_avail_bytes{mountpoint="${mountpoint}", node="${node}"}) / sum(node_filesystem_size_bytes{mountpoint="${mountpoint}", node="${node}"})`;

export const LEAD_DEV_CASES: QuestionCase[] = [
  // checkout-bad-version: checkout 2.15.0 from 38 min before the end; POST /api/checkout fails 11%.
  {
    scenario: 'checkout-bad-version',
    split: SPLIT,
    message: "before I sign off on 'it's 2.15.0' - which pods are actually running 2.15.0 and on which nodes? is it all of checkout or only some",
    expect: { podsOf: { workload: 'checkout', version: '2.15.0' } }, // value seen: all 3 checkout pods (their names change with each staging)
  },
  {
    scenario: 'checkout-bad-version',
    split: SPLIT,
    message: "don't give me the blended number. what's the error ratio on POST /api/checkout by itself right now?",
    expect: { number: errRatio('checkout', ', route="/api/checkout"'), tolerance: 0.15 }, // value seen: 0.110
  },
  {
    scenario: 'checkout-bad-version',
    split: SPLIT,
    earlier: ["what's the error ratio on POST /api/checkout by itself right now?"],
    message: 'ok. did that start before or after the deploy? give me the minute it started, not "around the rollout"',
    expect: { at: 38, tolerance: 3 }, // value seen: 5xx on /api/checkout from 38 min before the end, first 2.15.0 pod at 38
  },
  {
    scenario: 'checkout-bad-version',
    split: SPLIT,
    message: 'who approved 2.15.0 going out, and did it skip the canary stage? need that for the review',
    expect: { cannot: true },
  },

  // search-slow-version-chronic-alert: search 3.3.0 from 40 min before the end, /api/search 4.5x slower; chronic throttling on recommendations.
  {
    scenario: 'search-slow-version-chronic-alert',
    split: SPLIT,
    message:
      "the CPUThrottlingHigh on recommendations landed first. are you sure that's noise and not the cause? show me recommendations' throttled ratio now, and search's for comparison",
    expect: {
      all: [
        { number: throttled('recommendations'), tolerance: 0.15 }, // value seen: 0.549
        { number: throttled('search'), tolerance: 0.25 }, // value seen: 0.0047
      ],
    },
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: SPLIT,
    earlier: ['p99 of /api/search right now?'],
    message: 'when did that jump? before or after 3.3.0 went out',
    expect: { at: 40, tolerance: 3 }, // value seen: /api/search p99 0.37 s to 2.0 s between 40 and 38 min before the end; rollout at 40
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: SPLIT,
    earlier: ['p99 of /api/search right now?', 'when did that jump?'],
    message: 'and is 3.3.0 on both search pods or just one of them? which nodes',
    expect: { podsOf: { workload: 'search', version: '3.3.0' } }, // value seen: both search pods
  },

  // inventory-down-harmless-rollout: checkout 2.14.4 at 44 min; inventory down from 36 min; checkout fails calls with connection_refused.
  {
    scenario: 'inventory-down-harmless-rollout',
    split: SPLIT,
    message: "was the 2.14.4 rollout really harmless? give me the time checkout 2.14.4 went out and the time checkout's errors actually started, side by side",
    expect: {
      all: [
        { at: 44, tolerance: 3 }, // value seen: first 2.14.4 pod 44 min before the end
        { at: 36, tolerance: 3 }, // value seen: checkout 5xx from 36 min before the end
      ],
    },
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: SPLIT,
    message: "how exactly are checkout's calls to inventory failing - timeouts or refused? don't just say 'errors'",
    expect: { contains: ['connection_refused'] }, // value seen: checkout -> inventory code="connection_refused" 25.7/s, no 200s
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: SPLIT,
    earlier: ["how exactly are checkout's calls to inventory failing - timeouts or refused?"],
    message: 'and the other peer over the same time - how many calls/s to payments are still going through ok?',
    expect: { number: peerRate('checkout', 'payments', ', code="200"'), tolerance: 0.15 }, // value seen: 17.98
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: SPLIT,
    message: 'what does inventory-db look like over that window? if the db fell over first inventory is the victim not the cause',
    expect: { asks: true },
  },

  // orders-memory-leak-oom: working set climbs from 75 min before the end to the 1 GiB limit; OOMKilled from 41 min on.
  {
    scenario: 'orders-memory-leak-oom',
    split: SPLIT,
    message: 'are you sure these are OOM kills and not the app just crashing? what does the last terminated reason on the orders pods actually say',
    expect: { contains: ['OOMKilled'] }, // value seen: last_terminated_reason OOMKilled on orders-6fb5cc5f8-rff78 and -rpc5b
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: SPLIT,
    message: "when did orders' memory actually start climbing? I want the time it left its normal level, not when the alert went off",
    expect: { at: 75, tolerance: 5 }, // value seen: working set flat ~400 MiB until 75 min before the end, then rising
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: SPLIT,
    earlier: ["when did orders' memory start climbing?"],
    message: 'and the first OOM kill after that, what time was it',
    expect: { at: 41, tolerance: 3 }, // value seen: restarts 0 -> 2 between 41 and 40 min before the end
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: SPLIT,
    earlier: ['are you sure these are OOM kills? what does the last terminated reason say'],
    message: "show me the rff78 pod's working set as a fraction of its memory limit right now",
    expect: {
      number:
        'container_memory_working_set_bytes{pod="orders-6fb5cc5f8-rff78", container="orders"} / container_spec_memory_limit_bytes{pod="orders-6fb5cc5f8-rff78", container="orders"}',
      tolerance: 0.15,
    }, // value seen: 0.778
  },

  // media-disk-full-flapping-alert: /var/lib/media on ip-10-0-2-34 full from 37 min; uploads fail 507; frontend-8fd6d76c8-dtqns flaps every 25 min.
  {
    scenario: 'media-disk-full-flapping-alert',
    split: SPLIT,
    message:
      "FrontendTargetDown paged first. which of the frontend pods keeps flapping, and what node does it run on? if it's sitting on ip-10-0-2-34 next to media I'm not buying coincidence",
    expect: { contains: ['frontend-8fd6d76c8-dtqns', 'ip-10-0-1-23'] }, // value seen: up==0 every 25 min on frontend-8fd6d76c8-dtqns @ ip-10-0-1-23
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: SPLIT,
    message: 'you say /var/lib/media on that node is full. when exactly did free space hit zero - before the uploads started failing or after?',
    expect: { at: 37, tolerance: 3 }, // value seen: node_filesystem_avail_bytes{mountpoint="/var/lib/media"} 0 from 37 min before the end; 507s from 37
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: SPLIT,
    earlier: ['when exactly did free space on /var/lib/media hit zero?'],
    message: 'and / on the same box? is that filling up as well or is it fine',
    expect: { number: fsUsed('/', 'ip-10-0-2-34.eu-west-1.compute.internal'), tolerance: 0.1 }, // value seen: 0.605
  },

  // search-traffic-surge: /api/search traffic x6 from 39 min before the end; frontend 5.2.1 rolled out at 44.
  {
    scenario: 'search-traffic-surge',
    split: SPLIT,
    message:
      "you're blaming a crawler but frontend shipped 5.2.1 right before. is it really extra traffic? show me the /api/search request rate now vs an hour ago",
    expect: {
      all: [
        { number: 'sum(rate(http_requests_total{job="search", route="/api/search"}[5m]))', tolerance: 0.15 }, // value seen: 211.5
        { number: 'sum(rate(http_requests_total{job="search", route="/api/search"}[5m] offset 1h))', tolerance: 0.15 }, // value seen: 36.1
      ],
    },
  },
  {
    scenario: 'search-traffic-surge',
    split: SPLIT,
    earlier: ['show me the /api/search request rate now vs an hour ago'],
    message: 'same for /api/suggest. did that route go up too? if the crawler theory is right it shouldnt have',
    expect: { direction: 'about the same' }, // value seen: /api/suggest 6.4 req/s an hour ago, 6.25 now
  },
  {
    scenario: 'search-traffic-surge',
    split: SPLIT,
    message: 'did the frontend rollout start before or after search traffic jumped? give me both times',
    expect: {
      all: [
        { at: 44, tolerance: 3 }, // value seen: first frontend 5.2.1 pod 44 min before the end
        { at: 39, tolerance: 3 }, // value seen: /api/search 35 req/s until 39 min before the end, then climbing to ~215
      ],
    },
  },
  {
    scenario: 'search-traffic-surge',
    split: SPLIT,
    message: "is search actually cpu bound or is that a guess? what's its throttled period ratio right now",
    expect: { number: throttled('search'), tolerance: 0.1 }, // value seen: 0.996
  },

  // cart-config-crashloop: cart-config edited 38 min before the end; the new cart pod exits with Error and crash loops.
  {
    scenario: 'cart-config-crashloop',
    split: SPLIT,
    message:
      "which cart pod is crash looping, how many restarts has it had, and what's its last terminated reason? I want to be sure it's the new replicaset's pod and not one of the old ones dying",
    expect: {
      all: [
        { contains: ['Error'] }, // value seen: last_terminated_reason Error on the one new pod (its name changes with each staging)
        { number: 'max(kube_pod_container_status_restarts_total{container="cart"})', tolerance: 0.1 }, // value seen: 12
      ],
    },
  },
  {
    scenario: 'cart-config-crashloop',
    split: SPLIT,
    message: "you're pinning it on a config edit. which configmap changed and when? and did the crashes start after that or before",
    expect: {
      all: [
        { contains: ['cart-config'] },
        { at: 38, tolerance: 3 }, // value seen: cart-config resource version bumped 38.3 min before the end; first crash 37.9
      ],
    },
  },
  {
    scenario: 'cart-config-crashloop',
    split: SPLIT,
    earlier: ['which cart pod is crash looping and what is its last terminated reason?'],
    message: 'is it really only that one? how many restarts do the other cart pods have between them',
    expect: {
      number: 'sum(kube_pod_container_status_restarts_total{container="cart"}) - max(kube_pod_container_status_restarts_total{container="cart"})',
      tolerance: 0.1,
    }, // value seen: 0 (the three old cart-bcdb8f5bd pods never restarted)
  },
  {
    scenario: 'cart-config-crashloop',
    split: SPLIT,
    earlier: ['which configmap changed and when?'],
    message: 'what exactly was changed in it - which key, old value vs new? I want the diff before we revert blind',
    expect: { cannot: true },
  },

  // orders-worker-scaled-to-zero: orders-worker scaled to 0 at 44 min before the end; the orders queue has no consumers; a frontend pod flaps.
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: SPLIT,
    message: "before we say 'consumers are gone' - how old is the oldest message sitting on the orders queue right now? in seconds please",
    expect: { number: 'max(time() - rabbitmq_queue_head_message_timestamp{queue="orders"})', tolerance: 0.1 }, // value seen: 2641.5 s (emails: 1.5 s)
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: SPLIT,
    message: 'what time did orders-worker actually go to zero replicas? and did the queue lose its consumers the same minute or later',
    expect: { at: 44, tolerance: 3 }, // value seen: spec replicas 2 -> 0 and orders consumers 2 -> 0, 44 min before the end
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: SPLIT,
    earlier: ['what time did orders-worker go to zero replicas?'],
    message: 'who took it down to zero? somebody running kubectl or the autoscaler? I need to know before I bring it back up',
    expect: { cannot: true },
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: SPLIT,
    earlier: ['what time did orders-worker go to zero replicas?'],
    message: 'the FrontendTargetDown that paged first - which pod was that? I want to rule it out properly, not just wave it away',
    expect: { contains: ['frontend-d7c6b5d7c-stjnb'] }, // value seen: up==0 every 25 min on frontend-d7c6b5d7c-stjnb only
  },

  // checkout-slow-partner-bank: partner-bank slows from 37 min before the end; reports-batch saturates ip-10-0-2-34 from 40.
  {
    scenario: 'checkout-slow-partner-bank',
    split: SPLIT,
    message:
      "reports-batch is hammering ip-10-0-2-34 - is that node the cause or a victim here? how busy is its cpu now, and what's p99 for the checkout pod that runs on it",
    expect: {
      all: [
        { number: '1 - avg(rate(node_cpu_seconds_total{mode="idle", node="ip-10-0-2-34.eu-west-1.compute.internal"}[5m]))', tolerance: 0.05 }, // value seen: 0.98
        { number: p99('checkout', ', pod="checkout-bbb67f8ff-w4rdq"'), tolerance: 0.2 }, // value seen: 4.80
      ],
    },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: SPLIT,
    message: "show me payments' p99 on its calls to partner-bank now vs an hour ago",
    expect: {
      all: [
        { number: peerP99('payments', 'partner-bank'), tolerance: 0.2 }, // value seen: 4.69
        { number: peerP99('payments', 'partner-bank', ' offset 1h'), tolerance: 0.2 }, // value seen: 0.427
      ],
    },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: SPLIT,
    earlier: ["show me payments' p99 on its calls to partner-bank now vs an hour ago"],
    message: "what does checkout's p99 to inventory look like over the same time? if the node were the problem that'd be slow too",
    expect: { number: peerP99('checkout', 'inventory'), tolerance: 0.2 }, // value seen: 0.065
  },

  // recommendations-cpu-throttled: limits-only rollout at 40 min before the end, CPU limit 1 -> 0.3 cores, same 0.9.4; throttled, p99 up.
  {
    scenario: 'recommendations-cpu-throttled',
    split: SPLIT,
    message:
      'that rollout looks like a new build to me. did the recommendations version actually change? what version were the old pods on and what are the new ones on',
    expect: { contains: ['0.9.4'] }, // value seen: 0.9.4 before and after; only the cpu limit changed (1 -> 0.3)
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: SPLIT,
    message: "show me recommendations' throttled ratio now vs an hour ago. I want numbers, not 'elevated'",
    expect: {
      all: [
        { number: throttled('recommendations'), tolerance: 0.15 }, // value seen: 0.739
        { number: throttled('recommendations', ' offset 1h'), tolerance: 0.25 }, // value seen: 0.0048
      ],
    },
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: SPLIT,
    earlier: ["show me recommendations' throttled ratio now vs an hour ago"],
    message: 'and p99 latency, same comparison. did it actually go up or is it just the throttling metric looking scary',
    expect: { direction: 'up' }, // value seen: p99 0.26 s an hour ago, 1.89 s now
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: SPLIT,
    earlier: ["show me recommendations' throttled ratio now vs an hour ago", 'and p99 latency, same comparison'],
    message: 'when did that rollout go out? did latency climb straight away or did it creep up later',
    expect: { at: 40, tolerance: 3 }, // value seen: new pods from 40 min before the end; p99 0.26 -> 0.97 s at 39
  },

  // node-not-ready: ip-10-0-3-41 NotReady from 36 min before the end; cart-d7b5fbc6d-tk7ck stranded there; frontend's calls to cart time out.
  {
    scenario: 'node-not-ready',
    split: SPLIT,
    message: 'is the node the cause or a victim here? which node went NotReady and since when exactly',
    expect: {
      all: [
        { contains: ['ip-10-0-3-41'] },
        { at: 36, tolerance: 3 }, // value seen: Ready true -> false 36 min before the end
      ],
    },
  },
  {
    scenario: 'node-not-ready',
    split: SPLIT,
    earlier: ['which node went NotReady and since when?'],
    message: 'which cart pod was on that node? and the other cart pods are fine, right - show me',
    expect: { contains: ['cart-d7b5fbc6d-tk7ck'] }, // value seen: up 0 only for cart-d7b5fbc6d-tk7ck @ ip-10-0-3-41
  },
  {
    scenario: 'node-not-ready',
    split: SPLIT,
    earlier: ['which node went NotReady and since when?', 'which cart pod was on that node?'],
    message: "what fraction of frontend's calls to cart are failing right now? one pod out of three should mean about a third, if your story holds",
    expect: {
      number:
        'sum(rate(http_client_requests_total{job="frontend", peer="cart", code!="200"}[5m])) / sum(rate(http_client_requests_total{job="frontend", peer="cart"}[5m]))',
      tolerance: 0.15,
    }, // value seen: 0.333 (all code="timeout")
  },
  {
    scenario: 'node-not-ready',
    split: SPLIT,
    message: 'why did ip-10-0-3-41 die though? hardware fault, kernel panic, an AWS maintenance event? I need the root cause of the node itself for the PIR',
    expect: { cannot: true },
  },

  // partner-bank-certificate-expired: the partner-bank certificate expires 35 min before the end; payments' calls fail tls_error; chronic throttling on recommendations.
  {
    scenario: 'partner-bank-certificate-expired',
    split: SPLIT,
    message:
      "are you sure it's the certificate and not partner-bank simply being down? when exactly did the cert expire, and how are payments' calls to them failing",
    expect: {
      all: [
        { at: 35, tolerance: 3 }, // value seen: probe_ssl_earliest_cert_expiry 35 min before the end; probe_success 1 -> 0 at 35
        { contains: ['tls_error'] },
      ],
    },
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: SPLIT,
    earlier: ['when exactly did the partner-bank cert expire, and how are payments calls failing?'],
    message: "what's payments' 5xx ratio right now, and checkout's over the same window? is checkout even feeling this",
    expect: {
      all: [
        { number: errRatio('payments'), tolerance: 0.1 }, // value seen: 0.971
        { number: errRatio('checkout'), tolerance: 0.25 }, // value seen: 0.00097
      ],
    },
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: SPLIT,
    message: 'did partner-bank send us a heads-up about the renewal? is there already a ticket open with them',
    expect: { cannot: true },
  },

  // ordersdb-connections-exhausted: held connections on ordersdb from 44 min before the end reach max_connections (200); orders fails from 40; orders 2.3.1 at 46 changed nothing.
  {
    scenario: 'ordersdb-connections-exhausted',
    split: SPLIT,
    message: "are we sure it's the database and not the orders 2.3.1 rollout? how full is ordersdb - connections in use as a share of max_connections",
    expect: { number: 'sum(pg_stat_activity_count{server="ordersdb:5432"}) / max(pg_settings_max_connections{server="ordersdb:5432"})', tolerance: 0.05 }, // value seen: 0.995 (199 of 200; 160 idle in transaction)
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: SPLIT,
    earlier: ['how full is ordersdb right now?'],
    message: "how are orders' calls to the db actually failing? timeouts would point somewhere else",
    expect: { contains: ['too_many_connections'] }, // value seen: orders -> ordersdb code="too_many_connections" 11.5/s
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: SPLIT,
    earlier: ['how full is ordersdb right now?', 'what state are the connections in?'],
    message: 'which query, or whose job, is holding those transactions open? I want a name before I go kill sessions',
    expect: { cannot: true },
  },

  // sessions-redis-down-flapping-alert: sessions-redis down (redis_up 0, exporter up) from 36 min before the end; cart fails 90%; frontend-b8bb6bfb8-l2lfs flaps every 25 min.
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: SPLIT,
    message: 'is redis actually down or is it just the exporter that died? which redis, and since when',
    expect: {
      all: [
        { contains: ['sessions-redis'] },
        { at: 36, tolerance: 3 }, // value seen: redis_up 1 -> 0 36 min before the end; the exporter's up stays 1
      ],
    },
  },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: SPLIT,
    message:
      'the frontend page came in first. which frontend pod is flapping, and did it also drop out before the redis outage? when was the time before this one',
    expect: {
      all: [
        { contains: ['frontend-b8bb6bfb8-l2lfs'] },
        { at: 60, tolerance: 3 }, // value seen: up==0 on frontend-b8bb6bfb8-l2lfs 61-54 and 36-29 min before the end (every 25 min)
      ],
    },
  },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: SPLIT,
    earlier: ['is redis actually down or just the exporter? which redis, and since when'],
    message: "and sessions-memcached, the fallback cache - is that one healthy? if cart isn't falling back to it something's misconfigured",
    expect: { asks: true },
  },

  // payments-bad-version-noisy-neighbour: payments 1.9.0 from 36 min before the end fails 20%; ledger-reconcile burns ip-10-0-3-41 from 40, where no new payments pod runs.
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: SPLIT,
    message: 'is the node the cause or a victim? which node is ledger-reconcile burning cpu on, and is any payments pod actually running there right now',
    expect: { contains: ['ip-10-0-3-41'] }, // value seen: ledger-reconcile-7c8d7f7cc-m4xj2 @ ip-10-0-3-41; 1.9.0 pods on ip-10-0-1-23 and ip-10-0-2-34
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: SPLIT,
    message: 'per pod please: is the payments error ratio the same on both pods or is one of them much worse?',
    expect: {
      all: [
        { number: `max(${podErrRatios('payments')})`, tolerance: 0.1 }, // value seen: 0.200 (worse of the two 1.9.0 pods)
        { number: `min(${podErrRatios('payments')})`, tolerance: 0.1 }, // value seen: 0.200 (better of the two)
      ],
    },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: SPLIT,
    earlier: ['did payments start failing before or after that batch job started eating the cpu?'],
    message: "what's cpu on that node right now vs an hour ago?",
    expect: {
      all: [
        { number: '1 - avg(rate(node_cpu_seconds_total{mode="idle", node="ip-10-0-3-41.eu-west-1.compute.internal"}[5m]))', tolerance: 0.05 }, // value seen: 0.98
        { number: '1 - avg(rate(node_cpu_seconds_total{mode="idle", node="ip-10-0-3-41.eu-west-1.compute.internal"}[5m] offset 1h))', tolerance: 0.1 }, // value seen: 0.497
      ],
    },
  },

  // checkout-memory-limit-lowered: limits-only rollout at 40 min before the end, memory limit 768 -> 320 MiB, same 2.14.3; new pods OOMKilled, crash looping.
  {
    scenario: 'checkout-memory-limit-lowered',
    split: SPLIT,
    message:
      "that rollout looks like a new build to me - is it? what version are the crashing pods on, and what's their memory limit compared to the pods they replaced",
    expect: {
      all: [
        { contains: ['2.14.3'] },
        { number: 'max(kube_pod_container_resource_limits{container="checkout", resource="memory"})', tolerance: 0.05 }, // value seen: 335544320 (320 MiB)
        { number: 'max(kube_pod_container_resource_limits{container="checkout", resource="memory"} offset 1h)', tolerance: 0.05 }, // value seen: 805306368 (768 MiB)
      ],
    },
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: SPLIT,
    earlier: ['what version are the crashing pods on, and what is their memory limit?'],
    message: 'when did that rollout start, and how long after it did the first OOM kill land?',
    expect: {
      all: [
        { at: 40, tolerance: 3 }, // value seen: first new checkout pod 40 min before the end
        { at: 38, tolerance: 3 }, // value seen: restarts 0 -> 1 at 38 min before the end
      ],
    },
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: SPLIT,
    message: 'who cut the memory limit, and why? was it one of the cost-cutting PRs? I need to talk to whoever did it',
    expect: { cannot: true },
  },

  // ledger-volume-full-chronic-mount: PVC data-ledger full from 36 min before the end; POST /api/ledger/entries fails 507; /var/log/archive on ip-10-0-1-88 full all along.
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: SPLIT,
    message: "/var/log/archive on that node is at zero free as well. are you sure it's ledger's own volume and not that? which volume is it exactly",
    expect: { contains: ['data-ledger'] }, // value seen: kubelet_volume_stats_available_bytes{persistentvolumeclaim="data-ledger"} 0 from 36 min before the end; /var/log/archive 0 for all 3 h
  },
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: SPLIT,
    earlier: ['how many 507s per second on POST /api/ledger/entries?'],
    message: 'and the GET route - how many req/s is it still answering fine?',
    expect: { number: 'sum(rate(http_requests_total{job="ledger", route="/api/ledger/{id}", code="200"}[5m]))', tolerance: 0.15 }, // value seen: 4.10
  },
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: SPLIT,
    earlier: ['which volume is it exactly?'],
    message: 'what about ledger-replica? if its volume is filling at the same rate we have maybe an hour',
    expect: { asks: true },
  },

  // accounts-pool-exhausted-harmless-rollout: HikariPool-1 (10) runs dry from 38 min before the end; accountsdb fine; accounts 1.4.1 at 47 changed nothing.
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: SPLIT,
    message:
      "are you sure it's the pool and not accountsdb? show me accountsdb's connections as a share of max_connections next to how full the hikari pool is",
    expect: {
      all: [
        { number: 'sum(pg_stat_activity_count{server="accountsdb:5432"}) / max(pg_settings_max_connections{server="accountsdb:5432"})', tolerance: 0.15 }, // value seen: 0.137
        { number: 'sum(hikaricp_connections_active{job="accounts"}) / sum(hikaricp_connections_max{job="accounts"})', tolerance: 0.1 }, // value seen: 0.95
      ],
    },
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: SPLIT,
    message: 'was 1.4.1 really harmless? when did it roll out, and when did accounts actually start throwing errors',
    expect: {
      all: [
        { at: 47, tolerance: 3 }, // value seen: first accounts 1.4.1 pod 47 min before the end
        { at: 38, tolerance: 3 }, // value seen: accounts 5xx from 38 min before the end
      ],
    },
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: SPLIT,
    earlier: ["what's p99 on the transfer route now vs an hour ago"],
    message: "what does accounts' p99 to accountsdb look like over the same time? if the db were the problem it'd be slow there too",
    expect: { number: peerP99('accounts', 'accountsdb'), tolerance: 0.2 }, // value seen: 0.0145
  },

  // cart-liveness-slow-redis: sessions-redis slows to ~2 s from 38 min before the end; cart's liveness probe fails and kubelet restarts cart; chronic throttling on recommendations.
  {
    scenario: 'cart-liveness-slow-redis',
    split: SPLIT,
    message:
      "are these really liveness kills and not OOMs? what's the last terminated reason on the cart pods, and how many restarts in the last 15 minutes, all pods together",
    expect: {
      all: [
        { contains: ['Error'] }, // value seen: last_terminated_reason Error (exit 137) on all three, failed Liveness probes rising
        { number: 'sum(increase(kube_pod_container_status_restarts_total{container="cart"}[15m]))', tolerance: 0.15 }, // value seen: 48
      ],
    },
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: SPLIT,
    message: "show me the median latency of cart's calls to sessions-redis now vs an hour ago",
    expect: {
      all: [
        {
          number: 'histogram_quantile(0.5, sum by (le) (rate(http_client_request_duration_seconds_bucket{job="cart", peer="sessions-redis"}[5m])))',
          tolerance: 0.2,
        }, // value seen: 2.07
        {
          number: 'histogram_quantile(0.5, sum by (le) (rate(http_client_request_duration_seconds_bucket{job="cart", peer="sessions-redis"}[5m] offset 1h)))',
          tolerance: 0.25,
        }, // value seen: 0.0050
      ],
    },
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: SPLIT,
    earlier: ["show me the median latency of cart's calls to sessions-redis now vs an hour ago"],
    message: 'at what point did redis become slow? was that before cart started restarting or after',
    expect: { at: 38, tolerance: 3 }, // value seen: sessions-redis median 5 ms until 38 min before the end, 2 s from 37; cart restarts 0 -> 3 at 36.5
  },

  // inventory-liveness-unexplained: inventory's liveness probes fail from 37 min before the end (a hang the metrics do not show); catalog-sync bursts on ip-10-0-3-41 with CPU to spare.
  {
    scenario: 'inventory-liveness-unexplained',
    split: SPLIT,
    message:
      "is the node the cause or a victim? catalog-sync is bursting on ip-10-0-3-41 - how busy is that node's cpu right now, and how many restarts does the inventory pod on the *other* node have",
    expect: {
      all: [
        { number: '1 - avg(rate(node_cpu_seconds_total{mode="idle", node="ip-10-0-3-41.eu-west-1.compute.internal"}[5m]))', tolerance: 0.1 }, // value seen: 0.503
        { number: 'sum(kube_pod_container_status_restarts_total{pod="inventory-c58d68b5c-9t5rx"})', tolerance: 0.1 }, // value seen: 40 (inventory-c58d68b5c-9t5rx @ ip-10-0-1-88)
      ],
    },
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: SPLIT,
    message: "are you sure it's not memory? what's the working set of inventory-c58d68b5c-lfg9w as a share of its limit",
    expect: {
      number:
        'sum(container_memory_working_set_bytes{pod="inventory-c58d68b5c-lfg9w", container="inventory"}) / sum(container_spec_memory_limit_bytes{pod="inventory-c58d68b5c-lfg9w", container="inventory"})',
      tolerance: 0.15,
    }, // value seen: 0.227
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: SPLIT,
    message: 'when did the first liveness restart happen? and did anything change just before it - a deploy, a config push, anything',
    expect: { at: 37, tolerance: 3 }, // value seen: inventory-c58d68b5c-lfg9w restarts 0 -> 1 at 36.5 min before the end; no rollout or configmap change
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: SPLIT,
    earlier: ['when did the first liveness restart happen?', 'did anything change just before it?'],
    message: 'so why are the processes hanging then? deadlock, GC pause, stuck thread? what is actually wrong inside inventory',
    expect: { cannot: true },
  },

  // search-noisy-neighbour: video-transcode starves search-878b86fb7-m9xrk on ip-10-0-2-34 from 37 min before the end; image-resizer pegs ip-10-0-1-23 (no search) from 39; log-shipper bursts on ip-10-0-3-41.
  {
    scenario: 'search-noisy-neighbour',
    split: SPLIT,
    message: 'two nodes are pegged at 98%. which one actually matters for search? give me p99 per search pod and the node each one is on',
    expect: {
      all: [
        { contains: ['search-878b86fb7-m9xrk', 'ip-10-0-2-34'] },
        { number: p99('search', ', pod="search-878b86fb7-m9xrk"'), tolerance: 0.2 }, // value seen: 2.41
      ],
    },
  },
  {
    scenario: 'search-noisy-neighbour',
    split: SPLIT,
    earlier: ['give me p99 per search pod and the node each one is on'],
    message: "and what does the other search pod's p99 look like over the same time?",
    expect: { number: p99('search', ', pod="search-878b86fb7-px6bm"'), tolerance: 0.2 }, // value seen: 0.348
  },
  {
    scenario: 'search-noisy-neighbour',
    split: SPLIT,
    earlier: ['give me p99 per search pod and the node each one is on'],
    message: 'log-shipper is bursting on the other search node too. is that node actually short on cpu? how busy is ip-10-0-3-41',
    expect: { number: '1 - avg(rate(node_cpu_seconds_total{mode="idle", node="ip-10-0-3-41.eu-west-1.compute.internal"}[5m]))', tolerance: 0.1 }, // value seen: 0.740
  },

  // billing-timeout-config-change: cfg-8841 lowers billing's ledger timeout 2s -> 150ms, reported 37 min before the end; a fifth of billing's requests fail 504 from 36.
  {
    scenario: 'billing-timeout-config-change',
    split: SPLIT,
    message:
      "the metrics show no deploy and no restarts on billing, so what's the evidence it's a config change? what change was reported, when, and when did billing actually start failing",
    expect: {
      all: [
        { contains: ['150ms'] }, // the reported change: billing: ledger client timeout 2s -> 150ms
        { at: 37, tolerance: 3 }, // value seen: cfg-8841 reported 37 min before the end
        { at: 36, tolerance: 3 }, // value seen: billing 504s from 36 min before the end
      ],
    },
  },
  {
    scenario: 'billing-timeout-config-change',
    split: SPLIT,
    message: "what's the p99 on billing's calls to ledger right now? if it sits right around 150ms I'm convinced",
    expect: { number: peerP99('billing', 'ledger'), tolerance: 0.2 }, // value seen: 0.221 (all calls code="timeout")
  },
  {
    scenario: 'billing-timeout-config-change',
    split: SPLIT,
    earlier: ["what's the p99 on billing's calls to ledger right now?"],
    message: "what share of billing's requests come back 504 right now?",
    expect: { number: 'sum(rate(http_requests_total{job="billing", code="504"}[5m])) / sum(rate(http_requests_total{job="billing"}[5m]))', tolerance: 0.1 }, // value seen: 0.200
  },
  {
    scenario: 'billing-timeout-config-change',
    split: SPLIT,
    earlier: ['what change was reported, and when?'],
    message: 'and the billing version, did that move at the same time? which version are the pods on',
    expect: { contains: ['3.2.0'] }, // value seen: both billing pods 3.2.0 throughout
  },

  // archive-down-reported-deploy-red-herring: archive down from 36 min before the end; statements fails 60% (connection_refused); a statements asset deploy reported at 48 changed nothing.
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: SPLIT,
    message:
      "a statements deploy was reported about 12 minutes before this started. are you sure that's not it? what version are the statements pods on, when did the deploy land and when did the errors start",
    expect: {
      all: [
        { contains: ['3.2.0'] },
        { at: 48, tolerance: 3 }, // value seen: deploy-3301 (statements-static 2026.11.27-1) reported 48 min before the end
        { at: 36, tolerance: 3 }, // value seen: statements 5xx from 36 min before the end
      ],
    },
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: SPLIT,
    message: 'is archive the cause or a victim? are its pods even up, and how exactly are the calls from statements failing',
    expect: { contains: ['connection_refused', 'archive-7b6bfcfff-lr8jk', 'archive-7b6bfcfff-5zq9k'] }, // value seen: up 0 on both archive pods from 36 min before the end
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: SPLIT,
    earlier: ['is archive the cause or a victim? are its pods even up?'],
    message: "what share of statements' requests are failing right now?",
    expect: { number: errRatio('statements'), tolerance: 0.1 }, // value seen: 0.601
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: SPLIT,
    earlier: ['is archive the cause or a victim? are its pods even up?'],
    message: "and archive-db behind it - is that up? if the db went first archive's just another victim",
    expect: { asks: true },
  },
];
