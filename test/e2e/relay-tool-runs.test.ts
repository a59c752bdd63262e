import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RelayGateway } from '@svc/relays';
import { Client } from '../support/api';
import { ensureBuilt } from '../support/dist';
import { useBootstrappedApi } from '../support/factories';
import { investigationEnded } from '../support/investigations';
import { MonitoringProcess } from '../support/monitoring-stack';
import { freePort } from '../support/ports';
import { relayDirectory, RelayProcess, writeRelayConfig } from '../support/relay-process';
import { until } from '../support/until';
import { startWorker, TestWorker } from '../support/worker';

type Run = { tool: string; outcome: string; error: string | null; integrationId: string | null };

const CAPABILITIES = ['prometheus.query', 'prometheus.query_range', 'prometheus.series', 'prometheus.targets', 'prometheus.alert_rules', 'prometheus.status'];

/**
 * An investigation on a Prometheus integration bound to a relay: its tool runs are relay jobs,
 * run by a real relay process against a real Prometheus whose URL only the relay's configuration
 * holds. An offline relay fails the reads at once; a job the relay could not run is a failure.
 */
describe('tool runs through a relay', () => {
  const ctx = useBootstrappedApi({ env: { SVC_RELAY_GRPC_PORT: '0', SVC_RELAY_ALLOW_PLAINTEXT: 'true', SVC_RELAY_HEARTBEAT_SECONDS: '2' } });
  let prometheus: MonitoringProcess;
  let worker: TestWorker | undefined;
  let relay: RelayProcess | undefined;
  let hook: { id: string; secret: string };
  let relayId: string;
  let integrationId: string;
  let dir: string;
  let seq = 0;

  const writeConfig = (integrations: unknown[], bootstrapToken?: string) =>
    writeRelayConfig(dir, {
      server: `127.0.0.1:${ctx.api.app.get(RelayGateway).port}`,
      plaintext: true,
      stateFile: 'state.json',
      ...(bootstrapToken ? { bootstrapToken } : {}),
      integrations,
    });
  const relayState = async () => ((await ctx.admin.get('/api/v1/relays')).body.items as { id: string; state: string }[]).find((r) => r.id === relayId)?.state;

  async function incident(): Promise<string> {
    seq += 1;
    const res = await new Client(ctx.api.baseUrl).request('POST', `/webhooks/v1/integrations/${hook.id}/alert-events`, {
      body: {
        alerts: [{ labels: { alertname: `RelayProbe${seq}`, service: 'probe', job: 'prometheus' }, startsAt: new Date(Date.now() - 60_000).toISOString() }],
      },
      headers: { 'x-svc-token': hook.secret },
      origin: false,
    });
    expect(res.status).toBe(202);
    return res.body.incidentIds[0];
  }
  /**
   * The relay, started anew with the one integration reading from `baseUrl`, and connected: each
   * test sets up the relay it needs, whatever an earlier test left running or stopped.
   */
  async function relayReading(baseUrl: string, capabilities = CAPABILITIES): Promise<RelayProcess> {
    if (relay) expect(await relay.stop()).toBe(0);
    relay = RelayProcess.start(writeConfig([{ integrationId, type: 'prometheus', baseUrl, capabilities }]));
    await relay.logged('session established');
    await until(async () => (await relayState()) === 'connected', 20_000, 'the relay to be connected');
    return relay;
  }

  const investigate = async () =>
    investigationEnded(ctx.admin, (await ctx.admin.post('/api/v1/investigations', { incidentId: await incident() })).body.id, { timeoutMs: 60_000 });
  const prometheusRuns = (done: { runs: Run[] }) => done.runs.filter((r) => r.tool.startsWith('prometheus.'));

  beforeAll(async () => {
    ensureBuilt();
    const g = await ctx.admin.post('/api/v1/integrations', { type: 'generic', name: 'Relay probe alerts' });
    hook = { id: g.body.id, secret: g.body.webhookSecret };
    prometheus = await MonitoringProcess.prometheus('global:\n  scrape_interval: 1s\n');
    // The operator's order: mint a token, start the relay, bind an integration to it, tell the relay about the integration.
    dir = relayDirectory();
    const token = (await ctx.admin.post('/api/v1/relays/bootstrap-tokens', { name: 'datacenter' })).body.token;
    relay = RelayProcess.start(writeConfig([], token));
    await relay.logged('session established');
    relayId = (JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8')) as { relayId: string }).relayId;
    const created = await ctx.admin.post('/api/v1/integrations', { type: 'prometheus', name: 'Prometheus behind the relay', config: { relayId } });
    expect(created.status, created.text).toBe(201);
    integrationId = created.body.id;
    expect(await relay.stop()).toBe(0);
    worker = await startWorker();
  }, 240_000);

  afterAll(async () => {
    relay?.kill();
    await worker?.close();
    await prometheus?.stop();
  });

  it('binds an integration to a relay of its own Organization only, instead of a URL', async () => {
    const unknown = await ctx.admin.post('/api/v1/integrations', {
      type: 'prometheus',
      name: 'x',
      config: { relayId: '0190a000-0000-7000-8000-00000000dead' },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe('Relay not found');
    await ctx.admin.post('/api/v1/organizations', { id: 'other', displayName: 'Other' });
    const foreign = await ctx.admin.post(
      '/api/v1/integrations',
      { type: 'prometheus', name: 'x', config: { relayId } },
      { headers: { 'x-svc-organization': 'other' } },
    );
    expect(foreign.status).toBe(404);
    const both = await ctx.admin.post('/api/v1/integrations', { type: 'prometheus', name: 'x', config: { relayId, baseUrl: prometheus.url } });
    expect(both.status).toBe(400);
    expect(both.body.error).toContain('config');
    await relayReading(prometheus.url);
    const verified = await ctx.admin.post(`/api/v1/integrations/${integrationId}/verify`);
    expect(verified.status).toBe(200);
    expect(verified.body.lastVerification).toMatchObject({ outcome: 'succeeded', detail: expect.stringContaining('through the relay') });
  });

  it('runs the investigation’s Prometheus reads through the relay, which alone knows where Prometheus is', async () => {
    const relay = await relayReading(prometheus.url);
    const done = await investigate();
    const runs = prometheusRuns(done);
    expect(runs.length).toBeGreaterThan(0);
    expect(runs.filter((r) => r.outcome === 'succeeded').length).toBeGreaterThan(0);
    expect(runs.every((r) => r.integrationId === integrationId)).toBe(true);
    await relay.logged('job done');
    const everything = JSON.stringify([done, (await ctx.admin.get(`/api/v1/integrations/${integrationId}`)).body]);
    expect(everything).not.toContain(prometheus.url);
    expect(everything).not.toContain(`:${new URL(prometheus.url).port}`);
  });

  it('lists a job the relay could not run as a failure', async () => {
    // The relay's Prometheus is down: nothing listens where the relay reads from.
    await relayReading(`http://127.0.0.1:${await freePort()}`);
    const before = (await ctx.admin.get(`/api/v1/relays/${relayId}/failures`)).body.total as number;
    const done = await investigate();
    const failed = prometheusRuns(done).filter((r) => r.outcome === 'failed');
    expect(failed.length).toBeGreaterThan(0);
    expect(failed[0].error).toContain('Could not reach prometheus from the relay');
    // The job's record follows its answer within moments.
    await until(async () => ((await ctx.admin.get(`/api/v1/relays/${relayId}/failures`)).body.total as number) > before, 10_000, 'the failure recorded');
    const failures = await ctx.admin.get(`/api/v1/relays/${relayId}/failures`);
    expect(failures.body.total).toBeGreaterThan(before);
    expect(failures.body.items[0]).toMatchObject({
      integrationId,
      outcome: 'failed',
      capabilityId: expect.stringMatching(/^prometheus\./),
      capabilityVersion: 1,
    });
  });

  it('times a relay job out as a direct read times out: the run fails saying so, the relay is told to stop, the job is a timed_out failure', async () => {
    // A system that accepts the request and never answers.
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const relay = await relayReading(
        `http://127.0.0.1:${(silent.address() as AddressInfo).port}`,
        CAPABILITIES.filter((c) => c !== 'prometheus.status'),
      );
      const policy = (await ctx.admin.get('/api/v1/policy')).body;
      expect((await ctx.admin.put('/api/v1/policy', { ...policy, investigationBudgets: { ...policy.investigationBudgets, toolRuns: 2 } })).status).toBe(200);
      let done: { runs: Run[] };
      try {
        done = await investigate();
      } finally {
        await ctx.admin.put('/api/v1/policy', policy);
      }
      const [run] = prometheusRuns(done);
      expect(run).toMatchObject({ outcome: 'failed', error: expect.stringContaining('Timed out') });
      expect(run.error).toContain('through its relay');
      // The relay was told to stop the job, and says so.
      await relay.logged('"error":"Cancelled"');
      const failures = await ctx.admin.get(`/api/v1/relays/${relayId}/failures`);
      expect(failures.body.items[0]).toMatchObject({ integrationId, outcome: 'timed_out' });
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  }, 90_000);

  it('fails the reads at once, saying so, while the relay is offline: the run ends with a limitation, never a hang', async () => {
    const relay = await relayReading(prometheus.url);
    expect(await relay.stop()).toBe(0);
    await until(async () => (await relayState()) === 'offline', 20_000, 'the relay to be offline');
    const done = await investigate();
    const runs = prometheusRuns(done);
    expect(runs.length).toBeGreaterThan(0);
    expect(runs.every((r) => r.outcome === 'failed' && /Relay datacenter is offline/.test(r.error ?? ''))).toBe(true);
    expect(done.limitations).toEqual(expect.arrayContaining([expect.objectContaining({ statement: expect.stringContaining('offline') })]));
  });
});
