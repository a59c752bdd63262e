import { describe, expect, it } from 'vitest';
import { level, onset, scripted, Series, source } from '../../../../../test/support/scripted-prometheus';
import { detectionScopeOf } from './labels';
import { explainCauses } from './registry';

describe('noisy neighbours', () => {
  const scope = detectionScopeOf([{ namespace: 'shop', job: 'api' }], onset, true);
  const info: Series[] = [
    { metric: { namespace: 'shop', pod: 'api-7d9f8c6b5-aaaaa', node: 'node-a', host_ip: '10.0.0.1' }, values: level(10, 32, 0, 1, 1) },
    { metric: { namespace: 'shop', pod: 'api-7d9f8c6b5-bbbbb', node: 'node-b', host_ip: '10.0.0.2' }, values: level(10, 32, 0, 1, 1) },
  ];
  const neighbours = (nodeA: Array<[string, string]>, podB: Array<[string, string]>) =>
    scripted((q) => {
      if (q.startsWith('(max by (namespace, pod, node, host_ip) (kube_pod_info{')) return info;
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
    const found = (await explainCauses(session, source, scope)).causes;
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
    const spare = (await explainCauses(neighbours(level(10, 32, 27, 0.4, 0.7), level(10, 32, 0, 0.1, 0.1)), source, scope)).causes;
    expect(spare.find((d) => d.statement.startsWith('transcode'))?.refuted?.because).toBe('node-a had CPU to spare: it was at most 70% busy up to the onset');
    const everywhere = (await explainCauses(neighbours(level(10, 32, 27, 0.4, 0.97), level(10, 32, 28, 0.1, 0.8)), source, scope)).causes;
    expect(everywhere.find((d) => d.statement.startsWith('transcode'))?.refuted?.because).toBe(
      "api's pods on other nodes show the condition too (api-7d9f8c6b5-bbbbb on node-b)",
    );
    expect(everywhere.every((d) => d.refuted)).toBe(true);
    const earlier = (await explainCauses(neighbours(level(10, 32, 20, 0.4, 0.97), level(10, 32, 0, 0.1, 0.1)), source, scope)).causes;
    expect(earlier.find((d) => d.statement.startsWith('transcode'))?.refuted?.because).toBe(
      "node-a's CPU ran out at 2026-11-22T02:20:00.000000Z, before the burst",
    );
  });
});
