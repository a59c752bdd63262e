/**
 * Held-out conversation questions (eleventh holdout, part A), written before the code they score; never copy or tune on them (eval/holdout/README.md).
 * Voices: the developer whose change or release is suspected, wanting the data to rule it in or out; a customer-success manager on a
 * call with a large customer, asking about customer-facing impact in plain words; a security-operations analyst checking whether the
 * trouble is an attack or a traffic anomaly; an SRE manager deciding between rolling back and fixing forward, asking for the few numbers
 * that decide it.
 */
import type { QuestionCase } from '../conversation-cases';

export const ELEVENTH_HOLDOUT_QUESTIONS_A: QuestionCase[] = [
  // checkout-bad-version
  // voice: developer whose release is suspected
  {
    scenario: 'checkout-bad-version',
    split: 'holdout-11',
    message:
      '2.15.0 of checkout is mine, went out maybe 40 min ago. which pods are actually running it and on what nodes? want to see if the 500s line up w/ them',
    expect: { podsOf: { workload: 'checkout', version: '2.15.0' } },
  },
  // voice: SRE manager, rollback or fix forward
  {
    scenario: 'checkout-bad-version',
    split: 'holdout-11',
    message:
      'need to make the rollback call on checkout in 5 min. two numbers only: 5xx ratio on POST /api/checkout right now, and what time the 2.15.0 rollout kicked off',
    expect: {
      all: [
        {
          number:
            'sum(rate(http_requests_total{job="checkout",route="/api/checkout",code=~"5.."}[5m])) / sum(rate(http_requests_total{job="checkout",route="/api/checkout"}[5m]))',
          tolerance: 0.15,
        },
        { at: 38, tolerance: 3 },
      ],
    },
  },
  // voice: customer-success manager on a call
  {
    scenario: 'checkout-bad-version',
    split: 'holdout-11',
    message: 'on a call w/ a big merchant, they say orders fail at the pay step. roughly how many checkout submissions errored in the last half hour?',
    expect: { number: 'sum(increase(http_requests_total{job="checkout",route="/api/checkout",code=~"5.."}[30m]))', tolerance: 0.15 },
  },

  // search-slow-version-chronic-alert
  // voice: developer whose release is suspected
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'holdout-11',
    message: 'search 3.3.0 is my release. p99 on /api/search now vs an hour ago? trying to tell if its the build or just load',
    expect: {
      all: [
        { number: 'histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{job="search",route="/api/search"}[5m])))', tolerance: 0.15 },
        {
          number: 'histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{job="search",route="/api/search"}[5m] offset 1h)))',
          tolerance: 0.15,
        },
      ],
    },
  },
  // voice: security-operations analyst
  {
    scenario: 'search-slow-version-chronic-alert',
    split: 'holdout-11',
    earlier: ['CPUThrottlingHigh has been going off for hours, is it related to the search alert?'],
    message: 'ok. any sign of a request flood into search since the new version landed, or is the volume flat?',
    expect: { direction: 'about the same' },
  },

  // inventory-down-harmless-rollout
  // voice: developer whose release is suspected
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'holdout-11',
    message: "i shipped checkout 2.14.4 right before the page, pretty sure its not me. what are checkout's calls to inventory coming back with?",
    expect: { contains: ['inventory', 'connection_refused'] },
  },
  // voice: customer-success manager on a call
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'holdout-11',
    message: 'customer escalation - checkout is broken for them. what percent of checkout requests are failing atm?',
    expect: {
      number: 'sum(rate(http_requests_total{job="checkout",code=~"5.."}[5m])) / sum(rate(http_requests_total{job="checkout"}[5m]))',
      tolerance: 0.1,
    },
  },
  // voice: SRE manager, rollback or fix forward
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'holdout-11',
    message: 'do we roll back checkout 2.14.4 or not. give me when 2.14.4 started going out and when inventory stopped answering',
    expect: {
      all: [
        { at: 44, tolerance: 3 },
        { at: 36, tolerance: 3 },
      ],
    },
  },

  // orders-memory-leak-oom
  // voice: SRE manager, rollback or fix forward
  {
    scenario: 'orders-memory-leak-oom',
    split: 'holdout-11',
    message: 'orders pods keep bouncing. how many restarts in the last hour all together, and whats the kill reason? deciding whether we just bump the limit',
    expect: {
      all: [
        { number: 'sum(increase(kube_pod_container_status_restarts_total{namespace="shop",container="orders"}[1h]))', tolerance: 0.2 },
        { contains: ['OOMKilled'] },
      ],
    },
  },
  // voice: developer whose release is suspected
  {
    scenario: 'orders-memory-leak-oom',
    split: 'holdout-11',
    message: 'afaik nobody deployed orders today, still 2.3.0? if so: when did its memory start creeping up, and when was the first container killed',
    expect: {
      all: [{ contains: ['2.3.0'] }, { at: 75, tolerance: 5 }, { at: 41, tolerance: 3 }],
    },
  },

  // media-disk-full-flapping-alert
  // voice: security-operations analyst
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'holdout-11',
    message:
      'FrontendTargetDown flapping and now media uploads failing - is someone stuffing our storage? which mount on which node ran out of space, and since when',
    expect: {
      all: [{ contains: ['/var/lib/media', 'ip-10-0-2-34'] }, { at: 37, tolerance: 3 }],
    },
  },
  // voice: customer-success manager on a call
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'holdout-11',
    message: "client can't upload product images. what fraction of uploads are failing right now?",
    expect: {
      number:
        'sum(rate(http_requests_total{job="media",route="/api/uploads",code=~"5.."}[5m])) / sum(rate(http_requests_total{job="media",route="/api/uploads"}[5m]))',
      tolerance: 0.1,
    },
  },

  // search-traffic-surge
  // voice: security-operations analyst
  {
    scenario: 'search-traffic-surge',
    split: 'holdout-11',
    message: 'search is getting hammered, bot or crawler? req/s on /api/search now vs 1h ago pls',
    expect: {
      all: [
        { number: 'sum(rate(http_requests_total{job="search",route="/api/search"}[5m]))', tolerance: 0.15 },
        { number: 'sum(rate(http_requests_total{job="search",route="/api/search"}[5m] offset 1h))', tolerance: 0.15 },
      ],
    },
  },
  // voice: security-operations analyst
  {
    scenario: 'search-traffic-surge',
    split: 'holdout-11',
    earlier: ['search is getting hammered, bot or crawler? req/s on /api/search now vs 1h ago pls'],
    message: 'right. can you tell which client IPs or user agents are sending it? need something to block on the WAF',
    expect: { cannot: true },
  },
  // voice: developer whose release is suspected
  {
    scenario: 'search-traffic-surge',
    split: 'holdout-11',
    message:
      'frontend 5.2.1 is mine and it went out shortly before this. when exactly did 5.2.1 start rolling, and when did the search spike begin? if the spike came later its prob not me',
    expect: {
      all: [
        { at: 44, tolerance: 3 },
        { at: 39, tolerance: 3 },
      ],
    },
  },

  // cart-config-crashloop
  // voice: developer whose change is suspected
  {
    scenario: 'cart-config-crashloop',
    split: 'holdout-11',
    message: 'i edited cart-config earlier. is that whats crashlooping cart?? which node is the bad pod on and how many restarts has it done',
    expect: {
      all: [{ contains: ['ip-10-0-1-23'] }, { number: 'max(kube_pod_container_status_restarts_total{namespace="shop",container="cart"})', tolerance: 0.15 }],
    },
  },
  // voice: SRE manager, rollback or fix forward
  {
    scenario: 'cart-config-crashloop',
    split: 'holdout-11',
    earlier: ['whats up with cart, why is KubePodCrashLooping firing'],
    message: 'need the timing before i revert anything: when did the first crash of that pod happen?',
    expect: { at: 38, tolerance: 3 },
  },

  // orders-worker-scaled-to-zero
  // voice: customer-success manager on a call
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'holdout-11',
    message: 'merchant says orders go through but never get confirmed. how old is the oldest order message still waiting in the queue?',
    expect: { number: 'max(time() - rabbitmq_queue_head_message_timestamp{queue="orders"})', tolerance: 0.1 },
  },
  // voice: SRE manager, rollback or fix forward
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'holdout-11',
    message: "who's supposed to be consuming the orders queue, and when did its consumers drop to zero? if it's just scaled down we scale it back, no rollback",
    expect: {
      all: [{ contains: ['orders-worker'] }, { at: 44, tolerance: 3 }],
    },
  },
  // voice: security-operations analyst
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'holdout-11',
    message: 'we also got FrontendTargetDown. coordinated or unrelated? which frontend pod is the one dropping out',
    expect: { contains: ['frontend-d7c6b5d7c-stjnb'] },
  },

  // checkout-slow-partner-bank
  // voice: customer-success manager on a call
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'holdout-11',
    message: 'customer says the checkout page just spins. how slow is checkout for the slowest 1% of requests right now?',
    expect: { number: 'histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{job="checkout"}[5m])))', tolerance: 0.15 },
  },
  // voice: developer whose release is suspected
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'holdout-11',
    message: "payments dev here, we didnt ship anything. whats the avg latency of payments' calls out to partner-bank now, and when did it jump?",
    expect: {
      all: [
        {
          number:
            'sum(rate(http_client_request_duration_seconds_sum{job="payments",peer="partner-bank"}[5m])) / sum(rate(http_client_request_duration_seconds_count{job="payments",peer="partner-bank"}[5m]))',
          tolerance: 0.15,
        },
        { at: 37, tolerance: 3 },
      ],
    },
  },
  // voice: security-operations analyst
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'holdout-11',
    message: 'reports-batch pegging cpu on one of the nodes - anything shady? which node is it on and how many cores is it eating',
    expect: {
      all: [{ contains: ['ip-10-0-2-34'] }, { number: 'sum(rate(container_cpu_usage_seconds_total{container="reports-batch"}[5m]))', tolerance: 0.1 }],
    },
  },

  // recommendations-cpu-throttled
  // voice: developer whose change is suspected
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'holdout-11',
    message: 'my recommendations change was limits only, image should still be 0.9.4. whats the cpu limit per pod now vs before the change?',
    expect: {
      all: [
        { contains: ['0.9.4'] },
        { number: 'max(kube_pod_container_resource_limits{container="recommendations",resource="cpu"})', tolerance: 0.05 },
        { number: 'max(kube_pod_container_resource_limits{container="recommendations",resource="cpu"} offset 1h)', tolerance: 0.05 },
      ],
    },
  },
  // voice: SRE manager, rollback or fix forward
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'holdout-11',
    message: 'recs: revert the limit change or leave it. what share of cfs periods are throttled now, and whats the p99?',
    expect: {
      all: [
        {
          number:
            'sum(increase(container_cpu_cfs_throttled_periods_total{container="recommendations"}[5m])) / sum(increase(container_cpu_cfs_periods_total{container="recommendations"}[5m]))',
          tolerance: 0.15,
        },
        { number: 'histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{job="recommendations"}[5m])))', tolerance: 0.15 },
      ],
    },
  },

  // node-not-ready
  // voice: security-operations analyst
  {
    scenario: 'node-not-ready',
    split: 'holdout-11',
    message: 'ip-10-0-3-41 fell out of the cluster, want to rule out a compromise. what time did it go NotReady?',
    expect: { at: 36, tolerance: 3 },
  },
  // voice: customer-success manager on a call
  {
    scenario: 'node-not-ready',
    split: 'holdout-11',
    message: 'are shoppers seeing errors on the storefront? what percent of frontend requests fail right now',
    expect: {
      number: 'sum(rate(http_requests_total{job="frontend",code=~"5.."}[5m])) / sum(rate(http_requests_total{job="frontend"}[5m]))',
      tolerance: 0.15,
    },
  },
  // voice: SRE manager, rollback or fix forward
  {
    scenario: 'node-not-ready',
    split: 'holdout-11',
    earlier: ['what happened to ip-10-0-3-41?'],
    message: "which cart pod got stranded on that node, and what fraction of frontend's calls to cart are timing out?",
    expect: {
      all: [
        { contains: ['cart-d7b5fbc6d-tk7ck'] },
        {
          number:
            'sum(rate(http_client_requests_total{job="frontend",peer="cart",code!="200"}[5m])) / sum(rate(http_client_requests_total{job="frontend",peer="cart"}[5m]))',
          tolerance: 0.15,
        },
      ],
    },
  },

  // partner-bank-certificate-expired
  // voice: security-operations analyst
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'holdout-11',
    message: 'tls handshake failures towards partner-bank. MITM or just their cert? when did the cert on api.partner-bank.example expire',
    expect: { at: 35, tolerance: 3 },
  },
  // voice: customer-success manager on a call
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'holdout-11',
    message: 'merchant on the line says card payments keep getting declined. what share of payments requests are failing now?',
    expect: {
      number: 'sum(rate(http_requests_total{job="payments",code=~"5.."}[5m])) / sum(rate(http_requests_total{job="payments"}[5m]))',
      tolerance: 0.1,
    },
  },
  // voice: SRE manager, rollback or fix forward
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'holdout-11',
    message: 'anything of ours to roll back here, or is it all on the partner? what are the payments -> partner-bank calls failing with, and since when',
    expect: {
      all: [{ contains: ['tls_error'] }, { at: 35, tolerance: 3 }],
    },
  },

  // ordersdb-connections-exhausted
  // voice: developer whose release is suspected
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'holdout-11',
    message: 'orders 2.3.1 is my release (~45 min ago). before anyone pins it on me: how many connections are open on ordersdb vs its max_connections?',
    expect: {
      all: [
        { number: 'sum(pg_stat_activity_count{server="ordersdb:5432"})', tolerance: 0.1 },
        { number: 'max(pg_settings_max_connections{server="ordersdb:5432"})', tolerance: 0.05 },
      ],
    },
  },
  // voice: SRE manager, rollback or fix forward
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'holdout-11',
    earlier: ['orders is throwing 500s, whats going on?'],
    message: 'rollback 2.3.1 y/n. how many ordersdb sessions are sitting idle in transaction rn, and when did orders start failing?',
    expect: {
      all: [
        { number: 'sum(pg_stat_activity_count{server="ordersdb:5432",state="idle in transaction"})', tolerance: 0.1 },
        { at: 40, tolerance: 3 },
      ],
    },
  },

  // sessions-redis-down-flapping-alert
  // voice: security-operations analyst
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'holdout-11',
    message: 'sessions-redis dead + a frontend target flapping. smells like DoS? has traffic into cart gone up compared to an hour ago?',
    expect: { direction: 'about the same' },
  },
  // voice: customer-success manager on a call
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: 'holdout-11',
    message: "customers say items won't stay in their basket. what % of cart requests are erroring?",
    expect: {
      number: 'sum(rate(http_requests_total{job="cart",code=~"5.."}[5m])) / sum(rate(http_requests_total{job="cart"}[5m]))',
      tolerance: 0.1,
    },
  },

  // payments-bad-version-noisy-neighbour
  // voice: developer whose release is suspected
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'holdout-11',
    message: 'payments 1.9.0 is mine. which pods run it and where? is either of them on the box with that batch job',
    expect: { podsOf: { workload: 'payments', version: '1.9.0' } },
  },
  // voice: security-operations analyst
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'holdout-11',
    message: 'ledger-reconcile is burning cpu - legit batch or a cryptominer? cores used, which node, and since when',
    expect: {
      all: [
        { number: 'sum(rate(container_cpu_usage_seconds_total{container="ledger-reconcile"}[5m]))', tolerance: 0.1 },
        { contains: ['ip-10-0-3-41'] },
        { at: 40, tolerance: 3 },
      ],
    },
  },
  // voice: SRE manager, rollback or fix forward
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: 'holdout-11',
    message: 'making the rollback call on payments 1.9.0. current 5xx ratio for payments?',
    expect: {
      number: 'sum(rate(http_requests_total{job="payments",code=~"5.."}[5m])) / sum(rate(http_requests_total{job="payments"}[5m]))',
      tolerance: 0.1,
    },
  },

  // checkout-memory-limit-lowered
  // voice: developer whose change is suspected
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'holdout-11',
    message: 'my checkout change only touched resources, same 2.14.3 image. memory limit now vs before?',
    expect: {
      all: [
        { contains: ['2.14.3'] },
        { number: 'max(kube_pod_container_resource_limits{container="checkout",resource="memory"})', tolerance: 0.05 },
        { number: 'max(kube_pod_container_resource_limits{container="checkout",resource="memory"} offset 1h)', tolerance: 0.05 },
      ],
    },
  },
  // voice: SRE manager, rollback or fix forward
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'holdout-11',
    message: 'checkout crashlooping since the resources change. total restarts across the checkout pods + termination reason? deciding on a revert',
    expect: {
      all: [{ number: 'sum(kube_pod_container_status_restarts_total{namespace="shop",container="checkout"})', tolerance: 0.1 }, { contains: ['OOMKilled'] }],
    },
  },
  // voice: customer-success manager on a call
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'holdout-11',
    message: 'is checkout still taking orders for customers at all? is the amount of checkout traffic it serves up or down compared to an hour back',
    expect: { direction: 'down' },
  },

  // ledger-volume-full-chronic-mount
  // voice: security-operations analyst
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'holdout-11',
    message: 'disk alert on ip-10-0-1-88. log flood or someone dumping data? which volume is full, and when did it hit zero free',
    expect: {
      all: [{ contains: ['data-ledger'] }, { at: 36, tolerance: 3 }],
    },
  },
  // voice: SRE manager, rollback or fix forward
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: 'holdout-11',
    earlier: ['why are ledger writes failing?'],
    message: '/var/log/archive on that node shows full as well. is that new today or was it already out of space a couple hours ago?',
    expect: { direction: 'about the same' },
  },

  // accounts-pool-exhausted-harmless-rollout
  // voice: developer whose release is suspected
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'holdout-11',
    message: 'accounts 1.4.1 is my deploy. is the database itself struggling? connections on accountsdb vs its max',
    expect: {
      all: [
        { number: 'sum(pg_stat_activity_count{server="accountsdb:5432"})', tolerance: 0.2 },
        { number: 'max(pg_settings_max_connections{server="accountsdb:5432"})', tolerance: 0.05 },
      ],
    },
  },
  // voice: SRE manager, rollback or fix forward
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'holdout-11',
    message: 'roll back accounts 1.4.1? tell me when it rolled out and when the 500s began, thats all i need',
    expect: {
      all: [
        { at: 47, tolerance: 3 },
        { at: 38, tolerance: 3 },
      ],
    },
  },
  // voice: customer-success manager on a call
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: 'holdout-11',
    message: 'customer says their account pages throw errors. what share of accounts requests fail at the moment?',
    expect: {
      number: 'sum(rate(http_requests_total{job="accounts",code=~"5.."}[5m])) / sum(rate(http_requests_total{job="accounts"}[5m]))',
      tolerance: 0.1,
    },
  },

  // cart-liveness-slow-redis
  // voice: security-operations analyst
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'holdout-11',
    message: "sessions-redis is suddenly slow, somebody flooding it? avg latency of cart's redis calls now vs an hour ago",
    expect: {
      all: [
        {
          number:
            'sum(rate(http_client_request_duration_seconds_sum{job="cart",peer="sessions-redis"}[5m])) / sum(rate(http_client_request_duration_seconds_count{job="cart",peer="sessions-redis"}[5m]))',
          tolerance: 0.15,
        },
        {
          number:
            'sum(rate(http_client_request_duration_seconds_sum{job="cart",peer="sessions-redis"}[5m] offset 1h)) / sum(rate(http_client_request_duration_seconds_count{job="cart",peer="sessions-redis"}[5m] offset 1h))',
          tolerance: 0.2,
        },
      ],
    },
  },
  // voice: SRE manager, rollback or fix forward
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'holdout-11',
    message: 'cart keeps restarting. total restarts across the cart pods so far, and did cart version change at all? (rollback question)',
    expect: {
      all: [{ number: 'sum(kube_pod_container_status_restarts_total{namespace="shop",container="cart"})', tolerance: 0.1 }, { contains: ['4.1.2'] }],
    },
  },
  // voice: customer-success manager on a call
  {
    scenario: 'cart-liveness-slow-redis',
    split: 'holdout-11',
    earlier: ['is the cart broken for customers?'],
    message: 'and is cart getting fewer requests than before this started, more, or same?',
    expect: { direction: 'down' },
  },

  // inventory-liveness-unexplained
  // voice: developer whose release is suspected
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'holdout-11',
    message: 'did anyone ship inventory?? what version is live, and when did the restarts start',
    expect: {
      all: [{ contains: ['3.0.7'] }, { at: 37, tolerance: 3 }],
    },
  },
  // voice: security-operations analyst
  {
    scenario: 'inventory-liveness-unexplained',
    split: 'holdout-11',
    message:
      'catalog-sync jumped in cpu on ip-10-0-3-41, where an inventory pod lives. suspicious? how many cores is it using and how busy is that node overall',
    expect: {
      all: [
        { number: 'sum(rate(container_cpu_usage_seconds_total{container="catalog-sync"}[5m]))', tolerance: 0.15 },
        { number: '1 - avg(rate(node_cpu_seconds_total{mode="idle",node="ip-10-0-3-41.eu-west-1.compute.internal"}[5m]))', tolerance: 0.15 },
      ],
    },
  },

  // search-noisy-neighbour
  // voice: security-operations analyst
  {
    scenario: 'search-noisy-neighbour',
    split: 'holdout-11',
    message: 'video-transcode showed up on ip-10-0-2-34, who launched that? how many cores is it using and since when',
    expect: {
      all: [
        { number: 'sum(rate(container_cpu_usage_seconds_total{container="video-transcode"}[5m]))', tolerance: 0.1 },
        { at: 37, tolerance: 3 },
      ],
    },
  },
  // voice: SRE manager, rollback or fix forward
  {
    scenario: 'search-noisy-neighbour',
    split: 'holdout-11',
    message: 'which search pod is the slow one, on what node, and whats its p99? if its just one pod we move it instead of rolling anything back',
    expect: {
      all: [
        { contains: ['search-878b86fb7-m9xrk', 'ip-10-0-2-34'] },
        {
          number: 'histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{job="search",pod="search-878b86fb7-m9xrk"}[5m])))',
          tolerance: 0.15,
        },
      ],
    },
  },
  // voice: customer-success manager on a call
  {
    scenario: 'search-noisy-neighbour',
    split: 'holdout-11',
    message: 'customer is asking whether storefinder is affected too. is it?',
    expect: { asks: true },
  },

  // billing-timeout-config-change
  // voice: developer whose change is suspected
  {
    scenario: 'billing-timeout-config-change',
    split: 'holdout-11',
    message: "cfg-8841 (billing's ledger timeout) was my push. billing 5xx ratio now vs before the push?",
    expect: {
      all: [
        {
          number: 'sum(rate(http_requests_total{job="billing",code=~"5.."}[5m])) / sum(rate(http_requests_total{job="billing"}[5m]))',
          tolerance: 0.1,
        },
        {
          number: 'sum(rate(http_requests_total{job="billing",code=~"5.."}[5m] offset 1h)) / sum(rate(http_requests_total{job="billing"}[5m] offset 1h))',
          tolerance: 0.25,
        },
      ],
    },
  },
  // voice: SRE manager, rollback or fix forward
  {
    scenario: 'billing-timeout-config-change',
    split: 'holdout-11',
    message: 'revert cfg-8841 or not. when did the 504s from billing start, and how many requests failed with 504 in the last 30 min?',
    expect: {
      all: [
        { at: 36, tolerance: 3 },
        { number: 'sum(increase(http_requests_total{job="billing",code="504"}[30m]))', tolerance: 0.15 },
      ],
    },
  },
  // voice: security-operations analyst
  {
    scenario: 'billing-timeout-config-change',
    split: 'holdout-11',
    message: 'billing -> ledger timing out. is ledger being flooded or slowed down? has the latency of billing calls to ledger changed vs before',
    expect: { direction: 'about the same' },
  },

  // archive-down-reported-deploy-red-herring
  // voice: developer whose release is suspected
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'holdout-11',
    message:
      'the statements-static 2026.11.27-1 deploy was mine. did the version statements runs change at all? and what are its calls to archive failing with',
    expect: { contains: ['3.2.0', 'connection_refused'] },
  },
  // voice: customer-success manager on a call
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'holdout-11',
    message: 'account manager here. which of our customers had statement requests fail? need the customer list for outreach',
    expect: { cannot: true },
  },
  // voice: security-operations analyst
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: 'holdout-11',
    message: 'archive went unreachable on both pods, taken down on purpose? what time did it go dark',
    expect: { at: 36, tolerance: 3 },
  },
];
