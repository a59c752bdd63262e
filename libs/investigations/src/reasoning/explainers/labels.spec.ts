import { describe, expect, it } from 'vitest';
import { Timestamp } from '@svc/platform';
import { aboutLatency, detectionScopeOf, failedCall, mentions, peerOf, podMatchersOf, workloadOfPod } from './labels';

describe('mentions', () => {
  it('finds a name as a whole label value or between separators, in any case', () => {
    expect(mentions('inventory', 'inventory')).toBe(true);
    expect(mentions('http://inventory.shop.svc:8080/healthz', 'inventory')).toBe(true);
    expect(mentions('https://api.Partner-Bank.example/health', 'partner-bank')).toBe(true);
    expect(mentions('ordersdb:5432', 'ordersdb')).toBe(true);
  });

  it('does not take part of a longer name for the name', () => {
    expect(mentions('inventory-sync', 'inventory-s')).toBe(false);
    expect(mentions('ordersdb', 'orders')).toBe(false);
    expect(mentions('redis://sessions-redis.shop.svc:6379', 'redis.shop')).toBe(true);
    expect(mentions('anything', '')).toBe(false);
  });
});

describe('failedCall', () => {
  it('reads HTTP codes, gRPC codes and outcomes', () => {
    expect(failedCall({ code: '200' })).toBe(false);
    expect(failedCall({ code: '304' })).toBe(false);
    expect(failedCall({ code: '503' })).toBe(true);
    expect(failedCall({ code: 'connection_refused' })).toBe(true);
    expect(failedCall({ status: 'OK' })).toBe(false);
    expect(failedCall({ grpc_code: 'OK' })).toBe(false);
    expect(failedCall({ grpc_code: 'Unavailable' })).toBe(true);
    expect(failedCall({ outcome: 'SUCCESS' })).toBe(false);
    expect(failedCall({ outcome: 'SERVER_ERROR' })).toBe(true);
  });

  it("reads a mesh's response codes and Linkerd's classification", () => {
    expect(failedCall({ response_code: '503', reporter: 'source' })).toBe(true);
    expect(failedCall({ response_code: '200', reporter: 'source' })).toBe(false);
    expect(failedCall({ classification: 'failure' })).toBe(true);
    expect(failedCall({ classification: 'success' })).toBe(false);
  });

  it('counts a series without an outcome as calls, not failures', () => {
    expect(failedCall({ peer: 'payments' })).toBe(false);
  });
});

describe('aboutLatency', () => {
  it('takes buckets, quantiles and latency or duration metrics for latency', () => {
    expect(aboutLatency('histogram_quantile(0.99, sum by (le) (rate(http_server_requests_seconds_bucket[5m]))) > 0.5')).toBe(true);
    expect(aboutLatency('max(http_server_request_duration_seconds{quantile="0.9"}) > 2')).toBe(true);
    expect(aboutLatency('rate(checkout_latency_sum[5m]) / rate(checkout_latency_count[5m]) > 1')).toBe(true);
  });

  it("does not take a duration histogram's request count, read as an error ratio, for latency", () => {
    expect(
      aboutLatency(
        'sum(rate(http_request_duration_seconds_count{job="payments",status_code=~"5.."}[5m])) / sum(rate(http_request_duration_seconds_count{job="payments"}[5m])) > 0.05',
      ),
    ).toBe(false);
    expect(aboutLatency('sum(rate(http_requests_total{code=~"5.."}[5m])) / sum(rate(http_requests_total[5m])) > 0.05')).toBe(false);
  });
});

describe('peerOf', () => {
  it("names the peer from a client library's label before a mesh's", () => {
    expect(peerOf({ peer_service: 'payments', destination_workload: 'x' })).toBe('payments');
  });

  it("names an Istio destination by its service, an external host's workload being unknown", () => {
    expect(peerOf({ destination_service_name: 'payments', destination_workload: 'payments' })).toBe('payments');
    expect(peerOf({ destination_service_name: 'api.partner-bank.example', destination_workload: 'unknown' })).toBe('api.partner-bank.example');
    expect(peerOf({ destination_workload: 'inventory' })).toBe('inventory');
  });

  it('names a Linkerd destination by its deployment, else by its authority without the port', () => {
    expect(peerOf({ dst_deployment: 'payments', authority: 'payments.shop.svc.cluster.local:8080' })).toBe('payments');
    expect(peerOf({ authority: 'api.partner-bank.example:443' })).toBe('api.partner-bank.example');
  });

  it('names no peer when nothing labels one', () => {
    expect(peerOf({ job: 'checkout', destination_workload: 'unknown' })).toBeUndefined();
  });
});

describe('workloadOfPod', () => {
  it('names the Deployment of a ReplicaSet pod and the StatefulSet of an ordinal pod', () => {
    expect(workloadOfPod('cart-576c7bccc-bc67l')).toBe('cart');
    expect(workloadOfPod('orders-worker-6fb5cc5f8-rff78')).toBe('orders-worker');
    expect(workloadOfPod('rabbitmq-0')).toBe('rabbitmq');
    expect(workloadOfPod('standalone')).toBe('standalone');
  });
});

describe('podMatchersOf', () => {
  it('reads the pods of one workload when the alerts name several of its pods, never an exporter job as the workload', () => {
    const alerts = [
      { namespace: 'shop', pod: 'cart-576c7bccc-bc67l', job: 'kube-state-metrics' },
      { namespace: 'shop', pod: 'cart-576c7bccc-x9z2k', job: 'kube-state-metrics' },
    ];
    expect(podMatchersOf(alerts)).toBe('namespace="shop", pod=~"cart-.+"');
    expect(podMatchersOf([{ namespace: 'shop', job: 'kube-state-metrics' }])).toBe('');
    expect(podMatchersOf([{ namespace: 'shop', job: 'checkout' }])).toBe('namespace="shop", pod=~"checkout-.+"');
  });
});

describe('detectionScopeOf with the naming labels of other conventions', () => {
  const onset = Timestamp.parse('2026-11-26T10:00:00Z')!;

  it('takes the service a Spring, mesh or OpenTelemetry alert names for its job and pods when it carries no job', () => {
    expect(detectionScopeOf([{ alertname: 'A', namespace: 'shop', application: 'inventory' }], onset, false)).toMatchObject({
      job: 'inventory',
      workload: 'inventory',
      pods: 'namespace="shop", pod=~"inventory-.+"',
    });
    expect(detectionScopeOf([{ alertname: 'A', destination_workload: 'checkout' }], onset, true)).toMatchObject({
      job: 'checkout',
      pods: 'pod=~"checkout-.+"',
    });
  });

  it("keeps an exporter's job out of the scope, and the Kubernetes labels first", () => {
    const scope = detectionScopeOf([{ job: 'kube-state-metrics', namespace: 'shop', deployment: 'cart', application: 'other' }], onset, false);
    expect(scope.job).toBeUndefined();
    expect(scope.pods).toBe('namespace="shop", pod=~"cart-.+"');
  });
});
