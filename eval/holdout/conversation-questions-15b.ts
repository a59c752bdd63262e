import type { QuestionCase } from '../conversation-cases';

/**
 * Fifteenth holdout set, part B: a capacity planner, a backend developer new to on-call pasting
 * alerts, an incident commander on a bridge call, and a skeptic double-checking the conclusion.
 */
export const FIFTEENTH_HOLDOUT_QUESTIONS_B: QuestionCase[] = [
  // A capacity planner: headroom, saturation, limits, nodes.
  {
    scenario: 'search-traffic-surge',
    split: 'holdout-15',
    message:
      'capacity q on search: are the pods pinned at their cpu limit? how many cores is each search pod actually using right now. trying to decide between more replicas vs bigger limits',
    expect: { number: 'max(rate(container_cpu_usage_seconds_total{container="search"}[5m]))', tolerance: 0.15 },
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'holdout-15',
    message: 'from a capacity pov - what % of max_connections is ordersdb sitting at right now? are we at the ceiling',
    expect: {
      number: 'sum(pg_stat_activity_count{server="ordersdb:5432"}) / max(pg_settings_max_connections{server="ordersdb:5432"})',
      tolerance: 0.1,
    },
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: 'holdout-15',
    message: "orders pods keep dying. what's their memory limit set to? deciding whether we just bump it in the next sizing round",
    expect: { number: 'max(kube_pod_container_resource_limits{container="orders", resource="memory"})', tolerance: 0.1 },
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'holdout-15',
    earlier: ['why is checkout crashlooping?'],
    message: 'ok so what was the checkout memory limit before that rollout and what is it now? need both numbers for the capacity review doc',
    expect: {
      all: [
        { number: 'max(max_over_time(kube_pod_container_resource_limits{container="checkout", resource="memory"}[1h]))', tolerance: 0.1 },
        { number: 'max(kube_pod_container_resource_limits{container="checkout", resource="memory"})', tolerance: 0.1 },
      ],
    },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'holdout-15',
    message: 'the volume media writes uploads to, the one that filled up - which node is that on? want to see what else is scheduled there before we resize',
    expect: { contains: ['ip-10-0-2-34'] },
  },
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'holdout-15',
    message:
      "for the ledger data volume: what's the write IOPS and io latency been over the last few hours? need to know if we want a faster storage class and not just a bigger disk",
    expect: { cannot: true },
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'holdout-15',
    earlier: ["why's recommendations slow"],
    message: "what's the cpu limit on recommendations set to now, and what fraction of cfs periods are getting throttled?",
    expect: {
      all: [
        { number: 'max(kube_pod_container_resource_limits{container="recommendations", resource="cpu"})', tolerance: 0.1 },
        {
          number:
            'sum(rate(container_cpu_cfs_throttled_periods_total{container="recommendations"}[5m])) / sum(rate(container_cpu_cfs_periods_total{container="recommendations"}[5m]))',
          tolerance: 0.3,
        },
      ],
    },
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'holdout-15',
    message: 'accounts db pool looks tiny for ~30 rps. how many connections are in use per pod out of the pool right now?',
    expect: { number: 'max(hikaricp_connections_active{job="accounts"})', tolerance: 0.1 },
  },
  {
    scenario: 'node-not-ready',
    split: 'holdout-15',
    message:
      'did we lose a node? which one. and whats the avg cpu utilisation on the nodes that are still up - do we have room to absorb whatever was running on it',
    expect: {
      all: [{ contains: ['ip-10-0-3-41'] }, { number: 'avg(1 - rate(node_cpu_seconds_total{mode="idle"}[5m]))', tolerance: 0.25 }],
    },
  },
  {
    scenario: 'search-noisy-neighbour',
    split: 'holdout-15',
    message: "which nodes are cpu saturated atm? i'm making the case for moving batch jobs to their own node pool",
    expect: { contains: ['ip-10-0-2-34', 'ip-10-0-1-23'] },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'holdout-15',
    message: 'reports-batch got scheduled onto one of the checkout nodes. how busy is that node cpu-wise right now, as a %?',
    expect: { number: '1 - avg(rate(node_cpu_seconds_total{mode="idle", node=~"ip-10-0-2-34.*"}[5m]))', tolerance: 0.1 },
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'holdout-15',
    earlier: ["what's going on with search latency"],
    message:
      'side question while i have you: CPUThrottlingHigh on recommendations has been going off all day. how much of its cpu limit is recommendations actually using?',
    expect: {
      number:
        'sum(rate(container_cpu_usage_seconds_total{container="recommendations"}[5m])) / sum(kube_pod_container_resource_limits{container="recommendations", resource="cpu"})',
      tolerance: 0.15,
    },
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'holdout-15',
    message: 'inventory keeps restarting. are the pods anywhere near their memory? how much working set are they using',
    expect: { number: 'max(max_over_time(container_memory_working_set_bytes{container="inventory"}[5m]))', tolerance: 0.2 },
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'holdout-15',
    earlier: ['why are the cart pods restarting?'],
    message: 'quick sizing check on sessions-redis while we are here, how much memory is it using?',
    expect: { number: 'max(redis_memory_used_bytes{redis="sessions-redis"})', tolerance: 0.15 },
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'holdout-15',
    message: 'orders queue has no consumers?? when did orders-worker stop running',
    expect: { at: 44, tolerance: 3 },
  },

  // A backend developer new to on-call, pasting the alert's text.
  {
    scenario: 'checkout-bad-version',
    split: 'holdout-15',
    message:
      "got paged, first week on this rotation. alert says:\n\n[FIRING:1] CheckoutHighErrorRate shop checkout (critical)\ncheckout is failing requests\n7.7% of checkout's requests fail.\n\nis that all of checkout or one endpoint? not sure where to even look",
    expect: { contains: ['/api/checkout'] },
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'holdout-15',
    message:
      "PaymentsHighErrorRate is firing:\n> payments is failing requests\n> 97.08% of payments's requests fail.\n\nsorry if this is a dumb q but does that mean payments is down? and when did it start",
    expect: { all: [{ contains: ['partner-bank'] }, { at: 35, tolerance: 3 }] },
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: 'holdout-15',
    message:
      "hi, on call for the first time. got this one:\n\nKubePodRestartingOften (warning) - Pod orders-... restarts often.\n\nwhat's making it restart? is our app crashing",
    expect: { contains: ['OOMKilled'] },
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'holdout-15',
    message:
      "alert: KubePodCrashLooping - 'Pod is crash looping.' container=checkout namespace=shop\n\nwe didnt release checkout today as far as i know?? did a new version go out",
    expect: { contains: ['2.14.3'] },
  },
  {
    scenario: 'cart-config-crashloop',
    split: 'holdout-15',
    message: "KubePodCrashLooping fired in shop, just says 'Pod is crash looping.' which pod and why? i dont really know k8s that well tbh",
    expect: { contains: ['cart-config'] },
  },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'holdout-15',
    message:
      "CartHighErrorRate: cart is failing requests. 90% of cart's requests fail.\n\nthere was also a FrontendTargetDown a couple min before it. same thing? what do i do first",
    expect: { contains: ['sessions-redis'] },
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'holdout-15',
    message: "SearchLatencyHigh - 'The 99th percentile latency of search is 1.948s.'\nis that bad? whats a normal p99 for search",
    expect: {
      all: [
        { number: 'histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{job="search"}[5m])))', tolerance: 0.2 },
        { number: 'histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{job="search"}[5m] offset 1h)))', tolerance: 0.3 },
      ],
    },
  },
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'holdout-15',
    message:
      "LedgerWritesFailing fired. ledger is failing requests, 95% of ledger's requests fail. the errors are all 507?? never seen that status code before. what's going on",
    expect: { contains: ['data-ledger'] },
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'holdout-15',
    message:
      "AccountsHighErrorRate (critical): 30.08% of accounts's requests fail.\n\ni checked the accountsdb dashboard and it looks totally normal. where else should i be looking?",
    expect: { contains: ['HikariPool-1'] },
  },
  {
    scenario: 'billing-timeout-config-change',
    split: 'holdout-15',
    message:
      "paged for BillingHighErrorRate - billing is failing requests, ~20% of billing's requests fail. nobody deployed billing today afaik. so what changed?",
    expect: { contains: ['timeout', 'ledger'] },
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'holdout-15',
    message:
      "StatementsHighErrorRate\nstatements is failing requests\n60% of statements's requests fail.\n\nis statements itself broken or something it depends on? (my team owns statements)",
    expect: { contains: ['archive'] },
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'holdout-15',
    message: "got CheckoutHighErrorRate, 62% of checkout's requests fail. someone in slack said its invnetory. is invnetory actually down?",
    expect: { asksFirst: 'inventory' },
  },
  {
    scenario: 'node-not-ready',
    split: 'holdout-15',
    message: "FrontendHighErrorRate fired, 15% of frontend's requests fail and they're 502s. frontend didnt change. which backend is it and why",
    expect: { contains: ['cart', 'ip-10-0-3-41'] },
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'holdout-15',
    message:
      'RecommendationsLatencyHigh: The 99th percentile latency of recommendations is 1.18s.\nhow do i tell if its our code (did a new version go out?) or an infra thing',
    expect: { contains: ['throttl', '0.9.4'] },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'holdout-15',
    earlier: ["what does MediaUploadsFailing mean? it says 97% of media's requests fail"],
    message: 'ok. there was also a FrontendTargetDown right before it, do i need to wake up the frontend people or is it the same problem',
    expect: { contains: ['/var/lib/media'] },
  },

  // An incident commander on a bridge call.
  {
    scenario: 'checkout-bad-version',
    split: 'holdout-15',
    message: 'IC here, bridge is up. checkout: current error rate, and what time did it start?',
    expect: {
      all: [
        {
          number: 'sum(rate(http_requests_total{job="checkout", code=~"5.."}[5m])) / sum(rate(http_requests_total{job="checkout"}[5m]))',
          tolerance: 0.25,
        },
        { at: 38, tolerance: 3 },
      ],
    },
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'holdout-15',
    message: 'ok folks. blast radius - which services are hurting right now?',
    expect: { contains: ['inventory', 'checkout'] },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'holdout-15',
    message: 'payments errors. what version is live right now? deciding on rollback in the next 5',
    expect: { contains: ['1.9.0'] },
  },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'holdout-15',
    earlier: ["cart's throwing errors, whats the cause"],
    message: 'is sessions-redis still down?',
    expect: { contains: ['sessions-redis', 'still'] },
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'holdout-15',
    message: 'need this for the status page: orders error rate right now + when it kicked off',
    expect: {
      all: [
        {
          number: 'sum(rate(http_requests_total{job="orders", code=~"5.."}[5m])) / sum(rate(http_requests_total{job="orders"}[5m]))',
          tolerance: 0.15,
        },
        { at: 40, tolerance: 3 },
      ],
    },
  },
  {
    scenario: 'search-traffic-surge',
    split: 'holdout-15',
    message: 'search latency page. is this load? how many req/s is search taking right now',
    expect: { number: 'sum(rate(http_requests_total{job="search"}[5m]))', tolerance: 0.2 },
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'holdout-15',
    message: 'two pages in a row, FrontendTargetDown then QueueMessagesStale. which one is the real incident? need to assign a lead',
    expect: { contains: ['orders-worker'] },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'holdout-15',
    message: "checkout p99 right now? and is it checkout's own problem or something downstream",
    expect: {
      all: [
        { number: 'histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{job="checkout"}[5m])))', tolerance: 0.2 },
        { contains: ['partner-bank'] },
      ],
    },
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'holdout-15',
    message: 'cart pods are bouncing. how many restarts across cart in the last 15 min?',
    expect: { number: 'sum(increase(kube_pod_container_status_restarts_total{container="cart"}[15m]))', tolerance: 0.3 },
  },
  {
    scenario: 'node-not-ready',
    split: 'holdout-15',
    earlier: ["what's behind the frontend errors?"],
    message: 'is ip-10-0-3-41 still NotReady? and since what time',
    expect: { all: [{ contains: ['still'] }, { at: 36, tolerance: 3 }] },
  },
  {
    scenario: 'billing-timeout-config-change',
    split: 'holdout-15',
    message: 'billing - what time did that config change go in? want it on the timeline before we decide to revert',
    expect: { at: 37, tolerance: 3 },
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'holdout-15',
    earlier: ['why is statements failing'],
    message: 'when did archive stop answering? building the timeline',
    expect: { at: 36, tolerance: 3 },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'holdout-15',
    message: 'media uploads broken, support says customers also see broken thumbnails. is imgproxy erroring too?',
    expect: { asks: true },
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'holdout-15',
    message: 'recs latency - since when? did anything roll out around then',
    expect: { at: 40, tolerance: 3 },
  },
  {
    scenario: 'cart-config-crashloop',
    split: 'holdout-15',
    message: 'cart rollout looks stuck. are users actually seeing errors from cart or is the old replicaset still carrying traffic? give me the error rate',
    expect: {
      number: 'sum(rate(http_requests_total{job="cart", code=~"5.."}[10m])) / sum(rate(http_requests_total{job="cart"}[10m]))',
      tolerance: 0.35,
    },
  },

  // A skeptic double-checking the conclusion.
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'holdout-15',
    message: "not convinced. checkout 2.14.4 went out right before this started. how do you know it's inventory and not the deploy?",
    expect: { contains: ['inventory'] },
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'holdout-15',
    earlier: ['why is accounts returning 500s?'],
    message: "are you sure it's the pool and not accountsdb itself being maxed? how many connections does accountsdb have open vs its max_connections",
    expect: {
      all: [
        { number: 'sum(pg_stat_activity_count{server="accountsdb:5432"})', tolerance: 0.2 },
        { number: 'max(pg_settings_max_connections{server="accountsdb:5432"})', tolerance: 0.05 },
      ],
    },
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'holdout-15',
    message: 'orders 2.3.1 rolled out right before the errors. why would this be the database and not the new build? what does the db side actually show',
    expect: { contains: ['ordersdb'] },
  },
  {
    scenario: 'search-noisy-neighbour',
    split: 'holdout-15',
    message: 'image-resizer is pegging a node at like 98% too. why are you pinning it on video-transcode and not that one?',
    expect: { contains: ['video-transcode', 'ip-10-0-2-34'] },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'holdout-15',
    message:
      'ledger-reconcile is hammering one of the payments nodes. i bet the 1.9.0 pods are just the ones sitting on that node. which pods run 1.9.0 and on what nodes?',
    expect: { podsOf: { workload: 'payments', version: '1.9.0' } },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'holdout-15',
    earlier: ['why is checkout slow?'],
    message: "hmm. reports-batch is eating a whole checkout node though. you sure that isn't it? is the slowness only on the pod on that node?",
    expect: { contains: ['partner-bank'] },
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'holdout-15',
    message:
      "CPUThrottlingHigh is firing in the same namespace. how do you know search isn't just getting throttled? show me search's throttling ratio and what you think it is instead",
    expect: {
      all: [
        {
          number:
            'sum(rate(container_cpu_cfs_throttled_periods_total{container="search"}[5m])) / sum(rate(container_cpu_cfs_periods_total{container="search"}[5m]))',
          tolerance: 0.35,
        },
        { contains: ['3.3.0'] },
      ],
    },
  },
  {
    scenario: 'node-not-ready',
    split: 'holdout-15',
    message: "couldn't the cart pod have just died on its own? what makes you say it's the node",
    expect: { contains: ['ip-10-0-3-41'] },
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'holdout-15',
    message: "you're saying certificate. couldn't partner-bank just be down? if it really is the cert, when exactly did it expire",
    expect: { at: 35, tolerance: 3 },
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'holdout-15',
    message:
      "catalog-sync kicked off on one of the inventory nodes right before the restarts started. isn't it just starving inventory of cpu? how busy is that node",
    expect: { number: '1 - avg(rate(node_cpu_seconds_total{mode="idle", node=~"ip-10-0-3-41.*"}[5m]))', tolerance: 0.25 },
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'holdout-15',
    earlier: ['why does inventory keep restarting?', "so it's not the catalog-sync job?"],
    message: 'fine. then prove what inventory is actually stuck on. which thread or lock is it hanging on?',
    expect: { cannot: true },
  },
  {
    scenario: 'billing-timeout-config-change',
    split: 'holdout-15',
    message:
      "i'd bet ledger just got slower and that's why billing is timing out. prove me wrong - what's the average latency of billing's calls to ledger right now?",
    expect: {
      number:
        'sum(rate(http_client_request_duration_seconds_sum{job="billing", peer="ledger"}[5m])) / sum(rate(http_client_request_duration_seconds_count{job="billing", peer="ledger"}[5m]))',
      tolerance: 0.3,
    },
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'holdout-15',
    message: 'the statements deploy 12 min before looks way more suspicious to me than anything else. why are you so sure its not that?',
    expect: { contains: ['archive'] },
  },
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'holdout-15',
    earlier: ['ledger writes are failing, why?'],
    message: '/var/log/archive on that same node is at 0 bytes free too. how do you know the culprit is the volume you named and not that mount?',
    expect: { contains: ['data-ledger'] },
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'holdout-15',
    message: "you keep saying redis but redis_up is 1 the whole time. how slow is it really? avg latency of cart's calls to sessions-redis right now",
    expect: {
      number:
        'sum(rate(http_client_request_duration_seconds_sum{job="cart", peer="sessions-redis"}[5m])) / sum(rate(http_client_request_duration_seconds_count{job="cart", peer="sessions-redis"}[5m]))',
      tolerance: 0.3,
    },
  },
];
