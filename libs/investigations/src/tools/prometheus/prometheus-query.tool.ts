import { MAX_QUERY_CHARS } from './query-step';
import { argumentTime } from '../tool-time';
import { count, seriesName } from '../series-name';
import type { ToolDefinition } from '../tool.types';
import { readPrometheus } from './prometheus-api';
import { RawSample, RawSeries, toSample, toSeries } from './samples';

export type PrometheusQueryArguments = { query: string; time?: string };

type QueryData =
  | { resultType: 'vector'; result: RawSeries[] }
  | { resultType: 'matrix'; result: RawSeries[] }
  | { resultType: 'scalar'; result: RawSample }
  | { resultType: 'string'; result: RawSample };

const SHOWN = 5;

function describeVector(result: RawSeries[], at: string): string {
  if (!result.length) return `No series matched at ${at}.`;
  const valued = result.map((s) => ({ name: seriesName(s.metric ?? {}), value: s.value?.[1] ?? 'histogram' }));
  const shown = valued
    .slice(0, SHOWN)
    .map((s) => `${s.name} = ${s.value}`)
    .join('; ');
  let text = `${count(result.length, 'series', 'series')} at ${at}: ${shown}${result.length > SHOWN ? `; and ${result.length - SHOWN} more` : ''}.`;
  if (result.length > SHOWN) {
    const numeric = valued.filter((s) => !Number.isNaN(Number(s.value)));
    if (numeric.length) {
      const max = numeric.reduce((a, b) => (Number(b.value) > Number(a.value) ? b : a));
      const min = numeric.reduce((a, b) => (Number(b.value) < Number(a.value) ? b : a));
      text += ` Max ${max.value} (${max.name}), min ${min.value} (${min.name}).`;
    }
  }
  return text;
}

export const prometheusQueryTool: ToolDefinition<PrometheusQueryArguments> = {
  name: 'prometheus.query',
  integrationType: 'prometheus',
  description:
    'Evaluates a PromQL expression at one instant (Prometheus /api/v1/query) and returns each resulting series with its labels and value. ' +
    'Use it for the current or a past value of something (error ratio, saturation, `up`, a count by label), or to compare series at the moment an alert fired. ' +
    'For how a value changed over time use prometheus.query_range instead.',
  argumentsSchema: {
    type: 'object',
    properties: {
      query: {
        type: 'string',
        minLength: 1,
        maxLength: MAX_QUERY_CHARS,
        description: 'PromQL expression, e.g. sum by (job) (rate(http_requests_total{code=~"5.."}[5m]))',
      },
      time: { type: 'string', format: 'date-time', description: "Evaluation time, RFC 3339 (default: the end of the investigation's window)" },
    },
    required: ['query'],
    additionalProperties: false,
  },
  async run(args, context) {
    const time = argumentTime(args.time, context.window.until, 'time');
    const at = time.toISOString();
    const { data, warnings, source } = await readPrometheus<QueryData>(context, 'api/v1/query', [
      ['query', args.query],
      ['time', at],
    ]);
    const window = { from: time, until: time };
    const warned = warnings.length ? ` Prometheus warned: ${warnings.join('; ')}.` : '';
    const extra = warnings.length ? { warnings } : {};
    if (data.resultType === 'scalar' || data.resultType === 'string') {
      const value = toSample(data.result);
      return {
        outcome: 'succeeded',
        summary: `${data.resultType === 'scalar' ? 'Scalar' : 'String'} ${value[1]} at ${at}.${warned}`,
        output: { resultType: data.resultType, time: at, value, ...extra },
        truncated: false,
        sources: [source],
        window,
      };
    }
    const series = data.result.map(toSeries);
    const summary = data.resultType === 'vector' ? describeVector(data.result, at) : `${count(series.length, 'series', 'series')} (a range vector) at ${at}.`;
    return {
      outcome: 'succeeded',
      summary: `${summary}${warned}`,
      output: { resultType: data.resultType, time: at, series, ...extra },
      truncated: false,
      sources: [source],
      window,
    };
  },
};
