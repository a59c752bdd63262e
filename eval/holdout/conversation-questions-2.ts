import type { Expect, QuestionCase } from '../conversation-cases';

/**
 * The second conversation holdout (see README.md): follow-up questions an on-call engineer types in
 * the incident chat, about twenty-three incidents of eval/scenarios.ts (bad rollouts, dependencies
 * down, a memory leak with OOM kills, full filesystems and volumes, a traffic surge, configuration
 * crash loops and a timeout push, a worker scaled to zero, a slow downstream, CPU throttling, a node
 * NotReady, an expired certificate, exhausted database connections and an exhausted pool, noisy
 * neighbours, a lowered memory limit, liveness restarts).
 *
 * Written on 2026-11-30 without looking at the engine, its parser or any of its answers: only the
 * `QuestionCase`/`Expect` types, the judging code of eval/conversations.ts and the scenario
 * generators were read. 246 questions over 23 incidents. Every expectation is what the data holds:
 * each PromQL oracle was run as an instant query at the staged data's end and returns one finite,
 * non-zero value; every time was checked against the onset the staged series show.
 *
 * These texts must never be copied, or paraphrased, into specs, tests, fixtures, prompts or
 * source, and nothing may be tuned on them: only the split's totals are ever looked at.
 */

type Labels = Record<string, string>;

// PromQL built from small pieces, so that no oracle is written out anywhere as a whole.
const pair = (k: string, v: string): string => (v.startsWith('~') ? `${k}=~"${v.slice(1)}"` : v.startsWith('!') ? `${k}!="${v.slice(1)}"` : `${k}="${v}"`);
const sel = (metric: string, labels: Labels = {}): string =>
  `${metric}{${Object.entries(labels)
    .map(([k, v]) => pair(k, v))
    .join(',')}}`;
const shift = (off?: string): string => (off ? ` ${'offset'} ${off}` : '');
const fn = (name: string, x: string, w: string, off?: string): string => `${name}(${x}[${w}]${shift(off)})`;
const rate = (x: string, w = '5m', off?: string): string => fn('rate', x, w, off);
const increase = (x: string, w = '5m', off?: string): string => fn('increase', x, w, off);
const agg = (op: string, x: string): string => `${op}(${x})`;
const sum = (x: string): string => agg('sum', x);
const over = (a: string, b: string): string => `${a} / ${b}`;
const oneMinus = (x: string): string => `1 - ${x}`;
const node = (short: string): string => `${short}.eu-west-1.compute.internal`;

const REQ = 'http_requests_total';
const CALLS = 'http_client_requests_total';
const SERVER = 'http_request_duration_seconds';
const CLIENT = 'http_client_request_duration_seconds';
const FAILED = '~5..';

/** Requests per second of a job (and route, code...). */
const rps = (job: string, extra: Labels = {}, off?: string): string => sum(rate(sel(REQ, { job, ...extra }), '5m', off));
/** The share of a job's requests answered 5xx. */
const errors = (job: string, extra: Labels = {}, off?: string): string => over(rps(job, { ...extra, code: FAILED }, off), rps(job, extra, off));
/** The same share over a whole window (e.g. the last 30 minutes). */
const errorsOver = (job: string, w: string): string => over(sum(increase(sel(REQ, { job, code: FAILED }), w)), sum(increase(sel(REQ, { job }), w)));
const quantile = (q: number, base: string, labels: Labels, off?: string, by = 'le'): string =>
  `${'histogram_quantile'}(${q}, ${agg(`sum by (${by})`, rate(sel(`${base}_bucket`, labels), '5m', off))})`;
const p99 = (job: string, extra: Labels = {}, off?: string): string => quantile(0.99, SERVER, { job, ...extra }, off);
const mean = (base: string, labels: Labels): string => over(sum(rate(sel(`${base}_sum`, labels))), sum(rate(sel(`${base}_count`, labels))));
/** The share of a job's calls to a peer with an outcome. */
const callShare = (job: string, peer: string, code: string): string => over(sum(rate(sel(CALLS, { job, peer, code }))), sum(rate(sel(CALLS, { job, peer }))));
const cores = (container: string, off?: string): string => sum(rate(sel('container_cpu_usage_seconds_total', { container }), '5m', off));
const limit = (container: string, resource: string, off?: string): string =>
  agg('max', `${sel('kube_pod_container_resource_limits', { container, resource })}${shift(off)}`);
