import type { Expect, QuestionCase } from './conversation-cases';

/**
 * Development questions in the voice of people around an incident who are not its engineers: a
 * customer-support lead relaying tickets, a status-page writer who needs exact start times and
 * failure percentages, a product manager asking which feature or route is affected and from when,
 * and engineers of other teams asking whether their service (a neighbour in the data) is involved.
 * Written from eval/scenarios.ts and the generators only, without looking at how the service
 * answers. Every number and time was checked against the staged data (stage.js + q.sh at the
 * data's end); the values seen are noted per scenario. Pod names created by a rollout change with
 * every staging and appear in no expectation; the pods named below belong to workloads that never
 * roll out in their scenario (their names come from the seed and were seen alike in two stagings).
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

/** A shift `ago` back in time (e.g. `1h`, PromQL's `offset`, to append to a range or a selector), or nothing. */
const back = (ago: string): string => (ago ? ['', 'offset', ago].join(' ') : '');

/** The share of a job's requests (optionally of one route) answered 5xx, over the last 5 minutes. */
const errorRatio = (job: string, route?: string): string =>
  `sum(rate(http_requests_total${sel({ job, route }, 'code=~"5.."')}[5m])) / sum(rate(http_requests_total${sel({ job, route })}[5m]))`;

/** Requests per second a job serves over 5 minutes, optionally as it was `ago` ago (e.g. `60m`). */
const rps = (job: string, ago = ''): string => `sum(rate(http_requests_total${sel({ job })}[5m]${back(ago)}))`;

/** A job's p99 request latency over 5 minutes, optionally as it was `ago` ago (e.g. `1h`). */
const p99 = (job: string, ago = ''): string =>
  `histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket${sel({ job })}[5m]${back(ago)})))`;

/** The mean latency of calls to a peer (all callers), over 5 minutes. */
const peerMean = (peer: string, ago = ''): string => {
  const o = back(ago);
  return `sum(rate(http_client_request_duration_seconds_sum{peer="${peer}"}[5m]${o})) / sum(rate(http_client_request_duration_seconds_count{peer="${peer}"}[5m]${o}))`;
};

/** CPU cores a container uses, all its pods together, over 5 minutes. */
const cores = (container: string): string => `sum(rate(container_cpu_usage_seconds_total${sel({ container })}[5m]))`;

/** Container restarts of a workload over a window. */
const restartsOver = (container: string, window: string): string =>
  `sum(increase(kube_pod_container_status_restarts_total{container="${container}"}[${window}]))`;

/** The busy share of a node's CPU (1 - idle), over 5 minutes. */
const nodeBusy = (node: string): string => `1 - avg(rate(node_cpu_seconds_total{node="${node}", mode="idle"}[5m]))`;

const limit = (container: string, resource: 'cpu' | 'memory', ago = ''): string =>
  `max(kube_pod_container_resource_limits${sel({ container, resource })}${back(ago)})`;

const all = (...parts: Expect[]): Expect => ({ all: parts });

