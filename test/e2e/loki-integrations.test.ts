import { readFileSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RelayGateway } from '@svc/relays';
import { Client } from '../support/api';
import { ensureBuilt } from '../support/dist';
import { useBootstrappedApi } from '../support/factories';
import { investigationEnded } from '../support/investigations';
import { shopLogs } from '../support/loki-scenario';
import { LokiStandIn } from '../support/loki-stand-in';
import { freePort } from '../support/ports';
import { relayDirectory, RelayProcess, writeRelayConfig } from '../support/relay-process';
import { answer, offeredToolsOf, ScriptedModelServer, toolResultsOf, userTextOf } from '../support/scripted-model-server';
import { until } from '../support/until';
import { startWorker, TestWorker } from '../support/worker';

const ACME = { headers: { 'x-svc-organization': 'acme' } };
const GLOBEX = { headers: { 'x-svc-organization': 'globex' } };
const CREDENTIALS = { username: 'investigator', password: 'loki-read-secret' };

const inconclusive = (runRefs: number[] = []) => ({
  conclusionStatus: 'inconclusive',
  summary: 'Read the logs.',
  impact: { summary: 'Checkout fails.', runRefs },
  findings: [],
  hypotheses: [],
  actions: [],
  limitations: [],
});

/**
 * Loki integrations through the public API, the real worker with a scripted language model, and a
 * real relay process, against the Loki stand-in (multi-tenant, behind a gateway asking for basic
 * credentials) holding an hour of a shop's logs: checkout warns of a slow query all along and
 * cannot reach inventory-db from just after the onset.
 */
