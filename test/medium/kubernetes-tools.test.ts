import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { verifyKubernetes } from '@svc/integrations';
import { DataSourceConnection, ToolCatalog, ToolContext, ToolResult } from '@svc/investigations/tools';
import { AppConfig, kubernetesApis, OutboundClient, outboundKubernetesSend, Timestamp } from '@svc/platform';
import { READER_RULES, shopCluster, VIEW_ONLY_RULES } from '../support/kubernetes-scenario';
import { KubernetesStandIn } from '../support/kubernetes-stand-in';

type Output = Record<string, any>;
const out = (result: ToolResult) => result.output as Output;

const END = new Date(Math.floor(Date.now() / 60_000) * 60_000);
const ONSET = new Date(END.getTime() - 20 * 60_000);
const WINDOW = { from: Timestamp.fromDate(new Date(END.getTime() - 3_600_000)), until: Timestamp.fromDate(END) };
const at = (minutes: number) => new Date(ONSET.getTime() + minutes * 60_000).toISOString();

/**
 * The Kubernetes tools through the ToolCatalog (schema, checks, timeout, output cap), and verify's
 * review, against the Kubernetes API stand-in through @kubernetes/client-node: a shop whose
 * checkout rolled out v2 just before the onset, then one of its pods was OOM-killed and crash-loops.
 */
