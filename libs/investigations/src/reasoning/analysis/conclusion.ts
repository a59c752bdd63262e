import type { ActionItem, CauseVerification, Conclusion, EvidencePlot, FindingItem, StoppedBy } from '../../conclusion.types';
import { verificationGaps } from '../../conclusion-verification';
import type { ConversationContext } from '../../turn.types';
import type { Candidate } from '../candidate';
import type { InvestigationSession } from '../reasoner';
import { earliest, minutesBetween } from '../series-reading';
import { unreadLimitation } from '../source-failure';
import type { Analysis } from './state';

/**
 * The conclusion of the analysis: the supported causes (verified ones first) with their actions,
 * the candidates ruled out and the other alerts, the consequences and the condition as symptoms,
 * the limitations (a budget that ran out, a source that could not be read, failed runs, what a
 * cause that is not verified leaves open), and a summary that names the cause or, without one,
 * the candidates that remain, the most likely first.
 */
export function conclude(analysis: Analysis, session: InvestigationSession, stoppedBy: StoppedBy | null): Conclusion {
  const incident = session.incident!;
  const onset = analysis.onset ?? { at: incident.openedAt, runs: [], expression: null };
  const alertRefs = analysis.alertRun ? [analysis.alertRun.ordinal] : [];
  const evidence = (runs: number[]) => runs.map((n) => ({ investigationId: session.investigationId, toolRunOrdinal: n }));
  const findings: FindingItem[] = [];
  const actions: ActionItem[] = [];
  const verificationOf = (t: { candidate: Candidate; mechanismRuns: number[] }): CauseVerification => ({
    causeAt: t.candidate.at.toISOString(),
    onsetAt: onset.at.toISOString(),
    mechanismRunRefs: t.mechanismRuns,
    unexplained: t.candidate.unexplained,
  });
  // Verified causes first, then the rest in the order they were found.
  const supported = [...analysis.tested.values()]
    .filter((t) => t.supported)
    .map((t) => {
      const refs = [...new Set([...onset.runs, t.candidate.run.ordinal, t.run.ordinal, ...t.mechanismRuns, ...(t.candidate.detected?.chainRuns ?? [])])];
      const finding: FindingItem = {
        kind: 'cause',
        statement: t.candidate.hypothesis.statement,
        mechanism: t.candidate.mechanism,
        runRefs: refs,
        evidenceRefs: evidence(refs),
        hypothesisId: t.candidate.hypothesis.id,
        verification: verificationOf(t),
      };
      return {
        ...t,
        refs,
        finding,
        gaps: verificationGaps(finding, new Map(session.runs.filter((r) => r.outcome === 'succeeded').map((r) => [r.ordinal, r]))),
      };
    })
    .sort((a, b) => Number(a.gaps.length > 0) - Number(b.gaps.length > 0));
  for (const { candidate, refs, finding } of supported) {
    findings.push(finding);
    actions.push({ ...candidate.action, runRefs: refs });
  }
  for (const { run, candidate } of [...analysis.tested.values()].filter((t) => !t.supported)) {
    const refs = [...new Set([candidate.run.ordinal, ...(candidate.detected?.refuted?.runs ?? [run.ordinal])])];
    findings.push({
      kind: 'ruled_out',
      statement: `Not the cause: ${candidate.hypothesis.statement} (${candidate.refutedBecause ?? 'the condition already held before it'})`,
      mechanism: '',
      runRefs: refs,
      evidenceRefs: evidence(refs),
    });
  }
  // The incident's other alerts: stated and ruled out with the runs that showed their history.
  for (const other of analysis.others.filter((o) => o.run?.outcome === 'succeeded')) {
    const on = ['namespace', 'job', 'pod', 'instance', 'node', 'container']
      .filter((k) => other.labels[k])
      .map((k) => `${k}=${other.labels[k]}`)
      .join(', ');
    findings.push({
      kind: 'ruled_out',
      statement: `Not the cause: the other alert ${other.alertname}${on ? ` (${on})` : ''}, because ${other.why}`,
      mechanism: '',
      runRefs: [other.run!.ordinal],
      evidenceRefs: evidence([other.run!.ordinal]),
    });
  }
  findings.push(...analysis.consequences);
  if (onset.expression) {
    findings.push({
      kind: 'symptom',
      statement: `The alert's condition (${onset.expression}) began to hold at ${onset.at.toISOString()}`,
      mechanism: '',
      runRefs: onset.runs,
      evidenceRefs: evidence(onset.runs),
    });
  }
  const limitations = [...analysis.limitations];
  if (stoppedBy)
    limitations.push({
      type: 'budget',
      statement: `The investigation stopped at its ${stoppedBy.replace('_', ' ')} budget before every hypothesis was tested`,
      runRefs: [],
      messageSequences: [],
    });
  if (analysis.unread) limitations.push(unreadLimitation(analysis.unread));
  for (const run of session.runs.filter((r) => r.outcome === 'failed' && !limitations.some((l) => l.runRefs.includes(r.ordinal)))) {
    limitations.push({ type: 'tool_failure', statement: `${run.tool} failed: ${run.error ?? 'no detail'}`, runRefs: [run.ordinal], messageSequences: [] });
  }
  const cause = supported[0];
  // A cause that is not verified says why: its gaps are the limitations of the conclusion; and
  // what could not be looked for for want of series might have been the cause.
  if (cause && cause.gaps.length > 0) limitations.push(...cause.gaps);
  const notLookedFor = analysis.presence.notLookedFor(analysis.notLookedFor);
  if (notLookedFor && !(cause && cause.gaps.length === 0)) limitations.push(notLookedFor);
  const alerts = session.alerts.length;
  const event = cause?.candidate.hypothesis.statement.replace(" caused the alert's condition", '');
  const timing = cause
    ? `the condition began at ${onset.at.toISOString()}, ${minutesBetween(cause.candidate.at, onset.at)} min after it, and did not hold before it`
    : '';
  // Without metrics to test them against (no Prometheus), reported changes are listed, not examined.
  const tested = analysis.hypotheses.filter((h) => h.status !== 'inconclusive' && h.status !== 'untested').length;
  // The suspects that remain, the most likely first: what the on-call engineer looks at next.
  const open = analysis.hypotheses.filter((h) => h.status !== 'refuted').slice(0, 3);
  const found =
    open.length && (tested > 0 || open.some((h) => h.status === 'untested'))
      ? `No cause is supported by a test; the ${open.length === 1 ? 'candidate' : 'candidates'}, the most likely first: ${open.map((h, i) => `(${i + 1}) ${h.statement.replace(" caused the alert's condition", '')}`).join('; ')}.`
      : analysis.hypotheses.length
        ? tested > 0
          ? `${analysis.hypotheses.length} change(s) near the onset were examined and none explains it.`
          : `${analysis.hypotheses.length} change(s) near the onset were found, and none could be tested.`
        : 'No change near the onset (new build, restart, target down) was found in the metrics.';
  const summary = analysis.unread
    ? `${analysis.unread.source.name} could not be read (${analysis.unread.error}): when the condition began and what changed near it are not known.`
    : !cause
      ? `The condition began at ${onset.at.toISOString()}. ${found}`
      : cause.gaps.length === 0
        ? `${event} is the cause: ${timing}.`
        : `${event} preceded the condition (${timing}), but is not verified as its cause: ${cause.candidate.unexplained.length > 0 ? `the data does not show ${cause.candidate.unexplained.join(', nor ')}` : 'its mechanism was not shown'}.`;
  // The condition's own read (the rule's expression over the window) stands in for the symptom when its threshold could not be split off.
  const conditionRun = onset.expression ? onset.runs[1] : undefined;
  const plot: EvidencePlot = {
    symptom: analysis.symptom
      ? { runOrdinal: analysis.symptom.run.ordinal, comparison: analysis.symptom.threshold.comparison, threshold: analysis.symptom.threshold.value }
      : conditionRun !== undefined
        ? { runOrdinal: conditionRun, comparison: null, threshold: null }
        : null,
    cause: cause ? { runOrdinal: cause.candidate.run.ordinal, at: cause.candidate.at.toISOString() } : null,
    onsetAt: onset.at.toISOString(),
    alertStartsAt: (earliest((analysis.alerts.length ? analysis.alerts : session.alerts).map((a) => a.startsAt)) ?? incident.openedAt).toISOString(),
    changes: [...analysis.tested.values()].map((t) => ({
      at: t.candidate.at.toISOString(),
      summary: t.candidate.hypothesis.statement,
      runOrdinal: t.candidate.run.ordinal,
      changeId: t.candidate.changeId ?? null,
    })),
  };
  return {
    ...(analysis.unread ? { incomplete: true } : {}),
    conclusionStatus: !cause ? 'inconclusive' : cause.gaps.length === 0 ? 'verified_cause' : 'supported_explanation',
    summary,
    impact: { summary: `${alerts} alert(s) in incident "${incident.title}" since ${onset.at.toISOString()}`, runRefs: alertRefs },
    findings,
    hypotheses: analysis.hypotheses,
    actions,
    limitations,
    plot,
  };
}

