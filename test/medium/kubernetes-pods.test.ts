import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedRun, SourceBrief, ToolCall } from '@svc/investigations';
import { DetectedCause, detectionScopeOf, explainCauses, Explainer, kubernetesPodsExplainer, kubernetesRolloutExplainer } from '@svc/investigations/engine';
import { DataSourceConnection, ToolCatalog } from '@svc/investigations/tools';
import { Timestamp } from '@svc/platform';
import { READER_RULES, shopCluster } from '../support/kubernetes-scenario';
import { KubernetesStandIn } from '../support/kubernetes-stand-in';
import { recordRun, sessionOf } from '../support/scripted-prometheus';

const K8S: SourceBrief = { integrationId: '0190a0b0-0000-7000-8000-0000000000b2', type: 'kubernetes', name: 'cluster' } as SourceBrief;
const END = new Date(Math.floor(Date.now() / 60_000) * 60_000);
const ONSET = new Date(END.getTime() - 20 * 60_000);
const WINDOW = { from: Timestamp.fromDate(new Date(END.getTime() - 3_600_000)), until: Timestamp.fromDate(END) };
const at = (minutes: number) => new Date(ONSET.getTime() + minutes * 60_000);
const rfc3339 = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

/** A metrics explainer that already found the restarts of the OOM-killed pod. */
const restartsSeen: Explainer = {
  name: 'restarts seen in the metrics',
  reads: [],
  appliesTo: () => true,
  async explain(ctx) {
    const run = await ctx.session.runTool({ tool: 'incident.alert_events', integrationId: null, arguments: {}, purpose: 'stand-in for a metrics read' });
    const cause: DetectedCause = {
      id: 'h-crash-loop',
      statement: "The crash loop of checkout caused the alert's condition",
      at: Timestamp.fromDate(at(3)),
      run,
      mechanism: '',
      mechanismRuns: [],
      chainRuns: [],
      unexplained: [],
      restartedPods: ['checkout-5b6c4d-x7k2p'],
      action: { title: '', rationale: '', verification: '' },
    };
    return cause;
  },
};

/**
 * The explainer of pod states against the Kubernetes API stand-in (kube-apiserver's JSON, through
 * @kubernetes/client-node and the real tool catalog): a shop whose checkout pod was OOM-killed
 * three minutes after a rollout's onset, and a search pod that no node can take.
 */
