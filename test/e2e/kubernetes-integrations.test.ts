import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RelayGateway } from '@svc/relays';
import { Client } from '../support/api';
import { ensureBuilt } from '../support/dist';
import { useBootstrappedApi } from '../support/factories';
import { investigationEnded } from '../support/investigations';
import { READER_RULES, shopCluster, VIEW_ONLY_RULES } from '../support/kubernetes-scenario';
import { KubernetesStandIn } from '../support/kubernetes-stand-in';
import { freePort } from '../support/ports';
import { relayDirectory, RelayProcess, writeRelayConfig } from '../support/relay-process';
import { answer, offeredToolsOf, ScriptedModelServer, toolResultsOf, userTextOf } from '../support/scripted-model-server';
import { until } from '../support/until';
import { startWorker, TestWorker } from '../support/worker';

const ACME = { headers: { 'x-svc-organization': 'acme' } };
const GLOBEX = { headers: { 'x-svc-organization': 'globex' } };
const TOKEN = 'eyJhbGciOiJSUzI1NiJ9.reader-token-for-e2e';

const inconclusive = (runRefs: number[] = []) => ({
  conclusionStatus: 'inconclusive',
  summary: 'Read the cluster.',
  impact: { summary: 'Checkout fails.', runRefs },
  findings: [],
  hypotheses: [],
  actions: [],
  limitations: [],
});

/**
 * Kubernetes integrations through the public API, the real worker with a scripted language model,
 * and a real relay process, against the Kubernetes API stand-in over HTTPS with the cluster's own
 * CA: a shop whose checkout rolled out v2 just before the onset, then crash-loops after an OOM kill.
 */
