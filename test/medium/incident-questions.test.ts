import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BuiltInReasoner, checkConclusion } from '@svc/investigations/engine';
import { deriveAlerts, stagePrometheus, StagedPrometheus } from '../../eval/harness';
import { SCENARIOS } from '../../eval/scenarios';
import { DEFAULT_BUDGETS, directSession } from '../support/direct-session';

/**
 * Follow-up questions in a conversation about an incident, answered by the built-in reasoner from
 * a real Prometheus: search 3.3.0 answers /api/search four times slower (its other route is not
 * slower). Each question gets its own answer, with numbers as people write them, citing its runs.
 */
describe('questions about an incident, answered as asked', () => {
  const scenario = SCENARIOS.find((s) => s.name === 'search-slow-version-chronic-alert')!;
  let staged: StagedPrometheus;
  let page: Awaited<ReturnType<typeof deriveAlerts>>[number];

  beforeAll(async () => {
    staged = await stagePrometheus(scenario);
    [page] = await deriveAlerts(staged.prometheus.url, scenario.rule, staged.start, staged.end);
  }, 120_000);
  afterAll(async () => {
    await staged?.stop();
  });

  const ask = async (message: string, earlier: string[] = [], answers: string[] = []) => {
    const session = directSession(staged.prometheus.url, page, [], DEFAULT_BUDGETS, { message, earlier, answers });
    const conclusion = checkConclusion(await new BuiltInReasoner().investigate(session), session.investigationId, session.runs);
    return { conclusion, runs: session.runs };
  };

  // Times carry their date when it is not the day the window ends (a range that crosses midnight).
  it('splits the latency by route before and after the version the question names', async () => {
    const { conclusion, runs } = await ask('is the regression limited to /api/search or are other routes slower too since 3.3.0?');
    expect(conclusion.conclusionStatus).toBe('answer_only');
    expect(conclusion.summary).toMatch(
      /^Only \/api\/search of search has a higher p99 latency since 3\.3\.0 started \((\d{4}-\d\d-\d\d )?\d\d:\d\d UTC\); the other routes are about the same \[#\d+\]/,
    );
    expect(conclusion.summary).toMatch(/\| \/api\/search \| \d+(\.\d+)? ms \| \d+(\.\d+)? (ms|s) \| up \|/);
    expect(conclusion.summary).toMatch(/\| \/api\/suggest \| .* \| about the same \|/);
    // Every number comes from a cited run.
    const cited = conclusion.findings.flatMap((f) => f.runRefs);
    expect(cited.length).toBeGreaterThan(0);
    expect(runs.filter((r) => cited.includes(r.ordinal)).every((r) => r.outcome === 'succeeded')).toBe(true);
  }, 60_000);

  it('answers the request rate and errors of a service over the last hour, compared before and after the incident began', async () => {
    const { conclusion } = await ask('what is the request rate and error rate of search over the last hour, did errors go up too?');
    expect(conclusion.summary).toMatch(
      /^The request rate of search was \d+(\.\d+)? req\/s before the incident began \((\d{4}-\d\d-\d\d )?\d\d:\d\d UTC\) and \d+(\.\d+)? req\/s after: about the same \[#\d+\]/m,
    );
    expect(conclusion.summary).toMatch(
      /^The error ratio of search was \d+(\.\d+)?% before the incident began \((\d{4}-\d\d-\d\d )?\d\d:\d\d UTC\) and \d+(\.\d+)?% after: about the same \[#\d+\]/m,
    );
    // Three significant digits at most: no 41.3716 req/s nor 0.075412%.
    expect(conclusion.summary).not.toMatch(/[1-9]\d*\.\d{3,}|\.0*[1-9]\d{3,}/);
    expect(conclusion.findings).toHaveLength(2);
  }, 60_000);

  it('lists which pods run the version asked about and on which nodes, and resolves "those pods" to the service named before', async () => {
    const { conclusion } = await ask('which pods run 3.3.0 and on which nodes?');
    expect(conclusion.summary).toMatch(/^2 pod\(s\) of search run 3\.3\.0 at \d\d:\d\d UTC, on \d node\(s\): /);
    expect(conclusion.summary).toContain('| pod | node | version |');
    const { conclusion: followUp } = await ask('and the cpu of those pods?', ['what is the latency of search?']);
    expect(followUp.summary).toMatch(/^The CPU use of search .* cores/);
  }, 60_000);

  it('asks which service is meant when the question names none the sources know', async () => {
    const { conclusion } = await ask('what is the error rate of serch?');
    // The closest name first; exporters are not offered.
    expect(conclusion.question).toMatch(/^I could not find "serch" among the services and jobs the sources know\. Which of these do you mean: search, /);
    expect(conclusion.question).not.toContain('kube-state-metrics');
  }, 60_000);

  it('still investigates the cause when that is what is asked, and says so when it answers the same again', async () => {
    const { conclusion } = await ask('what caused this?');
    expect(conclusion.conclusionStatus).toBe('verified_cause');
    expect(conclusion.summary).toMatch(/^The new build \(.*3\.3\.0.*\) that started at .* is the cause/);
    const { conclusion: again } = await ask('why did it happen?', ['what caused this?'], [conclusion.summary]);
    expect(again.summary).toBe(`The same answer as turn 1: ${conclusion.summary}`);
  }, 60_000);

  it('answers what to do with the proposed actions, how to verify them and the runs they rest on', async () => {
    const { conclusion } = await ask('what should we do?');
    expect(conclusion.summary).toMatch(
      /^What to do, from the analysis \(verified cause\):\n1\. Roll back search from .*3\.3\.0.*: .* Verify: .* \[#\d+(, #\d+)*\]/,
    );
  }, 60_000);
});