describe('pod states from the Kubernetes API', () => {
  const catalog = new ToolCatalog();
  let k8s: KubernetesStandIn;

  beforeAll(async () => {
    k8s = await KubernetesStandIn.start({ accounts: { reader: { user: 'system:serviceaccount:observability:svc-reader', rules: READER_RULES } } });
    shopCluster(k8s, ONSET);
    k8s.add({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'search-6d5c7b-p2m4n', namespace: 'shop', labels: { app: 'search' }, creationTimestamp: rfc3339(at(-1)) },
      spec: { containers: [{ name: 'search', image: 'registry.example/search:4.1.0', resources: { requests: { cpu: '8', memory: '1Gi' } } }] },
      status: {
        phase: 'Pending',
        conditions: [
          {
            type: 'PodScheduled',
            status: 'False',
            reason: 'Unschedulable',
            message: '0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.',
            lastTransitionTime: rfc3339(at(0)),
          },
        ],
      },
    });
    // A reports pod the kubelet evicted a minute after the onset, and a cart pod whose readiness probe began failing then.
    k8s.add({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'reports-7c8d9e-k3j5h', namespace: 'shop', labels: { app: 'reports' }, creationTimestamp: rfc3339(at(-60)) },
      spec: { containers: [{ name: 'reports', image: 'registry.example/reports:1.2.0' }] },
      status: {
        phase: 'Failed',
        reason: 'Evicted',
        message: 'The node was low on resource: memory. Threshold quantity: 100Mi, available: 51200Ki.',
        conditions: [{ type: 'Ready', status: 'False', reason: 'PodFailed', lastTransitionTime: rfc3339(at(1)) }],
        containerStatuses: [],
      },
    });
    k8s.add({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'cart-5f6g7h-m2n3b', namespace: 'shop', labels: { app: 'cart' }, creationTimestamp: rfc3339(at(-60)) },
      spec: { containers: [{ name: 'cart', image: 'registry.example/cart:3.0.1' }] },
      status: {
        phase: 'Running',
        conditions: [{ type: 'Ready', status: 'False', reason: 'ContainersNotReady', lastTransitionTime: rfc3339(at(2)) }],
        containerStatuses: [
          {
            name: 'cart',
            image: 'registry.example/cart:3.0.1',
            imageID: 'x',
            ready: false,
            restartCount: 0,
            state: { running: { startedAt: rfc3339(at(-60)) } },
          },
        ],
      },
    });
    k8s.add({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'cart-5f6g7h-m2n3b.1', namespace: 'shop', creationTimestamp: rfc3339(at(2)) },
      involvedObject: { kind: 'Pod', name: 'cart-5f6g7h-m2n3b', namespace: 'shop', apiVersion: 'v1' },
      reason: 'Unhealthy',
      message: 'Readiness probe failed: Get "http://10.0.0.12:8080/ready": context deadline exceeded',
      type: 'Warning',
      count: 12,
      firstTimestamp: rfc3339(at(2)),
      lastTimestamp: rfc3339(at(9)),
      source: { component: 'kubelet' },
    });
  });
  afterAll(() => k8s?.stop());

  /** The explainers over the stand-in; `snapshot`: the incident's Kubernetes snapshot, read first (its reads' outputs as stored). */
  const explain = (alert: Record<string, string>, onset: Date, explainers: Explainer[] = [kubernetesPodsExplainer], snapshot?: unknown) => {
    const connection: DataSourceConnection = {
      integrationId: K8S.integrationId,
      type: 'kubernetes',
      baseUrl: k8s.url,
      headers: { authorization: 'Bearer reader' },
    };
    const run = async (call: ToolCall, runs: RecordedRun[]): Promise<RecordedRun> => {
      if (call.tool === 'incident.alert_events') return recordRun(runs, call, { alerts: [] }, 'the alerts');
      const result = await catalog.run(call.tool, call.arguments, { connection, window: WINDOW, signal: new AbortController().signal });
      return Object.assign(recordRun(runs, call, result.output, result.summary), { outcome: result.outcome, error: result.error ?? null });
    };
    const session = sessionOf(WINDOW, [K8S], run);
    if (snapshot)
      recordRun(session.runs, { tool: 'incident.kubernetes_snapshot', integrationId: null, arguments: {}, purpose: 'the snapshot' }, snapshot, 'taken');
    return explainCauses(session, null, detectionScopeOf([alert], Timestamp.fromDate(onset), false), explainers).then((found) => ({
      found,
      runs: session.runs,
    }));
  };
  const checkout = { alertname: 'CheckoutHighErrorRate', namespace: 'shop', service: 'checkout' };

  it("names a container OOM-killed at the onset with its exit code and its previous instance's last lines", async () => {
    const { found, runs } = await explain(checkout, at(3));
    expect(runs.map((r) => [r.tool, r.outcome])).toEqual([
      ['kubernetes.pod_status', 'succeeded'],
      ['kubernetes.container_logs', 'succeeded'],
    ]);
    expect(runs[0].arguments).toEqual({ namespace: 'shop', workload: { kind: 'Deployment', name: 'checkout' } });
    expect(runs[1].arguments).toMatchObject({ namespace: 'shop', pod: 'checkout-5b6c4d-x7k2p', container: 'app', previous: true });
    const [cause] = found.causes;
    expect(cause.id).toBe('h-k8s-terminated');
    expect(cause.statement).toBe(
      `The termination of container app of checkout (pod checkout-5b6c4d-x7k2p: OOMKilled, exit code 137) at ${Timestamp.fromDate(at(3)).toISOString()} caused the alert's condition`,
    );
    expect(cause.mechanism).toMatch(/4 restarts so far; its last lines: .*java\.lang\.OutOfMemoryError: Java heap space$/);
    expect(cause.mechanismRuns).toEqual([1, 2]);
    expect(cause.restartedPods).toEqual(['checkout-5b6c4d-x7k2p']);
    expect(cause.unexplained).toEqual(['why the memory use of app reached its limit']);
  });

  it('finds nothing in a termination long after the onset, and leaves a termination the metrics showed to them', async () => {
    const late = await explain(checkout, at(-30));
    expect(late.runs.map((r) => r.tool)).toEqual(['kubernetes.pod_status']);
    expect(late.found.causes).toEqual([]);

    const seen = await explain(checkout, at(3), [restartsSeen, kubernetesPodsExplainer]);
    expect(seen.found.causes.map((c) => c.id)).toEqual(['h-crash-loop']);
    expect(seen.runs.map((r) => r.tool)).not.toContain('kubernetes.container_logs');
  });

  it("names a pod no node can take, in the scheduler's words", async () => {
    const { found, runs } = await explain({ alertname: 'SearchPodNotReady', namespace: 'shop', pod: 'search-6d5c7b-p2m4n' }, at(1));
    expect(runs[0].arguments).toEqual({ namespace: 'shop', pod: 'search-6d5c7b-p2m4n' });
    const [cause] = found.causes;
    expect(cause.id).toBe('h-k8s-cannot-run');
    expect(cause.statement).toMatch(
      /^The pods of search not running from \S+: pod search-6d5c7b-p2m4n cannot be scheduled \(Unschedulable: 0\/3 nodes are available: 3 Insufficient cpu\./,
    );
    expect(cause.at.toISOString()).toBe(Timestamp.fromDate(at(0)).toISOString());
  });

  it('names the rollout of a new revision that began before the onset, with the images it changed, unless the metrics showed the new version', async () => {
    const { found, runs } = await explain(checkout, at(3), [kubernetesRolloutExplainer]);
    expect(runs.map((r) => [r.tool, r.outcome, r.arguments])).toEqual([
      ['kubernetes.rollout_history', 'succeeded', { namespace: 'shop', kind: 'Deployment', name: 'checkout' }],
    ]);
    const [cause] = found.causes;
    expect(cause).toMatchObject({ id: 'h-rollout', mechanismRuns: [1] });
    expect(cause.statement).toBe(
      `The rollout of checkout to revision 2 (app=registry.example/checkout:2.0.0) that began at ${Timestamp.fromDate(at(-10)).toISOString()} caused the alert's condition`,
    );
    expect(cause.mechanism).toContain('13 min before the condition began, replacing app=registry.example/checkout:1.9.3 (revision 1)');
    expect(cause.action.title).toBe('Roll checkout back to revision 1');

    // An onset long after the rollout: it did not start it.
    const late = await explain(checkout, at(45), [kubernetesRolloutExplainer]);
    expect(late.found.causes).toEqual([]);
    // A new version the metrics showed is stated from them: the API is not read.
    const version: Explainer = {
      ...restartsSeen,
      async explain(ctx) {
        const c = (await restartsSeen.explain(ctx, [])) as DetectedCause;
        return { ...c, id: 'h-version' };
      },
    };
    const seen = await explain(checkout, at(3), [version, kubernetesRolloutExplainer]);
    expect(seen.found.causes.map((c) => c.id)).toEqual(['h-version']);
    expect(seen.runs.map((r) => r.tool)).not.toContain('kubernetes.rollout_history');
  });

  it('names a pod the kubelet evicted near the onset, and a readiness probe that began failing then, in their own words', async () => {
    const evicted = await explain({ alertname: 'ReportsDown', namespace: 'shop', pod: 'reports-7c8d9e-k3j5h' }, at(1));
    const [eviction] = evicted.found.causes;
    expect(eviction.id).toBe('h-k8s-cannot-run');
    expect(eviction.statement).toBe(
      `The pods of reports not running from ${Timestamp.fromDate(at(1)).toISOString()}: pod reports-7c8d9e-k3j5h was evicted (The node was low on resource: memory. Threshold quantity: 100Mi, available: 51200Ki.), caused the alert's condition`,
    );
    expect(eviction.unexplained).toEqual(['what filled the node it ran on (another pod, or its own use above its requests)']);

    const unready = await explain({ alertname: 'CartErrors', namespace: 'shop', pod: 'cart-5f6g7h-m2n3b' }, at(3));
    expect(unready.runs.map((r) => [r.tool, r.arguments])).toEqual([
      ['kubernetes.pod_status', { namespace: 'shop', pod: 'cart-5f6g7h-m2n3b' }],
      ['kubernetes.events', { namespace: 'shop', kind: 'Pod', name: 'cart-5f6g7h-m2n3b', owners: false }],
    ]);
    const [probe] = unready.found.causes;
    expect(probe).toMatchObject({ id: 'h-k8s-probe', mechanismRuns: [1, 2] });
    expect(probe.statement).toBe(
      `The readiness probe of cart failing from ${Timestamp.fromDate(at(2)).toISOString()} (pod cart-5f6g7h-m2n3b) caused the alert's condition`,
    );
    expect(probe.mechanism).toContain('failing 12 times from');
    expect(probe.mechanism).toContain('context deadline exceeded');
    expect(probe.mechanism).toMatch(/the pod is taken out of its Service while it fails$/);

    // The same pod long before the probe began failing: nothing.
    const before = await explain({ alertname: 'CartErrors', namespace: 'shop', pod: 'cart-5f6g7h-m2n3b' }, at(-30));
    expect(before.found.causes).toEqual([]);
  });

  it('names a termination the snapshot saw when the incident opened, of a pod gone since, citing the snapshot', async () => {
    const gone = 'checkout-5b6c4d-gone1';
    const snapshot = {
      takenAt: rfc3339(at(4)),
      runs: [
        {
          tool: 'kubernetes.pod_status',
          arguments: { namespace: 'shop', pod: gone },
          outcome: 'succeeded',
          output: {
            pods: [
              {
                name: gone,
                phase: 'Running',
                restarts: 3,
                containers: [{ name: 'app', restartCount: 3, lastState: { terminated: { reason: 'OOMKilled', exitCode: 137, finishedAt: rfc3339(at(2)) } } }],
              },
            ],
          },
        },
      ],
    };
    const { found, runs } = await explain({ alertname: 'CheckoutDown', namespace: 'shop', pod: gone }, at(3), [kubernetesPodsExplainer], snapshot);
    // The pod is gone from the API: its read fails, and the snapshot (run 1) shows the termination.
    expect(runs.map((r) => [r.ordinal, r.tool, r.outcome])).toEqual([
      [1, 'incident.kubernetes_snapshot', 'succeeded'],
      [2, 'kubernetes.pod_status', 'failed'],
      [3, 'kubernetes.container_logs', 'failed'],
    ]);
    const [cause] = found.causes;
    expect(cause).toMatchObject({ id: 'h-k8s-terminated', mechanismRuns: [1] });
    expect(cause.run.ordinal).toBe(1);
    expect(cause.statement).toContain(`(pod ${gone}: OOMKilled, exit code 137) at ${Timestamp.fromDate(at(2)).toISOString()}`);
    expect(cause.mechanism).toMatch(/^The Kubernetes API reported when the incident opened \(the pod is gone since\) that the last instance of app/);

    // Without the snapshot, nothing is known of it.
    expect((await explain({ alertname: 'CheckoutDown', namespace: 'shop', pod: gone }, at(3))).found.causes).toEqual([]);
  });

  it('reads nothing without a Kubernetes integration', async () => {
    const session = sessionOf(WINDOW, [], () => {
      throw new Error('no run expected');
    });
    const found = await explainCauses(session, null, detectionScopeOf([checkout], Timestamp.fromDate(at(3)), false), [kubernetesPodsExplainer]);
    expect(found.causes).toEqual([]);
    expect(session.runs).toEqual([]);
  });
});
