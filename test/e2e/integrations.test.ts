import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../support/api';
import { signedInMember, useBootstrappedApi } from '../support/factories';
import { MonitoringProcess } from '../support/monitoring-stack';
import { freePort } from '../support/ports';

describe('integrations', () => {
  const ctx = useBootstrappedApi();
  let prometheus: MonitoringProcess;
  let alertmanager: MonitoringProcess;

  beforeAll(async () => {
    [prometheus, alertmanager] = await Promise.all([MonitoringProcess.prometheus(), MonitoringProcess.alertmanager()]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([prometheus?.stop(), alertmanager?.stop()]);
  });

  it("publishes the catalog with each type's capabilities and schemas", async () => {
    const res = await ctx.admin.get('/api/v1/integration-types');
    expect(res.status).toBe(200);
    expect(res.body.items.map((t: { id: string }) => t.id)).toEqual([
      'alertmanager',
      'grafana',
      'generic',
      'changes',
      'prometheus',
      'chat',
      'postgresql',
      'mysql',
      'redis',
      'rabbitmq',
      'loki',
      'kubernetes',
    ]);
    expect(res.body.items.find((t: { id: string }) => t.id === 'changes')).toMatchObject({
      capabilities: ['change-webhook'],
      webhookFormat: 'changes',
      signedWebhook: true,
      credentialsSchema: null,
    });
    const prom = res.body.items.find((t: { id: string }) => t.id === 'prometheus');
    expect(prom).toMatchObject({
      displayName: 'Prometheus',
      webhookFormat: null,
      connect: 'manual',
      configSchema: { oneOf: [{ required: ['baseUrl'] }, { required: ['relayId'] }] },
    });
  });

  it('creates a webhook integration: enabled, with its webhook URL and a secret shown once and stored hashed', async () => {
    const res = await ctx.admin.post('/api/v1/integrations', { type: 'generic', name: 'Ops webhook', config: { groupingLabels: ['alertname', 'cluster'] } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      type: 'generic',
      name: 'Ops webhook',
      enabled: true,
      config: { groupingLabels: ['alertname', 'cluster'] },
      hasCredentials: false,
      webhookUrl: `http://console.test:8080/webhooks/v1/integrations/${res.body.id}/alert-events`,
      webhookSecret: expect.stringMatching(/^whsec_[A-Za-z0-9_-]{43}$/),
    });
    const again = await ctx.admin.get(`/api/v1/integrations/${res.body.id}`);
    expect(again.body.webhookSecret).toBeUndefined();
    const [row] = await ctx.api.dataSource.query('SELECT webhook_secret_hash FROM integrations WHERE id = $1', [res.body.id]);
    expect((row.webhook_secret_hash as Buffer).length).toBe(32);
  });

  it('keeps credentials encrypted and write-only', async () => {
    const res = await ctx.admin.post('/api/v1/integrations', {
      type: 'prometheus',
      name: 'Prod',
      config: { baseUrl: prometheus.url },
      credentials: { bearerToken: 'prom-secret-token-123' },
    });
    expect(res.status).toBe(201);
    expect(res.body.hasCredentials).toBe(true);
    expect(JSON.stringify(res.body)).not.toContain('prom-secret-token-123');
    expect(res.body.webhookSecret).toBeUndefined();
    expect(res.body.webhookUrl).toBeNull();
    const [row] = await ctx.api.dataSource.query('SELECT credentials_sealed FROM integrations WHERE id = $1', [res.body.id]);
    expect((row.credentials_sealed as Buffer).toString('latin1')).not.toContain('prom-secret-token-123');
    const audit = await ctx.admin.get('/api/v1/audit-events?action=integration.create');
    expect(JSON.stringify(audit.body)).not.toContain('prom-secret-token-123');
  });

  it("validates config and credentials against the type's schemas", async () => {
    const bad = [
      { type: 'pagerduty', name: 'x' },
      { type: 'prometheus', name: 'x' },
      { type: 'prometheus', name: 'x', config: { baseUrl: 'ftp://nope' } },
      { type: 'prometheus', name: 'x', config: { baseUrl: prometheus.url, extra: 1 } },
      { type: 'prometheus', name: 'x', config: { baseUrl: prometheus.url }, credentials: { token: 'x' } },
      { type: 'generic', name: 'x', credentials: { bearerToken: 'x' } },
      { type: 'generic', name: 'x', config: { groupingLabels: [] } },
      { type: 'generic', name: '' },
    ];
    for (const body of bad) {
      const res = await ctx.admin.post('/api/v1/integrations', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toMatch(/^Invalid input/);
    }
  });

  it('verify contacts a real Prometheus and records what it found', async () => {
    const created = await ctx.admin.post('/api/v1/integrations', { type: 'prometheus', name: 'Local', config: { baseUrl: prometheus.url } });
    const res = await ctx.admin.post(`/api/v1/integrations/${created.body.id}/verify`);
    expect(res.status).toBe(200);
    expect(res.body.lastVerification).toEqual({ at: expect.stringMatching(/Z$/), outcome: 'succeeded', detail: expect.stringMatching(/^Prometheus \d+\.\d+/) });
    const audit = await ctx.admin.get(`/api/v1/audit-events?action=integration.verify&targetId=${created.body.id}`);
    expect(audit.body.events[0]).toMatchObject({ outcome: 'allowed', detail: { outcome: 'succeeded' } });
  });

  it('verify contacts a real Alertmanager', async () => {
    const created = await ctx.admin.post('/api/v1/integrations', { type: 'alertmanager', name: 'AM', config: { baseUrl: alertmanager.url } });
    const res = await ctx.admin.post(`/api/v1/integrations/${created.body.id}/verify`);
    expect(res.status).toBe(200);
    expect(res.body.lastVerification).toMatchObject({ outcome: 'succeeded', detail: expect.stringMatching(/^Alertmanager \d+\.\d+/) });
  });

  it('verify records a failure when nothing answers, and refuses types with nothing to contact', async () => {
    const port = await freePort();
    const created = await ctx.admin.post('/api/v1/integrations', { type: 'prometheus', name: 'Gone', config: { baseUrl: `http://127.0.0.1:${port}` } });
    const res = await ctx.admin.post(`/api/v1/integrations/${created.body.id}/verify`);
    expect(res.status).toBe(200);
    expect(res.body.lastVerification).toMatchObject({
      outcome: 'failed',
      detail: `Could not connect to http://127.0.0.1:${port}: no HTTP answer within 5 s (refused, reset, filtered or not HTTP)`,
    });
    const generic = await ctx.admin.post('/api/v1/integrations', { type: 'generic', name: 'G' });
    expect((await ctx.admin.post(`/api/v1/integrations/${generic.body.id}/verify`)).status).toBe(400);
    const noUrl = await ctx.admin.post('/api/v1/integrations', { type: 'alertmanager', name: 'No URL' });
    expect((await ctx.admin.post(`/api/v1/integrations/${noUrl.body.id}/verify`)).status).toBe(400);
  });

  it('verify sends the stored credentials (a Prometheus behind an authenticating proxy)', async () => {
    // The Debian Prometheus only protects its API with bcrypt basic-auth files; this loopback proxy
    // forwards to the real Prometheus when the bearer token matches.
    const proxy: Server = createServer(async (req, res) => {
      if (req.headers.authorization !== 'Bearer the-right-token') {
        res.writeHead(401).end();
        return;
      }
      const upstream = await fetch(`${prometheus.url}${req.url}`);
      res.writeHead(upstream.status, { 'content-type': 'application/json' }).end(Buffer.from(await upstream.arrayBuffer()));
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', () => r()));
    const baseUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    try {
      const wrong = await ctx.admin.post('/api/v1/integrations', {
        type: 'prometheus',
        name: 'Wrong',
        config: { baseUrl },
        credentials: { bearerToken: 'nope' },
      });
      expect((await ctx.admin.post(`/api/v1/integrations/${wrong.body.id}/verify`)).body.lastVerification).toMatchObject({
        outcome: 'failed',
        detail: expect.stringContaining('HTTP 401'),
      });
      await ctx.admin.patch(`/api/v1/integrations/${wrong.body.id}`, { credentials: { bearerToken: 'the-right-token' } });
      expect((await ctx.admin.post(`/api/v1/integrations/${wrong.body.id}/verify`)).body.lastVerification.outcome).toBe('succeeded');
      const cleared = await ctx.admin.patch(`/api/v1/integrations/${wrong.body.id}`, { credentials: null });
      expect(cleared.body.hasCredentials).toBe(false);
    } finally {
      proxy.close();
    }
  });

  it('enables, disables, renames, rotates the webhook secret and deletes, each audited', async () => {
    const created = await ctx.admin.post('/api/v1/integrations', { type: 'alertmanager', name: 'Lifecycle' });
    const id = created.body.id;
    expect((await ctx.admin.post(`/api/v1/integrations/${id}/disable`)).body.enabled).toBe(false);
    expect((await ctx.admin.post(`/api/v1/integrations/${id}/enable`)).body.enabled).toBe(true);
    expect((await ctx.admin.patch(`/api/v1/integrations/${id}`, { name: 'Renamed' })).body.name).toBe('Renamed');
    const [before] = await ctx.api.dataSource.query('SELECT webhook_secret_hash FROM integrations WHERE id = $1', [id]);
    const rotated = await ctx.admin.post(`/api/v1/integrations/${id}/rotate-webhook-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body).toEqual({ webhookSecret: expect.stringMatching(/^whsec_/), effect: 'The previous secret stopped working immediately.' });
    expect(rotated.body.webhookSecret).not.toBe(created.body.webhookSecret);
    const [after] = await ctx.api.dataSource.query('SELECT webhook_secret_hash FROM integrations WHERE id = $1', [id]);
    expect(Buffer.compare(before.webhook_secret_hash, after.webhook_secret_hash)).not.toBe(0);
    const prom = await ctx.admin.post('/api/v1/integrations', { type: 'prometheus', name: 'P', config: { baseUrl: prometheus.url } });
    expect((await ctx.admin.post(`/api/v1/integrations/${prom.body.id}/rotate-webhook-secret`)).status).toBe(400);
    expect((await ctx.admin.delete(`/api/v1/integrations/${id}`)).status).toBe(204);
    expect((await ctx.admin.get(`/api/v1/integrations/${id}`)).status).toBe(404);
    const actions = (await ctx.admin.get(`/api/v1/audit-events?targetId=${id}&limit=50`)).body.events.map((e: { action: string }) => e.action);
    expect(actions).toEqual([
      'integration.delete',
      'integration.rotate_webhook_secret',
      'integration.update',
      'integration.enable',
      'integration.disable',
      'integration.create',
    ]);
    const auditText = JSON.stringify((await ctx.admin.get(`/api/v1/audit-events?targetId=${id}&limit=50`)).body);
    expect(auditText).not.toContain(rotated.body.webhookSecret);
  });

  it('lists newest first with filters, through both addressing forms, tenant-scoped', async () => {
    // An Organization of this test's own: three Prometheus integrations, the middle one disabled, and a webhook one.
    expect((await ctx.admin.post('/api/v1/organizations', { id: 'listed', displayName: 'Listed' })).status).toBe(201);
    const listed = { headers: { 'x-svc-organization': 'listed' } };
    const ids: string[] = [];
    for (const body of [
      { type: 'prometheus', name: 'P1', config: { baseUrl: prometheus.url } },
      { type: 'generic', name: 'G' },
      { type: 'prometheus', name: 'P2', config: { baseUrl: prometheus.url } },
      { type: 'prometheus', name: 'P3', config: { baseUrl: prometheus.url } },
    ]) {
      const res = await ctx.admin.post('/api/v1/integrations', body, listed);
      expect(res.status).toBe(201);
      ids.push(res.body.id);
    }
    const [p1, generic, p2, p3] = ids;
    expect((await ctx.admin.post(`/api/v1/integrations/${p2}/disable`, undefined, listed)).body.enabled).toBe(false);
    const idsOf = (res: { body: { items: { id: string }[] } }) => res.body.items.map((i) => i.id);

    const list = await ctx.admin.get('/api/v1/integrations?type=prometheus&limit=2', listed);
    expect(list.status).toBe(200);
    expect(idsOf(list)).toEqual([p3, p2]);
    expect(list.body.next).not.toBeNull();
    const rest = await ctx.admin.get(`/api/v1/integrations?type=prometheus&limit=2&cursor=${encodeURIComponent(list.body.next)}`, listed);
    expect(idsOf(rest)).toEqual([p1]);
    expect(rest.body.next).toBeNull();
    const alias = await ctx.admin.get('/api/v1/organizations/listed/integrations?enabled=true');
    expect(Object.keys(alias.body).sort()).toEqual(['items', 'next']);
    expect(idsOf(alias)).toEqual([p3, generic, p1]);

    // Another Organization sees none of them.
    expect((await ctx.admin.post('/api/v1/organizations', { id: 'unlisted', displayName: 'Unlisted' })).status).toBe(201);
    expect((await ctx.admin.get(`/api/v1/integrations/${p3}`, { headers: { 'x-svc-organization': 'unlisted' } })).status).toBe(404);
    expect((await ctx.admin.get('/api/v1/organizations/unlisted/integrations')).body.items).toEqual([]);
    expect((await ctx.admin.get('/api/v1/integrations?enabled=maybe')).status).toBe(400);
  });

  it('Viewers read, only Admins change; connect routes explain which types do not connect by OAuth', async () => {
    const { client: viewer } = await signedInMember(ctx.api, 'acme', 'viewer');
    expect((await viewer.get('/api/v1/integrations')).status).toBe(200);
    const denied = await viewer.post('/api/v1/integrations', { type: 'generic', name: 'x' });
    expect(denied.status).toBe(403);
    expect(denied.body.requires).toBe('integrations:write');
    const connect = await ctx.admin.post('/api/v1/integration-types/prometheus/connect');
    expect(connect.status).toBe(400);
    expect(connect.body.error).toMatch(/do not connect by OAuth/);
    expect((await ctx.admin.post('/api/v1/integration-types/pagerduty/connect')).status).toBe(404);
    expect((await ctx.admin.get('/api/v1/integrations/connect/callback')).status).toBe(400);
    expect((await new Client(ctx.api.baseUrl).get('/api/v1/integrations')).status).toBe(401);
  });
});
