import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, HttpResult, startApi, TestApi } from '../support/api';
import { bootstrap, signedInMember } from '../support/factories';

const ERROR_KEYS = ['error', 'reason', 'requires'];

/**
 * Rules that hold across the whole surface: every collection pages the same way (decisions §5), a
 * known path asked with a method it does not take is 405 with `Allow`, and every response carries
 * `X-Content-Type-Options: nosniff`.
 */
describe('contract consistency', () => {
  let api: TestApi;
  let admin: Client;
  let anonymous: Client;
  let integration: { id: string; secret: string };

  beforeAll(async () => {
    api = await startApi();
    ({ admin } = await bootstrap(api));
    anonymous = new Client(api.baseUrl);
    const created = await admin.post('/api/v1/integrations', { type: 'generic', name: 'Consistency' });
    expect(created.status).toBe(201);
    integration = { id: created.body.id, secret: created.body.webhookSecret };
  }, 60_000);
  afterAll(() => api?.close());

  describe('every collection accepts limit and cursor and returns next', () => {
    it('the integration catalog pages through every type with a signed cursor', async () => {
      const whole = await admin.get('/api/v1/integration-types');
      expect(whole.status).toBe(200);
      expect(whole.body.next).toBeNull();
      const all = whole.body.items.map((t: { id: string }) => t.id);
      expect(all.length).toBeGreaterThan(2);

      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const res: HttpResult = await admin.get(`/api/v1/integration-types?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        expect(res.status).toBe(200);
        expect(res.body.items.length).toBeLessThanOrEqual(2);
        seen.push(...res.body.items.map((t: { id: string }) => t.id));
        cursor = res.body.next;
        pages += 1;
      } while (cursor && pages < 20);
      expect(seen).toEqual(all);
      expect(pages).toBe(Math.ceil(all.length / 2));

      for (const query of ['limit=0', 'limit=201', 'cursor=forged.cursor', 'plan=x']) {
        const res = await admin.get(`/api/v1/integration-types?${query}`);
        expect(res.status, query).toBe(400);
        expect(Object.keys(res.body).every((k) => ERROR_KEYS.includes(k))).toBe(true);
      }
      // A cursor is bound to its Organization and collection.
      const first = await admin.get('/api/v1/integration-types?limit=1');
      await admin.post('/api/v1/organizations', { id: 'other-catalog', displayName: 'Other' });
      const elsewhere = await admin.get(`/api/v1/integration-types?limit=1&cursor=${encodeURIComponent(first.body.next)}`, {
        headers: { 'x-svc-organization': 'other-catalog' },
      });
      expect(elsewhere.status).toBe(400);
      expect((await admin.get(`/api/v1/integrations?cursor=${encodeURIComponent(first.body.next)}`)).status).toBe(400);
    });

    it("the caller's Organizations page with limit and cursor, the cursor bound to the caller", async () => {
      for (const id of ['pager-one', 'pager-two', 'pager-three']) expect((await admin.post('/api/v1/organizations', { id, displayName: id })).status).toBe(201);
      const whole = await admin.get('/api/v1/organizations');
      expect(whole.body.next).toBeNull();
      const all = whole.body.organizations.map((o: { id: string }) => o.id);
      expect(all.length).toBeGreaterThanOrEqual(4);
      const first = await admin.get('/api/v1/organizations?limit=3');
      expect(first.status).toBe(200);
      expect(first.body.organizations.map((o: { id: string }) => o.id)).toEqual(all.slice(0, 3));
      expect(typeof first.body.next).toBe('string');
      const rest = await admin.get(`/api/v1/organizations?limit=200&cursor=${encodeURIComponent(first.body.next)}`);
      expect(rest.body.organizations.map((o: { id: string }) => o.id)).toEqual(all.slice(3));
      expect(rest.body.next).toBeNull();
      const { client: someoneElse } = await signedInMember(api, 'acme', 'viewer', admin);
      expect((await someoneElse.get(`/api/v1/organizations?cursor=${encodeURIComponent(first.body.next)}`)).status).toBe(400);
      expect((await admin.get('/api/v1/organizations?limit=201')).status).toBe(400);
    });
  });

  describe('a known path with a method it does not take', () => {
    it('is 405 with Allow naming the methods the path takes, in the error shape; an unknown path stays 404', async () => {
      const cases: Array<[string, string, string]> = [
        ['DELETE', '/api/v1/integration-types', 'GET, HEAD'],
        ['PUT', '/api/v1/integrations', 'GET, HEAD, POST'],
        ['POST', `/api/v1/integrations/${integration.id}`, 'GET, HEAD, PATCH, DELETE'],
        ['GET', `/api/v1/integrations/${integration.id}/verify`, 'POST'],
        ['PATCH', '/api/v1/policy', 'GET, HEAD, PUT'],
        ['GET', `/webhooks/v1/integrations/${integration.id}/alert-events`, 'POST'],
        ['POST', '/healthz', 'GET, HEAD'],
        // The Organization alias paths are the same routes.
        ['PUT', '/api/v1/organizations/acme/integrations', 'GET, HEAD, POST'],
      ];
      for (const [method, path, allow] of cases) {
        const res = await admin.request(method, path, { body: method === 'GET' ? undefined : {} });
        expect(res.status, `${method} ${path}`).toBe(405);
        expect(res.headers.get('allow'), `${method} ${path}`).toBe(allow);
        expect(Object.keys(res.body)).toEqual(['error']);
        expect(res.body.error).toContain(allow);
        expect(res.headers.get('x-request-id')).toBeTruthy();
      }
      // Unauthenticated callers get the same answer: which methods a path takes is public (the OpenAPI document).
      const anon = await anonymous.request('DELETE', '/api/v1/integration-types', { origin: false });
      expect(anon.status).toBe(405);
      expect(anon.headers.get('allow')).toBe('GET, HEAD');

      for (const [method, path] of [
        ['GET', '/api/v1/no-such-route'],
        ['DELETE', '/api/v1/no-such-route'],
        ['POST', '/webhooks/v1/nothing-here'],
        ['GET', '/api/v1/organizations/acme/members-of-nothing'],
      ]) {
        const res = await admin.request(method, path, { body: method === 'GET' ? undefined : {} });
        expect(res.status, `${method} ${path}`).toBe(404);
        expect(res.headers.get('allow')).toBeNull();
        expect(res.body).toEqual({ error: 'Not found' });
      }
      // A known path with a method it takes is unaffected, and a handler's own 404 stays 404.
      expect((await admin.get('/api/v1/integration-types')).status).toBe(200);
      const missing = await admin.get('/api/v1/integrations/0190a000-0000-7000-8000-000000000000');
      expect(missing.status).toBe(404);
      expect(missing.headers.get('allow')).toBeNull();
    });
  });

  describe('X-Content-Type-Options: nosniff', () => {
    it('is on every kind of response: API, errors, webhooks, health, metrics, OpenAPI and the event stream', async () => {
      const alert = await anonymous.request('POST', `/webhooks/v1/integrations/${integration.id}/alert-events`, {
        body: { alerts: [{ labels: { alertname: 'Nosniff' }, startsAt: '2026-11-22T02:00:00Z' }] },
        headers: { 'x-svc-token': integration.secret },
        origin: false,
      });
      expect(alert.status).toBe(202);
      const responses = {
        api: await admin.get('/api/v1/integrations'),
        meta: await anonymous.get('/api/v1/meta'),
        unauthenticated: await anonymous.get('/api/v1/integrations'),
        notFound: await anonymous.get('/api/v1/no-such-route'),
        methodNotAllowed: await anonymous.request('DELETE', '/api/v1/meta', { origin: false }),
        malformed: await admin.request('POST', '/api/v1/organizations', { rawBody: '{"id":', headers: { 'content-type': 'application/json' } }),
        webhook: alert,
        webhookRejected: await anonymous.request('POST', `/webhooks/v1/integrations/${integration.id}/alert-events`, {
          body: { alerts: [] },
          headers: { 'x-svc-token': 'wrong' },
          origin: false,
        }),
        healthz: await anonymous.get('/healthz'),
        readyz: await anonymous.get('/readyz'),
        metrics: await anonymous.get('/metrics'),
        openapi: await anonymous.get('/api/v1/openapi.json'),
      };
      for (const [name, res] of Object.entries(responses)) {
        expect(res.status, name).toBeGreaterThan(0);
        expect(res.headers.get('x-content-type-options'), name).toBe('nosniff');
      }
      expect(responses.webhookRejected.status).toBe(401);

      const opened = await admin.post('/api/v1/investigations', { incidentId: alert.body.incidentIds[0] });
      expect(opened.status).toBe(201);
      const controller = new AbortController();
      try {
        const stream = await fetch(`${api.baseUrl}/api/v1/investigations/${opened.body.id}/events`, {
          headers: { cookie: admin.cookie ?? '', accept: 'text/event-stream' },
          signal: controller.signal,
        });
        expect(stream.status).toBe(200);
        expect(stream.headers.get('content-type')).toBe('text/event-stream');
        expect(stream.headers.get('x-content-type-options')).toBe('nosniff');
      } finally {
        controller.abort();
      }
    });
  });
});
