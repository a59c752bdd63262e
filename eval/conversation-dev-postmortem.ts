/**
 * Conversation cases in the voice of an engineer writing an incident's postmortem the day after
 * (its timeline and impact sections), asking in the incident's conversation: when things started,
 * fired, peaked and recovered, how long they lasted, the peak and the total (failed requests,
 * restarts, OOM kills), what changed just before, which versions ran where, what was fine, and
 * what the data cannot tell (who approved a deploy, money lost).
 *
 * Written from eval/scenarios.ts, eval/shop.ts, eval/cluster.ts, eval/telemetry.ts and
 * eval/harness.ts (onsets, rollouts, kills, pods and nodes of each scenario's generator), with the
 * expectation types of eval/conversation-cases.ts. Every `number` oracle was run against each
 * scenario's staged three hours of data and returns exactly one finite value at the data's end;
 * every `at` was derived from the generator's offsets and checked with range queries over the
 * staged data (the page times are the derived page's minutes before the end).
 */
import type { Expect, QuestionCase } from './conversation-cases';

/** Minutes before the data's end each scenario's page fired (the derived page, as staged). */
const PAGE: Record<string, number> = {
  'search-slow-version-chronic-alert': 34.5,
  'media-disk-full-flapping-alert': 31.5,
  'cart-config-crashloop': 32.5,
  'orders-worker-scaled-to-zero': 29,
  'recommendations-cpu-throttled': 34.5,
  'partner-bank-certificate-expired': 29.5,
  'payments-bad-version-noisy-neighbour': 29,
};

/** `expr` as it was `minutes` before the data's end. */
const ago = (expr: string, minutes: number): string => `last_over_time((${expr})[2m:30s] offset ${minutes * 60}s)`;

/** The highest `expr` reached over the last `minutes`. */
const peak = (expr: string, minutes: number): string => `max_over_time((${expr})[${minutes}m:30s])`;

/** The share of a job's requests answered with a 5xx (`extra`: more label matchers, starting with a comma). */
const errorRatio = (job: string, extra = ''): string =>
  `sum(rate(http_requests_total{job="${job}", code=~"5.."${extra}}[5m])) / sum(rate(http_requests_total{job="${job}"${extra}}[5m]))`;

/** Requests of a job answered with a 5xx (or `code`) over the last `minutes`. */
const failedOver = (job: string, minutes: number, extra = '', code = '5..'): string =>
  `sum(increase(http_requests_total{job="${job}", code=~"${code}"${extra}}[${minutes}m]))`;

const rps = (job: string, extra = ''): string => `sum(rate(http_requests_total{job="${job}"${extra}}[5m]))`;

/** A quantile of a job's request latency (seconds). */
const latency = (job: string, extra = '', q = 0.99): string =>
  `histogram_quantile(${q}, sum by (le) (rate(http_request_duration_seconds_bucket{job="${job}"${extra}}[5m])))`;

/** A quantile of a job's calls to a peer (seconds). */
const callLatency = (job: string, peer: string, q = 0.99): string =>
  `histogram_quantile(${q}, sum by (le) (rate(http_client_request_duration_seconds_bucket{job="${job}", peer="${peer}"}[5m])))`;

/** Container restarts of a workload's pods (all within the data). */
const restarts = (container: string): string => `sum(kube_pod_container_status_restarts_total{namespace="shop", container="${container}"})`;

/** The share of a container's CFS periods throttled over five minutes. */
const throttled = (container: string): string =>
  `sum(increase(container_cpu_cfs_throttled_periods_total{container="${container}"}[5m])) / sum(increase(container_cpu_cfs_periods_total{container="${container}"}[5m]))`;

const cpuCores = (container: string): string => `sum(rate(container_cpu_usage_seconds_total{container="${container}"}[5m]))`;

const memoryLimit = (container: string): string => `max(kube_pod_container_resource_limits{namespace="shop", container="${container}", resource="memory"})`;

