import type { Timestamp } from '@svc/platform';
import type { InvestigationSession, SourceBrief } from '../reasoner';
import { seriesOf } from '../series-reading';
import type { AnswerWriter } from './answer';
import { clock, quantity, significant, Unit } from './format';
import { matchedOnNoLabels } from './pasted-query';

const MAX_LISTED = 10;

/**
 * The unit a query's values are in, from the metric it reads: seconds for a quantile of a `_seconds`
 * histogram or an age taken from a timestamp, bytes for `_bytes`; a plain number otherwise (a rate,
 * a count, a ratio: the query says which).
 */
function unitOf(expr: string): Unit | null {
  if (/\bhistogram_quantile\s*\(/.test(expr) && /_seconds_bucket\b/.test(expr)) return 'seconds';
  if (/\btime\(\)\s*-\s*[a-z_:]*timestamp/.test(expr)) return 'seconds';
  if (/_bytes\b/.test(expr) && !/\b(rate|irate|increase|deriv)\s*\(/.test(expr)) return 'bytes';
  return null;
}

/** A value as the query gives it (three significant digits, whole numbers from a thousand up), with its unit when the metric says one. */
function value(v: number, unit: Unit | null): string {
  const plain = Math.abs(v) >= 1000 ? String(Math.round(v)) : significant(v);
  return unit ? `${plain} (${quantity(v, unit)})` : plain;
}

/** A series' labels as PromQL writes them, `{}` for none. */
const labelsOf = (metric: Record<string, string>): string =>
  `{${Object.entries(metric)
    .filter(([k]) => k !== '__name__')
    .map(([k, v]) => `${k}="${v}"`)
    .join(', ')}}`;

/**
 * The value of a PromQL expression the question gives ("sum(rate(…[5m])) pls", "what does time() -
 * …_timestamp give now?"), evaluated as it is written at the end of the window: one value, or each
 * series' value with its labels, the highest first.
 */
export async function answerQuery(
  session: InvestigationSession,
  source: SourceBrief,
  answer: AnswerWriter,
  expr: string,
  until: Timestamp,
  /** Whether this is the expression matched on no labels, after it returned nothing as written. */
  matchedOnce = false,
): Promise<void> {
  const run = await session.runTool({
    tool: 'prometheus.query',
    integrationId: source.integrationId,
    arguments: { query: expr, time: until.toISOString() },
    purpose: matchedOnce ? 'The query the question gives, matched on no labels' : 'The query the question gives, as it is written',
  });
  if (run.outcome === 'failed') {
    answer.cannot(`Prometheus did not evaluate the query \`${expr}\`: ${run.error ?? 'no detail'}`, run);
    return;
  }
  const series = seriesOf(run)
    .map((s) => ({ metric: s.metric, v: Number(s.value?.[1]) }))
    .filter((s) => Number.isFinite(s.v))
    .sort((a, b) => b.v - a.v);
  const at = clock(until, until);
  if (!series.length) {
    // Arithmetic between vectors whose labels differ matches no pair as written ("sum(x) / y"): matched on no labels, it has the value meant.
    const onNoLabels = matchedOnNoLabels(expr);
    if (onNoLabels && !matchedOnce) {
      answer.record(
        session,
        `\`${expr}\` returns no series at ${at}: the two sides of its operator have no label set in common, so it was evaluated matched on no labels`,
        run,
      );
      await answerQuery(session, source, answer, onNoLabels, until, true);
      return;
    }
    answer.cannot(`the query \`${expr}\` returns no series at ${at}, so it has no value to give`, run);
    return;
  }
  const unit = unitOf(expr);
  if (series.length === 1) {
    answer.record(session, `\`${expr}\` is ${value(series[0].v, unit)} now (${at})`, run);
    return;
  }
  const [top, bottom] = [series[0], series[series.length - 1]];
  const table = [
    '| series | value |',
    '|---|---|',
    ...series.slice(0, MAX_LISTED).map((s) => `| \`${labelsOf(s.metric)}\` | ${value(s.v, unit)} |`),
    ...(series.length > MAX_LISTED ? [`| ${series.length - MAX_LISTED} more | |`] : []),
  ].join('\n');
  answer.record(
    session,
    `\`${expr}\` returns ${series.length} series at ${at}; the highest, \`${labelsOf(top.metric)}\`, is ${value(top.v, unit)} now, the lowest, \`${labelsOf(bottom.metric)}\`, ${value(bottom.v, unit)}`,
    run,
    table,
  );
}
