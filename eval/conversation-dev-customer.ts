/**
 * Development questions asked by people outside the team that runs the services, in a shared
 * channel: a partner integrator whose system calls the public API, internal teams that consume
 * another team's service, a solutions engineer on a customer call, and the on-call engineer of a
 * neighbouring team. They describe symptoms in their own words, name services loosely, give times
 * loosely, paste fragments of errors, follow up, ask several things at once, ask what telemetry
 * cannot tell (their own customers, SLAs, tickets, ETAs) and name things the shop does not run.
 *
 * Every `number` oracle was run against the staged scenario (one finite value at the data's end,
 * the value seen noted beside it); every `at` was read off the staged data; every name in
 * `contains` is as the staged data shows it (seed-fixed pods, nodes, versions, claims, mounts).
 */
import type { QuestionCase } from './conversation-cases';

const SPLIT = 'dev' as const;

/** Share of a workload's requests (optionally of one route) answered with a 5xx over the last 5 minutes. */
const errorRatio = (job: string, route?: string): string => {
  const sel = route ? `job="${job}", route="${route}"` : `job="${job}"`;
  return `sum(rate(http_requests_total{${sel}, code=~"5.."}[5m])) / sum(rate(http_requests_total{${sel}}[5m]))`;
};

/** A latency quantile of a workload's requests (optionally of one route) over the last 5 minutes. */
const quantile = (q: number, job: string, route?: string): string => {
  const sel = route ? `job="${job}", route="${route}"` : `job="${job}"`;
  return `histogram_quantile(${q}, sum by (le) (rate(http_request_duration_seconds_bucket{${sel}}[5m])))`;
};

/** Mean duration of a workload's calls to a peer over the last 5 minutes, `offset` back. */
const peerMean = (job: string, peer: string, offset = ''): string =>
  `sum(rate(http_client_request_duration_seconds_sum{job="${job}", peer="${peer}"}[5m]${offset})) / sum(rate(http_client_request_duration_seconds_count{job="${job}", peer="${peer}"}[5m]${offset}))`;

/** Restarts of every container of a workload, summed. */
const restarts = (container: string): string => `sum(kube_pod_container_status_restarts_total{container="${container}"})`;

