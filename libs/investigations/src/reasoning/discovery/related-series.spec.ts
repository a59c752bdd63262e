import { describe, expect, it } from 'vitest';
import type { RecordedRun } from '../reasoner';
import { discoverMeasures, entitySubject, measureExpression, namespaceSubject, PrometheusReader } from './related-series';

const run = (ordinal: number, series: Array<Record<string, string>>): RecordedRun => ({
  ordinal,
  tool: 'prometheus.query',
  integrationId: 'p',
  arguments: {},
  purpose: '',
  hypothesisId: null,
  outcome: 'succeeded',
  summary: '',
  output: { series: series.map((metric) => ({ metric, value: [0, '1'] })) },
  truncated: false,
  error: null,
  window: null,
});

/** A Prometheus that answers the sample with one series per metric and the naming query with (metric, label) pairs. */
function reader(sample: Array<Record<string, string>>, naming: Array<[string, string]>): PrometheusReader & { queries: string[] } {
  const queries: string[] = [];
  const read = async (_tool: string, args: Record<string, unknown>): Promise<RecordedRun> => {
    const query = String(args.query);
    queries.push(query);
    return query.startsWith('topk')
      ? run(1, sample)
      : run(
          2,
          naming.map(([m, via]) => ({ __name__: m, via })),
        );
  };
  return Object.assign(read, { queries });
}

