import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppConfig } from '@svc/platform';
import { RelayGateway, RelayJobsService } from '@svc/relays';
import { Client } from '../support/api';
import { ensureBuilt } from '../support/dist';
import { useBootstrappedApi } from '../support/factories';
import { MonitoringProcess } from '../support/monitoring-stack';
import { relayDirectory, RelayProcess, writeRelayConfig } from '../support/relay-process';
import { until } from '../support/until';

const ORGANIZATIONS = ['acme', 'globex'] as const;
const READS_EACH = 80;

interface Tenant {
  organizationId: string;
  admin: Client;
  relay: RelayProcess;
  relayId: string;
  integrationId: string;
}

/**
 * Reads made together share their round trips (checked and queued by one, recorded and answered
 * by one, one wake per relay): two Organizations' relays read the same Prometheus at once, many reads each, and
 * every read gets its own answer, from its own Organization's relay, none another's.
 */
describe('many reads through relays at once', () => {
  const ctx = useBootstrappedApi({ env: { SVC_RELAY_GRPC_PORT: '0', SVC_RELAY_ALLOW_PLAINTEXT: 'true', SVC_RELAY_HEARTBEAT_SECONDS: '2' } });
  let prometheus: MonitoringProcess;
  const tenants: Tenant[] = [];

  async function tenant(organizationId: string): Promise<Tenant> {
    const headers = { 'x-svc-organization': organizationId };
    const admin = ctx.admin;
    const dir = relayDirectory();
    const config = (bootstrapToken: string | undefined, integrations: unknown[]) =>
      writeRelayConfig(dir, {
        server: `127.0.0.1:${ctx.api.app.get(RelayGateway).port}`,
        plaintext: true,
        stateFile: 'state.json',
        maxConcurrentJobs: 32,
        ...(bootstrapToken ? { bootstrapToken } : {}),
        integrations,
      });
    const token = (await admin.post('/api/v1/relays/bootstrap-tokens', { name: `${organizationId} edge` }, { headers })).body.token as string;
    let relay = RelayProcess.start(config(token, []));
    await relay.logged('session established');
    const relayId = (JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8')) as { relayId: string }).relayId;
    const created = await admin.post('/api/v1/integrations', { type: 'prometheus', name: 'Prometheus', config: { relayId } }, { headers });
    expect(created.status, created.text).toBe(201);
    expect(await relay.stop()).toBe(0);
    relay = RelayProcess.start(
      config(undefined, [
        { integrationId: created.body.id, type: 'prometheus', baseUrl: prometheus.url, capabilities: ['prometheus.query', 'prometheus.status'] },
      ]),
    );
    await until(
      async () => {
        const { items } = (await admin.get('/api/v1/relays', { headers })).body as { items: { id: string; state: string; capabilities: unknown[] }[] };
        return items.some((r) => r.id === relayId && r.state === 'connected' && r.capabilities.length === 2);
      },
      20_000,
      `${organizationId}'s relay to connect`,
    );
    return { organizationId, admin, relay, relayId, integrationId: created.body.id };
  }

  beforeAll(async () => {
    ensureBuilt();
    prometheus = await MonitoringProcess.prometheus('global:\n  scrape_interval: 1s\n');
    await ctx.admin.post('/api/v1/organizations', { id: 'globex', displayName: 'Globex' });
    for (const organizationId of ORGANIZATIONS) tenants.push(await tenant(organizationId));
  }, 240_000);

  afterAll(async () => {
    for (const t of tenants) t.relay.kill();
    await prometheus?.stop();
  });

  it('answers every read with its own answer, through its own Organization’s relay, and keeps no answer once read', async () => {
    const jobs = ctx.api.app.get(RelayJobsService);
    const read = (t: Tenant, value: number, relayId = t.relayId, integrationId = t.integrationId) =>
      jobs.read({
        organizationId: t.organizationId,
        relayId,
        integrationId,
        integrationType: 'prometheus',
        path: 'api/v1/query',
        query: [['query', `vector(${value})`]],
        signal: AbortSignal.timeout(30_000),
        maxBytes: 64 * 1024,
        timeoutMs: 30_000,
      });
    const [acme, globex] = tenants;
    const started = tenants.flatMap((t, k) => Array.from({ length: READS_EACH }, (_, i) => ({ value: k * 1000 + i, answer: read(t, k * 1000 + i) })));
    // In the same batches: reads naming the other Organization's relay and integration.
    const foreign = [read(acme, 1, globex.relayId, globex.integrationId), read(globex, 2, acme.relayId, acme.integrationId)].map((p) =>
      p.then(
        () => 'answered',
        (error: Error) => error.message,
      ),
    );
    for (const { value, answer } of started) {
      const { status, body, complete } = await answer;
      expect({ status, complete }).toEqual({ status: 200, complete: true });
      const result = (JSON.parse(body.toString()) as { data: { result: { value: [number, string] }[] } }).data.result;
      expect(result.map((r) => r.value[1])).toEqual([String(value)]);
    }
    expect(await Promise.all(foreign)).toEqual(Array(2).fill('The relay this integration is bound to does not exist'));

    // Each job's record is written within moments of its answer.
    const recorded = async () =>
      (await ctx.api.app
        .get(DataSource)
        .query(`SELECT organization_id, relay_id, status, count(*)::int AS jobs FROM relay_jobs GROUP BY 1, 2, 3 ORDER BY 1`)) as {
        organization_id: string;
        relay_id: string;
        status: string;
        jobs: number;
      }[];
    await until(async () => (await recorded()).reduce((sum, r) => sum + r.jobs, 0) >= tenants.length * READS_EACH, 10_000, 'every job recorded');
    const rows = await recorded();
    expect(rows).toEqual(tenants.map((t) => ({ organization_id: t.organizationId, relay_id: t.relayId, status: 'succeeded', jobs: READS_EACH })));
    // Nothing is left in Redis: no job waits, no answer is kept once read.
    const redis = new Redis(ctx.api.app.get(AppConfig).REDIS_URL);
    try {
      expect(await redis.keys(`${ctx.api.app.get(AppConfig).SVC_QUEUE_PREFIX}:relay:*`)).toEqual([]);
    } finally {
      redis.disconnect();
    }
    for (const t of tenants) {
      const failures = await t.admin.get(`/api/v1/relays/${t.relayId}/failures`, { headers: { 'x-svc-organization': t.organizationId } });
      expect(failures.status).toBe(200);
      expect(failures.body.items).toEqual([]);
    }
  }, 120_000);
});
