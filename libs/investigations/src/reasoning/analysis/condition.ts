import { Timestamp } from '@svc/platform';
import type { Candidate } from '../candidate';
import { zoom } from '../explainers/context';
import { alertsOwnSeries, episodeStart, heldUpTo } from '../onset';
import type { InvestigationSession, RecordedRun, SourceBrief } from '../reasoner';
import { earliest, firstSampleAt, MINUTE, pointsOf, sampleTimes, SeriesOut, seriesOf, shift, stepMicros } from '../series-reading';
import { splitThreshold } from '../threshold';
import type { Analysis } from './state';

/** The firing rule's expression over the window: the first time it held is the onset. */
export async function dateOnset(
  analysis: Analysis,
  session: InvestigationSession,
  source: SourceBrief,
  alertname: string | undefined,
  allRules?: RecordedRun,
  history?: RecordedRun,
): Promise<void> {
  if (!alertname) return;
  const rules =
    allRules ??
    (await session.runTool({
      tool: 'prometheus.alert_rules',
      integrationId: source.integrationId,
      arguments: { name: alertname },
      purpose: `The condition the ${alertname} rule checks`,
    }));
  const listed = rules.outcome === 'succeeded' ? ((rules.output as { rules?: Array<{ name?: string; query?: string }> } | null)?.rules ?? []) : [];
  const rule = allRules ? listed.find((r) => r.name === alertname) : listed[0];
  if (!rule?.query) {
    // A failed read says nothing of which rules exist.
    analysis.limitations.push({
      type: rules.outcome === 'succeeded' ? 'missing_telemetry' : 'tool_failure',
      statement:
        rules.outcome === 'succeeded'
          ? `Prometheus has no alerting rule named ${alertname}, so the alert's condition could not be queried`
          : `The alerting rules could not be read (${rules.error ?? 'failed'}), so the alert's condition could not be queried`,
      runRefs: [rules.ordinal],
      messageSequences: [],
    });
    return;
  }
  const range =
    history ??
    (await session.runTool({
      tool: 'prometheus.query_range',
      integrationId: source.integrationId,
      arguments: { query: rule.query },
      purpose: `When did ${alertname}'s condition start to hold?`,
    }));
  // The episode the alert belongs to: the condition's last rise before the alert fired, not an
  // earlier, separate episode of the same condition within the window.
  const fired = earliest(analysis.alerts.map((a) => a.startsAt)) ?? analysis.onset!.at;
  const own = (run: RecordedRun): SeriesOut[] => alertsOwnSeries(seriesOf(run), analysis.alertLabels);
  const rangeStep = stepMicros(range, 60);
  const times = own(range).flatMap((s) => pointsOf(s).map((p) => p.t.epochMicros));
  // A condition whose last episode ended well before the alert fired did not start it (an alert
  // raised by hand, from another source, or by a rule the data does not reproduce): the alert's
  // own start is the onset, not an earlier episode of the condition.
  const endedBefore = times.length > 0 && !heldUpTo(times, rangeStep, fired.epochMicros + rangeStep);
  const episode = endedBefore ? null : episodeStart(times, rangeStep, fired.epochMicros + rangeStep);
  const roughly = episode !== null ? Timestamp.fromEpochMicros(episode) : endedBefore ? null : earliest(own(range).map(firstSampleAt));
  analysis.onset = { at: roughly ?? analysis.onset!.at, runs: [rules.ordinal, range.ordinal], expression: rule.query };
  if (!roughly) {
    analysis.conditionAbsent = true;
    if (endedBefore) {
      const last = times.reduce((a, b) => (b > a && b <= fired.epochMicros + rangeStep ? b : a), 0n);
      analysis.limitations.push({
        type: 'missing_telemetry',
        statement: `The rule's condition did not hold when the alert fired${last > 0n ? ` (it last held at ${Timestamp.fromEpochMicros(last).toISOString()})` : ''}; the onset is taken from the alert itself, and changes are tested against its start`,
        runRefs: [range.ordinal],
        messageSequences: [],
      });
    } else if (range.outcome === 'succeeded') {
      analysis.limitations.push({
        type: 'missing_telemetry',
        statement: "The rule's expression returned no samples in the window; the onset is taken from the alert itself",
        runRefs: [range.ordinal],
        messageSequences: [],
      });
    }
    return;
  }
  // The whole window is read coarsely; the minutes around the first sample date the onset closely.
  const closer = await session.runTool({
    tool: 'prometheus.query_range',
    integrationId: source.integrationId,
    arguments: { query: rule.query, ...zoom(session, shift(roughly, -5n * MINUTE), shift(roughly, MINUTE)) },
    purpose: `The onset of ${alertname}'s condition, to the second`,
  });
  const closerEnd = Timestamp.parse(String(closer.arguments.end ?? ''))?.epochMicros ?? roughly.epochMicros + MINUTE;
  const closerStart = episodeStart(
    own(closer).flatMap((s) => pointsOf(s).map((p) => p.t.epochMicros)),
    stepMicros(closer, 1),
    closerEnd,
  );
  const began = closerStart !== null ? Timestamp.fromEpochMicros(closerStart) : null;
  analysis.conditionLabels = (own(closer)[0] ?? own(range)[0])?.metric ?? {};
  if (began) analysis.onset = { at: began, runs: [rules.ordinal, range.ordinal, closer.ordinal], expression: rule.query };
}

