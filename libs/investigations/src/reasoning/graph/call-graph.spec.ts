import { Timestamp } from '@svc/platform';
import { describe, expect, it } from 'vitest';
import { onset, scripted, Series, source, T } from '../../../../../test/support/scripted-prometheus';
import { prometheusReader } from '../discovery/related-series';
import { callPath, discoverCalls, readCallGraph, serviceNamed } from './call-graph';

/** A reader of a scripted Prometheus that answers each query with what `answer` gives for it, and the queries it was asked. */
function reader(answer: (query: string) => Series[]) {
  const session = scripted(answer);
  return Object.assign(prometheusReader(session, source), { queries: () => session.runs.map((r) => String(r.arguments.query)) });
}

const pairs = (found: Array<[string, string]>): Series[] => found.map(([name, pair]) => ({ metric: { __name__: name, pair }, values: [] }));
const points = (v: number): Array<[string, string]> => [28, 29, 30, 31].map((m) => [T(m), String(v)]);

const entity = { name: 'checkout', names: ['checkout'], namespace: 'shop', pods: [], instances: [], nodes: [] };

describe('discoverCalls', () => {
  it('keeps the latency metrics that pair a caller and a callee, a side named by the metric only beside the other side', async () => {
    const read = reader(() =>
      pairs([
        ['traces_service_graph_request_client_seconds_bucket', 'client,server'],
        ['traces_service_graph_request_server_seconds_bucket', 'client,server'],
        ['traces_service_graph_request_total', 'client,server'],
        ['istio_request_duration_milliseconds_bucket', 'source_workload,destination_workload'],
        ['istio_requests_total', 'source_workload,destination_workload'],
        ['acme_rpc_client_seconds_sum', 'source_service,destination_service'],
      ]),
    );
    const { latencies } = await discoverCalls(read, T(31), entity);
    expect(latencies).toEqual([
      { metric: 'traces_service_graph_request_client_seconds', caller: 'client', callee: 'server', side: 'client' },
      { metric: 'traces_service_graph_request_server_seconds', caller: 'client', callee: 'server', side: 'server' },
      { metric: 'istio_request_duration_milliseconds', caller: 'source_workload', callee: 'destination_workload', side: undefined },
    ]);
    // One read over every known pair of labels, whatever the metrics are called.
    expect(read.queries()).toHaveLength(1);
    expect(read.queries()[0]).toContain('count by (__name__) ({client!="", server!=""})');
    expect(read.queries()[0]).toContain('count by (__name__) ({source_workload!="", destination_workload!=""})');
  });

  it("pairs callers and callees from any metric of a known pair, from client metrics naming their peer, and finds the alerting pods' nodes", async () => {
    const read = reader((): Series[] => [
      { metric: { edges: 'source_workload,destination_workload', source_workload: 'checkout', destination_workload: 'inventory' }, values: [] },
      { metric: { edges: 'source_workload,destination_workload', source_workload: 'inventory', destination_workload: 'inventory' }, values: [] },
      { metric: { edges: 'peer', job: 'shop/inventory', service_name: 'inventory', peer: 'http://stockdb.shop.svc.cluster.local:5432' }, values: [] },
      { metric: { edges: 'peer', job: 'payments', server_address: 'api.partner-bank.example:443' }, values: [] },
      { metric: { edges: 'node', node: 'ip-10-0-1-7' }, values: [] },
    ]);
    const { pairs: found, nodes } = await discoverCalls(read, T(31), entity);
    expect(found).toEqual([
      { caller: 'checkout', callee: 'inventory' },
      { caller: 'inventory', callee: 'stockdb' },
      { caller: 'payments', callee: 'api.partner-bank.example' },
    ]);
    expect(nodes).toEqual(['ip-10-0-1-7']);
    // The pods of the alerting service, in its namespace, for their nodes.
    expect(read.queries()[0]).toContain('kube_pod_info{namespace="shop", pod=~"(checkout)-.+"}');
  });
});

