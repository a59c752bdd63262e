import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../support/api';
import { ensureBuilt } from '../support/dist';
import { useBootstrappedApi } from '../support/factories';
import { investigationEnded } from '../support/investigations';
import { MonitoringProcess } from '../support/monitoring-stack';
import { freePort } from '../support/ports';
import { answer, ScriptedModelServer } from '../support/scripted-model-server';
import { until } from '../support/until';
import { startWorker, TestWorker } from '../support/worker';

/**
 * Postmortems (decisions §10) over the real API and worker: alerts posted to the real webhook
 * route make an incident; investigations of it, worked by the real worker against a real
 * Prometheus (the language-model reasoner, driven by the scripted model server, so each
 * conclusion is exactly the one a case needs), conclude with causes, hypotheses, actions and
 * limitations; the incident resolves; the postmortem is drafted from those records. The API here
 * has no language model configured, so the facts-only draft is the document.
 */

const NEEDS = 'Needs human input.';
const ACME = { 'x-svc-organization': 'acme' };
const GLOBEX = { 'x-svc-organization': 'globex' };
const UNKNOWN_INVESTIGATION = '0190a000-0000-7000-8000-000000000000';

const iso = (msAgo: number) => new Date(Date.now() - msAgo).toISOString();
/** A millisecond timestamp as the service writes it, with six fractional digits. */
const micros = (text: string) => text.replace(/Z$/, '000Z');

