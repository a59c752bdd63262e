/**
 * Questions of an engineer in their first on-call week: long-winded and polite, unsure of the names
 * of things (partial names, descriptions such as "the payment service" or "the redis thing", words
 * in the wrong order), asking about what they read on dashboards (databases, queues, disks,
 * certificates, probes, nodes, limits), sometimes two things at once, sometimes what the metrics
 * cannot tell.
 *
 * Written from the scenarios' generators only (eval/scenarios.ts, shop.ts, cluster.ts,
 * telemetry.ts), without looking at how the service parses or answers questions. Every
 * expectation was checked against the staged data (/tmp/tools/stage.js): each `number` oracle was
 * evaluated at the data's end and returns exactly one finite value, each `at` was confirmed by a
 * range query around the onset, each `contains` string is a label value of the data, and each
 * `direction` was compared against the same signal an hour (or half an hour) before.
 */
import type { Expect, QuestionCase } from './conversation-cases';

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

/** The share of a job's requests (optionally of one route) answered with a 5xx, over 5 minutes. */
const errorRatio = (job: string, route?: string): string =>
  `sum(rate(http_requests_total${sel({ job, route }, 'code=~"5.."')}[5m])) / sum(rate(http_requests_total${sel({ job, route })}[5m]))`;

/** Requests per second a job (optionally one route) serves, over 5 minutes. */
const requestRate = (job: string, route?: string): string => `sum(rate(http_requests_total${sel({ job, route })}[5m]))`;

/** The 99th percentile of a latency histogram's series matching `labels` (seconds), over 5 minutes. */
const p99Of = (metric: string, labels: Record<string, string | undefined>): string =>
  `histogram_quantile(0.99, sum by (le) (rate(${metric}_bucket${sel(labels)}[5m])))`;

/** The 99th percentile of a job's request latency (seconds), over 5 minutes. */
const p99 = (job: string): string => p99Of('http_request_duration_seconds', { job });

/** The 99th percentile of a job's calls to a peer (seconds), over 5 minutes. */
const clientP99 = (job: string, peer: string): string => p99Of('http_client_request_duration_seconds', { job, peer });

/** The mean duration of a job's calls to a peer (seconds), over 5 minutes. */
const clientMean = (job: string, peer: string): string =>
  `sum(rate(http_client_request_duration_seconds_sum${sel({ job, peer })}[5m])) / sum(rate(http_client_request_duration_seconds_count${sel({ job, peer })}[5m]))`;

/** The share of a job's calls to a peer that did not succeed, over 5 minutes. */
const clientFailures = (job: string, peer: string): string =>
  `sum(rate(http_client_requests_total${sel({ job, peer }, 'code!="200"')}[5m])) / sum(rate(http_client_requests_total${sel({ job, peer })}[5m]))`;

/** CPU cores a container uses, over all its pods, over 5 minutes. */
const cores = (container: string): string => `sum(rate(container_cpu_usage_seconds_total${sel({ container })}[5m]))`;

/** The share of a container's CFS periods that were throttled, over 5 minutes. */
const throttledShare = (container: string): string =>
  `sum(increase(container_cpu_cfs_throttled_periods_total${sel({ container })}[5m])) / sum(increase(container_cpu_cfs_periods_total${sel({ container })}[5m]))`;

/** A container's limit of `resource` (cores or bytes), the largest of its pods'. */
const limit = (container: string, resource: 'cpu' | 'memory'): string => `max(kube_pod_container_resource_limits${sel({ container, resource })})`;

/** A pod's name: its workload, its pod template's hash and its own suffix. */
const pod = (workload: string, hash: string, suffix: string): string => [workload, hash, suffix].join('-');

/** Connections of a Postgres server as a share of its max_connections. */
const connectionsUsed = (server: string): string =>
  `sum(pg_stat_activity_count{server="${server}:5432"}) / max(pg_settings_max_connections{server="${server}:5432"})`;

const num = (number: string, tolerance = 0.15): Expect => ({ number, tolerance });

