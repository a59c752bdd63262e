import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POSTMORTEMS_QUEUE } from '@svc/postmortems';
import { Client, startApi, TestApi } from '../support/api';
import { ensureBuilt } from '../support/dist';
import { bootstrap } from '../support/factories';
import { investigationEnded } from '../support/investigations';
import { MonitoringProcess } from '../support/monitoring-stack';
import { freePort } from '../support/ports';
import { jobFinished } from '../support/queue-jobs';
import { answer, forcedToolOf, ScriptedModelServer, systemOf, userTextOf } from '../support/scripted-model-server';
import { until } from '../support/until';
import { startWorker, TestWorker } from '../support/worker';

/**
 * With a language model configured, the worker asks it for the executive summary, impact and
 * detection of each facts-only draft (the scripted model server stands in for it, over real HTTP,
 * on both wire protocols the service speaks: OpenAI-compatible chat completions and Anthropic
 * Messages). A narrative whose citations hold is the next revision and leaves the fields a person
 * set alone; one that cites a run that does not exist is discarded, and so is a call that outlasts
 * SVC_POSTMORTEM_NARRATIVE_TIMEOUT_SECONDS: the facts-only text stays.
 */
const PROTOCOLS = [
  ['openai-compatible', 'openai'],
  ['anthropic', 'anthropic'],
] as const;

/** The narrative call's deadline in these tests: long enough for a prompt answer, short enough to wait out. */
const NARRATIVE_TIMEOUT_SECONDS = 8;

