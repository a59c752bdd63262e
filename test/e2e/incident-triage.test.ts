import { beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../support/api';
import { useBootstrappedApi } from '../support/factories';

/**
 * What the API gives for triage: each incident's headline, severity, service and namespace from its
 * alerts, listings in either order, and the investigations of a page of incidents in one read.
 */
describe('incident triage through the API', () => {
  const ctx = useBootstrappedApi();
  let deliver: (body: object, organization?: string) => Promise<string[]>;
  const other = { 'x-svc-organization': 'triage-other' };

  async function integration(organization?: string) {
    const created = await ctx.admin.post(
      '/api/v1/integrations',
      { type: 'generic', name: `Alerts ${organization ?? 'acme'}` },
      { headers: organization ? { 'x-svc-organization': organization } : {} },
    );
    expect(created.status).toBe(201);
    return created.body as { id: string; webhookSecret: string };
  }

  beforeAll(async () => {
    expect((await ctx.admin.post('/api/v1/organizations', { id: 'triage-other', displayName: 'Other' })).status).toBe(201);
    const acme = await integration();
    const elsewhere = await integration('triage-other');
    deliver = async (body, organization) => {
      const target = organization ? elsewhere : acme;
      const res = await new Client(ctx.api.baseUrl).request('POST', `/webhooks/v1/integrations/${target.id}/alert-events`, {
        body,
        headers: { 'x-svc-token': target.webhookSecret },
        origin: false,
      });
      expect(res.status).toBe(202);
      return res.body.incidentIds;
    };
  });

  it('names an incident by its most severe, newest alert that is not chronic, with its service and namespace', async () => {
    const [id] = await deliver({
      groupKey: 'checkout',
      alerts: [
        // Fired for three hours before the rest: chronic, whatever its severity.
        {
          labels: { alertname: 'NodeDown', severity: 'critical', instance: 'db-1' },
          annotations: { summary: 'db-1 is down' },
          startsAt: '2026-11-20T07:00:00Z',
        },
        { labels: { alertname: 'CheckoutLatency', severity: 'warning', service: 'checkout', namespace: 'shop' }, startsAt: '2026-11-20T10:00:00Z' },
        {
          labels: { alertname: 'CheckoutErrors', severity: 'page', app: 'checkout', namespace: 'shop' },
          annotations: { summary: 'Checkout fails 8% of requests' },
          startsAt: '2026-11-20T10:02:00Z',
        },
        { labels: { alertname: 'CartErrors', severity: 'page', job: 'cart', namespace: 'shop' }, startsAt: '2026-11-20T10:01:00Z' },
      ],
    });
    const incident = await ctx.admin.get(`/api/v1/incidents/${id}`);
    expect(incident.status).toBe(200);
    // The title stays the first alert's; the headline is the page-severity alert that began last.
    expect(incident.body).toMatchObject({
      title: 'db-1 is down',
      headline: 'Checkout fails 8% of requests',
      severity: 'critical',
      service: 'checkout',
      namespace: 'shop',
      alertCount: 4,
    });
    // An investigation asks about the headline, not the chronic alert that came first.
    const opened = await ctx.admin.post('/api/v1/investigations', { incidentId: id });
    expect(opened.body.subject).toBe('What caused "Checkout fails 8% of requests"?');
    // An alert without a summary is named by its alert name and service.
    const [single] = await deliver({ alerts: [{ labels: { alertname: 'QueueBacklog', job: 'mailer' }, startsAt: '2026-11-20T09:00:00Z' }] });
    expect((await ctx.admin.get(`/api/v1/incidents/${single}`)).body).toMatchObject({
      headline: 'QueueBacklog (mailer)',
      severity: null,
      service: 'mailer',
      namespace: null,
    });
    // The listing carries the same, through both addressing forms.
    const listed = await ctx.admin.get('/api/v1/organizations/acme/incidents?limit=200');
    expect(listed.body.items.find((i: { id: string }) => i.id === id)).toMatchObject({ headline: 'Checkout fails 8% of requests', severity: 'critical' });
  });

  it('lists incidents oldest first on request, with cursors of their own', async () => {
    const ids = await deliver({
      alerts: ['A', 'B', 'C'].map((n, i) => ({ labels: { alertname: `Order${n}` }, startsAt: `2026-11-10T0${i}:00:00Z` })),
    });
    const window = 'from=2026-11-10T00:00:00Z&until=2026-11-11T00:00:00Z';
    const newest = await ctx.admin.get(`/api/v1/incidents?${window}`);
    expect(newest.body.items.map((i: { title: string }) => i.title)).toEqual(['OrderC', 'OrderB', 'OrderA']);
    const oldest = await ctx.admin.get(`/api/v1/incidents?${window}&order=oldest&limit=2`);
    expect(oldest.body.items.map((i: { title: string }) => i.title)).toEqual(['OrderA', 'OrderB']);
    const rest = await ctx.admin.get(`/api/v1/incidents?${window}&order=oldest&limit=2&cursor=${encodeURIComponent(oldest.body.next)}`);
    expect(rest.body).toMatchObject({ items: [{ id: ids[2], title: 'OrderC' }], next: null });
    // A cursor belongs to its order.
    const crossed = await ctx.admin.get(`/api/v1/incidents?${window}&limit=2&cursor=${encodeURIComponent(oldest.body.next)}`);
    expect(crossed.status).toBe(400);
    const bad = await ctx.admin.get('/api/v1/incidents?order=sideways');
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: expect.stringContaining('order') });
  });

  it("gives the investigations of several incidents in one read, without conversation turns, and never another Organization's", async () => {
    const [first, second, third] = await deliver({
      alerts: ['One', 'Two', 'Three'].map((n) => ({ labels: { alertname: `Investigated${n}` }, startsAt: '2026-11-12T00:00:00Z' })),
    });
    const opened = async (incidentId: string) => {
      const res = await ctx.admin.post('/api/v1/investigations', { incidentId });
      expect(res.status).toBe(201);
      return res.body.id as string;
    };
    const a = await opened(first);
    const b = await opened(second);
    await opened(third);
    const asked = await ctx.admin.post('/api/v1/conversations', { subject: 'About one', incidentId: first, message: 'when did it begin?' });
    expect(asked.status).toBe(201);

    const both = await ctx.admin.get(`/api/v1/investigations?incidentIds=${first},${second}&kind=investigation`);
    expect(both.status).toBe(200);
    expect(both.body.items.map((i: { id: string }) => i.id)).toEqual([b, a]);
    expect(both.body.total).toBe(2);
    const turns = await ctx.admin.get(`/api/v1/investigations?incidentIds=${first}&kind=turn`);
    expect(turns.body.items.map((i: { id: string }) => i.id)).toEqual([asked.body.turn.investigationId]);
    expect((await ctx.admin.get(`/api/v1/investigations?incidentIds=${first}`)).body.total).toBe(2);

    // Another Organization's incident ids find nothing of this one's, and its own investigations stay its own.
    const [foreign] = await deliver({ alerts: [{ labels: { alertname: 'Elsewhere' } }] }, 'triage-other');
    expect((await ctx.admin.get(`/api/v1/investigations?incidentIds=${first},${second}`, { headers: other })).body).toEqual({
      items: [],
      next: null,
      total: 0,
    });
    expect((await ctx.admin.get(`/api/v1/investigations?incidentIds=${foreign}`)).body.total).toBe(0);
    expect((await ctx.admin.get(`/api/v1/incidents/${first}`, { headers: other })).status).toBe(404);

    for (const query of ['incidentIds=nope', `incidentIds=${first},`, `incidentIds=${Array(101).fill(first).join(',')}`, 'kind=all']) {
      const refused = await ctx.admin.get(`/api/v1/investigations?${query}`);
      expect(refused.status, query).toBe(400);
      expect(refused.body, query).toEqual({ error: expect.stringMatching(/^Invalid input: /) });
    }
  });
});
