import type { Candidate } from '../candidate';
import { zoom } from '../explainers/context';
import type { DetectedCause } from '../explainers/explainer';
import { alertsOwnSeries, episodeStart, heldUpTo } from '../onset';
import type { InvestigationSession, SourceBrief } from '../reasoner';
import { MINUTE, minutesBetween, pointsOf, seriesOf, shift, stepMicros } from '../series-reading';
import { sharpOnset } from './condition';
import type { Analysis } from './state';

/** A new version that served alone longer than this before the condition began did not start it. */
const QUIET_AFTER_ROLLOUT = 2n * MINUTE;

/** A detected cause as a hypothesis to test: does the condition hold only after it? */
export function candidateOf(d: DetectedCause): Candidate {
  return {
    at: d.at,
    run: d.run,
    hypothesis: {
      id: d.id,
      statement: d.statement,
      status: 'untested',
      test: `Does the condition hold only after ${d.at.toISOString()}?`,
      runRefs: [...new Set([d.run.ordinal, ...d.chainRuns, ...(d.refuted?.runs ?? [])])],
    },
    mechanism: d.mechanism,
    action: d.action,
    unexplained: d.unexplained,
    detected: d,
    refutedBecause: d.refuted?.because,
    ...(d.rollout ? { buildSelector: d.rollout.selector, rolledOutAt: d.rollout.rolledOutAt, observed: d.rollout.observed } : {}),
    ...(d.subject ? { subject: d.subject } : {}),
  };
}

/**
 * Tests a change as the cause: the alert's condition, queried from well before the change to
 * after it, must be absent before the change and present after it. A change that passes is asked
 * why it happened, by the family that found it (see Explainer.askWhy); a reported change's timing
 * is its mechanism.
 */
export async function testCandidate(analysis: Analysis, session: InvestigationSession, source: SourceBrief, candidate: Candidate): Promise<void> {
  const h = candidate.hypothesis;
  // A detector already ruled it out with the runs that show it: nothing left to test.
  if (candidate.detected?.refuted) {
    h.status = 'refuted';
    analysis.tested.set(h.id, { run: candidate.run, supported: false, candidate, mechanismRuns: [] });
    return;
  }
  const onset = analysis.onset!;
  const expression = onset.expression;
  if (!expression) {
    h.status = 'inconclusive';
    return;
  }
  const run = await session.runTool({
    tool: 'prometheus.query_range',
    integrationId: source.integrationId,
    hypothesisId: h.id,
    arguments: { query: expression, ...zoom(session, shift(candidate.at, -15n * MINUTE), shift(onset.at, 5n * MINUTE)) },
    purpose: `Test: ${h.test}`,
  });
  h.runRefs = [...h.runRefs, run.ordinal];
  if (run.outcome !== 'succeeded') {
    h.status = 'inconclusive';
    analysis.limitations.push({
      type: 'tool_failure',
      statement: `The test of "${h.statement}" could not run: ${run.error ?? 'failed'}`,
      runRefs: [run.ordinal],
      messageSequences: [],
    });
    return;
  }
  // The episode of the alerts' own series that runs into the onset: an earlier, separate episode
  // of the same condition (or another series of the rule) does not refute a change before this one.
  const times = alertsOwnSeries(seriesOf(run), analysis.alertLabels).flatMap((s) => pointsOf(s).map((p) => p.t.epochMicros));
  const step = stepMicros(run, 1);
  // A condition that does not hold at the onset (an alert raised by hand: see dateOnset) cannot
  // date a change: the alert's start does, a change before it (or within a minute after) passing.
  const held = heldUpTo(times, step, onset.at.epochMicros + step);
  const began = held ? episodeStart(times, step, onset.at.epochMicros + step) : onset.at.epochMicros;
  const before = began !== null && began < candidate.at.epochMicros - (held ? 0n : MINUTE) ? 1 : 0;
  const after = began === null ? 0 : held ? times.filter((t) => t > candidate.at.epochMicros && t >= began).length : 1;
  if (!held && before) candidate.refutedBecause ??= `it came after the alert began, at ${onset.at.toISOString()}`;
  if (before === 0 && after > 0 && candidate.rolledOutAt) {
    const began = await sharpOnset(analysis, session, source, candidate);
    if (began && began.epochMicros - candidate.rolledOutAt.epochMicros > QUIET_AFTER_ROLLOUT)
      candidate.refutedBecause = candidate.recorded
        ? `the change was in place from ${candidate.rolledOutAt.toISOString()}, ${minutesBetween(candidate.rolledOutAt, began)} min before the condition began, without it`
        : `the new build served alone from ${candidate.rolledOutAt.toISOString()}, ${minutesBetween(candidate.rolledOutAt, began)} min before the condition began, without it`;
  }
  const supported = before === 0 && after > 0 && !candidate.refutedBecause;
  h.status = supported ? 'supported' : 'refuted';
  const mechanismRuns = !supported ? [] : candidate.detected ? await askWhy(analysis, candidate, candidate.detected) : reportedTiming(candidate);
  analysis.tested.set(h.id, { run, supported, candidate, mechanismRuns });
}

/**
 * Why a supported cause a family found happened, asked of that family (a restart: killed out of
 * memory? saturation: more traffic? a new build: does the condition hold on its replicas?): the
 * candidate is restated with the answer, and the runs that showed its mechanism returned. A family
 * that asks nothing further has shown its mechanism already.
 */
async function askWhy(analysis: Analysis, candidate: Candidate, detected: DetectedCause): Promise<number[]> {
  const families = [analysis.changes, analysis.detectors].filter((e) => e !== null);
  const h = candidate.hypothesis;
  const condition = {
    expression: analysis.onset!.expression,
    labels: analysis.conditionLabels,
    onset: analysis.onset!.at,
    hypothesisRuns: h.runRefs,
    livenessPassed: analysis.detectors?.livenessPassed ?? new Map<string, number>(),
  };
  for (const family of families) {
    const answer = await family.askWhy(detected, condition);
    if (!answer) continue;
    h.runRefs = [...new Set([...h.runRefs, ...answer.runs])];
    analysis.limitations.push(...answer.limitations);
    const restated = answer.restated ?? {};
    if (restated.statement) h.statement = restated.statement;
    if (restated.at) candidate.at = restated.at;
    if (restated.mechanism) candidate.mechanism = restated.mechanism;
    if (restated.action) candidate.action = restated.action;
    if (restated.unexplained) candidate.unexplained = restated.unexplained;
    return answer.mechanismRuns;
  }
  return detected.mechanismRuns;
}

/**
 * A reported change is dated by the tool that made it, on the service it names: its timing is its
 * mechanism, as for a rollout over the whole service (the report, and the precedence test that
 * found the condition began after it and soon after). One naming no service is not tied to the alert.
 */
function reportedTiming(candidate: Candidate): number[] {
  return candidate.recorded?.service ? [candidate.run.ordinal, ...candidate.hypothesis.runRefs.slice(-1)] : [];
}
