import { capText } from '@svc/platform';
import { chooseStep, DEFAULT_POINTS_PER_SERIES, MAX_POINTS_PER_SERIES } from '../prometheus/query-step';
import { describeRange, RawSeries, toSeries } from '../prometheus/samples';
import { count, firstOf, seriesName } from '../series-name';
import { ToolFailure } from '../tool-failure';
import type { ToolDefinition } from '../tool.types';
import { readLoki } from './loki-api';
import { LOKI_RANGE_ARGUMENTS, lokiRange } from './loki-range';
import { checkQuery, MAX_LOGQL_CHARS } from './logql';
import { formatNanos } from './nanos';
import { LogLine, mergeLines, RawStream } from './loki-streams';

export type LokiQueryRangeArguments = { query: string; start?: string; end?: string; limit?: number; direction?: 'forward' | 'backward'; step?: number };

export const DEFAULT_LINE_LIMIT = 100;
/** The most lines one read asks of Loki (its own default max_entries_limit_per_query is 5000). */
export const MAX_LINE_LIMIT = 1000;
/** What a run stores of the lines it read: at most this many lines… */
export const MAX_STORED_LINES = 100;
/** …each cut at this many characters (ending with the truncation marker)… */
export const MAX_LINE_CHARS = 1000;
/** …and this many characters of line text in all, well inside the 64 KiB output cap, so the paging note stays true. */
export const MAX_STORED_CHARS = 32 * 1024;
const MAX_STREAMS_LISTED = 50;
const DESCRIBED = 3;

interface LokiQueryData {
  resultType?: string;
  result?: unknown[];
  stats?: { summary?: { totalLinesProcessed?: number; totalBytesProcessed?: number; execTime?: number } };
}

function statsOf(data: LokiQueryData) {
  const summary = data.stats?.summary;
  if (!summary) return undefined;
  return { linesProcessed: summary.totalLinesProcessed ?? null, bytesProcessed: summary.totalBytesProcessed ?? null, execSeconds: summary.execTime ?? null };
}

/** The lines a run keeps: the first in reading order, within the line and character budgets. */
function excerpt(lines: LogLine[]): { kept: Array<{ at: string; stream: number; line: string }>; cut: number; lastAt: bigint | null } {
  const kept: Array<{ at: string; stream: number; line: string }> = [];
  let chars = 0;
  let cut = 0;
  let lastAt: bigint | null = null;
  for (const l of lines) {
    const text = capText(l.line, MAX_LINE_CHARS);
    if (kept.length >= MAX_STORED_LINES || (kept.length > 0 && chars + text.length > MAX_STORED_CHARS)) break;
    if (text !== l.line) cut += 1;
    chars += text.length;
    kept.push({ at: formatNanos(l.at), stream: l.stream, line: text });
    lastAt = l.at;
  }
  return { kept, cut, lastAt };
}

