import { Client as PgClient } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../support/api';
import { ensureBuilt } from '../support/dist';
import { useBootstrappedApi } from '../support/factories';
import { investigationEnded } from '../support/investigations';
import Redis from 'ioredis';
import { PostgresServer } from '../support/postgres-server';
import { MariadbServer } from '../support/mariadb-server';
import { RedisServer } from '../support/redis-server';
import { answer, offeredToolsOf, ScriptedModelServer, toolResultsOf, userTextOf } from '../support/scripted-model-server';
import { until } from '../support/until';
import { startWorker, TestWorker } from '../support/worker';

const ACME = { headers: { 'x-svc-organization': 'acme' } };
const GLOBEX = { headers: { 'x-svc-organization': 'globex' } };

/**
 * PostgreSQL integrations through the public API and the real worker: created with sealed
 * credentials and checked against the outbound policy, verified against a real server (a private
 * cluster, apart from the service's own database), offered to a language model as tools of the
 * investigations of their Organization only, and read when the model asks, while a real
 * transaction holds a row lock that the alerting service waits for.
 */
describe('PostgreSQL integrations', () => {
  const ctx = useBootstrappedApi();
  let server: PostgresServer;
  let model: ScriptedModelServer;
  let worker: TestWorker;
  let generic: { id: string; secret: string };
  let pgId: string;
  const held: PgClient[] = [];

  /**
   * Delivers one alert with `labels` to `webhook` (a generic integration of `organization`), opens
   * an investigation of its incident there and waits for it to end: its id and its single read.
   */
  async function investigateAlert(
    labels: Record<string, string>,
    webhook: { id: string; secret: string } = generic,
    organization = ACME,
  ): Promise<{ id: string; done: any }> {
    const alert = await new Client(ctx.api.baseUrl).request('POST', `/webhooks/v1/integrations/${webhook.id}/alert-events`, {
      body: { alerts: [{ labels, startsAt: new Date(Date.now() - 60_000).toISOString() }] },
      headers: { 'x-svc-token': webhook.secret },
      origin: false,
    });
    expect(alert.status).toBe(202);
    const opened = await ctx.admin.post('/api/v1/investigations', { incidentId: alert.body.incidentIds[0] }, organization);
    expect(opened.status).toBe(201);
    const done = await investigationEnded(ctx.admin, opened.body.id, { headers: organization.headers, timeoutMs: 30_000 });
    return { id: opened.body.id, done };
  }

  const config = (extra: Record<string, unknown> = {}) => ({ host: '127.0.0.1', port: server.port, database: 'shop', tls: 'disable', ...extra });
  const credentials = { username: 'investigator', password: 'monitor-secret' };

  beforeAll(async () => {
    ensureBuilt();
    server = await PostgresServer.start();
    await server.createShop();
    model = await ScriptedModelServer.start();
    worker = await startWorker({
      SVC_LLM_PROVIDER: 'openai-compatible',
      SVC_LLM_BASE_URL: model.baseUrl,
      SVC_LLM_API_KEY: 'sk-e2e-datastores',
      SVC_LLM_MODEL: 'm',
    });
    expect((await ctx.admin.post('/api/v1/organizations', { id: 'globex', displayName: 'Globex' })).status).toBe(201);
    const g = await ctx.admin.post('/api/v1/integrations', { type: 'generic', name: 'Checkout alerts' }, ACME);
    generic = { id: g.body.id, secret: g.body.webhookSecret };
    const created = await ctx.admin.post(
      '/api/v1/integrations',
      { type: 'postgresql', name: 'Shop database', config: config({ services: ['checkout'] }), credentials },
      ACME,
    );
    expect(created.status).toBe(201);
    pgId = created.body.id;
  }, 120_000);

  afterAll(async () => {
    await Promise.all(held.map((c) => c.end().catch(() => undefined)));
    await worker?.close();
    await model?.close();
    await server?.stop();
  });

  it('lists the type with its schemas, and refuses a config or credentials that do not fit, in the error shape', async () => {
    const types = await ctx.admin.get('/api/v1/integration-types', ACME);
    const postgresql = types.body.items.find((t: { id: string }) => t.id === 'postgresql');
    expect(postgresql).toMatchObject({ id: 'postgresql', displayName: 'PostgreSQL', webhookFormat: null, connect: 'manual' });
    expect(postgresql.configSchema.oneOf.map((o: { required: string[] }) => o.required)).toEqual([['host'], ['relayId']]);
    expect(Object.keys(postgresql.configSchema.properties)).toEqual(['host', 'port', 'database', 'tls', 'services', 'relayId']);

    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ type: 'postgresql', name: 'No sign-in', config: config() }, /postgresql integrations need credentials/],
      [{ type: 'postgresql', name: 'No host', config: { port: 5433 }, credentials }, /config\.host or config\.relayId is required \(one of them\)/],
      [{ type: 'postgresql', name: 'Bad TLS', config: config({ tls: 'prefer' }), credentials }, /config\.tls must be equal to one of the allowed values/],
      [{ type: 'postgresql', name: 'Bad port', config: config({ port: 70000 }), credentials }, /config\.port must be <= 65535/],
      [{ type: 'postgresql', name: 'URL', config: { host: 'postgres://db:5432/x' }, credentials }, /config\.host must match pattern/],
      [{ type: 'postgresql', name: 'Token', config: config(), credentials: { bearerToken: 'x' } }, /credentials must have required property 'username'/],
      [
        { type: 'postgresql', name: 'Our own', config: config({ port: 5432 }), credentials },
        /^config\.host: The outbound policy refuses 127\.0\.0\.1 .*port 5432: it is this service's own PostgreSQL/,
      ],
    ];
    for (const [body, message] of cases) {
      const res = await ctx.admin.post('/api/v1/integrations', body, ACME);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys(res.body)).toEqual(['error']);
      expect(res.body.error).toMatch(message);
    }
  });

  it('verifies a read-only account against the real server, and keeps its password sealed', async () => {
    const created = await ctx.admin.get(`/api/v1/integrations/${pgId}`, ACME);
    expect(created.body).toMatchObject({ type: 'postgresql', hasCredentials: true, webhookUrl: null, config: config({ services: ['checkout'] }) });
    expect(JSON.stringify(created.body)).not.toContain('monitor-secret');

    const verified = await ctx.admin.post(`/api/v1/integrations/${created.body.id}/verify`, {}, ACME);
    expect(verified.status).toBe(200);
    expect(verified.body.lastVerification).toMatchObject({ outcome: 'succeeded' });
    expect(verified.body.lastVerification.detail).toMatch(/^PostgreSQL \S+ as investigator \(database shop\): read-only \(writes to none of the 1 tables\)/);

    const superuser = await ctx.admin.post(
      '/api/v1/integrations',
      { type: 'postgresql', name: 'As superuser', config: config(), credentials: { username: 'postgres', password: PostgresServer.SUPERUSER_PASSWORD } },
      ACME,
    );
    const refused = await ctx.admin.post(`/api/v1/integrations/${superuser.body.id}/verify`, {}, ACME);
    expect(refused.body.lastVerification).toMatchObject({ outcome: 'failed', detail: expect.stringContaining('the account is a superuser') });
    expect((await ctx.admin.delete(`/api/v1/integrations/${superuser.body.id}`, ACME)).status).toBe(204);

    // Another Organization neither sees nor verifies it.
    expect((await ctx.admin.get(`/api/v1/integrations/${created.body.id}`, GLOBEX)).status).toBe(404);
    expect((await ctx.admin.post(`/api/v1/integrations/${created.body.id}/verify`, {}, GLOBEX)).status).toBe(404);
  });

  it('ranks first among the sources a datastore that an alert label names, whatever its services say', async () => {
    const made: string[] = [];
    try {
      for (const name of ['ordersdb', 'Reports database']) {
        const res = await ctx.admin.post('/api/v1/integrations', { type: 'postgresql', name, config: config({ services: ['billing'] }), credentials }, ACME);
        expect(res.status).toBe(201);
        made.push(res.body.id);
      }
      model.script(
        answer.conclude({
          conclusionStatus: 'inconclusive',
          summary: 'Nothing was read.',
          impact: { summary: 'Orders answers slowly.', runRefs: [] },
          findings: [],
          hypotheses: [],
          actions: [],
          limitations: [],
        }),
      );
      const { id } = await investigateAlert({ alertname: 'OrdersLatencyHigh', service: 'orders', peer: 'ordersdb' });

      const sources = await ctx.admin.get(`/api/v1/investigations/${id}/sources`, ACME);
      const rankOf = (id: string): number => sources.body.sources.find((s: { integrationId: string }) => s.integrationId === id).rank;
      // Neither serves orders; the label names ordersdb, which goes first, whatever the order of creation.
      expect(rankOf(made[0])).toBe(1);
      expect(rankOf(made[1])).toBeGreaterThan(1);
      expect(rankOf(pgId)).toBeGreaterThan(1);
    } finally {
      for (const id of made) await ctx.admin.delete(`/api/v1/integrations/${id}`, ACME);
    }
  });

  it("offers the model the datastore's tools and reads the lock the alerting service waits for; another Organization's investigation is offered none", async () => {
    // The batch job holds a row lock that checkout waits for.
    const batch = server.client({ user: 'shop', password: 'shop-secret', database: 'shop', application: 'nightly-batch' });
    const checkout = server.client({ user: 'shop', password: 'shop-secret', database: 'shop', application: 'checkout' });
    held.push(batch, checkout);
    await Promise.all([batch.connect(), checkout.connect()]);
    await batch.query('BEGIN');
    await batch.query(`UPDATE orders SET status = 'archived' WHERE id = 1`);
    const waiting = checkout.query(`UPDATE orders SET status = 'paid' WHERE id = 1`);
    waiting.catch(() => undefined);
    await until(lockWaits, 10_000, 'checkout to wait for the lock');

    model.script(
      answer.tools([{ name: 'postgresql__locks', input: { integrationId: pgId, purpose: 'Who holds the lock checkout waits for?' } }]),
      answer.conclude({
        conclusionStatus: 'inconclusive',
        summary: 'A lock wait was found; the cause is not verified here.',
        impact: { summary: 'Checkout waits.', runRefs: [1] },
        findings: [],
        hypotheses: [],
        actions: [],
        limitations: [],
      }),
    );
    const { id, done } = await investigateAlert({ alertname: 'CheckoutLatencyHigh', service: 'checkout' });

    expect(done.status).toBe('concluded');
    expect(done.runs).toHaveLength(1);
    expect(done.runs[0]).toMatchObject({ tool: 'postgresql.locks', integrationId: pgId, outcome: 'succeeded', sources: ['pg_stat_activity', 'pg_locks'] });
    expect(done.runs[0].summary).toMatch(/^1 session waiting for a lock\. Root blocker: pid \d+ \(nightly-batch, shop from 127\.0\.0\.1\) blocks 1 session/);
    const offered = offeredToolsOf(model.requests[0]);
    expect(offered.postgresql__locks.parameters.properties.integrationId.enum).toEqual([pgId]);
    expect(Object.keys(offered)).toEqual(expect.arrayContaining(['postgresql__activity', 'postgresql__connections', 'postgresql__statements']));
    expect(userTextOf(model.requests[0])).toContain('Shop database');
    expect(toolResultsOf(model.requests[1])[0].text).toContain('"application":"nightly-batch"');

    const sources = await ctx.admin.get(`/api/v1/investigations/${id}/sources`, ACME);
    expect(sources.body.sources).toEqual([
      expect.objectContaining({
        integrationId: pgId,
        rank: 1,
        reason: 'Shop database: PostgreSQL sessions, locks, connections and statements (serves checkout)',
      }),
    ]);

    await batch.query('ROLLBACK');
    await waiting;

    // Globex's investigation: no PostgreSQL source, no PostgreSQL tool.
    model.script(
      answer.conclude({
        conclusionStatus: 'inconclusive',
        summary: 'Nothing to read.',
        impact: { summary: 'Unknown.', runRefs: [] },
        findings: [],
        hypotheses: [],
        actions: [],
        limitations: [],
      }),
    );
    const asked = model.requests.length;
    const theirIntegration = await ctx.admin.post('/api/v1/integrations', { type: 'generic', name: 'Globex alerts' }, GLOBEX);
    await investigateAlert(
      { alertname: 'CheckoutLatencyHigh', service: 'checkout' },
      { id: theirIntegration.body.id, secret: theirIntegration.body.webhookSecret },
      GLOBEX,
    );
    expect(Object.keys(offeredToolsOf(model.requests[asked])).filter((name) => name.startsWith('postgresql__'))).toEqual([]);
    expect(userTextOf(model.requests[asked])).not.toContain(pgId);
  });

  it('verifies a Redis ACL user and reads its clients when the model asks', async () => {
    const redis = await RedisServer.start();
    const admin = new Redis(redis.url);
    try {
      await admin.call(
        'ACL',
        'SETUSER',
        'investigator',
        'on',
        '>monitor-secret',
        '-@all',
        '+ping',
        '+info',
        '+client|list',
        '+client|setname',
        '+acl|whoami',
        '+multi',
        '+discard',
      );
      const created = await ctx.admin.post(
        '/api/v1/integrations',
        { type: 'redis', name: 'Session cache', config: { host: '127.0.0.1', port: redis.port, tls: 'disable', services: ['checkout'] }, credentials },
        ACME,
      );
      expect(created.status).toBe(201);
      const verified = await ctx.admin.post(`/api/v1/integrations/${created.body.id}/verify`, {}, ACME);
      expect(verified.body.lastVerification).toMatchObject({
        outcome: 'succeeded',
        detail: expect.stringMatching(/^Redis \S+ as investigator: read-only \(SET refused\); cannot run SLOWLOG GET, LATENCY LATEST$/),
      });
      const own = await ctx.admin.post('/api/v1/integrations', { type: 'redis', name: 'Ours', config: { host: '127.0.0.1', tls: 'disable' } }, ACME);
      expect(own.status).toBe(400);
      expect(own.body.error).toMatch(/config\.host: .*port 6379: it is this service's own Redis/);

      model.script(
        answer.tools([{ name: 'redis__clients', input: { integrationId: created.body.id, purpose: 'Who is connected to the session cache?' } }]),
        answer.conclude({
          conclusionStatus: 'inconclusive',
          summary: 'Read the cache clients.',
          impact: { summary: 'Unknown.', runRefs: [1] },
          findings: [],
          hypotheses: [],
          actions: [],
          limitations: [],
        }),
      );
      const { id, done } = await investigateAlert({ alertname: 'CheckoutSessionsLost', service: 'checkout' });
      expect(done.runs[0]).toMatchObject({ tool: 'redis.clients', integrationId: created.body.id, outcome: 'succeeded', sources: ['CLIENT LIST'] });
      expect(done.runs[0].summary).toMatch(/^1 client, 0 blocked; by name: \(unnamed\) 1\./);
      const sources = await ctx.admin.get(`/api/v1/investigations/${id}/sources`, ACME);
      expect(sources.body.sources).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            integrationId: created.body.id,
            reason: 'Session cache: Redis memory and evictions, clients, slow log and latency (serves checkout)',
          }),
        ]),
      );
      expect((await ctx.admin.delete(`/api/v1/integrations/${created.body.id}`, ACME)).status).toBe(204);
    } finally {
      admin.disconnect();
      await redis.kill();
    }
  });

  it('verifies a RabbitMQ monitoring user through the management API, and refuses an administrator as more than the tools need', async () => {
    const user = `investigator-${Date.now()}`;
    const admin = { authorization: `Basic ${Buffer.from('guest:guest').toString('base64')}`, 'content-type': 'application/json' };
    const created = await fetch(`http://127.0.0.1:15672/api/users/${user}`, {
      method: 'PUT',
      headers: admin,
      body: JSON.stringify({ password: 'monitor-secret', tags: 'monitoring' }),
    });
    expect(created.status).toBe(201);
    try {
      const monitoring = await ctx.admin.post(
        '/api/v1/integrations',
        {
          type: 'rabbitmq',
          name: 'Order queues',
          config: { baseUrl: 'http://127.0.0.1:15672', services: ['checkout'] },
          credentials: { username: user, password: 'monitor-secret' },
        },
        ACME,
      );
      expect(monitoring.status).toBe(201);
      const verified = await ctx.admin.post(`/api/v1/integrations/${monitoring.body.id}/verify`, {}, ACME);
      expect(verified.body.lastVerification).toMatchObject({
        outcome: 'succeeded',
        detail: expect.stringMatching(new RegExp(`^RabbitMQ \\d+\\.\\d+\\.\\d+ as ${user} \\(monitoring\\): sees every connection`)),
      });
      const guest = await ctx.admin.post(
        '/api/v1/integrations',
        { type: 'rabbitmq', name: 'As guest', config: { baseUrl: 'http://127.0.0.1:15672' }, credentials: { username: 'guest', password: 'guest' } },
        ACME,
      );
      const refused = await ctx.admin.post(`/api/v1/integrations/${guest.body.id}/verify`, {}, ACME);
      expect(refused.body.lastVerification).toMatchObject({ outcome: 'failed', detail: expect.stringContaining('as guest: the account is an administrator') });
      const missing = await ctx.admin.post(
        '/api/v1/integrations',
        { type: 'rabbitmq', name: 'Nowhere', config: {}, credentials: { username: user, password: 'x' } },
        ACME,
      );
      expect(missing.status).toBe(400);
      for (const id of [monitoring.body.id, guest.body.id]) expect((await ctx.admin.delete(`/api/v1/integrations/${id}`, ACME)).status).toBe(204);
    } finally {
      await fetch(`http://127.0.0.1:15672/api/users/${user}`, { method: 'DELETE', headers: admin });
    }
  });

  it('verifies a MariaDB monitoring account, and refuses root as more than the tools need', async () => {
    const mariadb = await MariadbServer.start();
    try {
      await mariadb.admin(`CREATE USER 'investigator'@'%' IDENTIFIED BY 'monitor-secret'`);
      await mariadb.admin(`GRANT PROCESS, SLAVE MONITOR ON *.* TO 'investigator'@'%'`);
      const config = { host: '127.0.0.1', port: mariadb.port, tls: 'disable', services: ['checkout'] };
      const monitoring = await ctx.admin.post('/api/v1/integrations', { type: 'mysql', name: 'Orders database', config, credentials }, ACME);
      expect(monitoring.status).toBe(201);
      const verified = await ctx.admin.post(`/api/v1/integrations/${monitoring.body.id}/verify`, {}, ACME);
      expect(verified.body.lastVerification).toMatchObject({ outcome: 'succeeded', detail: expect.stringMatching(/^MariaDB \S+ as investigator.*read-only/) });
      const root = await ctx.admin.post('/api/v1/integrations', { type: 'mysql', name: 'As root', config, credentials: { username: 'root' } }, ACME);
      const refused = await ctx.admin.post(`/api/v1/integrations/${root.body.id}/verify`, {}, ACME);
      expect(refused.body.lastVerification).toMatchObject({ outcome: 'failed', detail: expect.stringContaining('ALL PRIVILEGES') });
      const withDatabase = await ctx.admin.post(
        '/api/v1/integrations',
        { type: 'mysql', name: 'Database', config: { ...config, database: 'shop' }, credentials },
        ACME,
      );
      expect(withDatabase.status).toBe(400);
      for (const id of [monitoring.body.id, root.body.id]) expect((await ctx.admin.delete(`/api/v1/integrations/${id}`, ACME)).status).toBe(204);
    } finally {
      await mariadb.stop();
    }
  });

  /** Sessions of the private server waiting for a lock, seen by its superuser. */
  async function lockWaits(): Promise<number | false> {
    const client = server.client();
    await client.connect();
    try {
      const { rows } = await client.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock'`);
      return rows[0].n > 0 ? rows[0].n : false;
    } finally {
      await client.end();
    }
  }
});
