import { describe, expect, it } from 'vitest';
import { changeOf, MAX_SCORE, Point } from './change-points';

const MIN = 60_000_000n;
/** One sample a minute from minute 0, with a little deterministic noise. */
const series = (values: number[]): Point[] => values.map((v, i) => ({ t: BigInt(i) * MIN, v }));
const noisy = (n: number, level: number, wobble = 0.03): number[] => Array.from({ length: n }, (_, i) => level * (1 + wobble * Math.sin(i * 1.7)));
const options = { baselineUntil: 40n * MIN, heldAt: 60n * MIN, worse: 'up' as const };

describe('changeOf', () => {
  it('finds a sustained rise against the series own level and dates where it began to leave it', () => {
    const values = [...noisy(45, 0.2), 0.5, 1.2, 1.3, 1.25, 1.3, 1.28, 1.31, 1.3, 1.29, 1.3, 1.3, 1.3, 1.3, 1.3, 1.3, 1.3];
    const change = changeOf(series(values), options);
    expect(change).toMatchObject({ at: 45n * MIN, direction: 'up' });
    expect(change!.before).toBeCloseTo(0.2, 1);
    expect(change!.after).toBeCloseTo(1.3, 1);
    expect(change!.score).toBeGreaterThan(20);
  });

  it('is not fooled by noise, nor by a spike that came and went before the onset', () => {
    expect(changeOf(series(noisy(61, 5, 0.1)), options)).toBeNull();
    const spike = noisy(61, 5, 0.02);
    spike[48] = 50;
    spike[49] = 50;
    expect(changeOf(series(spike), options)).toBeNull();
  });

  it('keeps a few earlier spikes from hiding the change (median and MAD, not mean and deviation)', () => {
    const values = noisy(61, 1, 0.02);
    values[5] = 40;
    values[17] = 55;
    for (let i = 50; i <= 60; i++) values[i] = 3;
    expect(changeOf(series(values), options)).toMatchObject({ at: 50n * MIN, direction: 'up' });
  });

  it('counts only the direction that is worse, or either', () => {
    const values = [...noisy(50, 1), ...Array(11).fill(0)];
    expect(changeOf(series(values), options)).toBeNull();
    expect(changeOf(series(values), { ...options, worse: 'down' })).toMatchObject({ at: 50n * MIN, direction: 'down', after: 0 });
    expect(changeOf(series(values), { ...options, worse: 'either' })).toMatchObject({ direction: 'down' });
  });

  it('scores a flat series that moves with a capped score, and ignores moves below the noise floor', () => {
    const flat = [...Array(50).fill(0), ...Array(11).fill(2)];
    expect(changeOf(series(flat), options)).toMatchObject({ at: 50n * MIN, score: MAX_SCORE });
    expect(changeOf(series(flat), { ...options, minimumDelta: 5 })).toBeNull();
  });

  it('needs enough earlier samples to know the usual level, and a run of several samples', () => {
    expect(changeOf(series([1, 1, 1, 5, 5, 5]), { ...options, baselineUntil: 3n * MIN })).toBeNull();
    const one = [...noisy(60, 1), 9];
    expect(changeOf(series(one), options)).toBeNull();
  });
});
