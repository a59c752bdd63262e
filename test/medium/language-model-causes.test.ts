import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkConclusion, LanguageModelReasoner } from '@svc/investigations/engine';
import { deriveAlerts, score, stagePrometheus, StagedPrometheus } from '../../eval/harness';
import { loadDataset } from '../../eval/nezha/dataset';
import { dayAlerts, stageFault } from '../../eval/nezha/replay';
import { SCENARIOS } from '../../eval/scenarios';
import { directSession } from '../support/direct-session';
import { meshRule, meshScenario } from '../support/mesh-scenario';
import { answer, offeredToolsOf, ReceivedRequest, ScriptedModelServer, systemOf, toolResultsOf } from '../support/scripted-model-server';

interface Candidate {
  hypothesisId: string;
  statement: string;
  at: string;
  shownBy: number;
  proves: string;
  mechanismRuns: number[];
  chainRuns: number[];
  unexplained: string[];
  verifiable: boolean;
  ruledOut?: string;
  ruledOutBy?: number[];
  action: { title: string; rationale: string; verification: string };
}
interface Ranked {
  hypothesisId: string;
  entity: string;
  statement: string;
  at: string;
  shownBy: number;
  discoveredBy: number[];
  unexplained: string[];
  verifiable: boolean;
}
interface Detected {
  candidates: Candidate[];
  lostTime?: {
    hypothesisId: string;
    callee: string;
    losingCallers: Array<{ caller: string; waitedSeconds: number; handledSeconds: number }>;
    consequences: string[];
    shownBy: number;
    discoveredBy: number[];
    unexplained: string[];
    verifiable: boolean;
  };
  rankedChanges: Ranked[];
  runs: Array<{ run: number; query?: string; outcome: string }>;
}

/** The JSON part of the last causes_near_onset result the model was sent. */
const detectedIn = (request: ReceivedRequest): Detected => {
  const text = toolResultsOf(request).at(-1)!.text;
  return JSON.parse(text.slice(text.indexOf('\n{') + 1)) as Detected;
};

const MODEL = { provider: 'openai-compatible', apiKey: 'sk-test-causes', model: 'test-model' } as const;

/**
 * Scripts the model to call causes_near_onset once for an alert (the session's first), at its start,
 * and to conclude inconclusive on reading the result; runs the investigation and returns what the
 * model was sent: the result's JSON and its first line.
 */
async function readCausesOnce(
  server: ScriptedModelServer,
  session: ReturnType<typeof directSession>,
  impact: string,
  { alert = session.alerts[0], latency }: { alert?: (typeof session.alerts)[number]; latency?: boolean } = {},
): Promise<{ detected: Detected; header: string }> {
  let detected: Detected | undefined;
  let header = '';
  server.script(
    answer.tool('causes_near_onset', {
      labels: alert.labels,
      onset: alert.startsAt.toISOString(),
      ...(latency === undefined ? {} : { latency }),
      purpose: 'What changed near the onset',
    }),
    answer.reading((request) => {
      header = toolResultsOf(request).at(-1)!.text.split('\n')[0];
      detected = detectedIn(request);
      return answer.conclude({
        conclusionStatus: 'inconclusive',
        summary: 'Read the candidates only',
        impact: { summary: impact, runRefs: [detected.runs[0].run] },
        findings: [],
        hypotheses: [],
        actions: [],
        limitations: [],
      });
    }),
  );
  await new LanguageModelReasoner({ ...MODEL, baseUrl: server.baseUrl }).investigate(session);
  return { detected: detected!, header };
}

/**
 * The model reasoner's cause detectors: a scripted model (over the OpenAI wire protocol) calls
 * causes_near_onset on an incident generated into a real Prometheus, reads the dated candidates
 * and the numbered runs that show them, tests the one it concludes with a run made for its
 * hypothesis, and hands in a conclusion citing those runs, which the conclusion check accepts.
 */
