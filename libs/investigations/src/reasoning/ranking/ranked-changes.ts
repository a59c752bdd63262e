import { Timestamp } from '@svc/platform';
import { groupLabel, Measure, measureExpression, PrometheusReader, Subject } from '../discovery/related-series';
import { failedOutcome } from '../discovery/meaning';
import type { RecordedRun } from '../reasoner';
import { pointsOf, round, SeriesOut, seriesOf } from '../series-reading';
import { Change, CHANGE_SCORE, changeOf, Point } from './change-points';

/** A change of one measure on one entity, dated and scored, with the run that read it. */
export interface RankedChange {
  /** The entity the change is on: the callee a caller's series names, else the value of the naming label. */
  entity: string;
  /** What changed, in words: "the failure ratio of checkout's calls to inventory (istio_requests_total)". */
  what: string;
  measure: Measure;
  labels: Record<string, string>;
  change: Change;
  run: RecordedRun;
}

/** Measures read per query: enough to rank in few runs, few enough that the output is not cut. */
const MEASURES_PER_READ = 6;
const SERIES_PER_READ = 30;
/** How far before the onset the ranking reads, and where the series' earlier behaviour ends. */
const LOOKBACK_MINUTES = 45n;
const BASELINE_END_MINUTES = 20n;
const STEP_SECONDS = 60;
const STEP_MICROS = BigInt(STEP_SECONDS) * 1_000_000n;
/** The read runs past the onset: a cause holds on after it, and the samples after show it held. */
const AFTER_ONSET_MINUTES = 5n;
const MINUTE = 60_000_000n;
/** A change must hold at least this score to be ranked. */
const STRONG = CHANGE_SCORE * 1.5;
/** A surge of traffic adds at least this many events a second. */
const SURGE_MIN_RATE = 1;
/** Smallest differences that count, per kind: a failure ratio moves by two points, a target goes fully down. */
const MINIMUM_DELTA: Partial<Record<string, number>> = { errors: 0.02, availability: 0.5 };

/**
 * The smallest difference that counts for a measure: its kind's, or by its unit (a twentieth of
 * a core of CPU, 20 ms of latency; a millisecond histogram in its own unit), so that a tiny
 * series that doubles from nearly nothing is not ranked as a cause.
 */
function minimumDelta(m: Measure): number | undefined {
  if (MINIMUM_DELTA[m.meaning.kind] !== undefined) return MINIMUM_DELTA[m.meaning.kind];
  if (m.meaning.resource === 'cpu' && m.meaning.counter && m.meaning.unit === 'seconds') return 0.05;
  if (m.meaning.kind === 'latency') return m.meaning.unit === 'milliseconds' ? 20 : m.meaning.unit === 'microseconds' ? 20_000 : 0.02;
  return undefined;
}

/** Points of a failure ratio from series split by outcome: failed over all, at each time. */
function failureRatio(series: SeriesOut[], outcomeLabel: string): Point[] {
  const all = new Map<bigint, number>();
  const failed = new Map<bigint, number>();
  for (const s of series) {
    const fails = failedOutcome({ [outcomeLabel]: s.metric[outcomeLabel] ?? '' }) === true;
    for (const p of pointsOf(s)) {
      all.set(p.t.epochMicros, (all.get(p.t.epochMicros) ?? 0) + p.v);
      if (fails) failed.set(p.t.epochMicros, (failed.get(p.t.epochMicros) ?? 0) + p.v);
    }
  }
  return [...all.entries()].map(([t, v]) => ({ t, v: v > 0 ? (failed.get(t) ?? 0) / v : 0 }));
}

function describe(m: Measure, labels: Record<string, string>): { entity: string; what: string } {
  const own = labels[groupLabel(m)] ?? '';
  const peer = m.peerLabel ? labels[m.peerLabel] : undefined;
  const subject = peer ? `${own}'s calls to ${peer}` : own;
  const what = m.derived
    ? `${m.derived.what} of ${subject}`
    : m.meaning.kind === 'errors' && m.outcomeLabel
      ? `the failure ratio of ${subject}`
      : m.meaning.kind === 'latency'
        ? `the ${m.meaning.distribution === 'histogram' ? 'p90 ' : ''}latency of ${subject}`
        : m.meaning.kind === 'throughput'
          ? `the rate of ${subject}`
          : m.meaning.kind === 'saturation' &&
              m.meaning.resource &&
              m.meaning.resource !== 'requests' &&
              /usage|used|utili[sz]ation|working_set|in_use/.test(m.metric)
            ? `the ${m.meaning.resource === 'cpu' ? 'CPU' : m.meaning.resource} use of ${subject}`
            : `${m.metric.replace(/_total$/, '')} of ${subject}`;
  return { entity: peer ?? own, what: `${what} (${m.metric})` };
}

