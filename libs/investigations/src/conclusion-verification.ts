import { Timestamp } from '@svc/platform';
import type { FindingItem, HypothesisItem, LimitationItem } from './conclusion.types';
import type { RecordedRun } from './reasoning/reasoner';

/** A cause finding, as far as its verification goes. */
type Cause = Pick<FindingItem, 'statement' | 'runRefs' | 'hypothesisId' | 'verification'>;

/** A conclusion's successful runs by ordinal. */
export type SucceededRuns = Map<number, Pick<RecordedRun, 'hypothesisId'>>;

/** A supported hypothesis tested by a successful run made to test it. */
export function testedAndSupported(finding: Cause, hypotheses: Array<Pick<HypothesisItem, 'id' | 'status' | 'runRefs'>>, succeeded: SucceededRuns): boolean {
  const hypothesis = hypotheses.find((h) => h.id === finding.hypothesisId);
  return hypothesis?.status === 'supported' && hypothesis.runRefs.some((n) => succeeded.get(n)?.hypothesisId === hypothesis.id);
}

/**
 * Why a tested cause is not verified, each as a limitation (none when it is): no verification
 * claimed, a cause dated after the onset, a mechanism no successful run tested, or a step of the
 * causal chain the data leaves unexplained (a restart whose reason was not found is a proximate
 * event, not a root cause).
 */
export function verificationGaps(finding: Cause, succeeded: SucceededRuns): LimitationItem[] {
  const v = finding.verification;
  const gap = (statement: string): LimitationItem => ({ type: 'missing_telemetry', statement, runRefs: finding.runRefs, messageSequences: [] });
  if (!v) return [gap(`Not verified: "${finding.statement}" was not shown to precede the onset with its mechanism tested`)];
  const gaps: LimitationItem[] = [];
  const causeAt = Timestamp.parse(v.causeAt);
  const onsetAt = Timestamp.parse(v.onsetAt);
  if (!causeAt || !onsetAt || causeAt.isAfter(onsetAt)) gaps.push(gap(`Not verified: "${finding.statement}" is not dated before the onset of the condition`));
  if (!v.mechanismRunRefs.some((n) => succeeded.has(n)))
    gaps.push(gap(`Not verified: no query tested the mechanism of "${finding.statement}" in a way that could have shown otherwise`));
  for (const unknown of v.unexplained) gaps.push(gap(`Not verified: the data does not show ${unknown}`));
  return gaps;
}
