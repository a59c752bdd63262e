import { describe, expect, it } from 'vitest';
import { failedOutcome, meaningOf } from './meaning';

const m = (name: string, labels: Record<string, string> = {}) => meaningOf({ __name__: name, ...labels });

describe('meaningOf', () => {
  it('reads request counters of every common convention as throughput, their histograms as latency', () => {
    for (const name of [
      'http_requests_total',
      'http_server_requests_seconds_count',
      'http_server_request_duration_seconds_count',
      'istio_requests_total',
      'request_total',
      'grpc_server_handled_total',
      'grpc_client_handled_total',
      'nginx_ingress_controller_requests',
    ])
      expect(m(name), name).toMatchObject({ kind: 'throughput', worse: 'either' });
    expect(m('http_requests_total').counter).toBe(true);
    for (const [name, unit] of [
      ['http_request_duration_seconds_bucket', 'seconds'],
      ['http_server_requests_seconds_bucket', 'seconds'],
      ['istio_request_duration_milliseconds_bucket', 'milliseconds'],
      ['response_latency_ms_bucket', 'milliseconds'],
      ['grpc_server_handling_seconds_bucket', 'seconds'],
      ['nginx_ingress_controller_request_duration_seconds_bucket', 'seconds'],
    ] as const)
      expect(m(name, { le: '0.5' }), name).toMatchObject({ kind: 'latency', distribution: 'histogram', unit, worse: 'up' });
    expect(m('http_server_requests_seconds', { quantile: '0.99' })).toMatchObject({ kind: 'latency', distribution: 'summary' });
  });

  it('reads resources against their limits as saturation, free space as worse when it falls', () => {
    expect(m('container_cpu_usage_seconds_total')).toMatchObject({ kind: 'saturation', resource: 'cpu', counter: true, worse: 'up' });
    expect(m('container_memory_working_set_bytes')).toMatchObject({ kind: 'saturation', resource: 'memory', unit: 'bytes' });
    expect(m('container_cpu_cfs_throttled_periods_total')).toMatchObject({ kind: 'saturation', resource: 'cpu' });
    expect(m('hikaricp_connections_active')).toMatchObject({ kind: 'saturation', resource: 'connections' });
    expect(m('go_sql_stats_connections_in_use')).toMatchObject({ kind: 'saturation', resource: 'connections' });
    expect(m('node_filesystem_avail_bytes')).toMatchObject({ kind: 'saturation', resource: 'disk', worse: 'down' });
    expect(m('nodejs_eventloop_lag_seconds')).toMatchObject({ kind: 'saturation', worse: 'up' });
  });

  it('reads targets, probes and replicas as availability, builds as identity, starts as restarts, error names as errors', () => {
    for (const name of ['up', 'redis_up', 'probe_success', 'kube_deployment_status_replicas_available'])
      expect(m(name), name).toMatchObject({ kind: 'availability', worse: 'down' });
    for (const name of ['app_build_info', 'kube_pod_info', 'kube_deployment_metadata_generation']) expect(m(name).kind, name).toBe('identity');
    for (const name of ['process_start_time_seconds', 'kube_pod_container_status_restarts_total']) expect(m(name).kind, name).toBe('restarts');
    for (const name of [
      'http_client_errors_total',
      'payment_failures_total',
      'db_query_timeouts_total',
      'node_network_receive_drop_total',
      'queue_messages_dropped_total',
    ])
      expect(m(name).kind, name).toBe('errors');
  });

  it("takes whether a series is a counter from the type its target declared, over its name's suffix", () => {
    // ingress-nginx's request counter has no _total; a cloud exporter's gauge may have one.
    expect(m('nginx_ingress_controller_requests').counter).toBe(false);
    expect(meaningOf({ __name__: 'nginx_ingress_controller_requests' }, 'counter')).toMatchObject({ kind: 'throughput', counter: true });
    expect(meaningOf({ __name__: 'acme_queue_messages_pending_total' }, 'gauge')).toMatchObject({ kind: 'saturation', counter: false, distribution: null });
    expect(meaningOf({ __name__: 'aws_lambda_duration_sum' }, 'gauge')).toMatchObject({ kind: 'latency', counter: false });
    // A histogram's series are cumulative; a summary's quantiles are levels, its sum and count are not.
    expect(meaningOf({ __name__: 'rpc_seconds_bucket', le: '0.1' }, 'histogram')).toMatchObject({ counter: true, distribution: 'histogram' });
    expect(meaningOf({ __name__: 'rpc_seconds', quantile: '0.9' }, 'summary')).toMatchObject({ counter: false, distribution: 'summary', kind: 'latency' });
    expect(meaningOf({ __name__: 'rpc_seconds_count' }, 'summary')).toMatchObject({ counter: true, distribution: null, kind: 'throughput' });
    expect(meaningOf({ __name__: 'acme_release' }, 'info').kind).toBe('identity');
    // Unknown, or nothing declared: the name decides.
    expect(meaningOf({ __name__: 'acme_widgets_total' }, 'unknown')).toEqual(m('acme_widgets_total'));
    expect(meaningOf({ __name__: 'acme_widgets_total' }, undefined)).toEqual(m('acme_widgets_total'));
  });

  it('gives a series of an unknown exporter a meaning from the words of its name', () => {
    expect(m('podserverlatencyp90')).toMatchObject({ kind: 'latency' });
    expect(m('acme_checkout_queue_depth')).toMatchObject({ kind: 'saturation', resource: 'queue' });
    expect(m('acme_widgets_total')).toMatchObject({ kind: 'other', counter: true });
  });
});

describe('failedOutcome', () => {
  it('reads failures from the outcome labels of HTTP, gRPC, meshes and client libraries', () => {
    expect(failedOutcome({ code: '503' })).toBe(true);
    expect(failedOutcome({ code: '404' })).toBe(false);
    expect(failedOutcome({ http_response_status_code: '500' })).toBe(true);
    expect(failedOutcome({ response_code: '200' })).toBe(false);
    expect(failedOutcome({ status: '5xx' })).toBe(true);
    expect(failedOutcome({ outcome: 'SERVER_ERROR' })).toBe(true);
    expect(failedOutcome({ outcome: 'SUCCESS' })).toBe(false);
    expect(failedOutcome({ classification: 'failure' })).toBe(true);
    expect(failedOutcome({ grpc_code: 'Unavailable' })).toBe(true);
    expect(failedOutcome({ grpc_code: 'OK' })).toBe(false);
    expect(failedOutcome({ grpc_code: 'NotFound' })).toBe(true);
    expect(failedOutcome({ error_type: 'connection_refused' })).toBe(true);
    expect(failedOutcome({ route: '/x' })).toBeUndefined();
  });
});
