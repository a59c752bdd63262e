/**
 * Held-out conversation questions (split `holdout-7`, set A): 60 messages over the 23 scenarios of
 * eval/scenarios.ts, two or three each, written before the code they score and never tuned on.
 *
 * The voices are mixed through the file, as people join an incident bridge:
 * - a security engineer who joined the incident channel: certificates, refused or failing calls, what
 *   changed and when, whether anything looks like an attack or abuse, and what the data cannot say
 *   about who did what;
 * - a product manager asking about user-facing impact in product words (checkout, placing an order,
 *   search results, the cart, uploads, logging in), wanting figures to put in an update;
 * - a database administrator: connections and pools, the database's own health, who holds
 *   connections, disks and volumes, redis (and, as the ops person on the call, restarts and limits);
 * - an executive dialled into the bridge, asking short, high-level and sometimes vague questions.
 *
 * How it was checked: each scenario was staged (`D=/tmp/deve node /tmp/tools/stage.js <name>`) and
 * every `number` oracle run against its Prometheus at the data's end, each giving one finite value
 * (noted beside it); every `at` was read off the staged series (query_range, 30 s or 1 min steps),
 * and every name in `contains` is as the staged data shows it (pods named here are ones the
 * generator names from the seed alone; pods of a rollout are asked for with `podsOf`).
 */
import type { QuestionCase } from '../conversation-cases';

const SPLIT = 'holdout-7' as const;

/** The ratio of a job's (or one route's) requests answered with a 5xx over the last five minutes. */
const errorRatio = (job: string, route?: string): string => {
  const r = route ? `, route="${route}"` : '';
  return `sum(rate(http_requests_total{job="${job}"${r}, code=~"5.."}[5m])) / sum(rate(http_requests_total{job="${job}"${r}}[5m]))`;
};

/** The 99th percentile latency of a job's requests (optionally one pod's) over the last five minutes. */
const p99 = (job: string, pod?: string): string =>
  `histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{job="${job}"${pod ? `, pod="${pod}"` : ''}}[5m])))`;

/** Container restarts of a workload's pods, as kube-state-metrics counts them. */
const restarts = (container: string): string => `sum(kube_pod_container_status_restarts_total{namespace="shop", container="${container}"})`;

/** Calls per second from a job to a peer that did not succeed. */
const failingCalls = (job: string, peer: string): string => `sum(rate(http_client_requests_total{job="${job}", peer="${peer}", code!="200"}[5m]))`;