describe('serviceNamed', () => {
  it("reads a service's name from a caller's or peer's label", () => {
    expect(serviceNamed('inventory')).toBe('inventory');
    expect(serviceNamed('inventory:8080')).toBe('inventory');
    expect(serviceNamed('inventory.shop.svc.cluster.local:8080')).toBe('inventory');
    expect(serviceNamed('https://api.partner-bank.example/health')).toBe('api.partner-bank.example');
    expect(serviceNamed('shop/checkout')).toBe('checkout');
  });
});

describe('readCallGraph', () => {
  it('reads both sides of every edge of a service graph in one range query, in seconds', async () => {
    const read = reader(() => [
      { metric: { client: 'basic', server: 'route', side: 'client' }, values: points(1.8) },
      { metric: { client: 'basic', server: 'route', side: 'server' }, values: points(0.015) },
      { metric: { client: 'basic', server: 'station', side: 'client' }, values: points(0.004) },
    ]);
    const graph = await readCallGraph(
      read,
      [
        { metric: 'traces_service_graph_request_client_seconds', caller: 'client', callee: 'server', side: 'client' },
        { metric: 'traces_service_graph_request_server_seconds', caller: 'client', callee: 'server', side: 'server' },
      ],
      onset,
      Timestamp.parse(T(40))!,
    );
    expect(read.queries()).toEqual([
      'label_replace(sum by (client, server) (rate(traces_service_graph_request_client_seconds_sum[2m])) / sum by (client, server) (rate(traces_service_graph_request_client_seconds_count[2m])), "side", "client", "", "") or label_replace(sum by (client, server) (rate(traces_service_graph_request_server_seconds_sum[2m])) / sum by (client, server) (rate(traces_service_graph_request_server_seconds_count[2m])), "side", "server", "", "")',
    ]);
    // An edge with one side only is left out: its loss cannot be told.
    expect(graph?.edges.map((e) => [e.caller, e.callee, e.client.get(onset.epochMicros), e.server.get(onset.epochMicros)])).toEqual([
      ['basic', 'route', 1.8, 0.015],
    ]);
  });

  it("reads a mesh's sides from its reporter label, in the metric's unit", async () => {
    const read = reader(() => [
      { metric: { source_workload: 'checkout', destination_workload: 'inventory', reporter: 'source' }, values: points(900) },
      { metric: { source_workload: 'checkout', destination_workload: 'inventory', reporter: 'destination' }, values: points(40) },
    ]);
    const graph = await readCallGraph(
      read,
      [{ metric: 'istio_request_duration_milliseconds', caller: 'source_workload', callee: 'destination_workload' }],
      onset,
      Timestamp.parse(T(40))!,
    );
    expect(read.queries()[0]).toBe(
      'sum by (source_workload, destination_workload, reporter) (rate(istio_request_duration_milliseconds_sum[2m])) / sum by (source_workload, destination_workload, reporter) (rate(istio_request_duration_milliseconds_count[2m]))',
    );
    expect(graph?.edges[0].client.get(onset.epochMicros)).toBeCloseTo(0.9);
    expect(graph?.edges[0].server.get(onset.epochMicros)).toBeCloseTo(0.04);
  });
});

describe('callPath', () => {
  const pairs = [
    { caller: 'frontend', callee: 'checkout' },
    { caller: 'checkout', callee: 'payments' },
    { caller: 'payments', callee: 'partner-bank' },
    { caller: 'checkout', callee: 'inventory' },
  ];

  it('finds the shortest chain of calls from one service to another, both ends included', () => {
    expect(callPath(pairs, 'checkout', 'inventory')).toEqual(['checkout', 'inventory']);
    expect(callPath(pairs, 'frontend', 'partner-bank')).toEqual(['frontend', 'checkout', 'payments', 'partner-bank']);
  });

  it('follows calls one way only, and finds none between services that do not call each other', () => {
    expect(callPath(pairs, 'partner-bank', 'checkout')).toBeNull();
    expect(callPath(pairs, 'inventory', 'payments')).toBeNull();
  });
});
