/**
 * Where a series changed, against its own earlier behaviour, with a robust score: the median and
 * the median absolute deviation (MAD) of its earlier samples are its usual level and spread, and
 * each later sample's distance from that level in spreads is its score. Robust statistics keep a
 * few spikes in the earlier samples from hiding a change, and a change from being found in noise.
 */
export interface Point {
  /** Epoch microseconds. */
  t: bigint;
  v: number;
}

export interface Change {
  /** Where the change began: the first sample of the sustained run, walked back while it was already leaving its usual level. */
  at: bigint;
  /** The median score of the run (distance from the usual level in robust spreads), capped at MAX_SCORE. */
  score: number;
  direction: 'up' | 'down';
  /** The usual level (median of the earlier samples) and the level reached (median of the run). */
  before: number;
  after: number;
}

/** A sample this many robust spreads from the usual level is out of it. */
export const CHANGE_SCORE = 4;
/** Half-way: where a change that is out of the usual level by its run started to leave it. */
const LEAVING_SCORE = 1.5;
/** The run must hold this many samples (or every sample left, when fewer remain): the last samples read may be the first of the change. */
const MIN_RUN = 2;
/** Scores are capped: a flat series that moves at all would otherwise score without bound. */
export const MAX_SCORE = 1000;
/** The spread is at least this share of the usual level: a steady series does not score tiny wobbles. */
const RELATIVE_FLOOR = 0.05;
/** MAD to a normal distribution's standard deviation. */
const MAD_SCALE = 1.4826;

export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

export interface ChangeOptions {
  /** Samples before this time are the series' earlier behaviour. */
  baselineUntil: bigint;
  /** The change must still hold at this time (the onset, with some slack): a change that came and went did not start the condition. */
  heldAt: bigint;
  /** Which direction counts ('either' for both). */
  worse: 'up' | 'down' | 'either';
  /** The smallest difference between the level reached and the usual level that counts (noise floor in the series' own unit). */
  minimumDelta?: number;
}

/**
 * The last sustained change of a series that still holds at `heldAt`: samples from
 * `baselineUntil` on that score CHANGE_SCORE or more in a direction that counts, at least MIN_RUN
 * of them in a row, reaching to within one sample of `heldAt`. Null when the series has too few
 * earlier samples to know its usual level, or did not change.
 */
export function changeOf(points: readonly Point[], options: ChangeOptions): Change | null {
  const sorted = [...points].filter((p) => Number.isFinite(p.v)).sort((a, b) => (a.t < b.t ? -1 : a.t > b.t ? 1 : 0));
  const earlier = sorted.filter((p) => p.t < options.baselineUntil).map((p) => p.v);
  if (earlier.length < 5) return null;
  const usual = median(earlier);
  const mad = median(earlier.map((v) => Math.abs(v - usual)));
  const spread = Math.max(MAD_SCALE * mad, RELATIVE_FLOOR * Math.abs(usual), Number.MIN_VALUE);
  const scoreOf = (v: number): { score: number; direction: 'up' | 'down' } => ({
    score: Math.min(MAX_SCORE, Math.abs(v - usual) / spread),
    direction: v >= usual ? 'up' : 'down',
  });
  const counts = (p: Point, threshold: number): boolean => {
    const s = scoreOf(p.v);
    return s.score >= threshold && (options.worse === 'either' || s.direction === options.worse);
  };
  const later = sorted.filter((p) => p.t >= options.baselineUntil && p.t <= options.heldAt);
  if (later.length === 0) return null;
  // The run that reaches the end: walk back from the last sample while samples are out of the usual level, in one direction.
  let end = later.length - 1;
  // One sample of slack at the end (the onset read may end a sample after the condition began to recover).
  if (!counts(later[end], CHANGE_SCORE) && end > 0 && counts(later[end - 1], CHANGE_SCORE)) end -= 1;
  if (!counts(later[end], CHANGE_SCORE)) return null;
  const direction = scoreOf(later[end].v).direction;
  let start = end;
  while (start > 0 && counts(later[start - 1], CHANGE_SCORE) && scoreOf(later[start - 1].v).direction === direction) start -= 1;
  const run = later.slice(start, end + 1);
  if (run.length < Math.min(MIN_RUN, later.length)) return null;
  // Where it began to leave its usual level, walked back through the samples already half-way out.
  let began = start;
  while (began > 0 && counts(later[began - 1], LEAVING_SCORE) && scoreOf(later[began - 1].v).direction === direction) began -= 1;
  const after = median(run.map((p) => p.v));
  // The level reached must differ from the usual one by the noise floor at least.
  if (Math.abs(after - usual) < (options.minimumDelta ?? 0)) return null;
  return { at: later[began].t, score: median(run.map((p) => scoreOf(p.v).score)), direction, before: usual, after };
}
