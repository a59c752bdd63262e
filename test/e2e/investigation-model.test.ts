import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVESTIGATIONS_QUEUE } from '@svc/investigations';
import { Client } from '../support/api';
import { ensureBuilt } from '../support/dist';
import { useBootstrappedApi } from '../support/factories';
import { MonitoringProcess } from '../support/monitoring-stack';
import { freePort } from '../support/ports';
import { answer, apiKeyOf, ScriptedModelServer, forcedToolOf, offeredToolsOf, toolResultsOf, userTextOf } from '../support/scripted-model-server';
import { jobFinished } from '../support/queue-jobs';
import { investigationEnded } from '../support/investigations';
import { until } from '../support/until';
import { startWorker, TestWorker } from '../support/worker';

/**
 * Investigations worked end to end by the real worker process with the language-model reasoner:
 * the "model" is the scripted server (real HTTP, both wire protocols), its tool calls really read
 * a real Prometheus, and everything is observed through the public API and what reached the model.
 */

const API_KEY = 'sk-e2e-3b9d51c7a2e04f68b1d9';
const MODEL = 'test-model';
const ORG = { 'x-svc-organization': 'acme' };

type Provider = 'openai-compatible' | 'anthropic';
interface ActivityItem {
  sequence: number;
  type: string;
  at: string;
  data: Record<string, any>;
}

/** A conclusion whose cause the run with this ordinal verifies (it tested hypothesis h1). */
const verifiedBy = (ordinal: number) => ({
  conclusionStatus: 'verified_cause',
  summary: 'Prometheus itself was up and scraped at the end of the window, so the scrape path is not the cause.',
  impact: { summary: 'The monitoring stack kept working.', runRefs: [ordinal] },
  findings: [
    {
      statement: 'up of the prometheus job is 1',
      kind: 'cause',
      mechanism: 'The target answers its scrapes',
      runRefs: [ordinal],
      hypothesisId: 'h1',
      verification: { causeAt: '2026-11-22T10:04:00Z', onsetAt: '2026-11-22T10:05:00Z', mechanismRunRefs: [ordinal], unexplained: [] as string[] },
    },
  ],
  hypotheses: [{ id: 'h1', statement: 'Prometheus is being scraped', status: 'supported', test: 'up', runRefs: [ordinal] }],
  actions: [{ title: 'Keep the Prometheus self-scrape', rationale: 'It shows the stack is healthy', verification: 'up stays 1', runRefs: [ordinal] }],
  limitations: [],
});

const inconclusive = (runRefs: number[] = []) => ({
  conclusionStatus: 'inconclusive',
  summary: 'The evidence gathered does not explain the alert.',
  impact: { summary: 'Unknown.', runRefs },
  findings: [],
  hypotheses: [],
  actions: [],
  limitations: runRefs.length ? [{ type: 'tool_failure', statement: 'A read was refused.', runRefs }] : [],
});

