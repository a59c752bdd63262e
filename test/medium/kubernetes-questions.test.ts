import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BuiltInReasoner, checkConclusion } from '@svc/investigations/engine';
import { DerivedAlert, deriveAlerts, stagePrometheus, StagedPrometheus } from '../../eval/harness';
import type { Scenario } from '../../eval/scenarios';
import { CHECKOUT_ERROR_RULE, shopWithCheckoutFailing } from '../support/checkout-errors';
import { directSession } from '../support/direct-session';
import { READER_RULES, shopCluster } from '../support/kubernetes-scenario';
import { KubernetesStandIn } from '../support/kubernetes-stand-in';

const MINUTE = 60;
const TOKEN = 'reader';

/** checkout fails a tenth of its requests for the last 12 minutes: its pods crash-loop after an OOM kill (the cluster shows it). */
const scenario: Scenario = {
  name: 'checkout-errors-while-its-pod-crash-loops',
  family: 'configuration',
  story: 'A checkout pod ran out of memory and crash-loops; the orders it would have served fail.',
  redHerrings: [],
  seed: 151,
  build(end) {
    return shopWithCheckoutFailing(end, this.seed, 12);
  },
  rule: CHECKOUT_ERROR_RULE,
  truth: { values: [['checkout']], series: /./ },
};

/**
 * Conversation questions about what the cluster says, answered by the built-in reasoner from a
 * real Prometheus and the Kubernetes API stand-in (through the tool catalog and
 * @kubernetes/client-node): why a pod crashed, what events there are.
 */
describe('questions about the cluster, answered from the Kubernetes API', () => {
  let staged: StagedPrometheus | undefined;
  let k8s: KubernetesStandIn | undefined;
  let page: DerivedAlert;

  beforeAll(async () => {
    staged = await stagePrometheus(scenario);
    const alerts = await deriveAlerts(staged.prometheus.url, CHECKOUT_ERROR_RULE, staged.start, staged.end);
    expect(alerts).toHaveLength(1);
    page = alerts[0];
    k8s = await KubernetesStandIn.start({ accounts: { [TOKEN]: { user: 'system:serviceaccount:observability:svc-reader', rules: READER_RULES } } });
    shopCluster(k8s, new Date((staged.end - 12 * MINUTE) * 1000));
  }, 120_000);

  afterAll(async () => {
    await staged?.stop();
    await k8s?.stop();
  });

  const ask = async (message: string, withCluster = true) => {
    const session = directSession(
      staged!.prometheus.url,
      page,
      [],
      undefined,
      { message },
      undefined,
      withCluster ? { url: k8s!.url, token: TOKEN } : undefined,
    );
    const answered = checkConclusion(await new BuiltInReasoner().investigate(session), session.investigationId, session.runs);
    return { answered, runs: session.runs };
  };

  it('answers why it crashed: the pod in trouble, its OOM kill and restarts, its warnings, and the last line before it ended', async () => {
    const { answered, runs } = await ask('why did checkout crash?');
    expect(answered.conclusionStatus).toBe('answer_only');
    // The subject is matched against the metrics' label values first; then the cluster is read.
    expect(runs.filter((r) => r.tool.startsWith('kubernetes.')).map((r) => [r.tool, r.outcome])).toEqual([
      ['kubernetes.pod_status', 'succeeded'],
      ['kubernetes.events', 'succeeded'],
      ['kubernetes.container_logs', 'succeeded'],
    ]);
    expect(answered.summary).toMatch(
      /^1 of the 2 pod\(s\) of checkout in shop are in trouble: checkout-5b6c4d-x7k2p: app waiting \(CrashLoopBackOff\), last terminated OOMKilled \(exit code 137\) at \S+ UTC, 4 restart\(s\) \[#\d+\]/,
    );
    expect(answered.summary).toContain('| pod | phase | ready | restarts | state | last termination |');
    expect(answered.summary).toContain('2 warning event(s) of checkout-5b6c4d-x7k2p and its owners: BackOff ×9');
    expect(answered.summary).toContain('Readiness probe failed: HTTP probe failed with statuscode: 503');
    expect(answered.summary).toContain('before it ended (OOMKilled): `java.lang.OutOfMemoryError: Java heap space`');
    const logs = runs.find((r) => r.tool === 'kubernetes.container_logs')!;
    expect(logs.arguments).toMatchObject({ namespace: 'shop', pod: 'checkout-5b6c4d-x7k2p', container: 'app', previous: true });
    expect(answered.findings.every((f) => f.runRefs.length > 0)).toBe(true);
  }, 60_000);

  it('lists the events of the pod in most trouble and its owners; without a cluster the question is investigated as before', async () => {
    const { answered } = await ask('what events are there?');
    expect(answered.summary).toContain('| type | reason | object | count | last | message |');
    expect(answered.summary).toMatch(/\| Normal \| ScalingReplicaSet \| Deployment\/checkout \| 1 \|/);

    const without = await ask('why did checkout crash?', false);
    expect(without.runs.some((r) => r.tool.startsWith('kubernetes.'))).toBe(false);
    expect(without.answered.summary).not.toContain('pod(s) of checkout');
  }, 60_000);
});
