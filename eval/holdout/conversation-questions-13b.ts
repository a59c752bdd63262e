import type { QuestionCase } from '../conversation-cases';

/**
 * Held-out conversation questions (thirteenth holdout, part B), written before the code they
 * score; never copy or tune on them (eval/holdout/README.md).
 * Voices: an SRE in a war room firing short follow-ups; a customer-support team lead turning
 * customer complaints into questions; a platform engineer who owns the nodes and the cluster
 * (placement, restarts, limits, disks); a staff engineer writing long, careful questions with asides.
 */
export const THIRTEENTH_HOLDOUT_QUESTIONS_B: QuestionCase[] = [
  // ---- SRE in the war room ----
  {
    scenario: 'checkout-bad-version',
    split: 'holdout-13',
    message: 'checkout 5xx on POST /api/checkout rn?',
    expect: {
      number:
        'sum(rate(http_requests_total{job="checkout",route="/api/checkout",code=~"5.."}[5m])) / sum(rate(http_requests_total{job="checkout",route="/api/checkout"}[5m]))',
      tolerance: 0.2,
    },
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'holdout-13',
    earlier: ['whats paging us', 'p99 /api/search atm'],
    message: 'higher or lower than before the 3.3.0 push',
    expect: { direction: 'up' },
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: 'holdout-13',
    message: 'orders pods bouncing again. reason??',
    expect: { contains: ['OOMKilled'] },
  },
  {
    scenario: 'search-traffic-surge',
    split: 'holdout-13',
    earlier: ['search rps on /api/search?', 'normal is like 35/s right'],
    message: "when'd it jump",
    expect: { at: 39, tolerance: 3 },
  },
  {
    scenario: 'cart-config-crashloop',
    split: 'holdout-13',
    message: 'cart pod in crashloop — what got touched right before it',
    expect: { contains: ['cart-config'] },
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'holdout-13',
    earlier: ['orders queue depth', 'consumers on it?'],
    message: 'when did they drop off',
    expect: { at: 44, tolerance: 2 },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'holdout-13',
    earlier: ['checkout p99 /api/checkout now'],
    message: 'k. payments -> partner-bank median?',
    expect: {
      number: 'histogram_quantile(0.5, sum by (le) (rate(http_client_request_duration_seconds_bucket{job="payments",peer="partner-bank"}[5m])))',
      tolerance: 0.25,
    },
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'holdout-13',
    earlier: ['recs p99', 'did limits change on it'],
    message: 'so is latency up vs pre-rollout or nah',
    expect: { direction: 'up' },
  },
  {
    scenario: 'node-not-ready',
    split: 'holdout-13',
    earlier: ['frontend 5xx ratio now'],
    message: 'which cart pod stopped answering',
    expect: { contains: ['cart-d7b5fbc6d-tk7ck'] },
  },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'holdout-13',
    message: 'cart 500ing hard, ignore the frontend flap. which dependency is it',
    expect: { contains: ['sessions-redis'] },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'holdout-13',
    earlier: ['payments 5xx %'],
    message: 'that ledger-reconcile thing — how many cores is it eating',
    expect: { number: 'sum(rate(container_cpu_usage_seconds_total{container="ledger-reconcile"}[5m]))', tolerance: 0.2 },
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'holdout-13',
    earlier: ['checkout crashloop why', 'mem limit on those pods?'],
    message: 'total restarts across the new pods',
    expect: { number: 'sum(kube_pod_container_status_restarts_total{container="checkout"})', tolerance: 0 },
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'holdout-13',
    earlier: ['accounts 5xx?'],
    message: 'db side — accountsdb conns in use vs max_connections',
    expect: {
      all: [
        { number: 'sum(pg_stat_activity_count{server="accountsdb:5432"})', tolerance: 0.15 },
        { number: 'max(pg_settings_max_connections{server="accountsdb:5432"})', tolerance: 0 },
      ],
    },
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'holdout-13',
    earlier: ['why is cart restarting'],
    message: 'restarts so far, all 3 pods together',
    expect: { number: 'sum(kube_pod_container_status_restarts_total{container="cart"})', tolerance: 0.05 },
  },
  {
    scenario: 'billing-timeout-config-change',
    split: 'holdout-13',
    earlier: ['billing err %', 'anything change?'],
    message: 'who pushed it + what time',
    expect: { all: [{ contains: ['grace'] }, { at: 37, tolerance: 2 }] },
  },

  // ---- customer-support team lead ----
  {
    scenario: 'checkout-bad-version',
    split: 'holdout-13',
    message: "customers started getting 'payment could not be completed' at the last step a while back — roughly what time did checkout start throwing errors?",
    expect: { at: 38, tolerance: 3 },
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'holdout-13',
    message: 'tickets say search is slow and the wishlist page is crawling too. is wishlist slow as well?',
    expect: { asks: true },
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'holdout-13',
    message: "customers say checkout shows 'service unavailable' when they hit pay. is that today's checkout release or something else?",
    expect: { contains: ['inventory'] },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'holdout-13',
    message: 'lots of tickets: photo uploads fail with an error, but opening photos already uploaded works fine. what is broken?',
    expect: { contains: ['/var/lib/media'] },
  },
  {
    scenario: 'search-traffic-surge',
    split: 'holdout-13',
    message: 'customers complain search results take forever to show up this morning — what is going on?',
    expect: { contains: ['/api/search'] },
  },
  {
    scenario: 'cart-config-crashloop',
    split: 'holdout-13',
    message: "nobody's complaining about the basket but we got paged for cart. are cart requests failing any more than before the config edit?",
    expect: { direction: 'about the same' },
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'holdout-13',
    message: "customers say their orders sit in 'processing' forever and never get confirmed. why?",
    expect: { contains: ['orders-worker'] },
  },
  {
    scenario: 'node-not-ready',
    split: 'holdout-13',
    message: "customers get a 'bad gateway' page every few clicks on the shop. what is behind it?",
    expect: { contains: ['ip-10-0-3-41'] },
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'holdout-13',
    message: 'every card payment is getting declined according to customers. since when, and whose fault is it?',
    expect: { all: [{ at: 35, tolerance: 2 }, { contains: ['partner-bank'] }] },
  },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'holdout-13',
    message: "customers can't add anything to their basket. is search broken too or only cart — search errors compared to before?",
    expect: { direction: 'about the same' },
  },
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'holdout-13',
    message: 'finance users say saving a new ledger entry errors out, reading old ones is fine. since when roughly?',
    expect: { at: 36, tolerance: 3 },
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'holdout-13',
    message: "customers keep seeing 'your cart could not be loaded' and then it's empty. what is knocking cart over?",
    expect: { contains: ['sessions-redis'] },
  },
  {
    scenario: 'billing-timeout-config-change',
    split: 'holdout-13',
    message: 'customers say generating an invoice fails maybe one time in five. did someone change something?',
    expect: { contains: ['timeout'] },
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'holdout-13',
    message: "customers can't download their monthly statements. was it the statements deploy from this morning?",
    expect: { contains: ['archive'] },
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'holdout-13',
    earlier: ['statements are failing for customers — why?'],
    message: 'how many customers actually got a failed statement download? need a number for the status page',
    expect: { cannot: true },
  },

  // ---- platform engineer (nodes and cluster) ----
  {
    scenario: 'checkout-bad-version',
    split: 'holdout-13',
    message: 'which checkout pods picked up 2.15.0, and which nodes are they scheduled on',
    expect: { podsOf: { workload: 'checkout', version: '2.15.0' } },
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'holdout-13',
    message: 'checkout also calls pricing iirc — are the pricing pods running, and on which nodes?',
    expect: { asks: true },
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: 'holdout-13',
    message: 'orders container: memory limit, and total OOM kills so far across both pods',
    expect: {
      all: [
        { number: 'max(kube_pod_container_resource_limits{container="orders",resource="memory"})', tolerance: 0 },
        { number: 'sum(kube_pod_container_status_restarts_total{container="orders"})', tolerance: 0.05 },
      ],
    },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'holdout-13',
    message: '/var/lib/media on ip-10-0-2-34 — how full is it, in percent',
    expect: {
      number: '1 - max(node_filesystem_avail_bytes{mountpoint="/var/lib/media"}) / max(node_filesystem_size_bytes{mountpoint="/var/lib/media"})',
      tolerance: 0.05,
    },
  },
  {
    scenario: 'cart-config-crashloop',
    split: 'holdout-13',
    message: 'the crashlooping cart pod: what node is it on, and how many restarts has it racked up?',
    expect: {
      all: [{ contains: ['ip-10-0-1-23'] }, { number: 'sum(kube_pod_container_status_restarts_total{container="cart"})', tolerance: 0 }],
    },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'holdout-13',
    message: "where did reports-batch get scheduled, and how hot is that node's CPU right now",
    expect: {
      all: [
        { contains: ['ip-10-0-2-34'] },
        {
          number: '1 - avg(rate(node_cpu_seconds_total{mode="idle",node="ip-10-0-2-34.eu-west-1.compute.internal"}[5m]))',
          tolerance: 0.05,
        },
      ],
    },
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'holdout-13',
    message: 'recommendations: cpu limit per container now, and what share of CFS periods are getting throttled',
    expect: {
      all: [
        { number: 'max(kube_pod_container_resource_limits{container="recommendations",resource="cpu"})', tolerance: 0 },
        {
          number:
            'sum(increase(container_cpu_cfs_throttled_periods_total{container="recommendations"}[5m])) / sum(increase(container_cpu_cfs_periods_total{container="recommendations"}[5m]))',
          tolerance: 0.2,
        },
      ],
    },
  },
  {
    scenario: 'node-not-ready',
    split: 'holdout-13',
    message: 'which node flipped to NotReady, and at what time',
    expect: { all: [{ contains: ['ip-10-0-3-41'] }, { at: 36, tolerance: 2 }] },
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'holdout-13',
    message: 'ordersdb: connections open right now vs max_connections?',
    expect: {
      all: [
        { number: 'sum(pg_stat_activity_count{server="ordersdb:5432"})', tolerance: 0.05 },
        { number: 'max(pg_settings_max_connections{server="ordersdb:5432"})', tolerance: 0 },
      ],
    },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'holdout-13',
    message: 'payments 1.9.0 landed on which pods / nodes?',
    expect: { podsOf: { workload: 'payments', version: '1.9.0' } },
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'holdout-13',
    message: "checkout's memory limit now vs before that rollout",
    expect: {
      all: [
        { number: 'max(kube_pod_container_resource_limits{container="checkout",resource="memory"})', tolerance: 0 },
        { number: 'max(kube_pod_container_resource_limits{container="checkout",resource="memory"} offset 50m)', tolerance: 0 },
      ],
    },
  },
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'holdout-13',
    message: 'data-ledger pvc: capacity and how much of it is used (%)',
    expect: {
      all: [
        { number: 'max(kubelet_volume_stats_capacity_bytes{persistentvolumeclaim="data-ledger"})', tolerance: 0 },
        {
          number:
            'max(kubelet_volume_stats_used_bytes{persistentvolumeclaim="data-ledger"}) / max(kubelet_volume_stats_capacity_bytes{persistentvolumeclaim="data-ledger"})',
          tolerance: 0.05,
        },
      ],
    },
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'holdout-13',
    message: 'HikariPool-1 on accounts — max pool size, and threads waiting for a connection summed over the pods',
    expect: {
      all: [
        { number: 'max(hikaricp_connections_max{pool="HikariPool-1"})', tolerance: 0 },
        { number: 'sum(hikaricp_connections_pending{pool="HikariPool-1"})', tolerance: 0.05 },
      ],
    },
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'holdout-13',
    message: 'node that catalog-sync runs on — cpu utilisation across its cores?',
    expect: {
      number: '1 - avg(rate(node_cpu_seconds_total{mode="idle",node="ip-10-0-3-41.eu-west-1.compute.internal"}[5m]))',
      tolerance: 0.2,
    },
  },
  {
    scenario: 'search-noisy-neighbour',
    split: 'holdout-13',
    message: "which search pod is the slow one, and what else is co-located on its node that's chewing cpu",
    expect: { contains: ['search-878b86fb7-m9xrk', 'video-transcode'] },
  },

  // ---- staff engineer, long and careful ----
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'holdout-13',
    message:
      "Before anyone pins this on the CPUThrottlingHigh alert that's been firing on recommendations all morning (which, to be clear, I don't think is related, since it predates the page by hours), could you tell me which change actually lines up with the search latency regression, and what it changed to?",
    expect: { contains: ['3.3.0'] },
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: 'holdout-13',
    message:
      "I'd like to separate the first OOM from the slow build-up behind it: setting aside the restarts themselves, at what time did the orders containers' working set first begin climbing away from its usual level?",
    expect: { at: 75, tolerance: 4 },
  },
  {
    scenario: 'search-traffic-surge',
    split: 'holdout-13',
    message:
      'Granting that frontend 5.2.1 went out shortly before all this (and that it is the obvious suspect, perhaps too obvious), what is the request rate on /api/search right now, in requests per second, so that I can compare it with the usual level myself?',
    expect: { number: 'sum(rate(http_requests_total{job="search",route="/api/search"}[5m]))', tolerance: 0.2 },
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'holdout-13',
    message:
      "Setting the orders queue aside for a moment (I gather that one is understood), could you tell me how far behind the consumers of the fulfilment queue are — that's the one the warehouse integration reads from, if I remember the topology correctly?",
    expect: { asks: true },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'holdout-13',
    message:
      "There's a reports-batch job saturating one of checkout's nodes, which is tempting as an explanation, but the slowdown seems to hit every checkout pod rather than only the one sharing that node; is the latency originating in checkout itself, or somewhere further downstream, and if so where?",
    expect: { contains: ['partner-bank'] },
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'holdout-13',
    message:
      "Since checkout sits in front of payments, I'd naively expect it to be bleeding as well — is checkout's error ratio actually any different from what it was before payments started failing, or is it holding steady?",
    expect: { direction: 'about the same' },
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'holdout-13',
    message:
      "orders 2.3.1 rolled out a few minutes before the errors began, and I accept that the timing is suggestive; but before we roll it back, can you check whether the failures are really orders' own code or something it depends on (the database, say) running out of room?",
    expect: { contains: ['ordersdb'] },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'holdout-13',
    message:
      "The ledger-reconcile batch started hogging CPU a few minutes before payments began failing, which makes it a convenient suspect; that said, I'd want to know whether the failing payments pods even share a node with it, and what, if not that, explains a fifth of payments' requests failing.",
    expect: { contains: ['1.9.0'] },
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'holdout-13',
    message:
      'The rollout forty minutes ago is being described in the channel as a new checkout build, which I doubt; could you confirm which version the new checkout pods are actually running, and whether it differs from what ran before?',
    expect: { contains: ['2.14.3'] },
  },
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'holdout-13',
    message:
      "Someone pointed out that /var/log/archive on ip-10-0-1-88 is completely full, which is true but (as far as I can tell) has been the case for hours; is that really what's breaking ledger's writes, or is some other volume to blame?",
    expect: { contains: ['data-ledger'] },
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'holdout-13',
    message:
      'accounts 1.4.1 went out roughly ten minutes before the errors, and accountsdb is the other obvious candidate; before we blame either, is something between them — a connection pool in the service, for instance — the actual bottleneck, and if so which one?',
    expect: { contains: ['HikariPool-1'] },
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'holdout-13',
    message:
      "Ignoring the chronic CPUThrottlingHigh for now, and assuming the liveness probe really does ping Redis as I was told: how long are cart's calls to sessions-redis taking at the median at the moment?",
    expect: {
      number: 'histogram_quantile(0.5, sum by (le) (rate(http_client_request_duration_seconds_bucket{job="cart",peer="sessions-redis"}[5m])))',
      tolerance: 0.25,
    },
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'holdout-13',
    message:
      "If the inventory processes are really hanging (a deadlock is my guess, though I can't prove it), the thread dumps or the application logs from just before each kill would settle it — what do they show the hung threads waiting on?",
    expect: { cannot: true },
  },
  {
    scenario: 'search-noisy-neighbour',
    split: 'holdout-13',
    message:
      "image-resizer is pinning its node at full CPU, which is the loudest thing on the dashboards, but I'm not sure any search pod even runs there; which workload, if any, is actually starving a search pod of CPU?",
    expect: { contains: ['video-transcode'] },
  },
  {
    scenario: 'billing-timeout-config-change',
    split: 'holdout-13',
    message:
      "To size the blast radius properly (the error ratio alone hides the volume), how many of billing's calls to ledger are failing per second right now, whatever their outcome — timeouts, refusals or otherwise?",
    expect: {
      number: 'sum(rate(http_client_requests_total{job="billing",peer="ledger",code!="200"}[5m]))',
      tolerance: 0.2,
    },
  },
];
