import { describe, expect, it } from 'vitest';
import { Timestamp } from '@svc/platform';
import { CauseDetectors, detectionScopeOf, failedCall, mentions, podMatchersOf, workloadOfPod } from './cause-detectors';
import type { InvestigationSession, RecordedRun, SourceBrief } from './reasoner';

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

  it('counts a series without an outcome as calls, not failures', () => {
    expect(failedCall({ peer: 'payments' })).toBe(false);
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

const T = (minute: number): string => new Date(Date.UTC(2026, 10, 22, 2, minute, 0)).toISOString();
/** One value a minute from `from` to `to`: `usual` before `change`, `then` from it. */
const level = (from: number, to: number, change: number, usual: number, then: number): Array<[string, string]> =>
  Array.from({ length: to - from + 1 }, (_, i) => [T(from + i), String(from + i < change ? usual : then)]);
type Series = { metric: Record<string, string>; values: Array<[string, string]> };

/**
 * A session whose Prometheus answers range queries from a script: `answer(query)` gives the series
 * (none when it returns undefined), with the range's start and a one-minute step as Prometheus'
 * tool reports them. The window is 02:00 to 02:45; the onset is at 02:30.
 */
function scripted(answer: (query: string) => Series[] | undefined): InvestigationSession & { runs: RecordedRun[] } {
  const runs: RecordedRun[] = [];
  return {
    investigationId: '0190a000-0000-7000-8000-000000000002',
    subject: 'What caused it?',
    window: { from: Timestamp.parse(T(0))!, until: Timestamp.parse(T(45))! },
    conversation: null,
    incident: null,
    alerts: [],
    sources: [{ integrationId: 'p', type: 'prometheus', name: 'Prometheus', rank: 1, reason: '' }],
    tools: [],
    budgets: { toolRuns: 40, reasonerTurns: 12, wallClockSeconds: 300, stagnationTurns: 3, contextTokens: 100_000 },
    signal: new AbortController().signal,
    runs,
    beginTurn: () => undefined,
    recordUsage: async () => undefined,
    progress: async () => undefined,
    updateHypotheses: async () => undefined,
    runTool: async (call) => {
      const query = String(call.arguments.query ?? '');
      const run: RecordedRun = {
        ordinal: runs.length + 1,
        tool: call.tool,
        integrationId: call.integrationId,
        arguments: call.arguments,
        purpose: call.purpose,
        hypothesisId: call.hypothesisId ?? null,
        outcome: 'succeeded',
        summary: '',
        output: { start: call.arguments.start, stepSeconds: 60, series: answer(query) ?? [] },
        truncated: false,
        error: null,
        window: null,
      };
      runs.push(run);
      return run;
    },
  };
}

const source: SourceBrief = { integrationId: 'p', type: 'prometheus', name: 'Prometheus', rank: 1, reason: '' };
const onset = Timestamp.parse(T(30))!;

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

describe('liveness restarts', () => {
  const pod = { namespace: 'shop', pod: 'api-7d9f8c6b5-q2w3e', container: 'api' };
  const scope = detectionScopeOf([{ namespace: 'shop', pod: pod.pod, job: 'kube-state-metrics' }], onset, false);
  const probes = (failedFrom: number | null): Series[] => [
    { metric: { ...pod, result: 'successful' }, values: level(0, 32, failedFrom ?? 99, 6, 0) },
    ...(failedFrom === null ? [] : [{ metric: { ...pod, result: 'failed' }, values: level(failedFrom, 32, failedFrom, 6, 6) }]),
    { metric: pod, values: level(0, 32, 27, 0, 1) },
  ];
  const liveness = (series: Series[], extra: (q: string) => Series[] | undefined = () => undefined) =>
    scripted((q) => (q.startsWith('sum by (namespace, pod, container, result) (increase(prober_probe_total{') ? series : extra(q)));

  it("explains restarts that follow failing liveness probes, and says the probe's own cause is unknown", async () => {
    const session = liveness(probes(26));
    const found = await new CauseDetectors(session, source, scope).detect();
    const cause = found.find((d) => d.id === 'h-liveness')!;
    expect(cause.statement).toBe(
      "Failing liveness probes of api from 2026-11-22T02:26:00.000000Z, which got its containers restarted, caused the alert's condition",
    );
    expect(cause.restartedPods).toEqual([pod.pod]);
    expect(cause.mechanism).toContain('the kubelet restarted their containers after (first at 2026-11-22T02:27:00.000000Z)');
    expect(cause.unexplained).toEqual([expect.stringMatching(/^why the liveness probe of api failed/)]);
    expect(session.runs.find((r) => r.ordinal === cause.mechanismRuns[0])?.arguments.query).toContain('probe_type="Liveness"');
  });

  it('continues the chain to a cause found on the workload before the probe failed', async () => {
    const session = liveness(probes(26), (q) =>
      q.startsWith('max(sum by (namespace, pod) (increase(container_cpu_cfs_throttled_periods_total{')
        ? [{ metric: {}, values: level(5, 32, 24, 0.01, 0.6) }]
        : undefined,
    );
    const found = await new CauseDetectors(session, source, scope).detect();
    expect(found.map((d) => d.id)).toEqual(['h-liveness']);
    expect(found[0].statement).toMatch(
      /^CPU throttling of api from 2026-11-22T02:24:00\.000000Z, which failed the liveness probes of api from 2026-11-22T02:26:00\.000000Z/,
    );
    expect(found[0].at.toISOString()).toBe('2026-11-22T02:24:00.000000Z');
    expect(found[0].unexplained).toEqual([expect.stringMatching(/^why api was throttled/)]);
  });

  it('finds nothing without the probe metric, with probes that never failed, or failing since before the range', async () => {
    for (const series of [
      [],
      probes(null),
      [
        { metric: { ...pod, result: 'failed' }, values: level(0, 32, 0, 6, 6) },
        { metric: pod, values: level(0, 32, 27, 0, 1) },
      ],
    ]) {
      const found = await new CauseDetectors(liveness(series), source, scope).detect();
      expect(found.filter((d) => d.id === 'h-liveness')).toEqual([]);
    }
  });

  it('needs the restarts to follow the failures', async () => {
    // Restarted between minutes 20 and 24, before the probe failed (and not after).
    const before = level(0, 32, 20, 0, 1).map(([t, v], i) => [t, i > 24 ? '0' : v] as [string, string]);
    const series = probes(26).map((s) => (s.metric.result ? s : { ...s, values: before }));
    const found = await new CauseDetectors(liveness(series), source, scope).detect();
    expect(found).toEqual([]);
  });
});

describe('noisy neighbours', () => {
  const scope = detectionScopeOf([{ namespace: 'shop', job: 'api' }], onset, true);
  const info: Series[] = [
    { metric: { namespace: 'shop', pod: 'api-7d9f8c6b5-aaaaa', node: 'node-a', host_ip: '10.0.0.1' }, values: level(10, 32, 0, 1, 1) },
    { metric: { namespace: 'shop', pod: 'api-7d9f8c6b5-bbbbb', node: 'node-b', host_ip: '10.0.0.2' }, values: level(10, 32, 0, 1, 1) },
  ];
  const neighbours = (nodeA: Array<[string, string]>, podB: Array<[string, string]>) =>
    scripted((q) => {
      if (q.startsWith('max by (node, host_ip, pod, namespace) (kube_pod_info{')) return info;
      if (q.startsWith('kube_node_status_condition{'))
        return [
          { metric: { instance: '10.0.0.1:9100' }, values: nodeA },
          { metric: { node: 'node-b', instance: '10.0.0.2:9100' }, values: level(10, 32, 0, 0.3, 0.3) },
          { metric: { node: 'node-c', instance: '10.0.0.3:9100' }, values: level(10, 32, 27, 0.3, 0.97) },
          { metric: { namespace: 'batch', pod: 'transcode-5d9c7b8f4-x2x7q', node: 'node-a', host_ip: '10.0.0.1' }, values: level(27, 32, 27, 3.5, 3.5) },
          { metric: { namespace: 'batch', pod: 'resizer-5d9c7b8f4-p0p0p', node: 'node-c', host_ip: '10.0.0.3' }, values: level(26, 32, 26, 3.6, 3.6) },
        ];
      if (q.startsWith('histogram_quantile(0.99, sum by (pod, le)'))
        return [
          { metric: { pod: 'api-7d9f8c6b5-aaaaa', node: 'node-a' }, values: level(10, 32, 28, 0.1, 0.8) },
          { metric: { pod: 'api-7d9f8c6b5-bbbbb', node: 'node-b' }, values: podB },
        ];
      return undefined;
    });

  it("names a pod whose burst ran its node's CPU out, verified by the condition on the alert's pods on that node only", async () => {
    const session = neighbours(level(10, 32, 27, 0.4, 0.97), level(10, 32, 0, 0.1, 0.1));
    const found = await new CauseDetectors(session, source, scope).detect();
    const [cause, other] = found;
    expect(cause.id).toBe('h-noisy-neighbour');
    expect(cause.statement).toBe(
      "transcode-5d9c7b8f4-x2x7q (transcode), whose CPU use burst to 3.5 cores on node node-a from 2026-11-22T02:27:00.000000Z, starved api of CPU and caused the alert's condition",
    );
    expect(cause.refuted).toBeUndefined();
    expect(cause.unexplained).toEqual([]);
    expect(cause.mechanismRuns).toHaveLength(2);
    expect(cause.mechanism).toContain("node-a's CPU was 90% busy or more from 2026-11-22T02:27:00.000000Z (at most 40% before)");
    expect(cause.mechanism).toContain(
      "api's p99 latency rose on its pods on node-a (api-7d9f8c6b5-aaaaa) from 2026-11-22T02:28:00.000000Z, not on its pods on other nodes (api-7d9f8c6b5-bbbbb)",
    );
    expect(other.id).toBe('h-noisy-neighbour-2');
    expect(other.refuted?.because).toBe('no pod of api that the alert covers runs on node-c: they run on node-a, node-b');
  });

  it('rules out a burst on a node with CPU to spare, and one while the pods elsewhere show the condition too', async () => {
    const spare = await new CauseDetectors(neighbours(level(10, 32, 27, 0.4, 0.7), level(10, 32, 0, 0.1, 0.1)), source, scope).detect();
    expect(spare.find((d) => d.statement.startsWith('transcode'))?.refuted?.because).toBe('node-a had CPU to spare: it was at most 70% busy up to the onset');
    const everywhere = await new CauseDetectors(neighbours(level(10, 32, 27, 0.4, 0.97), level(10, 32, 28, 0.1, 0.8)), source, scope).detect();
    expect(everywhere.find((d) => d.statement.startsWith('transcode'))?.refuted?.because).toBe(
      "api's pods on other nodes show the condition too (api-7d9f8c6b5-bbbbb on node-b)",
    );
    expect(everywhere.every((d) => d.refuted)).toBe(true);
    const earlier = await new CauseDetectors(neighbours(level(10, 32, 20, 0.4, 0.97), level(10, 32, 0, 0.1, 0.1)), source, scope).detect();
    expect(earlier.find((d) => d.statement.startsWith('transcode'))?.refuted?.because).toBe(
      "node-a's CPU ran out at 2026-11-22T02:20:00.000000Z, before the burst",
    );
  });
});