const ofCpuLimit = (container: string): string => over(cores(container), sum(sel('kube_pod_container_resource_limits', { container, resource: 'cpu' })));
const throttled = (container: string): string =>
  over(sum(increase(sel('container_cpu_cfs_throttled_periods_total', { container }))), sum(increase(sel('container_cpu_cfs_periods_total', { container }))));
const nodeBusy = (short: string): string => oneMinus(agg('avg', rate(sel('node_cpu_seconds_total', { mode: 'idle', node: node(short) }))));
const diskUsed = (labels: Labels): string => oneMinus(over(sel('node_filesystem_avail_bytes', labels), sel('node_filesystem_size_bytes', labels)));
const pgUsed = (): string => over(sum(sel('pg_stat_activity_count')), agg('max', sel('pg_settings_max_connections')));
/** The same, averaged over the ten minutes that end `off` before the end (a noisy gauge, before an onset). */
const pgUsedBefore = (off: string): string =>
  over(sum(fn(`${'avg'}_over_time`, sel('pg_stat_activity_count'), '10m', off)), agg('max', `${sel('pg_settings_max_connections')}${shift(off)}`));
/** The share of a container's liveness probes that fail (over ten minutes: a probe every ten seconds). */
const probeFails = (container: string): string =>
  over(sum(rate(sel('prober_probe_total', { container, result: 'failed' }), '10m')), sum(rate(sel('prober_probe_total', { container }), '10m')));
const workingSet = (container: string): string => sel('container_memory_working_set_bytes', { container });
const peak = (container: string, w: string): string => agg('max', fn('max_over_time', workingSet(container), w));

const n = (number: string, tolerance = 0.25): Expect => ({ number, tolerance });
const at = (minutes: number, tolerance = 5): Expect => ({ at: minutes, tolerance });
const up: Expect = { direction: 'up' };
const down: Expect = { direction: 'down' };
const flat: Expect = { direction: 'about the same' };
const cannot: Expect = { cannot: true };
const asks: Expect = { asks: true };
const has = (...contains: string[]): Expect => ({ contains });
const all = (...parts: Expect[]): Expect => ({ all: parts });
const pods = (workload: string, version: string): Expect => ({ podsOf: { workload, version } });

const about =
  (scenario: string) =>
  (message: string, expect: Expect, earlier?: string[]): QuestionCase => ({
    scenario,
    split: 'holdout-2',
    message,
    expect,
    ...(earlier ? { earlier } : {}),
  });

const badCheckout = about('checkout-bad-version');
const slowSearch = about('search-slow-version-chronic-alert');
const inventoryGone = about('inventory-down-harmless-rollout');
const ordersLeak = about('orders-memory-leak-oom');
const mediaDisk = about('media-disk-full-flapping-alert');
const surge = about('search-traffic-surge');
const cartConfig = about('cart-config-crashloop');
const noWorker = about('orders-worker-scaled-to-zero');
const slowBank = about('checkout-slow-partner-bank');
const throttledRecs = about('recommendations-cpu-throttled');
const deadNode = about('node-not-ready');
const expiredCert = about('partner-bank-certificate-expired');
const ordersDb = about('ordersdb-connections-exhausted');
const redisDown = about('sessions-redis-down-flapping-alert');
const badPayments = about('payments-bad-version-noisy-neighbour');
const lowMemory = about('checkout-memory-limit-lowered');
const ledgerFull = about('ledger-volume-full-chronic-mount');
const hikariDry = about('accounts-pool-exhausted-harmless-rollout');
const redisSlow = about('cart-liveness-slow-redis');
const inventoryHangs = about('inventory-liveness-unexplained');
const neighbour = about('search-noisy-neighbour');
const billingTimeout = about('billing-timeout-config-change');
const archiveGone = about('archive-down-reported-deploy-red-herring');

