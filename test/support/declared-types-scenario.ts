import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { Cluster } from '../../eval/cluster';
import type { Rule, Scenario } from '../../eval/scenarios';
import { Telemetry } from '../../eval/telemetry';

const MINUTE = 60;

/** A mesh's request counter exposed without `_total` (an older client library, a statsd bridge): a counter its name does not say. */
export const MESH_REQUESTS = 'mesh_requests';
/** inventory's reservations waiting for stock: a gauge named like a counter, that only grows over the data (its shape passes for a counter's). */
export const PENDING = 'stock_reservations_pending_total';
/** checkout's active sessions: a gauge named like a counter that goes up and down, whose type no target declares. */
export const SESSIONS = 'cart_sessions_active_total';

/** checkout's inbound failure ratio as the mesh reports it (the rule's author knows the counter for one). */
export const declaredTypesRule: Rule = {
  alert: 'CheckoutMeshErrors',
  expr: `sum by (namespace, destination_workload) (rate(${MESH_REQUESTS}{reporter="destination", destination_workload="checkout", response_code=~"5.."}[1m])) / sum by (namespace, destination_workload) (rate(${MESH_REQUESTS}{reporter="destination", destination_workload="checkout"}[1m])) > 0.05`,
  forSeconds: 3 * MINUTE,
  labels: { severity: 'critical' },
};

/**
 * A shop whose requests only its mesh sees, through a counter named without `_total`: from 30
 * minutes before the end, inventory fails 60% of checkout's calls to it, and checkout a third of
 * its own requests. Beside it, a gauge named `..._total` on inventory that only grows, and one on
 * checkout that goes up and down. The names of the first two say the wrong type; only what their
 * targets declare (Prometheus' metadata) says the right one. Nothing else is collected (no
 * Kubernetes, node or process series), so the checks that read those spend no runs.
 */
export const declaredTypesScenario: Scenario = {
  name: 'checkout-mesh-counter-without-total',
  family: 'dependency-down',
  story: 'inventory fails the calls checkout makes to it; the mesh counts them in a counter whose name does not say it is one.',
  redHerrings: [],
  seed: 163,
  build(end) {
    const c = new Cluster(new Telemetry(end, 3), this.seed);
    c.kubeStateMetrics = false;
    const at = c.ago(30);
    const tel = c.telemetry;
    const pods: Record<string, string> = { frontend: 'frontend-7c9d5b6f4-q8w2e', checkout: 'checkout-5d8f7c9b4-k2x7q', inventory: 'inventory-6c4d8b7f9-p3n8d' };
    const edge = (source: string, destination: string, rps: number, failing: (t: number) => number): void => {
      for (const reporter of ['source', 'destination']) {
        const labels = {
          job: 'mesh-proxy',
          namespace: 'shop',
          pod: pods[reporter === 'source' ? source : destination],
          reporter,
          source_workload: source,
          destination_workload: destination,
          destination_service_name: destination,
        };
        const load = (t: number): number => rps * c.wave(t);
        tel.counter(MESH_REQUESTS, { ...labels, response_code: '200' }, (t) => load(t) * (1 - failing(t)), { initial: 1e6 });
        tel.counter(MESH_REQUESTS, { ...labels, response_code: '503' }, (t) => load(t) * failing(t), { initial: 10 });
      }
    };
    edge('frontend', 'checkout', 20, (t) => (t >= at + MINUTE ? 0.33 : 0.001));
    edge('checkout', 'inventory', 15, (t) => (t >= at ? 0.6 : 0.001));
    tel.gauge(PENDING, { job: 'inventory', namespace: 'shop', service: 'inventory' }, (t) => 200 + Math.floor((t - c.start) / 120));
    tel.gauge(SESSIONS, { job: 'checkout', namespace: 'shop', service: 'checkout' }, (t) => Math.round(50 + 10 * c.noise('sessions', t)));
    return c;
  },
  rule: declaredTypesRule,
  truth: { values: [['inventory']], series: new RegExp(MESH_REQUESTS) },
};

/** A HELP text longer than the tool keeps (it keeps 200 characters). */
export const LONG_HELP = `Bytes the cache holds, ${'counted per shard and summed over every shard of the cache, '.repeat(6)}end.`;

/**
 * The targets the staged data came from, as far as Prometheus' metadata is concerned: a tiny
 * exporter whose /metrics (Prometheus text format 0.0.4) declares the mesh's counter and
 * inventory's gauge with `# TYPE`, a histogram, and a gauge with a long HELP. It declares nothing
 * about checkout's sessions. Prometheus keeps metadata only for what it scrapes.
 */
export class DeclaringExporter {
  private constructor(private readonly server: Server) {}

  static async start(): Promise<DeclaringExporter> {
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' });
      res.end(
        [
          `# HELP ${MESH_REQUESTS} Requests the mesh's sidecars handled.`,
          `# TYPE ${MESH_REQUESTS} counter`,
          `${MESH_REQUESTS} 0`,
          `# HELP ${PENDING} Reservations waiting for stock.`,
          `# TYPE ${PENDING} gauge`,
          `${PENDING} 0`,
          '# HELP rpc_duration_seconds How long the calls took.',
          '# TYPE rpc_duration_seconds histogram',
          'rpc_duration_seconds_bucket{le="0.1"} 1',
          'rpc_duration_seconds_bucket{le="+Inf"} 2',
          'rpc_duration_seconds_sum 0.3',
          'rpc_duration_seconds_count 2',
          `# HELP cache_bytes ${LONG_HELP}`,
          '# TYPE cache_bytes gauge',
          'cache_bytes 1024',
          '',
        ].join('\n'),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return new DeclaringExporter(server);
  }

  get address(): string {
    return `127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
