import type { Rule, Scenario } from '../../eval/scenarios';
import { shop } from '../../eval/shop';

const MINUTE = 60;

/** checkout's 99th percentile latency, as the generator's default convention exports it. */
const rule: Rule = {
  alert: 'CheckoutLatencyHigh',
  expr: 'histogram_quantile(0.99, sum by (namespace, job, le) (rate(http_request_duration_seconds_bucket{job="checkout"}[5m]))) > 1',
  forSeconds: 5 * MINUTE,
  labels: { severity: 'warning' },
};

/**
 * From 30 minutes before the end, the network card of the node that runs checkout's first pod
 * drops received packets (node-exporter's `node_network_receive_drop_total`), and checkout's pod
 * on that node answers six times slower. No explainer reads that counter; nothing on checkout's
 * own series but its latency moves: only the node its pods run on shows the cause.
 */
export const nodeScenario: Scenario = {
  name: 'checkout-node-drops-packets',
  family: 'node',
  story: "The network card of a node that runs a checkout pod drops packets; checkout's requests there slow down.",
  redHerrings: [],
  seed: 151,
  build(end) {
    let sick = '';
    let at = Infinity;
    const c = shop(end, this.seed, {
      workloads: ['frontend', 'checkout', 'inventory', 'payments'],
      effects: { checkout: { latency: (t, pod) => (pod.node.name === sick && t >= at ? 6 : 1) } },
    });
    const node = c.workload('checkout').pods[0].node;
    sick = node.name;
    at = c.ago(30);
    c.telemetry.counter(
      'node_network_receive_drop_total',
      { job: 'node-exporter', instance: `${node.ip}:9100`, namespace: 'monitoring', node: node.name, device: 'eth0' },
      (t) => (t >= at - MINUTE ? 350 : 0.02) * (1 + 0.1 * c.noise(`drops:${node.name}`, t)),
      { initial: 1200 },
    );
    return c;
  },
  rule,
  truth: { values: [['node_network_receive_drop_total']], series: /node_network_receive_drop_total/ },
};
