import type { Rule, Scenario } from '../../eval/scenarios';
import { shop } from '../../eval/shop';

const MINUTE = 60;

/** A mesh's request counter named like no standard exporter's or library's (an in-house or less common mesh), with Istio-like labels. */
export const MESH_REQUESTS = 'mesh_requests_total';

/** checkout's inbound failure ratio as the mesh reports it. */
export const meshRule: Rule = {
  alert: 'CheckoutMeshErrors',
  expr: `sum by (namespace, destination_workload) (rate(${MESH_REQUESTS}{reporter="destination", destination_workload="checkout", response_code=~"5.."}[1m])) / sum by (namespace, destination_workload) (rate(${MESH_REQUESTS}{reporter="destination", destination_workload="checkout"}[1m])) > 0.05`,
  forSeconds: 3 * MINUTE,
  labels: { severity: 'critical' },
};

/**
 * A shop whose requests are seen only by its mesh: `mesh_requests_total` from the sidecars, with
 * source and destination workloads and the response code. From 30 minutes before the end,
 * inventory fails 60% of checkout's calls to it, and checkout fails a third of its own requests.
 * No detector knows this metric's name; only what its labels say can be read.
 */
export const meshScenario: Scenario = {
  name: 'checkout-mesh-inventory-fails',
  family: 'dependency-down',
  story: 'inventory fails the calls checkout makes to it; only the mesh metrics show it, under a name no detector knows.',
  redHerrings: [],
  seed: 141,
  build(end) {
    const c = shop(end, this.seed, { workloads: ['frontend', 'checkout', 'inventory'] });
    const at = c.ago(30);
    const tel = c.telemetry;
    const edge = (source: string, destination: string, rps: number, failing: (t: number) => number): void => {
      const pod = c.workload(destination).pods[0].name;
      for (const reporter of ['source', 'destination']) {
        const labels = {
          job: 'mesh-proxy',
          namespace: 'shop',
          pod: reporter === 'source' ? c.workload(source).pods[0].name : pod,
          reporter,
          source_workload: source,
          source_workload_namespace: 'shop',
          destination_workload: destination,
          destination_workload_namespace: 'shop',
          destination_service_name: destination,
          request_protocol: 'http',
        };
        tel.counter(MESH_REQUESTS, { ...labels, response_code: '200' }, (t) => rps * c.wave(t) * (1 - failing(t)), { initial: 1e6 });
        tel.counter(MESH_REQUESTS, { ...labels, response_code: '503' }, (t) => rps * c.wave(t) * failing(t), { initial: 10 });
      }
    };
    edge('frontend', 'checkout', 20, (t) => (t >= at + MINUTE ? 0.33 : 0.001));
    edge('checkout', 'inventory', 15, (t) => (t >= at ? 0.6 : 0.001));
    return c;
  },
  rule: meshRule,
  truth: { values: [['inventory']], series: new RegExp(MESH_REQUESTS) },
};
