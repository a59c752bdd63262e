import { count, firstOf } from '../series-name';
import type { ToolContext, ToolDefinition } from '../tool.types';
import { readLoki } from './loki-api';
import { checkSelector, MAX_LOGQL_CHARS } from './logql';
import { formatNanos } from './nanos';
import { LOKI_RANGE_ARGUMENTS, lokiRange } from './loki-range';

export type LokiLabelsArguments = { query?: string; start?: string; end?: string };
export type LokiLabelValuesArguments = LokiLabelsArguments & { label: string };

/** Values listed at most (Loki answers all of them; a label may have thousands, such as pod names). */
const MAX_VALUES = 500;

const selectorArgument = {
  type: 'string',
  minLength: 1,
  maxLength: MAX_LOGQL_CHARS,
  description: 'Only streams matching this stream selector, e.g. {namespace="shop"}',
} as const;

/** The investigation's window (or the arguments' range) as Loki's nanosecond start and end. */
async function readNames(context: ToolContext, path: string, args: LokiLabelsArguments) {
  const { start, end, window } = lokiRange(args, context.window);
  const { data, source } = await readLoki<unknown>(context, path, [
    ['start', start.toString()],
    ['end', end.toString()],
    ...(args.query ? [['query', args.query] as const] : []),
  ]);
  const names = Array.isArray(data) ? data.map(String).sort() : [];
  return { names, source, start: formatNanos(start), end: formatNanos(end), window };
}

export const lokiLabelsTool: ToolDefinition<LokiLabelsArguments> = {
  name: 'loki.labels',
  integrationType: 'loki',
  description:
    'Lists the label names of the log streams Loki holds within a time range (/loki/api/v1/labels), optionally of the streams matching a selector. ' +
    'Use it first, to learn how this Loki labels streams (namespace, pod, container, app, service_name, job, …) before writing a selector.',
  argumentsSchema: {
    type: 'object',
    properties: { query: selectorArgument, ...LOKI_RANGE_ARGUMENTS },
    additionalProperties: false,
  },
  check: (args) => (args.query === undefined ? null : checkSelector(args.query, 'query')),
  async run(args, context) {
    const { names, source, start, end, window } = await readNames(context, 'loki/api/v1/labels', args);
    const range = `between ${start} and ${end}`;
    return {
      outcome: 'succeeded',
      summary: names.length
        ? `${count(names.length, 'label')} on the streams${args.query ? ` matching ${args.query}` : ''} ${range}: ${firstOf(names, 20)}.`
        : `No stream${args.query ? ` matches ${args.query}` : ''} ${range}.`,
      output: { start, end, ...(args.query ? { query: args.query } : {}), count: names.length, labels: names },
      truncated: false,
      sources: [source],
      window,
    };
  },
};

export const lokiLabelValuesTool: ToolDefinition<LokiLabelValuesArguments> = {
  name: 'loki.label_values',
  integrationType: 'loki',
  description:
    'Lists the values a stream label takes within a time range (/loki/api/v1/label/<label>/values), optionally only on streams matching a selector. ' +
    'Use it to find the namespaces, apps, pods or containers whose logs Loki holds, e.g. the pods of the alerting service.',
  argumentsSchema: {
    type: 'object',
    properties: {
      label: { type: 'string', pattern: '^[a-zA-Z_][a-zA-Z0-9_]*$', maxLength: 256, description: 'Label name, e.g. "namespace", "app" or "pod"' },
      query: selectorArgument,
      ...LOKI_RANGE_ARGUMENTS,
    },
    required: ['label'],
    additionalProperties: false,
  },
  check: (args) => (args.query === undefined ? null : checkSelector(args.query, 'query')),
  async run(args, context) {
    const { names: values, source, start, end, window } = await readNames(context, `loki/api/v1/label/${encodeURIComponent(args.label)}/values`, args);
    const range = `between ${start} and ${end}`;
    const listed = values.slice(0, MAX_VALUES);
    let summary = values.length
      ? `${count(values.length, 'value')} of ${args.label}${args.query ? ` on the streams matching ${args.query}` : ''} ${range}: ${firstOf(values, 10)}.`
      : `Label ${args.label} has no values${args.query ? ` on the streams matching ${args.query}` : ''} ${range}.`;
    if (listed.length < values.length) summary += ` The first ${listed.length} in order are listed; narrow the query to see the others.`;
    return {
      outcome: 'succeeded',
      summary,
      output: {
        label: args.label,
        start,
        end,
        ...(args.query ? { query: args.query } : {}),
        count: values.length,
        values: listed,
        ...(listed.length < values.length ? { more: values.length - listed.length } : {}),
      },
      truncated: false,
      sources: [source],
      window,
    };
  },
};