/**
 * When the condition began, read with one-minute windows: a rule over `rate(...[5m])` crosses
 * its threshold minutes after what it measures changed, which would blur a rollout's effect with
 * the rollout itself. Null when the rule has no longer window or the query shows nothing.
 */
export async function sharpOnset(analysis: Analysis, session: InvestigationSession, source: SourceBrief, candidate: Candidate): Promise<Timestamp | null> {
  const expression = analysis.onset!.expression;
  const sharp = expression?.replace(/\[(\d+)([smhdw])\]/g, (window, n: string, unit: string) =>
    Number(n) * ({ s: 1, m: 60, h: 3600, d: 86400, w: 604800 } as Record<string, number>)[unit] > 60 ? '[1m]' : window,
  );
  if (!expression || !sharp || sharp === expression) return analysis.onset!.at;
  const run = await session.runTool({
    tool: 'prometheus.query_range',
    integrationId: source.integrationId,
    hypothesisId: candidate.hypothesis.id,
    arguments: { query: sharp, ...zoom(session, shift(candidate.at, -5n * MINUTE), shift(analysis.onset!.at, MINUTE)) },
    purpose: `When did the condition begin, read over one-minute windows?`,
  });
  candidate.hypothesis.runRefs = [...candidate.hypothesis.runRefs, run.ordinal];
  // The stretch that runs into the onset, without earlier blips of a noisier reading.
  const times = sampleTimes(run);
  if (times.length === 0) return null;
  return Timestamp.fromEpochMicros(episodeStart(times, stepMicros(run, 1), times[times.length - 1])!);
}

/**
 * The symptom as people look at it: the alert's expression without its comparison, over the
 * whole window, so it shows its level before the condition held as well as its rise past the
 * threshold. Read last, for the evidence plot, when the budget leaves a run for it.
 */
export async function readSymptom(analysis: Analysis, session: InvestigationSession, source: SourceBrief, alertname: string | undefined): Promise<void> {
  const threshold = splitThreshold(analysis.onset?.expression);
  if (!threshold || session.runs.length >= session.budgets.toolRuns) return;
  session.beginTurn();
  const run = await session.runTool({
    tool: 'prometheus.query_range',
    integrationId: source.integrationId,
    arguments: { query: threshold.symptom },
    purpose: `The symptom: ${alertname ?? 'the alert'}'s expression without its threshold (${threshold.comparison} ${threshold.value}), before and after the onset`,
  });
  if (run.outcome === 'succeeded' && seriesOf(run).length > 0) analysis.symptom = { run, threshold };
}
