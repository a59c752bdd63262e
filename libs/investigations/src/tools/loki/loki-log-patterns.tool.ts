import { capText } from '@svc/platform';
import { getAnswer, readAnswer } from '../http-json';
import { count } from '../series-name';
import { ToolFailure } from '../tool-failure';
import type { ToolContext, ToolDefinition } from '../tool.types';
import { explainLokiError, readLoki } from './loki-api';
import { LOKI_RANGE_ARGUMENTS, lokiRange } from './loki-range';
import { LogLine, mergeLines, RawStream } from './loki-streams';
import { TemplateMiner, templateText } from './log-templates';
import { checkLineFilters, checkSelector, MAX_LOGQL_CHARS } from './logql';
import { formatNanos, NANOS_PER_MINUTE, NANOS_PER_SECOND, parseNanos } from './nanos';

export type LokiLogPatternsArguments = { selector: string; filter?: string; by?: string; onset: string; start?: string; end?: string };

/** Lines mined client-side at most on each side of the onset, read in pages of PAGE_LINES (Loki's default limit per query is 5000). */
export const MAX_LINES_PER_SIDE = 2000;
export const PAGE_LINES = 1000;
/** A template first seen no earlier than this before the onset began with it (the onset of an alert lags what caused it). */
export const NEW_MARGIN_SECONDS = 120;
/** Templates listed at most (new ones first), and example lines looked up at most when Loki mined them. */
export const MAX_TEMPLATES = 30;
const MAX_EXAMPLES = 5;
/** Minutes each side of the onset whose counts each template lists. */
const MINUTES_AROUND = 10;
const MAX_TEMPLATE_CHARS = 1000;
const MAX_EXAMPLE_CHARS = 500;
const STEP_SECONDS = 60;
/** A Prometheus/Loki label name. */
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

type Status = 'new' | 'more' | 'fewer' | 'gone' | 'steady';

interface Tally {
  text: string;
  /** With `by`: the value of that label on the streams whose lines made the template. */
  group?: string;
  before: number;
  after: number;
  first: bigint;
  last: bigint;
  example: string | null;
  minutes: Map<bigint, number>;
}

interface Mined {
  by: 'loki' | 'client';
  tallies: Tally[];
  /** What was read on each side of the onset: from when, until when, how many lines (client-side). */
  coveredFrom: bigint;
  coveredUntil: bigint;
  before?: { lines: number; complete: boolean };
  after?: { lines: number; complete: boolean };
  sources: string[];
}

const minuteOf = (at: bigint) => at / NANOS_PER_MINUTE;

function count1(tally: Tally, at: bigint, n: number, onset: bigint, straddling = false) {
  if (at < onset && !straddling) tally.before += n;
  else tally.after += n;
  if (at < tally.first) tally.first = at;
  if (at > tally.last) tally.last = at;
  tally.minutes.set(minuteOf(at), (tally.minutes.get(minuteOf(at)) ?? 0) + n);
}

const emptyTally = (text: string): Tally => ({
  text,
  before: 0,
  after: 0,
  first: BigInt(Number.MAX_SAFE_INTEGER) * NANOS_PER_SECOND,
  last: -1n,
  example: null,
  minutes: new Map(),
});

/**
 * Loki's own patterns (`/loki/api/v1/patterns`, Loki 3.0 and later with the pattern ingester):
 * each pattern with its count per step. Null (with why) when the server does not offer them, or
 * knows none for these streams (the pattern ingester keeps only recent hours).
 */
