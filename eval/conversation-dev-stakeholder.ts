import type { QuestionCase } from './conversation-cases';

/**
 * A batch of development cases written apart from the engine (before any of its answers were seen),
 * in the voice of the people around an incident who are not the on-call engineer: an engineering
 * manager, a support lead, a product owner, an incident commander writing the status update. They
 * write polite, wordy full sentences; ask about impact, duration, whether it is over, what or who
 * changed, whether another team's or a provider's service is involved, and what to do next; ask
 * several things at once; refer back to an earlier answer in plain words ("the version you
 * mentioned", "the node from before", "at that time"); and ask many things the data cannot answer
 * (customers, revenue, contracts, ownership, on-call, tickets, logs, yesterday).
 *
 * Ratios are fractions (an answer's "7.8%" is 0.078), latencies seconds, CPU cores, sizes bytes.
 * Every `number` was checked against the staged data: one finite, non-zero value at its end.
 */

/**
 * `{job="checkout", route="/api/checkout"}` from the labels given (undefined ones left out), followed
 * by any `extra` matchers written out (such as `code=~"5.."`).
 */
const labels = (l: Record<string, string | undefined>, ...extra: string[]): string =>
  `{${[
    ...Object.entries(l)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${k}="${v}"`),
    ...extra,
  ].join(', ')}}`;

/** A shift `minutes` back in time (PromQL's `offset`, to append to a range or a selector), or nothing. */
const ago = (minutes?: number): string => (minutes ? ['', 'offset', `${minutes}m`].join(' ') : '');

/** The share of a job's requests (optionally one route's) answered 5xx over the last five minutes. */
const failing = (job: string, route?: string): string =>
  `sum(rate(http_requests_total${labels({ job, route }, 'code=~"5.."')}[5m])) / sum(rate(http_requests_total${labels({ job, route })}[5m]))`;

/** Requests per second a job serves, now or `minutes` before the end. */
const perSecond = (job: string, minutes?: number): string => `sum(rate(http_requests_total${labels({ job })}[5m]${ago(minutes)}))`;

/** A latency quantile of a job's requests, now or `minutes` before the end. */
const quantile = (q: number, job: string, minutes?: number): string =>
  `histogram_quantile(${q}, sum by (le) (rate(http_request_duration_seconds_bucket${labels({ job })}[5m]${ago(minutes)})))`;

/** A latency quantile of a job's calls to a peer, now. */
const callQuantile = (q: number, job: string, peer: string): string =>
  `histogram_quantile(${q}, sum by (le) (rate(http_client_request_duration_seconds_bucket${labels({ job, peer })}[5m])))`;

/** A container's restarts over the last `range` (e.g. `1h`), over all its pods. */
const restarts = (container: string, range: string): string => `sum(increase(kube_pod_container_status_restarts_total${labels({ container })}[${range}]))`;

/** A container's limit of `resource` (cores or bytes), now or `minutes` before the end. */
const limit = (container: string, resource: 'cpu' | 'memory', minutes?: number): string =>
  `max(kube_pod_container_resource_limits${labels({ container, resource })}${ago(minutes)})`;

/** The busy share of a node's CPUs now. */
const busy = (short: string): string => `1 - avg(rate(node_cpu_seconds_total{node=~"${short}.*", mode="idle"}[5m]))`;

export const STAKEHOLDER_DEV_CASES: QuestionCase[] = [
  // checkout-bad-version: checkout 2.15.0 rolls out from 38 min before the end (three pods, 45 s apart); its pods fail 11% of POST /api/checkout (about 7.7% of all of checkout's requests now); the data holds three hours, no yesterday, no authors.
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    message:
      'Good morning. For the status page, I need to know when this began and roughly what share of checkout requests are failing at the moment. Could you give me both, please?',
    expect: {
      all: [
        { at: 38, tolerance: 5 },
        { number: failing('checkout'), tolerance: 0.25 },
      ],
    },
  },
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    message: 'Could you find out who approved and pushed out the 2.15.0 release of checkout? I would like to bring them onto the bridge call.',
    expect: { cannot: true },
  },
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    message: 'Thank you. Which servers is the version you mentioned currently running on?',
    earlier: ['Hello, could you tell me what changed shortly before checkout started having trouble?'],
    expect: { podsOf: { workload: 'checkout', version: '2.15.0' } },
  },
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    message: 'How does the checkout error rate this morning compare with the same time yesterday? Our finance team would like to know whether this is unusual.',
    expect: { cannot: true },
  },
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    message: 'Sorry if this is a basic question, but is the checkuot service still returning errors to customers?',
    expect: { asksFirst: 'checkout' },
  },
  // search-slow-version-chronic-alert: search 3.3.0 (from 3.2.1) rolls out from 40 min before the end and answers /api/search 4.5 times slower (search's p99 about 1.9 s now); CPUThrottlingHigh has fired on recommendations for hours.
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'dev',
    message: "I'm putting together a short note for leadership. How slow is search for our users at the moment, in terms of the 99th percentile response time?",
    expect: { number: quantile(0.99, 'search'), tolerance: 0.3 },
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'dev',
    message: 'Would you recommend that we roll back, and if so, which version should we go back to?',
    expect: { contains: ['3.2.1'] },
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'dev',
    message: 'Could you let me know which of our enterprise customers rely most heavily on search, so that support can reach out to them proactively?',
    expect: { cannot: true },
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'dev',
    message: 'Has search actually become slower since that release went out, or was it already like this?',
    earlier: ['What has been released to the search service recently?'],
    expect: { direction: 'up' },
  },
  // inventory-down-harmless-rollout: inventory stops answering 36 min before the end; checkout fails 62% of its requests (503) from then on; checkout 2.14.4 rolled out 44 min before the end and changed nothing.
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'dev',
    message: 'The checkout team shipped a release not long before this started. Is their release to blame, or is something else going on?',
    expect: { contains: ['inventory'] },
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'dev',
    message: 'Could you tell me what proportion of checkout requests are failing right now? Support is asking how widespread this is.',
    expect: { number: failing('checkout'), tolerance: 0.2 },
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'dev',
    message: 'Which pods are running the version you mentioned, and on which nodes are they?',
    earlier: ['Was anything deployed in the hour before the checkout errors began?'],
    expect: { podsOf: { workload: 'checkout', version: '2.14.4' } },
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'dev',
    message: 'Has the payments service been affected by any of this, or is it carrying on as normal?',
    expect: { direction: 'about the same' },
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'dev',
    message: 'For the incident timeline, at what time did the inventory service stop responding?',
    expect: { at: 36, tolerance: 4 },
  },
  // orders-memory-leak-oom: orders' working set climbs from 75 min before the end to its 1 GiB limit; its containers are OOMKilled from about 40.5 min before the end, every few minutes after (12 restarts over the last hour).
  {
    scenario: 'orders-memory-leak-oom',
    split: 'dev',
    message: 'Could you tell me how many times the orders containers have been restarted over the last hour, all pods together?',
    expect: { number: restarts('orders', '1h'), tolerance: 0.25 },
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: 'dev',
    message: 'What is the memory limit for the orders service, and how much memory are its pods using right now?',
    expect: { all: [{ number: limit('orders', 'memory'), tolerance: 0.15 }] },
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: 'dev',
    message: 'Which engineer is on call for orders this week? I need to page them about this.',
    expect: { cannot: true },
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: 'dev',
    message: 'For the timeline, when did the first of these out-of-memory crashes happen?',
    expect: { at: 41, tolerance: 4 },
  },
  // media-disk-full-flapping-alert: /var/lib/media on ip-10-0-2-34 is full from 37 min before the end; media answers 97% of POST /api/uploads with 507; a frontend target flaps and paged first.
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'dev',
    message: 'In plain terms, which server ran out of space, and which disk or folder on it is full?',
    expect: { contains: ['ip-10-0-2-34', '/var/lib/media'] },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'dev',
    message: 'Could you tell me roughly what share of uploads are failing at the moment?',
    expect: { number: failing('media', '/api/uploads'), tolerance: 0.15 },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'dev',
    message: 'We also had a frontend alert earlier this morning. Leaving that aside, when did the media uploads begin to fail, as best you can tell?',
    expect: { all: [{ at: 37, tolerance: 4 }] },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'dev',
    message: 'How many of our customers lost photos because of this? Support would like a number before they reply to complaints.',
    expect: { cannot: true },
  },
  // search-traffic-surge: /api/search traffic grows sixfold from 39 min before the end (over four minutes); search's latency climbs; frontend 5.2.1 rolled out 44 min before the end.
  {
    scenario: 'search-traffic-surge',
    split: 'dev',
    message: 'The frontend team released a new version shortly before this. Is their release the cause, or is something else happening?',
    expect: { contains: ['/api/search'] },
  },
  {
    scenario: 'search-traffic-surge',
    split: 'dev',
    message: 'Roughly how many requests per second is search receiving now, compared with before all of this started?',
    expect: { all: [{ number: perSecond('search'), tolerance: 0.2 }] },
  },
  {
    scenario: 'search-traffic-surge',
    split: 'dev',
    message: 'Can you tell which company or IP range is sending us all of this extra search traffic? We may want to contact them.',
    expect: { cannot: true },
  },
  {
    scenario: 'search-traffic-surge',
    split: 'dev',
    message: 'I see. Was anything released in the half hour before that?',
    earlier: ['When did the extra traffic to search begin?'],
    expect: { contains: ['frontend', '5.2.1'] },
  },
  // cart-config-crashloop: cart-config is edited 38 min before the end (20 s before cart rolls); the one new cart pod (on ip-10-0-1-23; its name changes with the data's end) exits at start and crash loops (6 restarts over the last 30 min); the rollout stalls, the old pods keep serving.
  {
    scenario: 'cart-config-crashloop',
    split: 'dev',
    message: 'Who edited the cart configuration, and was the change reviewed by anyone before it went out?',
    expect: { cannot: true },
  },
  {
    scenario: 'cart-config-crashloop',
    split: 'dev',
    message: 'Could you tell me which cart pod is failing to start, and on which machine it is running?',
    expect: { contains: ['ip-10-0-1-23'] },
  },
  {
    scenario: 'cart-config-crashloop',
    split: 'dev',
    message: 'And how many times has that one restarted over the past half hour?',
    earlier: ['Which of the cart pods is the one that keeps crashing?'],
    expect: { number: restarts('cart', '30m'), tolerance: 0.25 },
  },
  {
    scenario: 'cart-config-crashloop',
    split: 'dev',
    message: 'For the timeline, at what time was the cart configuration edited?',
    expect: { at: 38, tolerance: 3 },
  },
  // orders-worker-scaled-to-zero: orders-worker is scaled from 2 to 0 replicas 44 min before the end; the orders queue has no consumer from then on and its oldest message ages; a frontend target flaps and paged first.
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'dev',
    message: 'Who scaled the orders worker down, and was that intentional? I would like to understand whether this was a planned change.',
    expect: { cannot: true },
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'dev',
    message: 'As the incident commander I need the start time for my update: when did the orders worker stop running?',
    expect: { at: 44, tolerance: 4 },
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'dev',
    message: 'Could you check on the ordrs-worker deployment for me and tell me whether it is running at all?',
    expect: { asksFirst: 'orders-worker' },
  },
  // checkout-slow-partner-bank: partner-bank answers payments twelve times slower from 37 min before the end (over two minutes); payments and then checkout's POST /api/checkout slow down (payments' p99 to partner-bank about 4.7 s); reports-batch saturates a checkout node from 40 min before.
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    message: "Is another team's service, or perhaps an outside provider, involved in this slowdown?",
    expect: { contains: ['partner-bank'] },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    message: "How long are the payments service's calls to partner-bank taking at the moment, at the 99th percentile?",
    expect: { number: callQuantile(0.99, 'payments', 'partner-bank'), tolerance: 0.3 },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    message: 'Does our contract with partner-bank include a response-time guarantee that we could claim against for this?',
    expect: { cannot: true },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    message: 'Understood. Since what time has it been slow?',
    earlier: ["Is another team's service, or perhaps an outside provider, involved in this slowdown?"],
    expect: { at: 37, tolerance: 4 },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    message: 'Our loyalty-points service also calls payments. Is it affected by this as well?',
    expect: { asks: true },
  },
  // recommendations-cpu-throttled: a resources-only rollout 40 min before the end lowers recommendations' CPU limit from 1 to 0.3 cores (same version 0.9.4); its containers are throttled and its latency climbs.
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'dev',
    message: 'What was the CPU limit of recommendations before the change, and what is it set to now?',
    expect: {
      all: [
        { number: limit('recommendations', 'cpu'), tolerance: 0.15 },
        { number: limit('recommendations', 'cpu', 60), tolerance: 0.15 },
      ],
    },
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'dev',
    message: 'Which team owns recommendations, and have they been told about this yet?',
    expect: { cannot: true },
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'dev',
    message: 'When was that change rolled out, roughly?',
    earlier: ['Could you tell me whether anything was changed on recommendations today?'],
    expect: { at: 40, tolerance: 4 },
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'dev',
    message: 'Have recommendations become slower for users since the change you described?',
    earlier: ['Could you tell me whether anything was changed on recommendations today?'],
    expect: { direction: 'up' },
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'dev',
    message: "Could you give me an update on the recomendations service's response times?",
    expect: { asksFirst: 'recommendations' },
  },
  // node-not-ready: ip-10-0-3-41 stops reporting (NotReady) 36 min before the end; the cart pod on it stops answering and frontend fails about 15% of its requests (502) from then on; frontend served about 118 req/s just before.
  {
    scenario: 'node-not-ready',
    split: 'dev',
    message: 'Which machine failed, and which of our services had pods running on it?',
    expect: { contains: ['ip-10-0-3-41', 'cart'] },
  },
  {
    scenario: 'node-not-ready',
    split: 'dev',
    message: 'Has AWS acknowledged a problem in that availability zone? I would like to reference it in the status update.',
    expect: { cannot: true },
  },
  {
    scenario: 'node-not-ready',
    split: 'dev',
    message: 'Thank you. At what time did it stop responding?',
    earlier: ['Which machine failed, and which of our services had pods running on it?'],
    expect: { at: 36, tolerance: 4 },
  },
  {
    scenario: 'node-not-ready',
    split: 'dev',
    message: 'How many requests per second was the frontend serving at that time?',
    earlier: ['When did the frontend begin returning errors?'],
    expect: { number: perSecond('frontend', 36), tolerance: 0.2 },
  },
  // partner-bank-certificate-expired: partner-bank's certificate expires 35 min before the end; payments fails 97% of its requests (502) from then on; CPUThrottlingHigh has fired on recommendations for hours.
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'dev',
    message: "Is the problem on our side, or on the payment partner's side?",
    expect: { contains: ['partner-bank'] },
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'dev',
    message: 'For the status update: at what time did the certificate expire, and what share of payments are failing because of it?',
    expect: {
      all: [
        { at: 35, tolerance: 4 },
        { number: failing('payments'), tolerance: 0.15 },
      ],
    },
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'dev',
    message: 'Who at partner-bank should we contact to get the certificate renewed, and do we have an escalation number for them?',
    expect: { cannot: true },
  },
  // ordersdb-connections-exhausted: connections to ordersdb climb to its max_connections (200) from 44 min before the end; orders fails 35% of its requests from 40 min before the end; orders 2.3.1 rolled out 46 min before the end and changed nothing.
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'dev',
    message: 'The orders team deployed shortly before this. Is their release responsible, or is it something else?',
    expect: { contains: ['ordersdb'] },
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'dev',
    message: 'Which report or query is holding all of the database connections open? I would like to ask its owner to stop it.',
    expect: { cannot: true },
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'dev',
    message: 'What share of orders requests are failing right now, and from what time has that been the case?',
    expect: {
      all: [
        { number: failing('orders'), tolerance: 0.2 },
        { at: 40, tolerance: 4 },
      ],
    },
  },
  // sessions-redis-down-flapping-alert: sessions-redis goes down 36 min before the end (its exporter still up); cart fails 90% of its requests from then on; a frontend target flaps and paged first.
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'dev',
    message: 'We received a frontend alert first this morning. Is that the real problem, or is something else actually down?',
    expect: { contains: ['sessions-redis'] },
  },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'dev',
    message: 'Are users being logged out because of this, and if so, how many of them?',
    expect: { cannot: true },
  },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'dev',
    message: 'And how long ago did that begin?',
    earlier: ['We received a frontend alert first this morning. Is that the real problem, or is something else actually down?'],
    expect: { at: 36, tolerance: 4 },
  },
  // payments-bad-version-noisy-neighbour: payments 1.9.0 rolls out 36 min before the end (two pods) and fails 20% of requests; ledger-reconcile takes 3.7 cores of the first payments pod's node from 40 min before the end.
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    message: 'There seems to be a batch job hogging one of the payments machines. Is that the cause, or is it the new payments version?',
    expect: { contains: ['1.9.0'] },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    message: 'Have payment failures gone up since the version you mentioned was rolled out?',
    earlier: ['Has the payments service been changed recently?'],
    expect: { direction: 'up' },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    message: 'How much revenue have we lost so far because of this? The product owner is asking.',
    expect: { cannot: true },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    message: 'Which nodes is the version you mentioned deployed on?',
    earlier: ['Has the payments service been changed recently?'],
    expect: { podsOf: { workload: 'payments', version: '1.9.0' } },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    message: 'Could you tell me how the paymnets service is doing overall?',
    expect: { asksFirst: 'payments' },
  },
  // checkout-memory-limit-lowered: a resources-only rollout 40 min before the end lowers checkout's memory limit from 768 to 320 MiB (same version); each new container is OOMKilled about two minutes after it starts and crash loops (first restart 38 min before the end, 15 over the last 30 min).
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'dev',
    message: "What was checkout's memory limit before the change, and what is it set to now?",
    expect: {
      all: [
        { number: limit('checkout', 'memory'), tolerance: 0.15 },
        { number: limit('checkout', 'memory', 60), tolerance: 0.15 },
      ],
    },
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'dev',
    message: 'How many times have the checkout containers restarted in the last half hour, across all of the pods?',
    expect: { number: restarts('checkout', '30m'), tolerance: 0.25 },
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'dev',
    message: 'Which person reduced that limit, and was there a change ticket for it?',
    expect: { cannot: true },
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'dev',
    message: 'For my update to the leadership channel, when did the crashing begin?',
    expect: { at: 38, tolerance: 4 },
  },
  // ledger-volume-full-chronic-mount: ledger's volume (claim data-ledger) is full from 36 min before the end; ledger answers 95% of POST /api/ledger/entries with 507; /var/log/archive on the same node (ip-10-0-1-88) has been full for hours.
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'dev',
    message: 'I understand the archive disk on that machine has been full for hours. Is that part of this problem, or is something else full?',
    expect: { contains: ['data-ledger'] },
  },
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'dev',
    message: 'What share of ledger writes are failing right now?',
    expect: { number: failing('ledger', '/api/ledger/entries'), tolerance: 0.15 },
  },
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'dev',
    message: "When did ledger's storage fill up? I need it for the incident timeline.",
    expect: { at: 36, tolerance: 4 },
  },
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'dev',
    message: 'Could you check whether the notifications-gateway is involved in any of this?',
    expect: { asks: true },
  },
  // accounts-pool-exhausted-harmless-rollout: accounts' HikariPool-1 (10 connections) runs dry from 38 min before the end and 30% of its requests fail; accountsdb is fine; accounts 1.4.1 rolled out 47 min before the end and changed nothing.
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'dev',
    message: 'Is the accounts database itself overloaded, or is the problem within the application?',
    expect: { contains: ['HikariPool-1'] },
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'dev',
    message: 'What proportion of accounts requests are failing, and when did it begin?',
    expect: {
      all: [
        { number: failing('accounts'), tolerance: 0.2 },
        { at: 38, tolerance: 4 },
      ],
    },
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'dev',
    message: 'Is there a ticket open with the database team about this already?',
    expect: { cannot: true },
  },
  // cart-liveness-slow-redis: sessions-redis slows a thousandfold (to about 2 s a command) from 38 min before the end; cart's liveness probe times out and the kubelet restarts cart's containers about every minute (48 restarts over the last 15 min); CPUThrottlingHigh is chronic.
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'dev',
    message: 'Could you explain in simple terms why the cart pods keep getting restarted?',
    expect: { contains: ['sessions-redis'] },
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'dev',
    message: 'How many restarts have the cart containers had over the last fifteen minutes, taken together?',
    expect: { number: restarts('cart', '15m'), tolerance: 0.25 },
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'dev',
    message: 'How long does a typical call from cart to sessions-redis take right now?',
    expect: { number: callQuantile(0.5, 'cart', 'sessions-redis'), tolerance: 0.3 },
  },
  // inventory-liveness-unexplained: inventory's liveness probes fail from 37 min before the end and the kubelet restarts its containers (first restart 36.5 min before the end, 67 over the last 30 min; the cause is not in the metrics); catalog-sync bursts on an inventory node with CPU to spare.
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'dev',
    message: 'When did the inventory pods start restarting?',
    expect: { at: 37, tolerance: 4 },
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'dev',
    message: 'How many restarts have the inventory pods had over the past thirty minutes?',
    expect: { number: restarts('inventory', '30m'), tolerance: 0.25 },
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'dev',
    message: 'Is there an error message in the inventory logs that explains why the processes hang?',
    expect: { cannot: true },
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'dev',
    message: 'Is the inventroy service healthy again, or is it still restarting?',
    expect: { asksFirst: 'inventory' },
  },
  // search-noisy-neighbour: video-transcode takes 3.5 of the four cores of ip-10-0-2-34 from 37 min before the end; the node is 98% busy, the search pod there is starved and search's p99 climbs; image-resizer saturates a node without search; log-shipper bursts with CPU to spare.
  {
    scenario: 'search-noisy-neighbour',
    split: 'dev',
    message: 'Which machine is the problem on, and which other workloads share it?',
    expect: { contains: ['ip-10-0-2-34', 'video-transcode'] },
  },
  {
    scenario: 'search-noisy-neighbour',
    split: 'dev',
    message: 'How busy is the node from before at present?',
    earlier: ['Which machine is the slow search pod running on?'],
    expect: { number: busy('ip-10-0-2-34'), tolerance: 0.15 },
  },
  {
    scenario: 'search-noisy-neighbour',
    split: 'dev',
    message: 'Who owns the video-transcode job, and can it be moved somewhere else without upsetting them?',
    expect: { cannot: true },
  },
  // billing-timeout-config-change: from 36 min before the end a fifth of billing's requests (POST /api/invoices) fail with 504 as its calls to ledger time out (billing serves about 28 req/s); the metrics show no version, restart or resource change.
  {
    scenario: 'billing-timeout-config-change',
    split: 'dev',
    message:
      'For the status page I need three things: when the invoice failures began, what share of invoice requests are failing now, and which service billing is struggling to reach.',
    expect: { all: [{ at: 36, tolerance: 4 }, { number: failing('billing'), tolerance: 0.2 }, { contains: ['ledger'] }] },
  },
  {
    scenario: 'billing-timeout-config-change',
    split: 'dev',
    message: 'Have any customers been double-billed as a result of this? Support has had a couple of calls.',
    expect: { cannot: true },
  },
  {
    scenario: 'billing-timeout-config-change',
    split: 'dev',
    message: 'Thanks. How many requests per second is billing handling at present?',
    earlier: [
      'For the status page I need three things: when the invoice failures began, what share of invoice requests are failing now, and which service billing is struggling to reach.',
    ],
    expect: { number: perSecond('billing'), tolerance: 0.2 },
  },
  // archive-down-reported-deploy-red-herring: archive stops answering 36 min before the end; statements fails 60% of its requests (503) from then on; a statements asset deploy reported 48 min before the end changed nothing the metrics show.
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'dev',
    message: 'A statements deploy went out earlier this morning. Is it responsible for this, or is something else at fault?',
    expect: { contains: ['archive'] },
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'dev',
    message: 'What percentage of statement requests are failing at the moment?',
    expect: { number: failing('statements'), tolerance: 0.2 },
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'dev',
    message: 'When did archive go down, and is it back yet?',
    expect: { all: [{ at: 36, tolerance: 4 }] },
  },
];
