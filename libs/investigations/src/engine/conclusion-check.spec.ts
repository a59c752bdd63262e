import { describe, expect, it } from 'vitest';
import type { Conclusion, FindingItem } from '../conclusion.types';
import type { RecordedRun } from '../reasoning/reasoner';
import { checkConclusion } from './conclusion-check';

const INVESTIGATION = '0190a000-0000-7000-8000-000000000001';

const run = (ordinal: number, hypothesisId: string | null = null, outcome: RecordedRun['outcome'] = 'succeeded'): RecordedRun => ({
  ordinal,
  tool: 'prometheus.query_range',
  integrationId: 'p',
  arguments: {},
  purpose: '',
  hypothesisId,
  outcome,
  summary: '',
  output: null,
  truncated: false,
  error: outcome === 'failed' ? 'refused' : null,
  window: null,
});

/** Run 1 dates the onset, run 2 tested h1 (precedence), run 3 tested its mechanism. */
const runs = [run(1), run(2, 'h1'), run(3, 'h1')];

const claim = (verification: FindingItem['verification']): Conclusion => ({
  conclusionStatus: 'verified_cause',
  summary: 'The new build caused it.',
  impact: { summary: 'Errors', runRefs: [1] },
  findings: [
    {
      kind: 'cause',
      statement: 'The new build 1.1 caused the errors',
      mechanism: 'It fails requests',
      runRefs: [1, 2, 3],
      evidenceRefs: [{ investigationId: INVESTIGATION, toolRunOrdinal: 2 }],
      hypothesisId: 'h1',
      ...(verification ? { verification } : {}),
    },
  ],
  hypotheses: [{ id: 'h1', statement: 'The new build caused it', status: 'supported', test: 'errors only after it', runRefs: [2, 3] }],
  actions: [],
  limitations: [],
});

const holds = { causeAt: '2026-11-22T02:28:00Z', onsetAt: '2026-11-22T02:30:00Z', mechanismRunRefs: [3], unexplained: [] };

describe('checkConclusion: what verified_cause needs', () => {
  it('keeps verified_cause when the cause precedes the onset, its mechanism was tested and nothing is left unexplained; the verification is stored with the finding', () => {
    const checked = checkConclusion(claim(holds), INVESTIGATION, runs);
    expect(checked.conclusionStatus).toBe('verified_cause');
    expect(checked.limitations).toEqual([]);
    expect(checked.findings[0].verification).toEqual(holds);
  });

  it.each([
    ['no verification at all', undefined, 'was not shown to precede the onset with its mechanism tested'],
    ['a cause dated after the onset', { ...holds, causeAt: '2026-11-22T02:31:00Z' }, 'is not dated before the onset'],
    ['a mechanism no run tested', { ...holds, mechanismRunRefs: [] }, 'no query tested the mechanism'],
    ['a mechanism run that failed', { ...holds, mechanismRunRefs: [4] }, 'no query tested the mechanism'],
    ['an unexplained step (a proximate event)', { ...holds, unexplained: ['why the process restarted'] }, 'the data does not show why the process restarted'],
  ])('downgrades a claimed verified_cause with %s to supported_explanation, saying why', (_case, verification, reason) => {
    const checked = checkConclusion(claim(verification), INVESTIGATION, [...runs, run(4, 'h1', 'failed')]);
    expect(checked.conclusionStatus).toBe('supported_explanation');
    expect(checked.limitations).toEqual([{ type: 'missing_telemetry', statement: expect.stringContaining(reason), runRefs: [1, 2, 3], messageSequences: [] }]);
    expect(checked.findings[0].verification).toEqual(verification);
  });

  it('adds nothing to a conclusion that claims no more than supported_explanation', () => {
    const checked = checkConclusion({ ...claim(undefined), conclusionStatus: 'supported_explanation' }, INVESTIGATION, runs);
    expect(checked.conclusionStatus).toBe('supported_explanation');
    expect(checked.limitations).toEqual([]);
  });
});