async function patternsOfLoki(
  context: ToolContext,
  selector: string,
  start: bigint,
  end: bigint,
  onset: bigint,
): Promise<{ mined: Mined } | { unavailable: string; sources: string[] }> {
  let answer;
  try {
    answer = await getAnswer(context, 'loki/api/v1/patterns', [
      ['query', selector],
      ['start', start.toString()],
      ['end', end.toString()],
      ['step', `${STEP_SECONDS}s`],
    ]);
  } catch (error) {
    if (!(error instanceof ToolFailure)) throw error;
    return { unavailable: error.message, sources: error.sources };
  }
  if (answer.status === 404)
    return { unavailable: 'Loki answered HTTP 404 at /loki/api/v1/patterns: its pattern ingester is not enabled', sources: [answer.source] };
  let data: unknown;
  try {
    const envelope = readAnswer('Loki', answer, explainLokiError).body as { status?: unknown; data?: unknown };
    if (envelope?.status !== 'success') throw new ToolFailure("The answer at /loki/api/v1/patterns is not Loki's API envelope");
    data = envelope.data;
  } catch (error) {
    if (!(error instanceof ToolFailure)) throw error;
    return { unavailable: error.message, sources: [answer.source] };
  }
  const patterns = (Array.isArray(data) ? data : []) as Array<{ pattern?: unknown; samples?: unknown }>;
  const tallies: Tally[] = [];
  for (const p of patterns) {
    if (typeof p.pattern !== 'string' || !Array.isArray(p.samples)) continue;
    const tally = emptyTally(p.pattern);
    for (const sample of p.samples as unknown[]) {
      if (!Array.isArray(sample) || typeof sample[0] !== 'number' || !(Number(sample[1]) > 0)) continue;
      const at = BigInt(Math.round(sample[0])) * NANOS_PER_SECOND;
      // A step that holds the onset cannot be split: its lines count after it.
      count1(tally, at, Number(sample[1]), onset, at + BigInt(STEP_SECONDS) * NANOS_PER_SECOND > onset);
    }
    if (tally.before + tally.after > 0) tallies.push(tally);
  }
  if (!tallies.length) return { unavailable: "Loki's patterns endpoint knew no pattern for these streams in the range", sources: [answer.source] };
  return { mined: { by: 'loki', tallies, coveredFrom: start, coveredUntil: end, sources: [answer.source] } };
}

/**
 * Up to `budget` lines of `query` from `from` to `to`, read in pages from the onset outwards
 * (backward before it, forward after it), each page starting at the last line of the previous one
 * (Loki's end is exclusive: lines sharing that nanosecond would be skipped) with those lines seen
 * once. Complete when Loki ran out of lines before the budget did.
 */
async function readSide(context: ToolContext, query: string, from: bigint, to: bigint, direction: 'forward' | 'backward', budget: number) {
  const lines: LogLine[] = [];
  const sources: string[] = [];
  const seen = new Set<string>();
  let [start, end] = [from, to];
  for (;;) {
    const wanted = budget - lines.length;
    if (wanted <= 0 || start >= end) return { lines, sources, complete: start >= end };
    // The page repeats the lines of the previous one's last nanosecond: ask for as many more.
    const limit = Math.min(PAGE_LINES, wanted + seen.size);
    const { data, source } = await readLoki<{ result?: unknown[] }>(context, 'loki/api/v1/query_range', [
      ['query', query],
      ['start', start.toString()],
      ['end', end.toString()],
      ['limit', String(limit)],
      ['direction', direction],
    ]);
    sources.push(source);
    const page = mergeLines((Array.isArray(data.result) ? data.result : []) as RawStream[], direction);
    const fresh = page.filter((l) => !seen.has(`${l.at}\u0000${l.labels}\u0000${l.line}`));
    lines.push(...fresh.slice(0, budget - lines.length));
    if (page.length < limit) return { lines, sources, complete: true };
    if (!fresh.length) return { lines, sources, complete: false }; // a page of one nanosecond: no further by time
    const boundary = page[page.length - 1].at;
    seen.clear();
    for (const l of page) if (l.at === boundary) seen.add(`${l.at}\u0000${l.labels}\u0000${l.line}`);
    if (direction === 'backward') end = boundary + 1n;
    else start = boundary;
  }
}

/**
 * Lines read on each side of the onset, grouped into templates by a Drain tree; with `by`, one
 * tree per value of that stream label (a template is then one workload's, never two workloads'
 * similar lines merged).
 */
