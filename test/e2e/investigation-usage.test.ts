import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVESTIGATIONS_QUEUE } from '@svc/investigations';
import { Client } from '../support/api';
import { ensureBuilt } from '../support/dist';
import { useBootstrappedApi } from '../support/factories';
import { investigationEnded } from '../support/investigations';
import { jobFinished } from '../support/queue-jobs';
import { answer, ScriptedModelServer } from '../support/scripted-model-server';
import { until } from '../support/until';
import { startWorker, TestWorker } from '../support/worker';

/**
 * Token usage is stored as it is spent, after every language model call, so it is there however
 * the investigation ends: cancelled mid-run, or finished by another worker after the first died.
 * The "model" is the scripted server; its reported usage is what the investigation must show.
 */

const ORG = { 'x-svc-organization': 'acme' };
/** A worker that died lets go of its job after this long (a short lock, so takeover is quick). */
const LOCK = { SVC_QUEUE_JOB_LOCK_SECONDS: '2' };

const inconclusive = {
  conclusionStatus: 'inconclusive',
  summary: 'The evidence gathered does not explain the alert.',
  impact: { summary: 'Unknown.', runRefs: [] },
  findings: [],
  hypotheses: [],
  actions: [],
  limitations: [],
};
const readAlerts = (usage: { input: number; output: number }) =>
  answer.tool('incident__alert_events', { purpose: 'Which alerts fired?', status: 'firing' }, usage);

process.env.SVC_QUEUE_JOB_LOCK_SECONDS = LOCK.SVC_QUEUE_JOB_LOCK_SECONDS;

describe('investigation token usage', () => {
  const ctx = useBootstrappedApi({ env: LOCK });
  let server: ScriptedModelServer;
  let worker: TestWorker | undefined;
  let generic: { id: string; secret: string };
  let seq = 0;
  const modelEnv = () => ({
    SVC_LLM_PROVIDER: 'openai-compatible',
    SVC_LLM_BASE_URL: server.baseUrl,
    SVC_LLM_API_KEY: 'sk-usage',
    SVC_LLM_MODEL: 'usage-model',
    ...LOCK,
  });

  async function open(): Promise<string> {
    seq += 1;
    const alert = await new Client(ctx.api.baseUrl).request('POST', `/webhooks/v1/integrations/${generic.id}/alert-events`, {
      body: { alerts: [{ labels: { alertname: `UsageProbe${seq}`, service: 'usage' }, startsAt: new Date(Date.now() - 60_000).toISOString() }] },
      headers: { 'x-svc-token': generic.secret },
      origin: false,
    });
    expect(alert.status).toBe(202);
    const res = await ctx.admin.post('/api/v1/investigations', { incidentId: alert.body.incidentIds[0] }, { headers: ORG });
    expect(res.status).toBe(201);
    return res.body.id;
  }
  const read = async (id: string) => {
    const res = await ctx.admin.get(`/api/v1/investigations/${id}`, { headers: ORG });
    expect(res.status).toBe(200);
    return res.body;
  };
  const requestsMade = (n: number) => until(async () => (server.requests.length >= n ? true : undefined), 20_000, `model request ${n}`);

  beforeAll(async () => {
    ensureBuilt();
    server = await ScriptedModelServer.start();
    const g = await ctx.admin.post('/api/v1/integrations', { type: 'generic', name: 'Usage alerts' }, { headers: ORG });
    expect(g.status).toBe(201);
    generic = { id: g.body.id, secret: g.body.webhookSecret };
  }, 120_000);
  afterAll(async () => {
    await worker?.close();
    await server?.close();
  });

  it('a cancelled investigation shows the tokens of the model calls it made', async () => {
    worker ??= await startWorker(modelEnv());
    // The second call is held back until the cancel: only the first was answered, with its usage.
    server.script(readAlerts({ input: 700, output: 40 }), answer.after(30_000, answer.conclude(inconclusive)));
    const id = await open();
    await requestsMade(2);
    expect(server.requests[0].answered).toBe(true);
    // Stored before the next call was made, not at the end.
    expect((await read(id)).usage).toEqual({ inputTokens: 700, outputTokens: 40 });

    const cancelled = await ctx.admin.post(`/api/v1/investigations/${id}/cancel`, undefined, { headers: ORG });
    expect(cancelled.status).toBe(200);
    await until(async () => ((await jobFinished(INVESTIGATIONS_QUEUE, id)) ? true : undefined), 15_000, 'the job to finish');
    expect(server.requests[1]).toMatchObject({ answered: false, abandoned: true });
    const after = await read(id);
    expect(after.status).toBe('cancelled');
    expect(after.usage).toEqual({ inputTokens: 700, outputTokens: 40 });
  }, 60_000);

  it('a worker that dies mid-investigation: the worker that takes over adds to the usage instead of starting it again', async () => {
    worker ??= await startWorker(modelEnv());
    server.script(
      // The first worker: one answered call, then killed while the second is held back.
      readAlerts({ input: 500, output: 30 }),
      answer.after(60_000, answer.conclude(inconclusive)),
      // The second worker starts its conversation again: the same read (reused), then the conclusion.
      readAlerts({ input: 600, output: 35 }),
      answer.conclude(inconclusive, { input: 800, output: 45 }),
    );
    const id = await open();
    await requestsMade(2);
    expect((await read(id)).usage).toEqual({ inputTokens: 500, outputTokens: 30 });
    const first = worker;
    worker = undefined;
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));
    expect((await read(id)).status).toBe('investigating');

    worker = await startWorker(modelEnv());
    const done = await investigationEnded(ctx.admin, id, { headers: ORG, timeoutMs: 45_000 });
    expect(done.status).toBe('concluded');
    expect(server.requests).toHaveLength(4);
    expect(server.requests[1].answered).toBe(false);
    // Every answered call counts once: 500 + 600 + 800 in, 30 + 35 + 45 out.
    expect(done.usage).toEqual({ inputTokens: 1900, outputTokens: 110 });
  }, 120_000);
});
