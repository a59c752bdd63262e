import type { QuestionCase } from './conversation-cases';

const errorRatio = (job: string, extra = ''): string =>
  `sum(rate(http_requests_total{job="${job}"${extra}, code=~"5.."}[5m])) / sum(rate(http_requests_total{job="${job}"${extra}}[5m]))`;

const restarts = (container: string): string => `sum(kube_pod_container_status_restarts_total{container="${container}"})`;

const limit = (container: string, resource: 'memory' | 'cpu'): string =>
  `max(kube_pod_container_resource_limits{container="${container}", resource="${resource}"})`;

const nodeBusy = (node: string): string => `1 - avg(rate(node_cpu_seconds_total{mode="idle", node=~"${node}.*"}[5m]))`;

const cores = (container: string): string => `sum(rate(container_cpu_usage_seconds_total{container="${container}"}[5m]))`;

/**
 * Dev questions in four voices: a QA engineer verifying a fix or rollback, a data engineer whose
 * batch jobs share the cluster, an SRE lead asking timeline questions in a postmortem review, and
 * a chat user who sends one-line fragments and several messages in a row.
 */
export const REVIEW_DEV_CASES: QuestionCase[] = [
  // QA engineer verifying whether a fix or rollback worked.
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    message:
      "QA here. release channel says checkout 2.15.0 got reverted about 15 min ago and I'm supposed to sign off. are the 500s on POST /api/checkout actually gone? what's the error rate on that route right now",
    expect: { number: errorRatio('checkout', ', route="/api/checkout"'), tolerance: 0.25 },
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'dev',
    message:
      "ops told me they bumped checkout's memory limit back up after the OOMs. before I close the ticket - what memory limit do the running checkout pods actually have?",
    expect: { number: limit('checkout', 'memory'), tolerance: 0.15 },
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'dev',
    message:
      'verifying the recommendations fix: was the cpu limit put back to 1 core? and is it still being throttled, how much? p99 still looks high from my side',
    expect: {
      all: [
        { number: limit('recommendations', 'cpu'), tolerance: 0.15 },
        {
          number:
            'sum(rate(container_cpu_cfs_throttled_periods_total{container="recommendations"}[5m])) / sum(rate(container_cpu_cfs_periods_total{container="recommendations"}[5m]))',
          tolerance: 0.3,
        },
      ],
    },
  },
  {
    scenario: 'cart-config-crashloop',
    split: 'dev',
    message: 'dev reverted the cart-config edit so the new cart pod should be healthy by now. what is its restart count so far?',
    expect: { number: restarts('cart'), tolerance: 0.15 },
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'dev',
    message:
      "we pinned search back to 3.2.1 (supposedly). can you list which search pods are still on 3.3.0 and what nodes they're on? need it for the verification checklist",
    expect: { podsOf: { workload: 'search', version: '3.3.0' } },
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'dev',
    earlier: ['orders is throwing 500s, is it the database?'],
    message:
      'DBA says they killed the reports export sessions on ordersdb a few minutes ago. are orders requests going through again or still failing? error % pls',
    expect: { number: errorRatio('orders'), tolerance: 0.2 },
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'dev',
    message: "partner-bank's support says they renewed their TLS cert. what expiry does the cert on api.partner-bank.example show now?",
    expect: { at: 35, tolerance: 1 },
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'dev',
    message: "scaled ordrs-wrker back to 2 replicas a few min ago, can u confirm it's consuming again",
    expect: { asksFirst: 'orders-worker' },
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'dev',
    message:
      'statements team rolled back deploy-3301 (the static bundle one) ~5 min ago but statements is still red in my smoke tests. was that the wrong thing to roll back?',
    expect: { contains: ['archive'] },
  },
  {
    scenario: 'billing-timeout-config-change',
    split: 'dev',
    message: "grace reverted cfg-8841 so billing's ledger timeout should be 2s again. are billing's 504s gone? what % of billing requests fail now",
    expect: { number: errorRatio('billing'), tolerance: 0.2 },
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: 'dev',
    message: 'supposedly the orders leak fix went out. are the orders pods still getting OOMKilled? how many restarts total so far',
    expect: { number: restarts('orders'), tolerance: 0.25 },
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'dev',
    message: 'we rolled accounts back from 1.4.1 to 1.4.0 about 10 min ago to fix the timeouts. which version are the accounts pods actually running?',
    expect: { contains: ['1.4.1'] },
  },
  {
    scenario: 'node-not-ready',
    split: 'dev',
    message: "infra replaced ip-10-0-3-41 ~10 min ago, frontend 502s should be gone now. are they? whats frontend's error rate",
    expect: { number: errorRatio('frontend'), tolerance: 0.25 },
  },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'dev',
    message: "redis team bounced sessions-redis. cart should've recovered — how many cart requests failed in the last 10 minutes?",
    expect: { number: 'sum(increase(http_requests_total{job="cart", code=~"5.."}[10m]))', tolerance: 0.25 },
  },
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'dev',
    message: 'we cleaned out /var/log/archive on ip-10-0-1-88 (it was at 100%). did that fix ledger writes? still seeing 507s in my test run',
    expect: { contains: ['data-ledger'] },
  },

  // Data engineer whose batch jobs share the cluster.
  {
    scenario: 'search-noisy-neighbour',
    split: 'dev',
    message:
      'hey, data eng here. my image-resizer batch on ip-10-0-1-23 kicked off right around when search p99 went up. is my job the problem or something else?',
    expect: { contains: ['video-transcode', 'ip-10-0-2-34'] },
  },
  {
    scenario: 'search-noisy-neighbour',
    split: 'dev',
    earlier: ['search is slow - is one of the batch jobs hogging cpu on a search node?'],
    message: 'how many cores is video-transcode eating rn',
    expect: { number: cores('video-transcode'), tolerance: 0.2 },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    message: 'ledger-reconcile (our nightly) is pinning a node right now and payments just paged. is that us or a coincidence?',
    expect: { contains: ['1.9.0'] },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'dev',
    message: 'which node did ledger-reconcile land on, and how busy is that box cpu-wise? trying to figure out if I need a nodeSelector',
    expect: { all: [{ contains: ['ip-10-0-3-41'] }, { number: nodeBusy('ip-10-0-3-41'), tolerance: 0.15 }] },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    message: 'reports-batch is sharing a node with checkout and CheckoutLatencyHigh just fired. should i kill my job?',
    expect: { contains: ['partner-bank'] },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    earlier: ['checkout latency alert fired and my reports-batch job is on a checkout node, is it my job?'],
    message: "ok so if it's not me, how slow is partner-bank answering payments on average right now?",
    expect: {
      number:
        'sum(rate(http_client_request_duration_seconds_sum{job="payments", peer="partner-bank"}[5m])) / sum(rate(http_client_request_duration_seconds_count{job="payments", peer="partner-bank"}[5m]))',
      tolerance: 0.25,
    },
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'dev',
    message:
      'catalog-sync runs on one of the inventory nodes and started a few min before inventory began restarting. how much cpu is catalog-sync using, and is it starving inventory?',
    expect: { all: [{ number: cores('catalog-sync'), tolerance: 0.2 }, { contains: ['liveness'] }] },
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'dev',
    message:
      'i started a new reports export against ordersdb about 45 min ago and orders has been failing since. how many connections is ordersdb at vs max_connections?',
    expect: {
      all: [
        { number: 'sum(pg_stat_activity_count)', tolerance: 0.15 },
        { number: 'max(pg_settings_max_connections)', tolerance: 0.15 },
      ],
    },
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'dev',
    message: 'our transfer batch hits POST /api/accounts/transfer pretty hard. accounts is timing out — is accountsdb overloaded or is it on the app side?',
    expect: { contains: ['HikariPool-1'] },
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'dev',
    earlier: ['my pipeline publishes to the orders queue and nothing is consuming it. why?'],
    message: 'since when?',
    expect: { at: 44, tolerance: 2 },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'dev',
    message:
      'we have a backlog re-upload job that writes into /var/lib/media. media uploads are 507ing — did we fill the disk? what node, and when did it hit 100%',
    expect: { all: [{ contains: ['ip-10-0-2-34'] }, { at: 37, tolerance: 2 }] },
  },
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'dev',
    message: 'ran a bulk import into ledger this morning. now ledger writes fail. how much is used on the data-ledger volume?',
    expect: { number: 'sum(kubelet_volume_stats_used_bytes{persistentvolumeclaim="data-ledger"})', tolerance: 0.15 },
  },
  {
    scenario: 'search-traffic-surge',
    split: 'dev',
    message: "is that a crawler hammering search or one of our scheduled jobs? what's /api/search doing in req/s right now",
    expect: { number: 'sum(rate(http_requests_total{job="search", route="/api/search"}[5m]))', tolerance: 0.25 },
  },
  {
    scenario: 'node-not-ready',
    split: 'dev',
    message: 'my spark executors on ip-10-0-3-41 all got lost about 35 min ago. did the node itself die? what time exactly',
    expect: { at: 36, tolerance: 2 },
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: 'dev',
    message: "our etl pushes big order batches into POST /api/orders. what's the avg request body size orders is receiving?",
    expect: { cannot: true },
  },

  // SRE lead in a postmortem review, asking timeline questions.
  {
    scenario: 'checkout-bad-version',
    split: 'dev',
    message:
      'writing up the checkout postmortem. when exactly did the first 2.15.0 pod come up, and at what time did CheckoutHighErrorRate fire? need both to the minute',
    expect: {
      all: [
        { at: 38, tolerance: 1.5 },
        { at: 28.5, tolerance: 1.5 },
      ],
    },
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'dev',
    message: 'postmortem timeline: checkout 2.14.4 shipped before things broke, i know that. what time did inventory actually stop answering?',
    expect: { at: 36, tolerance: 1.5 },
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'dev',
    message:
      'order of events for the ordersdb PM: orders 2.3.1 rollout, connections hitting max_connections, orders 500s. give me the rollout time and when the first 500s showed up',
    expect: {
      all: [
        { at: 46, tolerance: 1.5 },
        { at: 40, tolerance: 1.5 },
      ],
    },
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'dev',
    message: 'for the timeline — what time was the first OOMKill of a checkout container after the limits change went out?',
    expect: { at: 38.2, tolerance: 1.5 },
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'dev',
    message: "what time did partner-bank's cert expire? to the minute please, legal wants it",
    expect: { at: 35, tolerance: 1 },
  },
  {
    scenario: 'node-not-ready',
    split: 'dev',
    earlier: ['frontend is returning 502s, what happened?'],
    message: 'what time exactly did ip-10-0-3-41 go NotReady',
    expect: { at: 36, tolerance: 1.5 },
  },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'dev',
    message: 'FrontendTargetDown paged first, then CartHighErrorRate. for the PM I need when sessions-redis actually went down',
    expect: { at: 36, tolerance: 1.5 },
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'dev',
    message: 'orders queue postmortem. at what time was orders-worker scaled to zero, and when did QueueMessagesStale start firing?',
    expect: {
      all: [
        { at: 44, tolerance: 1.5 },
        { at: 29, tolerance: 1.5 },
      ],
    },
  },
  {
    scenario: 'cart-config-crashloop',
    split: 'dev',
    message: 'cart incident review: when was cart-config edited? the crashloop started right after i think',
    expect: { at: 38.3, tolerance: 1.5 },
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'dev',
    message: "ignoring CPUThrottlingHigh (it's been firing forever). when did the kubelet first restart a cart container?",
    expect: { at: 36.7, tolerance: 1.5 },
  },
  {
    scenario: 'search-noisy-neighbour',
    split: 'dev',
    message: "three batch jobs started within a few min of each other. for the PM I need the minute search's p99 started climbing",
    expect: { at: 37, tolerance: 1.5 },
  },
  {
    scenario: 'billing-timeout-config-change',
    split: 'dev',
    message: "billing review: when was cfg-8841 applied and when did billing's 504s start? want the gap between them",
    expect: {
      all: [
        { at: 37, tolerance: 1.5 },
        { at: 36, tolerance: 1.5 },
      ],
    },
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'dev',
    message: 'PM question: deploy-3301 landed at what time, and at what time did archive go unreachable? someone claims they were 12 minutes apart',
    expect: {
      all: [
        { at: 48, tolerance: 1.5 },
        { at: 36, tolerance: 1.5 },
      ],
    },
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: 'dev',
    message: 'for the orders OOM postmortem: what time was the first OOMKilled on orders? trying to line it up with the traffic mix change',
    expect: { at: 40.7, tolerance: 2 },
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'dev',
    message: "inventory PM: what were inventory's threads blocked on when the liveness probes started failing? need the stack for the writeup",
    expect: { cannot: true },
  },

  // Chat user sending one-line fragments, several in a row.
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'dev',
    earlier: ['search slow'],
    message: 'p99?',
    expect: { number: 'histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{job="search"}[5m])))', tolerance: 0.3 },
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'dev',
    message: 'recs CPUThrottlingHigh again?? is that the search thing',
    expect: { contains: ['3.3.0'] },
  },
  {
    scenario: 'search-traffic-surge',
    split: 'dev',
    earlier: ['search p99 through the roof', 'frontend deploy?'],
    message: 'traffic?',
    expect: { direction: 'up' },
  },
  {
    scenario: 'search-traffic-surge',
    split: 'dev',
    message: 'frontend 5.2.1 went out, now search slow. related??',
    expect: { contains: ['/api/search'] },
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'dev',
    earlier: ['checkout 503s', 'inventory?'],
    message: '% failing',
    expect: { number: errorRatio('checkout'), tolerance: 0.2 },
  },
  {
    scenario: 'cart-config-crashloop',
    split: 'dev',
    message: 'cart pod crashlooping. why',
    expect: { contains: ['cart-config'] },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'dev',
    message: 'media uploads 507. disk?',
    expect: { contains: ['/var/lib/media', 'ip-10-0-2-34'] },
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'dev',
    earlier: ['recs slow'],
    message: 'new version??',
    expect: { all: [{ contains: ['0.9.4'] }, { number: limit('recommendations', 'cpu'), tolerance: 0.15 }] },
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'dev',
    earlier: ['payments 502s everywhere'],
    message: 'since when',
    expect: { at: 35, tolerance: 2 },
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'dev',
    earlier: ['cart restarting nonstop'],
    message: 'how many restarts so far',
    expect: { number: restarts('cart'), tolerance: 0.15 },
  },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'dev',
    message: 'cart 500s. giftcards involved?',
    expect: { asks: true },
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'dev',
    earlier: ['inventory pods restarting', 'OOM?'],
    message: 'then why',
    expect: { contains: ['liveness'] },
  },
  {
    scenario: 'billing-timeout-config-change',
    split: 'dev',
    message: 'billing 504s. anything change?',
    expect: { contains: ['cfg-8841'] },
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'dev',
    message: 'statements failing. the deploy?',
    expect: { contains: ['archive'] },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'dev',
    message: 'chekout latency??',
    expect: { asksFirst: 'checkout' },
  },
];