async function patternsOfLines(context: ToolContext, query: string, start: bigint, end: bigint, onset: bigint, by?: string): Promise<Mined> {
  const before = await readSide(context, query, start, onset, 'backward', MAX_LINES_PER_SIDE);
  const after = await readSide(context, query, onset, end, 'forward', MAX_LINES_PER_SIDE);
  const coveredFrom = before.complete || !before.lines.length ? start : before.lines[before.lines.length - 1].at;
  const coveredUntil = after.complete || !after.lines.length ? end : after.lines[after.lines.length - 1].at;
  const miners = new Map<string, { miner: TemplateMiner; tallies: Map<number, Tally> }>();
  const groupOf = new Map<string, string>();
  // Oldest first, so a template's example is its first line.
  for (const l of [...before.lines].reverse().concat(after.lines)) {
    let group = '';
    if (by) {
      group = groupOf.get(l.labels) ?? (Object.fromEntries(JSON.parse(l.labels) as Array<[string, string]>)[by] || '');
      groupOf.set(l.labels, group);
    }
    const tree = miners.get(group) ?? { miner: new TemplateMiner(), tallies: new Map<number, Tally>() };
    miners.set(group, tree);
    const template = tree.miner.add(l.line);
    const tally = tree.tallies.get(template.id) ?? { ...emptyTally(''), ...(by ? { group } : {}) };
    if (tally.example === null) tally.example = capText(l.line, MAX_EXAMPLE_CHARS);
    count1(tally, l.at, 1, onset);
    tree.tallies.set(template.id, tally);
  }
  for (const { miner, tallies } of miners.values())
    for (const template of miner.templates) {
      const tally = tallies.get(template.id);
      if (tally) tally.text = templateText(template);
    }
  return {
    by: 'client',
    tallies: [...miners.values()].flatMap(({ tallies }) => [...tallies.values()]),
    coveredFrom,
    coveredUntil,
    before: { lines: before.lines.length, complete: before.complete },
    after: { lines: after.lines.length, complete: after.complete },
    sources: [...before.sources, ...after.sources],
  };
}

const perMinute = (n: number, nanos: bigint) => (nanos > 0n ? Math.round((n / (Number(nanos) / 6e10)) * 100) / 100 : null);

function statusOf(t: Tally, onset: bigint, coveredFrom: bigint, before: number | null, after: number | null): Status {
  const margin = BigInt(NEW_MARGIN_SECONDS) * NANOS_PER_SECOND;
  if (coveredFrom <= onset - margin && t.first >= onset - margin && t.after > 0) return 'new';
  if (t.after === 0) return 'gone';
  if (before !== null && after !== null && before > 0 && after >= 2 * before && t.after >= 3) return 'more';
  if (before !== null && after !== null && after <= before / 2 && t.before >= 3) return 'fewer';
  return 'steady';
}

const ORDER: Record<Status, number> = { new: 0, more: 1, gone: 2, fewer: 3, steady: 4 };
const HHMMSS = (at: bigint) => formatNanos(at).slice(11, 19);
const quoted = (text: string) => `\`${capText(text, 160)}\``;

