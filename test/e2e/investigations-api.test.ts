import { beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../support/api';
import { signedInMember, useBootstrappedApi } from '../support/factories';

/** The investigations API without a worker: opening queues, reading, listing, cancelling, tenancy. */
describe('investigations API', () => {
  const ctx = useBootstrappedApi();
  let incidentId: string;
  let otherIncidentId: string;

  async function incident(name: string): Promise<string> {
    const g = await ctx.admin.post('/api/v1/integrations', { type: 'generic', name: `Alerts ${name}` });
    const res = await new Client(ctx.api.baseUrl).request('POST', `/webhooks/v1/integrations/${g.body.id}/alert-events`, {
      body: { alerts: [{ labels: { alertname: name, service: 'api' }, startsAt: '2026-11-22T02:00:00Z' }] },
      headers: { 'x-svc-token': g.body.webhookSecret },
      origin: false,
    });
    return res.body.incidentIds[0];
  }

  beforeAll(async () => {
    incidentId = await incident('ApiErrors');
    otherIncidentId = await incident('DiskFull');
  });

  it('opens an investigation as queued, with its job in the outbox and an audit record', async () => {
    const res = await ctx.admin.post('/api/v1/investigations', { incidentId });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      status: 'queued',
      incidentId,
      subject: 'What caused "ApiErrors (api)"?',
      findings: [],
      hypotheses: [],
      actions: [],
      limitations: [],
      usage: { inputTokens: 0, outputTokens: 0 },
      conclusionStatus: null,
      summary: null,
      humanConfirmationRequired: false,
      windowFrom: '2026-11-22T01:00:00.000000Z',
    });
    expect(res.body.runs).toBeUndefined();
    expect(res.body.windowUntil > res.body.windowFrom).toBe(true);
    const [job] = await ctx.api.dataSource.query(`SELECT queue, job_name, payload FROM outbox_messages WHERE payload->>'investigationId' = $1`, [res.body.id]);
    expect(job).toMatchObject({ queue: 'investigations', job_name: 'investigation.run' });
    const audit = await ctx.admin.get('/api/v1/audit-events?limit=200');
    expect(audit.body.events.some((e: { action: string; targetId: string }) => e.action === 'investigation.open' && e.targetId === res.body.id)).toBe(true);
  });

  it('refuses bad input with the contract error and unknown incidents with 404', async () => {
    expect((await ctx.admin.post('/api/v1/investigations', { incidentId: 'nope' })).status).toBe(400);
    expect((await ctx.admin.post('/api/v1/investigations', { incidentId, extra: 1 })).status).toBe(400);
    expect((await ctx.admin.post('/api/v1/investigations', {})).status).toBe(400);
    const unknown = await ctx.admin.post('/api/v1/investigations', { incidentId: '0190a000-0000-7000-8000-000000000000' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: expect.stringContaining('Incident') });
  });

  it('lists newest first with total and filters, through both addressing forms', async () => {
    // Two of its own, so that there is a second page (other tests only ever investigate incidentId).
    const first = await ctx.admin.post('/api/v1/investigations', { incidentId });
    expect(first.status).toBe(201);
    const second = await ctx.admin.post('/api/v1/investigations', { incidentId: otherIncidentId });
    expect(second.status).toBe(201);
    const all = await ctx.admin.get('/api/v1/investigations');
    expect(all.status).toBe(200);
    expect(Object.keys(all.body).sort()).toEqual(['items', 'next', 'total']);
    expect(all.body.total).toBe(all.body.items.length);
    expect(all.body.items[0].id).toBe(second.body.id);
    expect(all.body.items[0].runs).toBeUndefined();
    const byIncident = await ctx.admin.get(`/api/v1/investigations?incidentId=${otherIncidentId}`);
    expect(byIncident.body).toMatchObject({ total: 1, items: [{ id: second.body.id }] });
    expect((await ctx.admin.get('/api/v1/investigations?status=concluded')).body).toEqual({ next: null, total: 0, items: [] });
    const paged = await ctx.admin.get('/api/v1/investigations?limit=1');
    expect(paged.body.items).toHaveLength(1);
    expect(paged.body.total).toBe(all.body.total);
    const rest = await ctx.admin.get(`/api/v1/investigations?limit=1&cursor=${encodeURIComponent(paged.body.next)}`);
    expect(rest.body.items[0].id).not.toBe(paged.body.items[0].id);
    expect((await ctx.admin.get('/api/v1/organizations/acme/investigations')).body.total).toBe(all.body.total);
    expect((await ctx.admin.get('/api/v1/investigations?status=nope')).status).toBe(400);
  });

  it('reads one with its runs, hypotheses, activity, report and (with the header) sources', async () => {
    const { body: opened } = await ctx.admin.post('/api/v1/investigations', { incidentId });
    expect((await ctx.admin.get(`/api/v1/investigations/${opened.id}`)).body).toMatchObject({ id: opened.id, runs: [] });
    expect((await ctx.admin.get(`/api/v1/investigations/${opened.id}/hypotheses`)).body).toEqual({
      investigationId: opened.id,
      status: 'queued',
      final: false,
      items: [],
    });
    expect((await ctx.admin.get(`/api/v1/investigations/${opened.id}/activity`)).body).toEqual({ items: [], next: null });
    expect((await ctx.admin.get(`/api/v1/investigations/${opened.id}/sources`)).status).toBe(400);
    expect((await ctx.admin.get(`/api/v1/investigations/${opened.id}/sources`, { headers: { 'x-svc-organization': 'acme' } })).body).toEqual({
      investigationId: opened.id,
      sources: [],
      runs: [],
    });
    const report = await ctx.admin.get(`/api/v1/investigations/${opened.id}/report`);
    expect(report.status).toBe(200);
    expect(report.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(report.text).toMatch(/^# What caused "ApiErrors \(api\)"\?\n/);
    expect(report.text).toContain('- Status: queued');
  });

  it('cancels a queued investigation once (then 409), with its terminal event', async () => {
    const { body: opened } = await ctx.admin.post('/api/v1/investigations', { incidentId });
    const cancelled = await ctx.admin.post(`/api/v1/investigations/${opened.id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ id: opened.id, status: 'cancelled', concludedAt: expect.any(String) });
    const again = await ctx.admin.post(`/api/v1/investigations/${opened.id}/cancel`);
    expect(again.status).toBe(409);
    const activity = await ctx.admin.get(`/api/v1/investigations/${opened.id}/activity`);
    expect(activity.body.items).toEqual([
      { sequence: 1, type: 'cancelled', investigationId: opened.id, at: expect.any(String), data: { status: 'cancelled' } },
    ]);
    expect((await ctx.admin.get(`/api/v1/investigations/${opened.id}/hypotheses`)).body.final).toBe(true);
  });

  it('Viewers read but neither open nor cancel; other Organizations see nothing', async () => {
    const { body: opened } = await ctx.admin.post('/api/v1/investigations', { incidentId });
    const { client: viewer } = await signedInMember(ctx.api, 'acme', 'viewer');
    expect((await viewer.get(`/api/v1/investigations/${opened.id}`)).status).toBe(200);
    expect((await viewer.post('/api/v1/investigations', { incidentId })).status).toBe(403);
    expect((await viewer.post(`/api/v1/investigations/${opened.id}/cancel`)).status).toBe(403);
    const { client: editor } = await signedInMember(ctx.api, 'acme', 'editor');
    expect((await editor.post('/api/v1/investigations', { incidentId })).status).toBe(201);

    await ctx.admin.post('/api/v1/organizations', { id: 'elsewhere', displayName: 'Elsewhere' });
    const headers = { 'x-svc-organization': 'elsewhere' };
    expect((await ctx.admin.get('/api/v1/investigations', { headers })).body).toEqual({ next: null, total: 0, items: [] });
    for (const path of ['', '/activity', '/hypotheses', '/report', '/events', '/sources']) {
      const res = await ctx.admin.get(`/api/v1/investigations/${opened.id}${path}`, { headers });
      expect(res.status).toBe(404);
    }
    expect((await ctx.admin.post(`/api/v1/investigations/${opened.id}/cancel`, undefined, { headers })).status).toBe(404);
    // An incident of another Organization cannot be investigated from this one.
    expect((await ctx.admin.post('/api/v1/investigations', { incidentId }, { headers })).status).toBe(404);
  });
});
