/**
 * Dev conversation cases: questions relayed into the incident channel by people who are not the
 * responders. A customer success manager passes on what a big customer says, a product manager
 * asks about one feature or route in product words, a security engineer asks about certificates,
 * who can reach what and unusual changes, and a data engineer asks because their nightly jobs read
 * the affected database or queue. They quote other people, mix outside facts with their question,
 * and sometimes ask what the data cannot tell (customer names, order IDs, client IPs, who did it).
 *
 * Written from the scenario generators (eval/scenarios.ts, shop.ts, cluster.ts, telemetry.ts) and
 * the staging harness (eval/harness.ts). Every `number` oracle was run against each scenario's
 * staged data and returned exactly one finite value at the data's end; every `at` was checked by
 * range queries on the staged data (the change's first sample, in minutes before the end); the
 * pods, nodes, versions, reasons, pools, claims and change values named by `contains` and `podsOf`
 * were seen in the staged data or the scenario's reported changes.
 */
import type { Expect, QuestionCase } from './conversation-cases';

const sel = (job: string, route?: string): string => `job="${job}"${route ? `, route="${route}"` : ''}`;
const off = (offset?: string): string => (offset ? ` offset ${offset}` : '');

/** The share of a workload's (or one route's) requests answered with a 5xx over five minutes. */
const errorRatio = (job: string, route?: string, offset?: string): string =>
  `sum(rate(http_requests_total{${sel(job, route)}, code=~"5.."}[5m]${off(offset)})) / sum(rate(http_requests_total{${sel(job, route)}}[5m]${off(offset)}))`;

/** Requests per second of a workload (or one route). */
const rps = (job: string, route?: string, offset?: string): string => `sum(rate(http_requests_total{${sel(job, route)}}[5m]${off(offset)}))`;

/** The 99th percentile latency (seconds) of a workload (or one route). */
const p99 = (job: string, route?: string, offset?: string): string =>
  `histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{${sel(job, route)}}[5m]${off(offset)})))`;

/** The 99th percentile latency (seconds) of a workload's calls to a peer. */
const peerP99 = (job: string, peer: string): string =>
  `histogram_quantile(0.99, sum by (le) (rate(http_client_request_duration_seconds_bucket{job="${job}", peer="${peer}"}[5m])))`;

/** The mean latency (seconds) of a workload's calls to a peer. */
const peerMean = (job: string, peer: string): string =>
  `sum(rate(http_client_request_duration_seconds_sum{job="${job}", peer="${peer}"}[5m])) / sum(rate(http_client_request_duration_seconds_count{job="${job}", peer="${peer}"}[5m]))`;

/** Calls per second of a workload to a peer ending with `code`. */
const peerRate = (job: string, peer: string, code: string): string => `sum(rate(http_client_requests_total{job="${job}", peer="${peer}", code="${code}"}[5m]))`;

/** CPU cores a container uses. */
const cores = (container: string): string => `sum(rate(container_cpu_usage_seconds_total{container="${container}"}[5m]))`;

/** Container restarts of a workload over a window. */
const restarts = (container: string, window: string): string => `sum(increase(kube_pod_container_status_restarts_total{container="${container}"}[${window}]))`;

/** A workload's limit of a resource (bytes or cores). */
const limit = (container: string, resource: 'cpu' | 'memory', offset?: string): string =>
  `max(kube_pod_container_resource_limits{container="${container}", resource="${resource}"}${off(offset)})`;

/** Connections of a Postgres server in use, as a share of its max_connections. */
const dbConnections = (server: string): string =>
  `sum(pg_stat_activity_count{server="${server}:5432"}) / max(pg_settings_max_connections{server="${server}:5432"})`;

const num = (number: string, tolerance: number): Expect => ({ number, tolerance });
const at = (minutes: number, tolerance: number): Expect => ({ at: minutes, tolerance });
const cannot: Expect = { cannot: true };

const cases = (scenario: string, list: Array<Omit<QuestionCase, 'scenario' | 'split'>>): QuestionCase[] => list.map((c) => ({ scenario, split: 'dev', ...c }));