describe('investigations worked by a language model', () => {
  const ctx = useBootstrappedApi();
  let prometheus: MonitoringProcess;
  let prometheusPort: number;
  let server: ScriptedModelServer;
  let generic: { id: string; secret: string };
  let promId: string;
  let seq = 0;

  /** A fresh incident: one firing alert, with its own group. */
  async function incident(): Promise<string> {
    seq += 1;
    const res = await new Client(ctx.api.baseUrl).request('POST', `/webhooks/v1/integrations/${generic.id}/alert-events`, {
      body: {
        alerts: [{ labels: { alertname: `ModelProbe${seq}`, service: 'probe', job: 'prometheus' }, startsAt: new Date(Date.now() - 60_000).toISOString() }],
      },
      headers: { 'x-svc-token': generic.secret },
      origin: false,
    });
    expect(res.status).toBe(202);
    return res.body.incidentIds[0];
  }
  async function open(): Promise<string> {
    const res = await ctx.admin.post('/api/v1/investigations', { incidentId: await incident() }, { headers: ORG });
    expect(res.status).toBe(201);
    return res.body.id;
  }
  const read = (id: string) =>
    ctx.admin.get(`/api/v1/investigations/${id}`, { headers: ORG }).then((r) => {
      expect(r.status).toBe(200);
      return r.body;
    });
  const activity = (id: string) =>
    ctx.admin.get(`/api/v1/investigations/${id}/activity?limit=200`, { headers: ORG }).then((r) => r.body.items as ActivityItem[]);
  const ended = (id: string, timeoutMs = 20_000) => investigationEnded(ctx.admin, id, { headers: ORG, timeoutMs });
  /** The activity once its terminal event is written (the row and the event commit together, but read them in order anyway). */
  const finalActivity = (id: string) =>
    until(
      async () => {
        const items = await activity(id);
        return ['concluded', 'failed', 'cancelled'].includes(items.at(-1)?.type ?? '') ? items : undefined;
      },
      5_000,
      `the terminal event of ${id}`,
    );

  beforeAll(async () => {
    ensureBuilt();
    server = await ScriptedModelServer.start();
    prometheusPort = await freePort();
    prometheus = await MonitoringProcess.prometheus(
      `global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: prometheus\n    static_configs:\n      - targets: ['127.0.0.1:${prometheusPort}']\n`,
      prometheusPort,
    );
    // The investigations read `up` at their window's end (their creation): wait for the first scrape.
    await until(
      async () => {
        const body = (await fetch(`${prometheus.url}/api/v1/query?query=up`).then((r) => r.json())) as { data: { result: unknown[] } };
        return body.data.result.length > 0 ? true : undefined;
      },
      20_000,
      'Prometheus to scrape itself',
    );
    const g = await ctx.admin.post('/api/v1/integrations', { type: 'generic', name: 'Probe alerts' }, { headers: ORG });
    expect(g.status).toBe(201);
    generic = { id: g.body.id, secret: g.body.webhookSecret };
    const p = await ctx.admin.post(
      '/api/v1/integrations',
      { type: 'prometheus', name: 'Self-scraping Prometheus', config: { baseUrl: prometheus.url } },
      { headers: ORG },
    );
    expect(p.status).toBe(201);
    promId = p.body.id;
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    await prometheus?.stop();
  });

  describe.each(['openai-compatible', 'anthropic'] as const)('over %s', (provider: Provider) => {
    let worker: TestWorker;
    const callId = (answerNo: number, i = 0) => (provider === 'anthropic' ? `toolu_${answerNo}_${i}` : `call_${answerNo}_${i}`);
    const who = `The language model provider (${provider}, model ${MODEL})`;

    beforeAll(async () => {
      worker = await startWorker({ SVC_LLM_PROVIDER: provider, SVC_LLM_BASE_URL: server.baseUrl, SVC_LLM_API_KEY: API_KEY, SVC_LLM_MODEL: MODEL });
    }, 60_000);
    afterAll(async () => {
      await worker?.close();
    });

    it("runs the model's prometheus.query against the real Prometheus, feeds the result back and stores the conclusion that cites it", async () => {
      server.script(
        answer.tools(
          [
            {
              name: 'prometheus__query',
              input: { integrationId: promId, purpose: 'Is Prometheus itself up?', query: 'up', hypothesisId: 'h1', hypothesis: 'Prometheus is being scraped' },
            },
          ],
          { input: 1200, output: 80 },
          'Checking the scrape target first.',
        ),
        answer.conclude(verifiedBy(1), { input: 2100, output: 300 }),
      );
      const id = await open();
      const done = await ended(id);

      expect(done).toMatchObject({
        status: 'concluded',
        conclusionStatus: 'verified_cause',
        error: null,
        stoppedBy: null,
        reasoner: `${provider}:${MODEL}`,
        usage: { inputTokens: 3300, outputTokens: 380 },
        humanConfirmationRequired: true,
        summary: verifiedBy(1).summary,
      });
      expect(done.actions).toEqual(verifiedBy(1).actions);
      // The cause's verification is checked and stored with the finding, but is not part of the response.
      const { verification: _checked, ...cause } = verifiedBy(1).findings[0];
      expect(done.findings).toEqual([{ ...cause, evidenceRefs: [{ investigationId: id, toolRunOrdinal: 1 }] }]);
      expect(done.runs).toHaveLength(1);
      const run = done.runs[0];
      expect(run).toMatchObject({
        ordinal: 1,
        tool: 'prometheus.query',
        integrationId: promId,
        outcome: 'succeeded',
        error: null,
        truncated: false,
        purpose: 'Is Prometheus itself up?',
        hypothesisId: 'h1',
        arguments: { query: 'up' },
      });
      // A real read of the real Prometheus: its own scrape target, up.
      expect(run.summary).toMatch(new RegExp(`^1 series at \\S+: up\\{instance="127\\.0\\.0\\.1:${prometheusPort}",job="prometheus"\\} = 1\\.$`));
      expect(run.sources).toEqual([expect.stringMatching(/^\/api\/v1\/query\?/)]);
      expect(run.windowFrom).toBe(done.windowUntil);

      // What the model was sent: the brief and the tools first, then the run's result.
      expect(server.requests).toHaveLength(2);
      expect(server.unanswered).toBe(0);
      const [first, second] = server.requests;
      expect(first.protocol).toBe(provider === 'anthropic' ? 'anthropic' : 'openai');
      expect(apiKeyOf(first)).toBe(API_KEY);
      expect(first.body.model).toBe(MODEL);
      expect(userTextOf(first)).toContain(`ModelProbe${seq}`);
      expect(userTextOf(first)).toContain(promId);
      const offered = offeredToolsOf(first);
      expect(offered.prometheus__query.parameters.properties.integrationId.enum).toEqual([promId]);
      expect(offered.prometheus__query.parameters.required).toEqual(expect.arrayContaining(['query', 'integrationId', 'purpose']));
      expect(Object.keys(offered)).toEqual(expect.arrayContaining(['conclude', 'update_hypotheses', 'incident__alert_events', 'prometheus__query_range']));
      const results = toolResultsOf(second);
      expect(results).toHaveLength(1);
      expect(results[0].id).toBe(callId(1));
      expect(results[0].text).toContain(`Tool run #1: prometheus.query on integration ${promId}, succeeded`);
      expect(results[0].text).toContain(`Summary: ${run.summary}`);
      expect(results[0].text).toContain(`"job":"prometheus"`);

      const events = await finalActivity(id);
      expect(events.map((e) => e.sequence)).toEqual(events.map((_, i) => i + 1));
      expect(events[0]).toMatchObject({ type: 'started', data: { status: 'investigating', reasoner: `${provider}:${MODEL}` } });
      expect(events).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ type: 'progress', data: { message: 'Checking the scrape target first.' } }),
          expect.objectContaining({
            type: 'tool.started',
            data: { ordinal: 1, tool: 'prometheus.query', integrationId: promId, purpose: 'Is Prometheus itself up?' },
          }),
          expect.objectContaining({ type: 'tool.completed', data: expect.objectContaining({ ordinal: 1, outcome: 'succeeded', summary: run.summary }) }),
        ]),
      );
      expect(events.at(-1)).toMatchObject({ type: 'concluded', data: { status: 'concluded', conclusionStatus: 'verified_cause', stoppedBy: null } });

      const sources = await ctx.admin.get(`/api/v1/investigations/${id}/sources`, { headers: ORG });
      expect(sources.status).toBe(200);
      expect(sources.body.sources).toEqual([
        expect.objectContaining({ integrationId: promId, rank: 1, reason: expect.stringContaining('Prometheus metrics') }),
      ]);
      expect(sources.body.runs).toEqual(done.runs);

      const report = await ctx.admin.get(`/api/v1/investigations/${id}/report`, { headers: ORG });
      expect(report.status).toBe(200);
      expect(report.headers.get('content-type')).toMatch(/^text\/markdown/);
      expect(report.text).toContain(`- Reasoner: ${provider}:${MODEL} (3300 input and 380 output tokens)`);
      expect(report.text).toContain('## Proposed actions (need a person to confirm)');
      expect(report.text).toContain('- **Keep the Prometheus self-scrape**: It shows the stack is healthy [#1]');
      expect(report.text).toContain(`| 1 | prometheus.query | succeeded | ${run.summary} |`);
    });

    it('records a call to an integration that is not a source as a failed run, never as started, and sends an unearned status back', async () => {
      const stranger = randomUUID();
      server.script(
        answer.tools([
          { name: 'prometheus__query', input: { integrationId: stranger, purpose: 'Read a Prometheus that is not ours', query: 'up' } },
          { name: 'prometheus__query', input: { integrationId: promId, purpose: 'Read ours', query: 'up' } },
          { name: 'kubectl_delete_pod', input: { pod: 'prometheus-0' } },
        ]),
        // verified_cause, but run #2 was not made to test h1: sent back, then corrected.
        answer.conclude({ ...verifiedBy(2), actions: [], limitations: [{ type: 'tool_failure', statement: 'Run #1 was refused.', runRefs: [1] }] }),
        answer.conclude({
          ...verifiedBy(2),
          conclusionStatus: 'supported_explanation',
          actions: [],
          limitations: [{ type: 'tool_failure', statement: 'Run #1 was refused.', runRefs: [1] }],
        }),
      );
      const id = await open();
      const done = await ended(id);

      expect(done).toMatchObject({
        status: 'concluded',
        conclusionStatus: 'supported_explanation',
        error: null,
        humanConfirmationRequired: false,
        actions: [],
      });
      expect(done.runs.map((r: any) => [r.ordinal, r.tool, r.integrationId, r.outcome])).toEqual([
        [1, 'prometheus.query', null, 'failed'],
        [2, 'prometheus.query', promId, 'succeeded'],
      ]);
      expect(done.runs[0]).toMatchObject({
        error: `Integration ${stranger} is not a source of this investigation`,
        summary: `Refused: Integration ${stranger} is not a source of this investigation`,
        purpose: 'Read a Prometheus that is not ours',
        arguments: { query: 'up' },
        sources: [],
      });

      const results = toolResultsOf(server.requests[1]);
      expect(results.map((r) => r.id)).toEqual([callId(1, 0), callId(1, 1), callId(1, 2)]);
      expect(results[0].text).toContain('Tool run #1: prometheus.query, failed');
      expect(results[0].text).toContain(`Error: Integration ${stranger} is not a source of this investigation`);
      expect(results[1].text).toContain(`Tool run #2: prometheus.query on integration ${promId}, succeeded`);
      // A tool that was never offered is answered without a run.
      expect(results[2].text).toBe('Not run: there is no tool named "kubectl_delete_pod".');
      const sentBack = toolResultsOf(server.requests[2]).at(-1)!;
      expect(sentBack.text).toContain('Conclusion not accepted');
      expect(sentBack.text).toContain('"verified_cause" needs');

      const events = await finalActivity(id);
      expect(events.filter((e) => e.type === 'tool.started').map((e) => e.data.ordinal)).toEqual([2]);
      expect(events.filter((e) => e.type === 'tool.completed').map((e) => [e.data.ordinal, e.data.outcome, e.data.integrationId, e.data.truncated])).toEqual([
        [1, 'failed', null, false],
        [2, 'succeeded', promId, false],
      ]);
      // Never reported as started (or run) against the integration it named.
      expect(events.filter((e) => e.data.integrationId === stranger)).toEqual([]);
    });

    it('offers prometheus.metadata: a bad argument is a refused run saying why, and the next call reads the types Prometheus declares', async () => {
      server.script(
        answer.tools([
          { name: 'prometheus__metadata', input: { integrationId: promId, purpose: 'Counter or gauge?', metric: 'not a metric name' } },
          {
            name: 'prometheus__metadata',
            input: { integrationId: promId, purpose: 'Counter or gauge?', metrics: ['prometheus_http_requests_total', 'go_goroutines'] },
          },
        ]),
        answer.conclude(inconclusive([1])),
      );
      const id = await open();
      const done = await ended(id);

      expect(done).toMatchObject({ status: 'concluded', conclusionStatus: 'inconclusive', error: null });
      expect(done.runs.map((r: any) => [r.ordinal, r.tool, r.integrationId, r.outcome])).toEqual([
        [1, 'prometheus.metadata', null, 'failed'],
        [2, 'prometheus.metadata', promId, 'succeeded'],
      ]);
      expect(done.runs[0]).toMatchObject({
        error: 'Invalid arguments: arguments.metric must match pattern "^[a-zA-Z_:][a-zA-Z0-9_:]*$"',
        arguments: { metric: 'not a metric name' },
        sources: [],
      });
      // Prometheus scrapes itself: its own metrics have the types its /metrics declares.
      expect(done.runs[1].summary).toBe('Metadata of 2 of 2 metrics asked: prometheus_http_requests_total (counter), go_goroutines (gauge).');
      expect(done.runs[1].sources).toEqual(['/api/v1/metadata?limit_per_metric=4']);

      const offered = offeredToolsOf(server.requests[0]).prometheus__metadata;
      expect(offered.parameters.properties.metrics).toMatchObject({ type: 'array', maxItems: 100 });
      const results = toolResultsOf(server.requests[1]);
      expect(results[0].text).toContain('Error: Invalid arguments: arguments.metric must match pattern');
      expect(results[1].text).toContain(`Tool run #2: prometheus.metadata on integration ${promId}, succeeded`);
      expect(results[1].text).toContain('"types":["counter"]');
      const events = await finalActivity(id);
      expect(events.filter((e) => e.type === 'tool.started').map((e) => e.data.ordinal)).toEqual([2]);
    });

    it('sends back verified_cause for a proximate cause whose own cause is unexplained, and stores the honest conclusion', async () => {
      const proximate = (status: string) => {
        const base = verifiedBy(1);
        const unexplained = ['why the target restarted'];
        return {
          ...base,
          conclusionStatus: status,
          findings: [{ ...base.findings[0], verification: { ...base.findings[0].verification, unexplained } }],
          limitations:
            status === 'verified_cause' ? [] : [{ type: 'missing_telemetry', statement: 'Why the target restarted is not in the data.', runRefs: [1] }],
        };
      };
      server.script(
        answer.tools([
          { name: 'prometheus__query', input: { integrationId: promId, purpose: 'Is it up?', query: 'up', hypothesisId: 'h1', hypothesis: 'It restarted' } },
        ]),
        answer.conclude(proximate('verified_cause')),
        answer.conclude(proximate('supported_explanation')),
      );
      const id = await open();
      const done = await ended(id);

      expect(done).toMatchObject({ status: 'concluded', conclusionStatus: 'supported_explanation', error: null });
      expect(done.limitations).toEqual([
        { type: 'missing_telemetry', statement: 'Why the target restarted is not in the data.', runRefs: [1], messageSequences: [] },
      ]);
      const sentBack = toolResultsOf(server.requests[2]).at(-1)!;
      expect(sentBack.text).toContain('Conclusion not accepted');
      expect(sentBack.text).toContain(`needs the cause finding's "verification"`);
      expect(sentBack.text).toContain('the data does not show why the target restarted');
    });

    it('fails the investigation after two conclusions in a row that cite a run that does not exist', async () => {
      server.script(answer.conclude(verifiedBy(7), { input: 500, output: 40 }), answer.conclude(verifiedBy(7), { input: 700, output: 40 }));
      const id = await open();
      const done = await ended(id);

      expect(done.status).toBe('failed');
      expect(done.error).toContain(`The language model (${provider}:${MODEL}) handed in an invalid conclusion 2 times in a row`);
      expect(done.error).toContain('impact.runRefs[0] cites tool run #7, which does not exist (no tool run has been recorded yet)');
      expect(done).toMatchObject({ conclusionStatus: null, summary: null, findings: [], actions: [], usage: { inputTokens: 1200, outputTokens: 80 } });
      expect(done.runs).toEqual([]);
      // The first refusal went back to the model for correction.
      expect(server.requests).toHaveLength(2);
      const [refusal] = toolResultsOf(server.requests[1]);
      expect(refusal.id).toBe(callId(1));
      expect(refusal.text).toContain('Conclusion not accepted');
      expect(refusal.text).toContain('cites tool run #7, which does not exist');

      const events = await finalActivity(id);
      expect(events.at(-1)).toMatchObject({ type: 'failed', data: { status: 'failed', error: done.error.slice(0, 1024) } });
      expect(events.some((e) => e.type === 'concluded')).toBe(false);
    });

    it('fails with the provider and status when the model answers HTTP 500, after one retry', async () => {
      server.script(answer.status(500, 'upstream overloaded', { 'retry-after': '0' }), answer.status(500, 'upstream overloaded', { 'retry-after': '0' }));
      const id = await open();
      const done = await ended(id);

      expect(done.status).toBe('failed');
      expect(done.error).toBe(`${who} answered HTTP 500 (after 2 attempts): upstream overloaded`);
      expect(server.requests).toHaveLength(2);
      expect(server.requests.map(apiKeyOf)).toEqual([API_KEY, API_KEY]);
      const events = await finalActivity(id);
      expect(events.at(-1)).toMatchObject({ type: 'failed', data: { error: done.error } });
    });

    it('fails on a 401 at once, without the API key even though the provider echoed it', async () => {
      server.script(answer.status(401, 'invalid api key'));
      const id = await open();
      const done = await ended(id);

      expect(done.status).toBe('failed');
      expect(done.error).toBe(`${who} answered HTTP 401: invalid api key (received key [redacted])`);
      expect(server.requests).toHaveLength(1);
      expect(apiKeyOf(server.requests[0])).toBe(API_KEY);
      const events = await finalActivity(id);
      expect(events.at(-1)).toMatchObject({ type: 'failed', data: { status: 'failed', error: done.error } });
      const report = await ctx.admin.get(`/api/v1/investigations/${id}/report`, { headers: ORG });
      expect(report.text).toContain(`## Error\n\n${done.error}`);
      for (const text of [JSON.stringify(done), JSON.stringify(events), report.text]) expect(text).not.toContain(API_KEY);
    });

    it('fails when the model answers HTTP 200 with a body that is not JSON', async () => {
      server.script(answer.malformed());
      const done = await ended(await open());
      expect(done).toMatchObject({ status: 'failed', error: `${who} answered HTTP 200 with a body that is not valid JSON` });
    });

    describe('with a reasoner-turn budget of 2', () => {
      let policy: any;
      beforeAll(async () => {
        policy = (await ctx.admin.get('/api/v1/policy', { headers: ORG })).body;
        const res = await ctx.admin.put(
          '/api/v1/policy',
          { ...policy, investigationBudgets: { ...policy.investigationBudgets, reasonerTurns: 2 } },
          { headers: ORG },
        );
        expect(res.status).toBe(200);
      });
      afterAll(async () => {
        if (policy) expect((await ctx.admin.put('/api/v1/policy', policy, { headers: ORG })).status).toBe(200);
      });

      const query = (q: string) => answer.tool('prometheus__query', { integrationId: promId, purpose: `Read ${q}`, query: q }, { input: 400, output: 30 });

      it('stops a model that keeps calling tools, partial, with the conclusion of its one final forced call', async () => {
        server.script(
          query('up'),
          query('count(up)'),
          answer.conclude({ ...inconclusive(), impact: { summary: 'Prometheus was up.', runRefs: [1, 2] } }, { input: 900, output: 150 }),
        );
        const done = await ended(await open());

        expect(done).toMatchObject({
          status: 'partial',
          stoppedBy: 'reasoner_turns',
          conclusionStatus: 'inconclusive',
          error: null,
          usage: { inputTokens: 1700, outputTokens: 210 },
        });
        expect(done.summary).toBe(inconclusive().summary);
        expect(done.impact).toEqual({ summary: 'Prometheus was up.', runRefs: [1, 2] });
        expect(done.limitations).toEqual([
          { type: 'budget', statement: 'The reasoner-turn budget stopped the investigation before it finished.', runRefs: [], messageSequences: [] },
        ]);
        expect(done.runs.map((r: any) => [r.ordinal, r.arguments.query, r.outcome])).toEqual([
          [1, 'up', 'succeeded'],
          [2, 'count(up)', 'succeeded'],
        ]);
        expect(server.requests).toHaveLength(3);
        const final = server.requests[2];
        expect(Object.keys(offeredToolsOf(final))).toEqual(['conclude']);
        expect(forcedToolOf(final)).toBe('conclude');
        expect(userTextOf(final)).toContain('reasoner-turn budget is spent');
        expect(userTextOf(final)).toContain('Tool run #2: prometheus.query');

        const events = await finalActivity(done.id);
        expect(events).toEqual(
          expect.arrayContaining([expect.objectContaining({ type: 'progress', data: { message: 'Stopped after 2 reasoner turns (the budget)' } })]),
        );
        expect(events.at(-1)).toMatchObject({ type: 'concluded', data: { status: 'partial', stoppedBy: 'reasoner_turns', conclusionStatus: 'inconclusive' } });
      });

      it('falls back to an honest minimal conclusion when the final call fails', async () => {
        server.script(query('up'), query('count(up)'), answer.status(401, 'key revoked'));
        const done = await ended(await open());

        expect(done).toMatchObject({
          status: 'partial',
          stoppedBy: 'reasoner_turns',
          conclusionStatus: 'inconclusive',
          error: null,
          findings: [],
          actions: [],
          humanConfirmationRequired: false,
        });
        expect(done.summary).toBe('The investigation stopped when its reasoner-turn budget was spent, after 2 tool runs, before a conclusion was reached.');
        expect(done.limitations).toHaveLength(1);
        expect(done.limitations[0].type).toBe('budget');
        expect(done.limitations[0].statement).toContain(`the final language model call failed: ${who} answered HTTP 401: key revoked`);
        expect(JSON.stringify(done)).not.toContain(API_KEY);
      });
    });

    /** The worker's job for the investigation has finished: the model call chain is settled and nothing more is written or sent. */
    const workerDone = (id: string) =>
      until(async () => ((await jobFinished(INVESTIGATIONS_QUEUE, id)) ? true : undefined), 15_000, `the job of ${id} to finish`);

    // How soon cancel takes effect (decisions §6: within 2 s) is measured by the bench, not asserted here.
    it('cancel aborts the slow in-flight model call, and nothing is written after the cancellation', async () => {
      server.script(answer.after(8_000, answer.conclude(inconclusive())));
      const id = await open();
      await until(async () => (server.requests.length > 0 ? true : undefined), 15_000, 'the model call to start');
      expect((await read(id)).status).toBe('investigating');

      const cancelled = await ctx.admin.post(`/api/v1/investigations/${id}/cancel`, undefined, { headers: ORG });
      expect(cancelled.status).toBe(200);
      expect(cancelled.body.status).toBe('cancelled');
      // The worker is done with the investigation while the scripted answer is still being held back.
      await workerDone(id);
      // The server saw the connection close: the request was aborted, not left to finish.
      expect(server.requests[0]).toMatchObject({ abandoned: true, answered: false });
      const after = await read(id);
      expect(after).toMatchObject({ status: 'cancelled', error: null, conclusionStatus: null, summary: null });
      const events = await activity(id);
      expect(events.at(-1)!.type).toBe('cancelled');
      expect(events.filter((e) => ['cancelled', 'failed', 'concluded'].includes(e.type))).toHaveLength(1);
      expect(server.requests).toHaveLength(1);
      expect((await ctx.admin.post(`/api/v1/investigations/${id}/cancel`, undefined, { headers: ORG })).status).toBe(409);
    });
    it('cancel during the wait before a retry of a failed model call: the retry is never sent', async () => {
      // No retry-after: the SDK waits 2 s before its one retry of a 5xx.
      server.script(answer.status(500, 'temporarily unavailable'), answer.conclude(inconclusive()));
      const id = await open();
      // The 500 went out: the SDK is now waiting to retry.
      await until(async () => (server.requests[0]?.answered ? true : undefined), 15_000, 'the failed model call to be answered');
      expect((await ctx.admin.post(`/api/v1/investigations/${id}/cancel`, undefined, { headers: ORG })).status).toBe(200);

      // The model call (retries included) settled before the job could finish, so a retry would have arrived by now.
      await workerDone(id);
      expect(server.requests).toHaveLength(1);
      expect(server.unanswered).toBe(1);
      expect(await read(id)).toMatchObject({ status: 'cancelled', error: null });
      expect((await activity(id)).at(-1)!.type).toBe('cancelled');
    });
  });
});
