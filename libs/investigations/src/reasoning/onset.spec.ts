import { describe, expect, it } from 'vitest';
import { alertsOwnSeries, episodeStart, heldUpTo } from './onset';

const MIN = 60_000_000n;
const minutes = (...m: number[]): bigint[] => m.map((x) => BigInt(x) * MIN);
const range = (from: number, to: number): bigint[] => minutes(...Array.from({ length: to - from + 1 }, (_, i) => from + i));

describe('episodeStart', () => {
  it('dates the episode the alert belongs to, not an earlier separate blip of the same condition', () => {
    const times = [...range(10, 12), ...range(40, 55)];
    expect(episodeStart(times, MIN, 50n * MIN)).toBe(40n * MIN);
  });

  it('keeps one missing sample inside an episode, and splits at two', () => {
    expect(episodeStart([...range(30, 34), ...range(36, 45)], MIN, 45n * MIN)).toBe(30n * MIN);
    expect(episodeStart([...range(30, 34), ...range(38, 45)], MIN, 45n * MIN)).toBe(38n * MIN);
  });

  it('ignores what comes after the alert fired, in any order of samples', () => {
    expect(episodeStart([...range(50, 55), ...range(20, 30)].reverse(), MIN, 31n * MIN)).toBe(20n * MIN);
  });

  it('is null when the condition never held up to then', () => {
    expect(episodeStart(range(50, 55), MIN, 40n * MIN)).toBeNull();
    expect(episodeStart([], MIN, 40n * MIN)).toBeNull();
  });
});

describe('heldUpTo', () => {
  it('holds when the condition held within two steps before the time, in any order of samples', () => {
    expect(heldUpTo([...range(20, 30), ...range(40, 48)].reverse(), MIN, 50n * MIN)).toBe(true);
    expect(heldUpTo(range(40, 49), MIN, 50n * MIN)).toBe(true);
  });

  it('does not hold when its last episode ended earlier, or only after the time, or never', () => {
    expect(heldUpTo(range(20, 30), MIN, 50n * MIN)).toBe(false);
    expect(heldUpTo(range(51, 55), MIN, 50n * MIN)).toBe(false);
    expect(heldUpTo([], MIN, 50n * MIN)).toBe(false);
  });
});

describe('alertsOwnSeries', () => {
  const a = { metric: { __name__: 'x', job: 'api', pod: 'api-1' } };
  const b = { metric: { job: 'api', pod: 'api-2' } };

  it('keeps the series whose labels the alerts carry', () => {
    expect(alertsOwnSeries([a, b], [{ alertname: 'A', job: 'api', pod: 'api-2', severity: 'critical' }])).toEqual([b]);
  });

  it('keeps every series when the alerts carry none of them', () => {
    expect(alertsOwnSeries([a, b], [{ alertname: 'A', job: 'api' }])).toEqual([a, b]);
  });
});
