import { describe, expect, it } from 'vitest';
import { level, onset, scripted, Series, source } from '../../../../../test/support/scripted-prometheus';
import { detectionScopeOf } from './labels';
import { explainCauses } from './registry';

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
    const found = (await explainCauses(session, source, scope)).causes;
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
    const found = (await explainCauses(session, source, scope)).causes;
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
      const found = (await explainCauses(liveness(series), source, scope)).causes;
      expect(found.filter((d) => d.id === 'h-liveness')).toEqual([]);
    }
  });

  it('needs the restarts to follow the failures', async () => {
    // Restarted between minutes 20 and 24, before the probe failed (and not after).
    const before = level(0, 32, 20, 0, 1).map(([t, v], i) => [t, i > 24 ? '0' : v] as [string, string]);
    const series = probes(26).map((s) => (s.metric.result ? s : { ...s, values: before }));
    const found = (await explainCauses(liveness(series), source, scope)).causes;
    expect(found).toEqual([]);
  });
});