describe('causes_near_onset for a language model', () => {
  let server: ScriptedModelServer;
  let staged: StagedPrometheus | undefined;

  beforeAll(async () => {
    server = await ScriptedModelServer.start();
  });
  afterAll(async () => {
    await staged?.stop();
    await server.close();
  });

  it('carries the noisy neighbour the detectors verified, and the neighbours they ruled out with the runs that show it', async () => {
    const scenario = SCENARIOS.find((s) => s.name === 'search-noisy-neighbour')!;
    const prometheus = await stagePrometheus(scenario);
    try {
      const [pages] = await Promise.all([deriveAlerts(prometheus.prometheus.url, scenario.rule, prometheus.start, prometheus.end)]);
      const session = directSession(prometheus.prometheus.url, pages[0], []);
      const { detected } = await readCausesOnce(server, session, 'search answers slowly', { latency: true });
      const neighbour = detected.candidates.find((c) => c.hypothesisId === 'h-noisy-neighbour')!;
      expect(neighbour).toMatchObject({ verifiable: true, unexplained: [] });
      expect(neighbour.ruledOut).toBeUndefined();
      expect(neighbour.statement).toMatch(/^video-transcode-.* on node ip-10-0-2-34\.eu-west-1\.compute\.internal /);
      const ruledOut = detected.candidates.filter((c) => c.ruledOut);
      expect(ruledOut.map((c) => c.ruledOut)).toEqual(
        expect.arrayContaining([expect.stringMatching(/^no pod of search that the alert covers runs on /), expect.stringMatching(/ had CPU to spare: /)]),
      );
      for (const c of ruledOut) {
        expect(c.verifiable).toBe(false);
        for (const n of c.ruledOutBy!) expect(detected.runs.map((r) => r.run)).toContain(n);
      }
    } finally {
      await prometheus.stop();
    }
  }, 120_000);

  it('carries the changes on the alerting service too: a restart, asked at once why it happened, is the out-of-memory kill it was', async () => {
    const scenario = SCENARIOS.find((s) => s.name === 'orders-memory-leak-oom')!;
    const prometheus = await stagePrometheus(scenario);
    try {
      const [pages] = await Promise.all([deriveAlerts(prometheus.prometheus.url, scenario.rule, prometheus.start, prometheus.end)]);
      const session = directSession(prometheus.prometheus.url, pages[0], []);
      const { detected } = await readCausesOnce(server, session, 'orders restarts often');
      const killed = detected.candidates.find((c) => c.hypothesisId === 'h-restart')!;
      expect(killed.statement).toMatch(/^The out-of-memory kill \(OOMKilled\) of container orders in pod orders-/);
      expect(killed).toMatchObject({ verifiable: true, unexplained: [] });
      const queries = killed.mechanismRuns.map((n) => detected.runs.find((r) => r.run === n)?.query);
      expect(queries).toEqual([expect.stringContaining('reason="OOMKilled"'), expect.stringContaining('container_memory_working_set_bytes')]);
    } finally {
      await prometheus.stop();
    }
  }, 120_000);

  it('carries a new version of the alerting service, its mechanism left to the model to test', async () => {
    const scenario = SCENARIOS.find((s) => s.name === 'checkout-bad-version')!;
    const prometheus = await stagePrometheus(scenario);
    try {
      const [pages] = await Promise.all([deriveAlerts(prometheus.prometheus.url, scenario.rule, prometheus.start, prometheus.end)]);
      const session = directSession(prometheus.prometheus.url, pages[0], []);
      const { detected } = await readCausesOnce(server, session, 'checkout fails');
      const version = detected.candidates.find((c) => c.hypothesisId === 'h-version')!;
      expect(version.statement).toMatch(/^The new build \(.*2\.15\.0.*\) that started at /);
      expect(detected.runs.find((r) => r.run === version.shownBy)?.query).toMatch(/_build_info/);
      // Nothing has tied the condition to the replicas that run it yet: the model tests it.
      expect(version.verifiable).toBe(false);
    } finally {
      await prometheus.stop();
    }
  }, 120_000);

  it('returns the detectors’ dated candidates with citable runs, and a verified conclusion citing them passes the check', async () => {
    const scenario = SCENARIOS.find((s) => s.name === 'orders-worker-scaled-to-zero')!;
    staged = await stagePrometheus(scenario);
    const [pages, ...others] = await Promise.all(
      [scenario.rule, ...(scenario.otherRules ?? [])].map((r) => deriveAlerts(staged!.prometheus.url, r, staged!.start, staged!.end)),
    );
    const session = directSession(staged.prometheus.url, pages[0], others.flat());
    const page = session.alerts.find((a) => a.labels.alertname === scenario.rule.alert)!;

    let detected: Detected | undefined;
    let tested: Candidate | undefined;
    server.script(
      answer.tool('causes_near_onset', { labels: page.labels, onset: '2000-01-01T00:00:00Z', purpose: 'What changed long ago' }),
      answer.tool('causes_near_onset', { labels: page.labels, onset: page.startsAt.toISOString(), purpose: 'What changed near the onset on the queue' }),
      answer.reading((request) => {
        detected = detectedIn(request);
        tested = detected.candidates.find((c) => c.verifiable)!;
        const query = detected.runs.find((r) => r.run === tested!.mechanismRuns[0])!.query;
        return answer.tool('prometheus__query_range', {
          query,
          purpose: 'Test the candidate: its mechanism query again',
          hypothesisId: tested.hypothesisId,
          hypothesis: tested.statement,
        });
      }),
      answer.reading((request) => {
        const testRun = Number(/^Tool run #(\d+)/.exec(toolResultsOf(request).at(-1)!.text)![1]);
        const c = tested!;
        const refs = [c.shownBy, ...c.mechanismRuns, testRun];
        return answer.conclude({
          conclusionStatus: 'verified_cause',
          summary: c.statement,
          impact: { summary: 'Messages of the queue wait for more than ten minutes', runRefs: [testRun] },
          findings: [
            {
              statement: c.statement,
              kind: 'cause',
              mechanism: c.proves,
              runRefs: refs,
              hypothesisId: c.hypothesisId,
              verification: { causeAt: c.at, onsetAt: page.startsAt.toISOString(), mechanismRunRefs: c.mechanismRuns, unexplained: c.unexplained },
            },
          ],
          hypotheses: [{ id: c.hypothesisId, statement: c.statement, status: 'supported', test: 'its mechanism query', runRefs: [testRun] }],
          actions: [{ ...c.action, runRefs: refs }],
          limitations: [],
        });
      }),
    );

    const conclusion = await new LanguageModelReasoner({ ...MODEL, baseUrl: server.baseUrl }).investigate(session);

    // Offered with its rules, and the detectors' queries recorded as numbered runs.
    const [first, second] = server.requests;
    // An onset outside the window is answered with why, and reads nothing.
    expect(toolResultsOf(second).at(-1)!.text).toMatch(/^Not run: onset must lie within the investigation window/);
    expect(offeredToolsOf(first).causes_near_onset.parameters.required).toEqual(['purpose']);
    expect(systemOf(first)).toMatch(/causes_near_onset/);
    expect(systemOf(first)).toMatch(/verified_cause only when .* the cause precedes the onset, a run tested the mechanism/);
    expect(detected!.runs.length).toBeGreaterThanOrEqual(2);
    expect(detected!.runs.map((r) => r.run)).toEqual(session.runs.slice(0, detected!.runs.length).map((r) => r.ordinal));
    expect(tested).toMatchObject({ hypothesisId: 'h-scaled-to-zero', unexplained: [], verifiable: true });
    expect(tested!.statement).toMatch(/^orders-worker was scaled to zero at .*, leaving queue orders without consumers/);
    expect(tested!.proves).toMatch(/desired replicas went from 2 to 0 .* the consumers of queue orders went from 2 to 0/);
    expect(Date.parse(tested!.at)).toBeLessThan(Number(page.startsAt.epochMicros / 1000n));
    for (const n of [tested!.shownBy, ...tested!.mechanismRuns]) expect(session.runs.find((r) => r.ordinal === n)?.outcome).toBe('succeeded');

    // The conclusion citing them passes the check the worker makes before storing it, and scores as the evaluation scores it.
    expect(conclusion.conclusionStatus).toBe('verified_cause');
    const checked = checkConclusion(conclusion, session.investigationId, session.runs);
    expect(checked.conclusionStatus).toBe('verified_cause');
    const result = score(scenario, { id: session.investigationId, status: 'concluded', ...checked, runs: session.runs }, 0, []);
    expect(result).toMatchObject({ top1: true, grounded: true, citationsExist: true, falseConfidence: false });
  }, 120_000);

  it('ranks what changed on the series that name the entity when no detector knows their names, with the runs that show it, never verifiable', async () => {
    const prometheus = await stagePrometheus(meshScenario);
    try {
      const [page] = await deriveAlerts(prometheus.prometheus.url, meshRule, prometheus.start, prometheus.end);
      const session = directSession(prometheus.prometheus.url, page, []);
      const alert = session.alerts[0];
      const { detected, header } = await readCausesOnce(server, session, 'checkout fails requests');
      // The detectors of the standard client libraries see nothing of the mesh's names; the ranking does.
      expect(detected.candidates).toEqual([]);
      const [first] = detected.rankedChanges;
      expect(first).toMatchObject({
        hypothesisId: 'h-change',
        entity: 'inventory',
        relation: 'callee',
        callPath: ['checkout', 'inventory'],
        verifiable: false,
      });
      expect(first.statement).toMatch(/^A rise of the failure ratio of inventory \(mesh_requests_total\) from 0\.1% to 60% from /);
      expect(first.unexplained[0]).toMatch(/its mechanism is untested\)$/);
      expect(Date.parse(first.at)).toBeLessThanOrEqual(Number(alert.startsAt.epochMicros / 1000n));
      // Every run it names was recorded and listed, and read what it says.
      const listed = detected.runs.map((r) => r.run);
      for (const n of [first.shownBy, ...first.discoveredBy]) expect(listed).toContain(n);
      // The run that shows it read the mesh's metric (its query as listed may be cut: the session holds it whole).
      expect(String(session.runs.find((r) => r.ordinal === first.shownBy)!.arguments.query)).toContain('mesh_requests_total{destination_workload=~');
      expect(header).toMatch(/; \d+ suspects? among what the entity depends on \(#\d+/);
    } finally {
      await prometheus.stop();
    }
  }, 120_000);

  it('returns where the calls the entity depends on lose their time, from the call graph, with the runs that show it, never verifiable', async () => {
    const dataset = loadDataset();
    const fault = dataset.faults.find((f) => f.id === '2023-01-30-1344-ts-route-service')!;
    const staging = await stageFault(
      dataset,
      fault,
      await dayAlerts(
        dataset,
        dataset.days.find((d) => d.day === fault.day)!,
      ),
    );
    try {
      const session = directSession(staging!.staged.prometheus.url, staging!.page, staging!.others);
      // The page: ts-basic-service, which calls ts-route-service (the group's earlier alerts are on services the traces do not reach).
      const alert = session.alerts.find((a) => a.labels.service === 'ts-basic-service')!;
      const { detected, header } = await readCausesOnce(server, session, 'ts-basic-service answers slowly', { alert, latency: true });
      const lost = detected.lostTime!;
      expect(lost).toMatchObject({ hypothesisId: 'h-lost-time', callee: 'ts-route-service', verifiable: false });
      expect(lost.consequences).toContain('ts-basic-service');
      expect(lost.losingCallers.map((c) => c.caller)).toContain('ts-basic-service');
      for (const c of lost.losingCallers) expect(c.waitedSeconds - c.handledSeconds).toBeGreaterThan(0.1);
      expect(lost.unexplained).toEqual(["what delays the calls between ts-route-service's callers and it (no series here shows its network or proxy)"]);
      // Its runs were recorded and listed: the call metrics found, then both sides of every edge read.
      const listed = detected.runs.map((r) => r.run);
      for (const n of [lost.shownBy, ...lost.discoveredBy]) expect(listed).toContain(n);
      expect(detected.runs.find((r) => r.run === lost.shownBy)!.query).toContain('traces_service_graph_request_server_seconds_sum');
      expect(header).toContain('the call graph shows calls to ts-route-service losing time between its callers and it (lostTime)');
    } finally {
      await staging?.staged.stop();
    }
  }, 180_000);
});
