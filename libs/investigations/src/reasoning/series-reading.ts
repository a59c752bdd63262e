import { Timestamp } from '@svc/platform';
import type { RecordedRun } from './reasoner';

/** One series of a range query's output. */
export interface SeriesOut {
  metric: Record<string, string>;
  values?: Array<[string, unknown]>;
  /** An instant query's one sample. */
  value?: [string, unknown];
}

export const MINUTE = 60_000_000n;

/** The series of a successful range or instant query (none for a failed run). */
export const seriesOf = (run: RecordedRun | undefined): SeriesOut[] =>
  run?.outcome === 'succeeded' ? ((run.output as { series?: SeriesOut[] } | null)?.series ?? []) : [];

/** The distinct times at which any series of a run has a sample, in order (epoch microseconds). */
export const sampleTimes = (run: RecordedRun | undefined): bigint[] =>
  [
    ...new Set(
      seriesOf(run)
        .flatMap((x) => (x.values ?? []).map(([t]) => Timestamp.parse(t)?.epochMicros))
        .filter((t): t is bigint => t !== undefined),
    ),
  ].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

/** A range query run's step in microseconds (its recorded stepSeconds, else `fallbackSeconds`). */
export const stepMicros = (run: RecordedRun, fallbackSeconds: number): bigint =>
  BigInt(Math.round(((run.output as { stepSeconds?: number } | null)?.stepSeconds ?? fallbackSeconds) * 1_000_000));

export const firstSampleAt = (series: SeriesOut): Timestamp | null => (series.values?.length ? Timestamp.parse(series.values[0][0]) : null);

export const earliest = (times: Array<Timestamp | null>): Timestamp | null =>
  times.reduce<Timestamp | null>((min, t) => (t && (!min || min.isAfter(t)) ? t : min), null);

export const minutesBetween = (a: Timestamp, b: Timestamp): number => Math.round(Number((b.epochMicros - a.epochMicros) / 1_000_000n) / 6) / 10;

export const shift = (t: Timestamp, micros: bigint): Timestamp => Timestamp.fromEpochMicros(t.epochMicros + micros);

/** `t` moved into the window (its start when before it, its end when after it). */
export const withinWindow = (t: Timestamp, window: { from: Timestamp; until: Timestamp }): Timestamp =>
  t.isBefore(window.from) ? window.from : t.isAfter(window.until) ? window.until : t;

export const round = (n: number): string => (n >= 10 ? n.toFixed(0) : n.toFixed(1));

/** The samples of a series as times and numbers, skipping values that are not numbers. */
export function pointsOf(series: SeriesOut): Array<{ t: Timestamp; v: number }> {
  return (series.values ?? [])
    .map(([t, v]) => ({ t: Timestamp.parse(t), v: Number(v) }))
    .filter((p): p is { t: Timestamp; v: number } => p.t !== null && Number.isFinite(p.v));
}

/**
 * When a series jumped: the first sample at least `ratio` times the median of the range's first
 * quarter (its usual level) and at least `minimum`; with that usual level and the value reached.
 */
export function jumpOf(series: SeriesOut, ratio: number, minimum: number): { at: Timestamp; usual: number; reached: number } | null {
  const points = pointsOf(series);
  if (points.length < 8) return null;
  const usual = points
    .slice(0, Math.floor(points.length / 4))
    .map((p) => p.v)
    .sort((a, b) => a - b);
  const baseline = usual[Math.floor(usual.length / 2)];
  const jump = points.find((p) => p.v >= Math.max(baseline * ratio, minimum));
  return jump ? { at: jump.t, usual: baseline, reached: Math.max(...points.filter((p) => !p.t.isBefore(jump.t)).map((p) => p.v)) } : null;
}

/** PromQL text of a regular expression matching exactly one of `values`. */
export const anyOf = (values: string[]): string => JSON.stringify(values.map((v) => v.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'));