describe('postmortems', () => {
  const ctx = useBootstrappedApi();
  let prometheus: MonitoringProcess;
  let server: ScriptedModelServer;
  let worker: TestWorker;
  let generic: { id: string; secret: string };
  let promId: string;
  let adminUserId: string;
  /** Makes alert names, integration names and services unique in the file. */
  let seq = 0;
  const pathOf = (incident: string) => `/api/v1/incidents/${incident}/postmortem`;

  async function post(hook: { id: string; secret: string }, alerts: unknown[]): Promise<string> {
    const res = await new Client(ctx.api.baseUrl).request('POST', `/webhooks/v1/integrations/${hook.id}/alert-events`, {
      body: { alerts },
      headers: { 'x-svc-token': hook.secret },
      origin: false,
    });
    expect(res.status).toBe(202);
    return res.body.incidentIds[0];
  }

  /** A resolved incident with one alert that fired and resolved, in `hook`'s Organization. */
  async function resolvedIncident(hook = generic): Promise<string> {
    seq += 1;
    const labels = { alertname: `Resolved${seq}`, service: 'probe' };
    return post(hook, [{ labels, status: 'resolved', startsAt: iso(300_000), endsAt: iso(60_000) }]);
  }

  /** An open incident with one firing alert, in the generic integration's Organization. */
  async function openIncident(): Promise<string> {
    seq += 1;
    return post(generic, [{ labels: { alertname: `Firing${seq}`, service: 'probe' }, startsAt: iso(300_000) }]);
  }

  /** A resolved incident of its own with a draft postmortem (revision 1, no notes). */
  async function draftedPostmortem(): Promise<{ incidentId: string; path: string; draft: any }> {
    const incidentId = await resolvedIncident();
    const created = await ctx.admin.post(pathOf(incidentId));
    expect(created.status).toBe(201);
    return { incidentId, path: pathOf(incidentId), draft: created.body };
  }

  /** The id of the postmortem of `incident`, as its creation was audited. */
  async function postmortemIdOf(incident: string): Promise<string> {
    const audit = await ctx.admin.get('/api/v1/audit-events?action=postmortem.create&limit=200');
    return audit.body.events.find((e: { detail: { incidentId: string } }) => e.detail.incidentId === incident).targetId;
  }

  /**
   * An investigation of the incident whose model reads `up` from the real Prometheus (run #1) and
   * hands in `conclusion`; returns it once it ended.
   */
  async function investigate(incident: string, conclusion: unknown): Promise<any> {
    server.script(
      answer.tool('prometheus__query', {
        integrationId: promId,
        purpose: 'Is the target up?',
        query: 'up',
        hypothesisId: 'h1',
        hypothesis: 'The target is up',
      }),
      answer.conclude(conclusion),
    );
    const opened = await ctx.admin.post('/api/v1/investigations', { incidentId: incident });
    expect(opened.status).toBe(201);
    const done = await investigationEnded(ctx.admin, opened.body.id);
    expect(done.status).toBe('concluded');
    expect(done.runs.map((r: { ordinal: number }) => r.ordinal)).toEqual([1]);
    return done;
  }

  /**
   * The checkout incident, a new one from an integration of its own on every call: CheckoutErrors
   * fires ten minutes ago, is investigated while it fires (a verified cause, hypotheses, an action
   * and a limitation, all citing run #1), and resolves now.
   */
  async function checkoutIncident() {
    seq += 1;
    const g = await ctx.admin.post('/api/v1/integrations', { type: 'generic', name: `Checkout alerts ${seq}` });
    expect(g.status).toBe(201);
    const hook = { id: g.body.id, secret: g.body.webhookSecret };
    const firstFiring = iso(600_000);
    const onset = new Date(Date.parse(firstFiring) - 150_000).toISOString();
    const incidentId = await post(hook, [
      {
        labels: { alertname: 'CheckoutErrors', service: 'checkout', severity: 'page' },
        annotations: { summary: 'Checkout fails requests' },
        startsAt: firstFiring,
      },
    ]);
    const done = await investigate(incidentId, {
      conclusionStatus: 'verified_cause',
      summary: 'Release 1.1.0 broke checkout.',
      impact: { summary: 'Checkout requests failed for ten minutes.', runRefs: [1] },
      findings: [
        {
          statement: 'Release 1.1.0 of checkout fails its requests',
          kind: 'cause',
          mechanism: 'A nil configuration value',
          runRefs: [1],
          hypothesisId: 'h1',
          // The onset the investigation dated: the draft's detection reads it from here.
          verification: { causeAt: iso(900_000), onsetAt: onset, mechanismRunRefs: [1], unexplained: [] },
        },
        // A later time in a symptom's text is not the onset when the cause's verification dates one.
        { statement: `The error rate held above the alert threshold at ${iso(660_000)}`, kind: 'symptom', mechanism: '', runRefs: [1] },
      ],
      hypotheses: [
        { id: 'h1', statement: 'Release 1.1.0 of checkout fails its requests', status: 'supported', test: 'up', runRefs: [1] },
        { id: 'h2', statement: 'The canary stage was skipped for this release', status: 'supported', test: 'up', runRefs: [1] },
        { id: 'h3', statement: 'Disk pressure on the checkout hosts', status: 'untested', test: 'node_filesystem_avail_bytes', runRefs: [] },
      ],
      actions: [
        { title: 'Roll back checkout to 1.0.0', rationale: 'The errors began with 1.1.0', verification: 'The error rate returns to zero', runRefs: [1] },
      ],
      limitations: [{ type: 'missing_telemetry', statement: 'Checkout exports no per-endpoint latency', runRefs: [1] }],
    });
    const resolvedAt = iso(0);
    await post(hook, [
      { labels: { alertname: 'CheckoutErrors', service: 'checkout', severity: 'page' }, status: 'resolved', startsAt: firstFiring, endsAt: resolvedAt },
    ]);
    return { incidentId, path: pathOf(incidentId), firstInvestigation: done.id as string, firstFiring, onset, resolvedAt };
  }

  beforeAll(async () => {
    ensureBuilt();
    server = await ScriptedModelServer.start();
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
    worker = await startWorker({
      SVC_LLM_PROVIDER: 'openai-compatible',
      SVC_LLM_BASE_URL: server.baseUrl,
      SVC_LLM_API_KEY: 'sk-test',
      SVC_LLM_MODEL: 'test-model',
    });
    const g = await ctx.admin.post('/api/v1/integrations', { type: 'generic', name: 'Probe alerts' });
    generic = { id: g.body.id, secret: g.body.webhookSecret };
    const p = await ctx.admin.post('/api/v1/integrations', { type: 'prometheus', name: 'Prometheus', config: { baseUrl: prometheus.url } });
    promId = p.body.id;
    adminUserId = (await ctx.admin.get('/api/v1/session')).body.user.id;
  }, 120_000);

  afterAll(async () => {
    await worker?.close();
    await server?.close();
    await prometheus?.stop();
  });

  it('refuses a postmortem of an incident that is not resolved (409), and of an unknown incident (404)', async () => {
    const open = await openIncident();
    const res = await ctx.admin.post(pathOf(open), {});
    expect(res.status).toBe(409);
    expect(res.body.error).toMatch(/not resolved/);
    expect((await ctx.admin.get(pathOf(open))).status).toBe(404);
    expect((await ctx.admin.post('/api/v1/incidents/0190a000-0000-7000-8000-000000000000/postmortem', {})).status).toBe(404);
  });

  it('drafts the first revision from the recorded facts, each citing its source, with the notes given', async () => {
    const { incidentId, path, firstInvestigation, firstFiring, onset, resolvedAt } = await checkoutIncident();
    expect((await ctx.admin.get(`/api/v1/incidents/${incidentId}`)).body.status).toBe('resolved');

    const res = await ctx.admin.post(path, { whatWentWell: ['Paging reached the on-call engineer at once'] });
    expect(res.status).toBe(201);
    expect(res.headers.get('etag')).toBe('"1"');
    expect(res.headers.get('cache-control')).toBe('no-store');
    const pm = res.body;
    expect(pm).toMatchObject({ incidentId, status: 'draft', revision: 1, reviewedAt: null, reviewedByUserId: null, correctedFields: ['whatWentWell'] });
    expect(pm.title).toBe('Postmortem: Checkout fails requests');

    // Timeline: the incident opens, the alert fires, the investigation opens and concludes, the alert resolves, then the incident.
    const kinds = pm.timeline.map((t: { description: string }) => t.description);
    const firing = pm.timeline.findIndex((t: { description: string }) => /^Alert CheckoutErrors .* fired: Checkout fails requests$/.test(t.description));
    const resolution = pm.timeline.findIndex((t: { description: string }) => /^Alert CheckoutErrors .* resolved$/.test(t.description));
    expect(firing, kinds.join('\n')).toBeGreaterThanOrEqual(0);
    expect(resolution).toBeGreaterThan(firing);
    expect(pm.timeline[firing]).toMatchObject({ at: micros(firstFiring), source: { kind: 'alert_event' }, runRefs: [] });
    expect(pm.timeline[resolution].at).toBe(micros(resolvedAt));
    expect(pm.timeline.at(-1)).toMatchObject({ description: expect.stringMatching(/^Incident resolved/), source: { kind: 'incident', id: incidentId } });
    const concluded = pm.timeline.find((t: { description: string }) => t.description.startsWith('Investigation concluded (verified cause)'));
    expect(concluded).toMatchObject({ investigationId: firstInvestigation, runRefs: [1] });
    const ats = pm.timeline.map((t: { at: string }) => Date.parse(t.at));
    expect(ats).toEqual([...ats].sort((a, b) => a - b));

    // Root cause: the cause finding with its runs and investigation; the other supported hypothesis contributes.
    expect(pm.rootCauses).toEqual([
      { statement: 'Release 1.1.0 of checkout fails its requests Mechanism: A nil configuration value', runRefs: [1], investigationId: firstInvestigation },
    ]);
    expect(pm.contributingFactors).toEqual([{ statement: 'The canary stage was skipped for this release', runRefs: [1], investigationId: firstInvestigation }]);
    // Detection: the first alert, its rule, and the delay after the onset the investigation dated.
    expect(pm.detection).toContain('The first alert was CheckoutErrors');
    expect(pm.detection).toContain('the alerting rule CheckoutErrors');
    expect(pm.detection).toContain(`The condition began at ${micros(onset)} [investigation ${firstInvestigation}, run #1]`);
    expect(pm.detection).toContain('the alert fired 2 min 30 s after the onset');
    expect(pm.openQuestions).toEqual([
      `missing telemetry: Checkout exports no per-endpoint latency [investigation ${firstInvestigation}, run #1]`,
      `Untested: Disk pressure on the checkout hosts [investigation ${firstInvestigation}]`,
    ]);
    expect(pm.detectionGaps).toEqual([`Checkout exports no per-endpoint latency [investigation ${firstInvestigation}, run #1]`]);
    // What only a person knows, and nobody supplied, says so.
    expect(pm.actionItems).toEqual([
      {
        title: 'Roll back checkout to 1.0.0: The errors began with 1.1.0',
        owner: NEEDS,
        deadline: NEEDS,
        verification: 'The error rate returns to zero',
        runRefs: [1],
        investigationId: firstInvestigation,
      },
    ]);
    expect(pm.resolution).toBe(NEEDS);
    expect(pm.whatWentWrong).toEqual([NEEDS]);
    expect(pm.whatWentWell).toEqual(['Paging reached the on-call engineer at once']);
    expect(pm.impact).toContain(`Checkout requests failed for ten minutes. [investigation ${firstInvestigation}, run #1]`);
    expect(pm.impact).toContain(`Customer impact beyond these data: ${NEEDS}`);
    expect(pm.executiveSummary).toContain(`Root cause: Release 1.1.0 of checkout fails its requests`);

    const again = await ctx.admin.post(path, {});
    expect(again.status).toBe(409);
    const read = await ctx.admin.get(path);
    expect(read.status).toBe(200);
    expect(read.headers.get('etag')).toBe('"1"');
    expect(read.body).toEqual(pm);

    const audit = await ctx.admin.get(`/api/v1/audit-events?targetId=${await postmortemIdOf(incidentId)}`);
    expect(audit.body.events).toEqual([expect.objectContaining({ action: 'postmortem.create', targetKind: 'postmortem', actorId: adminUserId })]);
  }, 90_000);

  it('exports the current postmortem as Markdown', async () => {
    const { path, firstInvestigation } = await checkoutIncident();
    expect((await ctx.admin.post(path)).status).toBe(201);
    const res = await ctx.admin.get(`${path}/report`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/markdown');
    expect(res.text).toMatch(/^# Postmortem: Checkout fails requests\n/);
    expect(res.text).toContain('## Timeline');
    expect(res.text).toContain(
      `- Release 1.1.0 of checkout fails its requests Mechanism: A nil configuration value [investigation ${firstInvestigation}, run #1]`,
    );
    expect(res.text).toContain(
      `| Roll back checkout to 1.0.0: The errors began with 1.1.0 [investigation ${firstInvestigation}, run #1] | ${NEEDS} | ${NEEDS} |`,
    );
  }, 90_000);

  it('keeps corrections across regeneration, adds what was learned since, and honours If-Match', async () => {
    const { incidentId, path, firstInvestigation } = await checkoutIncident();
    const drafted = await ctx.admin.post(path, { whatWentWell: ['Paging reached the on-call engineer at once'] });
    expect(drafted.status).toBe(201);
    const corrected = await ctx.admin.patch(
      path,
      {
        resolution: 'Rolled checkout back to 1.0.0 at 10:42.',
        actionItems: [
          {
            title: 'Add a canary stage to checkout releases',
            owner: 'Ada',
            deadline: '2026-12-15',
            verification: 'The next release runs a canary',
            runRefs: [1],
            investigationId: firstInvestigation,
          },
        ],
      },
      { headers: { 'if-match': '"1"' } },
    );
    expect(corrected.status).toBe(200);
    expect(corrected.headers.get('etag')).toBe('"2"');
    expect(corrected.body).toMatchObject({ revision: 2, status: 'draft', resolution: 'Rolled checkout back to 1.0.0 at 10:42.' });
    expect(corrected.body.correctedFields).toEqual(['resolution', 'whatWentWell', 'actionItems']);

    // A stale revision: 412, and nothing changes.
    for (const res of [
      await ctx.admin.patch(path, { title: 'Stale' }, { headers: { 'if-match': '"1"' } }),
      await ctx.admin.post(`${path}/regenerate`, undefined, { headers: { 'if-match': '"1"' } }),
    ]) {
      expect(res.status).toBe(412);
      expect(res.body.error).toMatch(/revision 2/);
    }
    expect((await ctx.admin.get(path)).body.revision).toBe(2);

    // A citation must name a run of an investigation of this incident.
    const badRun = await ctx.admin.patch(path, { rootCauses: [{ statement: 'x', runRefs: [7], investigationId: firstInvestigation }] });
    expect(badRun.status).toBe(400);
    expect(badRun.body.error).toMatch(/rootCauses\[0\]\.runRefs/);
    const foreign = await ctx.admin.patch(path, { rootCauses: [{ statement: 'x', runRefs: [1], investigationId: '0190a000-0000-7000-8000-000000000000' }] });
    expect(foreign.status).toBe(400);
    const uncited = await ctx.admin.patch(path, { rootCauses: [{ statement: 'x', runRefs: [1] }] });
    expect(uncited.status).toBe(400);

    // A second investigation, concluded after the first draft, with a weaker explanation.
    const second = await investigate(incidentId, {
      conclusionStatus: 'supported_explanation',
      summary: 'A cache flush amplified the errors.',
      impact: { summary: 'Errors doubled after the cache flush.', runRefs: [1] },
      findings: [{ statement: 'A cache flush amplified the errors', kind: 'cause', mechanism: '', runRefs: [1] }],
      hypotheses: [],
      actions: [{ title: 'Stagger cache flushes', rationale: '', verification: '', runRefs: [1] }],
      limitations: [],
    });

    const regenerated = await ctx.admin.post(`${path}/regenerate`, undefined, { headers: { 'if-match': '"2"' } });
    expect(regenerated.status).toBe(200);
    expect(regenerated.headers.get('etag')).toBe('"3"');
    const pm = regenerated.body;
    expect(pm).toMatchObject({
      revision: 3,
      status: 'draft',
      resolution: 'Rolled checkout back to 1.0.0 at 10:42.',
      correctedFields: ['resolution', 'whatWentWell', 'actionItems'],
    });
    expect(pm.actionItems).toEqual([
      {
        title: 'Add a canary stage to checkout releases',
        owner: 'Ada',
        deadline: '2026-12-15',
        verification: 'The next release runs a canary',
        runRefs: [1],
        investigationId: firstInvestigation,
      },
    ]);
    expect(pm.whatWentWell).toEqual(['Paging reached the on-call engineer at once']);
    // The new investigation's facts: its cause after the verified one, and its entries in the timeline.
    expect(pm.rootCauses.map((c: { investigationId: string }) => c.investigationId)).toEqual([firstInvestigation, second.id]);
    expect(pm.rootCauses[1]).toEqual({ statement: 'A cache flush amplified the errors', runRefs: [1], investigationId: second.id });
    expect(pm.timeline.filter((t: { investigationId: string | null }) => t.investigationId === second.id)).toHaveLength(2);
    expect(pm.impact).toContain(`Errors doubled after the cache flush. [investigation ${second.id}, run #1]`);

    // Every revision is kept as it was.
    const first = await ctx.admin.get(`${path}/revisions/1`);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ revision: 1, kind: 'generated', createdBy: adminUserId, resolution: NEEDS, correctedFields: ['whatWentWell'] });
    expect(first.body.rootCauses).toHaveLength(1);
    expect((await ctx.admin.get(`${path}/revisions/2`)).body).toMatchObject({ kind: 'corrected', resolution: 'Rolled checkout back to 1.0.0 at 10:42.' });
    expect((await ctx.admin.get(`${path}/revisions/3`)).body.rootCauses).toHaveLength(2);
    expect((await ctx.admin.get(`${path}/revisions/4`)).status).toBe(404);
    for (const bad of ['0', 'x', '99999999999']) expect((await ctx.admin.get(`${path}/revisions/${bad}`)).status).toBe(400);

    // Without If-Match the change applies to whatever is current.
    const unconditional = await ctx.admin.post(`${path}/regenerate`);
    expect(unconditional.status).toBe(200);
    expect(unconditional.body.revision).toBe(4);

    const audited = await ctx.admin.get(`/api/v1/audit-events?targetId=${await postmortemIdOf(incidentId)}&limit=200`);
    expect(audited.body.events.map((e: { action: string }) => e.action)).toEqual([
      'postmortem.regenerate',
      'postmortem.regenerate',
      'postmortem.correct',
      'postmortem.create',
    ]);
  }, 120_000);

  it('review marks it reviewed by the person; a correction returns it to draft; reviewed ones refuse regenerate and review (409)', async () => {
    const { path } = await draftedPostmortem();
    const token = await ctx.admin.post('/api/v1/api-tokens', { name: 'editor', role: 'editor', expiresAt: new Date(Date.now() + 86400_000).toISOString() });
    const byToken = await new Client(ctx.api.baseUrl).post(`${path}/review`, undefined, {
      origin: false,
      headers: { authorization: `Bearer ${token.body.token}` },
    });
    expect(byToken.status).toBe(403);

    const reviewed = await ctx.admin.post(`${path}/review`);
    expect(reviewed.status).toBe(200);
    expect(reviewed.body).toMatchObject({ status: 'reviewed', revision: 1, reviewedByUserId: adminUserId });
    expect(reviewed.body.reviewedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
    expect(reviewed.headers.get('etag')).toBe('"1"');

    expect((await ctx.admin.post(`${path}/review`)).status).toBe(409);
    const regenerate = await ctx.admin.post(`${path}/regenerate`);
    expect(regenerate.status).toBe(409);
    expect(regenerate.body.error).toMatch(/reviewed/);
    expect((await ctx.admin.get(path)).body.status).toBe('reviewed');

    const patched = await ctx.admin.patch(path, { title: 'Checkout outage after release 1.1.0' }, { headers: { 'if-match': '"1"' } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      status: 'draft',
      revision: 2,
      reviewedAt: null,
      reviewedByUserId: null,
      title: 'Checkout outage after release 1.1.0',
    });
    expect((await ctx.admin.post(`${path}/review`)).body).toMatchObject({ status: 'reviewed', revision: 2 });
  });

  it('holds the length limits and refuses unknown properties, null and empty corrections (400)', async () => {
    const fresh = await resolvedIncident();
    const freshPath = `/api/v1/incidents/${fresh}/postmortem`;
    const refusedCreates: Array<[unknown, RegExp]> = [
      [{ impact: '' }, /impact/],
      [{ impact: 'x'.repeat(32769) }, /impact/],
      [{ resolution: 'x'.repeat(32769) }, /resolution/],
      [{ whatWentWell: ['x'.repeat(8193)] }, /whatWentWell/],
      [{ detectionGaps: 'not a list' }, /detectionGaps/],
      [{ whatWentWell: Array.from({ length: 1001 }, () => 'w') }, /whatWentWell/],
      [{ detectionGaps: [''] }, /detectionGaps/],
      [{ impact: null }, /impact/],
      [{ title: 'Not a note' }, /unknown property title/],
    ];
    for (const [body, error] of refusedCreates) {
      const res = await ctx.admin.post(freshPath, body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.body.error).toMatch(error);
    }
    const created = await ctx.admin.post(freshPath, { impact: 'x'.repeat(32768), whatWentWrong: ['y'.repeat(8192)] });
    expect(created.status).toBe(201);
    expect(created.body.impact).toHaveLength(32768);
    expect(created.body.correctedFields).toEqual(['impact', 'whatWentWrong']);

    const refusedCorrections: Array<[unknown, RegExp]> = [
      [{}, /at least one/],
      [{ title: '' }, /title/],
      [{ title: 't'.repeat(1025) }, /title/],
      [{ executiveSummary: 'x'.repeat(32769) }, /executiveSummary/],
      [{ detection: '' }, /detection/],
      [{ openQuestions: ['q'.repeat(8193)] }, /openQuestions/],
      [{ openQuestions: Array.from({ length: 1001 }, () => 'q') }, /openQuestions/],
      [{ whatWentWrong: [''] }, /whatWentWrong/],
      [{ rootCauses: Array.from({ length: 1001 }, () => ({ statement: 's' })) }, /rootCauses/],
      [{ contributingFactors: [{ statement: '' }] }, /statement/],
      // (An investigation of no incident: had these passed the limits, the answer would name investigationId instead.)
      [{ rootCauses: [{ statement: 's', runRefs: Array.from({ length: 1001 }, () => 1), investigationId: UNKNOWN_INVESTIGATION }] }, /runRefs/],
      [{ rootCauses: [{ statement: 's', runRefs: [0], investigationId: UNKNOWN_INVESTIGATION }] }, /runRefs/],
      [{ timeline: [{ at: '2026-11-20T10:00:00Z', description: '' }] }, /description/],
      [{ actionItems: [{ title: 'a', owner: '', deadline: 'd', verification: 'v' }] }, /owner/],
      [{ timeline: [{ at: 'yesterday', description: 'x' }] }, /timeline/],
      [{ timeline: [{ at: '2026-11-20T10:00:00', description: 'x' }] }, /RFC 3339/],
      [{ timeline: [{ at: '2026-11-20T10:00:00Z', description: 'x', extra: 1 }] }, /unknown property timeline\[0\]\.extra|timeline/],
      [{ actionItems: [{ title: 'a', owner: 'o', deadline: 'd', verification: 'v'.repeat(8193) }] }, /verification/],
      [{ actionItems: [{ title: 'a' }] }, /owner/],
      [{ rootCauses: [{ statement: 's'.repeat(8193) }] }, /statement/],
      [{ title: null }, /title/],
      [{ status: 'reviewed' }, /unknown property status/],
    ];
    for (const [body, error] of refusedCorrections) {
      const res = await ctx.admin.patch(freshPath, body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.body.error).toMatch(error);
    }
    const atLimits = await ctx.admin.patch(freshPath, {
      title: 't'.repeat(1024),
      executiveSummary: 'e'.repeat(32768),
      openQuestions: ['q'.repeat(8192)],
      timeline: [{ at: '2026-11-20T11:00:00+01:00', description: 'd'.repeat(8192) }],
      whatWentWell: Array.from({ length: 1000 }, (_, i) => `w${i}`),
    });
    expect(atLimits.status).toBe(200);
    expect(atLimits.body).toMatchObject({ revision: 2, title: 't'.repeat(1024) });
    expect(atLimits.body.whatWentWell).toHaveLength(1000);
    expect(atLimits.body.timeline).toEqual([
      { at: '2026-11-20T10:00:00.000000Z', description: 'd'.repeat(8192), runRefs: [], investigationId: null, source: null },
    ]);
    expect((await ctx.admin.post(`${freshPath}/regenerate`, { force: true })).status).toBe(400);
  });

  it('refuses the postmortem of a merged incident (409) and lists the merge in the timeline of the one it joined', async () => {
    const target = await resolvedIncident();
    const merged = await resolvedIncident();
    const merge = await ctx.admin.post(`/api/v1/incidents/${target}/merge`, { incidentIds: [merged] });
    expect(merge.status).toBe(200);
    expect(merge.body.status).toBe('resolved');
    const refused = await ctx.admin.post(`/api/v1/incidents/${merged}/postmortem`, {});
    expect(refused.status).toBe(409);
    expect(refused.body.error).toContain(`merged into ${target}`);
    // The notes are all optional: no body at all is a draft without notes. Of two at once, one is created and the other is 409.
    const both = await Promise.all([ctx.admin.post(`/api/v1/incidents/${target}/postmortem`), ctx.admin.post(`/api/v1/incidents/${target}/postmortem`)]);
    expect(both.map((r) => r.status).sort()).toEqual([201, 409]);
    const created = both.find((r) => r.status === 201)!;
    const entries = created.body.timeline.map((t: { description: string; source: { kind: string; id: string } }) => [t.description, t.source]);
    expect(entries).toContainEqual([
      expect.stringMatching(new RegExp(`^Incident "Resolved\\d+ \\(probe\\)" \\(${merged}\\) was merged into this incident$`)),
      { kind: 'incident', id: merged },
    ]);
    // The merged incident's alert moved with it: both alerts (which arrived resolved) fire and resolve in the target's timeline.
    expect(entries.filter(([d]: [string]) => /^Alert .* fired$/.test(d))).toHaveLength(2);
    expect(entries.filter(([d]: [string]) => /^Alert .* resolved$/.test(d))).toHaveLength(2);
  });

  it('refuses to regenerate while the incident is reopened (409); once it resolves again, the investigation concluded meanwhile is in the next revision', async () => {
    const target = await resolvedIncident();
    const targetPath = `/api/v1/incidents/${target}/postmortem`;
    const created = await ctx.admin.post(targetPath);
    expect(created.status).toBe(201);
    expect(created.body.rootCauses).toEqual([{ statement: NEEDS, runRefs: [], investigationId: null }]);

    // An alert of another group fires; merged into the resolved incident, it reopens it.
    seq += 1;
    const labels = { alertname: `Reopens${seq}`, service: 'probe' };
    const startsAt = iso(120_000);
    const other = await post(generic, [{ labels, startsAt }]);
    const merged = await ctx.admin.post(`/api/v1/incidents/${target}/merge`, { incidentIds: [other] });
    expect(merged.status).toBe(200);
    expect(merged.body.status).toBe('open');
    const refused = await ctx.admin.post(`${targetPath}/regenerate`, undefined, { headers: { 'if-match': '"1"' } });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatch(/not resolved/);
    expect((await ctx.admin.get(targetPath)).body.revision).toBe(1);

    // Investigated while it is open again; then the alert resolves and so does the incident.
    const late = await investigate(target, {
      conclusionStatus: 'supported_explanation',
      summary: 'A probe misconfiguration.',
      impact: { summary: 'The probe reported failures.', runRefs: [1] },
      findings: [{ statement: 'The probe points at a retired host', kind: 'cause', mechanism: '', runRefs: [1] }],
      hypotheses: [],
      actions: [{ title: 'Point the probe at the new host', rationale: '', verification: '', runRefs: [1] }],
      limitations: [],
    });
    expect(await post(generic, [{ labels, status: 'resolved', startsAt, endsAt: iso(0) }])).toBe(target);
    expect((await ctx.admin.get(`/api/v1/incidents/${target}`)).body.status).toBe('resolved');

    const regenerated = await ctx.admin.post(`${targetPath}/regenerate`, undefined, { headers: { 'if-match': '"1"' } });
    expect(regenerated.status).toBe(200);
    const pm = regenerated.body;
    expect(pm).toMatchObject({ revision: 2, status: 'draft' });
    expect(pm.rootCauses).toEqual([{ statement: 'The probe points at a retired host', runRefs: [1], investigationId: late.id }]);
    expect(pm.actionItems).toEqual([
      { title: 'Point the probe at the new host', owner: NEEDS, deadline: NEEDS, verification: NEEDS, runRefs: [1], investigationId: late.id },
    ]);
    const descriptions = pm.timeline.map((t: { description: string }) => t.description);
    expect(descriptions).toContainEqual(expect.stringMatching(new RegExp(`^Incident ".*" \\(${other}\\) was merged into this incident$`)));
    expect(descriptions).toContainEqual(expect.stringMatching(new RegExp(`^Alert Reopens${seq} .* fired$`)));
    expect(descriptions).toContainEqual(expect.stringMatching(new RegExp(`^Alert Reopens${seq} .* resolved$`)));
    expect(pm.timeline.filter((t: { investigationId: string | null }) => t.investigationId === late.id)).toHaveLength(2);
    expect(pm.timeline.at(-1)).toMatchObject({ description: expect.stringMatching(/^Incident resolved/), source: { kind: 'incident', id: target } });
    expect((await ctx.admin.get(`${targetPath}/revisions/1`)).body.rootCauses).toEqual(created.body.rootCauses);
  });

  it("answers 404 for another Organization's postmortem on every route and both addressing forms", async () => {
    // A reviewed postmortem in acme, and a draft in globex.
    const { incidentId, path } = await draftedPostmortem();
    expect((await ctx.admin.post(`${path}/review`)).status).toBe(200);
    const ownBefore = await ctx.admin.get(path);
    expect((await ctx.admin.post('/api/v1/organizations', { id: 'globex', displayName: 'Globex' })).status).toBe(201);
    const g = await ctx.admin.post('/api/v1/integrations', { type: 'generic', name: 'Globex alerts' }, { headers: GLOBEX });
    expect(g.status).toBe(201);
    const globexIncident = await resolvedIncident({ id: g.body.id, secret: g.body.webhookSecret });
    expect((await ctx.admin.post(`/api/v1/incidents/${globexIncident}/postmortem`, {}, { headers: GLOBEX })).status).toBe(201);

    const routes = (incident: string) =>
      [
        ['GET', `incidents/${incident}/postmortem`, undefined],
        ['POST', `incidents/${incident}/postmortem`, {}],
        ['POST', `incidents/${incident}/postmortem/regenerate`, undefined],
        ['PATCH', `incidents/${incident}/postmortem`, { title: 'Mine now' }],
        ['POST', `incidents/${incident}/postmortem/review`, undefined],
        ['GET', `incidents/${incident}/postmortem/report`, undefined],
        ['GET', `incidents/${incident}/postmortem/revisions/1`, undefined],
      ] as const;
    const failures: string[] = [];
    const expect404 = async (method: string, url: string, body: unknown, headers: Record<string, string> = {}) => {
      const res = await ctx.admin.request(method, url, { body, headers });
      if (res.status !== 404) failures.push(`${method} ${url} ${JSON.stringify(headers)} -> ${res.status}`);
    };
    for (const [method, route, body] of routes(incidentId)) {
      await expect404(method, `/api/v1/${route}`, body, GLOBEX);
      await expect404(method, `/api/v1/organizations/globex/${route}`, body);
    }
    for (const [method, route, body] of routes(globexIncident)) {
      await expect404(method, `/api/v1/${route}`, body, ACME);
      await expect404(method, `/api/v1/organizations/acme/${route}`, body);
    }
    expect(failures).toEqual([]);

    // Each Organization's own postmortem is unchanged, and the alias path reaches it.
    const own = await ctx.admin.get(`/api/v1/organizations/acme/incidents/${incidentId}/postmortem`);
    expect(own.body).toEqual(ownBefore.body);
    expect(own.body).toMatchObject({ status: 'reviewed', revision: 1 });
    const theirs = await ctx.admin.get(`/api/v1/organizations/globex/incidents/${globexIncident}/postmortem`);
    expect(theirs.body).toMatchObject({ status: 'draft', revision: 1, title: expect.stringMatching(/^Postmortem: Resolved/) });
    expect((await ctx.admin.get(`/api/v1/organizations/globex/incidents/${globexIncident}/postmortem/report`)).status).toBe(200);
  });
});
