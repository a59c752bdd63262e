import type { Conclusion, ConclusionStatus, EvidencePlot, LimitationItem } from '../conclusion.types';
import { testedAndSupported, verificationGaps, type SucceededRuns } from '../conclusion-verification';
import type { RecordedRun } from '../reasoning/reasoner';

export class InvalidConclusion extends Error {}

const clip = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/**
 * Checks a reasoner's conclusion before it is stored (decisions §6): every reference names a run
 * of this investigation (otherwise it is refused), and the conclusion status claims no more than
 * the runs show. `verified_cause` needs a cause finding whose hypothesis is supported by a
 * successful run that tested it, and whose verification holds (see `verificationGaps`); otherwise
 * a cause backed by cited runs is a `supported_explanation`, with a limitation for each gap that
 * kept it from being verified, and a cause without evidence is `inconclusive`. Findings keep their
 * verification when stored: the onset and cause it dates are what a postmortem's detection reads.
 */
export function checkConclusion(conclusion: Conclusion, investigationId: string, runs: readonly RecordedRun[]): Conclusion {
  const ordinals = new Set(runs.map((r) => r.ordinal));
  const missing = new Set<number>();
  const cite = (refs: number[]): void =>
    refs.forEach((n) => {
      if (!ordinals.has(n)) missing.add(n);
    });
  cite(conclusion.impact.runRefs);
  for (const item of [...conclusion.findings, ...conclusion.hypotheses, ...conclusion.actions, ...conclusion.limitations]) cite(item.runRefs);
  for (const finding of conclusion.findings) {
    for (const ref of finding.evidenceRefs) {
      if (ref.investigationId !== investigationId)
        throw new InvalidConclusion(`Evidence reference to investigation ${ref.investigationId}: a conclusion cites this investigation's runs only`);
      cite([ref.toolRunOrdinal]);
    }
  }
  if (missing.size > 0)
    throw new InvalidConclusion(
      `The conclusion cites tool runs that do not exist: ${[...missing]
        .sort((a, b) => a - b)
        .map((n) => `#${n}`)
        .join(', ')}`,
    );
  if (!conclusion.summary.trim()) throw new InvalidConclusion('The conclusion has no summary');
  const { status, gaps } = earnedStatus(conclusion, runs);
  return {
    ...conclusion,
    plot: checkedPlot(conclusion, runs),
    summary: clip(conclusion.summary.trim(), 4096),
    conclusionStatus: status,
    limitations: [...conclusion.limitations, ...gaps],
  };
}

/**
 * The conclusion's evidence plot, keeping only what names a run of this investigation; when the
 * reasoner gave none, the one its first dated cause gives: the onset and the cause's time, and the
 * cause's first cited range query.
 */
function checkedPlot(conclusion: Conclusion, runs: readonly RecordedRun[]): EvidencePlot | null {
  const ordinals = new Set(runs.map((r) => r.ordinal));
  const given = conclusion.plot;
  if (given)
    return {
      symptom: given.symptom && ordinals.has(given.symptom.runOrdinal) ? given.symptom : null,
      cause: given.cause && ordinals.has(given.cause.runOrdinal) ? given.cause : null,
      onsetAt: given.onsetAt,
      alertStartsAt: given.alertStartsAt,
      changes: given.changes.filter((c) => ordinals.has(c.runOrdinal)).map((c) => ({ ...c, changeId: c.changeId ?? null })),
    };
  const dated = conclusion.findings.find((f) => f.kind === 'cause' && f.verification);
  if (!dated?.verification) return null;
  const ranges = new Set(runs.filter((r) => r.tool === 'prometheus.query_range' && r.outcome === 'succeeded').map((r) => r.ordinal));
  const causeRun = dated.runRefs.find((n) => ranges.has(n));
  return {
    symptom: null,
    cause: causeRun !== undefined ? { runOrdinal: causeRun, at: dated.verification.causeAt } : null,
    onsetAt: dated.verification.onsetAt,
    alertStartsAt: null,
    changes: [],
  };
}

function earnedStatus(conclusion: Conclusion, runs: readonly RecordedRun[]): { status: ConclusionStatus; gaps: LimitationItem[] } {
  if (conclusion.conclusionStatus === 'answer_only' || conclusion.conclusionStatus === 'inconclusive') return { status: conclusion.conclusionStatus, gaps: [] };
  const succeeded: SucceededRuns = new Map(runs.filter((r) => r.outcome === 'succeeded').map((r) => [r.ordinal, r]));
  const causes = conclusion.findings.filter((f) => f.kind === 'cause');
  const supported = causes.some((f) => [...f.runRefs, ...f.evidenceRefs.map((r) => r.toolRunOrdinal)].some((n) => succeeded.has(n)));
  const status: ConclusionStatus = supported ? 'supported_explanation' : 'inconclusive';
  if (conclusion.conclusionStatus !== 'verified_cause') return { status, gaps: [] };
  const tested = causes.filter((f) => testedAndSupported(f, conclusion.hypotheses, succeeded));
  if (tested.some((f) => verificationGaps(f, succeeded).length === 0)) return { status: 'verified_cause', gaps: [] };
  // Claimed but not earned: the first tested cause says what is missing.
  return { status, gaps: tested.length > 0 ? verificationGaps(tested[0], succeeded) : [] };
}