export const SUPPORT_DEV_CASES: QuestionCase[] = [
  // checkout-bad-version: checkout rolls out 2.15.0 38 min before the end (errors from 38 min on,
  // 1 min buckets); now 7.7% of all checkout requests fail (11.0% of POST /api/checkout); the
  // previous version was 2.14.3 (app_build_info an hour before); payments stays at ~0.1% errors.
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    message: "I'm drafting the status page update for the checkout problem. Out of all checkout requests, what percentage are failing at the moment?",
    expect: { number: errorRatio('checkout'), tolerance: 0.15 },
  },
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    earlier: ["I'm drafting the status page update for the checkout problem. Out of all checkout requests, what percentage are failing at the moment?"],
    message: 'Thanks. And when did the failures begin? I need the exact start time in UTC for the post.',
    expect: { at: 38, tolerance: 2 },
  },
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    message: 'Engineering mentioned a new checkout build, 2.15.0, went out today. Which pods is it running on, and on which nodes?',
    expect: { podsOf: { workload: 'checkout', version: '2.15.0' } },
  },
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    message: 'One of our tickets says loyalty points were not credited after an order went through. Is the loyalty-points service affected by this as well?',
    expect: { asks: true },
  },

  // search-slow-version-chronic-alert: search rolls out 3.3.0 40 min before the end (p99 0.34 s at
  // 40 min, 1.0 s at 39); p99 now 1.95 s (0.35 s an hour ago); only /api/search slowed
  // (/api/suggest p99 0.09 s); CPUThrottlingHigh on recommendations is chronic (55% throttled).
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'dev',
    message: 'Search feels sluggish in the app today, according to a few of our customers. Which search endpoint got slower, and starting when?',
    expect: all({ contains: ['/api/search'] }, { at: 40, tolerance: 2 }),
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'dev',
    message:
      "I'm on the recommendations team, and our CPUThrottlingHigh alert sits in the same group as this search incident. Is recommendations what's making search slow, or is that unrelated?",
    expect: { contains: ['3.3.0'] },
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'dev',
    earlier: ['What version of search is running right now?'],
    message: 'Which pods are running it, and which nodes are they on?',
    expect: { podsOf: { workload: 'search', version: '3.3.0' } },
  },

  // inventory-down-harmless-rollout: inventory stops answering 36 min before the end (up 0, the
  // healthz probe fails); checkout fails 62% of its requests (503) from then; checkout 2.14.4
  // rolled out 44 min before the end with no errors after it.
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'dev',
    earlier: ['Why is checkout failing?'],
    message: "I'm on the inventory team and we didn't touch anything today. From what time has inventory not been answering?",
    expect: { at: 36, tolerance: 2 },
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'dev',
    message: 'Checkout shipped 2.14.4 shortly before all this started. When did that roll out, and is it what broke checkout?',
    expect: all({ at: 44, tolerance: 2 }, { contains: ['inventory'] }),
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'dev',
    earlier: ['What fraction of checkout requests are failing right now?'],
    message: 'How many customers were unable to finish their purchase because of this?',
    expect: { cannot: true },
  },

  // orders-memory-leak-oom: orders' working set climbs from 75 min before the end (420 MiB) to its
  // 1 GiB limit; the first OOMKilled restarts come between 41 and 40 min before the end; 12
  // restarts in the last hour; last terminated reason OOMKilled on both pods.
  {
    scenario: 'orders-memory-leak-oom',
    split: 'dev',
    message: 'A few customers say the order confirmation page errors out every now and then. Is the orders service having trouble, and if so why?',
    expect: { contains: ['OOMKilled'] },
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: 'dev',
    message: 'How many times have the orders containers restarted in the last hour?',
    expect: { number: restartsOver('orders', '1h'), tolerance: 0.15 },
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: 'dev',
    earlier: ['why are the orders pods restarting so much?'],
    message: "Got it. When did orders' memory start climbing in the first place?",
    expect: { at: 75, tolerance: 5 },
  },

  // media-disk-full-flapping-alert: /var/lib/media on ip-10-0-2-34 (200 GiB) has no space left
  // from 37 min before the end; POST /api/uploads fails 97% (507) from then; the frontend pod that
  // flaps is another matter.
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'dev',
    message: "We're getting tickets about uploads: people say their photos fail to upload with an error message. What share of uploads are failing right now?",
    expect: { number: errorRatio('media', '/api/uploads'), tolerance: 0.1 },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'dev',
    earlier: ['What share of media uploads are failing right now?'],
    message: 'When exactly did uploads start failing? I need a start time for the status page.',
    expect: { at: 37, tolerance: 2 },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'dev',
    message:
      "I'm on the frontend team and our FrontendTargetDown alert fired earlier in this same group. Is frontend part of the upload failures, or is something else going on?",
    expect: { contains: ['ip-10-0-2-34', '/var/lib/media'] },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'dev',
    message: 'Is the thumbnailer service involved in this somehow? A customer said their previews are missing too.',
    expect: { asks: true },
  },

  // search-traffic-surge: /api/search requests climb from 39 min before the end (33 req/s at 40,
  // 66 at 38, 211 now); search serves 218 req/s now against 42.5 an hour ago; frontend rolled out
  // 5.2.1 44 min before the end.
  {
    scenario: 'search-traffic-surge',
    split: 'dev',
    message: 'How much search traffic are we getting now, in requests per second, compared with an hour ago?',
    expect: all({ number: 'sum (rate(http_requests_total{job="search"}[5m]))', tolerance: 0.2 }, { number: rps('search', '60m'), tolerance: 0.2 }),
  },
  {
    scenario: 'search-traffic-surge',
    split: 'dev',
    message: 'Frontend shipped 5.2.1 this morning, a few minutes before search got slow. Could our frontend release have caused the search problem?',
    expect: { contains: ['/api/search'] },
  },
  {
    scenario: 'search-traffic-surge',
    split: 'dev',
    earlier: ['Why is search this slow?'],
    message: 'When did the extra traffic start?',
    expect: { at: 39, tolerance: 2 },
  },

  // cart-config-crashloop: cart-config's resource version changes 38 min before the end (20 s
  // before cart's rollout); the one new cart pod crash loops (reason Error, 12 restarts in all);
  // the three old pods still serve 66.7 req/s; frontend-config was never edited.
  {
    scenario: 'cart-config-crashloop',
    split: 'dev',
    message:
      "I'm on the frontend team. We keep a frontend-config ConfigMap in the same namespace as cart. Was ours edited today, or only cart's configuration?",
    expect: { contains: ['cart-config'] },
  },
  {
    scenario: 'cart-config-crashloop',
    split: 'dev',
    message:
      'No customer has complained about the cart yet, but I see a cart alert. Is cart still serving people? How many requests a second is it handling right now?',
    expect: { number: rps('cart'), tolerance: 0.15 },
  },
  {
    scenario: 'cart-config-crashloop',
    split: 'dev',
    earlier: ['Why is a cart pod crash looping?'],
    message: 'When was that configuration changed?',
    expect: { at: 38, tolerance: 2 },
  },

  // orders-worker-scaled-to-zero: orders-worker's desired replicas go 2 -> 0 44 min before the end;
  // the orders queue has no consumer from 43 min; its oldest message waits 2641 s at the end; the
  // emails queue keeps its consumers; no changes list.
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'dev',
    message: "Customers say their orders are stuck on 'processing' and never move on to 'confirmed'. Is that related to this alert, and what's causing it?",
    expect: { contains: ['orders-worker'] },
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'dev',
    earlier: ["Customers say their orders are stuck on 'processing' and never move on to 'confirmed'. Is that related to this alert, and what's causing it?"],
    message: 'When did order processing stop? I need the time for the status page.',
    expect: { at: 44, tolerance: 2 },
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'dev',
    earlier: ['How come messages keep piling up in the orders queue?'],
    message: 'How long has the oldest message in that queue been waiting now?',
    expect: { number: 'max (-rabbitmq_queue_head_message_timestamp{queue="orders"} + time())', tolerance: 0.1 },
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'dev',
    message: 'Who scaled orders-worker down, and was it done on purpose?',
    expect: { cannot: true },
  },

  // checkout-slow-partner-bank: partner-bank answers payments 12 times slower from 37 min before the
  // end (mean call 1.26 s, 0.10 s an hour ago); checkout p99 4.80 s (0.79 s an hour ago, rising
  // from 37 min); payments p99 4.77 s (0.47 s); reports-batch saturates ip-10-0-2-34 meanwhile.
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    message:
      'Customers say checkout spins forever before it either goes through or times out. Is that what this incident is about, and where is the slowness coming from?',
    expect: { contains: ['partner-bank'] },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    message: "We run reports-batch, and I noticed it's pegging the CPU of one of the nodes checkout runs on. Is reports-batch what's slowing checkout down?",
    expect: { contains: ['partner-bank'] },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    earlier: ['Why is checkout so slow?'],
    message: 'How long are the calls to partner-bank taking on average right now?',
    expect: { number: peerMean('partner-bank'), tolerance: 0.2 },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    earlier: ["What's checkout's p99 latency at the moment?"],
    message: "Has payments' latency gone up as well?",
    expect: { direction: 'up' },
  },

  // recommendations-cpu-throttled: a rollout 40 min before the end lowers the CPU limit from 1 to
  // 0.3 cores (same version 0.9.4); p99 1.88 s now (0.26 s an hour ago, rising from 40 min); 74% of
  // CFS periods throttled (0.5% an hour ago).
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'dev',
    message: "The 'recommended for you' section on the home page has been loading slowly for people today. From what time has recommendations been slow?",
    expect: { at: 40, tolerance: 2 },
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'dev',
    message: "What's recommendations' p99 latency now, and what was it 60 minutes ago? I want to put both in the update.",
    expect: all({ number: p99('recommendations'), tolerance: 0.15 }, { number: p99('recommendations', '1h'), tolerance: 0.15 }),
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'dev',
    earlier: ['Why is recommendations so slow?'],
    message: "What's its CPU limit now, and what was it before that rollout?",
    expect: all({ number: limit('recommendations', 'cpu'), tolerance: 0.05 }, { number: limit('recommendations', 'cpu', '1h'), tolerance: 0.05 }),
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'dev',
    message: 'Is recomendations still being throttled right now?',
    expect: { asksFirst: 'recommendations' },
  },

  // node-not-ready: ip-10-0-3-41 is NotReady from 36 min before the end (node-exporter up 0); the
  // cart pod there stops answering; frontend fails 15% of requests (502) from then. The pods on the
  // node include payments-dc6776f55-8jj77 (payments never rolls out here; same name in two stagings).
  {
    scenario: 'node-not-ready',
    split: 'dev',
    message: 'Customers say the product page sometimes fails to load and then works when they refresh. Is that this incident, and what is behind it?',
    expect: { contains: ['ip-10-0-3-41'] },
  },
  {
    scenario: 'node-not-ready',
    split: 'dev',
    earlier: ['which node has gone down?'],
    message: "I'm on the payments team. Do we have a pod on that node?",
    expect: { contains: ['payments-dc6776f55-8jj77'] },
  },
  {
    scenario: 'node-not-ready',
    split: 'dev',
    earlier: ['which node has gone down?'],
    message: 'When did it stop reporting, and has it come back since?',
    expect: { at: 36, tolerance: 2 },
  },
  {
    scenario: 'node-not-ready',
    split: 'dev',
    message: "Who's on call for the platform team right now? I'd like to loop them in.",
    expect: { cannot: true },
  },

  // partner-bank-certificate-expired: api.partner-bank.example's certificate expires 35 min before
  // the end (probe_ssl_earliest_cert_expiry = end - 2100 s); payments fails 97% of requests (502)
  // from 34-35 min before the end; every call to partner-bank fails with tls_error.
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'dev',
    message: 'Lots of tickets in the last half hour saying card payments get declined with a generic error. Is that this incident, and what is the cause?',
    expect: { contains: ['partner-bank'] },
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'dev',
    earlier: ['Why are the payments failing?'],
    message: 'When exactly did that certificate expire?',
    expect: { at: 35, tolerance: 1 },
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'dev',
    earlier: ['For the status page: what share of payment requests are failing at the moment?'],
    message: 'How much revenue have we lost from the failed payments so far?',
    expect: { cannot: true },
  },

  // ordersdb-connections-exhausted: ordersdb's connections reach max_connections (200) 40 min
  // before the end (199 in use now, mostly idle in transaction); orders fails 35% on both routes
  // from 40 min; orders 2.3.1 rolled out 46 min before the end with no errors after it.
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'dev',
    message: "Customers tell us that placing an order fails roughly one time in three. Is that this incident, and what's behind it?",
    expect: { contains: ['ordersdb'] },
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'dev',
    message: 'Someone in our channel says the orders 2.3.1 release broke things. When did that release go out, and is it actually the cause?',
    expect: all({ at: 46, tolerance: 2 }, { contains: ['ordersdb'] }),
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'dev',
    earlier: ['Why are orders failing?'],
    message: 'Is it only placing new orders, or is looking up existing orders broken too?',
    expect: { contains: ['/api/orders/{id}'] },
  },

  // sessions-redis-down-flapping-alert: sessions-redis is down (redis_up 0, its exporter up) from
  // 36 min before the end; cart fails 90% of requests on both routes from then; a frontend pod's
  // target flaps (FrontendTargetDown) without frontend errors.
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'dev',
    message: "People say items vanish from their basket, or they can't add anything to it at all. Is that part of this incident?",
    expect: { contains: ['sessions-redis'] },
  },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'dev',
    message: 'What percentage of cart requests are failing now? Is it still happening?',
    expect: { number: errorRatio('cart'), tolerance: 0.1 },
  },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'dev',
    earlier: ['Why is cart failing?'],
    message:
      "I'm on frontend, and our FrontendTargetDown alert was the one that paged first. Is frontend the cause of the cart errors? And when did they start?",
    expect: all({ contains: ['sessions-redis'] }, { at: 36, tolerance: 2 }),
  },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'dev',
    message: 'is sesions-redis up again yet?',
    expect: { asksFirst: 'sessions-redis' },
  },

  // payments-bad-version-noisy-neighbour: payments rolls out 1.9.0 36 min before the end; 20% of
  // its requests fail from then; p99 0.47 s now and an hour ago; ledger-reconcile uses 3.7 cores on
  // the old payments pod's node from 40 min before the end.
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    message: "We're seeing more 'payment could not be processed' tickets than usual. What percentage of payment requests are failing right now?",
    expect: { number: errorRatio('payments'), tolerance: 0.1 },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    message:
      "I'm on the ledger team. Our ledger-reconcile job is using most of one node's CPU right now, and someone said that's what's breaking payments. Is it?",
    expect: { contains: ['1.9.0'] },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    earlier: ['What is wrong with payments?'],
    message: 'Which pods are running that version, and on which nodes?',
    expect: { podsOf: { workload: 'payments', version: '1.9.0' } },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    earlier: ['What is wrong with payments?'],
    message: 'Did payments also get slower with the new version, or is its latency about the same as before?',
    expect: { direction: 'about the same' },
  },

  // checkout-memory-limit-lowered: a rollout 40 min before the end lowers checkout's memory limit
  // from 768 MiB to 320 MiB (same version 2.14.3); the first OOMKilled restart comes at 38 min;
  // 27 restarts in all; all three pods in CrashLoopBackOff at the end.
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'dev',
    message: "Checkout has been throwing errors for a lot of customers over the last half hour. What's going on with it?",
    expect: { contains: ['OOMKilled'] },
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'dev',
    message: "Someone mentioned checkout's resources were changed today. What's its memory limit now, and what was it 60 minutes ago?",
    expect: all({ number: limit('checkout', 'memory'), tolerance: 0.05 }, { number: limit('checkout', 'memory', '1h'), tolerance: 0.05 }),
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'dev',
    earlier: ['Why are the checkout pods restarting?'],
    message: 'When did the crashes start, and how many restarts is that in total so far?',
    expect: all({ at: 39, tolerance: 2 }, { number: 'sum (kube_pod_container_status_restarts_total{container="checkout"})', tolerance: 0.15 }),
  },

  // ledger-volume-full-chronic-mount: claim data-ledger (50 GiB, on ip-10-0-1-88) has no space from
  // 36 min before the end; POST /api/ledger/entries fails 95% (507) from then, reads stay fine;
  // /var/log/archive on the same node has been full for the whole three hours.
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'dev',
    message: "What percentage of requests to ledger's entries endpoint, the one that writes, are failing right now?",
    expect: { number: errorRatio('ledger', '/api/ledger/entries'), tolerance: 0.1 },
  },
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'dev',
    message: "I'm on the logging team. Our /var/log/archive mount on ip-10-0-1-88 has been full all day. Is that what's breaking ledger?",
    expect: { contains: ['data-ledger'] },
  },
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'dev',
    message: 'Product here. Which ledger endpoint is failing, and starting when?',
    expect: all({ contains: ['/api/ledger/entries'] }, { at: 36, tolerance: 2 }),
  },

  // accounts-pool-exhausted-harmless-rollout: HikariPool-1 runs at 95% of its 10 connections per pod
  // (20% an hour ago) from 38 min before the end; accounts fails 30% from then; accountsdb uses 41
  // of 300 connections (13.7%); accounts 1.4.1 rolled out 47 min before the end.
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'dev',
    message: 'Customers report that transfers between their own accounts hang for a long time and then fail. Is that this incident, and what is causing it?',
    expect: { contains: ['HikariPool-1'] },
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'dev',
    message: 'I look after accountsdb. Is the database itself overloaded? What share of its max connections is in use right now?',
    expect: {
      number: `sum(pg_stat_activity_count${sel({ server: 'accountsdb:5432' })}) / max(pg_settings_max_connections${sel({ server: 'accountsdb:5432' })})`,
      tolerance: 0.15,
    },
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'dev',
    earlier: ["What's wrong with accounts?"],
    message: 'Someone blamed the 1.4.1 release. When did it roll out, and is it the cause?',
    expect: all({ at: 47, tolerance: 2 }, { contains: ['HikariPool-1'] }),
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'dev',
    message: 'Is the acounts service still timing out for customers?',
    expect: { asksFirst: 'accounts' },
  },

  // cart-liveness-slow-redis: sessions-redis slows from 38 min before the end (cart's mean call
  // 2.33 s, 2.3 ms an hour ago); cart's liveness probes fail and its containers restart from about
  // 36.5 min before the end: 99 restarts in the last 30 min, 123 in all; redis_up stays 1.
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'dev',
    message: 'Customers say their basket is slow to load and sometimes comes up empty. why does cart keep restarting all the time?',
    expect: { contains: ['sessions-redis'] },
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'dev',
    message: "How many times have cart's containers restarted in the last 30 minutes?",
    expect: { number: restartsOver('cart', '30m'), tolerance: 0.15 },
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'dev',
    earlier: ['why does cart keep restarting all the time?'],
    message: 'How long is Redis taking to answer cart on average right now, compared with an hour ago?',
    expect: all({ number: peerMean('sessions-redis'), tolerance: 0.2 }, { number: peerMean('sessions-redis', '1h'), tolerance: 0.2 }),
  },

  // inventory-liveness-unexplained: inventory's liveness probes fail and its two pods restart from
  // about 36.5 min before the end (1 restart at 36, 3 at 35): 67 in the last 30 min; catalog-sync
  // uses 1.09 cores on ip-10-0-3-41, which is 50% busy; inventory pods on ip-10-0-1-88 and
  // ip-10-0-3-41 (no rollout here).
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'dev',
    message: 'How many times have the inventory pods restarted in the past half hour?',
    expect: { number: restartsOver('inventory', '30m'), tolerance: 0.15 },
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'dev',
    message:
      'We run catalog-sync on one of the inventory nodes, and it started a heavy run around the time inventory began restarting. How much CPU is catalog-sync using, and how busy is that node overall?',
    expect: all({ number: cores('catalog-sync'), tolerance: 0.15 }, { number: nodeBusy('ip-10-0-3-41.eu-west-1.compute.internal'), tolerance: 0.15 }),
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'dev',
    earlier: ['Why does inventory keep on restarting?'],
    message: 'When did the restarts start, and which nodes are the inventory pods on?',
    expect: all({ at: 36, tolerance: 2 }, { contains: ['ip-10-0-1-88', 'ip-10-0-3-41'] }),
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'dev',
    earlier: ['Why does inventory keep on restarting?'],
    message: "Can you tell what inventory's processes are actually stuck on inside? Is it a deadlock in the code?",
    expect: { cannot: true },
  },

  // search-noisy-neighbour: video-transcode takes 3.6 cores on ip-10-0-2-34 from 37 min before the
  // end; the search pod there has p99 2.41 s, the other 0.35 s; search's p99 2.29 s (0.35 s an hour
  // ago); image-resizer saturates ip-10-0-1-23 (no search pod); ip-10-0-3-41 is 74% busy.
  {
    scenario: 'search-noisy-neighbour',
    split: 'dev',
    message: 'Search results take ages for some users but are fine for others. Is it one search pod or all of them, and why?',
    expect: { contains: ['ip-10-0-2-34', 'video-transcode'] },
  },
  {
    scenario: 'search-noisy-neighbour',
    split: 'dev',
    message: "We run image-resizer, and it's using all of its node's CPU right now. Is image-resizer what's slowing search down?",
    expect: { contains: ['video-transcode'] },
  },
  {
    scenario: 'search-noisy-neighbour',
    split: 'dev',
    earlier: ['Why is search this slow?'],
    message: 'how many CPU cores is video-transcode using right now?',
    expect: { number: 'sum (rate(container_cpu_usage_seconds_total{container="video-transcode"}[5m]))', tolerance: 0.15 },
  },

  // billing-timeout-config-change: change cfg-8841 by grace, 37 min before the end, sets billing's
  // ledger client timeout=2s -> timeout=150ms; billing fails 20% (504) from 35-36 min before the
  // end; every call to ledger times out.
  {
    scenario: 'billing-timeout-config-change',
    split: 'dev',
    message: 'A few customers say the invoices page errors out when they try to generate an invoice. Is billing part of this incident, and what is failing?',
    expect: { contains: ['ledger'] },
  },
  {
    scenario: 'billing-timeout-config-change',
    split: 'dev',
    message: 'What fraction of billing requests are failing right now, and starting when?',
    expect: all({ number: errorRatio('billing'), tolerance: 0.1 }, { at: 36, tolerance: 2 }),
  },
  {
    scenario: 'billing-timeout-config-change',
    split: 'dev',
    message: "I'm on the ledger team. Billing says our service is timing them out. Did something change on our side or on theirs?",
    expect: { contains: ['timeout=150ms'] },
  },
  {
    scenario: 'billing-timeout-config-change',
    split: 'dev',
    earlier: ['Why does billing fail?'],
    message: 'Who made that change, and when?',
    expect: all({ contains: ['grace'] }, { at: 37, tolerance: 2 }),
  },

  // archive-down-reported-deploy-red-herring: archive stops answering 36 min before the end (up 0
  // on both pods, on ip-10-0-1-88 and ip-10-0-3-41); statements fails 60% (503) from then; the
  // reported statements-static deploy 2026.11.27-1 is 48 min before the end.
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'dev',
    message: 'What share of statements requests are failing right now, and when did it begin?',
    expect: all({ number: errorRatio('statements'), tolerance: 0.1 }, { at: 36, tolerance: 2 }),
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'dev',
    message: 'We deployed the statements-static 2026.11.27-1 asset bundle earlier today. When did that deploy go out, and did it break statements?',
    expect: all({ at: 48, tolerance: 2 }, { contains: ['archive'] }),
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'dev',
    earlier: ["Customers can't download their monthly statements. What's broken?"],
    message: 'When will archive be back up? Customers keep asking us for an ETA.',
    expect: { cannot: true },
  },
];