/** The value of a change in the measure's terms: a share as a percentage, a rate, or the number itself. */
export function level(m: Measure, v: number): string {
  if (m.meaning.kind === 'errors' && m.outcomeLabel) return `${round(v * 100)}%`;
  // A ratio by its name that reads past 1.5 is a percentage already (a cloud exporter's utilization).
  if (m.meaning.unit === 'ratio') return `${round(Math.abs(v) > 1.5 && !m.derived ? v : v * 100)}%`;
  if (m.meaning.unit === 'percent') return `${round(v)}%`;
  // A counter of seconds read as a rate is a share of one second per second: cores for CPU time.
  if (m.meaning.counter && !m.meaning.distribution && m.meaning.unit === 'seconds')
    return `${Number(v.toPrecision(3))}${m.meaning.resource === 'cpu' ? ' cores' : ' s/s'}`;
  const unit = m.meaning.unit === 'seconds' ? ' s' : m.meaning.unit === 'milliseconds' ? ' ms' : m.meaning.unit === 'bytes' ? ' bytes' : '';
  return `${Number(v.toPrecision(3))}${unit}${m.meaning.counter && !m.meaning.distribution ? '/s' : ''}`;
}

/**
 * Ranks the changes of the measures near the onset: each measure's expression over the entity,
 * read from LOOKBACK_MINUTES before the onset, scored against its own earlier behaviour
 * (changeOf), the failure ratio of a call or request split by outcome. Strong changes that began
 * by the onset and still hold are ranked by byStrengthThenTime. `isSymptom` leaves out the
 * condition's own series.
 */
export interface RankOptions {
  /** Range reads the ranking may make. */
  reads: number;
  /** Minutes read before the onset (LOOKBACK_MINUTES by default). */
  lookbackMinutes?: bigint;
  isSymptom(change: RankedChange): boolean;
  canCause?(measure: Measure): boolean;
}

export async function rankChanges(
  read: PrometheusReader,
  measures: Measure[],
  subject: Subject,
  onset: Timestamp,
  options: RankOptions,
): Promise<{ changes: RankedChange[]; runs: RecordedRun[] }> {
  const runs: RecordedRun[] = [];
  const readable = measures.filter((m) => options.canCause?.(m) ?? true);
  const changes: RankedChange[] = [];
  const start = Timestamp.fromEpochMicros(onset.epochMicros - (options.lookbackMinutes ?? LOOKBACK_MINUTES) * MINUTE).toISOString();
  const end = Timestamp.fromEpochMicros(onset.epochMicros + AFTER_ONSET_MINUTES * MINUTE).toISOString();
  for (const some of batches(readable).slice(0, options.reads)) {
    const query = some.map((m) => `label_replace(${measureExpression(m, subject)}, "measure", "${measures.indexOf(m)}", "", "")`).join(' or ');
    const run = await read(
      'prometheus.query_range',
      { query, start, end, step: STEP_SECONDS },
      `Which of ${some.map((m) => m.metric).join(', ')} changed near the onset, against their own earlier behaviour?`,
    );
    runs.push(run);
    changes.push(...changesOf(run, measures, onset).filter((c) => !options.isSymptom(c)));
  }
  changes.sort(byStrengthThenTime);
  return { changes, runs };
}

/** The range reads rankChanges makes to read every one of `measures` (as many as its `reads` allow). */
export const readsNeeded = (measures: Measure[]): number => batches(measures).length;

/** Buckets of a latency histogram, about: its p90 is one series of every this many it has. */
const BUCKETS_PER_HISTOGRAM = 10;

/** About how many series a read of a measure returns: a histogram's p90 is one series of its buckets. */
const seriesRead = (m: Measure): number => Math.max(1, Math.ceil((m.series ?? 1) / (m.meaning.distribution === 'histogram' ? BUCKETS_PER_HISTOGRAM : 1)));

