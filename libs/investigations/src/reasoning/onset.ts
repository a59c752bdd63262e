import type { SeriesOut } from './series-reading';

/**
 * A condition's samples further apart than this many steps belong to separate episodes: the rule
 * stopped holding in between (a range query's lookback and an evaluation's jitter can drop one
 * sample of a condition that held; two in a row mean it did not).
 */
const EPISODE_GAP_STEPS = 2n;

/**
 * When the episode that ends at `until` began: the condition's last rise before `until`, held up
 * to it. `times` are the epoch-microsecond times at which the condition held (in any order),
 * `step` the read's step. The stretch of samples no more than EPISODE_GAP_STEPS steps apart
 * that contains the last sample at or before `until` is the episode; an earlier stretch is an
 * earlier, separate episode of the same condition and did not start this one. Null when the
 * condition did not hold at or before `until`.
 */
export function episodeStart(times: readonly bigint[], step: bigint, until: bigint): bigint | null {
  const sorted = [...new Set(times)].filter((t) => t <= until).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (sorted.length === 0) return null;
  const gap = (step > 0n ? step : 1n) * EPISODE_GAP_STEPS;
  let start = sorted.length - 1;
  while (start > 0 && sorted[start] - sorted[start - 1] <= gap) start -= 1;
  return sorted[start];
}

/**
 * Whether the condition held up to `at`: its last sample at or before `at` is no more than
 * EPISODE_GAP_STEPS steps before it. A condition whose last episode ended earlier did not hold
 * when the alert fired (an alert raised by hand, or by a rule the data does not reproduce).
 */
export function heldUpTo(times: readonly bigint[], step: bigint, at: bigint): boolean {
  const gap = (step > 0n ? step : 1n) * EPISODE_GAP_STEPS;
  return times.some((t) => t <= at && at - t <= gap);
}

/**
 * The series of a condition that are the alerts' own: those whose labels the alerts carry (an
 * alert's labels are its series' labels with the rule's added). Every series when none is (an
 * alert relabelled on its way, or a condition over an aggregate the alerts do not name).
 */
export function alertsOwnSeries(series: readonly SeriesOut[], alerts: ReadonlyArray<Record<string, string>>): SeriesOut[] {
  const own = series.filter((s) =>
    alerts.some((labels) =>
      Object.entries(s.metric)
        .filter(([k]) => k !== '__name__')
        .every(([k, v]) => labels[k] === v),
    ),
  );
  return own.length ? own : [...series];
}
