import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RelayGateway } from '@svc/relays';
import type { RelayServiceClient } from '@svc/relays/protocol';
import { Client, startApi, TestApi } from '../support/api';
import { bootstrap, signedInMember } from '../support/factories';
import { connectRelay, protocolClient, registerRelay, TestSession } from '../support/relay-protocol';
import { until } from '../support/until';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const ACME = { headers: { 'x-svc-organization': 'acme' } };
const GLOBEX = { headers: { 'x-svc-organization': 'globex' } };

/**
 * The relay operations over HTTP, with relays registered and connected over the real relay
 * endpoint (gRPC, plaintext on a free port) of the same API.
 */
describe('relays', () => {
  let api: TestApi;
  let admin: Client;
  let grpcClient: RelayServiceClient;
  const sessions: TestSession[] = [];

  const mint = async (name = 'edge', org = ACME, body: Record<string, unknown> = {}) => {
    const res = await admin.post('/api/v1/relays/bootstrap-tokens', { name, ...body }, org);
    expect(res.status, res.text).toBe(201);
    return res.body as { id: string; name: string; token: string; expiresAt: string };
  };
  const relayItem = async (id: string, org = ACME) =>
    ((await admin.get('/api/v1/relays', org)).body.items as { id: string; state: string }[]).find((r) => r.id === id);

  beforeAll(async () => {
    // Registrations here come fast from one address: the per-address limit has its own test.
    api = await startApi({
      env: { SVC_RELAY_GRPC_PORT: '0', SVC_RELAY_ALLOW_PLAINTEXT: 'true', SVC_RELAY_HEARTBEAT_SECONDS: '2', SVC_RELAY_REGISTER_PER_MINUTE: '1000' },
    });
    ({ admin } = await bootstrap(api));
    expect((await admin.post('/api/v1/organizations', { id: 'globex', displayName: 'Globex' })).status).toBe(201);
    grpcClient = protocolClient(api.app.get(RelayGateway).port!);
  });
  afterAll(async () => {
    for (const s of sessions) s.call.cancel();
    grpcClient?.close();
    await api?.close();
  });

  it('mints a bootstrap token shown once, valid 24 h by default, audited without the secret', async () => {
    // The expiry is the minting instant plus the lifetime, so it lies between the test's clock
    // readings taken either side of the call, plus the lifetime.
    let before = Date.now();
    const token = await mint('edge-default');
    let after = Date.now();
    expect(token).toEqual({
      id: expect.stringMatching(UUID),
      name: 'edge-default',
      token: expect.stringMatching(/^rbt_/),
      expiresAt: expect.stringMatching(TIMESTAMP),
    });
    expect(Date.parse(token.expiresAt)).toBeGreaterThanOrEqual(before + 86_400_000);
    expect(Date.parse(token.expiresAt)).toBeLessThanOrEqual(after + 86_400_000);
    before = Date.now();
    const custom = await mint('edge-short', ACME, { expiresInSeconds: 120 });
    after = Date.now();
    expect(Date.parse(custom.expiresAt)).toBeGreaterThanOrEqual(before + 120_000);
    expect(Date.parse(custom.expiresAt)).toBeLessThanOrEqual(after + 120_000);
    const audit = await admin.get('/api/v1/audit-events', ACME);
    const event = audit.body.events.find((e: { targetId: string }) => e.targetId === token.id);
    expect(event).toMatchObject({ action: 'relay.bootstrap_token.create', actorKind: 'user' });
    expect(JSON.stringify(audit.body)).not.toContain(token.token);
  });

  it('refuses bad bootstrap token input with 400 naming the field', async () => {
    for (const [body, field] of [
      [{}, 'name'],
      [{ name: '' }, 'name'],
      [{ name: 'x', expiresInSeconds: 59 }, 'expiresInSeconds'],
      [{ name: 'x', expiresInSeconds: 2_592_001 }, 'expiresInSeconds'],
      [{ name: 'x', expiresInSeconds: null }, 'expiresInSeconds'],
      [{ name: 'x', other: 1 }, 'other'],
    ] as const) {
      const res = await admin.post('/api/v1/relays/bootstrap-tokens', body, ACME);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toContain(field);
    }
  });

  it('registers a relay once per token; a used, expired or wrong token is refused', async () => {
    const token = await mint('edge-once');
    const registered = await registerRelay(grpcClient, token.token, '1.0.0');
    expect(registered).toEqual({ relayId: expect.stringMatching(UUID), organizationId: 'acme', name: 'edge-once', credential: expect.stringMatching(/^rly_/) });
    await expect(registerRelay(grpcClient, token.token)).rejects.toMatchObject({ code: grpc.status.UNAUTHENTICATED });
    await expect(registerRelay(grpcClient, `rbt_${'A'.repeat(43)}`)).rejects.toMatchObject({ code: grpc.status.UNAUTHENTICATED });
    const expiring = await mint('edge-expired');
    await api.dataSource.query(`UPDATE relay_bootstrap_tokens SET expires_at = clock_timestamp() - interval '1 second' WHERE id = $1`, [expiring.id]);
    await expect(registerRelay(grpcClient, expiring.token)).rejects.toMatchObject({ code: grpc.status.UNAUTHENTICATED });
    expect(await relayItem(registered.relayId)).toEqual({
      id: registered.relayId,
      name: 'edge-once',
      state: 'offline',
      version: '1.0.0',
      lastSeenAt: null,
      capabilities: [],
      createdAt: expect.stringMatching(TIMESTAMP),
    });
    const [{ credential_hash }] = await api.dataSource.query('SELECT credential_hash FROM relays WHERE id = $1', [registered.relayId]);
    expect(Buffer.from(credential_hash).toString('utf8')).not.toContain(registered.credential);
  });

  it('holds one session per registration: a second connection is refused and listed as a conflict until an Admin clears it; the next connection wins', async () => {
    const { relayId, credential } = await registerRelay(grpcClient, (await mint('edge-session')).token);
    const first = connectRelay(grpcClient, credential);
    sessions.push(first);
    expect(await first.welcomed()).toMatchObject({ relayId, heartbeatSeconds: 2 });
    const integrationId = '0190a000-0000-7000-8000-0000000000aa';
    first.call.write({
      hello: {
        version: '1.0.0',
        capabilities: [
          { integrationId, capabilityId: 'prometheus.query', capabilityVersion: 1 },
          { integrationId, capabilityId: 'no.such.capability', capabilityVersion: 1 },
        ],
      },
    });
    await until(
      async () =>
        (await relayItem(relayId))?.state === 'connected' && (await admin.get(`/api/v1/relays/${relayId}/integrations`, ACME)).body.items.length === 1,
      20_000,
      'connected with capabilities',
    );
    expect((await admin.get(`/api/v1/relays/${relayId}/integrations`, ACME)).body).toEqual({
      items: [{ integrationId, capabilities: [{ capabilityId: 'prometheus.query', capabilityVersion: 1 }] }],
      next: null,
    });
    expect((await relayItem(relayId)) as unknown).toMatchObject({ capabilities: [{ integrationId, capabilityId: 'prometheus.query', capabilityVersion: 1 }] });

    const second = connectRelay(grpcClient, credential);
    sessions.push(second);
    expect(await second.ended()).toBe(grpc.status.ALREADY_EXISTS);
    expect(second.received.some((m) => m.welcome)).toBe(false);
    const conflicts = await admin.get(`/api/v1/relays/${relayId}/session-conflicts`, ACME);
    expect(conflicts.status).toBe(200);
    expect(conflicts.body).toEqual({
      items: [
        {
          id: expect.stringMatching(UUID),
          occurredAt: expect.stringMatching(TIMESTAMP),
          lastAttemptAt: expect.stringMatching(TIMESTAMP),
          attempts: 1,
          address: '127.0.0.1',
          clearedAt: null,
        },
      ],
      next: null,
    });
    expect((await relayItem(relayId))?.state).toBe('conflict');
    expect((await admin.get('/api/v1/relays/summary', ACME)).body).toMatchObject({ conflict: 1 });
    // While the conflict is open, no other connection gets the session (and each try is counted).
    const third = connectRelay(grpcClient, credential);
    expect(await third.ended()).toBe(grpc.status.ALREADY_EXISTS);
    expect((await admin.get(`/api/v1/relays/${relayId}/session-conflicts`, ACME)).body.items[0].attempts).toBe(2);

    const cleared = await admin.post(`/api/v1/relays/${relayId}/clear-conflict`, undefined, ACME);
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({ id: relayId, name: 'edge-session', state: 'offline' });
    // The current session is ended, with a drain first.
    expect(await first.ended()).toBe(grpc.status.OK);
    expect(first.received.some((m) => m.drain)).toBe(true);
    const next = connectRelay(grpcClient, credential);
    sessions.push(next);
    expect(await next.welcomed()).toMatchObject({ relayId });
    await until(async () => (await relayItem(relayId))?.state === 'connected', 20_000, 'the next connection to hold the session');
    const after = await admin.get(`/api/v1/relays/${relayId}/session-conflicts`, ACME);
    expect(after.body.items[0].clearedAt).toMatch(TIMESTAMP);
    const audit = await admin.get('/api/v1/audit-events', ACME);
    const actions = audit.body.events.filter((e: { targetId: string }) => e.targetId === relayId).map((e: { action: string }) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['relay.register', 'relay.session_conflict', 'relay.clear_conflict']));
    next.call.end();
    expect(await next.ended()).toBe(grpc.status.OK);
    await until(async () => (await relayItem(relayId))?.state === 'offline', 20_000, 'offline after the relay ended its session');
  });

  it('refuses a Connect without a valid credential', async () => {
    const session = connectRelay(grpcClient, `rly_${'B'.repeat(43)}`);
    expect(await session.ended()).toBe(grpc.status.UNAUTHENTICATED);
  });

  it('lists relays with pagination, a summary, and failures as {next, total, items}', async () => {
    const { relayId } = await registerRelay(grpcClient, (await mint('edge-failures')).token);
    await api.dataSource.query(
      `INSERT INTO relay_jobs (organization_id, id, relay_id, integration_id, capability_id, capability_version, source, request, status, error, finished_at)
       SELECT 'acme', gen_random_uuid(), $1, '0190a000-0000-7000-8000-0000000000bb', 'prometheus.query', 1, '/api/v1/query', '{}', s, 'timed out', clock_timestamp()
         FROM unnest(ARRAY['failed', 'timed_out', 'succeeded', 'failed']) AS s`,
      [relayId],
    );
    const first = await admin.get(`/api/v1/relays/${relayId}/failures?limit=2`, ACME);
    expect(first.status).toBe(200);
    expect(Object.keys(first.body)).toEqual(['next', 'total', 'items']);
    expect(first.body.total).toBe(3);
    expect(first.body.items).toHaveLength(2);
    expect(first.body.items[0]).toEqual({
      jobId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      capabilityId: 'prometheus.query',
      capabilityVersion: 1,
      integrationId: '0190a000-0000-7000-8000-0000000000bb',
      outcome: expect.stringMatching(/^(failed|timed_out)$/),
      at: expect.stringMatching(TIMESTAMP),
      error: 'timed out',
    });
    const second = await admin.get(`/api/v1/relays/${relayId}/failures?limit=2&cursor=${encodeURIComponent(first.body.next)}`, ACME);
    expect(second.body).toMatchObject({ next: null, total: 3 });
    expect(second.body.items).toHaveLength(1);

    // A second relay of this test's, so that there is a second page.
    await registerRelay(grpcClient, (await mint('edge-second-page')).token);
    const page = await admin.get('/api/v1/relays?limit=1', ACME);
    expect(page.status).toBe(200);
    expect(page.body.items).toHaveLength(1);
    expect(typeof page.body.next).toBe('string');
    expect((await admin.get(`/api/v1/relays?cursor=${encodeURIComponent(page.body.next)}`, GLOBEX)).status).toBe(400);
    expect((await admin.get('/api/v1/relays?limit=0', ACME)).status).toBe(400);
    expect((await admin.get('/api/v1/relays?limit=201', ACME)).status).toBe(400);
    expect((await admin.get('/api/v1/relays?other=1', ACME)).status).toBe(400);
    const summary = await admin.get('/api/v1/relays/summary', ACME);
    expect(summary.body).toEqual({ total: expect.any(Number), connected: expect.any(Number), offline: expect.any(Number), conflict: expect.any(Number) });
    expect(summary.body.total).toBe(summary.body.connected + summary.body.offline + summary.body.conflict);
    expect(summary.headers.get('cache-control')).toBe('no-store');
  });

  it('answers the alias path like the flat path', async () => {
    const flat = await admin.get('/api/v1/relays', ACME);
    const alias = await admin.get('/api/v1/organizations/acme/relays');
    expect(alias.status).toBe(200);
    expect(alias.body.items.map((r: { id: string }) => r.id)).toEqual(flat.body.items.map((r: { id: string }) => r.id));
    expect((await admin.get('/api/v1/organizations/acme/relays/summary')).body).toEqual((await admin.get('/api/v1/relays/summary', ACME)).body);
    const minted = await admin.post('/api/v1/organizations/globex/relays/bootstrap-tokens', { name: 'globex-edge' });
    expect(minted.status).toBe(201);
    const { relayId } = await registerRelay(grpcClient, minted.body.token);
    expect((await admin.get(`/api/v1/organizations/globex/relays/${relayId}/failures`)).status).toBe(200);
    expect((await admin.get(`/api/v1/organizations/acme/relays`, GLOBEX)).status).toBe(400);
  });

  it("answers 404 for another Organization's relay, exactly as for an unknown one", async () => {
    const { relayId } = await registerRelay(grpcClient, (await mint('globex-only', GLOBEX)).token);
    for (const id of [relayId, '0190a000-0000-7000-8000-00000000ffff']) {
      for (const path of ['integrations', 'session-conflicts', 'failures']) {
        const res = await admin.get(`/api/v1/relays/${id}/${path}`, ACME);
        expect(res.status, path).toBe(404);
        expect(res.body).toEqual({ error: 'Relay not found' });
      }
      expect((await admin.post(`/api/v1/relays/${id}/clear-conflict`, undefined, ACME)).status).toBe(404);
    }
    expect(await relayItem(relayId, ACME)).toBeUndefined();
    expect(await relayItem(relayId, GLOBEX)).toBeDefined();
    expect((await admin.get('/api/v1/relays/not-a-uuid/failures', ACME)).status).toBe(400);
  });

  it('binds an integration to a relay by config.relayId: with a baseUrl too, 400 naming both; an unknown or foreign relay, 404 on create and update', async () => {
    const { relayId } = await registerRelay(grpcClient, (await mint('edge-binding')).token);
    const { relayId: foreignRelayId } = await registerRelay(grpcClient, (await mint('globex-binding', GLOBEX)).token);
    const unknownRelayId = '0190a000-0000-7000-8000-00000000beef';
    const direct = await admin.post('/api/v1/integrations', { type: 'prometheus', name: 'direct', config: { baseUrl: 'http://127.0.0.1:9' } }, ACME);
    expect(direct.status, direct.text).toBe(201);
    const relayed = await admin.post('/api/v1/integrations', { type: 'prometheus', name: 'relayed', config: { relayId } }, ACME);
    expect(relayed.status, relayed.text).toBe(201);
    expect(relayed.body.config).toEqual({ relayId });

    for (const type of ['prometheus', 'alertmanager']) {
      const both = await admin.post('/api/v1/integrations', { type, name: 'both', config: { baseUrl: 'http://127.0.0.1:9', relayId } }, ACME);
      expect(both.status, type).toBe(400);
      expect(Object.keys(both.body)).toEqual(['error']);
      expect(both.body.error).toContain('config.baseUrl and config.relayId');
    }
    const neither = await admin.post('/api/v1/integrations', { type: 'prometheus', name: 'neither', config: {} }, ACME);
    expect(neither.status).toBe(400);
    expect(neither.body.error).toContain('config.baseUrl or config.relayId is required');
    const bothOnUpdate = await admin.patch(`/api/v1/integrations/${direct.body.id}`, { config: { baseUrl: 'http://127.0.0.1:9', relayId } }, ACME);
    expect(bothOnUpdate.status).toBe(400);
    expect(bothOnUpdate.body.error).toContain('config.baseUrl and config.relayId');

    for (const id of [unknownRelayId, foreignRelayId]) {
      const created = await admin.post('/api/v1/integrations', { type: 'prometheus', name: 'elsewhere', config: { relayId: id } }, ACME);
      expect(created.status).toBe(404);
      expect(created.body).toEqual({ error: 'Relay not found' });
      const updated = await admin.patch(`/api/v1/integrations/${relayed.body.id}`, { config: { relayId: id } }, ACME);
      expect(updated.status).toBe(404);
      expect(updated.body).toEqual({ error: 'Relay not found' });
    }
    // Nothing changed by the refused writes; a direct integration moves behind a relay, and back.
    expect((await admin.get(`/api/v1/integrations/${relayed.body.id}`, ACME)).body.config).toEqual({ relayId });
    expect((await admin.get(`/api/v1/integrations/${direct.body.id}`, ACME)).body.config).toEqual({ baseUrl: 'http://127.0.0.1:9' });
    const moved = await admin.patch(`/api/v1/integrations/${direct.body.id}`, { config: { relayId } }, ACME);
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.config).toEqual({ relayId });
    // The other Organization binds to its own relay.
    expect((await admin.post('/api/v1/integrations', { type: 'prometheus', name: 'theirs', config: { relayId: foreignRelayId } }, GLOBEX)).status).toBe(201);
  });

  it('lets a Viewer read and only an Admin mint tokens and clear conflicts', async () => {
    const { client: viewer } = await signedInMember(api, 'acme', 'viewer', admin);
    const { client: editor } = await signedInMember(api, 'acme', 'editor', admin);
    const { relayId } = await registerRelay(grpcClient, (await mint('edge-roles')).token);
    for (const path of [
      '/api/v1/relays',
      '/api/v1/relays/summary',
      `/api/v1/relays/${relayId}/integrations`,
      `/api/v1/relays/${relayId}/session-conflicts`,
      `/api/v1/relays/${relayId}/failures`,
    ]) {
      expect((await viewer.get(path, ACME)).status, path).toBe(200);
    }
    for (const client of [viewer, editor]) {
      const minted = await client.post('/api/v1/relays/bootstrap-tokens', { name: 'nope' }, ACME);
      expect(minted.status).toBe(403);
      expect(minted.body.requires).toBe('relays:write');
      expect((await client.post(`/api/v1/relays/${relayId}/clear-conflict`, undefined, ACME)).status).toBe(403);
    }
  });
});