export const SEVENTH_HOLDOUT_QUESTIONS_A: QuestionCase[] = [
  // checkout-bad-version
  {
    scenario: 'checkout-bad-version',
    split: SPLIT,
    message:
      "hey, PM for checkout here. need numbers for the customer update: what % of people hitting 'place order' are getting an error right now, and roughly how many orders failed in the last 30 min?",
    expect: {
      all: [
        { number: errorRatio('checkout', '/api/checkout'), tolerance: 0.15 }, // value seen: 0.110
        { number: 'sum(increase(http_requests_total{job="checkout", route="/api/checkout", code=~"5.."}[30m]))', tolerance: 0.2 }, // value seen: 3695
      ],
    },
  },
  {
    scenario: 'checkout-bad-version',
    split: SPLIT,
    earlier: ['is checkout broken? CEO is asking'],
    message: 'since when',
    expect: { at: 38, tolerance: 3 }, // 5xx of checkout from 38 min before the end (rollout of 2.15.0)
  },
  {
    scenario: 'checkout-bad-version',
    split: SPLIT,
    earlier: ['security here, just joined. what changed on checkout in the last hour or so?'],
    message: 'ok which pods are running that new build, and on which nodes? want to pull their logs before anyone rolls back',
    expect: { podsOf: { workload: 'checkout', version: '2.15.0' } },
  },

  // search-slow-version-chronic-alert
  {
    scenario: 'search-slow-version-chronic-alert',
    split: SPLIT,
    message: "Search feels sluggish for customers (we've had two tickets already). What's the p99 on search at the moment? Just need one number I can quote",
    expect: { number: p99('search'), tolerance: 0.2 }, // value seen: 1.95 s
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: SPLIT,
    earlier: ["Search feels sluggish for customers (we've had two tickets already). What's the p99 on search at the moment?"],
    message: "is this the cpu throttling thing that's been alerting all morning, or something else?",
    expect: { contains: ['3.3.0'] },
  },

  // inventory-down-harmless-rollout
  {
    scenario: 'inventory-down-harmless-rollout',
    split: SPLIT,
    message:
      'sec eng, joined late. the checkout -> inventory calls: are those being refused outright or failing on TLS/handshake? and how many a second are failing',
    expect: {
      all: [
        { contains: ['connection_refused'] },
        { number: failingCalls('checkout', 'inventory'), tolerance: 0.2 }, // value seen: 25.8 req/s
      ],
    },
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: SPLIT,
    message: 'quick one - is this the checkout deploy that went out earlier? yes or no',
    expect: { contains: ['inventory'] },
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: SPLIT,
    earlier: ['quick one - is this the checkout deploy that went out earlier? yes or no'],
    message: 'is inventory even running? when did it stop answering',
    expect: { at: 36, tolerance: 3 }, // up{job="inventory"} 0 and the healthz probe failing from 36 min before the end
  },

  // orders-memory-leak-oom
  {
    scenario: 'orders-memory-leak-oom',
    split: SPLIT,
    message: "orders pods keep bouncing. how many restarts total across the pods so far, and what's the last terminated reason on them?",
    expect: {
      all: [
        { number: restarts('orders'), tolerance: 0.2 }, // value seen: 12
        { contains: ['OOMKilled'] },
      ],
    },
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: SPLIT,
    earlier: ["orders pods keep bouncing. how many restarts total across the pods so far, and what's the last terminated reason on them?"],
    message: 'when was the first kill, and when did memory actually start climbing? trying to line it up with what I see on the db side',
    expect: {
      all: [
        { at: 40.5, tolerance: 3 }, // first OOM kills (both pods) 40.5 min before the end
        { at: 75, tolerance: 5 }, // working set leaves its usual ~400 MiB 75 min before the end
      ],
    },
  },

  // media-disk-full-flapping-alert
  {
    scenario: 'media-disk-full-flapping-alert',
    split: SPLIT,
    message: 'Customers are saying photo uploads are broken in the app. What % of uploads are failing right now?',
    expect: { number: errorRatio('media', '/api/uploads'), tolerance: 0.1 }, // value seen: 0.970
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: SPLIT,
    message: 'which disk filled up? node + mount pls, and what time did it hit zero free',
    expect: {
      all: [
        { contains: ['ip-10-0-2-34', '/var/lib/media'] },
        { at: 37, tolerance: 3 }, // node_filesystem_avail_bytes of /var/lib/media 0 from 37 min before the end
      ],
    },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: SPLIT,
    earlier: ['Customers are saying photo uploads are broken in the app. What % of uploads are failing right now?'],
    message: 'Could someone be spamming uploads to fill that disk on purpose? Is upload traffic up compared to just before it filled?',
    expect: { direction: 'about the same' }, // uploads 2.7 req/s now, 2.6 req/s 40 min before
  },

  // search-traffic-surge
  {
    scenario: 'search-traffic-surge',
    split: SPLIT,
    message: 'this search spike smells like a scraper or a ddos. how many req/s is /api/search taking right now?',
    expect: { number: 'sum(rate(http_requests_total{job="search", route="/api/search"}[5m]))', tolerance: 0.15 }, // value seen: 211.5 req/s (33 before)
  },
  {
    scenario: 'search-traffic-surge',
    split: SPLIT,
    earlier: ['this search spike smells like a scraper or a ddos. how many req/s is /api/search taking right now?'],
    message: "can you tell which source IPs / user agents / ASNs it's coming from? need it for a WAF rule",
    expect: { cannot: true },
  },

  // cart-config-crashloop
  {
    scenario: 'cart-config-crashloop',
    split: SPLIT,
    message: 'new cart pod is crashlooping after what looks like a config change. which configmap got edited, and at what time?',
    expect: {
      all: [
        { contains: ['cart-config'] },
        { at: 38, tolerance: 3 }, // cart-config's resource version changes 38.3 min before the end
      ],
    },
  },
  {
    scenario: 'cart-config-crashloop',
    split: SPLIT,
    earlier: ['new cart pod is crashlooping after what looks like a config change. which configmap got edited, and at what time?'],
    message: 'who made that edit? I need the user or service account for the audit trail',
    expect: { cannot: true },
  },
  {
    scenario: 'cart-config-crashloop',
    split: SPLIT,
    message: 'is the wishlist affected as well? a few customers are complaining their saved items are gone',
    expect: { asks: true },
  },

  // orders-worker-scaled-to-zero
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: SPLIT,
    message: "the frontend alert went off first - is frontend what's broken here?",
    expect: { contains: ['orders-worker'] },
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: SPLIT,
    message: 'orders queue has no consumers. when exactly did they drop off, and was orders-worker scaled down?',
    expect: { at: 44, tolerance: 3 }, // spec replicas 2 -> 0 and queue consumers 0 from 44 min before the end
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: SPLIT,
    message: 'who scaled orders-worker to zero? a person, a pipeline, an autoscaler? I need the actor for the timeline',
    expect: { cannot: true },
  },

  // checkout-slow-partner-bank
  {
    scenario: 'checkout-slow-partner-bank',
    split: SPLIT,
    message: 'support says checkout is super slow. how long is the slowest 1% of people waiting on checkout right now?',
    expect: { number: p99('checkout'), tolerance: 0.15 }, // value seen: 4.80 s (0.79 s before)
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: SPLIT,
    earlier: ['support says checkout is super slow. how long is the slowest 1% of people waiting on checkout right now?'],
    message: 'is it the vendor?',
    expect: { contains: ['partner-bank'] },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: SPLIT,
    message: 'is the fraud screening step slow too? ops mentioned it the last time checkout was slow',
    expect: { asks: true },
  },

  // recommendations-cpu-throttled
  {
    scenario: 'recommendations-cpu-throttled',
    split: SPLIT,
    message: "recommendations: what's the CPU limit per pod now, and how much of the time is it getting throttled?",
    expect: {
      all: [
        { number: 'max(kube_pod_container_resource_limits{namespace="shop", container="recommendations", resource="cpu"})', tolerance: 0.1 }, // value seen: 0.3 cores
        {
          number:
            'sum(increase(container_cpu_cfs_throttled_periods_total{container="recommendations"}[5m])) / sum(increase(container_cpu_cfs_periods_total{container="recommendations"}[5m]))',
          tolerance: 0.2,
        }, // value seen: 0.739
      ],
    },
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: SPLIT,
    message: 'was this a bad release? is there a new version of recs out?',
    expect: { contains: ['0.9.4'] },
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: SPLIT,
    earlier: ['was this a bad release? is there a new version of recs out?'],
    message: 'are recommendations slower for shoppers than before this started?',
    expect: { direction: 'up' }, // p99 1.89 s now, 0.26 s an hour before
  },

  // node-not-ready
  {
    scenario: 'node-not-ready',
    split: SPLIT,
    message: "what broke? one line pls, I'm on with the board in 5",
    expect: { contains: ['ip-10-0-3-41'] },
  },
  {
    scenario: 'node-not-ready',
    split: SPLIT,
    message: "what % of shoppers' page loads are erroring right now?",
    expect: { number: errorRatio('frontend'), tolerance: 0.2 }, // value seen: 0.151
  },
  {
    scenario: 'node-not-ready',
    split: SPLIT,
    earlier: ["what broke? one line pls, I'm on with the board in 5"],
    message: 'which cart pod was on that box? is it still stranded there?',
    expect: { contains: ['cart-d7b5fbc6d-tk7ck'] },
  },

  // partner-bank-certificate-expired
  {
    scenario: 'partner-bank-certificate-expired',
    split: SPLIT,
    message: 'payments -> partner-bank calls are dying with tls errors. whose cert is it (which host), and exactly when did it expire?',
    expect: {
      all: [
        { contains: ['api.partner-bank.example'] },
        { at: 35, tolerance: 2 }, // probe_ssl_earliest_cert_expiry = 35 min before the end; the probe fails from then
      ],
    },
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: SPLIT,
    earlier: ['payments -> partner-bank calls are dying with tls errors. whose cert is it (which host), and exactly when did it expire?'],
    message: "do we know who on partner-bank's side was supposed to renew it, or whether they got the expiry warnings?",
    expect: { cannot: true },
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: SPLIT,
    message: 'What share of card payments are failing right now? Need a % for the status page',
    expect: { number: errorRatio('payments'), tolerance: 0.1 }, // value seen: 0.971
  },

  // ordersdb-connections-exhausted
  {
    scenario: 'ordersdb-connections-exhausted',
    split: SPLIT,
    message: 'ordersdb: what % of max_connections is in use, and what state are those sessions sitting in?',
    expect: {
      all: [
        { number: 'sum(pg_stat_activity_count{server="ordersdb:5432"}) / max(pg_settings_max_connections{server="ordersdb:5432"})', tolerance: 0.1 }, // value seen: 0.995
        { contains: ['idle in transaction'] },
      ],
    },
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: SPLIT,
    earlier: ['ordersdb: what % of max_connections is in use, and what state are those sessions sitting in?'],
    message: 'which query or which db user is holding the idle-in-transaction ones? pids would be ideal so I can terminate them',
    expect: { cannot: true },
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: SPLIT,
    message: 'is this the orders release from earlier?',
    expect: { contains: ['ordersdb'] },
  },

  // sessions-redis-down-flapping-alert
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: SPLIT,
    message: "people can't add things to their cart?? what % of cart requests are failing",
    expect: { number: errorRatio('cart'), tolerance: 0.1 }, // value seen: 0.900
  },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: SPLIT,
    message: 'is sessions-redis itself down or just its exporter? since what time?',
    expect: {
      all: [
        { contains: ['sessions-redis'] },
        { at: 36, tolerance: 3 }, // redis_up 0 (exporter up 1) from 36 min before the end
      ],
    },
  },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: SPLIT,
    earlier: ["people can't add things to their cart?? what % of cart requests are failing"],
    message: 'and logging in? is the login service hit too',
    expect: { asks: true },
  },

  // payments-bad-version-noisy-neighbour
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: SPLIT,
    message: 'payments error spike - what changed on payments, and when exactly?',
    expect: {
      all: [
        { contains: ['1.9.0'] },
        { at: 36, tolerance: 3 }, // rollout of 1.9.0 and its 5xx from 36 min before the end
      ],
    },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: SPLIT,
    earlier: ['payments error spike - what changed on payments, and when exactly?'],
    message: 'ledger-reconcile is chewing cpu on one of the payments nodes. which pods are on 1.9.0 and what nodes are they on?',
    expect: { podsOf: { workload: 'payments', version: '1.9.0' } },
  },

  // checkout-memory-limit-lowered
  {
    scenario: 'checkout-memory-limit-lowered',
    split: SPLIT,
    message: "checkout's crashlooping. is it OOM? what's the memory limit on the checkout pods now?",
    expect: {
      all: [
        { contains: ['OOMKilled'] },
        { number: 'max(kube_pod_container_resource_limits{namespace="shop", container="checkout", resource="memory"})', tolerance: 0.05 }, // value seen: 335544320 (320 MiB)
      ],
    },
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: SPLIT,
    earlier: ["checkout's crashlooping. is it OOM? what's the memory limit on the checkout pods now?"],
    message: 'so is this a new build that went bad?',
    expect: { contains: ['2.14.3'] },
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: SPLIT,
    message: 'Are fewer checkouts getting through than before this started?',
    expect: { direction: 'down' }, // checkout 17.6 req/s now, 27.2 req/s 45 min before; the last 30 min half the 30 min before
  },

  // ledger-volume-full-chronic-mount
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: SPLIT,
    message: 'ledger writes failing with 507. which PVC is full, and how big is it?',
    expect: {
      all: [
        { contains: ['data-ledger'] },
        { number: 'max(kubelet_volume_stats_capacity_bytes{persistentvolumeclaim="data-ledger"})', tolerance: 0.05 }, // value seen: 53687091200 (50 GiB)
      ],
    },
  },
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: SPLIT,
    message: 'what % of ledger writes are failing?',
    expect: { number: errorRatio('ledger', '/api/ledger/entries'), tolerance: 0.1 }, // value seen: 0.951
  },

  // accounts-pool-exhausted-harmless-rollout
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: SPLIT,
    message: 'accounts is timing out. is accountsdb itself in trouble? what % of its max_connections is used?',
    expect: { number: 'sum(pg_stat_activity_count{server="accountsdb:5432"}) / max(pg_settings_max_connections{server="accountsdb:5432"})', tolerance: 0.2 }, // value seen: 0.137
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: SPLIT,
    earlier: ['accounts is timing out. is accountsdb itself in trouble? what % of its max_connections is used?'],
    message: 'then where are the requests stuck? which connection pool?',
    expect: { contains: ['HikariPool-1'] },
  },

  // cart-liveness-slow-redis
  {
    scenario: 'cart-liveness-slow-redis',
    split: SPLIT,
    message: "is sessions-redis up? and how long are cart's redis calls taking on avg right now?",
    expect: {
      all: [
        { contains: ['sessions-redis'] },
        {
          number:
            'sum(rate(http_client_request_duration_seconds_sum{job="cart", peer="sessions-redis"}[5m])) / sum(rate(http_client_request_duration_seconds_count{job="cart", peer="sessions-redis"}[5m]))',
          tolerance: 0.2,
        }, // value seen: 2.33 s (median 2.07 s)
      ],
    },
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: SPLIT,
    earlier: ["is sessions-redis up? and how long are cart's redis calls taking on avg right now?"],
    message: 'how many container restarts has cart racked up in total?',
    expect: { number: restarts('cart'), tolerance: 0.15 }, // value seen: 123
  },

  // inventory-liveness-unexplained
  {
    scenario: 'inventory-liveness-unexplained',
    split: SPLIT,
    message: 'how many times have the inventory containers restarted so far?',
    expect: { number: restarts('inventory'), tolerance: 0.15 }, // value seen: 81
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: SPLIT,
    earlier: ['how many times have the inventory containers restarted so far?'],
    message: 'since when?',
    expect: { at: 37, tolerance: 3 }, // liveness probes fail from 37 min before the end, first restart 36.5
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: SPLIT,
    message: "what's actually hanging inside inventory - which thread or lock? is it a deadlock?",
    expect: { cannot: true },
  },

  // search-noisy-neighbour
  {
    scenario: 'search-noisy-neighbour',
    split: SPLIT,
    message: 'search slow again. cause, in one line?',
    expect: { contains: ['video-transcode', 'ip-10-0-2-34'] },
  },
  {
    scenario: 'search-noisy-neighbour',
    split: SPLIT,
    earlier: ['search slow again. cause, in one line?'],
    message: "which search pod sits on that node, and what's its p99 vs the other one?",
    expect: {
      all: [
        { contains: ['search-878b86fb7-m9xrk'] },
        { number: p99('search', 'search-878b86fb7-m9xrk'), tolerance: 0.2 }, // value seen: 2.41 s (the other pod 0.35 s)
      ],
    },
  },

  // billing-timeout-config-change
  {
    scenario: 'billing-timeout-config-change',
    split: SPLIT,
    message: 'billing is throwing 504s and CD says nothing was deployed. what changed, and when?',
    expect: {
      all: [
        { contains: ['timeout'] },
        { at: 37, tolerance: 3 }, // cfg-8841 reported 37 min before the end; 504s from 36
      ],
    },
  },
  {
    scenario: 'billing-timeout-config-change',
    split: SPLIT,
    earlier: ['billing is throwing 504s and CD says nothing was deployed. what changed, and when?'],
    message: 'how many billing -> ledger calls per second are failing, and failing how - refused or timing out?',
    expect: {
      all: [
        { number: failingCalls('billing', 'ledger'), tolerance: 0.2 }, // value seen: 28.2 req/s
        { contains: ['timeout'] },
      ],
    },
  },

  // archive-down-reported-deploy-red-herring
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: SPLIT,
    message: 'statements is alerting. is it the statements deploy that went out just before? y/n',
    expect: { contains: ['archive'] },
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: SPLIT,
    message: 'statements -> archive failures: connection refused, or tls? and when did archive stop answering?',
    expect: {
      all: [
        { contains: ['connection_refused'] },
        { at: 36, tolerance: 3 }, // up{job="archive"} 0 from 36 min before the end
      ],
    },
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: SPLIT,
    message: 'what % of statement requests are failing right now?',
    expect: { number: errorRatio('statements'), tolerance: 0.1 }, // value seen: 0.601
  },
];