describe('discoverMeasures', () => {
  const sample: Array<Record<string, string>> = [
    {
      __name__: 'istio_requests_total',
      source_workload: 'frontend',
      destination_workload: 'checkout',
      destination_service_name: 'checkout',
      response_code: '200',
      pod: 'checkout-1',
    },
    { __name__: 'acme_queue_depth', service: 'checkout', pod: 'checkout-1' },
    { __name__: 'acme_build_info', service: 'checkout', version: '1' },
    { __name__: 'rpc_latency_seconds_bucket', app: 'checkout', le: '0.1' },
    { __name__: 'rpc_latency_seconds_count', app: 'checkout' },
  ];

  it('asks about every label the sample shows, and reads each metric once per side of a call, by outcome and peer', async () => {
    const read = reader(sample, [
      ['istio_requests_total', 'destination_workload'],
      ['istio_requests_total', 'destination_service_name'],
      ['istio_requests_total', 'pod'],
      ['istio_requests_total', 'source_workload'],
      ['acme_queue_depth', 'service'],
      ['acme_queue_depth', 'pod'],
      ['acme_build_info', 'service'],
      ['rpc_latency_seconds_bucket', 'app'],
      ['rpc_latency_seconds_count', 'app'],
    ]);
    const entity = { name: 'checkout', names: ['checkout'], pods: [], instances: [], nodes: [] };
    const { measures, runs } = await discoverMeasures(
      read,
      entitySubject(entity, { alertname: 'X', destination_workload: 'checkout', namespace: 'shop' }),
      '2026-11-26T10:00:00Z',
    );
    expect(runs).toHaveLength(2);
    expect(read.queries[0]).toBe('topk by (__name__) (1, {destination_workload="checkout"} or {namespace="shop"})');
    for (const label of ['source_workload', 'destination_workload', 'destination_service_name', 'pod', 'service', 'app', 'version'])
      expect(read.queries[1]).toContain(`"via", "${label}"`);
    expect(read.queries[1]).not.toContain('"via", "le"');
    expect(read.queries[1]).not.toContain('"via", "response_code"');
    expect(measures.map((m) => [m.metric, m.label, m.peerLabel, m.outcomeLabel, m.meaning.kind])).toEqual([
      // Calls first: the entity's own calls to its peers, then its own requests (the symptom's side).
      ['istio_requests_total', 'source_workload', 'destination_workload', 'response_code', 'errors'],
      ['istio_requests_total', 'destination_workload', undefined, 'response_code', 'errors'],
      ['rpc_latency_seconds_bucket', 'app', undefined, undefined, 'latency'],
      ['acme_queue_depth', 'service', undefined, undefined, 'saturation'],
    ]);
  });

  it('reads a metric as its targets declared it, asking only about the metrics it may read; the name and shape where none is declared', async () => {
    const sample2: Array<Record<string, string>> = [
      { __name__: 'nginx_ingress_controller_requests', ingress: 'checkout', status: '200' },
      { __name__: 'acme_pending_jobs_total', service: 'checkout' },
      { __name__: 'acme_active_sessions_total', service: 'checkout' },
      { __name__: 'acme_calls_total', service: 'checkout' },
      { __name__: 'acme_build_info', service: 'checkout', version: '1' },
    ];
    const read = async (_tool: string, args: Record<string, unknown>): Promise<RecordedRun> => {
      const query = String(args.query);
      if (query.startsWith('topk')) return run(1, sample2);
      const naming = run(2, [
        ...sample2.map((s) => ({ __name__: s.__name__, via: s.ingress ? 'ingress' : 'service' })),
        // acme_active_sessions_total falls like a gauge.
        { falls: 'acme_active_sessions_total' },
      ]);
      (naming.output as { series: Array<{ value: [number, string] }> }).series.at(-1)!.value = [0, '0.9'];
      return naming;
    };
    const asked: string[][] = [];
    const declared = async ({ metrics }: { metrics: string[] }) => {
      asked.push(metrics);
      return {
        types: new Map([
          ['nginx_ingress_controller_requests', 'counter' as const],
          ['acme_pending_jobs_total', 'gauge' as const],
          ['acme_calls_total', 'unknown' as const],
        ]),
        runs: [run(3, [])],
      };
    };
    const entity = { name: 'checkout', names: ['checkout'], pods: [], instances: [], nodes: [] };
    const subject = entitySubject(entity, { alertname: 'X', service: 'checkout' });
    const { measures, runs } = await discoverMeasures(read, subject, '2026-11-26T10:00:00Z', undefined, declared);
    // The read of the types is cited with the discovery's.
    expect(runs.map((r) => r.ordinal)).toEqual([1, 2, 3]);
    // One question, about the metrics a read could take (no build series).
    expect(asked).toHaveLength(1);
    expect([...asked[0]].sort()).toEqual(['acme_active_sessions_total', 'acme_calls_total', 'acme_pending_jobs_total', 'nginx_ingress_controller_requests']);
    const expressions = Object.fromEntries(measures.map((m) => [m.metric, measureExpression(m, { pattern: 'checkout' })]));
    expect(expressions).toEqual({
      // A counter without _total: a failure ratio of its rate, by outcome.
      nginx_ingress_controller_requests: 'sum by (ingress, status) (rate(nginx_ingress_controller_requests{ingress=~"checkout"}[2m]))',
      // A gauge named _total: a level.
      acme_pending_jobs_total: 'max by (service) (acme_pending_jobs_total{service=~"checkout"})',
      // Declared unknown: its name's counter; nothing declared and falling: its shape's gauge.
      acme_calls_total: 'sum by (service) (rate(acme_calls_total{service=~"checkout"}[2m]))',
      acme_active_sessions_total: 'max by (service) (acme_active_sessions_total{service=~"checkout"})',
    });

    // Without declared types, the names and the shape alone.
    const plain = await discoverMeasures(read, subject, '2026-11-26T10:00:00Z');
    const byName = Object.fromEntries(plain.measures.map((m) => [m.metric, measureExpression(m, { pattern: 'checkout' })]));
    expect(byName.nginx_ingress_controller_requests).toBe('max by (ingress) (nginx_ingress_controller_requests{ingress=~"checkout"})');
    expect(byName.acme_pending_jobs_total).toBe('sum by (service) (rate(acme_pending_jobs_total{service=~"checkout"}[2m]))');
    expect(byName.acme_active_sessions_total).toBe(expressions.acme_active_sessions_total);
  });

  it('writes a rate, a failure ratio by outcome, a p90 or a gauge per measure', () => {
    const p = { pattern: '(?i)checkout' };
    const meaning = { counter: true, distribution: null, worse: 'up' as const, kind: 'errors' as const };
    expect(measureExpression({ metric: 'm_total', label: 'job', peerLabel: 'peer', outcomeLabel: 'code', meaning }, p)).toBe(
      'sum by (job, peer, code) (rate(m_total{job=~"(?i)checkout"}[2m]))',
    );
    expect(measureExpression({ metric: 'h_bucket', label: 'app', meaning: { ...meaning, kind: 'latency', distribution: 'histogram' } }, p)).toBe(
      'histogram_quantile(0.9, sum by (le, app) (rate(h_bucket{app=~"(?i)checkout"}[2m])))',
    );
    expect(measureExpression({ metric: 'up', label: 'job', meaning: { ...meaning, counter: false, kind: 'availability', worse: 'down' } }, p)).toBe(
      'min by (job) (up{job=~"(?i)checkout"})',
    );
    // A whole namespace's: any value, within the namespace; a summary at its upper quantiles.
    expect(
      measureExpression(
        {
          metric: 'rpc_seconds',
          label: 'service',
          quantile: '0.9|0.95|0.5',
          meaning: { ...meaning, counter: false, kind: 'latency', distribution: 'summary' },
        },
        namespaceSubject('shop'),
      ),
    ).toBe('max by (service) (rpc_seconds{service=~".+", namespace="shop", quantile=~"0\\\\.9|0\\\\.95|0\\\\.5"})');
  });
});
