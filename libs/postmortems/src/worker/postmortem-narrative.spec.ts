import { describe, expect, it } from 'vitest';
import { checkNarrative } from './postmortem-narrative';

const INVESTIGATION = '0190a000-0000-7000-8000-000000000001';
const runs = new Map([[INVESTIGATION, [1, 2]]]);
const part = (text: string, runRefs: number[] = [1]) => ({ text, citations: [{ investigationId: INVESTIGATION, runRefs }] });

describe('checkNarrative', () => {
  it('accepts citations of existing runs and writes them out after the text', () => {
    const checked = checkNarrative(
      { executiveSummary: part('Summary', [2, 1]), impact: part('Impact'), detection: { text: 'Detection', citations: [] } },
      runs,
    );
    expect(checked).toEqual({
      ok: true,
      narrative: {
        executiveSummary: `Summary [investigation ${INVESTIGATION}, runs #1, #2]`,
        impact: `Impact [investigation ${INVESTIGATION}, run #1]`,
        detection: 'Detection',
      },
    });
  });

  it('refuses a missing run, an unknown investigation, an investigation named only in the text, and a missing part', () => {
    const other = '0190a000-0000-7000-8000-000000000002';
    const checked = checkNarrative(
      {
        executiveSummary: part('Summary', [3]),
        impact: { text: 'Impact', citations: [{ investigationId: other, runRefs: [1] }] },
        detection: { text: `As investigation ${other} showed`, citations: [] },
      },
      runs,
    );
    expect(checked.ok).toBe(false);
    expect(!checked.ok && checked.problems).toEqual([
      `executiveSummary: cites run(s) 3 of investigation ${INVESTIGATION}, which do not exist`,
      `impact: cites investigation ${other}, which is not an investigation of this incident`,
      `detection: names ${other}, which is not an investigation of this incident`,
    ]);
    expect(checkNarrative({ executiveSummary: part('S'), impact: part('I') }, runs)).toEqual({ ok: false, problems: ['detection: no text'] });
    expect(checkNarrative(undefined, runs).ok).toBe(false);
  });
});