describe('the postmortem narrative from a language model', () => {
  let api: TestApi;
  let admin: Client;
  let server: ScriptedModelServer;
  let prometheus: MonitoringProcess;
  let hook: { id: string; secret: string };
  let promId: string;
  const llm = (provider: string) => ({ SVC_LLM_PROVIDER: provider, SVC_LLM_BASE_URL: server.baseUrl, SVC_LLM_API_KEY: 'sk-test', SVC_LLM_MODEL: 'test-model' });
  const narrative = (parts: Record<string, { text: string; citations: Array<{ investigationId: string; runRefs: number[] }> }>) =>
    answer.tool('write_postmortem_narrative', parts);
  const send = (alerts: unknown[]) =>
    new Client(api.baseUrl).request('POST', `/webhooks/v1/integrations/${hook.id}/alert-events`, {
      body: { alerts },
      headers: { 'x-svc-token': hook.secret },
      origin: false,
    });

  beforeAll(async () => {
    ensureBuilt();
    server = await ScriptedModelServer.start();
    // The API reads the model settings only to decide whether to queue the job; the worker's settings choose the protocol.
    api = await startApi({ env: llm('openai-compatible') });
    ({ admin } = await bootstrap(api));
    const port = await freePort();
    prometheus = await MonitoringProcess.prometheus(
      `global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: prometheus\n    static_configs:\n      - targets: ['127.0.0.1:${port}']\n`,
      port,
    );
    await until(
      async () => {
        const body = (await fetch(`${prometheus.url}/api/v1/query?query=up`).then((r) => r.json())) as { data: { result: unknown[] } };
        return body.data.result.length > 0 ? true : undefined;
      },
      20_000,
      'Prometheus to scrape itself',
    );
    const g = await admin.post('/api/v1/integrations', { type: 'generic', name: 'Probe alerts' });
    hook = { id: g.body.id, secret: g.body.webhookSecret };
    const p = await admin.post('/api/v1/integrations', { type: 'prometheus', name: 'Prometheus', config: { baseUrl: prometheus.url } });
    promId = p.body.id;
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    await prometheus?.stop();
    await api?.close();
  });

  describe.each(PROTOCOLS)('through a %s model', (provider, protocol) => {
    let worker: TestWorker;
    let incidentId: string;
    let investigationId: string;
    const path = () => `/api/v1/incidents/${incidentId}/postmortem`;
    /** The narrative job of `revision` of the postmortem has finished (the job's data is the outbox row's jsonb payload, whose keys PostgreSQL orders: revision first). */
    const narrativeJobDone = (postmortemId: string, revision: number) =>
      until(
        () => jobFinished(POSTMORTEMS_QUEUE, `"revision":${revision},"postmortemId":"${postmortemId}"`),
        60_000,
        `the narrative job of revision ${revision}`,
      );

    beforeAll(async () => {
      worker = await startWorker({ ...llm(provider), SVC_POSTMORTEM_NARRATIVE_TIMEOUT_SECONDS: String(NARRATIVE_TIMEOUT_SECONDS) });
      const alert = { labels: { alertname: `CheckoutErrors-${protocol}`, service: 'checkout' }, startsAt: new Date(Date.now() - 600_000).toISOString() };
      incidentId = (await send([alert])).body.incidentIds[0];

      server.script(
        answer.tool('prometheus__query', { integrationId: promId, purpose: 'Is the target up?', query: 'up', hypothesisId: 'h1', hypothesis: 'Up' }),
        answer.conclude({
          conclusionStatus: 'verified_cause',
          summary: 'Release 1.1.0 broke checkout.',
          impact: { summary: 'Checkout failed.', runRefs: [1] },
          findings: [
            {
              statement: 'Release 1.1.0 fails requests',
              kind: 'cause',
              mechanism: '',
              runRefs: [1],
              hypothesisId: 'h1',
              verification: { causeAt: '2026-11-22T10:04:00Z', onsetAt: '2026-11-22T10:05:00Z', mechanismRunRefs: [1], unexplained: [] },
            },
          ],
          hypotheses: [{ id: 'h1', statement: 'Release 1.1.0 fails requests', status: 'supported', test: 'up', runRefs: [1] }],
          actions: [],
          limitations: [],
        }),
      );
      const opened = await admin.post('/api/v1/investigations', { incidentId });
      investigationId = opened.body.id;
      expect((await investigationEnded(admin, investigationId)).status).toBe('concluded');
      expect(server.requests.map((r) => r.protocol)).toEqual([protocol, protocol]);
      expect((await send([{ ...alert, status: 'resolved', endsAt: new Date().toISOString() }])).status).toBe(202);
    }, 120_000);

    afterAll(async () => {
      await worker?.close();
    });

    // One postmortem's life, in order: each step starts from the revision the one before it left.
    it(
      'stores a narrative whose citations hold as the next revision, then keeps the facts-only text when a narrative cites a missing run or comes too late',
      { timeout: 240_000 },
      async () => {
        // A narrative whose citations hold is the next revision, leaving the fields a person set.
        server.script(
          narrative({
            executiveSummary: { text: 'Release 1.1.0 broke checkout for ten minutes.', citations: [{ investigationId, runRefs: [1] }] },
            impact: { text: 'The model would have described the impact.', citations: [] },
            detection: { text: 'CheckoutErrors paged the on-call engineer.', citations: [{ investigationId, runRefs: [1] }] },
          }),
        );
        const created = await admin.post(path(), { impact: 'Customers in the EU could not pay for ten minutes.' });
        expect(created.status).toBe(201);
        expect(created.body.revision).toBe(1);
        const factsOnly = created.body;
        const audit = await admin.get('/api/v1/audit-events?action=postmortem.create&limit=200');
        const postmortemId: string = audit.body.events.find((e: { detail: { incidentId: string } }) => e.detail.incidentId === incidentId).targetId;

        const narrated = await until(
          async () => {
            const res = await admin.get(path());
            return res.body.revision === 2 ? res : undefined;
          },
          30_000,
          'the narrative revision',
        );
        expect(narrated.headers.get('etag')).toBe('"2"');
        expect(narrated.body).toMatchObject({
          status: 'draft',
          executiveSummary: `Release 1.1.0 broke checkout for ten minutes. [investigation ${investigationId}, run #1]`,
          detection: `CheckoutErrors paged the on-call engineer. [investigation ${investigationId}, run #1]`,
          impact: 'Customers in the EU could not pay for ten minutes.',
          correctedFields: ['impact'],
        });
        expect(narrated.body.rootCauses).toEqual(factsOnly.rootCauses);
        expect(narrated.body.timeline).toEqual(factsOnly.timeline);
        expect((await admin.get(`${path()}/revisions/2`)).body).toMatchObject({ kind: 'narrative', createdBy: 'system' });

        // The model was asked, over this protocol, through the narrative tool, from the facts of the draft only.
        expect(server.requests).toHaveLength(1);
        const [request] = server.requests;
        expect(request.protocol).toBe(protocol);
        expect(forcedToolOf(request)).toBe('write_postmortem_narrative');
        expect(systemOf(request)).toContain('Use only the facts you are given');
        expect(userTextOf(request)).toContain(investigationId);
        expect(userTextOf(request)).toContain('Release 1.1.0 fails requests');

        const narratives = await admin.get('/api/v1/audit-events?action=postmortem.narrative&limit=200');
        expect(narratives.body.events.filter((e: { targetId: string }) => e.targetId === postmortemId)).toEqual([
          expect.objectContaining({ actorKind: 'system', targetKind: 'postmortem' }),
        ]);

        // A narrative that cites a run that does not exist is discarded: the facts-only text stays.
        server.script(
          narrative({
            executiveSummary: { text: 'Made up.', citations: [{ investigationId, runRefs: [7] }] },
            impact: { text: 'Made up.', citations: [] },
            detection: { text: 'Made up.', citations: [] },
          }),
        );
        const discarded = await admin.post(`${path()}/regenerate`, undefined, { headers: { 'if-match': '"2"' } });
        expect(discarded.status).toBe(200);
        expect(discarded.body.revision).toBe(3);
        await narrativeJobDone(postmortemId, 3);

        const afterDiscarded = await admin.get(path());
        expect(afterDiscarded.body.revision).toBe(3);
        expect(afterDiscarded.body).toEqual(discarded.body);
        expect(afterDiscarded.body.executiveSummary).toContain(`Root cause: Release 1.1.0 fails requests [investigation ${investigationId}, run #1]`);
        expect(afterDiscarded.body.detection).toMatch(/^The first alert was CheckoutErrors/);
        expect(afterDiscarded.body.impact).toBe('Customers in the EU could not pay for ten minutes.');
        expect(server.requests.map((r) => [r.protocol, r.answered])).toEqual([[protocol, true]]);
        expect(server.unanswered).toBe(0);

        // A model that does not answer in time is given up on: the facts-only text stays. The answer
        // is held back far beyond the deadline: the worker abandons the call, and the answer never counts.
        server.script(
          answer.after(
            NARRATIVE_TIMEOUT_SECONDS * 1000 * 4,
            narrative({
              executiveSummary: { text: 'Too late.', citations: [{ investigationId, runRefs: [1] }] },
              impact: { text: 'Too late.', citations: [] },
              detection: { text: 'Too late.', citations: [] },
            }),
          ),
        );
        const late = await admin.post(`${path()}/regenerate`, undefined, { headers: { 'if-match': '"3"' } });
        expect(late.status).toBe(200);
        expect(late.body.revision).toBe(4);
        await narrativeJobDone(postmortemId, 4);

        // The one call was made over this protocol and abandoned unanswered (an aborted call is not retried).
        await until(async () => (server.requests[0]?.abandoned ? true : undefined), 10_000, 'the model server to see the call abandoned');
        expect(server.requests).toHaveLength(1);
        expect(server.requests[0]).toMatchObject({ protocol, abandoned: true, answered: false });
        const afterLate = await admin.get(path());
        expect(afterLate.body).toEqual(late.body);
        expect(afterLate.body.executiveSummary).toContain(`Root cause: Release 1.1.0 fails requests [investigation ${investigationId}, run #1]`);
        expect((await admin.get(`${path()}/revisions/5`)).status).toBe(404);
      },
    );
  });
});
