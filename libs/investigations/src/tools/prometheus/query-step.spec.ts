import { describe, expect, it } from 'vitest';
import { chooseStep, MAX_POINTS_PER_SERIES } from './query-step';

describe('chooseStep', () => {
  it('picks the smallest round step keeping 250 points or fewer', () => {
    expect(chooseStep(60)).toEqual({ step: 1 });
    expect(chooseStep(3600)).toEqual({ step: 15 });
    expect(chooseStep(6 * 3600)).toEqual({ step: 120 });
    expect(chooseStep(30 * 86400).step).toBeGreaterThanOrEqual((30 * 86400) / 249);
    for (const range of [10, 599, 3601, 86400, 7 * 86400]) expect(Math.floor(range / chooseStep(range).step) + 1).toBeLessThanOrEqual(250);
  });

  it('keeps a requested step unless Prometheus would refuse it, then raises it just enough', () => {
    expect(chooseStep(3600, 0.5)).toEqual({ step: 0.5 });
    const raised = chooseStep(86400, 1);
    expect(raised.raisedFrom).toBe(1);
    expect(86400 / raised.step).toBeLessThanOrEqual(MAX_POINTS_PER_SERIES);
    expect(86400 / (raised.step - 0.001)).toBeGreaterThan(MAX_POINTS_PER_SERIES);
  });
});