export const CUSTOMER_DEV_CASES: QuestionCase[] = [
  // checkout-bad-version: checkout 2.15.0 fails a tenth of POST /api/checkout from 38 min before the end.
  {
    scenario: 'checkout-bad-version',
    split: SPLIT,
    message:
      "hi all, we're a partner integrating with your checkout API. since roughly 35-40 min ago about 1 in 10 of our POST /api/checkout calls come back 'HTTP 500 Internal Server Error'. nothing changed on our side. what failure rate are you seeing on that endpoint?",
    expect: { number: errorRatio('checkout', '/api/checkout'), tolerance: 0.2 }, // value seen: 0.110
  },
  {
    scenario: 'checkout-bad-version',
    split: SPLIT,
    message: 'did you guys ship something to checkout in the last hour? we see 500s on checkout POSTs since about 40 min ago. which pods have the new build?',
    expect: { podsOf: { workload: 'checkout', version: '2.15.0' } },
  },
  {
    scenario: 'checkout-bad-version',
    split: SPLIT,
    earlier: ['hey, checkout is throwing 500s at our integration, anything known on your side?'],
    message: 'thx. I need an exact start time for our incident log, when did the 500s begin?',
    expect: { at: 38, tolerance: 3 }, // first 2.15.0 pod and the error ratio's rise at 38 min before the end
  },
  {
    scenario: 'checkout-bad-version',
    split: SPLIT,
    message:
      'SE here, on a call with Northwind Retail right now. they want to know how many of *their* orders failed during this checkout thing and whether it counts against their 99.95% SLA. can you tell me?',
    expect: { cannot: true },
  },

  // search-slow-version-chronic-alert: search 3.3.0 answers /api/search four times slower from 40 min before the end.
  {
    scenario: 'search-slow-version-chronic-alert',
    split: SPLIT,
    message:
      "hey from the mobile app team 👋 the search api got slow maybe 40 min ago, our p99 to it went from ~400ms to 2s+. what's the p99 on /api/search on your side right now?",
    expect: { number: quantile(0.99, 'search', '/api/search'), tolerance: 0.2 }, // value seen: 2.03 s
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: SPLIT,
    earlier: ['search api is slow for us since a bit before the hour, is it you?'],
    message: 'did search get a new build today? what version, and when did it go out?',
    expect: { all: [{ contains: ['3.3.0'] }, { at: 40, tolerance: 3 }] }, // 3.3.0 pods from 40 min before the end
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: SPLIT,
    message:
      "on call for recs this week. there's a CPUThrottlingHigh for recommendations in shop grouped with your SearchLatencyHigh page. has search latency actually gone up compared to earlier today, or is it just the alert noise?",
    expect: { direction: 'up' }, // /api/search p99 0.37 s an hour before, 2.03 s now
  },

  // inventory-down-harmless-rollout: inventory stops answering 36 min before the end; checkout fails with 503.
  {
    scenario: 'inventory-down-harmless-rollout',
    split: SPLIT,
    message:
      "we (fulfilment) depend on inventory for stock lookups. our client logs 'dial tcp ...:8080: connect: connection refused' against it. is inventory hard down, since when exactly, and is it safe to just keep retrying?",
    expect: { at: 36, tolerance: 3 }, // up{job="inventory"} 0 and the healthz probe failing from 36 min before the end
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: SPLIT,
    message:
      "our calls to your checkout API get '503 Service Unavailable' for more than half the requests since about half an hour ago. what's the failure rate on your end?",
    expect: { number: errorRatio('checkout'), tolerance: 0.15 }, // value seen: 0.621
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: SPLIT,
    message:
      'someone on our side noticed you released checkout 2.14.4 right before the 503s started. is the release the problem? should we ask you to roll it back?',
    expect: { contains: ['2.14.4', 'inventory'] },
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: SPLIT,
    earlier: ["we (fulfilment) depend on inventory for stock lookups and it's refusing connections. is it down?"],
    message: 'ok. any ETA for inventory being back? our ops manager has to tell the warehouses something',
    expect: { cannot: true },
  },

  // orders-memory-leak-oom: orders' memory climbs from 75 min before the end; OOMKilled from 41 min on.
  {
    scenario: 'orders-memory-leak-oom',
    split: SPLIT,
    message:
      "hey orders folks, our service keeps getting 'connection reset by peer' from orders every few minutes, looks like it's bouncing. are the orders pods restarting? how many times in total?",
    expect: { number: restarts('orders'), tolerance: 0.2 }, // value seen: 12
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: SPLIT,
    earlier: ['are the orders pods restarting? our calls get connection resets every few min'],
    message: 'why are they restarting tho? out of memory or something else?',
    expect: { contains: ['OOMKilled'] },
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: SPLIT,
    message: "what's the memory limit on the orders pods, and roughly when did their memory start climbing? trying to line it up with our traffic change",
    expect: {
      all: [
        { number: 'max(container_spec_memory_limit_bytes{container="orders"})', tolerance: 0.05 }, // value seen: 1073741824 (1 GiB)
        { at: 75, tolerance: 5 }, // working sets leave ~400 MiB at 75 min before the end
      ],
    },
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: SPLIT,
    message:
      'solutions eng here, customer on the line asks if any of their orders got lost while your orders pods were restarting. can you confirm none of theirs were dropped?',
    expect: { cannot: true },
  },

  // media-disk-full-flapping-alert: /var/lib/media on ip-10-0-2-34 full 37 min before the end; uploads fail with 507.
  {
    scenario: 'media-disk-full-flapping-alert',
    split: SPLIT,
    message:
      "uploads to your media API fail with 'HTTP 507 Insufficient Storage' since around 35-40 min ago. downloads (GET /api/media/...) still work fine. any idea what's up?",
    expect: { contains: ['ip-10-0-2-34', '/var/lib/media'] },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: SPLIT,
    earlier: ["uploads to your media API fail with 507 Insufficient Storage, what's up?"],
    message: 'what share of uploads is failing right now, and when did the disk actually fill up?',
    expect: {
      all: [
        { number: errorRatio('media', '/api/uploads'), tolerance: 0.1 }, // value seen: 0.970
        { at: 37, tolerance: 3 }, // node_filesystem_avail_bytes of /var/lib/media reaches 0 at 37 min before the end
      ],
    },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: SPLIT,
    message: 'is the thumbnailer that processes media uploads also broken? our previews stopped rendering',
    expect: { asks: true },
  },

  // search-traffic-surge: /api/search traffic six times higher from 39 min before the end; search saturates its CPU.
  {
    scenario: 'search-traffic-surge',
    split: SPLIT,
    message:
      "on call for storefront here. the search api has been really slow since ~40 min ago and our frontend timeouts are firing. what's search's p99 on /api/search right now?",
    expect: { number: quantile(0.99, 'search', '/api/search'), tolerance: 0.2 }, // value seen: 4.55 s
  },
  {
    scenario: 'search-traffic-surge',
    split: SPLIT,
    earlier: ['search api is really slow since about 40 min, what is going on?'],
    message: 'is that more traffic or something you changed? how many req/s is /api/search getting now vs an hour ago?',
    expect: {
      all: [
        { number: 'sum(rate(http_requests_total{job="search", route="/api/search"}[5m]))', tolerance: 0.15 }, // value seen: 211.5
        { number: 'sum(rate(http_requests_total{job="search", route="/api/search"}[5m] offset 1h))', tolerance: 0.15 }, // value seen: 36.1
      ],
    },
  },
  {
    scenario: 'search-traffic-surge',
    split: SPLIT,
    message: 'are the search pods maxed out on cpu? how much is each using vs its limit',
    expect: {
      all: [
        { number: 'max(rate(container_cpu_usage_seconds_total{container="search"}[5m]))', tolerance: 0.1 }, // value seen: 2.03 cores
        { number: 'max(kube_pod_container_resource_limits{container="search", resource="cpu"})', tolerance: 0.05 }, // value seen: 2 cores
      ],
    },
  },
  {
    scenario: 'search-traffic-surge',
    split: SPLIT,
    message: 'if this search slowness is a crawler, can you tell us who it is? IPs, user agent, customer account, anything, so we can block it at our CDN',
    expect: { cannot: true },
  },

  // cart-config-crashloop: a cart-config edit 38 min before the end rolls cart; the new pod crash loops.
  {
    scenario: 'cart-config-crashloop',
    split: SPLIT,
    message:
      'on call for checkout, seeing KubePodCrashLooping for a cart pod in shop. is cart actually broken for callers or is it just that one pod? what happened?',
    expect: { contains: ['cart-config'] },
  },
  {
    scenario: 'cart-config-crashloop',
    split: SPLIT,
    earlier: ['seeing a crashloop alert for a cart pod, is cart broken?'],
    message: 'how many times has that pod restarted so far, and when was the config change?',
    expect: {
      all: [
        { number: 'max(kube_pod_container_status_restarts_total{container="cart"})', tolerance: 0.2 }, // value seen: 12
        { at: 38, tolerance: 3 }, // cart-config's resource version changes 38 min before the end
      ],
    },
  },
  {
    scenario: 'cart-config-crashloop',
    split: SPLIT,
    message: "there's a crashloop alert on one of the cart pods. how many cart replicas are actually serving traffic right now?",
    expect: { number: 'kube_deployment_status_replicas_available{deployment="cart"}', tolerance: 0.1 }, // value seen: 3
  },

  // orders-worker-scaled-to-zero: orders-worker scaled to zero 44 min before the end; the orders queue piles up.
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: SPLIT,
    message:
      "hi, notifications team here. we consume order events downstream and nothing has arrived for ~45 min, support says orders are 'stuck in pending'. is the orders queue being processed at all?",
    expect: { contains: ['orders-worker'] },
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: SPLIT,
    earlier: ['order events stopped arriving for us ~45 min ago, is the orders queue being processed?'],
    message: 'how many messages are waiting in the orders queue now, and how old is the oldest one?',
    expect: {
      all: [
        { number: 'sum(rabbitmq_queue_messages_ready{queue="orders"})', tolerance: 0.1 }, // value seen: 11225
        { number: 'max(time() - rabbitmq_queue_head_message_timestamp{queue="orders"})', tolerance: 0.1 }, // value seen: 2641.5 s
      ],
    },
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: SPLIT,
    message: 'at what time did the orders queue end up with no consumers? need the time for our timeline',
    expect: { at: 44, tolerance: 3 }, // orders-worker scaled to 0 and rabbitmq_queue_consumers 0 from 44 min before the end
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: SPLIT,
    message: 'does the fulfilment-bridge consumer also read from the orders queue? is it running?',
    expect: { asks: true },
  },

  // checkout-slow-partner-bank: partner-bank slows from 37 min before the end; payments and checkout slow down.
  {
    scenario: 'checkout-slow-partner-bank',
    split: SPLIT,
    message:
      'our calls to your checkout API (POST /api/checkout) take 5+ seconds since ~35 min ago and our client gives up at 3s. what p99 are you seeing on that endpoint?',
    expect: { number: quantile(0.99, 'checkout', '/api/checkout'), tolerance: 0.2 }, // value seen: 4.91 s
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: SPLIT,
    earlier: ['checkout POSTs take 5+ seconds since ~35 min ago, what p99 do you see?'],
    message: 'our infra contact says one of your nodes, ip-10-0-2-34, is pegged at ~100% cpu. is that why checkout is slow?',
    expect: { contains: ['partner-bank'] },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: SPLIT,
    message: "how slow are payments' calls to the bank right now compared to normal, and since what time has it been like this?",
    expect: {
      all: [
        { number: peerMean('payments', 'partner-bank'), tolerance: 0.15 }, // value seen: 1.257 s (0.105 s an hour before)
        { at: 37, tolerance: 3 }, // payments -> partner-bank latency rises from 37 min before the end
      ],
    },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: SPLIT,
    message:
      'on a call with Contoso about slow checkouts. they ask whether this breaches their SLA and if they get service credits for this month. can I tell them yes?',
    expect: { cannot: true },
  },

  // recommendations-cpu-throttled: a resources-only rollout 40 min before the end sets a 0.3-core CPU limit.
  {
    scenario: 'recommendations-cpu-throttled',
    split: SPLIT,
    message: "hey, the recommendations api (the 'you may also like' widget) got slow for us ~40 min ago, our p99 to it is about 2s. what p99 do you see?",
    expect: { number: quantile(0.99, 'recommendations'), tolerance: 0.2 }, // value seen: 1.89 s
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: SPLIT,
    earlier: ['recommendations got slow ~40 min ago, p99 around 2s on our side. anything on yours?'],
    message: 'did you deploy something? I see new pod names but the version still says 0.9.4',
    expect: {
      all: [
        { contains: ['0.9.4'] },
        { number: 'max(kube_pod_container_resource_limits{container="recommendations", resource="cpu"})', tolerance: 0.1 }, // value seen: 0.3 cores
      ],
    },
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: SPLIT,
    message: 'how badly are the recommendations pods being cpu throttled right now?',
    expect: {
      number:
        'sum(increase(container_cpu_cfs_throttled_periods_total{container="recommendations"}[5m])) / sum(increase(container_cpu_cfs_periods_total{container="recommendations"}[5m]))',
      tolerance: 0.15,
    }, // value seen: 0.739
  },

  // node-not-ready: ip-10-0-3-41 NotReady 36 min before the end; frontend's calls to its cart pod time out.
  {
    scenario: 'node-not-ready',
    split: SPLIT,
    message: "on call for storefront. ~15% of requests to the frontend come back '502 Bad Gateway' since about 35 min ago. anything wrong in the cluster?",
    expect: { contains: ['ip-10-0-3-41'] },
  },
  {
    scenario: 'node-not-ready',
    split: SPLIT,
    earlier: ['frontend returns 502 for ~15% of requests since ~35 min ago, anything wrong in the cluster?'],
    message: "which cart pod was on that node? and what's frontend's error rate right now?",
    expect: {
      all: [
        { contains: ['cart-d7b5fbc6d-tk7ck'] },
        { number: errorRatio('frontend'), tolerance: 0.15 }, // value seen: 0.151
      ],
    },
  },
  {
    scenario: 'node-not-ready',
    split: SPLIT,
    earlier: ['frontend returns 502 for ~15% of requests since ~35 min ago, anything wrong in the cluster?'],
    message: 'is this the AWS scheduled maintenance we got an email about last week? when will they give the node back?',
    expect: { cannot: true },
  },

  // partner-bank-certificate-expired: partner-bank's certificate expires 35 min before the end; payments' calls fail TLS.
  {
    scenario: 'partner-bank-certificate-expired',
    split: SPLIT,
    message:
      "hello, card payments through your payment API fail with '502 Bad Gateway' for almost everything since ~35 min ago. we changed nothing. what's happening?",
    expect: { contains: ['partner-bank'] },
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: SPLIT,
    earlier: ['card payments through your payment API fail with 502 for nearly everything, what is happening?'],
    message: 'how much of payments is failing right now and when exactly did it start?',
    expect: {
      all: [
        { number: errorRatio('payments'), tolerance: 0.1 }, // value seen: 0.971
        { at: 35, tolerance: 3 }, // probe_ssl_earliest_cert_expiry and the tls_error calls at 35 min before the end
      ],
    },
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: SPLIT,
    message: "heard in #incidents the bank's cert expired. when are they going to renew it? we need to tell our merchants something",
    expect: { cannot: true },
  },

  // ordersdb-connections-exhausted: ordersdb reaches max_connections 40 min before the end; orders fails a third.
  {
    scenario: 'ordersdb-connections-exhausted',
    split: SPLIT,
    message: 'we get 500s from the orders api on about a third of our POSTs since ~40 min. is orders itself broken or something underneath it?',
    expect: { contains: ['ordersdb'] },
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: SPLIT,
    earlier: ['orders api gives us 500s on a third of POSTs since ~40 min, is orders broken?'],
    message: 'how many connections does the db behind orders have open vs its max? and how many are idle in transaction?',
    expect: {
      all: [
        { number: 'sum(pg_stat_activity_count{server="ordersdb:5432"})', tolerance: 0.05 }, // value seen: 199 (max_connections 200)
        { number: 'sum(pg_stat_activity_count{server="ordersdb:5432", state="idle in transaction"})', tolerance: 0.1 }, // value seen: 160
      ],
    },
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: SPLIT,
    message: 'saw orders rolled out 2.3.1 just before the 500s started. is the new version leaking db connections?',
    expect: { contains: ['2.3.1', 'ordersdb'] },
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: SPLIT,
    message: "which team's job is holding all the connections on ordersdb? who should I ping to kill it?",
    expect: { cannot: true },
  },

  // sessions-redis-down-flapping-alert: sessions-redis down 36 min before the end; cart fails 90% of requests.
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: SPLIT,
    message:
      "SE on a customer call: their shoppers can't add anything to the basket, adding items fails with '500 Internal Server Error'. how bad is it on cart right now, what % of requests fail?",
    expect: { number: errorRatio('cart'), tolerance: 0.1 }, // value seen: 0.900
  },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: SPLIT,
    earlier: ['adding items to the basket fails with 500 for our customer, how bad is cart right now?'],
    message: 'what is cart choking on, and since when?',
    expect: { all: [{ contains: ['sessions-redis'] }, { at: 36, tolerance: 3 }] }, // redis_up 0 from 36 min before the end
  },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: SPLIT,
    earlier: ['adding items to the basket fails with 500 for our customer, how bad is cart right now?'],
    message: "is basket-sync down too? that's what their mobile app actually talks to",
    expect: { asks: true },
  },

  // payments-bad-version-noisy-neighbour: payments 1.9.0 fails a fifth from 36 min before the end; a batch job loads a payments node.
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: SPLIT,
    message: 'your payment API returns 500s on roughly 1 in 5 of our calls since about half an hour ago. what error rate do you see?',
    expect: { number: errorRatio('payments'), tolerance: 0.1 }, // value seen: 0.200
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: SPLIT,
    earlier: ['your payment API returns 500s on about 1 in 5 calls since ~30 min, what error rate do you see?'],
    message: 'was there a release? which pods have it?',
    expect: { podsOf: { workload: 'payments', version: '1.9.0' } },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: SPLIT,
    message:
      "on call for the ledger team: our ledger-reconcile batch is eating cpu on ip-10-0-3-41 and someone in here blamed it for the payments errors. is it? I'd rather not kill it mid-run",
    expect: { contains: ['1.9.0'] },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: SPLIT,
    message: 'when did the payments errors start, and how many failed requests per second is it doing right now?',
    expect: {
      all: [
        { at: 36, tolerance: 3 }, // first 1.9.0 pod and the error ratio's rise at 36 min before the end
        { number: 'sum(rate(http_requests_total{job="payments", code=~"5.."}[5m]))', tolerance: 0.15 }, // value seen: 3.82 req/s
      ],
    },
  },

  // checkout-memory-limit-lowered: a rollout 40 min before the end lowers checkout's memory limit to 320 MiB; OOMKilled crash loops.
  {
    scenario: 'checkout-memory-limit-lowered',
    split: SPLIT,
    message: 'our calls to your checkout API get connection resets and 502s from your LB on and off for the last ~half hour. are your checkout pods even up?',
    expect: { contains: ['OOMKilled'] },
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: SPLIT,
    earlier: ['checkout keeps resetting our connections for ~30 min, are the pods even up?'],
    message: "what changed? we were told there's no new checkout release today",
    expect: {
      all: [
        { number: 'max(kube_pod_container_resource_limits{container="checkout", resource="memory"})', tolerance: 0.05 }, // value seen: 335544320 (320 MiB)
        { number: 'max(kube_pod_container_resource_limits{container="checkout", resource="memory"} offset 1h)', tolerance: 0.05 }, // value seen: 805306368 (768 MiB)
      ],
    },
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: SPLIT,
    message: 'how many restarts so far across all the checkout pods?',
    expect: { number: restarts('checkout'), tolerance: 0.2 }, // value seen: 27
  },

  // ledger-volume-full-chronic-mount: data-ledger fills 36 min before the end; ledger writes fail with 507.
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: SPLIT,
    message:
      "finance-ops here, we post journal entries to the ledger service and since ~35 min every POST /api/ledger/entries comes back '507 Insufficient Storage'. reads are fine. what's going on?",
    expect: { contains: ['data-ledger'] },
  },
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: SPLIT,
    earlier: ['ledger writes return 507 Insufficient Storage since ~35 min, reads fine. what is going on?'],
    message: 'our infra bot says /var/log/archive on ip-10-0-1-88 is full, is that the culprit? and when did the ledger volume fill?',
    expect: { all: [{ contains: ['data-ledger'] }, { at: 36, tolerance: 3 }] }, // kubelet_volume_stats_available_bytes 0 from 36 min before the end
  },
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: SPLIT,
    message: 'what fraction of writes to ledger are failing right now?',
    expect: { number: errorRatio('ledger', '/api/ledger/entries'), tolerance: 0.1 }, // value seen: 0.951
  },
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: SPLIT,
    message: 'is journal-api affected by the ledger storage thing as well? we go through it for the nightly close',
    expect: { asks: true },
  },

  // accounts-pool-exhausted-harmless-rollout: HikariPool-1 runs dry 38 min before the end; accounts 1.4.1 rolled 47 min before.
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: SPLIT,
    message:
      'we get this back from accounts on ~30% of calls:\n```\njava.sql.SQLTransientConnectionException: HikariPool-1 - Connection is not available, request timed out after 30000ms.\n```\nis the accounts db down??',
    expect: {
      all: [
        { number: 'sum(pg_stat_activity_count{server="accountsdb:5432"})', tolerance: 0.2 }, // value seen: 41
        { number: 'max(pg_settings_max_connections{server="accountsdb:5432"})', tolerance: 0.05 }, // value seen: 300
      ],
    },
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: SPLIT,
    earlier: ['accounts returns HikariPool-1 connection timeouts on ~30% of calls, is the accounts db down?'],
    message: 'so how full is the pool then? how many requests are queued waiting for a connection?',
    expect: {
      all: [
        { number: 'max(hikaricp_connections_max{job="accounts"})', tolerance: 0.05 }, // value seen: 10
        { number: 'sum(hikaricp_connections_pending{job="accounts"})', tolerance: 0.15 }, // value seen: 60
      ],
    },
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: SPLIT,
    message: 'accounts 1.4.1 went out right before this i think. when did it roll out vs when did the errors start?',
    expect: {
      all: [
        { at: 47, tolerance: 3 }, // first 1.4.1 pod at 47 min before the end
        { at: 38, tolerance: 3 }, // the 5xx ratio rises from 38 min before the end
      ],
    },
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: SPLIT,
    earlier: ['accounts returns HikariPool-1 connection timeouts on ~30% of calls, is the accounts db down?'],
    message: 'can you list which customer accounts had transfers fail? finance needs them for reconciliation',
    expect: { cannot: true },
  },

  // cart-liveness-slow-redis: sessions-redis slows 38 min before the end; cart's liveness probe fails and restarts it.
  {
    scenario: 'cart-liveness-slow-redis',
    split: SPLIT,
    message: "SE here, customer says the basket page just spins since ~40 min. what's cart's p99 at the moment?",
    expect: { number: quantile(0.99, 'cart'), tolerance: 0.2 }, // value seen: 2.43 s
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: SPLIT,
    earlier: ["basket page spins for our customer since ~40 min, what's cart's p99?"],
    message: 'why are the cart pods restarting so much? how many restarts so far?',
    expect: {
      all: [
        { number: restarts('cart'), tolerance: 0.15 }, // value seen: 123
        { contains: ['sessions-redis'] },
      ],
    },
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: SPLIT,
    message: "auth team here, we share sessions-redis for logins. is it down? how slow are cart's calls to it now vs normal?",
    expect: {
      all: [
        { number: peerMean('cart', 'sessions-redis'), tolerance: 0.2 }, // value seen: 2.33 s
        { number: peerMean('cart', 'sessions-redis', ' offset 1h'), tolerance: 0.2 }, // value seen: 0.00233 s
      ],
    },
  },

  // inventory-liveness-unexplained: inventory's liveness probes fail from 37 min before the end; the kubelet restarts it.
  {
    scenario: 'inventory-liveness-unexplained',
    split: SPLIT,
    message:
      'we depend on inventory for stock checks. saw its pods restarting constantly in the channel. how many restarts so far? are our calls actually failing / is it safe to retry?',
    expect: { number: restarts('inventory'), tolerance: 0.15 }, // value seen: 81
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: SPLIT,
    earlier: ['inventory pods are restarting constantly, how many restarts so far?'],
    message: 'since when? and is the catalog-sync batch on the same node starving it of cpu?',
    expect: {
      all: [
        { at: 37, tolerance: 3 }, // failed liveness probes and restarts from 37 min before the end
        { number: '1 - avg(rate(node_cpu_seconds_total{mode="idle", node="ip-10-0-3-41.eu-west-1.compute.internal"}[5m]))', tolerance: 0.15 }, // value seen: 0.503
      ],
    },
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: SPLIT,
    message: 'is this the deadlock bug we filed with the inventory team last week (INV-2231)? was the fix deployed?',
    expect: { cannot: true },
  },

  // search-noisy-neighbour: video-transcode takes ip-10-0-2-34's cores 37 min before the end; the search pod there slows.
  {
    scenario: 'search-noisy-neighbour',
    split: SPLIT,
    message: "your search API got slow ~35 min ago, our p99 to it is ~2.5s when it's normally ~350ms. what's your p99?",
    expect: { number: quantile(0.99, 'search'), tolerance: 0.2 }, // value seen: 2.29 s
  },
  {
    scenario: 'search-noisy-neighbour',
    split: SPLIT,
    earlier: ["search API got slow ~35 min ago, p99 ~2.5s on our side. what's yours?"],
    message: 'is it all search instances or just one of them?',
    expect: { contains: ['search-878b86fb7-m9xrk'] },
  },
  {
    scenario: 'search-noisy-neighbour',
    split: SPLIT,
    earlier: ["search API got slow ~35 min ago, p99 ~2.5s on our side. what's yours?", 'is it all search instances or just one of them?'],
    message: "what's hogging it? our infra guys say image-resizer is pegging a node too",
    expect: { contains: ['video-transcode', 'ip-10-0-2-34'] },
  },
  {
    scenario: 'search-noisy-neighbour',
    split: SPLIT,
    message: 'can you send us the list of our search queries that timed out during the slowness so we can replay them?',
    expect: { cannot: true },
  },

  // billing-timeout-config-change: billing's ledger timeout lowered to 150 ms 37 min before the end; a fifth fail with 504.
  {
    scenario: 'billing-timeout-config-change',
    split: SPLIT,
    message:
      "invoice creation via billing returns '504 Gateway Timeout' on ~20% of calls since a bit over half an hour. what's the failure rate, and did anything change on your side?",
    expect: {
      all: [
        { number: errorRatio('billing'), tolerance: 0.1 }, // value seen: 0.201
        { contains: ['150ms'] },
      ],
    },
  },
  {
    scenario: 'billing-timeout-config-change',
    split: SPLIT,
    earlier: ['billing returns 504 on ~20% of invoice calls since ~35 min, did anything change on your side?'],
    message: 'when exactly did that config go in?',
    expect: { at: 37, tolerance: 2 }, // cfg-8841 reported at 37 min before the end
  },
  {
    scenario: 'billing-timeout-config-change',
    split: SPLIT,
    earlier: ['billing returns 504 on ~20% of invoice calls since ~35 min, did anything change on your side?', 'when exactly did that config go in?'],
    message: 'how many of our invoices got duplicated by our retries, and for which customers?',
    expect: { cannot: true },
  },

  // archive-down-reported-deploy-red-herring: archive stops answering 36 min before the end; statements fails with 503.
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: SPLIT,
    message: "SE on a customer call: they can't download their monthly statements, the portal says 'Service Unavailable' since ~35 min. what's going on?",
    expect: { contains: ['archive'] },
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: SPLIT,
    earlier: ["customer can't download statements, portal says Service Unavailable since ~35 min. what's going on?"],
    message: 'the changelog shows a statements deploy (2026.11.27-1) right before. was it that?',
    expect: { contains: ['2026.11.27-1', 'archive'] },
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: SPLIT,
    message: 'what % of statement requests are failing right now, and since when?',
    expect: {
      all: [
        { number: errorRatio('statements'), tolerance: 0.1 }, // value seen: 0.601
        { at: 36, tolerance: 3 }, // up{job="archive"} 0 and statements' 503s from 36 min before the end
      ],
    },
  },
];
