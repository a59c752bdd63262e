import { fromUnixSeconds } from '../tool-time';
import { seriesName } from '../series-name';

/** A sample as Prometheus sends it: float seconds and the value as a string ("NaN", "+Inf" included). */
export type RawSample = [number, string];
/** A sample as the tools return it: RFC 3339 UTC time and Prometheus's value string. */
export type Sample = [string, string];

export interface RawSeries {
  metric: Record<string, string>;
  value?: RawSample;
  values?: RawSample[];
  histogram?: [number, unknown];
  histograms?: Array<[number, unknown]>;
}

export interface Series {
  metric: Record<string, string>;
  value?: Sample | [string, unknown];
  values?: Array<Sample | [string, unknown]>;
}

export function toSample([time, value]: [number, unknown]): [string, unknown] {
  return [fromUnixSeconds(time), value];
}

/** Times become RFC 3339; native histogram samples are kept as they come, with their times converted. */
export function toSeries(raw: RawSeries): Series {
  const series: Series = { metric: raw.metric ?? {} };
  if (raw.value) series.value = toSample(raw.value) as Sample;
  else if (raw.histogram) series.value = toSample(raw.histogram);
  if (raw.values || raw.histograms) series.values = [...(raw.values ?? []), ...(raw.histograms ?? [])].sort((a, b) => a[0] - b[0]).map(toSample);
  return series;
}

/** "up{job="x"}: 240 points, first 1, last 1, min 1, max 1" over the float samples of a series. */
export function describeRange(raw: RawSeries): string {
  const samples = raw.values ?? [];
  const name = seriesName(raw.metric ?? {});
  if (!samples.length) return `${name}: ${raw.histograms?.length ?? 0} histogram points`;
  let min: RawSample | undefined;
  let max: RawSample | undefined;
  for (const sample of samples) {
    const value = Number(sample[1]);
    if (Number.isNaN(value)) continue;
    if (!min || value < Number(min[1])) min = sample;
    if (!max || value > Number(max[1])) max = sample;
  }
  const first = samples[0];
  const last = samples[samples.length - 1];
  const extremes = min && max ? `, min ${min[1]}, max ${max[1]} at ${fromUnixSeconds(max[0])}` : '';
  return `${name}: ${samples.length} points, first ${first[1]}, last ${last[1]}${extremes}`;
}