/** A conclusion's summary citing the runs its cause rests on (or, without one, those of every finding). */
function citedSummary(concluded: Conclusion): string {
  const causes = concluded.findings.filter((f) => f.kind === 'cause');
  const refs = [...new Set((causes.length ? causes : concluded.findings).flatMap((f) => f.runRefs))].sort((a, b) => a - b);
  return refs.length ? `${concluded.summary} [${refs.map((r) => `#${r}`).join(', ')}]` : concluded.summary;
}

/**
 * A conversation turn's conclusion as the answer to what was asked: what to do lists the proposed
 * actions (each with its rationale, how to verify it and the runs it rests on); another answer
 * ends with the runs its cause rests on (those of every finding, without a cause); an answer that
 * an earlier turn gave word for word says so, instead of repeating itself unannounced.
 */
export function answerInConversation(
  conversation: ConversationContext,
  asksWhatToDo: boolean,
  concluded: Conclusion,
  alsoTheCause = false,
  /** What the question names as its suspect (see suspectsOf): what the investigation ruled out of it is said too. */
  suspect: RegExp | null = null,
): Conclusion {
  let summary = concluded.summary;
  // The cause asked with what to do ("why is it slow, and how do we mitigate?"): the cause, then the actions.
  const cause = alsoTheCause && concluded.actions.length ? `${citedSummary(concluded)}\n` : '';
  if (asksWhatToDo)
    summary = concluded.actions.length
      ? [
          `${cause}What to do, from the analysis (${concluded.conclusionStatus.replace('_', ' ')}):`,
          ...concluded.actions.map((a, i) => `${i + 1}. ${a.title}: ${a.rationale}. Verify: ${a.verification} [${a.runRefs.map((r) => `#${r}`).join(', ')}]`),
        ].join('\n')
      : `No action is proposed: ${concluded.summary}`;
  // The answer cites the runs its cause rests on (or, without one, those of every finding), as every answer of a conversation does.
  if (!asksWhatToDo || !concluded.actions.length) summary = citedSummary({ ...concluded, summary });
  // "Is the release the problem?": the suspect the question names, when the cause is another, is said to be ruled out, with why.
  const causes = concluded.findings.filter((f) => f.kind === 'cause');
  const ruledOut =
    suspect && !causes.some((f) => suspect.test(f.statement)) ? concluded.findings.filter((f) => f.kind === 'ruled_out' && suspect.test(f.statement)) : [];
  for (const f of ruledOut.slice(0, 2)) summary = `${summary}\n${f.statement} [${f.runRefs.map((r) => `#${r}`).join(', ')}]`;
  const same = [...conversation.turns].reverse().find((t) => t.summary === summary);
  if (same) summary = `The same answer as turn ${same.turn}: ${summary}`;
  return { ...concluded, summary: summary.slice(0, 4096) };
}
