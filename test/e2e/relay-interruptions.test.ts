import { readFileSync } from 'node:fs';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RelayGateway } from '@svc/relays';
import { Client } from '../support/api';
import { ensureBuilt } from '../support/dist';
import { useBootstrappedApi } from '../support/factories';
import { investigationEnded } from '../support/investigations';
import { MonitoringProcess } from '../support/monitoring-stack';
import { relayDirectory, RelayProcess, writeRelayConfig, PROMETHEUS_READS } from '../support/relay-process';
import { until } from '../support/until';
import { startWorker, TestWorker } from '../support/worker';

type Run = { tool: string; outcome: string; error: string | null };

/**
 * A system in the customer network that takes requests and answers none by itself; it records each
 * one and whether its connection was dropped, and the test may answer one.
 */
class SilentSystem {
  readonly requests: { url: string; aborted: boolean; response: ServerResponse }[] = [];
  private constructor(private readonly server: Server) {}

  static async start(): Promise<SilentSystem> {
    const server = createServer();
    const system = new SilentSystem(server);
    server.on('request', (req: IncomingMessage, response: ServerResponse) => {
      const seen = { url: req.url ?? '', aborted: false, response };
      system.requests.push(seen);
      req.socket.once('close', () => (seen.aborted = true));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return system;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

/**
 * A relay interrupted mid-job, as real processes: an investigation's cancel reaches the relay and
 * stops its request to the local system; a relay killed with a job in flight fails that run, which
 * is listed as a failure, while the investigation goes on; restarted, it takes its session back and
 * later jobs succeed.
 */
describe('relay jobs interrupted', () => {
  const ctx = useBootstrappedApi({ env: { SVC_RELAY_GRPC_PORT: '0', SVC_RELAY_ALLOW_PLAINTEXT: 'true', SVC_RELAY_HEARTBEAT_SECONDS: '2' } });
  let prometheus: MonitoringProcess;
  let silent: SilentSystem;
  let worker: TestWorker | undefined;
  let relay: RelayProcess | undefined;
  let hook: { id: string; secret: string };
  let relayId: string;
  let integrationId: string;
  let dir: string;
  let seq = 0;

  const startRelay = async (baseUrl: string | null, bootstrapToken?: string, extra: Record<string, unknown> = {}) => {
    const integrations = baseUrl ? [{ integrationId, type: 'prometheus', baseUrl, capabilities: PROMETHEUS_READS }] : [];
    relay = RelayProcess.start(
      writeRelayConfig(dir, {
        server: `127.0.0.1:${ctx.api.app.get(RelayGateway).port}`,
        plaintext: true,
        stateFile: 'state.json',
        ...(bootstrapToken ? { bootstrapToken } : {}),
        integrations,
        ...extra,
      }),
    );
    await relay.logged('session established');
    return relay;
  };
  const relayItem = async () =>
    ((await ctx.admin.get('/api/v1/relays')).body.items as { id: string; state: string; capabilities: unknown[] }[]).find((r) => r.id === relayId);
  const connected = () =>
    until(async () => (await relayItem())?.state === 'connected' && (await relayItem())!.capabilities.length > 0, 20_000, 'the relay connected');

  async function startInvestigation(): Promise<string> {
    seq += 1;
    const res = await new Client(ctx.api.baseUrl).request('POST', `/webhooks/v1/integrations/${hook.id}/alert-events`, {
      body: {
        alerts: [{ labels: { alertname: `RelayCut${seq}`, service: 'probe', job: 'prometheus' }, startsAt: new Date(Date.now() - 60_000).toISOString() }],
      },
      headers: { 'x-svc-token': hook.secret },
      origin: false,
    });
    expect(res.status).toBe(202);
    const created = await ctx.admin.post('/api/v1/investigations', { incidentId: res.body.incidentIds[0] });
    expect(created.status).toBe(201);
    return created.body.id;
  }
  const prometheusRuns = (done: { runs: Run[] }) => done.runs.filter((r) => r.tool.startsWith('prometheus.'));

  beforeAll(async () => {
    ensureBuilt();
    const g = await ctx.admin.post('/api/v1/integrations', { type: 'generic', name: 'Relay cut alerts' });
    hook = { id: g.body.id, secret: g.body.webhookSecret };
    [prometheus, silent] = await Promise.all([MonitoringProcess.prometheus('global:\n  scrape_interval: 1s\n'), SilentSystem.start()]);
    dir = relayDirectory();
    await startRelay(null, (await ctx.admin.post('/api/v1/relays/bootstrap-tokens', { name: 'edge' })).body.token);
    relayId = (JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8')) as { relayId: string }).relayId;
    const created = await ctx.admin.post('/api/v1/integrations', { type: 'prometheus', name: 'Prometheus behind the relay', config: { relayId } });
    expect(created.status, created.text).toBe(201);
    integrationId = created.body.id;
    expect(await relay!.stop()).toBe(0);
    worker = await startWorker();
  }, 240_000);

  afterAll(async () => {
    relay?.kill();
    await worker?.close();
    await Promise.all([prometheus?.stop(), silent?.close()]);
  });

  it("an investigation's cancel reaches the relay: it drops its request to the local system and says the job was cancelled", async () => {
    await startRelay(silent.url);
    await connected();
    const before = silent.requests.length;
    const failuresBefore = (await ctx.admin.get(`/api/v1/relays/${relayId}/failures`)).body.total as number;
    const id = await startInvestigation();
    await until(() => silent.requests.length > before, 30_000, 'the relay to ask the local system');
    const inFlight = silent.requests[before];
    expect(inFlight.aborted).toBe(false);

    const cancelled = await ctx.admin.post(`/api/v1/investigations/${id}/cancel`);
    expect(cancelled.status).toBe(200);
    // The local system sees its request dropped, and the relay logs the job as cancelled, not timed out.
    await until(() => inFlight.aborted, 30_000, 'the relay to drop its request to the local system');
    await relay!.logged('"error":"Cancelled"');
    expect(relay!.output()).not.toContain('No answer from prometheus within');
    const done = await investigationEnded(ctx.admin, id, { timeoutMs: 60_000 });
    expect(done.status).toBe('cancelled');
    const jobs: { status: string }[] = await ctx.api.dataSource.query('SELECT status FROM relay_jobs WHERE relay_id = $1', [relayId]);
    expect(jobs.map((j) => j.status)).toContain('cancelled');
    // A cancelled job is not a failure of the relay.
    expect((await ctx.admin.get(`/api/v1/relays/${relayId}/failures`)).body.total).toBe(failuresBefore);
    expect(await relay!.stop()).toBe(0);
  }, 120_000);

  it('a relay killed mid-job fails that run, listed as a failure, and the investigation goes on; restarted, it reconnects and later jobs succeed', async () => {
    await startRelay(silent.url);
    await connected();
    const before = silent.requests.length;
    const failuresBefore = (await ctx.admin.get(`/api/v1/relays/${relayId}/failures`)).body.total as number;
    const id = await startInvestigation();
    await until(() => silent.requests.length > before, 30_000, 'the relay to ask the local system');
    relay!.kill();
    expect(await relay!.exited()).toBe(128);

    const done = await investigationEnded(ctx.admin, id, { timeoutMs: 60_000 });
    expect(['concluded', 'partial']).toContain(done.status);
    const runs = prometheusRuns(done);
    const cut = runs.filter((r) => r.outcome === 'failed' && r.error?.includes("The relay's session ended before it answered"));
    expect(cut.length).toBeGreaterThan(0);
    // The reads after it fail at once: the relay is offline.
    expect(runs.filter((r) => !cut.includes(r)).every((r) => r.outcome === 'failed' && /offline/.test(r.error ?? ''))).toBe(true);
    const failures = await ctx.admin.get(`/api/v1/relays/${relayId}/failures`);
    expect(failures.body.total).toBe(failuresBefore + cut.length);
    expect(failures.body.items[0]).toMatchObject({
      integrationId,
      outcome: 'failed',
      capabilityId: expect.stringMatching(/^prometheus\./),
      error: "The relay's session ended before it answered",
    });
    expect((await relayItem())?.state).toBe('offline');

    // Restarted with the same state file (its registration), pointed at the real Prometheus.
    await startRelay(prometheus.url);
    await connected();
    const again = await investigationEnded(ctx.admin, await startInvestigation(), { timeoutMs: 60_000 });
    const later = prometheusRuns(again);
    expect(later.filter((r) => r.outcome === 'succeeded').length).toBeGreaterThan(0);
    expect(later.filter((r) => /relay|offline/i.test(r.error ?? ''))).toEqual([]);
    expect(relay!.count('job done')).toBeGreaterThan(0);
    expect((await ctx.admin.get(`/api/v1/relays/${relayId}/failures`)).body.total).toBe(failuresBefore + cut.length);
    expect(await relay!.stop()).toBe(0);
  }, 180_000);

  it('runs at most maxConcurrentJobs jobs at once: a job sent meanwhile waits for a slot, then runs', async () => {
    await startRelay(silent.url, undefined, { maxConcurrentJobs: 1 });
    await connected();
    const before = silent.requests.length;
    const verifies = [0, 1].map(() => ctx.admin.post(`/api/v1/integrations/${integrationId}/verify`));
    // Both jobs are with the relay: the second waits for a slot (only a waiting job's arrival is
    // logged at the default level), and only the first has reached the local system.
    await relay!.logged('job received', 1);
    expect(
      relay!
        .output()
        .split('\n')
        .filter((line) => line.includes('job received'))
        .map((line) => JSON.parse(line).waiting),
    ).toEqual([true]);
    await until(() => silent.requests.length > before, 20_000, 'the first request');
    expect(silent.requests.length).toBe(before + 1);
    const buildinfo = JSON.stringify({ status: 'success', data: { version: '3.0.0' } });
    silent.requests[before].response.writeHead(200, { 'content-type': 'application/json' }).end(buildinfo);
    // The first answered, the waiting job takes its slot.
    await until(() => silent.requests.length > before + 1, 20_000, 'the second request');
    silent.requests[before + 1].response.writeHead(200, { 'content-type': 'application/json' }).end(buildinfo);
    for (const verified of await Promise.all(verifies)) {
      expect(verified.status).toBe(200);
      expect(verified.body.lastVerification).toMatchObject({ outcome: 'succeeded', detail: 'Prometheus 3.0.0 (through the relay)' });
    }
    expect(await relay!.stop()).toBe(0);
  }, 120_000);
});
