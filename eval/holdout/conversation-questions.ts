import type { QuestionCase } from '../conversation-cases';

/**
 * Held-out follow-up questions about the own suite's incidents, scored against each scenario's data
 * in a real Prometheus. Written before the question-answering code they score, as on-call people
 * type them (fragments, typos, several parts, references to earlier turns), without knowing how the
 * engine parses them. Never copy these texts (or paraphrase them closely) into specs, tests or
 * source, and never tune on them: report their score as is.
 */
export const HOLDOUT_QUESTIONS: QuestionCase[] = [
  // ---- checkout-bad-version: checkout 2.15.0 fails a tenth of POST /api/checkout from its rollout 38 min before the end.
  {
    scenario: 'checkout-bad-version',
    split: 'holdout',
    message: 'whats the error rate on checkout rn',
    expect: { number: 'sum(rate(http_requests_total{job="checkout",code=~"5.."}[5m])) / sum(rate(http_requests_total{job="checkout"}[5m]))', tolerance: 0.2 },
  },
  {
    scenario: 'checkout-bad-version',
    split: 'holdout',
    message: 'which pods got 2.15.0',
    expect: { podsOf: { workload: 'checkout', version: '2.15.0' } },
  },
  {
    scenario: 'checkout-bad-version',
    split: 'holdout',
    earlier: ['which checkout pods are on the new version?'],
    message: 'and what nodes are those on',
    expect: { podsOf: { workload: 'checkout', version: '2.15.0' } },
  },
  {
    scenario: 'checkout-bad-version',
    split: 'holdout',
    message: 'when did the 500s start on checkout?',
    expect: { at: 38, tolerance: 2 },
  },
  {
    scenario: 'checkout-bad-version',
    split: 'holdout',
    message: 'error ratio on POST /api/checkout since the rollout?',
    expect: {
      number:
        'sum(rate(http_requests_total{job="checkout",route="/api/checkout",code=~"5.."}[5m])) / sum(rate(http_requests_total{job="checkout",route="/api/checkout"}[5m]))',
      tolerance: 0.15,
    },
  },
  {
    scenario: 'checkout-bad-version',
    split: 'holdout',
    message: 'checkout p99 before vs after the deploy, any diff?',
    expect: { direction: 'about the same' },
  },
  {
    scenario: 'checkout-bad-version',
    split: 'holdout',
    message: "did inventory's error rate move at all after the checkout rollout",
    expect: { direction: 'about the same' },
  },
  {
    scenario: 'checkout-bad-version',
    split: 'holdout',
    message: 'how does checkouts error ratio compare before and after 2.15.0 went out',
    expect: { direction: 'up' },
  },
  {
    scenario: 'checkout-bad-version',
    split: 'holdout',
    message: 'ok what do we roll back to',
    expect: { contains: ['2.14.3'] },
  },
  {
    scenario: 'checkout-bad-version',
    split: 'holdout',
    message: 'paymnets looking ok?',
    expect: { asksFirst: 'payments' },
  },
  {
    scenario: 'checkout-bad-version',
    split: 'holdout',
    message: 'is the shipping service involved in this',
    expect: { asks: true },
  },
  {
    scenario: 'checkout-bad-version',
    split: 'holdout',
    message: 'how saturated is the db connection pool on checkout',
    expect: { cannot: true },
  },
  {
    scenario: 'checkout-bad-version',
    split: 'holdout',
    message: "which pods are on 2.15.0 and what's their error ratio",
    expect: {
      all: [
        { podsOf: { workload: 'checkout', version: '2.15.0' } },
        { number: 'sum(rate(http_requests_total{job="checkout",code=~"5.."}[5m])) / sum(rate(http_requests_total{job="checkout"}[5m]))', tolerance: 0.2 },
      ],
    },
  },

  // ---- inventory-down-harmless-rollout: inventory stops answering 36 min before the end; checkout 2.14.4 rolled out 44 min before and changed nothing.
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'holdout',
    message: 'what time did inventory go dark',
    expect: { at: 36, tolerance: 2 },
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'holdout',
    message: 'how bad is checkout failing right now',
    expect: { number: 'sum(rate(http_requests_total{job="checkout",code=~"5.."}[5m])) / sum(rate(http_requests_total{job="checkout"}[5m]))', tolerance: 0.15 },
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'holdout',
    message: "what % of checkout's calls to inventory are failing",
    expect: {
      number:
        'sum(rate(http_client_requests_total{job="checkout",peer="inventory",code!="200"}[5m])) / sum(rate(http_client_requests_total{job="checkout",peer="inventory"}[5m]))',
      tolerance: 0.1,
    },
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'holdout',
    message: 'did the 2.14.4 checkout deploy do this??',
    expect: { contains: ['inventory'] },
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'holdout',
    message: 'which pods got 2.14.4 and where do they run',
    expect: { podsOf: { workload: 'checkout', version: '2.14.4' } },
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'holdout',
    message: 'is payments hit too? its traffic vs an hour ago',
    expect: { direction: 'about the same' },
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'holdout',
    message: 'inventroy p99?',
    expect: { asksFirst: 'inventory' },
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'holdout',
    message: 'what do the inventory pod logs say before it died',
    expect: { cannot: true },
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'holdout',
    message: 'anything deployed in the last hour or so',
    expect: { contains: ['2.14.4'] },
  },
  {
    scenario: 'inventory-down-harmless-rollout',
    split: 'holdout',
    earlier: ['inventory looks dead to me, can you confirm'],
    message: 'since when, and how much of checkout is failing since then',
    expect: {
      all: [
        { at: 36, tolerance: 2 },
        { number: 'sum(rate(http_requests_total{job="checkout",code=~"5.."}[5m])) / sum(rate(http_requests_total{job="checkout"}[5m]))', tolerance: 0.15 },
      ],
    },
  },

  // ---- orders-memory-leak-oom: orders' working set climbs to its 1 GiB limit from 75 min before the end; OOMKilled from about 41 min before.
  {
    scenario: 'orders-memory-leak-oom',
    split: 'holdout',
    message: 'whats the mem limit on orders',
    expect: { number: 'max(kube_pod_container_resource_limits{container="orders",resource="memory"})', tolerance: 0.05 },
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: 'holdout',
    message: 'when did orders memory start creeping up',
    expect: { at: 75, tolerance: 4 },
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: 'holdout',
    message: 'when was the first oom kill on orders',
    expect: { at: 40.5, tolerance: 2 },
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: 'holdout',
    message: 'which nodes are the orders pods sitting on',
    expect: { contains: ['ip-10-0-3-41', 'ip-10-0-1-88'] },
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: 'holdout',
    message: 'orders cpu vs its limit?',
    expect: {
      number:
        'sum(rate(container_cpu_usage_seconds_total{container="orders"}[5m])) / sum(kube_pod_container_resource_limits{container="orders",resource="cpu"})',
      tolerance: 0.25,
    },
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: 'holdout',
    message: 'is orders-worker close to its memory limit too',
    expect: {
      number: 'max(container_memory_working_set_bytes{container="orders-worker"}) / max(container_spec_memory_limit_bytes{container="orders-worker"})',
      tolerance: 0.15,
    },
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: 'holdout',
    message: 'chekout memory ok?',
    expect: { asksFirst: 'checkout' },
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: 'holdout',
    message: 'how long are the GC pauses on orders',
    expect: { cannot: true },
  },
  {
    scenario: 'orders-memory-leak-oom',
    split: 'holdout',
    message: 'is fulfillment part of this?',
    expect: { asks: true },
  },

  // ---- media-disk-full-flapping-alert: /var/lib/media on ip-10-0-2-34 is full from 37 min before the end; media's uploads fail with 507.
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'holdout',
    message: 'which node is media on',
    expect: { contains: ['ip-10-0-2-34'] },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'holdout',
    earlier: ['which node is media running on?'],
    message: 'what else runs on that node',
    expect: { contains: ['frontend', 'cart', 'inventory', 'search'], excludes: ['checkout', 'payments'] },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'holdout',
    message: 'how full is /var/lib/media',
    expect: {
      number: '1 - node_filesystem_avail_bytes{mountpoint="/var/lib/media"} / node_filesystem_size_bytes{mountpoint="/var/lib/media"}',
      tolerance: 0.05,
    },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'holdout',
    earlier: ['how full is /var/lib/media'],
    message: 'how full is /var/lib/media',
    expect: {
      number: '1 - node_filesystem_avail_bytes{mountpoint="/var/lib/media"} / node_filesystem_size_bytes{mountpoint="/var/lib/media"}',
      tolerance: 0.05,
    },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'holdout',
    message: 'when did the media volume fill up',
    expect: { at: 37, tolerance: 2 },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'holdout',
    message: 'upload failure ratio?',
    expect: {
      number:
        'sum(rate(http_requests_total{job="media",route="/api/uploads",code=~"5.."}[5m])) / sum(rate(http_requests_total{job="media",route="/api/uploads"}[5m]))',
      tolerance: 0.1,
    },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'holdout',
    message: 'p99 for POST /api/uploads',
    expect: {
      number: 'histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{job="media",route="/api/uploads"}[5m])))',
      tolerance: 0.2,
    },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'holdout',
    message: 'how has free space on the media mount trended over the last 2h',
    expect: { direction: 'down' },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'holdout',
    message: 'which mount is out of space',
    expect: { contains: ['/var/lib/media'] },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'holdout',
    message: 'meida downloads failing as well?',
    expect: { asksFirst: 'media' },
  },
  {
    scenario: 'media-disk-full-flapping-alert',
    split: 'holdout',
    earlier: ['what node is media on'],
    message: 'whats the disk iops on that box',
    expect: { cannot: true },
  },

  // ---- search-traffic-surge: /api/search traffic grows sixfold from 39 min before the end; search hits its CPU limit; frontend 5.2.1 rolled out 5 min earlier.
  {
    scenario: 'search-traffic-surge',
    split: 'holdout',
    message: 'how much has /api/search traffic grown compared to an hour ago',
    expect: {
      number:
        'sum(rate(http_requests_total{job="search",route="/api/search"}[5m])) / sum(rate(http_requests_total{job="search",route="/api/search"}[5m] offset 1h))',
      tolerance: 0.2,
    },
  },
  {
    scenario: 'search-traffic-surge',
    split: 'holdout',
    message: 'search rps right now?',
    expect: { number: 'sum(rate(http_requests_total{job="search"}[5m]))', tolerance: 0.15 },
  },
  {
    scenario: 'search-traffic-surge',
    split: 'holdout',
    message: 'search p99',
    expect: { number: 'histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{job="search"}[5m])))', tolerance: 0.2 },
  },
  {
    scenario: 'search-traffic-surge',
    split: 'holdout',
    message: 'is search pegged against its cpu limit',
    expect: {
      number:
        'sum(rate(container_cpu_usage_seconds_total{container="search"}[5m])) / sum(kube_pod_container_resource_limits{container="search",resource="cpu"})',
      tolerance: 0.1,
    },
  },
  {
    scenario: 'search-traffic-surge',
    split: 'holdout',
    message: 'are the search containers getting throttled',
    expect: {
      number:
        'sum(increase(container_cpu_cfs_throttled_periods_total{container="search"}[5m])) / sum(increase(container_cpu_cfs_periods_total{container="search"}[5m]))',
      tolerance: 0.15,
    },
  },
  {
    scenario: 'search-traffic-surge',
    split: 'holdout',
    earlier: ['when did the surge start?'],
    message: 'was latency ok before that?',
    expect: { direction: 'up' },
  },
  {
    scenario: 'search-traffic-surge',
    split: 'holdout',
    message: 'is /api/suggest slower too or just search',
    expect: { direction: 'about the same' },
  },
  {
    scenario: 'search-traffic-surge',
    split: 'holdout',
    message: 'what got deployed right before this',
    expect: { contains: ['frontend', '5.2.1'] },
  },
  {
    scenario: 'search-traffic-surge',
    split: 'holdout',
    message: 'which frontend pods are running 5.2.1',
    expect: { podsOf: { workload: 'frontend', version: '5.2.1' } },
  },
  {
    scenario: 'search-traffic-surge',
    split: 'holdout',
    message: 'how much did search traffic go up and when did it start',
    expect: {
      all: [
        {
          number:
            'sum(rate(http_requests_total{job="search",route="/api/search"}[5m])) / sum(rate(http_requests_total{job="search",route="/api/search"}[5m] offset 1h))',
          tolerance: 0.2,
        },
        { at: 39, tolerance: 3 },
      ],
    },
  },
  {
    scenario: 'search-traffic-surge',
    split: 'holdout',
    message: 'serach error rate?',
    expect: { asksFirst: 'search' },
  },
  {
    scenario: 'search-traffic-surge',
    split: 'holdout',
    message: 'is catalog-api healthy',
    expect: { asks: true },
  },

  // ---- cart-config-crashloop: an edit of cart-config rolls cart (same version) 38 min before the end; the new pod crash loops.
  {
    scenario: 'cart-config-crashloop',
    split: 'holdout',
    message: 'which configmap changed',
    expect: { contains: ['cart-config'], excludes: ['frontend-config'] },
  },
  {
    scenario: 'cart-config-crashloop',
    split: 'holdout',
    earlier: ['what configmap got changed?'],
    message: 'when was it edited',
    expect: { at: 38.3, tolerance: 2 },
  },
  {
    scenario: 'cart-config-crashloop',
    split: 'holdout',
    message: 'since when is cart crashlooping',
    expect: { at: 37.5, tolerance: 2 },
  },
  {
    scenario: 'cart-config-crashloop',
    split: 'holdout',
    message: 'which node is the crashlooping cart pod on',
    expect: { contains: ['ip-10-0-1-23'] },
  },
  {
    scenario: 'cart-config-crashloop',
    split: 'holdout',
    message: 'did the cart image version change with it',
    expect: { contains: ['4.1.2'] },
  },
  {
    scenario: 'cart-config-crashloop',
    split: 'holdout',
    message: 'how many cart replicas are actually available',
    expect: { number: 'kube_deployment_status_replicas_available{deployment="cart"}', tolerance: 0.1 },
  },
  {
    scenario: 'cart-config-crashloop',
    split: 'holdout',
    message: 'is frontend erroring more than before?',
    expect: { direction: 'about the same' },
  },
  {
    scenario: 'cart-config-crashloop',
    split: 'holdout',
    message: 'crat traffic?',
    expect: { asksFirst: 'cart' },
  },
  {
    scenario: 'cart-config-crashloop',
    split: 'holdout',
    message: 'what did the container print before it exited',
    expect: { cannot: true },
  },
  {
    scenario: 'cart-config-crashloop',
    split: 'holdout',
    message: 'promo-engine ok?',
    expect: { asks: true },
  },
  {
    scenario: 'cart-config-crashloop',
    split: 'holdout',
    message: 'how do we fix this',
    expect: { contains: ['cart-config'] },
  },

  // ---- orders-worker-scaled-to-zero: orders-worker is scaled to zero 44 min before the end; the orders queue loses its consumers.
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'holdout',
    message: 'how many replicas does orders-worker have right now',
    expect: { number: 'kube_deployment_spec_replicas{deployment="orders-worker"}', tolerance: 0.1 },
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'holdout',
    earlier: ['what happened to orders-worker?'],
    message: 'when did it get scaled down',
    expect: { at: 44, tolerance: 2 },
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'holdout',
    message: 'how old is the oldest msg in the orders queue',
    expect: { number: 'time() - rabbitmq_queue_head_message_timestamp{queue="orders"}', tolerance: 0.25 },
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'holdout',
    message: 'how many consumers on the emails queue',
    expect: { number: 'rabbitmq_queue_consumers{queue="emails"}', tolerance: 0.1 },
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'holdout',
    message: 'publish rate into orders?',
    expect: { number: 'sum(rate(rabbitmq_queue_messages_published_total{queue="orders"}[5m]))', tolerance: 0.2 },
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'holdout',
    message: 'who scaled it to zero',
    expect: { cannot: true },
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'holdout',
    message: 'is the orders api itself ok? traffic vs an hour ago',
    expect: { direction: 'about the same' },
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'holdout',
    message: 'orders-wroker pods, where were they running',
    expect: { asksFirst: 'orders-worker' },
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'holdout',
    message: 'is invoice-mailer still consuming',
    expect: { asks: true },
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'holdout',
    message: 'what do we do',
    expect: { contains: ['orders-worker'] },
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'holdout',
    message: 'which nodes did the orders-worker pods run on',
    expect: { contains: ['ip-10-0-1-88', 'ip-10-0-1-23'] },
  },
  {
    scenario: 'orders-worker-scaled-to-zero',
    split: 'holdout',
    message: 'how many messages are piling up in orders and since when',
    expect: {
      all: [
        { number: 'rabbitmq_queue_messages_ready{queue="orders"}', tolerance: 0.25 },
        { at: 44, tolerance: 2 },
      ],
    },
  },

  // ---- checkout-slow-partner-bank: partner-bank slows 37 min before the end; payments then checkout slow down; reports-batch saturates ip-10-0-2-34.
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'holdout',
    message: 'checkout p99 now',
    expect: { number: 'histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{job="checkout"}[5m])))', tolerance: 0.15 },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'holdout',
    message: "what's payments' p99 when it calls partner-bank",
    expect: {
      number: 'histogram_quantile(0.99, sum by (le) (rate(http_client_request_duration_seconds_bucket{job="payments",peer="partner-bank"}[5m])))',
      tolerance: 0.15,
    },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'holdout',
    message: 'and the median for those calls?',
    earlier: ["what's payments' p99 when it calls partner-bank"],
    expect: {
      number: 'histogram_quantile(0.5, sum by (le) (rate(http_client_request_duration_seconds_bucket{job="payments",peer="partner-bank"}[5m])))',
      tolerance: 0.2,
    },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'holdout',
    message: 'when did checkout latency start climbing',
    expect: { at: 37, tolerance: 2 },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'holdout',
    message: "what's the root cause here",
    expect: { contains: ['partner-bank'] },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'holdout',
    message: 'is ip-10-0-2-34 saturated',
    expect: { number: '1 - avg(rate(node_cpu_seconds_total{mode="idle",node=~"ip-10-0-2-34.*"}[5m]))', tolerance: 0.05 },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'holdout',
    earlier: ['is ip-10-0-2-34 saturated?'],
    message: "what's eating the cpu on it",
    expect: { contains: ['reports-batch'] },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'holdout',
    message: 'which checkout pod shares a node with reports-batch',
    expect: { contains: ['checkout-bbb67f8ff-w4rdq'] },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'holdout',
    message: 'p99 of checkout-bbb67f8ff-9q6g5 specifically',
    expect: {
      number: 'histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{job="checkout",pod="checkout-bbb67f8ff-9q6g5"}[5m])))',
      tolerance: 0.15,
    },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'holdout',
    message: 'inventory latency vs an hour ago?',
    expect: { direction: 'about the same' },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'holdout',
    message: 'chekout error rate?',
    expect: { asksFirst: 'checkout' },
  },
  {
    scenario: 'checkout-slow-partner-bank',
    split: 'holdout',
    message: "how much cpu is partner-bank's side using",
    expect: { cannot: true },
  },

  // ---- recommendations-cpu-throttled: a rollout 40 min before the end lowers recommendations' CPU limit from 1 to 0.3 cores; its pods are throttled.
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'holdout',
    message: 'whats the cpu limit on recommendations now',
    expect: { number: 'min(kube_pod_container_resource_limits{container="recommendations",resource="cpu"})', tolerance: 0.05 },
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'holdout',
    earlier: ['whats the cpu limit on recommendations now'],
    message: 'was it different an hour ago?',
    expect: { direction: 'down' },
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'holdout',
    message: 'how hard are the recommendations pods being throttled',
    expect: {
      number:
        'max(sum by (pod) (increase(container_cpu_cfs_throttled_periods_total{container="recommendations"}[5m])) / sum by (pod) (increase(container_cpu_cfs_periods_total{container="recommendations"}[5m])))',
      tolerance: 0.2,
    },
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'holdout',
    message: 'cpu usage vs limit for recommendations pods',
    expect: {
      number:
        'max(sum by (pod) (rate(container_cpu_usage_seconds_total{container="recommendations"}[5m]))) / min(kube_pod_container_resource_limits{container="recommendations",resource="cpu"})',
      tolerance: 0.1,
    },
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'holdout',
    message: 'when did recs p99 go up',
    expect: { at: 40, tolerance: 2 },
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'holdout',
    message: 'p99 of recommendations?',
    expect: { number: 'histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{job="recommendations"}[5m])))', tolerance: 0.25 },
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'holdout',
    message: 'which nodes did the new recommendations pods land on',
    expect: { contains: ['ip-10-0-3-41', 'ip-10-0-1-88'] },
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'holdout',
    message: 'recomendations error rate',
    expect: { asksFirst: 'recommendations' },
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'holdout',
    message: 'ranking-svc latency?',
    expect: { asks: true },
  },
  {
    scenario: 'recommendations-cpu-throttled',
    split: 'holdout',
    message: 'how slow are the db queries recommendations makes',
    expect: { cannot: true },
  },

  // ---- node-not-ready: ip-10-0-3-41 goes NotReady 36 min before the end; the cart pod on it stops answering and frontend's calls to it time out.
  {
    scenario: 'node-not-ready',
    split: 'holdout',
    message: 'which node is notready',
    expect: { contains: ['ip-10-0-3-41'] },
  },
  {
    scenario: 'node-not-ready',
    split: 'holdout',
    earlier: ['which node went NotReady?'],
    message: 'which node went NotReady?',
    expect: { contains: ['ip-10-0-3-41'] },
  },
  {
    scenario: 'node-not-ready',
    split: 'holdout',
    earlier: ['which node is notready'],
    message: "what's running on it",
    expect: { contains: ['cart', 'checkout', 'payments', 'search', 'orders'], excludes: ['inventory'] },
  },
  {
    scenario: 'node-not-ready',
    split: 'holdout',
    message: 'when did ip-10-0-3-41 drop out',
    expect: { at: 36, tolerance: 2 },
  },
  {
    scenario: 'node-not-ready',
    split: 'holdout',
    message: 'frontend error ratio atm',
    expect: { number: 'sum(rate(http_requests_total{job="frontend",code=~"5.."}[5m])) / sum(rate(http_requests_total{job="frontend"}[5m]))', tolerance: 0.15 },
  },
  {
    scenario: 'node-not-ready',
    split: 'holdout',
    message: 'which cart pod is unreachable',
    expect: { contains: ['cart-d7b5fbc6d-tk7ck'] },
  },
  {
    scenario: 'node-not-ready',
    split: 'holdout',
    message: 'what fraction of frontend -> cart calls are timing out',
    expect: {
      number:
        'sum(rate(http_client_requests_total{job="frontend",peer="cart",code!="200"}[5m])) / sum(rate(http_client_requests_total{job="frontend",peer="cart"}[5m]))',
      tolerance: 0.15,
    },
  },
  {
    scenario: 'node-not-ready',
    split: 'holdout',
    message: 'frontend errors compared to an hour ago',
    expect: { direction: 'up' },
  },
  {
    scenario: 'node-not-ready',
    split: 'holdout',
    message: 'frontnd p99',
    expect: { asksFirst: 'frontend' },
  },
  {
    scenario: 'node-not-ready',
    split: 'holdout',
    message: 'is ip-10-0-9-99 ok?',
    expect: { asks: true },
  },
  {
    scenario: 'node-not-ready',
    split: 'holdout',
    earlier: ['which node is notready'],
    message: 'why did the kubelet on that node die',
    expect: { cannot: true },
  },

  // ---- partner-bank-certificate-expired: partner-bank's certificate expires 35 min before the end; payments' calls to it fail.
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'holdout',
    message: "when did partner-bank's cert expire",
    expect: { at: 35, tolerance: 1 },
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'holdout',
    earlier: ["when did partner-bank's cert expire"],
    message: 'payments error ratio since then?',
    expect: { number: 'sum(rate(http_requests_total{job="payments",code=~"5.."}[5m])) / sum(rate(http_requests_total{job="payments"}[5m]))', tolerance: 0.1 },
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'holdout',
    message: 'what share of payments calls to partner-bank fail',
    expect: {
      number:
        'sum(rate(http_client_requests_total{job="payments",peer="partner-bank",code!="200"}[5m])) / sum(rate(http_client_requests_total{job="payments",peer="partner-bank"}[5m]))',
      tolerance: 0.1,
    },
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'holdout',
    message: "how many days left on shop.example.com's cert",
    expect: { number: '(probe_ssl_earliest_cert_expiry{instance="https://shop.example.com"} - time()) / 86400', tolerance: 0.05 },
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'holdout',
    message: 'is checkout affected, is its p99 any different than before?',
    expect: { direction: 'about the same' },
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'holdout',
    message: 'which payments pods are failing',
    expect: { contains: ['payments-f776666fc-ch7d7', 'payments-f776666fc-s4tpv'] },
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'holdout',
    message: 'what is CPUThrottlingHigh firing on, is it related',
    expect: { contains: ['recommendations'] },
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'holdout',
    message: 'paymetns p99',
    expect: { asksFirst: 'payments' },
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'holdout',
    message: 'what did partner-bank change on their end',
    expect: { cannot: true },
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'holdout',
    message: 'is fraud-check involved',
    expect: { asks: true },
  },
  {
    scenario: 'partner-bank-certificate-expired',
    split: 'holdout',
    message: "whats the actual cause, and how much of payments' traffic is failing",
    expect: {
      all: [
        { contains: ['partner-bank'] },
        { number: 'sum(rate(http_requests_total{job="payments",code=~"5.."}[5m])) / sum(rate(http_requests_total{job="payments"}[5m]))', tolerance: 0.1 },
      ],
    },
  },

  // ---- ordersdb-connections-exhausted: held transactions bring ordersdb to max_connections (from 44 min before the end); orders fails from 40 min before; orders 2.3.1 rolled out 46 min before.
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'holdout',
    message: 'how close is ordersdb to max_connections',
    expect: { number: 'sum(pg_stat_activity_count) / max(pg_settings_max_connections)', tolerance: 0.1 },
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'holdout',
    message: 'whats max_connections set to on ordersdb',
    expect: { number: 'max(pg_settings_max_connections)', tolerance: 0.05 },
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'holdout',
    message: 'how many conns are idle in transaction',
    expect: { number: 'sum(pg_stat_activity_count{state="idle in transaction"})', tolerance: 0.15 },
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'holdout',
    message: 'when did the db connections start climbing',
    expect: { at: 44, tolerance: 2 },
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'holdout',
    message: 'orders error ratio',
    expect: { number: 'sum(rate(http_requests_total{job="orders",code=~"5.."}[5m])) / sum(rate(http_requests_total{job="orders"}[5m]))', tolerance: 0.15 },
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'holdout',
    message: 'did the 2.3.1 deploy cause this?',
    expect: { contains: ['ordersdb'] },
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'holdout',
    message: 'which orders pods run 2.3.1',
    expect: { podsOf: { workload: 'orders', version: '2.3.1' } },
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'holdout',
    message: 'orders p99 vs before the errors started',
    expect: { direction: 'up' },
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'holdout',
    message: 'which query is holding those transactions open',
    expect: { cannot: true },
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'holdout',
    message: 'analytics-db connections?',
    expect: { asks: true },
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'holdout',
    message: 'invetory affected at all?',
    expect: { asksFirst: 'inventory' },
  },
  {
    scenario: 'ordersdb-connections-exhausted',
    split: 'holdout',
    message: 'connections vs the max, and how much of orders is failing',
    expect: {
      all: [
        { number: 'sum(pg_stat_activity_count) / max(pg_settings_max_connections)', tolerance: 0.1 },
        { number: 'sum(rate(http_requests_total{job="orders",code=~"5.."}[5m])) / sum(rate(http_requests_total{job="orders"}[5m]))', tolerance: 0.15 },
      ],
    },
  },

  // ---- search-noisy-neighbour: video-transcode takes ip-10-0-2-34's cores 37 min before the end; the search pod there slows down. image-resizer saturates ip-10-0-1-23 (no search pod).
  {
    scenario: 'search-noisy-neighbour',
    split: 'holdout',
    message: 'what node is search-878b86fb7-m9xrk on and is it saturated',
    expect: {
      all: [{ contains: ['ip-10-0-2-34'] }, { number: '1 - avg(rate(node_cpu_seconds_total{mode="idle",node=~"ip-10-0-2-34.*"}[5m]))', tolerance: 0.05 }],
    },
  },
  {
    scenario: 'search-noisy-neighbour',
    split: 'holdout',
    message: 'what else is running on ip-10-0-2-34',
    expect: { contains: ['video-transcode'], excludes: ['image-resizer', 'log-shipper'] },
  },
  {
    scenario: 'search-noisy-neighbour',
    split: 'holdout',
    message: 'p99 for each search pod?',
    expect: {
      all: [
        {
          number: 'histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{job="search",pod="search-878b86fb7-m9xrk"}[5m])))',
          tolerance: 0.15,
        },
        {
          number: 'histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{job="search",pod="search-878b86fb7-px6bm"}[5m])))',
          tolerance: 0.15,
        },
      ],
    },
  },
  {
    scenario: 'search-noisy-neighbour',
    split: 'holdout',
    message: 'when did search latency jump',
    expect: { at: 37, tolerance: 2 },
  },
  {
    scenario: 'search-noisy-neighbour',
    split: 'holdout',
    message: 'is search anywhere near its cpu limit',
    expect: {
      number:
        'sum(rate(container_cpu_usage_seconds_total{container="search"}[5m])) / sum(kube_pod_container_resource_limits{container="search",resource="cpu"})',
      tolerance: 0.2,
    },
  },
  {
    scenario: 'search-noisy-neighbour',
    split: 'holdout',
    message: 'search traffic vs an hour ago - is this a surge?',
    expect: { direction: 'about the same' },
  },
  {
    scenario: 'search-noisy-neighbour',
    split: 'holdout',
    message: 'how much cpu is video-transcode burning',
    expect: { number: 'sum(rate(container_cpu_usage_seconds_total{container="video-transcode"}[5m]))', tolerance: 0.15 },
  },
  {
    scenario: 'search-noisy-neighbour',
    split: 'holdout',
    message: 'cpu on ip-10-0-1-23?',
    expect: { number: '1 - avg(rate(node_cpu_seconds_total{mode="idle",node=~"ip-10-0-1-23.*"}[5m]))', tolerance: 0.05 },
  },
  {
    scenario: 'search-noisy-neighbour',
    split: 'holdout',
    message: 'so whats actually causing the search slowness',
    expect: { contains: ['video-transcode'] },
  },
  {
    scenario: 'search-noisy-neighbour',
    split: 'holdout',
    message: 'when did video-transcoder start using all that cpu',
    expect: { asksFirst: 'video-transcode' },
  },
  {
    scenario: 'search-noisy-neighbour',
    split: 'holdout',
    message: 'thumbnailer cpu?',
    expect: { asks: true },
  },

  // ---- checkout-memory-limit-lowered: a resources-only rollout 40 min before the end lowers checkout's memory limit from 768 to 320 MiB; the new pods are OOMKilled.
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'holdout',
    message: "what's checkout's memory limit now",
    expect: { number: 'min(kube_pod_container_resource_limits{container="checkout",resource="memory"})', tolerance: 0.05 },
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'holdout',
    earlier: ["what's checkout's memory limit now"],
    message: 'and before the rollout?',
    expect: { direction: 'down' },
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'holdout',
    message: 'is checkout near its memory limit',
    expect: {
      number: 'max(container_memory_working_set_bytes{container="checkout"}) / min(kube_pod_container_resource_limits{container="checkout",resource="memory"})',
      tolerance: 0.15,
    },
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'holdout',
    message: 'when did the checkout restarts begin',
    expect: { at: 38, tolerance: 2 },
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'holdout',
    message: 'which nodes are the new checkout pods on',
    expect: { contains: ['ip-10-0-1-23', 'ip-10-0-2-34', 'ip-10-0-3-41'] },
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'holdout',
    message: 'did the version change in that rollout or just the spec',
    expect: { contains: ['2.14.3'] },
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'holdout',
    message: 'checkuot traffic vs usual',
    expect: { asksFirst: 'checkout' },
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'holdout',
    message: 'how big is the jvm heap inside checkout',
    expect: { cannot: true },
  },
  {
    scenario: 'checkout-memory-limit-lowered',
    split: 'holdout',
    message: 'is loyalty-service impacted',
    expect: { asks: true },
  },
];