export const lokiQueryRangeTool: ToolDefinition<LokiQueryRangeArguments> = {
  name: 'loki.query_range',
  integrationType: 'loki',
  description:
    'Runs a LogQL query over a time range of the investigation (Loki /loki/api/v1/query_range). A log query ({namespace="shop", app="checkout"} |= "error") answers lines, ' +
    `newest first by default; at most ${MAX_STORED_LINES} lines are kept per run, and when there are more the output says so and gives the start/end of the next page. ` +
    'A metric query (sum by (pod) (count_over_time({app="checkout"} |= "error" [1m])), rate(...)) answers series over time, like prometheus.query_range. ' +
    'Use it to read what a service logged around the onset, or to count errors per minute. Find label names with loki.labels first.',
  argumentsSchema: {
    type: 'object',
    properties: {
      query: {
        type: 'string',
        minLength: 1,
        maxLength: MAX_LOGQL_CHARS,
        description:
          'LogQL: a log query such as {app="checkout"} |= "timeout", or a metric query such as sum by (level) (count_over_time({app="checkout"}[1m]))',
      },
      ...LOKI_RANGE_ARGUMENTS,
      limit: {
        type: 'integer',
        minimum: 1,
        maximum: MAX_LINE_LIMIT,
        description: `Log queries: the most lines Loki returns (default ${DEFAULT_LINE_LIMIT}); the run keeps at most ${MAX_STORED_LINES} of them`,
      },
      direction: {
        type: 'string',
        enum: ['backward', 'forward'],
        description: 'Log queries: backward (default) reads the newest lines first, forward the oldest first',
      },
      step: {
        type: 'number',
        exclusiveMinimum: 0,
        maximum: 86400,
        description: `Metric queries: resolution in seconds (default: a round step giving at most ${DEFAULT_POINTS_PER_SERIES} points)`,
      },
    },
    required: ['query'],
    additionalProperties: false,
  },
  check: (args) => {
    const checked = checkQuery(args.query);
    return 'error' in checked ? checked.error : null;
  },
  async run(args, context) {
    const checked = checkQuery(args.query);
    if ('error' in checked) throw new ToolFailure(`Invalid arguments: ${checked.error}`);
    const { start, end, window } = lokiRange(args, context.window);
    const range = `between ${formatNanos(start)} and ${formatNanos(end)}`;
    if (checked.kind === 'metric') {
      const { step, raisedFrom } = chooseStep(Number(end - start) / 1e9, args.step);
      const { data, source } = await readLoki<LokiQueryData>(context, 'loki/api/v1/query_range', [
        ['query', args.query],
        ['start', start.toString()],
        ['end', end.toString()],
        ['step', String(step)],
      ]);
      const result = (Array.isArray(data.result) ? data.result : []) as RawSeries[];
      let summary = result.length
        ? `${count(result.length, 'series', 'series')} ${range} at a ${step} s step. ${result.slice(0, DESCRIBED).map(describeRange).join('; ')}${result.length > DESCRIBED ? `; and ${result.length - DESCRIBED} more series` : ''}.`
        : `No series ${range}: no line matched.`;
      if (raisedFrom !== undefined) summary += ` The step was raised from ${raisedFrom} s to ${step} s (at most ${MAX_POINTS_PER_SERIES} points per series).`;
      return {
        outcome: 'succeeded',
        summary,
        output: {
          resultType: data.resultType ?? 'matrix',
          start: formatNanos(start),
          end: formatNanos(end),
          stepSeconds: step,
          series: result.map(toSeries),
          ...(statsOf(data) ? { stats: statsOf(data) } : {}),
        },
        truncated: false,
        sources: [source],
        window,
      };
    }

    const limit = args.limit ?? DEFAULT_LINE_LIMIT;
    const direction = args.direction ?? 'backward';
    const { data, source } = await readLoki<LokiQueryData>(context, 'loki/api/v1/query_range', [
      ['query', args.query],
      ['start', start.toString()],
      ['end', end.toString()],
      ['limit', String(limit)],
      ['direction', direction],
    ]);
    const streams = (Array.isArray(data.result) ? data.result : []) as RawStream[];
    const lines = mergeLines(streams, direction);
    const { kept, cut, lastAt } = excerpt(lines);
    // Loki stops at `limit` lines: when it returned that many, the range may hold more.
    const more = lines.length >= limit || kept.length < lines.length;
    const next =
      more && lastAt !== null
        ? direction === 'backward'
          ? { start: formatNanos(start), end: formatNanos(lastAt + 1n) }
          : { start: formatNanos(lastAt), end: formatNanos(end) }
        : null;
    const perStream = streams
      .map((s, index) => ({ index, labels: s.stream ?? {}, lines: (s.values ?? []).length }))
      .sort((a, b) => b.lines - a.lines || a.index - b.index);
    const order = direction === 'backward' ? 'newest first' : 'oldest first';
    let summary = lines.length
      ? `${count(lines.length, 'line')} from ${count(streams.length, 'stream')} ${range}, ${order}: from ${formatNanos(lines[0].at)} to ${formatNanos(lines[lines.length - 1].at)}; by stream: ${firstOf(
          perStream.map((s) => `${seriesName(s.labels, 120)} ${s.lines}`),
          DESCRIBED,
        )}.`
      : `No line ${range}.`;
    if (kept.length < lines.length) summary += ` The run keeps the first ${kept.length} of the ${lines.length} lines Loki returned.`;
    if (lines.length >= limit) summary += ` Loki stopped at the limit (${limit} lines): the range holds more.`;
    if (next) summary += ` Next page: the same query with start=${next.start} and end=${next.end} (it begins with the last line kept).`;
    if (cut) summary += ` ${count(cut, 'line')} longer than ${MAX_LINE_CHARS} characters ${cut === 1 ? 'was' : 'were'} cut, ending with …[truncated].`;
    return {
      outcome: 'succeeded',
      summary,
      output: {
        resultType: data.resultType ?? 'streams',
        start: formatNanos(start),
        end: formatNanos(end),
        direction,
        limit,
        returned: lines.length,
        kept: kept.length,
        more,
        next,
        streams: perStream
          .slice(0, MAX_STREAMS_LISTED)
          .sort((a, b) => a.index - b.index)
          .map((s) => ({ stream: s.index, labels: s.labels, lines: s.lines })),
        lines: kept,
        ...(statsOf(data) ? { stats: statsOf(data) } : {}),
      },
      truncated: false,
      sources: [source],
      window,
    };
  },
};