export const SECOND_HOLDOUT_QUESTIONS: QuestionCase[] = [
  // checkout 2.15.0 fails a tenth of POST /api/checkout from its rollout, 38 minutes before the end.
  badCheckout("whats checkout's error % looking like rn", n(errors('checkout'))),
  badCheckout('checkout throughput atm? in req/s', n(rps('checkout'), 0.2)),
  badCheckout('how many 5xx a second on POST /api/checkout specifically', n(rps('checkout', { route: '/api/checkout', code: FAILED }))),
  badCheckout('which pods got 2.15.0 + what nodes are they sitting on', pods('checkout', '2.15.0')),
  badCheckout('when did checkout start throwing 500s, roughly', at(37)),
  badCheckout('ok so what do we roll checkout back to', has('2.14.3')),
  badCheckout('is that up vs before 2.15.0 went out', up, ['checkout error ratio?']),
  badCheckout('which customers hit the failed checkouts, support wants names', cannot),
  badCheckout('avg err ratio on checkout over the past 30 mins?', n(errorsOver('checkout', '30m'))),
  badCheckout('checkout p99 rn - is it slow too or just erroring', n(p99('checkout'), 0.3)),
  badCheckout('is payments getting hit as well or is it just checkout', flat),

  // search 3.3.0 answers /api/search four times slower from 40 minutes before the end; recommendations throttles all day.
  slowSearch('p99 on search now vs before the 3.3.0 deploy?', all(n(p99('search'), 0.3), n(p99('search', {}, '45m'), 0.3))),
  slowSearch('what pods r running search 3.3.0, and where', pods('search', '3.3.0')),
  slowSearch('since when has search been sluggish', at(40)),
  slowSearch('whats the median latency of /api/suggest', n(quantile(0.5, SERVER, { job: 'search', route: '/api/suggest' }), 0.3)),
  slowSearch('how throttled is recommendations rn (the CPUThrottlingHigh one)', n(throttled('recommendations'), 0.3)),
  slowSearch('who signed off on the search release', cannot),
  slowSearch('how many cores is search burning in total', n(cores('search'))),
  slowSearch('and the memory?', n(sum(workingSet('search'))), ['how much cpu is search using']),
  slowSearch('whats the p99 on those pods', n(p99('search'), 0.3), ['which pods run search 3.3.0']),

  // inventory stops answering 36 minutes before the end; checkout's calls to it are refused. checkout 2.14.4 (44 min) changed nothing.
  inventoryGone('how many checkout reqs/sec are failing rn', n(rps('checkout', { code: FAILED }))),
  inventoryGone('what % of checkouts calls to inventory r failing', n(callShare('checkout', 'inventory', '!200'), 0.1)),
  inventoryGone('when did inventory go dark', at(36)),
  inventoryGone('was it the checkout 2.14.4 rollout?? that went out just before', has('inventory')),
  inventoryGone('where did 2.14.4 land, pods/nodes pls', pods('checkout', '2.14.4')),
  inventoryGone('checkout rollout happened when exactly', at(44)),
  inventoryGone('inventory request volume since it fell over?', down),
  inventoryGone('how many orders did we lose bc of this', cannot),
  inventoryGone('is invntry answering again', { asksFirst: 'inventory' }),

  // orders leaks from 75 minutes before the end and is OOMKilled from about 41 minutes before.
  ordersLeak('mem limit on orders?', n(limit('orders', 'memory'), 0.1)),
  ordersLeak('peak working set for orders in the last 30m', n(peak('orders', '30m'), 0.2)),
  ordersLeak('when did orders memory start creeping up', at(75, 6)),
  ordersLeak('first oomkill on orders was when', at(41)),
  ordersLeak('wtf why do the orders pods keep dying', has('OOMKilled')),
  ordersLeak('and actual usage, higher than 2h ago?', up, ['mem limit on orders?']),
  ordersLeak('which endpoint is leaking the memory', cannot),
  ordersLeak('orders mem limit and the peak usage over last half hour', all(n(limit('orders', 'memory'), 0.1), n(peak('orders', '30m'), 0.2))),
  ordersLeak('orders req/s rn, are we still serving', n(rps('orders'))),

  // /var/lib/media on ip-10-0-2-34 is full from 37 minutes before the end; media's uploads fail with 507.
  mediaDisk('how full is /var/lib/media', n(diskUsed({ mountpoint: '/var/lib/media' }), 0.1)),
  mediaDisk('are uploads still failing, whats the error ratio on them', n(errors('media', { route: '/api/uploads' }), 0.2)),
  mediaDisk('when did /var/lib/media hit 100%', at(37)),
  mediaDisk('which box is it on', has('ip-10-0-2-34'), ['how full is the media mount']),
  mediaDisk('and its root filesystem, how full is that', n(diskUsed({ mountpoint: '/', node: node('ip-10-0-2-34') }), 0.2), ['which node has /var/lib/media']),
  mediaDisk("what's media's total req/s", n(rps('media'))),
  mediaDisk('media GETs still ok or also borked', flat, ['are uploads still failing on media']),
  mediaDisk('who or what dumped all that data on the media disk', cannot),
  mediaDisk('which node is the full media disk on and how full is it', all(has('ip-10-0-2-34'), n(diskUsed({ mountpoint: '/var/lib/media' }), 0.1))),

  // A crawler multiplies /api/search by six from 39 minutes before the end; frontend 5.2.1 rolled out five minutes before.
  surge('search rps now vs before the surge', all(n(rps('search'), 0.2), n(rps('search', {}, '45m'), 0.2))),
  surge('what share of search traffic is /api/search', n(over(rps('search', { route: '/api/search' }), rps('search')), 0.1)),
  surge('when did the traffic spike on search begin', at(39)),
  surge('is search near its cpu limit', n(ofCpuLimit('search'), 0.15)),
  surge('search p99 rn??', n(p99('search'), 0.3)),
  surge('did frontend 5.2.1 change anything for frontend latency', flat),
  surge('which route is getting hammered', has('/api/search')),
  surge("whats the crawler's IP / user agent", cannot),
  surge('frontend 5.2.1 - which pods, which nodes', pods('frontend', '5.2.1')),
  surge('and throttling on its pods?', n(throttled('search'), 0.15), ['search p99 now?']),
  surge('how many req/s was it doing right before then', n(rps('search', {}, '45m'), 0.2), ['when did the traffic on search take off']),
  surge('pricing-engine latency, is it also hit', asks),
  surge('avg search req/s over the last hour', n(over(sum(increase(sel(REQ, { job: 'search' }), '1h')), '3600'), 0.2)),
  surge('when did search cpu hit the ceiling', at(36)),
  surge('anything rolled out around when search started melting', has('5.2.1')),

  // An edit of cart-config 38 minutes before the end rolls cart; the new pod crash loops, the old ones keep serving.
  cartConfig('what changed right before cart started crashlooping', has('cart-config')),
  cartConfig('when did someone touch the cart-config configmap', at(38)),
  cartConfig('cart req/s rn', n(rps('cart'), 0.2)),
  cartConfig('list the cart pods on 4.1.2 w/ their nodes', pods('cart', '4.1.2')),
  cartConfig('which key in the configmap got changed', cannot),
  cartConfig('are users seeing cart errors since the edit', flat),
  cartConfig('cart p99 atm', n(p99('cart'), 0.3)),
  cartConfig('when did the new cart pod first crash', at(38)),
  cartConfig('is cart-redis-cache ok', asks),

  // orders-worker is scaled to zero 44 minutes before the end; the orders queue ages. A frontend target flaps.
  noWorker('how old is the oldest msg in the orders queue', n(`time() - ${sel('rabbitmq_queue_head_message_timestamp', { queue: 'orders' })}`, 0.2)),
  noWorker('when did the orders queue lose its consumers', at(44)),
  noWorker('why is the orders queue backing up', has('orders-worker')),
  noWorker('cpu of orders-worker before it went away', n(cores('orders-worker', '50m'))),
  noWorker('emails queue looking normal?', flat),
  noWorker('who scaled it down', cannot, ['why is orders-worker at 0 pods']),
  noWorker('is the orders api itself affected, whats its req rate', n(rps('orders'), 0.2)),
  noWorker('is ordr-wrker running anything', { asksFirst: 'orders-worker' }),
  noWorker('the frontend target that flapped, when did it go down last', at(34, 4)),
  noWorker('kafka-connect lag on the orders topic?', asks),

  // partner-bank answers payments twelve times slower from 37 minutes before the end; reports-batch eats ip-10-0-2-34.
  slowBank('p99 of payments -> partner-bank calls', n(quantile(0.99, CLIENT, { job: 'payments', peer: 'partner-bank' }), 0.3)),
  slowBank('checkout p99 now and before it went sideways', all(n(p99('checkout'), 0.3), n(p99('checkout', {}, '45m'), 0.3))),
  slowBank('when did partner-bank slow down', at(37)),
  slowBank('whats the root cause here, the noisy batch thing?', has('partner-bank')),
  slowBank('ip-10-0-2-34 cpu, is it pegged', n(nodeBusy('ip-10-0-2-34'), 0.1)),
  slowBank('avg latency of POST /api/checkout', n(mean(SERVER, { job: 'checkout', route: '/api/checkout' }), 0.3)),
  slowBank('partner-bank status page say anything?', cannot),
  slowBank('how many cores is it using', n(cores('reports-batch'), 0.2), ['whats hogging ip-10-0-2-34']),
  slowBank('same for payments', n(p99('payments'), 0.3), ['checkout p99 rn']),
  slowBank("what's on ip-10-0-2-34 and how busy is that node", all(has('reports-batch'), n(nodeBusy('ip-10-0-2-34'), 0.1))),
  slowBank('checkout req rate since the slowdown started', flat),
  slowBank(
    'how much cpu did reports-batch use on avg over the past 30 min',
    n(over(sum(increase(sel('container_cpu_usage_seconds_total', { container: 'reports-batch' }), '30m')), '1800'), 0.2),
  ),

  // A resources-only rollout 40 minutes before the end lowers recommendations' CPU limit from 1 to 0.3 cores.
  throttledRecs('throttling % on recommendations', n(throttled('recommendations'), 0.3)),
  throttledRecs('cpu limit before vs now', all(n(limit('recommendations', 'cpu', '45m'), 0.1), n(limit('recommendations', 'cpu'), 0.1)), [
    'recommendations is slow, what changed',
  ]),
  throttledRecs('since what time tho', at(40), ['throttling % on recommendations']),
  throttledRecs('recommendations p99 since the rollout', up),
  throttledRecs('did the version change in that rollout', has('0.9.4')),
  throttledRecs('cores per recommendations pod', n(agg('avg', rate(sel('container_cpu_usage_seconds_total', { container: 'recommendations' }))), 0.25)),
  throttledRecs('who lowered the limit', cannot),
  throttledRecs('what shld we set the cpu limit back to', n(limit('recommendations', 'cpu', '45m'), 0.1)),
  throttledRecs('is recomendashuns still slow', { asksFirst: 'recommendations' }),
  throttledRecs('what % of its cpu limit is recommendations using', n(ofCpuLimit('recommendations'), 0.15)),

  // ip-10-0-3-41 goes NotReady 36 minutes before the end; frontend's calls to the cart pod on it time out.
  deadNode('frontend is 502ing - which node is the problem here', has('ip-10-0-3-41')),
  deadNode('when did that node drop out', at(36), ['frontend is 502ing - which node is the problem here']),
  deadNode('what fraction of frontend requests are 5xx atm', n(errors('frontend'))),
  deadNode('how many of frontends calls to cart time out, %', n(callShare('frontend', 'cart', 'timeout'), 0.2)),
  deadNode('what ran on that node', has('cart', 'search', 'payments'), ['what node went not ready?']),
  deadNode('frontend rps vs an hour ago', down),
  deadNode('did AWS have an outage in eu-west-1 or smth', cannot),
  deadNode('cart still serving? req/s', n(rps('cart'), 0.2)),
  deadNode('frontend p99 latency now', n(p99('frontend'), 0.3)),
  deadNode('which node died and when', all(has('ip-10-0-3-41'), at(36))),

  // partner-bank's certificate expires 35 minutes before the end; payments' calls fail the handshake.
  expiredCert('what time did the partner-bank cert actually expire', at(35)),
  expiredCert('are we still burning errors on payments? ratio pls', n(errors('payments'), 0.1)),
  expiredCert('why r the payments calls to partner-bank failing', has('certificate')),
  expiredCert('is checkout ok or dragged down too', flat, ['are we still burning errors on payments? ratio pls']),
  expiredCert('when does partner-bank plan to renew their cert', cannot),
  expiredCert('failed payments per second rn', n(rps('payments', { code: FAILED }), 0.2)),
  expiredCert('payments error ratio and since when', all(n(errors('payments'), 0.1), at(35))),
  expiredCert('is fraud-svc affected', asks),
  expiredCert('avg failed payments/s over the last 30 min', n(over(sum(increase(sel(REQ, { job: 'payments', code: FAILED }), '30m')), '1800'))),
  expiredCert('since when is the blackbox probe on partner-bank red', at(35)),

  // A reports export holds ordersdb's connections until max_connections, 40 minutes before the end; orders 2.3.1 changed nothing.
  ordersDb('ordersdb connections used vs max, as a %', n(pgUsed(), 0.1)),
  ordersDb('when did orders start throwing 500s', at(40)),
  ordersDb('is it the 2.3.1 deploy tho', has('ordersdb')),
  ordersDb('which pods got it and on what nodes', pods('orders', '2.3.1'), ['what got deployed in the 10 min before orders broke']),
  ordersDb('orders p99 now vs before all this', all(n(p99('orders'), 0.3), n(p99('orders', {}, '50m'), 0.3))),
  ordersDb('what % of orders->ordersdb calls fail', n(callShare('orders', 'ordersdb', '!200'), 0.2)),
  ordersDb('which query is holding the transactions open', cannot),
  ordersDb('ordersdb commits/s compared to before', flat),
  ordersDb('what about before that started', n(pgUsedBefore('45m'), 0.25), ['ordersdb connection usage %']),
  ordersDb("how's ordrs doing now", { asksFirst: 'orders' }),
  ordersDb('when did conns start piling up on ordersdb', at(43)),
  ordersDb('what got deployed in the 10 min before orders broke', has('2.3.1')),

  // sessions-redis goes down 36 minutes before the end; cart fails nine requests in ten.
  redisDown('cart err ratio rn', n(errors('cart'), 0.1)),
  redisDown('when did redis die', at(36)),
  redisDown("what's breaking cart??", has('sessions-redis')),
  redisDown('how many cart requests/s are actually succeeding', n(rps('cart', { code: '200' }))),
  redisDown('why did redis go down in the first place', cannot),
  redisDown('frontend latency vs before redis died', flat),
  redisDown('search affected at all?', flat),
  redisDown('is memcached ok', asks),
  redisDown('cart error ratio over the whole last hour', n(errorsOver('cart', '1h'), 0.2)),
  redisDown('cart pods on 4.1.2 - where are they scheduled', pods('cart', '4.1.2')),

  // payments 1.9.0 fails a fifth of its requests from 36 minutes before the end; ledger-reconcile eats ip-10-0-3-41.
  badPayments('which pods run payments 1.9.0 and on which nodes', pods('payments', '1.9.0')),
  badPayments('payments error % now', n(errors('payments'), 0.2)),
  badPayments("what's eating all the cpu on ip-10-0-3-41", has('ledger-reconcile')),
  badPayments('how many cores', n(cores('ledger-reconcile'), 0.2), ['whats using the cpu on ip-10-0-3-41']),
  badPayments('when did payments start erroring', at(36)),
  badPayments('payments latency vs before 1.9.0', flat),
  badPayments('is ip-10-0-3-41 maxed', n(nodeBusy('ip-10-0-3-41'), 0.1)),
  badPayments('should we roll back payments, to what', has('1.8.0')),
  badPayments('which merchant ids are failing', cannot),
  badPayments('avg payments error ratio over the past hour', n(errorsOver('payments', '1h'), 0.2)),
  badPayments('when did ledger-reconcile start hogging', at(40)),
  badPayments('paymnts-api error rate', { asksFirst: 'payments' }),

  // A resources-only rollout 40 minutes before the end lowers checkout's memory limit from 768 to 320 MiB; OOMKilled.
  lowMemory('checkout mem limit rn', n(limit('checkout', 'memory'), 0.1)),
  lowMemory('memory limit before vs after the change', all(n(limit('checkout', 'memory', '45m'), 0.1), n(limit('checkout', 'memory'), 0.1)), [
    'what changed on checkout',
  ]),
  lowMemory('why are checkout pods crashlooping', has('OOMKilled')),
  lowMemory('when did the limit change', at(40)),
  lowMemory('checkout traffic vs before the change', down),
  lowMemory("what's eating the memory inside the process, heap dump?", cannot),
  lowMemory('what limit should we put back', n(limit('checkout', 'memory', '45m'), 0.1), ['why are checkout pods crashlooping']),
  lowMemory('when was the first OOM on the new pods', at(38)),
  lowMemory('peak checkout working set over the last 10 min', n(peak('checkout', '10m'), 0.2)),
  lowMemory("what's killing checkout and what's its limit now", all(has('OOMKilled'), n(limit('checkout', 'memory'), 0.1))),

  // ledger's claim data-ledger on ip-10-0-1-88 fills up 36 minutes before the end; /var/log/archive has been full for hours.
  ledgerFull('which volume ran out of space', has('data-ledger')),
  ledgerFull('what ratio of ledger writes (POST entries) are failing', n(errors('ledger', { route: '/api/ledger/entries' }), 0.1)),
  ledgerFull("when did ledger's volume hit zero free", at(36)),
  ledgerFull('/var/log/archive on the same node is full too - is that new vs 2h ago', flat),
  ledgerFull('how big is the ledger pvc anyway', n(sel('kubelet_volume_stats_capacity_bytes', { persistentvolumeclaim: 'data-ledger' }), 0.05)),
  ledgerFull('reads on GET /api/ledger/{id}, how many req/s', n(rps('ledger', { route: '/api/ledger/{id}' }))),
  ledgerFull('which tenant wrote all that data', cannot),
  ledgerFull('507s per sec on ledger', n(rps('ledger', { code: '507' }))),
  ledgerFull('ledger 3.1.0 pod + node', pods('ledger', '3.1.0')),
  ledgerFull('which pvc filled up and when', all(has('data-ledger'), at(36))),
  ledgerFull('ledgr write errors still going?', { asksFirst: 'ledger' }),
  ledgerFull('ledger 507s per second averaged over the last 20 min', n(over(sum(increase(sel(REQ, { job: 'ledger', code: '507' }), '20m')), '1200'))),

  // accounts' HikariPool-1 (10) runs dry 38 minutes before the end; accounts 1.4.1 (47 min) changed nothing.
  hikariDry("accounts is timing out - what's exhausted", has('HikariPool-1')),
  hikariDry('accounts error ratio?', n(errors('accounts'), 0.2)),
  hikariDry('accounts p99 now vs before it started failing', all(n(p99('accounts'), 0.3), n(p99('accounts', {}, '50m'), 0.3))),
  hikariDry('pods with accounts 1.4.1 and their nodes', pods('accounts', '1.4.1')),
  hikariDry('when did accounts start timing out', at(38)),
  hikariDry("is accountsdb the problem? what's its connection usage vs max", n(pgUsed(), 0.3)),
  hikariDry('hikari pool usage %', n(over(sum(sel('hikaricp_connections_active')), sum(sel('hikaricp_connections_max'))), 0.1)),
  hikariDry('was anything deployed shortly before accounts started failing', has('1.4.1')),
  hikariDry('when did that go out', at(47), ['was anything deployed shortly before accounts started failing']),
  hikariDry('which batch job is holding the conns', cannot),
  hikariDry('accounts req/s rn', n(rps('accounts'), 0.2)),
  hikariDry('accounts error ratio and when it began', all(n(errors('accounts'), 0.2), at(38))),

  // sessions-redis slows to seconds 38 minutes before the end; cart's liveness probe times out and its containers restart.
  redisSlow("avg latency of cart's calls to sessions-redis", n(mean(CLIENT, { job: 'cart', peer: 'sessions-redis' }))),
  redisSlow('why does cart keep restarting every minute', has('liveness')),
  redisSlow('when did redis get slow', at(38)),
  redisSlow('% of cart liveness probes failing', n(probeFails('cart'), 0.3)),
  redisSlow('and the request rate, vs before?', down, ['why does cart keep restarting every minute']),
  redisSlow('what redis command is slow', cannot),
  redisSlow('cart p99 atm?', n(p99('cart'), 0.3)),
  redisSlow('is the session-store-v2 ok', asks),
  redisSlow('whats the avg redis call latency from cart and since when', all(n(mean(CLIENT, { job: 'cart', peer: 'sessions-redis' })), at(38))),

  // inventory's processes hang from 37 minutes before the end (nothing in the metrics says why); catalog-sync bursts beside it with CPU to spare.
  inventoryHangs("any idea what's making the inventory process hang? deadlock?", cannot),
  inventoryHangs("is inventory's node ip-10-0-3-41 short on cpu? busy %", n(nodeBusy('ip-10-0-3-41'), 0.2)),
  inventoryHangs('whats catalog-sync on that node taking, in cores', n(cores('catalog-sync'), 0.2), ["is inventory's node ip-10-0-3-41 short on cpu? busy %"]),
  inventoryHangs('when did the inventory restarts begin', at(36)),
  inventoryHangs('has inventory latency moved since the restarts started', flat),
  inventoryHangs('what % of inventory liveness probes fail', n(probeFails('inventory'), 0.3)),
  inventoryHangs('checkout impacted by any of this?', flat),
  inventoryHangs('where do the inventory pods live', pods('inventory', '3.0.7')),

  // video-transcode takes all of ip-10-0-2-34 37 minutes before the end; the search pod there starves.
  neighbour('how busy is ip-10-0-2-34 cpu-wise', n(nodeBusy('ip-10-0-2-34'), 0.1)),
  neighbour('video-transcode using how many cores rn', n(cores('video-transcode'), 0.2)),
  neighbour('search p99 now vs an hour ago', all(n(p99('search'), 0.3), n(p99('search', {}, '60m'), 0.3))),
  neighbour('what time did search p99 jump', at(37)),
  neighbour('what else is running there', has('video-transcode'), ['which node is the slow search pod on']),
  neighbour('is ip-10-0-3-41 busier than an hour ago', up),
  neighbour("image-resizer's node maxed?", n(nodeBusy('ip-10-0-1-23'), 0.1)),
  neighbour(
    'how many cores is the search pod on ip-10-0-2-34 actually getting',
    n(sum(rate(sel('container_cpu_usage_seconds_total', { container: 'search', node: node('ip-10-0-2-34') })))),
  ),
  neighbour('when did video-transcode start eating the cpu', at(37)),
  neighbour('what videos is that transcode job chewing on', cannot),
  neighbour(
    'which node is the slow search pod on and its p99',
    all(has('ip-10-0-2-34'), n(agg('max', quantile(0.99, SERVER, { job: 'search' }, undefined, 'le, pod')), 0.3)),
  ),
  neighbour('search pods on 3.2.1, which nodes', pods('search', '3.2.1')),

  // A push 37 minutes before the end lowers billing's ledger timeout to 150ms; a fifth of billing fails 504.
  billingTimeout('who pushed that billing config', has('grace')),
  billingTimeout('what changed right before billing broke', has('150ms')),
  billingTimeout('what time did the config push land', at(37)),
  billingTimeout('when did billing start 504ing', at(36)),
  billingTimeout('billing err %', n(errors('billing'), 0.2)),
  billingTimeout('what fraction of billing->ledger calls time out', n(callShare('billing', 'ledger', 'timeout'), 0.1)),
  billingTimeout('billing latency compared to before the change', flat),
  billingTimeout('which customer invoices failed, need ids', cannot),
  billingTimeout('how many 504s/s is billing returning', n(rps('billing', { code: '504' }))),
  billingTimeout('is bilin ok now', { asksFirst: 'billing' }),
  billingTimeout('who changed what in billing and when', all(has('grace'), at(37))),
  billingTimeout('billing pods (3.2.0) and their nodes', pods('billing', '3.2.0')),
  billingTimeout('ok what do we revert, change id pls', has('cfg-8841'), ['what changed right before billing broke']),

  // archive stops answering 36 minutes before the end; statements fails. A statements deploy 48 minutes before changed nothing.
  archiveGone('statements is failing, root cause?', has('archive')),
  archiveGone('when was the statements deploy', at(48)),
  archiveGone('when did archive stop answering', at(36)),
  archiveGone('statements error ratio rn', n(errors('statements'), 0.2)),
  archiveGone('and who pushed it', has('ci-bot'), ['when was the statements deploy']),
  archiveGone('statements latency since the deploy', flat),
  archiveGone('share of statements->archive calls failing', n(callShare('statements', 'archive', '!200'), 0.1)),
  archiveGone('is the archive-replica ok', asks),
  archiveGone('statements req/s at the moment', n(rps('statements'), 0.2)),
  archiveGone('5xx/s on statements', n(rps('statements', { code: FAILED }))),
  archiveGone('archive pods on 5.0.3 and their nodes', pods('archive', '5.0.3')),
  archiveGone('stmnts still failing?', { asksFirst: 'statements' }),
  archiveGone('anything deployed in the hour before archive went down?', has('2026.11.27-1')),
];
