import { Timestamp } from '@svc/platform';
import { Measure, measureExpression, PrometheusReader } from '../discovery/related-series';
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
/** How far before the onset the ranking reads, and where the series' earlier behaviour ends. */
const LOOKBACK_MINUTES = 45n;
const BASELINE_END_MINUTES = 20n;
const STEP_SECONDS = 60;
/** The read runs past the onset: a cause holds on after it, and the samples after show it held. */
const AFTER_ONSET_MINUTES = 5n;
const MINUTE = 60_000_000n;
/** A change must hold at least this score to be ranked. */
const STRONG = CHANGE_SCORE * 1.5;
/** Smallest differences that count, per kind: a failure ratio moves by two points, a target goes fully down. */
const MINIMUM_DELTA: Partial<Record<string, number>> = { errors: 0.02, availability: 0.5 };

const sum = (values: number[]): number => values.reduce((a, b) => a + b, 0);

/** Points of a failure ratio from series split by outcome: failed over all, at each time. */
function failureRatio(series: SeriesOut[], outcomeLabel: string): Point[] {
  const all = new Map<bigint, number[]>();
  const failed = new Map<bigint, number[]>();
  for (const s of series) {
    const fails = failedOutcome({ [outcomeLabel]: s.metric[outcomeLabel] ?? '' }) === true;
    for (const p of pointsOf(s)) {
      all.set(p.t.epochMicros, [...(all.get(p.t.epochMicros) ?? []), p.v]);
      if (fails) failed.set(p.t.epochMicros, [...(failed.get(p.t.epochMicros) ?? []), p.v]);
    }
  }
  return [...all.entries()].map(([t, v]) => ({ t, v: sum(v) > 0 ? sum(failed.get(t) ?? []) / sum(v) : 0 }));
}

function describe(m: Measure, labels: Record<string, string>): { entity: string; what: string } {
  const own = labels[m.label] ?? '';
  const peer = m.peerLabel ? labels[m.peerLabel] : undefined;
  const subject = peer ? `${own}'s calls to ${peer}` : own;
  const what =
    m.meaning.kind === 'errors' && m.outcomeLabel
      ? `the failure ratio of ${subject}`
      : m.meaning.kind === 'latency'
        ? `the p90 latency of ${subject}`
        : m.meaning.kind === 'throughput'
          ? `the rate of ${subject}`
          : `${m.metric.replace(/_total$/, '')} of ${subject}`;
  return { entity: peer ?? own, what: `${what} (${m.metric})` };
}

/** The value of a change in the measure's terms: a share as a percentage, a rate, or the number itself. */
export function level(m: Measure, v: number): string {
  if (m.meaning.kind === 'errors' && m.outcomeLabel) return `${round(v * 100)}%`;
  const unit = m.meaning.unit === 'seconds' ? ' s' : m.meaning.unit === 'milliseconds' ? ' ms' : m.meaning.unit === 'bytes' ? ' bytes' : '';
  return `${Number(v.toPrecision(3))}${unit}${m.meaning.counter && !m.meaning.distribution && m.meaning.unit !== 'seconds' ? '/s' : ''}`;
}

/**
 * Ranks the changes of the measures near the onset: each measure's expression over the entity,
 * read from LOOKBACK_MINUTES before the onset, scored against its own earlier behaviour
 * (changeOf), the failure ratio of a call or request split by outcome. Strong changes that still
 * hold at the onset are ranked earliest first (the first to move is the candidate cause, the rest
 * may follow from it), then by score. `isSymptom` leaves out the condition's own series.
 */
export async function rankChanges(
  read: PrometheusReader,
  measures: Measure[],
  entityPattern: string,
  onset: Timestamp,
  options: { reads: number; isSymptom(change: RankedChange): boolean; canCause?(measure: Measure): boolean },
): Promise<{ changes: RankedChange[]; runs: RecordedRun[] }> {
  const runs: RecordedRun[] = [];
  measures = measures.filter((m) => options.canCause?.(m) ?? true);
  const changes: RankedChange[] = [];
  const start = Timestamp.fromEpochMicros(onset.epochMicros - LOOKBACK_MINUTES * MINUTE).toISOString();
  const end = Timestamp.fromEpochMicros(onset.epochMicros + AFTER_ONSET_MINUTES * MINUTE).toISOString();
  for (let batch = 0; batch < options.reads && batch * MEASURES_PER_READ < measures.length; batch++) {
    const some = measures.slice(batch * MEASURES_PER_READ, (batch + 1) * MEASURES_PER_READ);
    const query = some
      .map((m, i) => `label_replace(${measureExpression(m, entityPattern)}, "measure", "${batch * MEASURES_PER_READ + i}", "", "")`)
      .join(' or ');
    const run = await read(
      'prometheus.query_range',
      { query, start, end, step: STEP_SECONDS },
      `Which of ${some.map((m) => m.metric).join(', ')} changed near the onset, against their own earlier behaviour?`,
    );
    runs.push(run);
    changes.push(...changesOf(run, measures, onset).filter((c) => !options.isSymptom(c)));
  }
  changes.sort((a, b) => (a.change.at < b.change.at ? -1 : a.change.at > b.change.at ? 1 : b.change.score - a.change.score));
  return { changes, runs };
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
      baselineUntil: onset.epochMicros - BASELINE_END_MINUTES * MINUTE,
      heldAt: onset.epochMicros + AFTER_ONSET_MINUTES * MINUTE,
      worse: measure.meaning.worse,
      minimumDelta: MINIMUM_DELTA[measure.meaning.kind],
    });
    // A change that began after the onset followed the condition; it did not start it.
    if (!change || change.score < STRONG || change.at > onset.epochMicros + MINUTE) continue;
    out.push({ ...describe(measure, labels), measure, labels, change, run });
  }
  return out;
}