export const NEWCOMER_DEV_CASES: QuestionCase[] = [
  // checkout-bad-version: checkout errors 7.7% overall, 11% on /api/checkout (all three pods on
  // 2.15.0, rolled out 38 min before the end); payments serves about 20.8 req/s.
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    message:
      "Hi everyone, sorry, first week on call here. The checkout dashboard has gone red on the errors panel and I'm not sure I'm reading it right - could you tell me what percentage of the checkout requests are failing at the moment?",
    expect: num(errorRatio('checkout'), 0.2),
  },
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    earlier: ["what's the error rate of checkout right now?"],
    message:
      'thank you! the dashboard also mentions a new version, 2.15 something (2.15.0 I think?). Which of the checkout pods are actually running it, and on which nodes are they?',
    expect: { podsOf: { workload: 'checkout', version: '2.15.0' } },
  },
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    message:
      "Sorry, another one - roughly what time did that new checkout build start rolling out? I'd like to put it in the incident timeline doc and I don't trust myself reading the deploy graph.",
    expect: { at: 38, tolerance: 3 },
  },
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    message:
      "Two things if that's ok: what's the error ratio only on the POST /api/checkout route (not the status one), and how many requests per second is the payment service behind it getting? Just want to know whether payments looks normal or not.",
    expect: { all: [num(errorRatio('checkout', '/api/checkout'), 0.2), num(requestRate('payments'), 0.2)] },
  },

  // search-slow-version-chronic-alert: search's p99 about 1.95 s (3.3.0 from 40 min before, 3.2.1
  // before it); CPUThrottlingHigh is on recommendations (95% of its 0.5-core limit).
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'dev',
    message:
      "Hello, the search latency alert paged me. There are like three latency panels on the search dashboard and I don't know which one is the right one - what's the p99 of search right now, in seconds?",
    expect: num(p99('search'), 0.25),
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'dev',
    message:
      "There's also this CPUThrottlingHigh alert in the same group that has apparently been firing since before my shift started. Is that about search too, or about some other thing? Which workload is it actually on?",
    expect: { contains: ['recommendations'] },
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'dev',
    earlier: ['which version is the search service running now?'],
    message: 'ok thanks, and which version was it on before that one, like an hour ago? sorry if thats obvious',
    expect: { contains: ['3.2.1'] },
  },

  // inventory-down-harmless-rollout: inventory stops answering 36 min before the end (its
  // healthz probe fails); every checkout call to inventory is refused (connection_refused);
  // checkout 2.14.4 rolled out 44 min before on three pods.
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'dev',
    message:
      'Checkout is throwing errors and on the blackbox dashboard the probe for the inventory healthz thing is red. Is the inventory service actually down, and if so from what time? (sorry, still learning where everything is)',
    expect: { all: [{ contains: ['inventory'] }, { at: 36, tolerance: 3 }] },
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'dev',
    message:
      'I also noticed checkout had a deploy a bit before all this, 2.14.4 I believe? Could you tell me which checkout pods got that version and where they run?',
    expect: { podsOf: { workload: 'checkout', version: '2.14.4' } },
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'dev',
    message:
      "What share of checkout's calls to inventory are failing right now, and how do they fail? The legend on the client panel says something like connection refused but it's cut off.",
    expect: { all: [num(clientFailures('checkout', 'inventory'), 0.1), { contains: ['connection_refused'] }] },
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'dev',
    earlier: ["what's checkout's error rate at the moment?"],
    message: 'hm ok. was it like that an hour ago as well, or has it gone up since then?',
    expect: { direction: 'up' },
  },

  // orders-memory-leak-oom: orders' working set climbs to its 1 GiB limit, the containers are
  // OOMKilled from 40 min before the end (12 restarts in all by then).
  {
    scenario: 'orders-memory-leak-oom',
    split: 'dev',
    message:
      "KubePodRestartingOften fired for the orders pods. Could you tell me why they're getting restarted (what's the last termination reason?) and what the memory limit on the orders containers is? I think the memory panel shows something near 1 GB but I'm not sure that's the limit.",
    expect: { all: [{ contains: ['OOMKilled'] }, num(limit('orders', 'memory'), 0.05)] },
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: 'dev',
    earlier: ['why are the orders pods restarting over and over?'],
    message: 'I see, thanks. How long has that been going on - when was the very first one of them killed?',
    expect: { at: 40, tolerance: 2 },
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: 'dev',
    message:
      "Someone in the channel asked whether the orders database might be the issue. How many connections does ordersdb (the orders postgres, if that's what it's called) have open right now?",
    expect: { cannot: true },
  },

  // media-disk-full-flapping-alert: /var/lib/media (200 GiB) on ip-10-0-2-34 is full from 37 min
  // before the end; uploads (about 2.6 req/s) fail with 507 (2.7 req/s of uploads). frontend flapped just before.
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'dev',
    message:
      "I got paged for MediaUploadsFailing, but FrontendTargetDown came first in the same group, so I'm a bit confused whether it's one problem or two. The uploads fail with 507, which I googled means storage - which disk is full, and on which node?",
    expect: { contains: ['/var/lib/media', 'ip-10-0-2-34'] },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'dev',
    message: 'how big is that media volume on the node, and how full is it in percent? the disk panel has too many lines for me to tell',
    expect: {
      all: [
        num(`max(node_filesystem_size_bytes${sel({ mountpoint: '/var/lib/media' })})`, 0.05),
        num(
          `1 - max(node_filesystem_avail_bytes${sel({ mountpoint: '/var/lib/media' })}) / max(node_filesystem_size_bytes${sel({ mountpoint: '/var/lib/media' })})`,
          0.05,
        ),
      ],
    },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'dev',
    message: 'For the timeline: around what time did the media disk actually fill up completely?',
    expect: { at: 37, tolerance: 2 },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'dev',
    earlier: ["what's the error rate of the media uploads?"],
    message: 'and how many uploads per second are even coming in, roughly? trying to understand how many people this hits',
    expect: num(requestRate('media', '/api/uploads'), 0.2),
  },

  // search-traffic-surge: /api/search goes from about 37 to about 211 req/s from 39 min before
  // the end (ramp of 4 min); frontend 5.2.1 rolled out 44 min before on three pods.
  {
    scenario: 'search-traffic-surge',
    split: 'dev',
    message:
      "Search is slow and I see a huge bump on the requests panel. How many requests per second is /api/search getting right now? I'm wondering if it's a crawler or something but I don't know how to tell.",
    expect: num(requestRate('search', '/api/search'), 0.2),
  },
  {
    scenario: 'search-traffic-surge',
    split: 'dev',
    message: 'The deploys panel shows frontend got 5.2.1 shortly before this. Could that be related? Which frontend pods run 5.2.1, and on what nodes?',
    expect: { podsOf: { workload: 'frontend', version: '5.2.1' } },
  },
  {
    scenario: 'search-traffic-surge',
    split: 'dev',
    earlier: ["what's the p99 latency of search right now?"],
    message: "ok that's bad. from when? like when did the traffic on the search route jump up?",
    expect: { at: 39, tolerance: 3 },
  },

  // cart-config-crashloop: cart-config edited 38 min before the end; the new cart pod crash loops
  // (12 restarts by the end) while the three old pods keep serving cart's traffic.
  {
    scenario: 'cart-config-crashloop',
    split: 'dev',
    message:
      'KubePodCrashLooping for a cart pod. The version did not change as far as I can see, so what changed right before it started crashing? I saw something on the configmaps panel but I could be wrong.',
    expect: { contains: ['cart-config'] },
  },
  {
    scenario: 'cart-config-crashloop',
    split: 'dev',
    earlier: ['which of the cart pods is crash looping?'],
    message: 'and how many times has that pod restarted so far?',
    expect: num('max(kube_pod_container_status_restarts_total{container="cart"})', 0.15),
  },
  {
    scenario: 'cart-config-crashloop',
    split: 'dev',
    message:
      "Sorry if this is a silly question, but can we see what was actually changed inside the cart-config configmap? Like which key or value someone edited? I'd like to know what to revert.",
    expect: { cannot: true },
  },

  // orders-worker-scaled-to-zero: orders-worker scaled to 0 at 44 min before the end; the orders
  // queue has no consumers, its oldest message is about 2640 s old and the ready count grows.
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'dev',
    message:
      "QueueMessagesStale is firing for... the orders queue I think? On rabbitmq. How old is the oldest message sitting in there now? I'm not sure how to read the head timestamp panel.",
    expect: num(`max(time() - rabbitmq_queue_head_message_timestamp${sel({ queue: 'orders' })})`, 0.1),
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'dev',
    message:
      'It looks like the orders worker deployment has no pods at all? When was it scaled down, approximately? I want to check if someone did that on purpose.',
    expect: { at: 44, tolerance: 2 },
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'dev',
    message: "is the order thing broken?? the orders something - sorry, I don't know yet which one is which here",
    expect: { asks: true },
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'dev',
    earlier: ['how many messages are waiting in the orders queue?'],
    message: 'is that number going up compared to half an hour ago, or is it stable?',
    expect: { direction: 'up' },
  },

  // checkout-slow-partner-bank: partner-bank answers payments with a p99 of 4.7 s (0.47 s an
  // hour before) from 37 min before the end; checkout p99 4.8 s on every pod alike. reports-batch runs on ip-10-0-2-34.
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    message: "Hi, CheckoutLatencyHigh fired. What's the p99 latency of checkout right now? Sorry, I'm still figuring out the dashboards.",
    expect: num(p99('checkout'), 0.25),
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    message: "How long are the payment service's calls to the bank thing (partner-bank?) taking at the moment, at the 99th percentile?",
    expect: num(clientP99('payments', 'partner-bank'), 0.25),
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    message:
      'One of the nodes is showing a big CPU spike, from some batch job, reports-something. Is that the thing making checkout slow? Which node is it running on, and which job exactly?',
    expect: { contains: ['reports-batch', 'ip-10-0-2-34'] },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    earlier: ["what's the p99 latency of payments?"],
    message: 'is that higher than it was an hour ago? I have no idea what normal looks like for it',
    expect: { direction: 'up' },
  },

  // recommendations-cpu-throttled: the rollout 40 min before the end lowers the CPU limit to 0.3
  // cores (version stays 0.9.4); 74% of CFS periods are throttled; p99 1.9 s (0.26 s an hour before).
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'dev',
    message:
      "The recommendation service latency alert fired. I was told its CPU limit is 1 core, but the limits panel looks different - what's the CPU limit on those pods now?",
    expect: num(limit('recommendations', 'cpu'), 0.05),
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'dev',
    message:
      'how throttled are the recommendations containers at the moment? like what percentage of their CFS periods get throttled (if I understood that metric right)',
    expect: num(throttledShare('recommendations'), 0.2),
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'dev',
    earlier: ["what's the p99 of recommendations now?"],
    message: 'and compared to an hour ago, before the change?',
    expect: { direction: 'up' },
  },

  // node-not-ready: ip-10-0-3-41 stops reporting 36 min before the end; a cart pod (seeded name,
  // never rolled) ran on it (frontend answers about 15% of its requests with 502).
  {
    scenario: 'node-not-ready',
    split: 'dev',
    message:
      "The frontend error rate alert fired. Also one of the nodes is grey on the nodes dashboard, ip-10-0-3-something? Is it NotReady? Which one exactly? I don't want to poke the wrong node.",
    expect: { contains: ['ip-10-0-3-41'] },
  },
  {
    scenario: 'node-not-ready',
    split: 'dev',
    earlier: ['which of the nodes is in NotReady state?'],
    message: 'from what time has it been like that?',
    expect: { at: 36, tolerance: 2 },
  },
  {
    scenario: 'node-not-ready',
    split: 'dev',
    earlier: ['is one of the nodes NotReady?'],
    message: 'which of the cart pods was running on that node? I want to check whether it got moved',
    expect: { contains: [pod('cart', 'd7b5fbc6d', 'tk7ck')] },
  },

  // partner-bank-certificate-expired: the certificate of api.partner-bank.example expires 35 min
  // before the end; every payments call to partner-bank fails with tls_error.
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'dev',
    message: 'Payments is failing. The blackbox SSL panel shows something about api.partner-bank.example - did their certificate expire? At what time exactly?',
    expect: { at: 35, tolerance: 2 },
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'dev',
    message: "What fraction of the payment service's calls to the bank are failing, and with which error? Sorry for the basic questions.",
    expect: { all: [num(clientFailures('payments', 'partner-bank'), 0.1), { contains: ['tls_error'] }] },
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'dev',
    message: "Has anyone already contacted the partner bank about renewing their certificate? And do we know when they'll have it fixed? My lead will ask me.",
    expect: { cannot: true },
  },

  // ordersdb-connections-exhausted: ordersdb reaches its 200 max_connections (mostly idle in
  // transaction) from 40 min before the end; orders 2.3.1 rolled out 46 min before; connections
  // at 99.5% of max; orders fails about 35% of its requests, p99 1.2 s.
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'dev',
    message:
      "The orders database panel looks scary. How many of its max_connections are in use right now, as a percentage? I don't remember what the max is set to.",
    expect: num(connectionsUsed('ordersdb'), 0.1),
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'dev',
    message: 'orders rolled out a new version shortly before this, 2.3.1 I think. Could that be it? When exactly did that rollout start?',
    expect: { at: 46, tolerance: 2 },
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'dev',
    message: 'which state are most of the connections on ordersdb in? the postgres panel splits them by state but the colours all look the same to me',
    expect: { contains: ['idle in transaction'] },
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'dev',
    earlier: ['what is the error rate of orders right now?'],
    message: 'and the p99 latency of orders, while we are at it?',
    expect: num(p99('orders'), 0.25),
  },

  // sessions-redis-down-flapping-alert: sessions-redis down (redis_up 0) from 36 min before the
  // end, its exporter up; cart fails about 90% of requests. One frontend pod flaps.
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'dev',
    message: "Cart is erroring. Is the redis thing down? The exporter looks up on the targets page, so I'm confused. Which redis is it, and from when?",
    expect: { all: [{ contains: ['sessions-redis'] }, { at: 36, tolerance: 2 }] },
  },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'dev',
    earlier: ['is sessions-redis down?'],
    message: "what does that do to cart? what's cart's error ratio at the moment?",
    expect: num(errorRatio('cart'), 0.1),
  },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'dev',
    message: 'FrontendTargetDown paged me first, before the cart thing. Which frontend pod is the one that keeps flapping?',
    expect: { contains: [pod('frontend', 'b8bb6bfb8', 'l2lfs')] },
  },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'dev',
    message: 'and is the session cache ok? the memcached one I mean, I think cart uses it too?',
    expect: { asks: true },
  },

  // payments-bad-version-noisy-neighbour: payments 1.9.0 from 36 min before the end fails 20%;
  // ledger-reconcile uses about 3.7 cores on ip-10-0-3-41 (a payments node before the rollout).
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    message: "Hi, PaymentsHighErrorRate. Could you tell me what the payment service's error rate is right now, please?",
    expect: num(errorRatio('payments'), 0.15),
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    earlier: ["what's the error rate of payments?"],
    message: 'I think there was a new version, 1.9.0? which pods have it then, and on which nodes?',
    expect: { podsOf: { workload: 'payments', version: '1.9.0' } },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    message:
      "One node's CPU is maxed by some ledger reconcile job. How much CPU, in cores, is that job using right now, and which node is it on? Trying to figure out if it's hurting payments.",
    expect: { all: [num(cores('ledger-reconcile'), 0.15), { contains: ['ip-10-0-3-41'] }] },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    message: "sorry, also - what's the error rate of the fraud-check service? payments calls it I think",
    expect: { asks: true },
  },

  // checkout-memory-limit-lowered: memory limit 768 MiB before, 320 MiB on the new pods (rollout
  // 40 min before the end, version still 2.14.3); the new pods are OOMKilled and crash loop.
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'dev',
    message:
      "What's the memory limit on checkout now, and what was it prior to the rollout? I have a feeling someone changed it but I'm not sure how to check.",
    expect: {
      all: [
        num('min(kube_pod_container_resource_limits{container="checkout", resource="memory"})', 0.05),
        num(`max(max_over_time(kube_pod_container_resource_limits${sel({ container: 'checkout', resource: 'memory' })}[3h]))`, 0.05),
      ],
    },
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'dev',
    message: 'the new checkout pods keep crashing, KubePodCrashLooping. what is the termination reason on them?',
    expect: { contains: ['OOMKilled'] },
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'dev',
    earlier: ["what is checkout's memory limit now?"],
    message: 'did the version change as well with that rollout, or is it the same build as before? which version is it?',
    expect: { contains: ['2.14.3'] },
  },

  // ledger-volume-full-chronic-mount: claim data-ledger (50 GiB) on ip-10-0-1-88 has no space
  // from 36 min before the end; POST /api/ledger/entries fails 95% with 507. /var/log/archive on
  // the same node is full all along.
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'dev',
    message:
      "Ledger writes are failing with 507. I see a PVC panel and also /var/log/archive at 100% on the node, so now I don't know which one matters. Which volume is the one ledger actually writes to that's full?",
    expect: { contains: ['data-ledger'] },
  },
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'dev',
    message: 'when did the ledger volume run out of space? roughly is fine',
    expect: { at: 36, tolerance: 2 },
  },
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'dev',
    earlier: ['which volume of ledger is full?'],
    message: 'ok and what is the error ratio on the POST /api/ledger/entries route right now?',
    expect: num(errorRatio('ledger', '/api/ledger/entries'), 0.1),
  },

  // accounts-pool-exhausted-harmless-rollout: HikariPool-1 all 10 connections active from 38 min
  // before the end; accountsdb at about 14% of its 300 connections; accounts 1.4.1 from 47 min
  // before; accounts fails 30%.
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'dev',
    message: 'accounts is failing requests. Is the accounts database (accountsdb?) saturated? What percent of its max_connections is used right now?',
    expect: num(connectionsUsed('accountsdb'), 0.2),
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'dev',
    message: 'how full is the hikari pool thing of accounts, percent of active connections out of the max?',
    expect: num(`sum(hikaricp_connections_active${sel({ job: 'accounts' })}) / sum(hikaricp_connections_max${sel({ job: 'accounts' })})`, 0.1),
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'dev',
    message: 'accounts rolled out 1.4.1 a bit before. which pods run 1.4.1 and where?',
    expect: { podsOf: { workload: 'accounts', version: '1.4.1' } },
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'dev',
    earlier: ["what's the p99 latency of accounts at the moment?"],
    message: 'thanks, and its error rate?',
    expect: num(errorRatio('accounts'), 0.15),
  },

  // cart-liveness-slow-redis: sessions-redis slows to about 2.3 s a call (mean) from 38 min
  // before the end; cart's liveness probes fail and its three pods restart every ~54 s (48
  // restarts in 15 min); CPUThrottlingHigh on recommendations.
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'dev',
    message: 'cart pods are restarting a lot. How many restarts were there in the last 15 minutes, all the cart pods together?',
    expect: num('sum(increase(kube_pod_container_status_restarts_total{container="cart"}[15m]))', 0.2),
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'dev',
    message: "How long do cart's calls to the redis thing take on average at the moment? The client latency panel looks weird.",
    expect: num(clientMean('cart', 'sessions-redis'), 0.2),
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'dev',
    message: 'CPUThrottlingHigh is also in the group - which workload is that one about? is it cart?',
    expect: { contains: ['recommendations'] },
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'dev',
    earlier: ['why do the cart pods keep restarting?'],
    message: 'when did that start happening?',
    expect: { at: 37, tolerance: 2 },
  },

  // inventory-liveness-unexplained: inventory's liveness probes fail from 37 min before the end
  // (66 failures in 10 min, both pods); catalog-sync bursts on ip-10-0-3-41, which stays
  // at about 50% busy.
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'dev',
    message: 'how many liveness probe failures did the inventory pods have in the last 10 minutes, both pods together?',
    expect: num('sum(increase(prober_probe_total{container="inventory", result="failed"}[10m]))', 0.25),
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'dev',
    message:
      "The inventory processes seem to hang before the probe kills them. What are they actually stuck on - is it a deadlock, and which thread or lock? I'd love to give the owning team something concrete.",
    expect: { cannot: true },
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'dev',
    message:
      "There's a catalog-sync job on one of the inventory nodes using extra CPU. Which node is that, and is the node out of CPU? how busy is it, percentage-wise?",
    expect: {
      all: [{ contains: ['ip-10-0-3-41'] }, num('1 - avg(rate(node_cpu_seconds_total{node="ip-10-0-3-41.eu-west-1.compute.internal", mode="idle"}[5m]))', 0.2)],
    },
  },

  // search-noisy-neighbour: the starved search pod is on ip-10-0-2-34 with video-transcode;
  // image-resizer saturates ip-10-0-1-23 (no search pod); search's p99 2.3 s (2.4 s on
  // the starved pod, 0.35 s on the other).
  {
    scenario: 'search-noisy-neighbour',
    split: 'dev',
    message: "search's p99 is up. I think only one of the search pods is slow? On which node does the slow search pod run?",
    expect: { contains: ['ip-10-0-2-34'] },
  },
  {
    scenario: 'search-noisy-neighbour',
    split: 'dev',
    earlier: ['what node is the slow search pod on?'],
    message: "what's eating all the CPU on that node? some batch job?",
    expect: { contains: ['video-transcode'] },
  },
  {
    scenario: 'search-noisy-neighbour',
    split: 'dev',
    message: 'is the thumbnailer job also hogging a node? I thought I saw it on the CPU dashboard',
    expect: { asks: true },
  },
  {
    scenario: 'search-noisy-neighbour',
    split: 'dev',
    message: 'latency p99 search right now? sorry, just want the number for the status update',
    expect: num(p99('search'), 0.25),
  },

  // billing-timeout-config-change: billing answers 20% with 504 from 36 min before the end, its
  // calls to ledger time out (outcome timeout).
  {
    scenario: 'billing-timeout-config-change',
    split: 'dev',
    message: "Hello, BillingHighErrorRate. What's billing's error rate right now?",
    expect: num(errorRatio('billing'), 0.15),
  },
  {
    scenario: 'billing-timeout-config-change',
    split: 'dev',
    message:
      'Which status code is billing answering the failed requests with, and what goes wrong in its calls to the ledger service? The client panel shows a label I don’t recognise.',
    expect: { contains: ['504', 'timeout'] },
  },
  {
    scenario: 'billing-timeout-config-change',
    split: 'dev',
    message: 'have customers complained about failed invoices yet? support asked me and I have no idea where to look',
    expect: { cannot: true },
  },

  // archive-down-reported-deploy-red-herring: archive stops answering 36 min before the end;
  // every statements call to archive is refused; statements still runs 3.2.0.
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'dev',
    message: 'statements is failing - it calls the archive service I think? Is archive down, and from what time?',
    expect: { all: [{ contains: ['archive'] }, { at: 36, tolerance: 2 }] },
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'dev',
    message:
      'There was a statements deploy reported about 12 minutes before (statements-static something). Did it change the version the statements pods run? Which version do they run now?',
    expect: { contains: ['3.2.0'] },
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'dev',
    message: "what share of statements' calls to archive fail and how? sorry for all the questions",
    expect: { all: [num(clientFailures('statements', 'archive'), 0.1), { contains: ['connection_refused'] }] },
  },
];
