import { argumentTime } from '../tool-time';
import { ToolFailure } from '../tool-failure';
import { count } from '../series-name';
import type { ToolDefinition } from '../tool.types';
import { readPrometheus } from './prometheus-api';
import { chooseStep, DEFAULT_POINTS_PER_SERIES, MAX_POINTS_PER_SERIES, MAX_QUERY_CHARS } from './query-step';
import { describeRange, RawSeries, toSeries } from './samples';

export type PrometheusQueryRangeArguments = { query: string; start?: string; end?: string; step?: number };

const DESCRIBED = 3;

export const prometheusQueryRangeTool: ToolDefinition<PrometheusQueryRangeArguments> = {
  name: 'prometheus.query_range',
  integrationType: 'prometheus',
  description:
    'Evaluates a PromQL expression over a time range (Prometheus /api/v1/query_range) and returns each series with its samples; ' +
    'the summary gives, per series, the first, last, minimum and maximum values. ' +
    'Use it to see when something started, peaked or recovered, and to correlate a change with the incident. ' +
    `Defaults to the investigation's window and a step that keeps about ${DEFAULT_POINTS_PER_SERIES} points per series. Prefer aggregated expressions (sum by, topk) over raw high-cardinality metrics.`,
  argumentsSchema: {
    type: 'object',
    properties: {
      query: {
        type: 'string',
        minLength: 1,
        maxLength: MAX_QUERY_CHARS,
        description: 'PromQL expression, e.g. histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket[5m])))',
      },
      start: { type: 'string', format: 'date-time', description: "Range start, RFC 3339 (default: the start of the investigation's window)" },
      end: { type: 'string', format: 'date-time', description: "Range end, RFC 3339 (default: the end of the investigation's window)" },
      step: {
        type: 'number',
        exclusiveMinimum: 0,
        maximum: 604800,
        description: `Resolution in seconds (default: a round step giving at most ${DEFAULT_POINTS_PER_SERIES} points; raised when it would exceed Prometheus's ${MAX_POINTS_PER_SERIES} points per series)`,
      },
    },
    required: ['query'],
    additionalProperties: false,
  },
  async run(args, context) {
    const start = argumentTime(args.start, context.window.from, 'start');
    const end = argumentTime(args.end, context.window.until, 'end');
    if (!start.isBefore(end)) throw new ToolFailure(`Invalid arguments: start (${start.toISOString()}) must be before end (${end.toISOString()})`);
    const { step, raisedFrom } = chooseStep(start.secondsUntil(end), args.step);
    const { data, warnings, source } = await readPrometheus<{ resultType: string; result: RawSeries[] }>(context, 'api/v1/query_range', [
      ['query', args.query],
      ['start', start.toISOString()],
      ['end', end.toISOString()],
      ['step', String(step)],
    ]);
    const result = Array.isArray(data.result) ? data.result : [];
    const range = `from ${start.toISOString()} to ${end.toISOString()} at a ${step} s step`;
    let summary = result.length
      ? `${count(result.length, 'series', 'series')} ${range}. ${result.slice(0, DESCRIBED).map(describeRange).join('; ')}${result.length > DESCRIBED ? `; and ${result.length - DESCRIBED} more series` : ''}.`
      : `No series ${range}.`;
    if (raisedFrom !== undefined)
      summary += ` The step was raised from ${raisedFrom} s to ${step} s (Prometheus allows at most ${MAX_POINTS_PER_SERIES} points per series).`;
    if (warnings.length) summary += ` Prometheus warned: ${warnings.join('; ')}.`;
    return {
      outcome: 'succeeded',
      summary,
      output: {
        resultType: data.resultType,
        start: start.toISOString(),
        end: end.toISOString(),
        stepSeconds: step,
        series: result.map(toSeries),
        ...(warnings.length ? { warnings } : {}),
      },
      truncated: false,
      sources: [source],
      window: { from: start, until: end },
    };
  },
};
