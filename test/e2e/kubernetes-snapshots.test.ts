import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../support/api';
import { ensureBuilt } from '../support/dist';
import { useBootstrappedApi } from '../support/factories';
import { investigationEnded } from '../support/investigations';
import { READER_RULES, shopCluster } from '../support/kubernetes-scenario';
import { KubernetesStandIn } from '../support/kubernetes-stand-in';
import { until } from '../support/until';
import { startWorker, TestWorker } from '../support/worker';

const ACME = { headers: { 'x-svc-organization': 'acme' } };
const TOKEN = 'reader-token-for-snapshots';

/**
 * The Kubernetes snapshot of a new incident through the public API and the real worker with the
 * built-in reasoner, against the Kubernetes API stand-in: a shop whose checkout crash-loops after
 * an OOM kill. No Prometheus is connected: what the cluster showed when the incident opened is what
 * there is to say.
 */
describe('Kubernetes snapshots of new incidents', () => {
  const ctx = useBootstrappedApi();
  const onset = new Date(Math.floor(Date.now() / 60_000) * 60_000 - 20 * 60_000);
  let k8s: KubernetesStandIn;
  let worker: TestWorker;
  let webhook: { id: string; secret: string };

  const alert = async (labels: Record<string, string>): Promise<string> => {
    const delivered = await new Client(ctx.api.baseUrl).request('POST', `/webhooks/v1/integrations/${webhook.id}/alert-events`, {
      body: { alerts: [{ labels, startsAt: onset.toISOString() }] },
      headers: { 'x-svc-token': webhook.secret },
      origin: false,
    });
    expect(delivered.status).toBe(202);
    return delivered.body.incidentIds[0];
  };
  const snapshotOf = (incidentId: string) =>
    until(
      async () => {
        const read = await ctx.admin.get(`/api/v1/incidents/${incidentId}/kubernetes-snapshot`, ACME);
        return read.status === 200 && read.body.status === 'taken' && read.body;
      },
      30_000,
      'the snapshot of the new incident',
    );

  beforeAll(async () => {
    ensureBuilt();
    k8s = await KubernetesStandIn.start({ accounts: { [TOKEN]: { user: 'system:serviceaccount:observability:svc-reader', rules: READER_RULES } } });
    shopCluster(k8s, onset);
    worker = await startWorker();
    const generic = await ctx.admin.post('/api/v1/integrations', { type: 'generic', name: 'Shop alerts' }, ACME);
    webhook = { id: generic.body.id, secret: generic.body.webhookSecret };
    const cluster = await ctx.admin.post(
      '/api/v1/integrations',
      { type: 'kubernetes', name: 'Shop cluster', config: { server: k8s.url, namespaces: ['shop'] }, credentials: { bearerToken: TOKEN } },
      ACME,
    );
    expect(cluster.status, cluster.text).toBe(201);
  }, 120_000);

  afterAll(async () => {
    await worker?.close();
    await k8s?.stop();
  });

  it('states what the cluster showed when the incident opened, citing the snapshot: the crash loop, the OOM kill and the warnings', async () => {
    const incidentId = await alert({ alertname: 'CheckoutDown', namespace: 'shop', pod: 'checkout-5b6c4d-x7k2p' });
    const snapshot = await snapshotOf(incidentId);
    // A pod the alert names: its state and its events (with its ReplicaSet's and Deployment's).
    expect(snapshot.runs.map((r: any) => [r.tool, r.outcome, r.arguments])).toEqual([
      ['kubernetes.pod_status', 'succeeded', { namespace: 'shop', pod: 'checkout-5b6c4d-x7k2p' }],
      ['kubernetes.events', 'succeeded', { namespace: 'shop', kind: 'Pod', name: 'checkout-5b6c4d-x7k2p' }],
    ]);
    // The events its reads found, the earliest first: the Deployment scaled, then the pod's warnings.
    expect(snapshot.events.map((e: any) => [e.type, e.reason, e.object, e.count])).toEqual([
      ['Normal', 'ScalingReplicaSet', 'Deployment/checkout', 1],
      ['Warning', 'BackOff', 'Pod/checkout-5b6c4d-x7k2p', 9],
      ['Warning', 'Unhealthy', 'Pod/checkout-5b6c4d-x7k2p', 14],
    ]);

    const opened = await ctx.admin.post('/api/v1/investigations', { incidentId }, ACME);
    expect(opened.status).toBe(201);
    const done = await investigationEnded(ctx.admin, opened.body.id, { headers: ACME.headers, timeoutMs: 60_000 });
    expect(done.runs.slice(0, 2).map((r: any) => [r.ordinal, r.tool, r.outcome])).toEqual([
      [1, 'incident.alert_events', 'succeeded'],
      [2, 'incident.kubernetes_snapshot', 'succeeded'],
    ]);
    const shown = done.findings.find((f: any) => f.kind === 'context' && f.statement.startsWith('When the incident opened'));
    expect(shown).toMatchObject({ runRefs: [2], evidenceRefs: [{ investigationId: done.id, toolRunOrdinal: 2 }] });
    expect(shown.statement).toMatch(/^When the incident opened \(\S+\), the Kubernetes API showed: checkout-5b6c4d-x7k2p\/app waiting \(CrashLoopBackOff\); /);
    expect(shown.statement).toContain('checkout-5b6c4d-x7k2p/app terminated OOMKilled (exit code 137) at ');
    expect(shown.statement).toContain('4 restart(s)');
    expect(shown.statement).toContain('BackOff on Pod/checkout-5b6c4d-x7k2p ×9: Back-off restarting failed container app');
    expect(shown.statement).toContain('Readiness probe failed: HTTP probe failed with statuscode: 503');
    // The snapshot's Normal events (a ReplicaSet scaled) are not trouble.
    expect(shown.statement).not.toContain('ScalingReplicaSet');
  }, 90_000);

  it('reads nothing for an alert that names no namespace, and an investigation is not offered an empty snapshot', async () => {
    const incidentId = await alert({ alertname: 'CheckoutSlow', service: 'checkout' });
    const snapshot = await snapshotOf(incidentId);
    expect(snapshot.runs).toEqual([]);
    const opened = await ctx.admin.post('/api/v1/investigations', { incidentId }, ACME);
    const done = await investigationEnded(ctx.admin, opened.body.id, { headers: ACME.headers, timeoutMs: 60_000 });
    expect(done.runs.map((r: any) => r.tool)).not.toContain('incident.kubernetes_snapshot');
    expect(done.findings.some((f: any) => f.statement.startsWith('When the incident opened'))).toBe(false);
  }, 90_000);
});