/**
 * Measures in reads of at most MEASURES_PER_READ measures and about SERIES_PER_READ series (as
 * the discovery counted them), so that a read's output keeps its every sample under the run
 * output cap; a measure with more series than that is read alone.
 */
function batches(measures: Measure[]): Measure[][] {
  const out: Measure[][] = [];
  let current: Measure[] = [];
  let series = 0;
  for (const m of measures) {
    const n = seriesRead(m);
    if (current.length && (current.length >= MEASURES_PER_READ || series + n > SERIES_PER_READ)) {
      out.push(current);
      current = [];
      series = 0;
    }
    current.push(m);
    series += n;
  }
  if (current.length) out.push(current);
  return out;
}

/**
 * The ranking's order: by strength in doublings of the score (a change many times stronger is
 * what moved, a weaker one may be its echo or noise), then earliest first among changes of about
 * the same strength (the first to move is the candidate cause, the rest may follow from it).
 */
export function byStrengthThenTime(a: RankedChange, b: RankedChange): number {
  const strength = (c: RankedChange): number => Math.floor(Math.log2(Math.max(1, c.change.score)));
  return strength(b) - strength(a) || (a.change.at < b.change.at ? -1 : a.change.at > b.change.at ? 1 : b.change.score - a.change.score);
}

/** Earlier samples a series needs before BASELINE_END_MINUTES for that to end its earlier behaviour. */
const MIN_BASELINE_POINTS = 8;

/**
 * Where a series' earlier behaviour ends: BASELINE_END_MINUTES before the onset, or, for a series
 * with too little history before then (data that begins shortly before the onset), half-way
 * through its samples up to the onset.
 */
function baselineEnd(points: Point[], onset: bigint): bigint {
  const usual = onset - BASELINE_END_MINUTES * MINUTE;
  if (points.filter((p) => p.t < usual).length >= MIN_BASELINE_POINTS) return usual;
  const before = points
    .filter((p) => p.t <= onset)
    .map((p) => p.t)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return before.length ? before[Math.floor(before.length / 2)] : usual;
}

/** The strong changes in a ranking read (series tagged with their measure's index). */
export function changesOf(run: RecordedRun, measures: Measure[], onset: Timestamp): RankedChange[] {
  const groups = new Map<string, { measure: Measure; labels: Record<string, string>; series: SeriesOut[] }>();
  for (const s of seriesOf(run)) {
    const measure = measures[Number(s.metric.measure)];
    if (!measure) continue;
    const labels = Object.fromEntries(Object.entries(s.metric).filter(([k]) => k !== 'measure' && k !== measure.outcomeLabel));
    const key = `${s.metric.measure}${JSON.stringify(labels)}`;
    const group = groups.get(key) ?? { measure, labels, series: [] };
    group.series.push(s);
    groups.set(key, group);
  }
  const out: RankedChange[] = [];
  for (const { measure, labels, series } of groups.values()) {
    const points: Point[] = measure.outcomeLabel
      ? failureRatio(series, measure.outcomeLabel)
      : series.flatMap(pointsOf).map((p) => ({ t: p.t.epochMicros, v: p.v }));
    const change = changeOf(points, {
      baselineUntil: baselineEnd(points, onset.epochMicros),
      heldAt: onset.epochMicros + AFTER_ONSET_MINUTES * MINUTE,
      worse: measure.meaning.worse,
      minimumDelta: minimumDelta(measure),
    });
    // A change that began after the onset followed the condition; it did not start it.
    if (!change || change.score < STRONG || change.at - STEP_MICROS > onset.epochMicros) continue;
    // Traffic counts as a surge: at least twice its usual rate and a request a second more.
    if (measure.meaning.kind === 'throughput' && !(change.after >= 2 * change.before && change.after - change.before >= SURGE_MIN_RATE)) continue;
    // Read at STEP_SECONDS, the change began after the last usual sample: dated from there, the
    // earliest it can have begun (a rate over a window shows it a step late, a condition read more finely does not).
    out.push({ ...describe(measure, labels), measure, labels, change: { ...change, at: change.at - STEP_MICROS }, run });
  }
  return out;
}