/** The share of a database server's max_connections in use. */
const connectionsUsed = (server: string): string =>
  `sum(pg_stat_activity_count{server="${server}:5432"}) / max(pg_settings_max_connections{server="${server}:5432"})`;

/** The busy share of a node's CPUs. */
const nodeBusy = (node: string): string => `1 - avg(rate(node_cpu_seconds_total{mode="idle", node="${node}.eu-west-1.compute.internal"}[5m]))`;

const n = (number: string, tolerance = 0.2): Expect => ({ number, tolerance });
const at = (minutes: number, tolerance = 2): Expect => ({ at: minutes, tolerance });
const page = (scenario: string, tolerance = 2): Expect => at(PAGE[scenario], tolerance);

const cases: Array<Omit<QuestionCase, 'split'>> = [
  // checkout 2.15.0 fails a tenth of POST /api/checkout from its rollout, 38 min before the end.
  {
    scenario: 'checkout-bad-version',
    message: 'writing up the checkout postmortem. what time did the 500s on POST /api/checkout actually start?',
    expect: at(38, 3),
  },
  {
    scenario: 'checkout-bad-version',
    message: 'for the impact section: peak checkout 5xx ratio during the incident, and total failed checkout requests since the rollout began?',
    expect: { all: [n(peak(errorRatio('checkout'), 40), 0.15), n(failedOver('checkout', 38))] },
  },
  {
    scenario: 'checkout-bad-version',
    earlier: ['what time did checkout 2.15.0 start rolling out?'],
    message: 'which pods got it, on which nodes? want the table in the doc',
    expect: { podsOf: { workload: 'checkout', version: '2.15.0' } },
  },
  {
    scenario: 'checkout-bad-version',
    message: "who signed off on shipping 2.15.0? the template has an 'approved by' field",
    expect: { cannot: true },
  },

  // search 3.3.0 (40 min before the end) slows /api/search; CPUThrottlingHigh on recommendations is chronic.
  {
    scenario: 'search-slow-version-chronic-alert',
    message: 'timeline question: when did SearchLatencyHigh fire?',
    expect: page('search-slow-version-chronic-alert'),
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    earlier: ['timeline question: when did SearchLatencyHigh fire?'],
    message: 'what was the p99 on /api/search right at that moment',
    expect: n(ago(latency('search', ', route="/api/search"'), PAGE['search-slow-version-chronic-alert'])),
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    message: 'search p99 on /api/search now vs an hour ago (before 3.3.0)? need both numbers for the impact table',
    expect: { all: [n(latency('search', ', route="/api/search"')), n(ago(latency('search', ', route="/api/search"'), 60))] },
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    earlier: ['timeline question: when did SearchLatencyHigh fire?', 'what was the p99 on /api/search right at that moment'],
    message: 'the CPUThrottlingHigh in the same group, on recommendations - how throttled is it right now? want to note it as unrelated',
    expect: n(throttled('recommendations')),
  },

  // inventory stops answering 36 min before the end; checkout 2.14.4 rolled out 8 min earlier.
  {
    scenario: 'inventory-down-harmless-rollout',
    message: 'when did inventory go down? first failed scrape time please',
    expect: at(36),
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    message: 'checkout was rolled out just before that right? what version was it and what time did it go out',
    expect: { all: [{ contains: ['2.14.4'] }, at(44, 3)] },
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    earlier: ['when did inventory go down? first failed scrape time please'],
    message: 'how many checkout requests failed with 503 from then till now',
    expect: n(failedOver('checkout', 36, '', '503')),
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    earlier: ['when did inventory go down? first failed scrape time please', 'how many checkout requests failed with 503 from then till now'],
    message: 'and at the worst point what % of checkout requests were failing?',
    expect: n(peak(errorRatio('checkout'), 40), 0.15),
  },

  // orders' memory leaks from 75 min before the end; OOMKilled from about 40 min before.
  {
    scenario: 'orders-memory-leak-oom',
    message: 'when did orders memory start climbing? pretty sure it was well before the first OOM',
    expect: at(75, 5),
  },
  {
    scenario: 'orders-memory-leak-oom',
    earlier: ['when did orders memory start climbing? pretty sure it was well before the first OOM'],
    message: 'ok and the first OOMKill, what time?',
    expect: at(40.4, 2),
  },
  {
    scenario: 'orders-memory-leak-oom',
    message: 'how many OOM kills on orders in total so far, and what memory limit were they hitting',
    expect: { all: [n(restarts('orders'), 0.05), n(memoryLimit('orders'), 0.05)] },
  },
  {
    scenario: 'orders-memory-leak-oom',
    message: 'the traffic mix change that kicked this off, was that a marketing campaign? who launched it?',
    expect: { cannot: true },
  },

  // /var/lib/media on ip-10-0-2-34 fills 37 min before the end; a frontend target flaps (last down 37 to 30 min before).
  {
    scenario: 'media-disk-full-flapping-alert',
    message: 'what time did /var/lib/media on ip-10-0-2-34 run out of space',
    expect: at(37),
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    earlier: ['what time did /var/lib/media on ip-10-0-2-34 run out of space'],
    message: 'how many uploads failed with 507 since then?',
    expect: n(failedOver('media', 37, ', route="/api/uploads"', '507')),
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    message: 'the FrontendTargetDown that paged right before the media one: when did that frontend target go down the last time and when was it back up?',
    expect: { all: [at(37), at(30)] },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    message: 'when did MediaUploadsFailing fire, for the timeline',
    expect: page('media-disk-full-flapping-alert'),
  },

  // A crawler multiplies /api/search by six from 39 min before the end; frontend 5.2.1 rolled out 5 min before.
  {
    scenario: 'search-traffic-surge',
    message: 'search rps before the crawler showed up vs at the peak?',
    expect: { all: [n(ago(rps('search'), 60)), n(peak(rps('search'), 40))] },
  },
  {
    scenario: 'search-traffic-surge',
    message: 'when did /api/search traffic start ramping up',
    expect: at(39, 3),
  },
  {
    scenario: 'search-traffic-surge',
    earlier: ['when did /api/search traffic start ramping up'],
    message: 'frontend went out right before that - which pods run 5.2.1 and where?',
    expect: { podsOf: { workload: 'frontend', version: '5.2.1' } },
  },
  {
    scenario: 'search-traffic-surge',
    earlier: ['search rps before the crawler showed up vs at the peak?'],
    message: 'and how many cores was search burning at the peak, total across its pods',
    expect: n(peak(cpuCores('search'), 40), 0.15),
  },

  // An edit of cart-config (38 min before the end) rolls cart; the new pod crash loops.
  {
    scenario: 'cart-config-crashloop',
    message: 'when exactly was cart-config edited? need the time for the timeline',
    expect: at(38.3),
  },
  {
    scenario: 'cart-config-crashloop',
    earlier: ['when exactly was cart-config edited? need the time for the timeline'],
    message: 'how many times has the new cart pod restarted since?',
    expect: n(restarts('cart'), 0.05),
  },
  {
    scenario: 'cart-config-crashloop',
    message: 'did the cart version change with that rollout or was it config only? and when did KubePodCrashLooping fire',
    expect: { all: [{ contains: ['4.1.2'] }, page('cart-config-crashloop')] },
  },
  {
    scenario: 'cart-config-crashloop',
    message: 'was the frontned affected at all? its 5xx ratio during the crashloop',
    expect: { asksFirst: 'frontend' },
  },

  // orders-worker scaled to zero 44 min before the end; the orders queue's oldest message ages.
  {
    scenario: 'orders-worker-scaled-to-zero',
    message: 'what time did orders-worker get scaled to 0?',
    expect: at(44),
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    earlier: ['what time did orders-worker get scaled to 0?'],
    message: 'and when did QueueMessagesStale fire after that',
    expect: page('orders-worker-scaled-to-zero'),
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    message: 'which person did the scale-down, someone running kubectl by hand or a pipeline? the postmortem asks for it',
    expect: { cannot: true },
  },

  // partner-bank slows from 37 min before the end; reports-batch saturates a checkout node from 40 min before.
  {
    scenario: 'checkout-slow-partner-bank',
    message: "when did payments' calls to partner-bank start getting slow",
    expect: at(37, 3),
  },
  {
    scenario: 'checkout-slow-partner-bank',
    earlier: ["when did payments' calls to partner-bank start getting slow"],
    message: 'whats the peak p99 of those calls over the incident?',
    expect: n(peak(callLatency('payments', 'partner-bank'), 40)),
  },
  {
    scenario: 'checkout-slow-partner-bank',
    message: 'checkout p99 at its worst during the incident?',
    expect: n(peak(latency('checkout'), 40)),
  },
  {
    scenario: 'checkout-slow-partner-bank',
    message: 'reports-batch was hammering a checkout node around the same time, which node was that and from when?',
    expect: { all: [{ contains: ['ip-10-0-2-34'] }, at(40)] },
  },

  // recommendations' CPU limit lowered to 0.3 cores 40 min before the end.
  {
    scenario: 'recommendations-cpu-throttled',
    message: 'when did the recommendations cpu limit get changed, and what is it now?',
    expect: { all: [at(40, 3), n('max(kube_pod_container_resource_limits{namespace="shop", container="recommendations", resource="cpu"})', 0.05)] },
  },
  {
    scenario: 'recommendations-cpu-throttled',
    earlier: ['when did RecommendationsLatencyHigh fire'],
    message: 'what share of its cpu periods were throttled at that moment?',
    expect: n(ago(throttled('recommendations'), PAGE['recommendations-cpu-throttled'])),
  },
  {
    scenario: 'recommendations-cpu-throttled',
    earlier: ["what's recommendations p99 now?"],
    message: 'and an hour ago, before the limit change?',
    expect: n(ago(latency('recommendations'), 60)),
  },

  // ip-10-0-3-41 goes NotReady 36 min before the end; the cart pod on it stops answering.
  {
    scenario: 'node-not-ready',
    message: 'how long has ip-10-0-3-41 been NotReady, since when exactly?',
    expect: at(36),
  },
  {
    scenario: 'node-not-ready',
    earlier: ['how long has ip-10-0-3-41 been NotReady, since when exactly?'],
    message: 'how many frontend requests failed between then and now',
    expect: n(failedOver('frontend', 36)),
  },
  {
    scenario: 'node-not-ready',
    message: 'which nodes are the cart pods on? need to show one of them sat on the dead node',
    expect: { podsOf: { workload: 'cart', version: '4.1.2' } },
  },
  {
    scenario: 'node-not-ready',
    message: 'did AWS report a hardware problem on that instance? is there a support case number we can link',
    expect: { cannot: true },
  },

  // partner-bank's certificate expires 35 min before the end.
  {
    scenario: 'partner-bank-certificate-expired',
    message: 'what time did the partner-bank cert expire exactly',
    expect: at(35, 1),
  },
  {
    scenario: 'partner-bank-certificate-expired',
    earlier: ['what time did the partner-bank cert expire exactly'],
    message: 'and PaymentsHighErrorRate fired when?',
    expect: page('partner-bank-certificate-expired'),
  },
  {
    scenario: 'partner-bank-certificate-expired',
    message: 'impact numbers for payments pls: peak error ratio, and failed requests since the cert expired',
    expect: { all: [n(peak(errorRatio('payments'), 40), 0.1), n(failedOver('payments', 35))] },
  },

  // Connections on ordersdb pile up from 44 min before the end; orders fails from 40; orders 2.3.1 rolled out at 46.
  {
    scenario: 'ordersdb-connections-exhausted',
    message: 'when did connections on ordersdb start piling up',
    expect: at(44, 3),
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    earlier: ['when did connections on ordersdb start piling up'],
    message: 'and when did orders start returning 500s?',
    expect: at(40),
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    message: 'what % of max_connections on ordersdb was in use at the worst point',
    expect: n(peak(connectionsUsed('ordersdb'), 45), 0.1),
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    earlier: ['when did orders 2.3.1 go out?'],
    message: 'which pods run it and on which nodes',
    expect: { podsOf: { workload: 'orders', version: '2.3.1' } },
  },

  // sessions-redis goes down 36 min before the end; cart fails; a frontend target flaps.
  {
    scenario: 'sessions-redis-down-flapping-alert',
    message: 'when did sessions-redis go down, redis_up going to 0 i mean?',
    expect: at(36),
  },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    message: 'cart impact for the doc: peak error ratio, and total failed cart requests since redis went down',
    expect: { all: [n(peak(errorRatio('cart'), 40), 0.1), n(failedOver('cart', 36))] },
  },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    message: 'did crat recover at all after that or is it still failing?',
    expect: { asksFirst: 'cart' },
  },

  // payments 1.9.0 from 36 min before the end; ledger-reconcile saturates a payments node from 40.
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    message: 'which payments pods ran 1.9.0, and on what nodes?',
    expect: { podsOf: { workload: 'payments', version: '1.9.0' } },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    message: 'timeline: when did ledger-reconcile start eating cpu, and when did the payments 1.9.0 rollout start?',
    expect: { all: [at(40), at(36)] },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    earlier: ['when did PaymentsHighErrorRate fire?'],
    message: 'what was the payments error ratio at that point',
    expect: n(ago(errorRatio('payments'), PAGE['payments-bad-version-noisy-neighbour']), 0.15),
  },

  // checkout's memory limit lowered to 320 MiB 40 min before the end; the new pods are OOMKilled.
  {
    scenario: 'checkout-memory-limit-lowered',
    earlier: ["what is checkout's memory limit now?"],
    message: 'and an hour ago, before that rollout?',
    expect: n(ago(memoryLimit('checkout'), 60), 0.05),
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    earlier: ["what is checkout's memory limit now?", 'and an hour ago, before that rollout?'],
    message: 'how many OOM kills across the checkout pods since the change?',
    expect: n(restarts('checkout'), 0.05),
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    message: 'when was the first OOMKill of the new checkout pods',
    expect: at(38.2, 1.5),
  },

  // data-ledger fills 36 min before the end; /var/log/archive on the same node full all along.
  {
    scenario: 'ledger-volume-full-chronic-mount',
    message: 'what time did the data-ledger volume fill up',
    expect: at(36),
  },
  {
    scenario: 'ledger-volume-full-chronic-mount',
    earlier: ['what time did the data-ledger volume fill up'],
    message: 'how many ledger writes failed since?',
    expect: n(failedOver('ledger', 36, ', route="/api/ledger/entries"')),
  },
  {
    scenario: 'ledger-volume-full-chronic-mount',
    message: 'what was p99 on ledgr writes before the volume filled, for comparison',
    expect: { asksFirst: 'ledger' },
  },
  {
    scenario: 'ledger-volume-full-chronic-mount',
    message: 'for the doc: how big is data-ledger, and how much free space did it have an hour ago?',
    expect: {
      all: [
        n('max(kubelet_volume_stats_capacity_bytes{persistentvolumeclaim="data-ledger"})', 0.05),
        n(ago('max(kubelet_volume_stats_available_bytes{persistentvolumeclaim="data-ledger"})', 60), 0.1),
      ],
    },
  },

  // accounts' HikariCP pool runs dry from 40 min before the end, failing from 38; accounts 1.4.1 rolled out at 47.
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    message: 'when did accounts start failing requests?',
    expect: at(38),
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    earlier: ['when did accounts start failing requests?'],
    message: 'was accountsdb itself ok? what % of its max connections were in use at the peak',
    expect: n(peak(connectionsUsed('accountsdb'), 40), 0.25),
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    message: 'accounts p99 at its peak during the incident?',
    expect: n(peak(latency('accounts'), 40)),
  },

  // sessions-redis slows 38 min before the end; cart's liveness probe kills its containers about every minute.
  {
    scenario: 'cart-liveness-slow-redis',
    message: 'what time was the first cart restart',
    expect: at(36.7, 1.5),
  },
  {
    scenario: 'cart-liveness-slow-redis',
    earlier: ['what time was the first cart restart'],
    message: 'total restarts across the cart pods since then?',
    expect: n(restarts('cart'), 0.05),
  },
  {
    scenario: 'cart-liveness-slow-redis',
    message: 'how much revenue did we lose while cart kept restarting? finance wants a number',
    expect: { cannot: true },
  },

  // inventory's liveness probes fail from 37 min before the end; catalog-sync bursts on ip-10-0-3-41 from 40.
  {
    scenario: 'inventory-liveness-unexplained',
    message: 'when did inventory start restarting',
    expect: at(36.5, 1.5),
  },
  {
    scenario: 'inventory-liveness-unexplained',
    message: 'catalog-sync on the inventory node: when did its cpu go up, and how busy was ip-10-0-3-41 overall at the peak?',
    expect: { all: [at(40), n(peak(nodeBusy('ip-10-0-3-41'), 45))] },
  },
  {
    scenario: 'inventory-liveness-unexplained',
    message: 'did anyone grab a thread dump from the hung inventory pods? need to link it',
    expect: { cannot: true },
  },

  // video-transcode starves the search pod on ip-10-0-2-34 from 37 min before the end.
  {
    scenario: 'search-noisy-neighbour',
    message: 'when did video-transcode start hogging ip-10-0-2-34',
    expect: at(37),
  },
  {
    scenario: 'search-noisy-neighbour',
    earlier: ['when did video-transcode start hogging ip-10-0-2-34'],
    message: 'search p99 at the worst point?',
    expect: n(peak(latency('search'), 40)),
  },
  {
    scenario: 'search-noisy-neighbour',
    message: 'image-resizer and log-shipper were busy too - when did each start, and on which nodes? want to show they werent on the starved one',
    expect: { all: [at(39, 1.5), at(38, 1.5), { contains: ['ip-10-0-1-23', 'ip-10-0-3-41'] }] },
  },

  // A config push lowers billing's ledger timeout 37 min before the end; billing fails from 36.
  {
    scenario: 'billing-timeout-config-change',
    message: 'what changed right before billing started failing, when, and who made it',
    expect: { all: [at(37), { contains: ['grace'] }] },
  },
  {
    scenario: 'billing-timeout-config-change',
    earlier: ['when did billing start failing?'],
    message: 'total failed billing requests since?',
    expect: n(failedOver('billing', 36)),
  },
  {
    scenario: 'billing-timeout-config-change',
    message: 'how much money in invoices failed to go out because of it? sorry, i know its a long shot',
    expect: { cannot: true },
  },

  // archive goes down 36 min before the end; a statements asset deploy was reported 48 min before.
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    message: 'at what time did archive stop answering?',
    expect: at(36),
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    message: 'the statements deploy that got reported before that: what time was it, and did the statements version actually change?',
    expect: { all: [at(48), { contains: ['3.2.0'] }] },
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    earlier: ['at what time did archive stop answering?'],
    message: 'and archive-replica, was that down too?',
    expect: { asks: true },
  },
];

export const POSTMORTEM_DEV_CASES: QuestionCase[] = cases.map((c): QuestionCase => ({ ...c, split: 'dev' }));
