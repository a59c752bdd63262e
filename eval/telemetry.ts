import { createWriteStream } from 'node:fs';
import { once } from 'node:events';

export type Labels = Record<string, string>;

/** One series: a metric name, its labels, and a value per scrape (NaN: not scraped then). */
interface Series {
  name: string;
  labels: Labels;
  values: Float64Array;
}

/**
 * The samples a Prometheus would have scraped over a period, at a fixed scrape interval, kept in
 * memory and written as OpenMetrics text for `promtool tsdb create-blocks-from openmetrics`.
 */
export class Telemetry {
  readonly times: number[];
  private readonly series = new Map<string, Series>();
  private readonly written = new Set<string>();
  /** Series written twice with different values (two emitters naming different things alike). */
  readonly conflicts: string[] = [];

  /** `end`: the last scrape (Unix seconds); `hours` of scrapes every `interval` seconds before it. */
  constructor(
    readonly end: number,
    readonly hours: number,
    readonly interval = 30,
  ) {
    const count = Math.floor((hours * 3600) / interval) + 1;
    this.times = Array.from({ length: count }, (_, i) => end - (count - 1 - i) * interval);
  }

  get start(): number {
    return this.times[0];
  }

  get seriesCount(): number {
    return this.series.size;
  }

  /** The label sets of every series of `name` that has at least one sample. */
  labelsOf(name: string): Labels[] {
    return [...this.series.values()].filter((s) => s.name === name && s.values.some((v) => !Number.isNaN(v))).map((s) => s.labels);
  }

  /** The samples of every series of `name` (in time order, scrapes without one left out), with its labels. */
  samplesOf(name: string): Array<{ labels: Labels; values: number[] }> {
    return [...this.series.values()].filter((s) => s.name === name).map((s) => ({ labels: s.labels, values: [...s.values].filter((v) => !Number.isNaN(v)) }));
  }

  /** The names of the metrics with at least one sample. */
  metricNames(): Set<string> {
    return new Set([...this.series.values()].filter((s) => s.values.some((v) => !Number.isNaN(v))).map((s) => s.name));
  }

  /** The series of `name` with `labels`, created empty (never scraped) when new. */
  private get(name: string, labels: Labels): Series {
    const key = this.key(name, labels);
    let s = this.series.get(key);
    if (!s) {
      s = { name, labels, values: new Float64Array(this.times.length).fill(NaN) };
      this.series.set(key, s);
    }
    return s;
  }

  private key(name: string, labels: Labels): string {
    return `${name}{${Object.entries(labels)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
      .join(',')}}`;
  }

  /** Writes a series through `write`, noting a conflict when an earlier write left other values. */
  private write(name: string, labels: Labels, write: (s: Series) => void): void {
    const s = this.get(name, labels);
    const key = this.key(name, labels);
    const before = this.written.has(key) ? Float64Array.from(s.values) : undefined;
    this.written.add(key);
    write(s);
    if (before && before.some((v, i) => !Object.is(v, s.values[i]))) this.conflicts.push(key);
  }

  /** A gauge: `value(t)` at each scrape; undefined where the series was not exposed. */
  gauge(name: string, labels: Labels, value: (t: number, i: number) => number | undefined): void {
    this.write(name, labels, (s) =>
      this.times.forEach((t, i) => {
        const v = value(t, i);
        if (v !== undefined && Number.isFinite(v)) s.values[i] = v;
      }),
    );
  }

  /**
   * A counter: integrates `rate(t)` (per second) from `initial`; it is exposed only while
   * `alive(t)`, and starts again from zero at every time in `resets` (a process restart).
   */
  counter(
    name: string,
    labels: Labels,
    rate: (t: number) => number,
    options: { initial?: number; alive?: (t: number) => boolean; resets?: number[]; integer?: boolean } = {},
  ): void {
    this.write(name, labels, (s) => this.integrate(s, rate, options));
  }

  private integrate(
    s: Series,
    rate: (t: number) => number,
    options: { initial?: number; alive?: (t: number) => boolean; resets?: number[]; integer?: boolean },
  ): void {
    let total = options.initial ?? 0;
    const resets = [...(options.resets ?? [])].sort((a, b) => a - b);
    let previous = -Infinity;
    this.times.forEach((t, i) => {
      const reset = resets.filter((r) => r > previous && r <= t).pop();
      if (reset !== undefined) total = Math.max(0, rate(t)) * (t - reset);
      else if (i > 0) total += Math.max(0, rate(t)) * this.interval;
      previous = t;
      if (options.alive && !options.alive(t)) return;
      s.values[i] = options.integer ? Math.floor(total) : total;
    });
  }

  /**
   * Gives every series the labels `change` returns for it (a scrape configuration's relabelling);
   * series that end up alike must not both have samples at one time.
   */
  relabel(change: (name: string, labels: Labels) => Labels): void {
    const all = [...this.series.values()];
    this.series.clear();
    for (const s of all) {
      const target = this.get(s.name, change(s.name, { ...s.labels }));
      s.values.forEach((v, i) => {
        if (Number.isNaN(v)) return;
        if (!Number.isNaN(target.values[i])) throw new Error(`relabelling makes two series of ${s.name} alike`);
        target.values[i] = v;
      });
    }
  }

  /** Writes every series as OpenMetrics text (each series' samples in time order) and `# EOF`. */
  async writeOpenMetrics(path: string): Promise<void> {
    const out = createWriteStream(path);
    const byName = new Map<string, Series[]>();
    for (const s of this.series.values()) byName.set(s.name, [...(byName.get(s.name) ?? []), s]);
    for (const [name, list] of byName) {
      if (!out.write(`# TYPE ${name} unknown\n`)) await once(out, 'drain');
      for (const s of list) {
        const selector = `${name}{${Object.entries(s.labels)
          .map(([k, v]) => `${k}="${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`)
          .join(',')}}`;
        const lines: string[] = [];
        s.values.forEach((v, i) => {
          if (!Number.isNaN(v)) lines.push(`${selector} ${format(v)} ${this.times[i]}`);
        });
        if (lines.length && !out.write(`${lines.join('\n')}\n`)) await once(out, 'drain');
      }
    }
    out.end('# EOF\n');
    await once(out, 'finish');
  }
}

/** A sample value: integers exactly, others to the millisecond (timestamps as values) or six significant digits. */
function format(v: number): string {
  if (Number.isInteger(v)) return String(v);
  if (Math.abs(v) >= 1) return String(Number(v.toFixed(3)));
  return String(Number(v.toPrecision(6)));
}