describe('Loki integrations', () => {
  const ctx = useBootstrappedApi({ env: { SVC_RELAY_GRPC_PORT: '0', SVC_RELAY_ALLOW_PLAINTEXT: 'true', SVC_RELAY_HEARTBEAT_SECONDS: '2' } });
  const end = new Date(Math.floor(Date.now() / 60_000) * 60_000);
  const onset = new Date(end.getTime() - 20 * 60_000);
  let loki: LokiStandIn;
  let model: ScriptedModelServer;
  let worker: TestWorker;
  let generic: { id: string; secret: string };
  let lokiId: string;

  /** An alert that began at the onset, its incident investigated in `organization`: the investigation once it ended. */
  async function investigate(webhook = generic, organization = ACME): Promise<{ id: string; done: any }> {
    const alert = await new Client(ctx.api.baseUrl).request('POST', `/webhooks/v1/integrations/${webhook.id}/alert-events`, {
      body: { alerts: [{ labels: { alertname: `CheckoutErrors${Math.random()}`, service: 'checkout' }, startsAt: onset.toISOString() }] },
      headers: { 'x-svc-token': webhook.secret },
      origin: false,
    });
    expect(alert.status).toBe(202);
    const opened = await ctx.admin.post('/api/v1/investigations', { incidentId: alert.body.incidentIds[0] }, organization);
    expect(opened.status).toBe(201);
    return { id: opened.body.id, done: await investigationEnded(ctx.admin, opened.body.id, { headers: organization.headers, timeoutMs: 60_000 }) };
  }
  const create = (body: Record<string, unknown>, organization = ACME) => ctx.admin.post('/api/v1/integrations', body, organization);
  const verify = async (id: string) => (await ctx.admin.post(`/api/v1/integrations/${id}/verify`, {}, ACME)).body.lastVerification;

  beforeAll(async () => {
    ensureBuilt();
    loki = await LokiStandIn.start({ tenants: { shop: shopLogs(onset, end) }, auth: CREDENTIALS });
    model = await ScriptedModelServer.start();
    worker = await startWorker({ SVC_LLM_PROVIDER: 'openai-compatible', SVC_LLM_BASE_URL: model.baseUrl, SVC_LLM_API_KEY: 'sk-e2e-loki', SVC_LLM_MODEL: 'm' });
    expect((await ctx.admin.post('/api/v1/organizations', { id: 'globex', displayName: 'Globex' })).status).toBe(201);
    const g = await create({ type: 'generic', name: 'Checkout alerts' });
    generic = { id: g.body.id, secret: g.body.webhookSecret };
    const created = await create({ type: 'loki', name: 'Shop logs', config: { baseUrl: loki.url, tenant: 'shop' }, credentials: CREDENTIALS });
    expect(created.status, created.text).toBe(201);
    lokiId = created.body.id;
  }, 180_000);

  afterAll(async () => {
    await worker?.close();
    await model?.close();
    await loki?.close();
  });

  it('publishes the type, keeps the credentials write-only, and verifies the tenant it reads', async () => {
    const types = await ctx.admin.get('/api/v1/integration-types?limit=200', ACME);
    const type = types.body.items.find((t: { id: string }) => t.id === 'loki');
    expect(type).toMatchObject({ displayName: 'Grafana Loki', webhookFormat: null, connect: 'manual' });
    expect(Object.keys(type.configSchema.properties)).toEqual(['baseUrl', 'tenant', 'relayId']);

    const read = await ctx.admin.get(`/api/v1/integrations/${lokiId}`, ACME);
    expect(read.body).toMatchObject({ type: 'loki', hasCredentials: true, webhookUrl: null, config: { baseUrl: loki.url, tenant: 'shop' } });
    expect(JSON.stringify(read.body)).not.toContain(CREDENTIALS.password);

    loki.requests.length = 0;
    expect(await verify(lokiId)).toMatchObject({ outcome: 'succeeded', detail: 'Loki for tenant shop: 3 labels in the last 6 hours (app, namespace, pod)' });
    expect(loki.requests[0].path).toBe('/loki/api/v1/labels');
    expect(loki.requests[0].headers['x-scope-orgid']).toBe('shop');
    expect(loki.requests[0].headers.authorization).toBe(`Basic ${Buffer.from(`${CREDENTIALS.username}:${CREDENTIALS.password}`).toString('base64')}`);
    const audit = await ctx.admin.get(`/api/v1/audit-events?action=integration.verify&targetId=${lokiId}`, ACME);
    expect(JSON.stringify(audit.body)).not.toContain(CREDENTIALS.password);
  });

  it('says what failed: another tenant, no tenant, refused credentials, nothing listening, not Loki', async () => {
    const notLoki: Server = createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"success","data":{"result":[]}}'),
    );
    await new Promise<void>((resolve) => notLoki.listen(0, '127.0.0.1', resolve));
    const closedPort = await freePort();
    const cases: Array<[Record<string, unknown>, Record<string, unknown> | undefined, string]> = [
      [
        { baseUrl: loki.url, tenant: 'billing' },
        CREDENTIALS,
        'Loki answered for tenant billing but holds no log stream of the last 6 hours: check the tenant (Loki answers any tenant id, with nothing for one it has no logs of)',
      ],
      [
        { baseUrl: loki.url },
        CREDENTIALS,
        'Loki answered HTTP 401 at /loki/api/v1/labels: Loki is multi-tenant and the request named no tenant: set config.tenant (sent as X-Scope-OrgID)',
      ],
      [
        { baseUrl: loki.url, tenant: 'shop' },
        { ...CREDENTIALS, password: 'wrong' },
        'Loki answered HTTP 401 at /loki/api/v1/labels: the credentials were refused',
      ],
      [
        { baseUrl: `http://127.0.0.1:${closedPort}` },
        undefined,
        `Could not connect to http://127.0.0.1:${closedPort}: no HTTP answer within 5 s (refused, reset, filtered or not HTTP)`,
      ],
      [{ baseUrl: `http://127.0.0.1:${(notLoki.address() as AddressInfo).port}` }, undefined, "The answer at /loki/api/v1/labels is not Loki's"],
    ];
    try {
      for (const [config, credentials, detail] of cases) {
        const made = await create({ type: 'loki', name: 'Probe', config, ...(credentials ? { credentials } : {}) });
        expect(made.status, made.text).toBe(201);
        expect(await verify(made.body.id), JSON.stringify(config)).toMatchObject({ outcome: 'failed', detail });
        expect((await ctx.admin.delete(`/api/v1/integrations/${made.body.id}`, ACME)).status).toBe(204);
      }
    } finally {
      notLoki.close();
    }
  }, 60_000);

  it('refuses a config or credentials that do not fit with a 400 in the error shape', async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ type: 'loki', name: 'No URL', config: { tenant: 'shop' } }, /^Invalid input: config\.baseUrl or config\.relayId is required \(one of them\)$/],
      [{ type: 'loki', name: 'Space', config: { baseUrl: loki.url, tenant: 'shop floor' } }, /^Invalid input: config\.tenant must match pattern/],
      [{ type: 'loki', name: 'FTP', config: { baseUrl: 'ftp://loki:3100' } }, /^Invalid input: config\.baseUrl must match pattern/],
      [{ type: 'loki', name: 'Extra', config: { baseUrl: loki.url, org: 'shop' } }, /^Invalid input: config has unknown property org$/],
      [{ type: 'loki', name: 'Token', config: { baseUrl: loki.url }, credentials: { token: 'x' } }, /^Invalid input: credentials/],
      [
        { type: 'loki', name: 'Both', config: { relayId: '0190a000-0000-7000-8000-00000000dead', tenant: 'shop' } },
        /^Invalid input: config\.tenant and config\.relayId: a relay-bound Loki's tenant is set in the relay configuration/,
      ],
      [
        { type: 'loki', name: 'Metadata', config: { baseUrl: 'http://169.254.169.254/' } },
        /^config\.baseUrl: The outbound policy refuses 169\.254\.169\.254 port 80: link-local addresses/,
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
      ['GET', `/api/v1/integrations/${lokiId}`],
      ['POST', `/api/v1/integrations/${lokiId}/verify`],
      ['PATCH', `/api/v1/integrations/${lokiId}`],
      ['DELETE', `/api/v1/integrations/${lokiId}`],
    ]) {
      const res = await ctx.admin.request(method, path, { ...GLOBEX, ...(method === 'PATCH' ? { body: { name: 'Mine now' } } : {}) });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    const listed = await ctx.admin.get('/api/v1/integrations?type=loki', GLOBEX);
    expect(listed.body.items).toEqual([]);

    const theirs = await create({ type: 'generic', name: 'Globex alerts' }, GLOBEX);
    model.script(answer.conclude(inconclusive()));
    const asked = model.requests.length;
    await investigate({ id: theirs.body.id, secret: theirs.body.webhookSecret }, GLOBEX);
    expect(Object.keys(offeredToolsOf(model.requests[asked])).filter((name) => name.startsWith('loki__'))).toEqual([]);
    expect(userTextOf(model.requests[asked])).not.toContain(lokiId);
    expect((await ctx.admin.get(`/api/v1/integrations/${lokiId}`, ACME)).body.name).toBe('Shop logs');
  });

  it('offers the model the Loki tools and records each run: a refused query, a page of lines with how to read the next, the error template that began at the onset', async () => {
    model.script(
      answer.tools([
        { name: 'loki__labels', input: { integrationId: lokiId, purpose: 'How are the streams labelled?' } },
        { name: 'loki__query_range', input: { integrationId: lokiId, purpose: 'A broken query', query: '{app="checkout"' } },
        { name: 'loki__query_range', input: { integrationId: lokiId, purpose: "Checkout's lines", query: '{app="checkout"}', limit: 150 } },
        {
          name: 'loki__log_patterns',
          input: { integrationId: lokiId, purpose: 'What began at the onset?', selector: '{namespace="shop", app="checkout"}', onset: onset.toISOString() },
        },
      ]),
      answer.conclude(inconclusive([1, 3, 4])),
    );
    loki.requests.length = 0;
    const { id, done } = await investigate();

    expect(done.status).toBe('concluded');
    expect(done.runs.map((r: any) => [r.ordinal, r.tool, r.integrationId, r.outcome])).toEqual([
      [1, 'loki.labels', lokiId, 'succeeded'],
      [2, 'loki.query_range', null, 'failed'],
      [3, 'loki.query_range', lokiId, 'succeeded'],
      [4, 'loki.log_patterns', lokiId, 'succeeded'],
    ]);
    const [labels, refused, lines, patterns] = done.runs;
    expect(labels.summary).toMatch(/^3 labels on the streams between \S+ and \S+: app, namespace, pod\.$/);
    expect(labels.windowFrom).toBe(done.windowFrom);
    expect(refused.error).toBe('Invalid arguments: query does not parse as LogQL: syntax error at line 1, col 16: the query ends too early');
    expect(refused.sources).toEqual([]);
    expect(lines.summary).toContain('The run keeps the first 100 of the 150 lines Loki returned.');
    expect(lines.summary).toMatch(/Next page: the same query with start=\S+ and end=\S+ \(it begins with the last line kept\)\./);
    expect(lines.sources).toEqual([
      expect.stringMatching(/^\/loki\/api\/v1\/query_range\?query=%7Bapp%3D%22checkout%22%7D&start=\d+&end=\d+&limit=150&direction=backward$/),
    ]);
    expect(patterns.summary).toContain('New since the onset: `level=error msg="error connecting to inventory-db:<port>: connection refused" attempt=<num>`');
    // Before: the 60 min of the window before the onset; after: to the window's end (when the investigation opened).
    expect(patterns.summary).toMatch(/connection refused" attempt=<num>` from \d\d:\d\d:10 \([\d.]+\/min after, none in the 60 min before\)/);
    expect(patterns.summary).toContain('Already there before: ');
    expect(patterns.truncated).toBe(false);

    // Every request carried the tenant and the credentials; none was made for the refused query.
    expect(loki.requests.length).toBeGreaterThan(0);
    expect(loki.requests.every((r) => r.headers['x-scope-orgid'] === 'shop' && r.headers.authorization?.startsWith('Basic '))).toBe(true);
    expect(loki.requests.some((r) => r.params.get('query') === '{app="checkout"')).toBe(false);

    const offered = offeredToolsOf(model.requests.at(-2)!);
    for (const name of ['loki__labels', 'loki__label_values', 'loki__query_range', 'loki__log_patterns'])
      expect(offered[name].parameters.properties.integrationId.enum).toContain(lokiId);
    const results = toolResultsOf(model.requests.at(-1)!);
    expect(results[1].text).toContain('Error: Invalid arguments: query does not parse as LogQL');
    expect(results[3].text).toContain('"status":"new"');

    // The templates as a table: the error that began at the onset first, with its minutes around it.
    const table = await ctx.admin.get(`/api/v1/investigations/${id}/runs/4/templates`, ACME);
    expect(table.status).toBe(200);
    expect(table.body).toMatchObject({
      investigationId: id,
      ordinal: 4,
      tool: 'loki.log_patterns',
      query: '{namespace="shop", app="checkout"}',
      more: 0,
      truncated: false,
    });
    expect(table.body.onset).toBe(onset.toISOString().replace(/\.(\d{3})Z$/, '.$1000000Z'));
    const [began, ...rest] = table.body.templates;
    expect(began).toMatchObject({
      template: 'level=error msg="error connecting to inventory-db:<port>: connection refused" attempt=<num>',
      status: 'new',
      labels: {},
      before: 0,
      example: 'level=error msg="error connecting to inventory-db:5432: connection refused" attempt=0',
    });
    expect(began.after).toBeGreaterThan(0);
    expect(began.perMinuteAroundOnset).toHaveLength(21);
    expect(began.perMinuteAroundOnset.slice(0, 10)).toEqual(Array(10).fill(0));
    expect(rest.find((t: any) => t.template.startsWith('level=warn'))).toMatchObject({ status: 'steady' });
    // Another run has no templates; an unknown run, or another Organization's, is 404.
    expect((await ctx.admin.get(`/api/v1/investigations/${id}/runs/1/templates`, ACME)).body).toMatchObject({
      tool: 'loki.labels',
      query: null,
      templates: [],
    });
    expect((await ctx.admin.get(`/api/v1/investigations/${id}/runs/9/templates`, ACME)).status).toBe(404);
    expect((await ctx.admin.get(`/api/v1/investigations/${id}/runs/4/templates`, GLOBEX)).status).toBe(404);
    expect((await ctx.admin.get(`/api/v1/investigations/${id}/runs/0/templates`, ACME)).body).toEqual({
      error: 'Invalid input: ordinal must be an integer from 1 to 2147483647',
    });

    const activity = await ctx.admin.get(`/api/v1/investigations/${id}/activity?limit=200`, ACME);
    expect(activity.body.items.filter((e: any) => e.type === 'tool.started').map((e: any) => e.data.ordinal)).toEqual([1, 3, 4]);
    const sources = await ctx.admin.get(`/api/v1/investigations/${id}/sources`, ACME);
    expect(sources.body.sources).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          integrationId: lokiId,
          reason: 'Shop logs: Loki logs: labels, lines, counts over time and log templates before and after the onset',
        }),
      ]),
    );
  }, 90_000);

  it('reads a Loki that only a relay reaches, with the tenant and credentials of the relay configuration', async () => {
    const dir = relayDirectory();
    const server = `127.0.0.1:${ctx.api.app.get(RelayGateway).port}`;
    const token = (await ctx.admin.post('/api/v1/relays/bootstrap-tokens', { name: 'shop-dc' }, ACME)).body.token;
    let relay = RelayProcess.start(writeRelayConfig(dir, { server, plaintext: true, stateFile: 'state.json', bootstrapToken: token, integrations: [] }));
    let relayedId: string | undefined;
    try {
      await relay.logged('session established');
      const relayId = (JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8')) as { relayId: string }).relayId;
      const created = await create({ type: 'loki', name: 'Shop logs in the datacenter', config: { relayId } });
      expect(created.status, created.text).toBe(201);
      relayedId = created.body.id as string;
      expect(await relay.stop()).toBe(0);
      // The relay alone knows where Loki is, its tenant and its credentials; it offers no patterns read.
      relay = RelayProcess.start(
        writeRelayConfig(dir, {
          server,
          plaintext: true,
          stateFile: 'state.json',
          integrations: [
            {
              integrationId: relayedId,
              type: 'loki',
              baseUrl: loki.url,
              tenant: 'shop',
              credentials: CREDENTIALS,
              capabilities: ['loki.labels', 'loki.query_range'],
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
      expect(await verify(relayedId)).toMatchObject({
        outcome: 'succeeded',
        // The tenant is the relay's to know.
        detail: 'Loki: 3 labels in the last 6 hours (app, namespace, pod) (through the relay)',
      });

      model.script(
        answer.tools([
          {
            name: 'loki__log_patterns',
            input: { integrationId: relayedId, purpose: 'What began at the onset?', selector: '{app="checkout"}', onset: onset.toISOString() },
          },
        ]),
        answer.conclude(inconclusive([1])),
      );
      loki.requests.length = 0;
      const { done } = await investigate();
      expect(done.runs).toHaveLength(1);
      expect(done.runs[0]).toMatchObject({ tool: 'loki.log_patterns', integrationId: relayedId, outcome: 'succeeded' });
      expect(done.runs[0].summary).toContain(
        'New since the onset: `level=error msg="error connecting to inventory-db:<port>: connection refused" attempt=<num>`',
      );
      // The relay does not offer Loki's patterns: the lines are mined here, read through the relay.
      expect(done.runs[0].summary).toMatch(/\(Mined here: Relay shop-dc does not offer loki\.patterns .*\)$/);
      expect(loki.requests.map((r) => r.path)).toEqual(['/loki/api/v1/query_range', '/loki/api/v1/query_range']);
      expect(loki.requests.every((r) => r.headers['x-scope-orgid'] === 'shop')).toBe(true);
      const everything = JSON.stringify([done, (await ctx.admin.get(`/api/v1/integrations/${relayedId}`, ACME)).body]);
      expect(everything).not.toContain(loki.url);
      expect(everything).not.toContain(CREDENTIALS.password);
    } finally {
      relay.kill();
      if (relayedId) await ctx.admin.delete(`/api/v1/integrations/${relayedId}`, ACME);
    }
  }, 120_000);
});