describe('Kubernetes integrations', () => {
  const ctx = useBootstrappedApi({ env: { SVC_RELAY_GRPC_PORT: '0', SVC_RELAY_ALLOW_PLAINTEXT: 'true', SVC_RELAY_HEARTBEAT_SECONDS: '2' } });
  const end = new Date(Math.floor(Date.now() / 60_000) * 60_000);
  const onset = new Date(end.getTime() - 20 * 60_000);
  let k8s: KubernetesStandIn;
  let ca: string;
  let model: ScriptedModelServer;
  let worker: TestWorker;
  let generic: { id: string; secret: string };
  let kubernetesId: string;

  async function investigate(webhook = generic, organization = ACME): Promise<{ id: string; done: any }> {
    const alert = await new Client(ctx.api.baseUrl).request('POST', `/webhooks/v1/integrations/${webhook.id}/alert-events`, {
      body: { alerts: [{ labels: { alertname: `CheckoutErrors${Math.random()}`, service: 'checkout', namespace: 'shop' }, startsAt: onset.toISOString() }] },
      headers: { 'x-svc-token': webhook.secret },
      origin: false,
    });
    expect(alert.status).toBe(202);
    const opened = await ctx.admin.post('/api/v1/investigations', { incidentId: alert.body.incidentIds[0] }, organization);
    expect(opened.status).toBe(201);
    return { id: opened.body.id, done: await investigationEnded(ctx.admin, opened.body.id, { headers: organization.headers, timeoutMs: 60_000 }) };
  }
  const create = (body: Record<string, unknown>, organization = ACME) => ctx.admin.post('/api/v1/integrations', body, organization);
  /** The requests besides the reads of pods and events in shop that the worker's snapshots of new incidents make meanwhile. */
  const verifyRequests = () => k8s.requests.filter((r) => !(r.method === 'GET' && /^\/(api\/v1|apis\/[\w.]+\/v1)\/namespaces\/shop\//.test(r.path)));
  const verify = async (id: string) => (await ctx.admin.post(`/api/v1/integrations/${id}/verify`, {}, ACME)).body.lastVerification;

  beforeAll(async () => {
    ensureBuilt();
    const dir = relayDirectory();
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=kube-apiserver',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
        '-keyout',
        'key.pem',
        '-out',
        'cert.pem',
      ],
      { stdio: 'ignore', cwd: dir },
    );
    ca = readFileSync(join(dir, 'cert.pem'), 'utf8');
    k8s = await KubernetesStandIn.start({
      accounts: {
        [TOKEN]: { user: 'system:serviceaccount:observability:svc-reader', rules: READER_RULES },
        viewer: { user: 'system:serviceaccount:observability:viewer', rules: VIEW_ONLY_RULES },
      },
      tls: { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: ca },
    });
    shopCluster(k8s, onset);
    model = await ScriptedModelServer.start();
    worker = await startWorker({ SVC_LLM_PROVIDER: 'openai-compatible', SVC_LLM_BASE_URL: model.baseUrl, SVC_LLM_API_KEY: 'sk-e2e-k8s', SVC_LLM_MODEL: 'm' });
    expect((await ctx.admin.post('/api/v1/organizations', { id: 'globex', displayName: 'Globex' })).status).toBe(201);
    const g = await create({ type: 'generic', name: 'Checkout alerts' });
    generic = { id: g.body.id, secret: g.body.webhookSecret };
    const created = await create({
      type: 'kubernetes',
      name: 'Shop cluster',
      config: { server: k8s.url, namespaces: ['shop'] },
      credentials: { bearerToken: TOKEN, certificateAuthority: ca },
    });
    expect(created.status, created.text).toBe(201);
    kubernetesId = created.body.id;
  }, 180_000);

  afterAll(async () => {
    await worker?.close();
    await model?.close();
    await k8s?.stop();
  });

  it("publishes the type, keeps the token write-only, and verifies the account's access with the cluster's CA", async () => {
    const types = await ctx.admin.get('/api/v1/integration-types?limit=200', ACME);
    const type = types.body.items.find((t: { id: string }) => t.id === 'kubernetes');
    expect(type).toMatchObject({ displayName: 'Kubernetes', webhookFormat: null, connect: 'manual' });
    expect(Object.keys(type.configSchema.properties)).toEqual(['server', 'namespaces', 'relayId']);

    const read = await ctx.admin.get(`/api/v1/integrations/${kubernetesId}`, ACME);
    expect(read.body).toMatchObject({ type: 'kubernetes', hasCredentials: true, webhookUrl: null, config: { server: k8s.url, namespaces: ['shop'] } });
    expect(JSON.stringify(read.body)).not.toContain(TOKEN);

    k8s.requests.length = 0;
    expect(await verify(kubernetesId)).toMatchObject({
      outcome: 'succeeded',
      detail: 'Kubernetes: the account reads everything the tools need in namespace shop',
    });
    expect(verifyRequests().map((r) => [r.method, r.path, r.headers.authorization])).toEqual([
      ['POST', '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews', `Bearer ${TOKEN}`],
    ]);
    const audit = await ctx.admin.get(`/api/v1/audit-events?action=integration.verify&targetId=${kubernetesId}`, ACME);
    expect(JSON.stringify(audit.body)).not.toContain(TOKEN);
  });

  it('says what failed: missing rights, a refused token, a certificate not signed by the CA given, nothing listening', async () => {
    const closedPort = await freePort();
    const cases: Array<[Record<string, unknown>, Record<string, unknown>, RegExp | string]> = [
      [
        { server: k8s.url, namespaces: ['shop'] },
        { bearerToken: 'viewer', certificateAuthority: ca },
        'Kubernetes: the account lacks read access the tools need, in shop: get pods/log, list events.events.k8s.io, list controllerrevisions.apps, get nodes',
      ],
      [
        { server: k8s.url },
        { bearerToken: 'expired', certificateAuthority: ca },
        'The Kubernetes API server answered HTTP 401 at /apis/authorization.k8s.io/v1/selfsubjectrulesreviews: the token was refused (expired, revoked, or not this cluster’s)',
      ],
      [{ server: k8s.url }, { bearerToken: TOKEN }, /^Could not reach the Kubernetes API server at https:\/\/127\.0\.0\.1:\d+: DEPTH_ZERO_SELF_SIGNED_CERT$/],
      [
        { server: `https://127.0.0.1:${closedPort}` },
        { bearerToken: TOKEN },
        `Could not reach the Kubernetes API server at https://127.0.0.1:${closedPort}: ECONNREFUSED`,
      ],
    ];
    for (const [config, credentials, detail] of cases) {
      const made = await create({ type: 'kubernetes', name: 'Probe', config, credentials });
      expect(made.status, made.text).toBe(201);
      const result = await verify(made.body.id);
      expect(result.outcome, JSON.stringify(config)).toBe('failed');
      if (typeof detail === 'string') expect(result.detail).toBe(detail);
      else expect(result.detail).toMatch(detail);
      expect((await ctx.admin.delete(`/api/v1/integrations/${made.body.id}`, ACME)).status).toBe(204);
    }
  }, 60_000);

  it('refuses a config or credentials that do not fit with a 400 in the error shape', async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [
        { type: 'kubernetes', name: 'Nothing', config: {}, credentials: { bearerToken: TOKEN } },
        /^Invalid input: config\.server or config\.relayId is required \(one of them\)$/,
      ],
      [{ type: 'kubernetes', name: 'No token', config: { server: k8s.url } }, /^Invalid input: kubernetes integrations need credentials$/],
      [
        { type: 'kubernetes', name: 'Both', config: { server: k8s.url, relayId: '0190a000-0000-7000-8000-00000000dead' }, credentials: { bearerToken: TOKEN } },
        /^Invalid input: config\.server and config\.relayId: set one of them, not both/,
      ],
      [
        { type: 'kubernetes', name: 'Bad ns', config: { server: k8s.url, namespaces: ['Shop_1'] }, credentials: { bearerToken: TOKEN } },
        /^Invalid input: config\.namespaces/,
      ],
      [
        { type: 'kubernetes', name: 'Not PEM', config: { server: k8s.url }, credentials: { bearerToken: TOKEN, certificateAuthority: 'abc' } },
        /^Invalid input: credentials/,
      ],
      [
        { type: 'kubernetes', name: 'Metadata', config: { server: 'http://169.254.169.254/' }, credentials: { bearerToken: TOKEN } },
        /^config\.server: The outbound policy refuses 169\.254\.169\.254 port 80: link-local addresses/,
      ],
    ];
    for (const [body, error] of cases) {
      const res = await create(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys(res.body)).toEqual(['error']);
      expect(res.body.error).toMatch(error);
    }
  });

  it("is another Organization's to neither see nor use", async () => {
    for (const [method, path] of [
      ['GET', `/api/v1/integrations/${kubernetesId}`],
      ['POST', `/api/v1/integrations/${kubernetesId}/verify`],
      ['PATCH', `/api/v1/integrations/${kubernetesId}`],
      ['DELETE', `/api/v1/integrations/${kubernetesId}`],
    ]) {
      const res = await ctx.admin.request(method, path, { ...GLOBEX, ...(method === 'PATCH' ? { body: { name: 'Mine now' } } : {}) });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    expect((await ctx.admin.get('/api/v1/integrations?type=kubernetes', GLOBEX)).body.items).toEqual([]);

    const theirs = await create({ type: 'generic', name: 'Globex alerts' }, GLOBEX);
    model.script(answer.conclude(inconclusive()));
    const asked = model.requests.length;
    await investigate({ id: theirs.body.id, secret: theirs.body.webhookSecret }, GLOBEX);
    expect(Object.keys(offeredToolsOf(model.requests[asked])).filter((name) => name.startsWith('kubernetes__'))).toEqual([]);
    expect(userTextOf(model.requests[asked])).not.toContain(kubernetesId);
  });

  it('offers the model the Kubernetes tools and records each run: pod states, the crashed container’s previous log, events, a namespace it may not read', async () => {
    model.script(
      answer.tools([
        {
          name: 'kubernetes__pod_status',
          input: { integrationId: kubernetesId, purpose: 'Why is checkout failing?', namespace: 'shop', workload: { kind: 'Deployment', name: 'checkout' } },
        },
        {
          name: 'kubernetes__container_logs',
          input: { integrationId: kubernetesId, purpose: 'Why did it crash?', namespace: 'shop', pod: 'checkout-5b6c4d-x7k2p', previous: true, tailLines: 10 },
        },
        {
          name: 'kubernetes__events',
          input: { integrationId: kubernetesId, purpose: 'What happened to it?', namespace: 'shop', kind: 'Pod', name: 'checkout-5b6c4d-x7k2p' },
        },
        {
          name: 'kubernetes__rollout_history',
          input: { integrationId: kubernetesId, purpose: 'What rolled out?', namespace: 'payments', kind: 'Deployment', name: 'checkout' },
        },
      ]),
      answer.conclude(inconclusive([1, 2, 3])),
    );
    const { id, done } = await investigate();
    expect(done.status).toBe('concluded');
    expect(done.runs.map((r: any) => [r.ordinal, r.tool, r.integrationId, r.outcome])).toEqual([
      [1, 'kubernetes.pod_status', kubernetesId, 'succeeded'],
      [2, 'kubernetes.container_logs', kubernetesId, 'succeeded'],
      [3, 'kubernetes.events', kubernetesId, 'succeeded'],
      [4, 'kubernetes.rollout_history', kubernetesId, 'failed'],
    ]);
    const [pods, logs, events, refused] = done.runs;
    expect(pods.summary).toContain('checkout-5b6c4d-x7k2p/app is waiting (CrashLoopBackOff), last terminated OOMKilled exit code 137');
    expect(logs.summary).toBe('10 lines of the previous log of pod shop/checkout-5b6c4d-x7k2p; the last: java.lang.OutOfMemoryError: Java heap space');
    expect(logs.sources).toEqual(['/api/v1/namespaces/shop/pods/checkout-5b6c4d-x7k2p/log?limitBytes=1048576&previous=true&tailLines=10']);
    expect(events.summary).toContain('2 warnings (BackOff, Unhealthy)');
    expect(refused.error).toBe('Namespace payments is not one this integration reads (its namespaces: shop)');
    expect(refused.sources).toEqual([]);

    const offered = offeredToolsOf(model.requests.at(-2)!);
    for (const name of ['kubernetes__events', 'kubernetes__pod_status', 'kubernetes__container_logs', 'kubernetes__rollout_history', 'kubernetes__node'])
      expect(offered[name].parameters.properties.integrationId.enum).toContain(kubernetesId);
    const results = toolResultsOf(model.requests.at(-1)!);
    expect(results[1].text).toContain('java.lang.OutOfMemoryError: Java heap space');
    const sources = await ctx.admin.get(`/api/v1/investigations/${id}/sources`, ACME);
    expect(sources.body.sources).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          integrationId: kubernetesId,
          reason: "Shop cluster: Kubernetes events, pod and container states, containers' current and previous logs, rollout history and nodes",
        }),
      ]),
    );
  }, 90_000);

  it('snapshots the pods and events of the workload an alert names when its incident opens; an investigation reads the snapshot and cites it', async () => {
    const delivered = await new Client(ctx.api.baseUrl).request('POST', `/webhooks/v1/integrations/${generic.id}/alert-events`, {
      body: { alerts: [{ labels: { alertname: 'CheckoutCrashing', service: 'checkout', namespace: 'shop' }, startsAt: onset.toISOString() }] },
      headers: { 'x-svc-token': generic.secret },
      origin: false,
    });
    expect(delivered.status).toBe(202);
    const incidentId = delivered.body.incidentIds[0];
    const snapshot = await until(
      async () => {
        const read = await ctx.admin.get(`/api/v1/incidents/${incidentId}/kubernetes-snapshot`, ACME);
        return read.status === 200 && read.body.status === 'taken' && read.body;
      },
      30_000,
      'the snapshot of the new incident',
    );
    expect(snapshot.incidentId).toBe(incidentId);
    // The Deployment the alert's service names: its pods' states, then the events of its pods (with their owners'), the one that restarted first.
    expect(snapshot.runs.map((r: any) => [r.sequence, r.tool, r.integrationId, r.outcome, r.arguments])).toEqual([
      [1, 'kubernetes.pod_status', kubernetesId, 'succeeded', { namespace: 'shop', workload: { kind: 'Deployment', name: 'checkout' } }],
      [2, 'kubernetes.events', kubernetesId, 'succeeded', { namespace: 'shop', kind: 'Pod', name: 'checkout-5b6c4d-x7k2p' }],
      [3, 'kubernetes.events', kubernetesId, 'succeeded', { namespace: 'shop', kind: 'Pod', name: 'checkout-5b6c4d-q9w8e' }],
    ]);
    expect(snapshot.runs[0].summary).toContain('checkout-5b6c4d-x7k2p/app is waiting (CrashLoopBackOff), last terminated OOMKilled exit code 137');
    expect(snapshot.runs[1].summary).toContain('2 warnings (BackOff, Unhealthy)');
    expect(JSON.stringify(snapshot)).not.toContain(TOKEN);
    // Another Organization's: 404.
    expect((await ctx.admin.get(`/api/v1/incidents/${incidentId}/kubernetes-snapshot`, GLOBEX)).status).toBe(404);

    model.script(
      answer.tools([{ name: 'incident__kubernetes_snapshot', input: { purpose: 'What did the cluster show when it opened?' } }]),
      answer.conclude(inconclusive([1])),
    );
    const opened = await ctx.admin.post('/api/v1/investigations', { incidentId }, ACME);
    expect(opened.status).toBe(201);
    const done = await investigationEnded(ctx.admin, opened.body.id, { headers: ACME.headers, timeoutMs: 60_000 });
    expect(done.runs.map((r: any) => [r.ordinal, r.tool, r.integrationId, r.outcome])).toEqual([[1, 'incident.kubernetes_snapshot', null, 'succeeded']]);
    expect(done.runs[0].summary).toMatch(/^Taken at \S+, when the incident opened, in 3 read\(s\)\. kubernetes\.pod_status \(/);
    expect(done.runs[0].summary).toContain('OOMKilled exit code 137');
    expect(done.impact.runRefs).toEqual([1]);
    const results = toolResultsOf(model.requests.at(-1)!);
    expect(results[0].text).toContain('Readiness probe failed: HTTP probe failed with statuscode: 503');
  }, 90_000);

  it('reads the cluster through a relay inside it, with its own ServiceAccount token and CA, under its local namespaces', async () => {
    const dir = relayDirectory();
    writeFileSync(join(dir, 'token'), `${TOKEN}\n`);
    writeFileSync(join(dir, 'ca.crt'), ca);
    const server = `127.0.0.1:${ctx.api.app.get(RelayGateway).port}`;
    const bootstrapToken = (await ctx.admin.post('/api/v1/relays/bootstrap-tokens', { name: 'shop-cluster' }, ACME)).body.token;
    let relay = RelayProcess.start(writeRelayConfig(dir, { server, plaintext: true, stateFile: 'state.json', bootstrapToken, integrations: [] }));
    let relayedId: string | undefined;
    try {
      await relay.logged('session established');
      const relayId = (JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8')) as { relayId: string }).relayId;
      const created = await create({ type: 'kubernetes', name: 'Shop cluster, in-cluster relay', config: { relayId } });
      expect(created.status, created.text).toBe(201);
      relayedId = created.body.id as string;
      expect(await relay.stop()).toBe(0);
      relay = RelayProcess.start(
        writeRelayConfig(dir, {
          server,
          plaintext: true,
          stateFile: 'state.json',
          integrations: [
            {
              integrationId: relayedId,
              type: 'kubernetes',
              server: k8s.url,
              tokenFile: 'token',
              caFile: 'ca.crt',
              namespaces: ['shop'],
              capabilities: ['kubernetes.access', 'kubernetes.pods', 'kubernetes.logs', 'kubernetes.events', 'kubernetes.workloads'],
            },
          ],
        }),
      );
      await relay.logged('session established');
      await until(
        async () =>
          ((await ctx.admin.get('/api/v1/relays', ACME)).body.items as { id: string; state: string }[]).find((r) => r.id === relayId)?.state === 'connected',
        20_000,
        'the relay to be connected',
      );
      k8s.requests.length = 0;
      expect(await verify(relayedId)).toMatchObject({
        outcome: 'succeeded',
        detail: 'Kubernetes (through the relay): the account reads everything the tools need in every namespace (reviewed in default)',
      });
      expect(verifyRequests().map((r) => [r.method, r.path, r.headers.authorization])).toEqual([
        ['POST', '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews', `Bearer ${TOKEN}`],
      ]);

      model.script(
        answer.tools([
          {
            name: 'kubernetes__container_logs',
            input: { integrationId: relayedId, purpose: 'Why did it crash?', namespace: 'shop', pod: 'checkout-5b6c4d-x7k2p', previous: true, tailLines: 5 },
          },
          { name: 'kubernetes__pod_status', input: { integrationId: relayedId, purpose: 'Payments?', namespace: 'payments', labelSelector: 'app=payments' } },
          { name: 'kubernetes__node', input: { integrationId: relayedId, purpose: 'The node?', name: 'node-a' } },
        ]),
        answer.conclude(inconclusive([1])),
      );
      const { done } = await investigate();
      expect(done.runs.map((r: any) => [r.tool, r.outcome])).toEqual([
        ['kubernetes.container_logs', 'succeeded'],
        ['kubernetes.pod_status', 'failed'],
        ['kubernetes.node', 'failed'],
      ]);
      expect(done.runs[0].summary).toBe('5 lines of the previous log of pod shop/checkout-5b6c4d-x7k2p; the last: java.lang.OutOfMemoryError: Java heap space');
      // The relay's own namespaces and capabilities refuse what its configuration does not allow.
      expect(done.runs[1].error).toBe("Through relay shop-cluster: Refused by the relay's local policy: namespace payments is not one this relay reads");
      expect(done.runs[2].error).toMatch(/kubernetes\.nodes/);
      const everything = JSON.stringify([done, (await ctx.admin.get(`/api/v1/integrations/${relayedId}`, ACME)).body]);
      expect(everything).not.toContain(k8s.url);
      expect(everything).not.toContain(TOKEN);
    } finally {
      relay.kill();
      if (relayedId) await ctx.admin.delete(`/api/v1/integrations/${relayedId}`, ACME);
    }
  }, 120_000);
});