export const RELAY_DEV_CASES: QuestionCase[] = [
  ...cases('checkout-bad-version', [
    {
      message:
        'hi all, relaying from Northwind\'s ops lead: "about 1 in 10 of our checkouts have been failing since roughly half an hour ago, we get 500s back". is that us? what share of checkouts (placing the order, not the status page) fail on our side right now?',
      expect: num(errorRatio('checkout', '/api/checkout'), 0.2),
    },
    {
      earlier: ['customer (Northwind) says checkout has been throwing errors at them for a while — are we seeing checkout failures?'],
      message: 'ok thx. they want a start time for their own incident report, when did the failures begin?',
      expect: at(38, 3),
    },
    {
      message:
        "security here. the deploy feed shows a new checkout build going out today which I wasn't expecting. what version is it, and which pods + nodes are running it?",
      expect: { podsOf: { workload: 'checkout', version: '2.15.0' } },
    },
    {
      message:
        'account team is asking which of our enterprise customers actually hit the failed checkouts, they want to send apology emails. can someone pull the list of affected accounts?',
      expect: cannot,
    },
  ]),

  ...cases('search-slow-version-chronic-alert', [
    {
      message:
        "PM for search here — support keeps forwarding 'search takes forever' complaints. how slow are search results for the slowest 1% of requests right now?",
      expect: num(p99('search', '/api/search'), 0.25),
    },
    {
      earlier: ['search results feel sluggish according to support, how slow is search right now?'],
      message: 'and what did it look like an hour ago, before the complaints started coming in?',
      expect: num(p99('search', undefined, '1h'), 0.25),
    },
    {
      message:
        'is it all of search or only the main results page? the autocomplete suggestions feel laggy to me too, but that might be my wifi. can i get the p99 for both?',
      expect: { all: [num(p99('search', '/api/search'), 0.25), num(p99('search', '/api/suggest'), 0.25)] },
    },
  ]),

  ...cases('inventory-down-harmless-rollout', [
    {
      message:
        "forwarding from Initech's support ticket: 'orders fail at the last step with Service Unavailable, started maybe 30-40 min ago'. what share of checkout requests are erroring right now?",
      expect: num(errorRatio('checkout'), 0.15),
    },
    {
      earlier: ['are checkout requests failing at the moment? a customer says orders fail at the last step'],
      message: "product pages also show 'stock unknown'. is the stock (inventory) service even up? since when is it down?",
      expect: at(36, 2),
    },
    {
      message: 'checkout got deployed this morning, right? which version went out and at what time? trying to line it up against the change calendar',
      expect: { all: [{ contains: ['2.14.4'] }, at(44, 2)] },
    },
  ]),

  ...cases('orders-memory-leak-oom', [
    {
      message:
        'PM for orders: support says the order history page sometimes just spins forever. is the orders service restarting? how many restarts in the last hour?',
      expect: num(restarts('orders', '1h'), 0.15),
    },
    {
      earlier: ['is the orders service restarting? support says order history sometimes spins forever'],
      message: "what's killing them, memory? and what's their memory limit set to?",
      expect: { all: [{ contains: ['OOMKilled'] }, num(limit('orders', 'memory'), 0.05)] },
    },
    {
      earlier: ['are the orders pods restarting? how often?'],
      message: 'when did the first one die? trying to match it to the first support ticket we got',
      expect: at(40, 2),
    },
    {
      message:
        'data eng here — our order export needs the IDs of the orders that were in flight when those pods got killed, so we can replay them. can you get me those order ids?',
      expect: cannot,
    },
  ]),

  ...cases('media-disk-full-flapping-alert', [
    {
      message:
        "photo uploads are broken according to three different customers ('upload failed: insufficient storage'?!). what fraction of uploads are failing at the moment?",
      expect: num(errorRatio('media', '/api/uploads'), 0.1),
    },
    {
      earlier: ['customers say photo uploads fail, what fraction of uploads are failing right now?'],
      message: 'do we know when it started? the first ticket came in around half an hour ago',
      expect: at(37, 2),
    },
    {
      message: "security: I'm told a disk filled up on one of the nodes. which node is that, and how large is the volume that's full?",
      expect: { all: [{ contains: ['ip-10-0-2-34'] }, num('max(node_filesystem_size_bytes{mountpoint="/var/lib/media"})', 0.05)] },
    },
    {
      message: "Pixelhaus asks how many of their files were lost during the outage and whether we'll credit their plan for today. anything I can tell them?",
      expect: cannot,
    },
  ]),

  ...cases('search-traffic-surge', [
    {
      message: 'growth team thinks a crawler is hammering site search. how many searches per second are we serving right now?',
      expect: num(rps('search', '/api/search'), 0.15),
    },
    {
      earlier: ['growth says a crawler might be hammering search, how many searches per second are we getting?'],
      message: "and what's normal? say an hour ago?",
      expect: num(rps('search', '/api/search', '1h'), 0.15),
    },
    {
      message: 'can you tell me the source IPs or the user agent of whoever is crawling search? I want to block them at the WAF',
      expect: cannot,
    },
    {
      earlier: ['is a bot hammering search? how many search requests per second right now?'],
      message: 'is search running out of cpu because of it? how many cores does it use?',
      expect: num(cores('search'), 0.15),
    },
  ]),

  ...cases('cart-config-crashloop', [
    {
      message: 'are people still able to add items to their cart? how many add-to-cart requests per second are going through right now?',
      expect: num(rps('cart', '/api/cart/items'), 0.15),
    },
    {
      message: 'security question: someone edited the cart-config configmap today. what time was that edit?',
      expect: at(38.3, 2),
    },
    {
      earlier: ['someone edited the cart-config configmap today, what time was that?'],
      message: 'and the cart pod that rolled out after that edit, how many times did it restart so far?',
      expect: num('sum(kube_pod_container_status_restarts_total{container="cart"})', 0.1),
    },
  ]),

  ...cases('orders-worker-scaled-to-zero', [
    {
      message:
        "data eng here: my nightly fulfilment export reads from the orders queue and it's way behind. looks like nobody is consuming the orders queue — since when?",
      expect: at(44, 2),
    },
    {
      earlier: ['is anything consuming the orders queue right now? my fulfilment export is way behind'],
      message: 'how old is the oldest message sitting in there now?',
      expect: num('time() - min(rabbitmq_queue_head_message_timestamp{queue="orders"})', 0.1),
    },
    {
      message: 'who scaled orders-worker down? i need the person for the change review',
      expect: cannot,
    },
  ]),

  ...cases('checkout-slow-partner-bank', [
    {
      message: "Contoso's CTO just emailed our CEO: 'checkout takes 10+ seconds since this morning'. how slow is placing an order for real right now (p99)?",
      expect: num(p99('checkout', '/api/checkout'), 0.2),
    },
    {
      earlier: ["customer says checkout takes 10+ seconds, how slow is checkout's p99 right now?"],
      message: "is it us or the bank? what's the p99 of payments' calls to partner-bank?",
      expect: num(peerP99('payments', 'partner-bank'), 0.25),
    },
    {
      message: 'reports-batch is my job and it runs on one of the checkout nodes, someone in here is blaming it. how much cpu is it actually using?',
      expect: num(cores('reports-batch'), 0.1),
    },
    {
      message: 'does the fraud-check service show anything weird too? the customer mentioned fraud checks being slow',
      expect: { asks: true },
    },
  ]),

  ...cases('recommendations-cpu-throttled', [
    {
      message: "the 'recommended for you' carousel on the homepage loads super slowly today. how slow is the recommendations service right now, p99?",
      expect: num(p99('recommendations'), 0.25),
    },
    {
      message: 'security: there is a change to the recommendations deployment in the audit log. what is its cpu limit now, and what was that an hour ago?',
      expect: { all: [num(limit('recommendations', 'cpu'), 0.05), num(limit('recommendations', 'cpu', '1h'), 0.05)] },
    },
    {
      earlier: ['there is a change to the recommendations deployment in the audit log, what is its cpu limit now and what was that an hour ago?'],
      message: 'did the recommendations latency go up after that change?',
      expect: { direction: 'up' },
    },
  ]),

  ...cases('node-not-ready', [
    {
      message: 'a few customers report the storefront throwing 502s every few refreshes. what % of frontend requests are failing right now?',
      expect: num(errorRatio('frontend'), 0.15),
    },
    {
      message: 'security: heard a node dropped out of the cluster. which one, and when did it go NotReady?',
      expect: { all: [{ contains: ['ip-10-0-3-41'] }, at(36, 2)] },
    },
    {
      message: 'was it drained by someone on our side or did AWS retire the instance? I need to know who for the audit trail',
      expect: cannot,
    },
    {
      earlier: ['heard a node dropped out of the cluster, which one?'],
      message: 'what of ours was running on that node?',
      expect: { contains: ['cart'] },
    },
  ]),

  ...cases('partner-bank-certificate-expired', [
    {
      message: "security here. I hear partner bank's TLS cert lapsed. when exactly did the certificate on api.partner-bank.example expire?",
      expect: at(35, 1),
    },
    {
      message: "customer says every card payment gets declined with a 'payment provider error'. is it all payments failing? what %?",
      expect: num(errorRatio('payments'), 0.1),
    },
    {
      earlier: ['customer says every card payment is declined, what % of payments are failing?'],
      message: 'did partner bank tell anyone when they will fix it? is there a ticket open with them?',
      expect: cannot,
    },
    {
      earlier: ['when did the certificate on api.partner-bank.example expire?'],
      message: 'and our own cert on shop.example.com — still valid? when does that one expire?',
      expect: at(-61 * 24 * 60, 10),
    },
  ]),

  ...cases('ordersdb-connections-exhausted', [
    {
      message:
        "data eng: our nightly ETL reads ordersdb and keeps dying with 'too many clients already'. how close is ordersdb to its connection limit right now, as a %?",
      expect: num(dbConnections('ordersdb'), 0.1),
    },
    {
      earlier: ['how close is ordersdb to its max connections? our ETL gets too many clients errors'],
      message: 'when did the connections start piling up?',
      expect: at(44, 3),
    },
    {
      earlier: ['is ordersdb out of connections? our nightly ETL cannot connect'],
      message: 'can you see which query or which db user is holding those connections open? I suspect the new reports export',
      expect: cannot,
    },
    {
      message:
        'customer says placing orders fails about a third of the time and the rest is slow. what share of order placements fail, and how slow are they (p99)?',
      expect: { all: [num(errorRatio('orders', '/api/orders'), 0.15), num(p99('orders', '/api/orders'), 0.25)] },
    },
  ]),

  ...cases('sessions-redis-down-flapping-alert', [
    {
      message: "customers say their carts keep emptying and they get 'something went wrong' on the cart page. what fraction of cart requests fail now?",
      expect: num(errorRatio('cart'), 0.1),
    },
    {
      earlier: ['customers say their carts keep emptying, what fraction of cart requests are failing?'],
      message: 'is the sessions redis down? since when?',
      expect: at(36, 2),
    },
    {
      message: 'anything wrong with the loyalty-points service as well? the customer also mentioned missing points',
      expect: { asks: true },
    },
  ]),

  ...cases('payments-bad-version-noisy-neighbour', [
    {
      message:
        "Globex's payments lead says 'about one in five card payments fail since around half an hour'. does that match what we see? what's the failure rate on payments?",
      expect: num(errorRatio('payments'), 0.15),
    },
    {
      message: "security: there's a payments deploy today that I didn't see in the change calendar. which version is it, and which pods/nodes run it?",
      expect: { podsOf: { workload: 'payments', version: '1.9.0' } },
    },
    {
      earlier: ['customer says one in five card payments fail, what is the failure rate on payments?'],
      message: 'someone says ledger-reconcile (our nightly batch) is hogging a payments node. how many cores does it use?',
      expect: num(cores('ledger-reconcile'), 0.1),
    },
    {
      message: 'is paymnets still failing or did the rollback go through?',
      expect: { asksFirst: 'payments' },
    },
  ]),

  ...cases('checkout-memory-limit-lowered', [
    {
      message: "security: audit log shows a resources-only change on checkout. what's its memory limit now vs an hour ago?",
      expect: { all: [num(limit('checkout', 'memory'), 0.05), num(limit('checkout', 'memory', '1h'), 0.05)] },
    },
    {
      message: 'checkout is crashing?? how many times have the checkout pods restarted in the last 30 min?',
      expect: num(restarts('checkout', '30m'), 0.2),
    },
    {
      earlier: ['how many times have the checkout pods restarted in the last 30 min?'],
      message: 'why do they keep dying?',
      expect: { contains: ['OOMKilled'] },
    },
  ]),

  ...cases('ledger-volume-full-chronic-mount', [
    {
      message: "data eng: our nightly reconciliation writes ledger entries and it's getting 507s back. what share of ledger writes fail right now?",
      expect: num(errorRatio('ledger', '/api/ledger/entries'), 0.1),
    },
    {
      earlier: ['our reconciliation gets 507s writing ledger entries, what share of ledger writes fail?'],
      message: '507 is insufficient storage, right? which volume is full, and how big is that volume?',
      expect: { all: [{ contains: ['data-ledger'] }, num('max(kubelet_volume_stats_capacity_bytes{persistentvolumeclaim="data-ledger"})', 0.05)] },
    },
    {
      message: 'finance says ledger entries stopped saving at some point this morning. when did the writes start failing?',
      expect: at(36, 2),
    },
  ]),

  ...cases('accounts-pool-exhausted-harmless-rollout', [
    {
      message: 'customer says account transfers keep timing out for them. what share of transfers fail right now?',
      expect: num(errorRatio('accounts', '/api/accounts/transfer'), 0.15),
    },
    {
      message: 'data eng: our nightly jobs read accountsdb. is the database itself overloaded? what % of its max connections are in use?',
      expect: num(dbConnections('accountsdb'), 0.25),
    },
    {
      earlier: ['is accountsdb overloaded? what % of its max connections are in use?'],
      message: 'so if the db is fine, where are the requests stuck waiting? some connection pool in the app?',
      expect: { contains: ['HikariPool-1'] },
    },
    {
      message: 'accounts got a new build today — which version, and what time did it roll out?',
      expect: { all: [{ contains: ['1.4.1'] }, at(47, 2)] },
    },
  ]),

  ...cases('cart-liveness-slow-redis', [
    {
      message: 'cart keeps timing out per support. are the cart pods restarting? how many restarts in the last 30 min?',
      expect: num(restarts('cart', '30m'), 0.2),
    },
    {
      earlier: ['are the cart pods restarting? how many restarts in the last 30 min?'],
      message: "what's making the health check fail, is the sessions redis slow? how long do cart's redis calls take on average?",
      expect: num(peerMean('cart', 'sessions-redis'), 0.2),
    },
    {
      earlier: ['are the cart pods restarting?', 'is sessions redis slow? how long do the calls take?'],
      message: 'when did the restarts begin?',
      expect: at(36.7, 2),
    },
  ]),

  ...cases('inventory-liveness-unexplained', [
    {
      message: "stock levels don't show on some product pages. is the inventory service restarting? how many times in the last half hour?",
      expect: num(restarts('inventory', '30m'), 0.2),
    },
    {
      earlier: ['is the inventory service restarting? how many times in the last half hour?'],
      message: 'when did that start?',
      expect: at(36.5, 2),
    },
    {
      message: 'catalog-sync is our nightly job and it runs next to inventory. which node is it on, and how much cpu does it use?',
      expect: { all: [{ contains: ['ip-10-0-3-41'] }, num(cores('catalog-sync'), 0.1)] },
    },
  ]),

  ...cases('search-noisy-neighbour', [
    {
      message: "customer says search is slow for them but a colleague says it's fine. how slow is search at the p99 right now?",
      expect: num(p99('search'), 0.25),
    },
    {
      message: 'security: a video-transcode pod showed up on a prod node. which node is it on, and how many cores is it eating?',
      expect: { all: [{ contains: ['ip-10-0-2-34'] }, num(cores('video-transcode'), 0.1)] },
    },
    {
      earlier: ['how slow is search at the p99 right now? a customer says it is slow'],
      message: 'since when has it been slow?',
      expect: at(37, 2),
    },
  ]),

  ...cases('billing-timeout-config-change', [
    {
      message:
        "Umbrella Corp says generating invoices fails with 'gateway timeout' for a chunk of their requests. what share of invoice requests fail right now?",
      expect: num(errorRatio('billing'), 0.15),
    },
    {
      message: 'security: any config changes pushed to billing in the last hour or so? what changed?',
      expect: { contains: ['150ms'] },
    },
    {
      earlier: ['any config changes pushed to billing in the last hour? what changed?'],
      message: 'what time did that go out?',
      expect: at(37, 2),
    },
    {
      message: 'data eng: our nightly invoicing run goes through billing, which calls ledger. how many of billing’s calls to ledger per second are timing out?',
      expect: num(peerRate('billing', 'ledger', 'timeout'), 0.15),
    },
  ]),

  ...cases('archive-down-reported-deploy-red-herring', [
    {
      message: "customers can't generate their monthly statements. what share of statement requests are failing?",
      expect: num(errorRatio('statements'), 0.1),
    },
    {
      message: 'security: there was a statements deploy earlier today (statements-static). what time was that, and when did statements actually start failing?',
      expect: { all: [at(48, 2), at(36, 2)] },
    },
    {
      message: 'my nightly job pulls from statments — is it back up yet?',
      expect: { asksFirst: 'statements' },
    },
  ]),
];
