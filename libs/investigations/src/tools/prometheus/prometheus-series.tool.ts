import { argumentRange, RANGE_ARGUMENTS } from '../tool-time';
import { count, firstOf } from '../series-name';
import type { ToolDefinition } from '../tool.types';
import { readPrometheus } from './prometheus-api';

export type PrometheusSeriesArguments = { match: string[]; start?: string; end?: string };

export const prometheusSeriesTool: ToolDefinition<PrometheusSeriesArguments> = {
  name: 'prometheus.series',
  integrationType: 'prometheus',
  description:
    'Lists the series (label sets) that match one or more series selectors within a time range (Prometheus /api/v1/series), without their values. ' +
    'Use it to discover which metrics and labels exist for a service, job or instance before writing a query, e.g. match {job="checkout"} or {__name__=~"http_.*"}.',
  argumentsSchema: {
    type: 'object',
    properties: {
      match: {
        type: 'array',
        minItems: 1,
        maxItems: 16,
        items: { type: 'string', minLength: 1, maxLength: 4096 },
        description: 'Series selectors, e.g. ["up", "{job=\\"checkout\\"}"]; a series matching any of them is listed',
      },
      ...RANGE_ARGUMENTS,
    },
    required: ['match'],
    additionalProperties: false,
  },
  async run(args, context) {
    const { start, end } = argumentRange(args, context.window);
    const { data, warnings, source } = await readPrometheus<Array<Record<string, string>>>(context, 'api/v1/series', [
      ...args.match.map((selector) => ['match[]', selector] as const),
      ['start', start.toISOString()],
      ['end', end.toISOString()],
    ]);
    const series = Array.isArray(data) ? data : [];
    const byMetric = new Map<string, number>();
    for (const labels of series) byMetric.set(labels.__name__ ?? '(no name)', (byMetric.get(labels.__name__ ?? '(no name)') ?? 0) + 1);
    const metrics = [...byMetric].sort((a, b) => b[1] - a[1]).map(([name, n]) => `${name} (${n})`);
    const range = `between ${start.toISOString()} and ${end.toISOString()}`;
    let summary = series.length ? `${count(series.length, 'series', 'series')} ${range}, by metric: ${firstOf(metrics, 8)}.` : `No series matched ${range}.`;
    if (warnings.length) summary += ` Prometheus warned: ${warnings.join('; ')}.`;
    return {
      outcome: 'succeeded',
      summary,
      output: { start: start.toISOString(), end: end.toISOString(), count: series.length, series, ...(warnings.length ? { warnings } : {}) },
      truncated: false,
      sources: [source],
      window: { from: start, until: end },
    };
  },
};