describe('Kubernetes tools', () => {
  const catalog = new ToolCatalog();
  const outbound = new OutboundClient(new AppConfig());
  let k8s: KubernetesStandIn;

  const connection = (token = 'reader', extra: Partial<DataSourceConnection> = {}): DataSourceConnection => ({
    integrationId: '0190a0b0-0000-7000-8000-0000000000b1',
    type: 'kubernetes',
    baseUrl: k8s.url,
    headers: { authorization: `Bearer ${token}` },
    ...extra,
  });
  const context = (conn = connection()): ToolContext => ({ connection: conn, window: WINDOW, signal: new AbortController().signal });
  const run = (tool: string, args: Record<string, unknown>, conn?: DataSourceConnection) => catalog.run(tool, args, context(conn));

  beforeAll(async () => {
    k8s = await KubernetesStandIn.start({
      accounts: {
        reader: { user: 'system:serviceaccount:observability:svc-reader', rules: READER_RULES },
        viewer: { user: 'system:serviceaccount:observability:viewer', rules: VIEW_ONLY_RULES },
      },
    });
    shopCluster(k8s, ONSET);
  });
  afterAll(async () => {
    await k8s?.stop();
    await outbound.close();
  });
  beforeEach(() => {
    k8s.requests.length = 0;
  });

  describe('the stand-in, through @kubernetes/client-node', () => {
    const apis = () => kubernetesApis(outboundKubernetesSend(outbound, k8s.url, { authorization: 'Bearer reader' }));

    it('pages lists with limit and continue under one resourceVersion, and evaluates label and field selectors as the server does', async () => {
      const { core } = await apis();
      const first = await core.listNamespacedPod({ namespace: 'shop', labelSelector: 'app=checkout', limit: 2 });
      expect(first.items.map((p) => p.metadata?.name)).toEqual(['checkout-5b6c4d-q9w8e', 'checkout-5b6c4d-x7k2p']);
      expect(first.metadata?._continue).toBeTruthy();
      expect(first.metadata?.remainingItemCount).toBe(1);
      const second = await core.listNamespacedPod({ namespace: 'shop', labelSelector: 'app=checkout', limit: 2, _continue: first.metadata!._continue });
      expect(second.items.map((p) => p.metadata?.name)).toEqual(['checkout-debug']);
      expect(second.metadata?.resourceVersion).toBe(first.metadata?.resourceVersion);
      expect(second.metadata?._continue).toBeUndefined();

      expect((await core.listNamespacedPod({ namespace: 'shop', labelSelector: 'app in (checkout),!tier' })).items).toHaveLength(2);
      expect((await core.listPodForAllNamespaces({ fieldSelector: 'spec.nodeName=node-a,status.phase!=Succeeded' })).items).toHaveLength(2);
      const events = await core.listNamespacedEvent({ namespace: 'shop', fieldSelector: 'involvedObject.kind=Pod,involvedObject.name=checkout-5b6c4d-x7k2p' });
      expect(events.items.map((e) => e.reason).sort()).toEqual(['BackOff', 'Unhealthy']);
      await expect(core.listNamespacedPod({ namespace: 'shop', fieldSelector: 'spec.hostname=x' })).rejects.toMatchObject({
        code: 400,
        body: expect.stringContaining('field label not supported: spec.hostname'),
      });
    });
  });

  it('verify reviews the account’s own rules and names what the tools need that it lacks; 401, an answer not Kubernetes’, nothing listening', async () => {
    const verify = (token: string, config: Record<string, unknown> = {}, url = k8s.url) =>
      verifyKubernetes(outboundKubernetesSend(outbound, url, { authorization: `Bearer ${token}` }), config, '');
    expect(await verify('reader')).toEqual({
      outcome: 'succeeded',
      detail: 'Kubernetes: the account reads everything the tools need in every namespace (reviewed in default)',
    });
    const review = k8s.requests.find((r) => r.method === 'POST');
    expect(review?.path).toBe('/apis/authorization.k8s.io/v1/selfsubjectrulesreviews');

    const viewer = await verify('viewer', { namespaces: ['shop'] });
    expect(viewer).toEqual({
      outcome: 'failed',
      detail:
        'Kubernetes: the account lacks read access the tools need, in shop: get pods/log, list events.events.k8s.io, list controllerrevisions.apps, get nodes',
    });
    expect(await verify('stolen')).toEqual({
      outcome: 'failed',
      detail:
        'The Kubernetes API server answered HTTP 401 at /apis/authorization.k8s.io/v1/selfsubjectrulesreviews: the token was refused (expired, revoked, or not this cluster’s)',
    });

    const html: Server = createServer((_, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>sign in</html>'));
    await new Promise<void>((resolve) => html.listen(0, '127.0.0.1', resolve));
    const port = (html.address() as AddressInfo).port;
    expect(await verify('reader', {}, `http://127.0.0.1:${port}`)).toEqual({
      outcome: 'failed',
      detail: "The answer at /apis/authorization.k8s.io/v1/selfsubjectrulesreviews is not a Kubernetes API server's",
    });
    await new Promise<void>((resolve) => html.close(() => resolve()));
    const closed = await verify('reader', {}, `http://127.0.0.1:${port}`);
    expect(closed).toEqual({ outcome: 'failed', detail: `Could not reach the Kubernetes API server at http://127.0.0.1:${port}: ECONNREFUSED` });
  });

  it("pod_status: a workload's own pods (not another pod with its labels), phase, conditions, the waiting reason and the last termination", async () => {
    const result = await run('kubernetes.pod_status', { namespace: 'shop', workload: { kind: 'Deployment', name: 'checkout' } });
    expect(result.outcome, result.error).toBe('succeeded');
    const o = out(result);
    expect(o.count).toBe(2);
    expect(o.pods[0]).toMatchObject({
      name: 'checkout-5b6c4d-x7k2p',
      phase: 'Running',
      node: 'node-a',
      owner: 'checkout-5b6c4d',
      restarts: 4,
      conditions: expect.arrayContaining([
        { type: 'Ready', status: 'False', reason: 'ContainersNotReady', message: 'containers with unready status: [app]', lastTransitionTime: at(1) },
      ]),
      containers: [
        {
          name: 'app',
          restartCount: 4,
          ready: false,
          state: { waiting: { reason: 'CrashLoopBackOff' } },
          lastState: { terminated: { reason: 'OOMKilled', exitCode: 137, startedAt: at(2), finishedAt: at(3) } },
        },
      ],
    });
    expect(result.summary).toBe(
      `2 pods (the pods of Deployment shop/checkout), all Running, 4 restarts: checkout-5b6c4d-x7k2p/app is waiting (CrashLoopBackOff), last terminated OOMKilled exit code 137 at ${at(3)}.`,
    );
    expect(result.sources).toEqual([
      '/apis/apps/v1/namespaces/shop/deployments/checkout',
      '/apis/apps/v1/namespaces/shop/replicasets?labelSelector=app%3Dcheckout&limit=100',
      '/api/v1/namespaces/shop/pods?labelSelector=app%3Dcheckout&limit=100',
    ]);

    const bySelector = await run('kubernetes.pod_status', { namespace: 'shop', labelSelector: 'app=checkout' });
    expect(out(bySelector).count).toBe(3);
    const one = await run('kubernetes.pod_status', { namespace: 'shop', pod: 'checkout-5b6c4d-q9w8e' });
    expect(one.summary).toBe('1 pod (pod shop/checkout-5b6c4d-q9w8e), all Running, 0 restarts.');

    const both = await run('kubernetes.pod_status', { namespace: 'shop', pod: 'x', labelSelector: 'app=x' });
    expect(both).toMatchObject({ outcome: 'failed', error: expect.stringContaining('Give exactly one of pod, labelSelector or workload') });
    expect(k8s.requests.filter((r) => r.path.endsWith('/pods/x'))).toHaveLength(0);
    const missing = await run('kubernetes.pod_status', { namespace: 'shop', pod: 'gone' });
    expect(missing).toMatchObject({ outcome: 'failed', error: 'Kubernetes answered HTTP 404 at /api/v1/namespaces/shop/pods/gone: pods "gone" not found' });
  });

  it('container_logs: the previous instance’s last lines; no previous instance is a finding, not a failure; the tail bounded', async () => {
    const previous = await run('kubernetes.container_logs', { namespace: 'shop', pod: 'checkout-5b6c4d-x7k2p', previous: true, tailLines: 20 });
    expect(previous.outcome, previous.error).toBe('succeeded');
    expect(out(previous).lines).toHaveLength(20);
    expect(out(previous).lines.at(-1)).toBe('java.lang.OutOfMemoryError: Java heap space');
    expect(previous.summary).toBe('20 lines of the previous log of pod shop/checkout-5b6c4d-x7k2p; the last: java.lang.OutOfMemoryError: Java heap space');
    expect(k8s.requests[0].params.get('previous')).toBe('true');
    expect(k8s.requests[0].params.get('tailLines')).toBe('20');

    const never = await run('kubernetes.container_logs', { namespace: 'shop', pod: 'checkout-5b6c4d-q9w8e', previous: true });
    expect(never.outcome, never.error).toBe('succeeded');
    expect(out(never)).toMatchObject({
      previousInstance: false,
      container: 'app',
      message: 'previous terminated container "app" in pod "checkout-5b6c4d-q9w8e" not found',
    });
    expect(never.summary).toMatch(/^Container app of pod shop\/checkout-5b6c4d-q9w8e has no previous instance/);

    const current = await run('kubernetes.container_logs', { namespace: 'shop', pod: 'checkout-5b6c4d-q9w8e' });
    expect(out(current).lines).toEqual(['starting checkout 2.0.0', 'ready']);
    expect(k8s.requests.at(-1)!.params.get('tailLines')).toBe('100');
    const tooMany = await run('kubernetes.container_logs', { namespace: 'shop', pod: 'checkout-5b6c4d-q9w8e', tailLines: 5000 });
    expect(tooMany).toMatchObject({ outcome: 'failed', error: expect.stringMatching(/^Invalid arguments/) });
  });

  it('events: of the pod and its owners, from both APIs merged, with counts, first and last times and series; the most recent first; across pages', async () => {
    const result = await run('kubernetes.events', { namespace: 'shop', kind: 'Pod', name: 'checkout-5b6c4d-x7k2p' });
    expect(result.outcome, result.error).toBe('succeeded');
    const o = out(result);
    expect(o.objects).toEqual([
      { kind: 'Pod', name: 'checkout-5b6c4d-x7k2p' },
      { kind: 'ReplicaSet', name: 'checkout-5b6c4d' },
      { kind: 'Deployment', name: 'checkout' },
    ]);
    expect(o.events).toEqual([
      expect.objectContaining({
        reason: 'BackOff',
        type: 'Warning',
        count: 9,
        firstTime: at(3),
        lastTime: at(12),
        object: 'Pod/checkout-5b6c4d-x7k2p',
        api: ['v1', 'events.k8s.io/v1'],
      }),
      expect.objectContaining({
        reason: 'Unhealthy',
        count: 14,
        lastTime: at(11),
        series: { count: 14, lastObservedTime: at(11) },
        reportingController: 'kubelet',
      }),
      expect.objectContaining({ reason: 'ScalingReplicaSet', type: 'Normal', object: 'Deployment/checkout', lastTime: at(-10) }),
    ]);
    expect(result.summary).toBe(
      `3 events of Pod checkout-5b6c4d-x7k2p, ReplicaSet checkout-5b6c4d, Deployment checkout in shop, 2 warnings (BackOff, Unhealthy); the latest at ${at(12)}: BackOff.`,
    );
    expect(result.sources).toContain(
      '/apis/events.k8s.io/v1/namespaces/shop/events?fieldSelector=regarding.kind%3DPod%2Cregarding.name%3Dcheckout-5b6c4d-x7k2p&limit=100',
    );

    // A pod that no longer exists: its events are what is left, and they are read.
    k8s.add({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'checkout-5b6c4d-gone.1', namespace: 'shop' },
      involvedObject: { kind: 'Pod', name: 'checkout-5b6c4d-gone', namespace: 'shop', apiVersion: 'v1' },
      reason: 'Evicted',
      message: 'The node was low on resource: memory.',
      type: 'Warning',
      firstTimestamp: at(2),
      lastTimestamp: at(2),
    });
    const gone = await run('kubernetes.events', { namespace: 'shop', kind: 'Pod', name: 'checkout-5b6c4d-gone' });
    expect(gone.outcome, gone.error).toBe('succeeded');
    expect(out(gone).events).toEqual([expect.objectContaining({ reason: 'Evicted', message: 'The node was low on resource: memory.' })]);

    // 150 more events of the Deployment: read in pages of 100, each once.
    for (let i = 0; i < 150; i++)
      k8s.add({
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name: `checkout.scale-${i}`, namespace: 'shop' },
        involvedObject: { kind: 'Deployment', name: 'checkout', namespace: 'shop', apiVersion: 'apps/v1' },
        reason: 'ScalingReplicaSet',
        message: `Scaled ${i}`,
        type: 'Normal',
        firstTimestamp: at(-20),
        lastTimestamp: at(-20),
      });
    const many = await run('kubernetes.events', { namespace: 'shop', kind: 'Deployment', name: 'checkout' });
    expect(out(many)).toMatchObject({ count: 151, more: 51 });
    expect(out(many).events).toHaveLength(100);
    expect(k8s.requests.filter((r) => r.path === '/api/v1/namespaces/shop/events' && r.params.get('continue'))).toHaveLength(1);
  });

  it("rollout_history: a Deployment's ReplicaSets and a StatefulSet's ControllerRevisions with revisions, images and creation times", async () => {
    const deployment = await run('kubernetes.rollout_history', { namespace: 'shop', kind: 'Deployment', name: 'checkout' });
    expect(deployment.outcome, deployment.error).toBe('succeeded');
    expect(out(deployment).revisions).toEqual([
      {
        revision: 2,
        name: 'checkout-5b6c4d',
        createdAt: at(-10),
        images: ['app=registry.example/checkout:2.0.0'],
        replicas: 2,
        readyReplicas: 1,
        current: true,
      },
      { revision: 1, name: 'checkout-7d9f8b', createdAt: at(-600), images: ['app=registry.example/checkout:1.9.3'], replicas: 0, readyReplicas: 0 },
    ]);
    expect(deployment.summary).toBe(
      `2 revisions of Deployment shop/checkout; the newest, 2, created ${at(-10)} with app=registry.example/checkout:2.0.0 (revision 1 had app=registry.example/checkout:1.9.3).`,
    );
    const sts = await run('kubernetes.rollout_history', { namespace: 'shop', kind: 'StatefulSet', name: 'inventory-db' });
    expect(out(sts).revisions).toEqual([
      { revision: 2, name: 'inventory-db-6f7d', createdAt: at(-120), images: ['postgres=postgres:16.4'], current: true },
      { revision: 1, name: 'inventory-db-5c4b', createdAt: at(-900), images: ['postgres=postgres:16.3'] },
    ]);
  });

  it('node: conditions, taints, allocatable and the requests of the pods on it (finished pods not counted)', async () => {
    const result = await run('kubernetes.node', { name: 'node-a' });
    expect(result.outcome, result.error).toBe('succeeded');
    const o = out(result);
    expect(o.requests).toEqual({ cpu: 1, memoryBytes: 2 ** 30, cpuPercentOfAllocatable: 25.5, memoryPercentOfAllocatable: 6.9 });
    expect(o.podCount).toBe(2);
    expect(o.conditions[0]).toEqual({
      type: 'MemoryPressure',
      status: 'True',
      reason: 'KubeletHasInsufficientMemory',
      message: 'kubelet has insufficient memory available',
      lastTransitionTime: at(2),
    });
    expect(result.summary).toBe('Node node-a is Ready, under MemoryPressure; 2 pods request 1 CPU (25.5% of allocatable) and 1 GiB (6.9%).');
    expect(result.sources).toEqual(['/api/v1/nodes/node-a', '/api/v1/pods?fieldSelector=spec.nodeName%3Dnode-a&limit=100']);
  });

  it('reads only the namespaces the integration names, and keeps the API server’s 403 in the tools’ error shape', async () => {
    const limited = connection('reader', { namespaces: ['payments'] });
    const refused = await run('kubernetes.pod_status', { namespace: 'shop', pod: 'checkout-debug' }, limited);
    expect(refused).toMatchObject({ outcome: 'failed', error: 'Namespace shop is not one this integration reads (its namespaces: payments)', sources: [] });
    expect(k8s.requests).toHaveLength(0);
    const node = await run('kubernetes.node', { name: 'node-a' }, limited);
    expect(node.summary).toContain('Only the pods of namespaces payments are counted.');
    expect(node.sources).toEqual(['/api/v1/nodes/node-a', '/api/v1/namespaces/payments/pods?fieldSelector=spec.nodeName%3Dnode-a&limit=100']);

    const forbidden = await run('kubernetes.container_logs', { namespace: 'shop', pod: 'checkout-5b6c4d-x7k2p' }, connection('viewer'));
    expect(forbidden).toMatchObject({
      outcome: 'failed',
      error:
        'Kubernetes answered HTTP 403 at /api/v1/namespaces/shop/pods/checkout-5b6c4d-x7k2p/log: pods "checkout-5b6c4d-x7k2p" is forbidden: User "system:serviceaccount:observability:viewer" cannot get resource "pods/log" in API group "" in the namespace "shop"',
    });
    const unauthorized = await run('kubernetes.node', { name: 'node-a' }, connection('stolen'));
    expect(unauthorized).toMatchObject({ outcome: 'failed', error: 'Kubernetes answered HTTP 401 at /api/v1/nodes/node-a: the token was refused' });
  });
});
