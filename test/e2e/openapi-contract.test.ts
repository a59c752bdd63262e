import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOOTSTRAP_CREDENTIAL, Client } from '../support/api';
import { ADMIN, signedInMember, useBootstrappedApi } from '../support/factories';
import { investigationEnded } from '../support/investigations';
import { checkEachTestAgainstOpenApi } from '../support/openapi-conformance';
import { OpenApiContract } from '../support/openapi-contract';
import { startWorker, TestWorker } from '../support/worker';

const UNKNOWN = '0190f5a8-0000-7000-8000-000000000000';

/**
 * The served OpenAPI document describes what the API sends: a broad walk over the routes, success
 * and error answers alike, each response checked against its operation (documented status,
 * media type, and the body against the schema, undeclared properties refused).
 */
describe('the OpenAPI document against real responses', () => {
  const ctx = useBootstrappedApi();
  let contract: OpenApiContract;
  let worker: TestWorker;
  const watched = (client: Client = new Client(ctx.api.baseUrl)): Client => {
    contract.watch(client);
    return client;
  };

  beforeAll(async () => {
    contract = await OpenApiContract.load(ctx.api.baseUrl);
    contract.watch(ctx.admin);
    worker = await startWorker();
  }, 120_000);
  afterAll(() => worker?.close());

  it('documents the contract parts: Error component, uuid ids, integer limits, opaque bearer tokens, alias paths, webhook bodies', () => {
    const doc = contract.document;
    expect(doc.components.schemas.Error.required).toEqual(['error']);
    expect(doc.components.securitySchemes.bearer).toEqual(expect.objectContaining({ type: 'http', scheme: 'bearer' }));
    expect(doc.components.securitySchemes.bearer.bearerFormat).toBeUndefined();
    const get = doc.paths['/api/v1/incidents/{incident}'].get;
    expect(get.parameters.find((p: any) => p.name === 'incident').schema).toMatchObject({ type: 'string', format: 'uuid' });
    expect(doc.paths['/api/v1/incidents'].get.parameters.find((p: any) => p.name === 'limit').schema.type).toBe('integer');
    expect(get.security).toEqual([{ session: [] }, { bearer: [] }]);
    expect(get.responses['404'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
    expect(doc.paths['/api/v1/organizations/{organization}/incidents/{incident}'].get.operationId).toBe('Incidents_get_byOrganizationPath');
    expect(doc.paths['/api/v1/organizations/{organization}/members']).toBeUndefined();
    const webhook = doc.paths['/webhooks/v1/integrations/{integration}/alert-events'].post;
    expect(webhook.requestBody.content['application/json'].schema.anyOf).toHaveLength(3);
    expect(Object.keys(webhook.responses).sort()).toEqual(['200', '202', '400', '401', '413', '415', '431', '503']);
    const sources = doc.paths['/api/v1/investigations/{investigation}/sources'].get;
    expect(sources.parameters.find((p: any) => p.name === 'X-Svc-Organization')).toMatchObject({
      in: 'header',
      required: true,
      schema: { pattern: expect.any(String) },
    });
    // Every operation documents its errors with the Error body, declares each path parameter once, and nothing twice.
    for (const { method, template, operation } of contract.operations()) {
      const names = (operation.parameters ?? []).map((p: any) => `${p.in}:${p.name.toLowerCase()}`);
      expect(new Set(names).size, `${method} ${template} parameters`).toBe(names.length);
      for (const [, name] of template.matchAll(/\{(\w+)\}/g)) expect(names, `${method} ${template}`).toContain(`path:${name.toLowerCase()}`);
      for (const [status, response] of Object.entries<any>(operation.responses)) {
        if (Number(status) >= 400)
          expect(response.content?.['application/json']?.schema, `${method} ${template} ${status}`).toEqual({ $ref: '#/components/schemas/Error' });
      }
    }
  });

  // Each walk is checked on its own answers: the afterEach fails it on any answer the document
  // does not describe, and each asserts how many distinct operation answers it saw itself.
  describe('walks over the routes', () => {
    checkEachTestAgainstOpenApi(() => contract);

    it('matches the answers of the authentication, Organization, member, token and policy routes', async () => {
      const anonymous = watched();
      await anonymous.get('/api/v1/meta');
      await anonymous.get('/api/v1/meta?x=1');
      await anonymous.post(
        '/api/v1/auth/local/bootstrap',
        { organization: { id: 'other', displayName: 'Other' }, user: ADMIN },
        { headers: { authorization: 'Bearer wrong' } },
      );
      await anonymous.post(
        '/api/v1/auth/local/bootstrap',
        { organization: { id: 'other', displayName: 'Other' }, user: ADMIN },
        { headers: { authorization: `Bearer ${BOOTSTRAP_CREDENTIAL}` } },
      );
      await anonymous.post('/api/v1/auth/local/sign-in', { email: ADMIN.email, password: 'wrong password!' });
      await anonymous.post('/api/v1/auth/local/sign-in', { email: ADMIN.email });
      await anonymous.request('POST', '/api/v1/auth/local/sign-in', { rawBody: '{', headers: { 'content-type': 'application/json' } });
      await anonymous.request('POST', '/api/v1/auth/local/sign-in', { rawBody: 'a=1', headers: { 'content-type': 'text/plain' } });
      await anonymous.get('/api/v1/auth/oidc/start');
      await anonymous.get('/api/v1/session');
      await anonymous.get('/api/v1/incidents');

      const admin = watched();
      await admin.post('/api/v1/auth/local/sign-in', { email: ADMIN.email, password: ADMIN.password });
      await admin.get('/api/v1/session');
      await admin.get('/api/v1/sessions?limit=1');
      await admin.get('/api/v1/sessions?limit=0');
      await admin.get('/api/v1/sessions?cursor=forged');
      await admin.get('/api/v1/organizations');
      expect((await admin.post('/api/v1/organizations', { id: 'second', displayName: 'Second' })).status).toBe(201);
      await admin.post('/api/v1/organizations', { id: 'second', displayName: 'Second' });
      await admin.post('/api/v1/organizations', { id: 'Not An Id', displayName: 'x' });
      await admin.post('/api/v1/organizations', { id: 'third', displayName: 'Third' }, { origin: false });
      await admin.get('/api/v1/permissions');
      await admin.get('/api/v1/permissions', { headers: { 'x-svc-organization': 'nowhere' } });
      await admin.get('/api/v1/permissions', { headers: { 'x-svc-organization': 'NOT VALID' } });
      const policy = await admin.get('/api/v1/policy');
      await admin.put('/api/v1/policy', policy.body);
      await admin.put('/api/v1/policy', { ...policy.body, sessions: null });

      const created = await admin.post('/api/v1/local-users', { email: 'val@example.com', name: 'Val', password: 'a long enough password', role: 'viewer' });
      expect(created.status).toBe(201);
      await admin.post('/api/v1/local-users', { email: 'val@example.com', name: 'Val', password: 'a long enough password', role: 'viewer' });
      const members = await admin.get('/api/v1/members?limit=1');
      await admin.get(`/api/v1/members?cursor=${members.body.next}`);
      await admin.patch(`/api/v1/members/${created.body.id}`, { role: 'editor' });
      await admin.patch(`/api/v1/members/${created.body.id}`, { role: null });
      await admin.patch(`/api/v1/members/${UNKNOWN}`, { role: 'editor' });
      await admin.patch('/api/v1/members/not-a-uuid', { role: 'editor' });
      await admin.put(`/api/v1/local-users/${created.body.id}/password`, { password: 'another long password' });
      await admin.put(`/api/v1/local-users/${UNKNOWN}/password`, { password: 'another long password' });

      const token = await admin.post('/api/v1/api-tokens', { name: 'Exporter', role: 'viewer', expiresAt: new Date(Date.now() + 86_400_000).toISOString() });
      expect(token.status).toBe(201);
      await admin.get('/api/v1/api-tokens');
      const bearer = watched();
      await bearer.get('/api/v1/incidents', { headers: { authorization: `Bearer ${token.body.token}` } });
      await bearer.get('/api/v1/session', { headers: { authorization: `Bearer ${token.body.token}` } });
      await bearer.post('/api/v1/integrations', { type: 'generic', name: 'No' }, { headers: { authorization: `Bearer ${token.body.token}` } });
      await bearer.get('/api/v1/incidents', { headers: { authorization: 'Bearer svc_pat_unknown' } });
      await admin.delete(`/api/v1/api-tokens/${token.body.id}`);
      await admin.delete(`/api/v1/api-tokens/${UNKNOWN}`);

      const viewer = await signedInMember(ctx.api, 'acme', 'viewer', admin);
      watched(viewer.client);
      await viewer.client.post('/api/v1/integrations', { type: 'generic', name: 'Denied' });
      await viewer.client.get('/api/v1/sessions');
      const session = await admin.get('/api/v1/sessions');
      await viewer.client.delete(`/api/v1/sessions/${session.body.sessions[0].id}`, { headers: { 'x-svc-organization': 'acme' } });
      await viewer.client.delete(`/api/v1/sessions/${UNKNOWN}`);
      await viewer.client.put('/api/v1/auth/local/password', { currentPassword: 'wrong password here', newPassword: 'another long password' });
      await viewer.client.delete('/api/v1/session');
      await viewer.client.get('/api/v1/session');
      await admin.delete(`/api/v1/members/${viewer.userId}`);

      // The walk reached the routes it means to (not, say, 401 everywhere): distinct operation answers.
      expect(contract.tally.seen.size).toBeGreaterThanOrEqual(40);
    });

    it('matches the answers of the integration, webhook, incident, delivery, investigation and audit routes', async () => {
      const admin = ctx.admin;
      await admin.get('/api/v1/integration-types');
      await admin.post('/api/v1/integration-types/generic/connect');
      await admin.post('/api/v1/integration-types/nothing/connect');
      await admin.get('/api/v1/integrations/connect/callback');
      const generic = await admin.post('/api/v1/integrations', { type: 'generic', name: 'Contract generic' });
      expect(generic.status).toBe(201);
      const prometheus = await admin.post('/api/v1/integrations', {
        type: 'prometheus',
        name: 'Contract prometheus',
        config: { baseUrl: 'http://127.0.0.1:9' },
      });
      await admin.post('/api/v1/integrations', { type: 'nothing', name: 'x' });
      await admin.get('/api/v1/integrations?limit=1');
      await admin.get('/api/v1/integrations?enabled=true&type=generic');
      await admin.get(`/api/v1/integrations/${generic.body.id}`);
      await admin.get(`/api/v1/integrations/${UNKNOWN}`);
      await admin.patch(`/api/v1/integrations/${generic.body.id}`, { name: 'Renamed' });
      await admin.post(`/api/v1/integrations/${generic.body.id}/verify`);
      await admin.post(`/api/v1/integrations/${prometheus.body.id}/verify`);
      await admin.post(`/api/v1/integrations/${prometheus.body.id}/rotate-webhook-secret`);
      const rotated = await admin.post(`/api/v1/integrations/${generic.body.id}/rotate-webhook-secret`);
      await admin.post(`/api/v1/integrations/${prometheus.body.id}/disable`);
      await admin.post(`/api/v1/integrations/${prometheus.body.id}/enable`);
      await admin.get('/api/v1/organizations/acme/integrations');
      await admin.get(`/api/v1/organizations/acme/integrations/${generic.body.id}`);
      expect((await admin.post('/api/v1/organizations', { id: 'contract-other', displayName: 'Other' })).status).toBe(201);
      await admin.get('/api/v1/organizations/contract-other/integrations', { headers: { 'x-svc-organization': 'acme' } });

      const sender = watched();
      const webhook = `/webhooks/v1/integrations/${generic.body.id}/alert-events`;
      const secret = { 'x-svc-token': rotated.body.webhookSecret };
      const alert = (name: string, status = 'firing') => ({
        alerts: [{ status, labels: { alertname: name, service: 'contract' }, startsAt: '2026-01-01T00:00:00Z' }],
      });
      const first = await sender.post(webhook, alert('A'), { headers: secret, origin: false });
      expect(first.status).toBe(202);
      await sender.post(webhook, alert('A'), { headers: secret, origin: false });
      await sender.post(webhook, { alerts: [{ labels: {} }] }, { headers: secret, origin: false });
      await sender.post(webhook, alert('A'), { headers: { 'x-svc-token': 'wrong' }, origin: false });
      await sender.request('POST', webhook, { rawBody: 'a=1', headers: { ...secret, 'content-type': 'text/plain' }, origin: false });
      await sender.request('POST', webhook, {
        rawBody: 'x'.repeat(1024 * 1024 + 10),
        headers: { ...secret, 'content-type': 'application/json' },
        origin: false,
      });
      const second = await sender.post(webhook, alert('B'), { headers: secret, origin: false });
      await sender.post(`/webhooks/v1/integrations/not-a-uuid/alert-events`, alert('A'), { headers: secret, origin: false });

      const incidents = await admin.get('/api/v1/incidents?limit=1');
      await admin.get(`/api/v1/incidents?cursor=${incidents.body.next}`);
      await admin.get('/api/v1/incidents?status=open&from=2020-01-01T00:00:00Z');
      await admin.get('/api/v1/incidents?status=sideways');
      const incidentId = first.body.incidentIds[0];
      await admin.get(`/api/v1/incidents/${incidentId}`);
      await admin.get(`/api/v1/incidents/${incidentId}/alert-events`);
      await admin.get(`/api/v1/organizations/acme/incidents/${incidentId}/alert-events`);
      await admin.get(`/api/v1/incidents/${UNKNOWN}`);
      await admin.post(`/api/v1/incidents/${incidentId}/merge`, { incidentIds: [incidentId] });
      await admin.post(`/api/v1/incidents/${incidentId}/merge`, { incidentIds: [UNKNOWN] });

      const deliveries = await admin.get(`/api/v1/webhook-deliveries?integrationId=${generic.body.id}`);
      const deliveryId = deliveries.body.items[0].id;
      await admin.get(`/api/v1/webhook-deliveries/${deliveryId}`);
      await admin.get(`/api/v1/webhook-deliveries/${first.body.deliveryId}`);
      await admin.post(`/api/v1/webhook-deliveries/${first.body.deliveryId}/replay`);
      const refused = deliveries.body.items.find((d: any) => d.statusCode === 415);
      if (refused) await admin.post(`/api/v1/webhook-deliveries/${refused.id}/replay`);
      await admin.get(`/api/v1/webhook-deliveries/${UNKNOWN}`);

      const opened = await admin.post('/api/v1/investigations', { incidentId });
      expect(opened.status).toBe(201);
      await admin.post('/api/v1/investigations', { incidentId: UNKNOWN });
      await investigationEnded(admin, opened.body.id);
      const queued = await admin.post('/api/v1/investigations', { incidentId: second.body.incidentIds[0] });
      await admin.post(`/api/v1/investigations/${queued.body.id}/cancel`);
      await admin.post(`/api/v1/investigations/${opened.body.id}/cancel`);
      await admin.get('/api/v1/investigations?limit=1');
      await admin.get(`/api/v1/investigations/${opened.body.id}`);
      await admin.get(`/api/v1/investigations/${opened.body.id}/sources`);
      await admin.get(`/api/v1/investigations/${opened.body.id}/sources`, { headers: { 'x-svc-organization': 'acme' } });
      await admin.get(`/api/v1/investigations/${opened.body.id}/activity?limit=2`);
      await admin.get(`/api/v1/investigations/${opened.body.id}/hypotheses`);
      await admin.get(`/api/v1/investigations/${opened.body.id}/report`);
      await admin.get(`/api/v1/investigations/${opened.body.id}/events`, { headers: { 'last-event-id': '100000' } });
      await admin.get(`/api/v1/investigations/${opened.body.id}/events`, { headers: { 'last-event-id': 'x' } });
      await admin.get(`/api/v1/organizations/acme/investigations/${UNKNOWN}`);

      // A resolved incident, then a merged one (resolvedAt and mergedInto set).
      const resolvedAlert = { alerts: [{ ...alert('A').alerts[0], status: 'resolved', endsAt: '2026-01-01T01:00:00Z' }] };
      expect((await sender.post(webhook, resolvedAlert, { headers: secret, origin: false })).status).toBe(202);
      expect((await admin.get(`/api/v1/incidents/${incidentId}`)).body.resolvedAt).not.toBeNull();
      expect((await admin.post(`/api/v1/incidents/${incidentId}/merge`, { incidentIds: [second.body.incidentIds[0]] })).status).toBe(200);
      expect((await admin.get(`/api/v1/incidents/${second.body.incidentIds[0]}`)).body.mergedInto).toBe(incidentId);
      await admin.post(`/api/v1/incidents/${incidentId}/merge`, { incidentIds: [second.body.incidentIds[0]] });
      await admin.get('/api/v1/incidents?status=merged');

      await admin.get('/api/v1/audit-events?limit=2');
      await admin.get('/api/v1/organizations/acme/audit-events?limit=2');
      await admin.get('/api/v1/audit-events/export?format=csv');
      await admin.get('/api/v1/audit-events/export?format=xml');
      await admin.get('/api/v1/organizations/nowhere/audit-events');
      await admin.get('/api/v1/organizations/NOT_VALID/audit-events');
      // Percent-encoding that is not UTF-8 names no Organization: 400, not a server error.
      expect((await admin.get('/api/v1/organizations/%ED%A0%80/incidents')).status).toBe(400);
      await admin.delete(`/api/v1/integrations/${prometheus.body.id}`);

      expect(contract.tally.seen.size).toBeGreaterThanOrEqual(55);
    });
  });
});
