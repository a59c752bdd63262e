/**
 * Seventh held-out set, second half (split `holdout-7`): 60 questions about the 23 incidents of
 * eval/scenarios.ts, two or three each, written before the code they score and never tuned on.
 *
 * Voices, mixed through the file:
 * - a network engineer (timeouts, refused connections, which hop is slow, calls between services,
 *   probes, whether a node is reachable),
 * - a frontend/web developer whose pages call the affected APIs (which endpoints, the status codes
 *   they see, the latency their users feel, whether to add a retry or a banner),
 * - a Kubernetes cluster operator (nodes, pods, restarts, limits, OOM kills, volumes, rollouts),
 * - an SRE in another time zone picking the incident up hours in ("what did I miss", "is it still",
 *   "when did it start", "what was it at its worst").
 *
 * How it was checked: every scenario was staged (`D=/tmp/deve node /tmp/tools/stage.js <name>`) and
 * every `number` oracle below run against its Prometheus at the data's end, each returning one
 * finite value (noted beside it); every `at` was read off the staged series (minutes before the
 * end); every name in `contains`/`podsOf` is as the staged data shows it. Only pods that run from
 * before the data are named in `contains` (their names are fixed by the seed); a rollout's new pods,
 * named after the rollout's time, are only asked for through `podsOf`.
 */
import type { QuestionCase } from '../conversation-cases';

const SPLIT = 'holdout-7' as const;

/** Share of a job's requests answered 5xx (optionally of some more label matchers), over 5 minutes. */
const errorRatio = (job: string, more = ''): string =>
  `sum(rate(http_requests_total{job="${job}"${more}, code=~"5.."}[5m])) / sum(rate(http_requests_total{job="${job}"${more}}[5m]))`;

/** A job's server-side latency quantile over 5 minutes (optionally of some more matchers, or an hour before). */
const quantile = (q: number, job: string, more = '', offset = ''): string =>
  `histogram_quantile(${q}, sum by (le) (rate(http_request_duration_seconds_bucket{job="${job}"${more}}[5m]${offset})))`;

/** Calls per second from a job to a peer that ended with `code`. */
const peerCalls = (job: string, peer: string, code: string): string =>
  `sum(rate(http_client_requests_total{job="${job}", peer="${peer}", code="${code}"}[5m]))`;

