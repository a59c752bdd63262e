import { argumentRange, RANGE_ARGUMENTS } from '../tool-time';
import { count, firstOf } from '../series-name';
import type { ToolDefinition } from '../tool.types';
import { readPrometheus } from './prometheus-api';

export type PrometheusLabelValuesArguments = { label: string; match?: string[]; start?: string; end?: string };

export const prometheusLabelValuesTool: ToolDefinition<PrometheusLabelValuesArguments> = {
  name: 'prometheus.label_values',
  integrationType: 'prometheus',
  description:
    'Lists the values a label takes within a time range (Prometheus /api/v1/label/<label>/values), optionally only on series matching selectors. ' +
    'Use it to find the jobs, instances, namespaces or metric names (label "__name__") that exist, e.g. the pods of a service.',
  argumentsSchema: {
    type: 'object',
    properties: {
      label: { type: 'string', pattern: '^[a-zA-Z_][a-zA-Z0-9_]*$', maxLength: 256, description: 'Label name, e.g. "job", "instance" or "__name__"' },
      match: {
        type: 'array',
        minItems: 1,
        maxItems: 16,
        items: { type: 'string', minLength: 1, maxLength: 4096 },
        description: 'Only values on series matching any of these selectors, e.g. ["up{job=\\"checkout\\"}"]',
      },
      ...RANGE_ARGUMENTS,
    },
    required: ['label'],
    additionalProperties: false,
  },
  async run(args, context) {
    const { start, end } = argumentRange(args, context.window);
    const { data, warnings, source } = await readPrometheus<string[]>(context, `api/v1/label/${encodeURIComponent(args.label)}/values`, [
      ...(args.match ?? []).map((selector) => ['match[]', selector] as const),
      ['start', start.toISOString()],
      ['end', end.toISOString()],
    ]);
    const values = Array.isArray(data) ? data.map(String) : [];
    const range = `between ${start.toISOString()} and ${end.toISOString()}`;
    let summary = values.length
      ? `${count(values.length, 'value')} of ${args.label} ${range}: ${firstOf(values, 10)}.`
      : `Label ${args.label} has no values ${range}.`;
    if (warnings.length) summary += ` Prometheus warned: ${warnings.join('; ')}.`;
    return {
      outcome: 'succeeded',
      summary,
      output: { label: args.label, start: start.toISOString(), end: end.toISOString(), count: values.length, values, ...(warnings.length ? { warnings } : {}) },
      truncated: false,
      sources: [source],
      window: { from: start, until: end },
    };
  },
};
