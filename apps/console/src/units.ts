/**
 * The unit of what a PromQL query returns, read from the metric names it uses (Prometheus's naming
 * conventions: `_seconds`, `_bytes`, `_total` counters, `_ratio`), and values written in it.
 */
export type Unit = 'seconds' | 'bytes' | 'bytes per second' | 'per second' | 'share' | 'percent' | 'cores' | 'number';

/** Metric names a query reads: identifiers followed by a selector or a range, and bare ones. */
function metricNames(query: string): string[] {
  const names = new Set<string>();
  const withoutStrings = query.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""');
  for (const found of withoutStrings.matchAll(/([a-zA-Z_:][a-zA-Z0-9_:]*)\s*(?=[{[])/g)) names.add(found[1]);
  // `by (le)`, functions and keywords are not metrics: only names with an underscore or colon count when bare.
  for (const found of withoutStrings.matchAll(/(?<![\w{,=])([a-zA-Z_:][a-zA-Z0-9_:]*_[a-zA-Z0-9_:]+)(?![\w(])/g)) names.add(found[1]);
  return [...names].filter((n) => !/^(?:by|without|on|ignoring|group_left|group_right|offset|bool|and|or|unless)$/.test(n));
}

export function unitOf(query: string | null | undefined): Unit {
  if (!query) return 'number';
  const names = metricNames(query);
  const rated = /\b(?:i?rate|increase|deriv)\s*\(/.test(query);
  const divided = /[^/]\/[^/]/.test(query.replace(/\{[^}]*\}/g, '{}').replace(/\[[^\]]*\]/g, '[]'));
  const base = names.map((n) => n.replace(/_(?:bucket|sum|count|total|created)$/, ''));
  if (base.some((n) => n.endsWith('_ratio'))) return 'share';
  if (base.some((n) => n.endsWith('_percent'))) return 'percent';
  // errors / requests: two counters of the same kind divided is a share.
  if (
    divided &&
    names.filter((n) => n.endsWith('_total') || n.endsWith('_count')).length >= 2 &&
    !base.some((n) => n.endsWith('_seconds') && !/_count$/.test(n))
  )
    return 'share';
  if (/histogram_quantile\s*\(/.test(query) && base.some((n) => n.endsWith('_seconds'))) return 'seconds';
  if (base.some((n) => n.endsWith('_bytes'))) return rated ? 'bytes per second' : 'bytes';
  // A rate of seconds spent is seconds per second: CPU cores busy, or a dimensionless load.
  if (base.some((n) => n.endsWith('_seconds')))
    return rated && names.some((n) => n.endsWith('_seconds_total')) ? (names.some((n) => n.includes('cpu')) ? 'cores' : 'number') : 'seconds';
  if (rated) return 'per second';
  return 'number';
}

const significant = (value: number, digits = 3): string => {
  if (value === 0) return '0';
  const text = Number(value.toPrecision(digits)).toString();
  return text.includes('e') ? value.toExponential(digits - 1) : text;
};

/** A value in its unit, to three significant digits: "420 ms", "1.5 GiB", "12.5 %", "3.2/s". */
export function formatValue(value: number | null | undefined, unit: Unit): string {
  if (value === null || value === undefined || Number.isNaN(value)) return '—';
  if (!Number.isFinite(value)) return value > 0 ? '+Inf' : '-Inf';
  const magnitude = Math.abs(value);
  switch (unit) {
    case 'seconds':
      if (magnitude === 0) return '0 s';
      if (magnitude < 1e-3) return `${significant(value * 1e6)} µs`;
      if (magnitude < 1) return `${significant(value * 1e3)} ms`;
      return `${significant(value)} s`;
    case 'bytes':
    case 'bytes per second': {
      const steps = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
      let scaled = value;
      let step = 0;
      while (Math.abs(scaled) >= 1024 && step < steps.length - 1) {
        scaled /= 1024;
        step++;
      }
      return `${significant(scaled)} ${steps[step]}${unit === 'bytes per second' ? '/s' : ''}`;
    }
    case 'share':
      return `${significant(value * 100)} %`;
    case 'percent':
      return `${significant(value)} %`;
    case 'per second':
      return `${significant(value)}/s`;
    case 'cores':
      return `${significant(value)} cores`;
    default:
      return significant(value);
  }
}

/** The axis title of a unit. */
export function unitLabel(unit: Unit): string {
  return unit === 'share' ? 'share (%)' : unit === 'number' ? 'value' : unit;
}

/** Numbers with more than four decimals in a text the service wrote (a run's summary), to four significant digits. */
export function roundedNumbers(text: string): string {
  return text.replace(/(?<![\w.])-?\d+\.\d{5,}(?:e[-+]?\d+)?(?![\w.])/gi, (found) => significant(Number(found), 4));
}