export const SEVENTH_HOLDOUT_QUESTIONS_B: QuestionCase[] = [
  // checkout-bad-version
  {
    scenario: 'checkout-bad-version',
    split: SPLIT,
    message:
      "hey — the checkout button on our cart page started showing 'something went wrong' for some people like 30-40 min ago. what % of POST /api/checkout calls are failing right now? trying to decide if a client side retry is worth it or if that just hammers you more",
    expect: { number: errorRatio('checkout', ', route="/api/checkout"'), tolerance: 0.15 }, // value seen: 0.110
  },
  {
    scenario: 'checkout-bad-version',
    split: SPLIT,
    message: 'which checkout pods are running 2.15.0 and what nodes did they land on?',
    expect: { podsOf: { workload: 'checkout', version: '2.15.0' } }, // 3 pods: checkout-cff8b668f-h79vs, -gp89x, -f4jfh
  },
  {
    scenario: 'checkout-bad-version',
    split: SPLIT,
    earlier: ["just picked this up from the EU shift, what's going on with checkout?"],
    message: 'ok. and when exactly did 2.15.0 start rolling out? need it for the timeline doc',
    expect: { at: 38, tolerance: 3 }, // first 2.15.0 pod 38 min before the end
  },

  // search-slow-version-chronic-alert
  {
    scenario: 'search-slow-version-chronic-alert',
    split: SPLIT,
    message: 'search results page is crawling for our users today. whats the search p99 right now, and did someone ship something to search recently??',
    expect: {
      all: [
        { number: quantile(0.99, 'search'), tolerance: 0.2 }, // value seen: 1.95 s
        { contains: ['3.3.0'] },
      ],
    },
  },
  {
    scenario: 'search-slow-version-chronic-alert',
    split: SPLIT,
    earlier: ['catching up here — I see CPUThrottlingHigh and SearchLatencyHigh in the same group, what did I miss?'],
    message: "when did search latency actually go bad? the throttling one was already firing before I went to bed so I'm assuming that's not it",
    expect: { at: 40, tolerance: 3 }, // 3.3.0 rollout 40 min before the end; p99 over 0.5 s from ~38.5
  },

  // inventory-down-harmless-rollout
  {
    scenario: 'inventory-down-harmless-rollout',
    split: SPLIT,
    message:
      "seeing conn refused from checkout to inventory in the client metrics. how many calls per sec are getting refused right now? want to know if it's everything or just one backend",
    expect: { number: peerCalls('checkout', 'inventory', 'connection_refused'), tolerance: 0.15 }, // value seen: 25.8 req/s
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: SPLIT,
    earlier: ["what did I miss on checkout? handoff note just says 'checkout 5xx, prob the deploy'"],
    message: 'so when did checkout 2.14.4 go out vs when did inventory stop answering? trying to work out if the deploy is really to blame',
    expect: {
      all: [
        { at: 44, tolerance: 3 }, // first 2.14.4 pod 44 min before the end
        { at: 36, tolerance: 3 }, // inventory up 0, probe failing from 36 min before the end
      ],
    },
  },

  // orders-memory-leak-oom
  {
    scenario: 'orders-memory-leak-oom',
    split: SPLIT,
    message: 'KubePodRestartingOften on orders. are they getting OOMKilled? how many restarts total across the orders pods in the last hour',
    expect: {
      all: [
        { contains: ['OOMKilled'] },
        { number: 'sum(increase(kube_pod_container_status_restarts_total{container="orders"}[1h]))', tolerance: 0.1 }, // value seen: 12
      ],
    },
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: SPLIT,
    earlier: ["catch me up on orders pls, I'm on from APAC now"],
    message: 'when was the first OOM kill?',
    expect: { at: 40, tolerance: 3 }, // both orders pods first killed between 40.5 and 40 min before the end
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: SPLIT,
    message: 'support is asking which customers had orders lost when the orders pods got killed. can you pull the order ids / customer emails for them?',
    expect: { cannot: true },
  },

  // media-disk-full-flapping-alert
  {
    scenario: 'media-disk-full-flapping-alert',
    split: SPLIT,
    message: 'our upload widget gets 507 on basically every upload. what fraction of POST /api/uploads are failing atm?',
    expect: { number: errorRatio('media', ', route="/api/uploads"'), tolerance: 0.1 }, // value seen: 0.970
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: SPLIT,
    message: 'which node and which mount is out of space for media? is it a PVC or a hostpath thing',
    expect: { contains: ['ip-10-0-2-34', '/var/lib/media'] },
  },

  // search-traffic-surge
  {
    scenario: 'search-traffic-surge',
    split: SPLIT,
    message: 'search pods look pegged. how many cores is each one actually burning vs the 2 core limit?',
    expect: { number: 'max(sum by (pod) (rate(container_cpu_usage_seconds_total{container="search"}[5m])))', tolerance: 0.1 }, // value seen: 2.03 (other pod 1.95)
  },
  {
    scenario: 'search-traffic-surge',
    split: SPLIT,
    earlier: ["just got on, what's happening with search?"],
    message: 'how many times normal is the /api/search traffic compared to an hour ago?',
    expect: {
      number:
        'sum(rate(http_requests_total{job="search", route="/api/search"}[5m])) / sum(rate(http_requests_total{job="search", route="/api/search"}[5m] offset 1h))',
      tolerance: 0.2,
    }, // value seen: 5.85
  },

  // cart-config-crashloop
  {
    scenario: 'cart-config-crashloop',
    split: SPLIT,
    message: 'KubePodCrashLooping on cart. which pod is looping, what node is it on, and how many restarts has it racked up so far?',
    expect: {
      all: [
        { contains: ['ip-10-0-1-23'] }, // the looping pod's node (its name comes from the rollout's time, so is not named here)
        { number: 'sum(kube_pod_container_status_restarts_total{container="cart"})', tolerance: 0.1 }, // value seen: 12, all of the looping pod
      ],
    },
  },
  {
    scenario: 'cart-config-crashloop',
    split: SPLIT,
    earlier: ["morning, what's up with cart? there's a crashloop alert in the channel"],
    message: 'did anything change right before it started? deploy, config, anything',
    expect: { contains: ['cart-config'] },
  },

  // orders-worker-scaled-to-zero
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: SPLIT,
    message: 'picking up QueueMessagesStale from the night shift. how old is the oldest message sitting in the orders queue right now?',
    expect: { number: 'max(time() - rabbitmq_queue_head_message_timestamp{queue="orders"})', tolerance: 0.1 }, // value seen: 2641.5 s
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: SPLIT,
    earlier: ['why does the orders queue have zero consumers?'],
    message: 'when did orders-worker get scaled to 0?',
    expect: { at: 44, tolerance: 3 }, // spec replicas 2 -> 0 44 min before the end
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: SPLIT,
    message: 'who scaled orders-worker down? want to ping them before I scale it back up',
    expect: { cannot: true },
  },

  // checkout-slow-partner-bank
  {
    scenario: 'checkout-slow-partner-bank',
    split: SPLIT,
    message: "what's the p99 on payments' outbound calls to partner-bank right now? trying to figure out which hop is the slow one",
    expect: {
      number: 'histogram_quantile(0.99, sum by (le) (rate(http_client_request_duration_seconds_bucket{job="payments", peer="partner-bank"}[5m])))',
      tolerance: 0.15,
    }, // value seen: 4.69 s
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: SPLIT,
    message: 'checkout submit spins for 5+ seconds for our users. p99 on POST /api/checkout now vs an hour ago?',
    expect: {
      all: [
        { number: quantile(0.99, 'checkout', ', route="/api/checkout"'), tolerance: 0.15 }, // value seen: 4.91 s
        { number: quantile(0.99, 'checkout', ', route="/api/checkout"', ' offset 1h'), tolerance: 0.15 }, // value seen: 0.855 s
      ],
    },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: SPLIT,
    earlier: ['checkout is slow, which downstream is it?'],
    message: "ok can you also pull the p99 for payments' calls to stripe",
    expect: { asks: true },
  },

  // recommendations-cpu-throttled
  {
    scenario: 'recommendations-cpu-throttled',
    split: SPLIT,
    message:
      'recommendations got rolled ~40 min ago but the image is still 0.9.4. did the cpu limit change? whats the limit now and what share of CFS periods are getting throttled',
    expect: {
      all: [
        { number: 'max(kube_pod_container_resource_limits{container="recommendations", resource="cpu"})', tolerance: 0.1 }, // value seen: 0.3 cores
        {
          number:
            'sum(increase(container_cpu_cfs_throttled_periods_total{container="recommendations"}[5m])) / sum(increase(container_cpu_cfs_periods_total{container="recommendations"}[5m]))',
          tolerance: 0.15,
        }, // value seen: 0.739
      ],
    },
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: SPLIT,
    message: 'the recs carousel on product pages is loading suuuper slow. whats the p99 for recommendations right now?',
    expect: { number: quantile(0.99, 'recommendations'), tolerance: 0.2 }, // value seen: 1.89 s
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: SPLIT,
    message: 'who dropped the cpu limit on recommendations, and was there a change ticket for it?',
    expect: { cannot: true },
  },

  // node-not-ready
  {
    scenario: 'node-not-ready',
    split: SPLIT,
    message: "frontend → cart calls are timing out. what share of frontend's calls to cart are timing out right now?",
    expect: {
      number:
        'sum(rate(http_client_requests_total{job="frontend", peer="cart", code="timeout"}[5m])) / sum(rate(http_client_requests_total{job="frontend", peer="cart"}[5m]))',
      tolerance: 0.1,
    }, // value seen: 0.333
  },
  {
    scenario: 'node-not-ready',
    split: SPLIT,
    message: "we're seeing 502s on page loads. what % of frontend responses are 502 right now?",
    expect: {
      number: 'sum(rate(http_requests_total{job="frontend", code="502"}[5m])) / sum(rate(http_requests_total{job="frontend"}[5m]))',
      tolerance: 0.1,
    }, // value seen: 0.150
  },
  {
    scenario: 'node-not-ready',
    split: SPLIT,
    earlier: ['is ip-10-0-3-41 NotReady?'],
    message: 'which cart pod was on it? did it get rescheduled somewhere else or is it still stuck there',
    expect: { contains: ['cart-d7b5fbc6d-tk7ck'] },
  },

  // partner-bank-certificate-expired
  {
    scenario: 'partner-bank-certificate-expired',
    split: SPLIT,
    message: 'payments → partner-bank calls are dying. how many a second are failing the tls handshake?',
    expect: { number: peerCalls('payments', 'partner-bank', 'tls_error'), tolerance: 0.15 }, // value seen: 19.5 req/s
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: SPLIT,
    earlier: ["came online to PaymentsHighErrorRate, what's happening?"],
    message: "when exactly did partner-bank's cert expire?",
    expect: { at: 35, tolerance: 2 }, // probe_ssl_earliest_cert_expiry 35 min before the end; probe fails from then
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: SPLIT,
    message: 'do we know when partner-bank is going to renew the cert? product wants an ETA for when card payments are back',
    expect: { cannot: true },
  },

  // ordersdb-connections-exhausted
  {
    scenario: 'ordersdb-connections-exhausted',
    split: SPLIT,
    message: 'orders → ordersdb: how many calls a second are failing right now?',
    expect: { number: peerCalls('orders', 'ordersdb', 'too_many_connections'), tolerance: 0.15 }, // value seen: 11.6 req/s
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: SPLIT,
    earlier: ['summary of the orders incident pls, just took over from the US folks'],
    message: 'what % of max_connections is ordersdb at right now?',
    expect: { number: 'sum(pg_stat_activity_count) / max(pg_settings_max_connections)', tolerance: 0.05 }, // value seen: 0.995
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: SPLIT,
    message: 'orders 2.3.1 went out right before this started, should I just roll it back? when did the rollout happen and when did the errors start?',
    expect: {
      all: [
        { at: 46, tolerance: 3 }, // first 2.3.1 pod 46 min before the end
        { at: 40, tolerance: 3 }, // orders 5xx from 40 min before the end
      ],
    },
  },

  // sessions-redis-down-flapping-alert
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: SPLIT,
    message: "cart → sessions-redis: the redis exporter target is up but cart's getting refused connections. how many calls a sec are being refused?",
    expect: { number: peerCalls('cart', 'sessions-redis', 'connection_refused'), tolerance: 0.15 }, // value seen: 94.2 req/s
  },
  {
    scenario: 'sessions-redis-down-flapping-alert',
    split: SPLIT,
    message: 'add to cart (POST /api/cart/items) is blowing up on our side — what % of those are 500ing right now? do I need to put up a banner',
    expect: { number: errorRatio('cart', ', route="/api/cart/items"'), tolerance: 0.1 }, // value seen: 0.900
  },

  // payments-bad-version-noisy-neighbour
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: SPLIT,
    message: 'ledger-reconcile is pegging a node. which node is it on and how many cores is it using? any payments pods sitting next to it?',
    expect: {
      all: [
        { contains: ['ip-10-0-3-41'] },
        { number: 'sum(rate(container_cpu_usage_seconds_total{container="ledger-reconcile"}[5m]))', tolerance: 0.1 }, // value seen: 3.71 cores
      ],
    },
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: SPLIT,
    message: "our pay step fails roughly 1 in 5 times. what's payments' 5xx rate right now?",
    expect: { number: errorRatio('payments'), tolerance: 0.1 }, // value seen: 0.200
  },
  {
    scenario: 'payments-bad-version-noisy-neighbour',
    split: SPLIT,
    earlier: ['what did I miss on payments? been offline like 4h'],
    message: 'which pods are on 1.9.0 and which nodes are they on?',
    expect: { podsOf: { workload: 'payments', version: '1.9.0' } }, // payments-dc75556c6-hnswn, -tfcvg
  },

  // checkout-memory-limit-lowered
  {
    scenario: 'checkout-memory-limit-lowered',
    split: SPLIT,
    message: "checkout's new replicaset is crashlooping with OOMKilled, same image tag as before?? what's the memory limit on the new pods vs the old ones",
    expect: {
      all: [
        { number: 'max(kube_pod_container_resource_limits{container="checkout", resource="memory"})', tolerance: 0.05 }, // value seen: 320 MiB
        { number: 'max(kube_pod_container_resource_limits{container="checkout", resource="memory"} offset 1h)', tolerance: 0.05 }, // value seen: 768 MiB
      ],
    },
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: SPLIT,
    earlier: ['just joined the call — where is checkout at?'],
    message: 'how many restarts total across the checkout pods so far?',
    expect: { number: 'sum(kube_pod_container_status_restarts_total{container="checkout"})', tolerance: 0.15 }, // value seen: 27
  },

  // ledger-volume-full-chronic-mount
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: SPLIT,
    message: "LedgerWritesFailing — is it ledger's PVC? which claim is it and how big is it?",
    expect: {
      all: [
        { contains: ['data-ledger'] },
        { number: 'max(kubelet_volume_stats_capacity_bytes{persistentvolumeclaim="data-ledger"})', tolerance: 0.05 }, // value seen: 50 GiB
      ],
    },
  },
  {
    scenario: 'ledger-volume-full-chronic-mount',
    split: SPLIT,
    earlier: ['what did I miss? ledger writes are failing?'],
    message: 'when did data-ledger actually hit zero free? also /var/log/archive on that node shows 0 free too, is that new or has it been like that',
    expect: {
      all: [
        { at: 36, tolerance: 3 }, // kubelet_volume_stats_available_bytes 0 from 36 min before the end
        { contains: ['/var/log/archive'] },
      ],
    },
  },

  // accounts-pool-exhausted-harmless-rollout
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: SPLIT,
    message: 'accounts requests are timing out. is accountsdb unreachable / a network thing, or is it something inside accounts?',
    expect: { contains: ['HikariPool-1'] },
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: SPLIT,
    message: "the transfer page keeps timing out. what's the p99 on POST /api/accounts/transfer, and what % of accounts requests are 500ing?",
    expect: {
      all: [
        { number: quantile(0.99, 'accounts', ', route="/api/accounts/transfer"'), tolerance: 0.2 }, // value seen: 4.67 s
        { number: errorRatio('accounts'), tolerance: 0.1 }, // value seen: 0.300
      ],
    },
  },
  {
    scenario: 'accounts-pool-exhausted-harmless-rollout',
    split: SPLIT,
    earlier: ['accounts is paging, what did I miss?'],
    message: '1.4.1 went out before this right? when did it roll out and when did the errors start',
    expect: {
      all: [
        { at: 47, tolerance: 3 }, // 1.4.1 pods from 47 min before the end
        { at: 38, tolerance: 3 }, // accounts 5xx and pending connections from 38 min before the end
      ],
    },
  },

  // cart-liveness-slow-redis
  {
    scenario: 'cart-liveness-slow-redis',
    split: SPLIT,
    message: "cart logs say redis is slow but redis_up is 1. what's the average latency of cart's calls to sessions-redis right now?",
    expect: {
      number:
        'sum(rate(http_client_request_duration_seconds_sum{job="cart", peer="sessions-redis"}[5m])) / sum(rate(http_client_request_duration_seconds_count{job="cart", peer="sessions-redis"}[5m]))',
      tolerance: 0.15,
    }, // value seen: 2.33 s
  },
  {
    scenario: 'cart-liveness-slow-redis',
    split: SPLIT,
    earlier: ['catch me up on the cart restarts'],
    message: "when did the restarts actually start? CPUThrottlingHigh on recommendations has been going all night so I'm guessing that's unrelated",
    expect: { at: 37, tolerance: 3 }, // first cart restarts ~36.7 min before the end (redis slow from 38)
  },

  // inventory-liveness-unexplained
  {
    scenario: 'inventory-liveness-unexplained',
    split: SPLIT,
    message: 'inventory keeps restarting. OOM? how much memory are the inventory containers using vs their limit?',
    expect: {
      all: [
        { number: 'max(container_memory_working_set_bytes{container="inventory"})', tolerance: 0.1 }, // value seen: 91.5 MB (87 MiB; other pod 90.4 MB)
        { number: 'max(kube_pod_container_resource_limits{container="inventory", resource="memory"})', tolerance: 0.05 }, // value seen: 384 MiB
      ],
    },
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: SPLIT,
    message:
      'can you show me packet loss / tcp retransmits between the kubelet and the inventory pods on ip-10-0-3-41? wondering if the probes are dying on the network',
    expect: { cannot: true },
  },
  {
    scenario: 'inventory-liveness-unexplained',
    split: SPLIT,
    earlier: ["what's the deal with inventory restarting? just got on shift"],
    message: 'when did the first restart happen? and was anything deployed before it',
    expect: { at: 37, tolerance: 3 }, // first restart (inventory-c58d68b5c-lfg9w) ~36.5 min before the end
  },

  // search-noisy-neighbour
  {
    scenario: 'search-noisy-neighbour',
    split: SPLIT,
    message: "which search pod is the slow one and what's sharing its node?",
    expect: { contains: ['search-878b86fb7-m9xrk', 'video-transcode'] },
  },
  {
    scenario: 'search-noisy-neighbour',
    split: SPLIT,
    message: 'search box feels laggy for users. what is search p99 right now?',
    expect: { number: quantile(0.99, 'search'), tolerance: 0.15 }, // value seen: 2.29 s
  },
  {
    scenario: 'search-noisy-neighbour',
    split: SPLIT,
    earlier: ['is search slow because of the network?'],
    message: 'can you pull the p99 for the search → elasticsearch calls',
    expect: { asks: true },
  },

  // billing-timeout-config-change
  {
    scenario: 'billing-timeout-config-change',
    split: SPLIT,
    message: 'billing → ledger: what fraction of those calls are failing right now?',
    expect: {
      number:
        'sum(rate(http_client_requests_total{job="billing", peer="ledger", code!="200"}[5m])) / sum(rate(http_client_requests_total{job="billing", peer="ledger"}[5m]))',
      tolerance: 0.05,
    }, // value seen: 1 (all timeout)
  },
  {
    scenario: 'billing-timeout-config-change',
    split: SPLIT,
    message: "is ledger-postgres slow? billing's ledger calls keep dying",
    expect: { asks: true },
  },
  {
    scenario: 'billing-timeout-config-change',
    split: SPLIT,
    earlier: ['what did I miss on billing?'],
    message: 'was there a change before it started? what exactly, and when',
    expect: {
      all: [
        { contains: ['150ms'] },
        { at: 37, tolerance: 2 }, // cfg-8841 reported 37 min before the end; 504s from 36
      ],
    },
  },

  // archive-down-reported-deploy-red-herring
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: SPLIT,
    message: 'how many calls/s from statements to archive are failing, and which archive pods are down?',
    expect: {
      all: [
        { number: peerCalls('statements', 'archive', 'connection_refused'), tolerance: 0.15 }, // value seen: 29.6 req/s
        { contains: ['archive-7b6bfcfff-5zq9k', 'archive-7b6bfcfff-lr8jk'] },
      ],
    },
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: SPLIT,
    earlier: ["just came on shift, what's the deal with statements?"],
    message: 'someone in the channel is blaming the statements-static deploy. when was that deploy and when did archive stop answering?',
    expect: {
      all: [
        { at: 48, tolerance: 3 }, // deploy-3301 reported 48 min before the end
        { at: 36, tolerance: 3 }, // archive up 0 from 36 min before the end
      ],
    },
  },
  {
    scenario: 'archive-down-reported-deploy-red-herring',
    split: SPLIT,
    message: 'can you get me a list of the customers who hit an error on the statements page so support can reach out to them?',
    expect: { cannot: true },
  },
];
