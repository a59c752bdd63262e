import type { RecordedRun } from './reasoner';

/**
 * The numbers a reasoner states, checked against the runs it cites: a measured number (one with
 * a unit, or with decimals) must be one a cited run shows. Counts and list numbers (integers
 * without a unit), times of day, dates, spans between times (`12 min`), versions and run
 * ordinals are not measured numbers.
 */

/** A measured number as written, and the values it may stand for in a run: as written, and in base units. */
export interface StatedNumber {
  text: string;
  /** Each value with how far a rounded number may be from what it rounds (half its last digit). */
  readings: Array<{ value: number; rounding: number }>;
}

/** Base units per unit written; units whose numbers a run may hold as written map to 1. */
const UNITS: Record<string, number> = {
  '%': 0.01,
  ms: 1e-3,
  s: 1,
  sec: 1,
  secs: 1,
  second: 1,
  seconds: 1,
  'req/s': 1,
  rps: 1,
  core: 1,
  cores: 1,
  b: 1,
  byte: 1,
  bytes: 1,
  kib: 1024,
  mib: 1024 ** 2,
  gib: 1024 ** 3,
  tib: 1024 ** 4,
  kb: 1e3,
  mb: 1e6,
  gb: 1e9,
  tb: 1e12,
};

// A number not inside a word, a version, a time, a date, an ordinal or a path; then its unit, if any.
const NUMBER =
  /(?<![\w.#:/-])(\d+(?:\.\d+)?)(?:\s?(%|ms|req\/s|rps|cores?|[KMGT]i?B|bytes?|B|seconds?|secs?|sec|s|minutes?|mins?|min|hours?|hrs?|h|days?))?(?![\w.:/-]*\d)(?![\w%])/gi;

/** Spans between times (`12 min before`): derived from times the runs show, not measured. */
const SPANS = /^(minutes?|mins?|hours?|hrs?|h|days?)$/i;

/** The measured numbers of a text. */
export function statedNumbers(text: string): StatedNumber[] {
  const found: StatedNumber[] = [];
  for (const m of text.matchAll(NUMBER)) {
    const [, digits, unit] = m;
    if ((!unit && !digits.includes('.')) || (unit && SPANS.test(unit))) continue;
    const raw = Number(digits);
    const rounding = 0.5 * 10 ** -(digits.split('.')[1]?.length ?? 0);
    const scale = unit ? (UNITS[unit.toLowerCase()] ?? 1) : 1;
    const readings = [{ value: raw, rounding }, ...(scale === 1 ? [] : [{ value: raw * scale, rounding: rounding * scale }])];
    found.push({ text: m[0].trim(), readings });
  }
  return found;
}

/** Times in a run's text: their digits are no measurement (a sample at 05:27 shows no 27%). */
const TIMESTAMPS = /\d{4}-\d\d-\d\d(?:[T ][\d:.]+(?:Z|[+-]\d\d:?\d\d)?)?|\d\d:\d\d(?::\d\d(?:\.\d+)?)?/g;

/** Relative slack for numbers written to three significant digits. */
const RELATIVE = 0.02;

/**
 * What a run shows: every number in its output and in the query it ran (a threshold of the
 * expression it read, quoted back), and the range of each series' values.
 */
function shown(run: RecordedRun): { numbers: number[]; ranges: Array<[number, number]> } {
  const numbers: number[] = [];
  const ranges: Array<[number, number]> = [];
  const visit = (value: unknown): void => {
    if (typeof value === 'number' && Number.isFinite(value)) numbers.push(value);
    else if (typeof value === 'string')
      numbers.push(...[...value.replace(TIMESTAMPS, ' ').matchAll(/-?\d+(?:\.\d+)?(?:e[-+]?\d+)?/gi)].map((m) => Number(m[0])));
    else if (Array.isArray(value)) value.forEach(visit);
    else if (value && typeof value === 'object') {
      const series = value as { values?: unknown };
      if (Array.isArray(series.values) && series.values.every((p) => Array.isArray(p) && p.length === 2)) {
        const vs = (series.values as Array<[unknown, unknown]>).map(([, v]) => Number(v)).filter(Number.isFinite);
        if (vs.length) ranges.push([Math.min(...vs), Math.max(...vs)]);
      }
      Object.values(value).forEach(visit);
    }
  };
  visit(run.output);
  visit(run.arguments);
  return { numbers, ranges };
}

/**
 * The measured numbers of `text` that none of `runs` shows: no number of their output is within
 * rounding of it, and it lies within no series' range (a mean or a typical value of a series lies
 * within it). Empty when every number is shown.
 */
export function unshownNumbers(text: string, runs: readonly RecordedRun[]): string[] {
  const reads = runs.filter((r) => r.outcome === 'succeeded').map(shown);
  return statedNumbers(text)
    .filter(
      (n) =>
        !n.readings.some(({ value, rounding }) => {
          const slack = Math.max(Math.abs(value) * RELATIVE, rounding);
          return reads.some(
            (r) => r.numbers.some((x) => Math.abs(x - value) <= slack) || r.ranges.some(([lo, hi]) => value >= lo - slack && value <= hi + slack),
          );
        }),
    )
    .map((n) => n.text);
}