export const lokiLogPatternsTool: ToolDefinition<LokiLogPatternsArguments> = {
  name: 'loki.log_patterns',
  integrationType: 'loki',
  description:
    'Groups the log lines of a stream selector (and an optional line filter) into templates, numbers, ids, addresses, times, durations and quoted values masked, ' +
    'and compares each template before and after an onset: its count and rate per minute on each side, counts per minute for the 10 minutes around the onset, its first occurrence and an example line. ' +
    'Templates that began at the onset are listed first as "new"; those present all along are not. Uses Loki\'s own patterns when the server offers them (no line filter, no `by`), else mines ' +
    `at most ${MAX_LINES_PER_SIDE} lines each side of the onset. Use it to find the error that began with the incident, e.g. a new "connection refused" to a dependency.`,
  argumentsSchema: {
    type: 'object',
    properties: {
      selector: { type: 'string', minLength: 1, maxLength: MAX_LOGQL_CHARS, description: 'A stream selector, e.g. {namespace="shop", app="checkout"}' },
      filter: {
        type: 'string',
        minLength: 1,
        maxLength: MAX_LOGQL_CHARS,
        description: 'Line filters applied first, e.g. |~ "(?i)error|exception" (mines the lines client-side: Loki\'s patterns take a selector only)',
      },
      by: {
        type: 'string',
        pattern: LABEL_NAME.source,
        maxLength: 128,
        description:
          "A stream label (e.g. service_name, app, pod) whose values are mined apart: each template is then one value's, listed with it, so one run over a namespace tells which workload wrote what (mines the lines client-side)",
      },
      onset: { type: 'string', format: 'date-time', description: "When the condition began, RFC 3339 (e.g. the alert's start); must lie within the range" },
      ...LOKI_RANGE_ARGUMENTS,
    },
    required: ['selector', 'onset'],
    additionalProperties: false,
  },
  check: (args) => checkSelector(args.selector) ?? (args.filter === undefined ? null : checkLineFilters(args.selector, args.filter)),
  async run(args, context) {
    const invalid = checkSelector(args.selector) ?? (args.filter === undefined ? null : checkLineFilters(args.selector, args.filter));
    if (invalid) throw new ToolFailure(`Invalid arguments: ${invalid}`);
    const { start, end, window } = lokiRange(args, context.window);
    const onset = parseNanos(args.onset);
    if (onset === null || onset <= start || onset >= end)
      throw new ToolFailure(`Invalid arguments: onset must lie within the range read, ${formatNanos(start)} to ${formatNanos(end)}`);
    const query = args.filter ? `${args.selector} ${args.filter}` : args.selector;

    let mined: Mined;
    let unavailable: string | null = null;
    const sources: string[] = [];
    const fromLoki = args.filter || args.by ? null : await patternsOfLoki(context, args.selector, start, end, onset);
    if (fromLoki && 'mined' in fromLoki) mined = fromLoki.mined;
    else {
      if (fromLoki) {
        unavailable = fromLoki.unavailable;
        sources.push(...fromLoki.sources);
      }
      mined = await patternsOfLines(context, query, start, end, onset, args.by);
    }
    sources.push(...mined.sources);

    const beforeSpan = onset - mined.coveredFrom;
    const afterSpan = mined.coveredUntil - onset;
    const rows = mined.tallies.map((t) => {
      const beforeRate = perMinute(t.before, beforeSpan);
      const afterRate = perMinute(t.after, afterSpan);
      return { t, beforeRate, afterRate, status: statusOf(t, onset, mined.coveredFrom, beforeRate, afterRate) };
    });
    rows.sort(
      (a, b) =>
        ORDER[a.status] - ORDER[b.status] || (a.status === 'new' ? (a.t.first < b.t.first ? -1 : 1) : b.t.after + b.t.before - (a.t.after + a.t.before)),
    );
    const listed = rows.slice(0, MAX_TEMPLATES);

    // Loki's patterns come without lines: look up the first line of the templates that matter most.
    if (mined.by === 'loki')
      for (const row of listed
        .filter((r) => r.status === 'new')
        .concat(listed.filter((r) => r.status !== 'new'))
        .slice(0, MAX_EXAMPLES)) {
        try {
          const { data, source } = await readLoki<{ result?: unknown[] }>(context, 'loki/api/v1/query_range', [
            ['query', `${args.selector} |> ${JSON.stringify(row.t.text)}`],
            ['start', (row.t.first > start ? row.t.first : start).toString()],
            ['end', end.toString()],
            ['limit', '1'],
            ['direction', 'forward'],
          ]);
          sources.push(source);
          const first = mergeLines((Array.isArray(data.result) ? data.result : []) as RawStream[], 'forward')[0];
          if (first) row.t.example = capText(first.line, MAX_EXAMPLE_CHARS);
        } catch (error) {
          if (!(error instanceof ToolFailure)) throw error;
        }
      }

    const aroundFrom = minuteOf(onset) - BigInt(MINUTES_AROUND);
    const templates = listed.map(({ t, status, beforeRate, afterRate }) => ({
      template: capText(t.text, MAX_TEMPLATE_CHARS),
      ...(args.by && t.group !== undefined ? { labels: { [args.by]: t.group } } : {}),
      status,
      firstSeen: formatNanos(t.first),
      lastSeen: formatNanos(t.last),
      before: t.before,
      after: t.after,
      beforePerMinute: beforeRate,
      afterPerMinute: afterRate,
      perMinuteAroundOnset: Array.from({ length: 2 * MINUTES_AROUND + 1 }, (_, i) => t.minutes.get(aroundFrom + BigInt(i)) ?? 0),
      example: t.example,
    }));

    const beforeMinutes = Math.round(Number(beforeSpan) / 6e10);
    const subject = `${query} between ${formatNanos(start)} and ${formatNanos(end)} (onset ${formatNanos(onset)})`;
    let summary =
      mined.by === 'loki'
        ? `Loki's own patterns of ${subject}: ${count(rows.length, 'template')}.`
        : `${count((mined.before?.lines ?? 0) + (mined.after?.lines ?? 0), 'line')} of ${subject} mined into ${count(rows.length, 'template')}: ${mined.before?.lines ?? 0} from the ${beforeMinutes} min before the onset${mined.before?.complete ? '' : ' read (the latest, up to the line budget)'}, ${mined.after?.lines ?? 0} after it.`;
    const fresh = rows.filter((r) => r.status === 'new');
    if (fresh.length)
      summary += ` New since the onset: ${fresh
        .slice(0, 2)
        .map(
          (r) =>
            `${quoted(r.t.text)}${r.t.group ? ` of ${args.by}=${JSON.stringify(r.t.group)}` : ''} from ${HHMMSS(r.t.first)} (${r.afterRate ?? '?'}/min after, ${r.t.before ? `${r.t.before} in the ${NEW_MARGIN_SECONDS / 60} min before` : `none in the ${beforeMinutes} min before`})`,
        )
        .join('; ')}${fresh.length > 2 ? `; and ${fresh.length - 2} more` : ''}.`;
    else summary += ' No template began at the onset.';
    const rest = rows.filter((r) => r.status !== 'new').slice(0, 2);
    if (rest.length)
      summary += ` Already there before: ${rest.map((r) => `${quoted(r.t.text)} (${r.status}: ${r.beforeRate ?? '?'}/min before, ${r.afterRate ?? '?'}/min after)`).join('; ')}.`;
    if (mined.coveredFrom > onset - BigInt(NEW_MARGIN_SECONDS) * NANOS_PER_SECOND)
      summary += ` Only ${beforeMinutes} min before the onset were read: too little to tell a new template from an old one.`;
    if (unavailable) summary += ` (Mined here: ${unavailable}.)`;

    return {
      outcome: 'succeeded',
      summary,
      output: {
        selector: args.selector,
        ...(args.filter ? { filter: args.filter } : {}),
        ...(args.by ? { by: args.by } : {}),
        start: formatNanos(start),
        end: formatNanos(end),
        onset: formatNanos(onset),
        minedBy: mined.by,
        ...(unavailable ? { patternsEndpoint: unavailable } : {}),
        before: { from: formatNanos(mined.coveredFrom), until: formatNanos(onset), ...(mined.before ?? {}) },
        after: { from: formatNanos(onset), until: formatNanos(mined.coveredUntil), ...(mined.after ?? {}) },
        perMinuteAroundOnsetFrom: formatNanos(aroundFrom * NANOS_PER_MINUTE),
        templateCount: rows.length,
        templates,
        ...(rows.length > listed.length ? { more: rows.length - listed.length } : {}),
      },
      truncated: false,
      sources,
      window,
    };
  },
};
