import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVESTIGATIONS_QUEUE } from '@svc/investigations';
import { Client } from '../support/api';
import { useBootstrappedApi } from '../support/factories';
import { ensureBuilt } from '../support/dist';
import { MonitoringProcess } from '../support/monitoring-stack';
import { jobFinished } from '../support/queue-jobs';
import { investigationEnded } from '../support/investigations';
import { until } from '../support/until';
import { startWorker, TestWorker } from '../support/worker';

/**
 * A Prometheus stand-in that forwards to a real one, or holds every request while `frozen`
 * (a Prometheus that stopped answering). It notes when a held request is abandoned by its client.
 */
class FreezableProxy {
  frozen = false;
  /** Answer every request with 503, as a Prometheus that is down behind its load balancer. */
  failing = false;
  /** Answer every query with Prometheus's own error for a query it cannot run (the source answers; each query fails). */
  refusingQueries = false;
  held = 0;
  /** Held requests whose client gave up on them. */
  abandoned = 0;
  private constructor(
    private readonly server: Server,
    readonly url: string,
    private readonly target: string,
  ) {}

  static async start(target: string): Promise<FreezableProxy> {
    let proxy: FreezableProxy | undefined;
    const server = createServer((req, res) => void proxy!.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    proxy = new FreezableProxy(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`, target);
    return proxy;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (this.frozen) {
      this.held += 1;
      res.on('close', () => {
        this.abandoned += 1;
      });
      return;
    }
    if (this.failing) {
      res.writeHead(503, { 'content-type': 'text/plain' }).end('unavailable');
      return;
    }
    if (this.refusingQueries) {
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 'error', errorType: 'bad_data', error: 'query refused' }));
      return;
    }
    const answer = await fetch(`${this.target}${req.url}`, { headers: { accept: 'application/json' } });
    res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
    res.end(await answer.text());
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

process.env.SVC_QUEUE_JOB_LOCK_SECONDS = '2';

describe('the investigation engine', () => {
  const ctx = useBootstrappedApi({ env: { SVC_QUEUE_JOB_LOCK_SECONDS: '2' } });
  let prometheus: MonitoringProcess;
  let proxy: FreezableProxy;
  let worker: TestWorker | undefined;
  let generic: { id: string; secret: string };
  let seq = 0;

  /** A fresh incident: one firing alert, with its own group (in `hook`'s Organization). */
  async function incident(hook = generic): Promise<string> {
    seq += 1;
    const res = await new Client(ctx.api.baseUrl).request('POST', `/webhooks/v1/integrations/${hook.id}/alert-events`, {
      body: {
        alerts: [{ labels: { alertname: `EngineProbe${seq}`, service: 'probe', job: 'prometheus' }, startsAt: new Date(Date.now() - 60_000).toISOString() }],
      },
      headers: { 'x-svc-token': hook.secret },
      origin: false,
    });
    expect(res.status).toBe(202);
    return res.body.incidentIds[0];
  }

  const read = (id: string) => ctx.admin.get(`/api/v1/investigations/${id}`).then((r) => r.body);
  const activity = (id: string) =>
    ctx.admin
      .get(`/api/v1/investigations/${id}/activity?limit=200`)
      .then((r) => r.body.items as Array<{ sequence: number; type: string; data: Record<string, unknown> }>);
  const ended = (id: string, timeoutMs = 30_000) => investigationEnded(ctx.admin, id, { timeoutMs });

  /** Runs `work` with the Policy's investigation budgets changed, restoring them after. */
  async function withBudgets(change: Record<string, number>, work: () => Promise<void>): Promise<void> {
    const policy = (await ctx.admin.get('/api/v1/policy')).body;
    expect(
      (await ctx.admin.request('PUT', '/api/v1/policy', { body: { ...policy, investigationBudgets: { ...policy.investigationBudgets, ...change } } })).status,
    ).toBe(200);
    try {
      await work();
    } finally {
      await ctx.admin.request('PUT', '/api/v1/policy', { body: policy });
    }
  }

  beforeAll(async () => {
    ensureBuilt();
    const g = await ctx.admin.post('/api/v1/integrations', { type: 'generic', name: 'Probe alerts' });
    generic = { id: g.body.id, secret: g.body.webhookSecret };
    prometheus = await MonitoringProcess.prometheus('global:\n  scrape_interval: 1s\n');
    proxy = await FreezableProxy.start(prometheus.url);
    const created = await ctx.admin.post('/api/v1/integrations', { type: 'prometheus', name: 'Prometheus (proxied)', config: { baseUrl: proxy.url } });
    expect(created.status).toBe(201);
    worker = await startWorker();
  }, 240_000);

  afterAll(async () => {
    await worker?.close();
    await proxy?.stop();
    await prometheus?.stop();
  });

  it('with no readable integration, concludes inconclusive from the incident alone and says what was missing', async () => {
    // An Organization of its own, with alerts but nothing to read telemetry from.
    const bare = { headers: { 'x-svc-organization': 'bare' } };
    await ctx.admin.post('/api/v1/organizations', { id: 'bare', displayName: 'Bare' });
    const hook = (await ctx.admin.post('/api/v1/integrations', { type: 'generic', name: 'Bare alerts' }, bare)).body;
    const opened = await ctx.admin.post('/api/v1/investigations', { incidentId: await incident({ id: hook.id, secret: hook.webhookSecret }) }, bare);
    const done = await investigationEnded(ctx.admin, opened.body.id, bare);
    expect(done).toMatchObject({ status: 'concluded', conclusionStatus: 'inconclusive', error: null, usage: { inputTokens: 0, outputTokens: 0 } });
    expect(done.runs.map((r: { tool: string }) => r.tool)).toEqual(['incident.alert_events']);
    expect(done.limitations).toEqual([expect.objectContaining({ type: 'missing_telemetry' })]);
    expect(done.impact.runRefs).toEqual([1]);
  });

  it('with no Prometheus, lists the changes reported before the alert as untested hypotheses, and says none could be tested', async () => {
    const org = { headers: { 'x-svc-organization': 'unmeasured' } };
    await ctx.admin.post('/api/v1/organizations', { id: 'unmeasured', displayName: 'Unmeasured' });
    const hook = (await ctx.admin.post('/api/v1/integrations', { type: 'generic', name: 'Alerts' }, org)).body;
    const deploys = (await ctx.admin.post('/api/v1/integrations', { type: 'changes', name: 'Deploys' }, org)).body;
    const reported = await new Client(ctx.api.baseUrl).request('POST', `/webhooks/v1/integrations/${deploys.id}/change-events`, {
      body: { id: 'probe-7', summary: 'Deployed probe 7', kind: 'deploy', service: 'probe', timestamp: new Date(Date.now() - 10 * 60_000).toISOString() },
      headers: { 'x-svc-token': deploys.webhookSecret },
      origin: false,
    });
    expect(reported.status).toBe(202);
    const opened = await ctx.admin.post('/api/v1/investigations', { incidentId: await incident({ id: hook.id, secret: hook.webhookSecret }) }, org);
    const done = await investigationEnded(ctx.admin, opened.body.id, org);
    expect(done).toMatchObject({ status: 'concluded', conclusionStatus: 'inconclusive' });
    expect(done.runs.map((r: { tool: string }) => r.tool)).toEqual(['incident.alert_events', 'changes.near_onset']);
    expect(done.hypotheses).toEqual([
      expect.objectContaining({ status: 'inconclusive', statement: expect.stringMatching(/^The deploy "Deployed probe 7" \(probe-7\) on probe at /) }),
    ]);
    expect(done.summary).toMatch(/\. 1 change\(s\) near the onset were found, and none could be tested\.$/);
  });

  it('stops at the tool-run budget with a partial conclusion saying so', async () => {
    await withBudgets({ toolRuns: 2 }, async () => {
      const done = await ended((await ctx.admin.post('/api/v1/investigations', { incidentId: await incident() })).body.id);
      expect(done).toMatchObject({ status: 'partial', stoppedBy: 'tool_runs', error: null });
      expect(done.runs).toHaveLength(2);
      expect(done.summary.length).toBeGreaterThan(0);
      expect(done.limitations).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'budget' })]));
      const events = await activity(done.id);
      expect(events.at(-1)).toMatchObject({ type: 'concluded', data: { status: 'partial', stoppedBy: 'tool_runs' } });
    });
  });

  it('stops at the wall-clock budget while a read hangs, with a partial conclusion', async () => {
    proxy.frozen = true;
    try {
      await withBudgets({ wallClockSeconds: 10 }, async () => {
        const done = await ended((await ctx.admin.post('/api/v1/investigations', { incidentId: await incident() })).body.id, 30_000);
        expect(done).toMatchObject({ status: 'partial', stoppedBy: 'wall_clock', error: null });
        expect(done.runs.at(-1)).toMatchObject({ outcome: 'failed', error: expect.stringContaining('wall-clock') });
        expect(done.limitations).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'budget' })]));
      });
    } finally {
      proxy.frozen = false;
    }
  }, 40_000);

  it('with Prometheus down, stops reading it and ends partial, saying it could not be read and concluding nothing from the failed reads', async () => {
    proxy.failing = true;
    try {
      const done = await ended((await ctx.admin.post('/api/v1/investigations', { incidentId: await incident() })).body.id);
      expect(done).toMatchObject({ status: 'partial', stoppedBy: null, conclusionStatus: 'inconclusive', error: null });
      // The first read showed it down: nothing more was asked of it.
      expect(done.runs.map((r: { tool: string; outcome: string }) => [r.tool, r.outcome])).toEqual([
        ['incident.alert_events', 'succeeded'],
        ['prometheus.alert_rules', 'failed'],
      ]);
      expect(done.limitations).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            type: 'tool_failure',
            statement: expect.stringMatching(
              /^Prometheus \(proxied\) \(prometheus\) could not be read: Prometheus answered HTTP 503 at \/api\/v1\/rules\. Nothing was concluded from it/,
            ),
            runRefs: [2],
          }),
        ]),
      );
      expect(done.summary).toMatch(/^Prometheus \(proxied\) could not be read \(Prometheus answered HTTP 503/);
      // No absence is claimed from a read that failed.
      const said = JSON.stringify([done.summary, done.findings, done.limitations, done.hypotheses]);
      expect(said).not.toMatch(/No change near the onset|has no alerting rule named/);
      const events = await activity(done.id);
      expect(events.at(-1)).toMatchObject({ type: 'concluded', data: { status: 'partial', stoppedBy: null } });
    } finally {
      proxy.failing = false;
    }
  });

  it('stops after turns without new evidence (stagnation), reported as reasoner_turns', async () => {
    proxy.refusingQueries = true;
    try {
      await withBudgets({ stagnationTurns: 1 }, async () => {
        const done = await ended((await ctx.admin.post('/api/v1/investigations', { incidentId: await incident() })).body.id);
        expect(done).toMatchObject({ status: 'partial', stoppedBy: 'reasoner_turns' });
        expect(done.runs.filter((r: { outcome: string }) => r.outcome === 'failed').length).toBeGreaterThan(0);
        const events = await activity(done.id);
        expect(events.some((e) => e.type === 'progress' && String(e.data.message).includes('without new evidence'))).toBe(true);
      });
    } finally {
      proxy.refusingQueries = false;
    }
  });

  // How soon cancel takes effect (decisions §6: within 2 s) is measured by the bench, not asserted here.
  it('cancel abandons the in-flight tool read, and the worker writes nothing after the cancellation', async () => {
    proxy.frozen = true;
    proxy.held = 0;
    proxy.abandoned = 0;
    try {
      const id = (await ctx.admin.post('/api/v1/investigations', { incidentId: await incident() })).body.id;
      await until(
        async () => ((await activity(id)).some((e) => e.type === 'tool.started' && e.data.tool !== 'incident.alert_events') ? true : undefined),
        20_000,
        'a Prometheus read to start',
      );
      const cancelled = await ctx.admin.post(`/api/v1/investigations/${id}/cancel`);
      expect(cancelled.status).toBe(200);
      expect(cancelled.body.status).toBe('cancelled');
      await until(async () => (proxy.abandoned > 0 ? true : undefined), 10_000, 'the held read to be abandoned');
      // The worker's job for it has finished: whatever it was going to write is written.
      await until(async () => ((await jobFinished(INVESTIGATIONS_QUEUE, id)) ? true : undefined), 10_000, 'the investigation job to finish');
      expect(proxy.abandoned).toBe(proxy.held);
      const events = await activity(id);
      expect(events.at(-1)!.type).toBe('cancelled');
      const after = await read(id);
      expect(after.status).toBe('cancelled');
      expect(after.runs.at(-1)).toMatchObject({ outcome: 'failed', error: 'Cancelled' });
      expect((await ctx.admin.post(`/api/v1/investigations/${id}/cancel`)).status).toBe(409);
    } finally {
      proxy.frozen = false;
    }
  });

  it('a worker killed mid-investigation leaves no investigation stuck: another takes it over without duplicate ordinals or events', async () => {
    await worker?.close();
    worker = undefined;
    proxy.frozen = true;
    const { child } = await startWorker();
    try {
      const id = (await ctx.admin.post('/api/v1/investigations', { incidentId: await incident() })).body.id;
      await until(
        async () => ((await activity(id)).some((e) => e.type === 'tool.started' && e.data.tool !== 'incident.alert_events') ? true : undefined),
        30_000,
        'a Prometheus read to start',
      );
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
      expect((await read(id)).status).toBe('investigating');
      proxy.frozen = false;

      worker = await startWorker();
      const done = await ended(id, 45_000);
      expect(done.status).toBe('concluded');
      const ordinals = done.runs.map((r: { ordinal: number }) => r.ordinal);
      expect(ordinals).toEqual(Array.from({ length: ordinals.length }, (_, i) => i + 1));
      expect(done.runs[1]).toMatchObject({ outcome: 'failed', error: expect.stringContaining('Interrupted') });
      // The completed read of the first attempt was reused, not repeated.
      expect(done.runs.filter((r: { tool: string }) => r.tool === 'incident.alert_events')).toHaveLength(1);
      const events = await activity(id);
      expect(events.map((e) => e.sequence)).toEqual(events.map((_, i) => i + 1));
      expect(events.filter((e) => e.type === 'started')).toHaveLength(1);
      expect(events.filter((e) => e.type === 'concluded')).toHaveLength(1);
      expect(events.some((e) => e.type === 'progress' && String(e.data.message).startsWith('Resumed'))).toBe(true);
      const started = events.filter((e) => e.type === 'tool.started').map((e) => e.data.ordinal);
      expect(new Set(started).size).toBe(started.length);
    } finally {
      proxy.frozen = false;
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      // The other tests need the file's worker whatever happened here.
      worker ??= await startWorker();
    }
  }, 120_000);
});
