import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client as PgClient } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RelayGateway } from '@svc/relays';
import { Client } from '../support/api';
import { ensureBuilt } from '../support/dist';
import { useBootstrappedApi } from '../support/factories';
import { investigationEnded } from '../support/investigations';
import { PostgresServer } from '../support/postgres-server';
import { relayDirectory, RelayProcess, writeRelayConfig } from '../support/relay-process';
import { answer, ScriptedModelServer } from '../support/scripted-model-server';
import { until } from '../support/until';
import { startWorker, TestWorker } from '../support/worker';

/**
 * A PostgreSQL integration bound to a relay: the relay, a real process, reads the datastore next
 * to it in the same read-only sessions (its configuration holds the address and sign-in, which
 * never reach the control plane), for verify and for the tool runs its local policy allows.
 */
describe('datastore reads through a relay', () => {
  const ctx = useBootstrappedApi({ env: { SVC_RELAY_GRPC_PORT: '0', SVC_RELAY_ALLOW_PLAINTEXT: 'true', SVC_RELAY_HEARTBEAT_SECONDS: '2' } });
  let server: PostgresServer;
  let model: ScriptedModelServer;
  let worker: TestWorker;
  let relay: RelayProcess | undefined;
  let relayId: string;
  let integrationId: string;
  let hook: { id: string; secret: string };
  let dir: string;
  const held: PgClient[] = [];

  const writeConfig = (integrations: unknown[], bootstrapToken?: string) =>
    writeRelayConfig(dir, {
      server: `127.0.0.1:${ctx.api.app.get(RelayGateway).port}`,
      plaintext: true,
      stateFile: 'state.json',
      ...(bootstrapToken ? { bootstrapToken } : {}),
      integrations,
    });
  const relayState = async () => ((await ctx.admin.get('/api/v1/relays')).body.items as { id: string; state: string }[]).find((r) => r.id === relayId)?.state;

  beforeAll(async () => {
    ensureBuilt();
    server = await PostgresServer.start();
    await server.createShop();
    model = await ScriptedModelServer.start();
    worker = await startWorker({
      SVC_LLM_PROVIDER: 'openai-compatible',
      SVC_LLM_BASE_URL: model.baseUrl,
      SVC_LLM_API_KEY: 'sk-e2e-relay-datastores',
      SVC_LLM_MODEL: 'm',
    });
    const g = await ctx.admin.post('/api/v1/integrations', { type: 'generic', name: 'Checkout alerts' });
    hook = { id: g.body.id, secret: g.body.webhookSecret };
    dir = relayDirectory();
    const token = (await ctx.admin.post('/api/v1/relays/bootstrap-tokens', { name: 'datacenter' })).body.token;
    relay = RelayProcess.start(writeConfig([], token));
    await relay.logged('session established');
    relayId = (JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8')) as { relayId: string }).relayId;
    const created = await ctx.admin.post('/api/v1/integrations', {
      type: 'postgresql',
      name: 'Shop database (datacenter)',
      config: { relayId, services: ['checkout'] },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.hasCredentials).toBe(false);
    integrationId = created.body.id;
    expect(await relay.stop()).toBe(0);
    // The operator tells the relay where the datastore is and which reads it may run.
    relay = RelayProcess.start(
      writeConfig([
        {
          integrationId,
          type: 'postgresql',
          host: '127.0.0.1',
          port: server.port,
          database: 'shop',
          tls: 'disable',
          credentials: { username: 'investigator', password: 'monitor-secret' },
          capabilities: ['postgresql.locks', 'postgresql.verify'],
        },
      ]),
    );
    await relay.logged('session established');
    await until(async () => (await relayState()) === 'connected', 20_000, 'the relay to be connected');
  }, 240_000);

  afterAll(async () => {
    await Promise.all(held.map((c) => c.end().catch(() => undefined)));
    relay?.kill();
    await worker?.close();
    await model?.close();
    await server?.stop();
  });

  it('refuses a host and a relay together, and a relay-bound datastore with neither', async () => {
    const both = await ctx.admin.post('/api/v1/integrations', {
      type: 'postgresql',
      name: 'x',
      config: { relayId, host: 'db.internal' },
      credentials: { username: 'u' },
    });
    expect(both.status).toBe(400);
    expect(both.body.error).toMatch(/config\.host and config\.relayId: set one of them, not both|config must match exactly one schema/);
    const neither = await ctx.admin.post('/api/v1/integrations', {
      type: 'postgresql',
      name: 'x',
      config: { services: ['checkout'] },
      credentials: { username: 'u' },
    });
    expect(neither.status).toBe(400);
  });

  it('verifies through the relay, which signs in with the credentials only its configuration holds', async () => {
    const verified = await ctx.admin.post(`/api/v1/integrations/${integrationId}/verify`);
    expect(verified.status).toBe(200);
    expect(verified.body.lastVerification).toMatchObject({
      outcome: 'succeeded',
      detail: expect.stringMatching(/^PostgreSQL \S+ as investigator \(database shop\): read-only .* \(through the relay\)$/),
    });
    expect(JSON.stringify(verified.body)).not.toContain('monitor-secret');
  });

  it('runs the lock read the relay allows against the datastore next to it, and refuses one its local policy does not', async () => {
    const batch = server.client({ user: 'shop', password: 'shop-secret', database: 'shop', application: 'nightly-batch' });
    const checkout = server.client({ user: 'shop', password: 'shop-secret', database: 'shop', application: 'checkout' });
    held.push(batch, checkout);
    await Promise.all([batch.connect(), checkout.connect()]);
    await batch.query('BEGIN');
    await batch.query(`UPDATE orders SET status = 'archived' WHERE id = 1`);
    const waiting = checkout.query(`UPDATE orders SET status = 'paid' WHERE id = 1`);
    waiting.catch(() => undefined);

    model.script(
      answer.tools([
        { name: 'postgresql__locks', input: { integrationId, purpose: 'Who holds the lock checkout waits for?' } },
        { name: 'postgresql__activity', input: { integrationId, purpose: 'What else runs?' } },
      ]),
      answer.conclude({
        conclusionStatus: 'inconclusive',
        summary: 'Read through the relay.',
        impact: { summary: 'Checkout waits.', runRefs: [1] },
        findings: [],
        hypotheses: [],
        actions: [],
        limitations: [],
      }),
    );
    const alert = await new Client(ctx.api.baseUrl).request('POST', `/webhooks/v1/integrations/${hook.id}/alert-events`, {
      body: { alerts: [{ labels: { alertname: 'CheckoutLatencyHigh', service: 'checkout' } }] },
      headers: { 'x-svc-token': hook.secret },
      origin: false,
    });
    const done = await investigationEnded(ctx.admin, (await ctx.admin.post('/api/v1/investigations', { incidentId: alert.body.incidentIds[0] })).body.id, {
      timeoutMs: 60_000,
    });
    const locks = done.runs.find((r: { tool: string }) => r.tool === 'postgresql.locks');
    expect(locks).toMatchObject({ integrationId, outcome: 'succeeded', error: null });
    expect(locks.summary).toMatch(/^1 session waiting for a lock\. Root blocker: pid \d+ \(nightly-batch, shop from 127\.0\.0\.1\) blocks 1 session/);
    const activity = done.runs.find((r: { tool: string }) => r.tool === 'postgresql.activity');
    expect(activity).toMatchObject({ outcome: 'failed', error: expect.stringContaining('does not offer postgresql.activity for this integration') });

    await batch.query('ROLLBACK');
    await waiting;
  });
});
