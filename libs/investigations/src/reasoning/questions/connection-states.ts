import type { Timestamp } from '@svc/platform';
import { quote } from '../explainers/labels';
import type { InvestigationSession, SourceBrief } from '../reasoner';
import { seriesOf, shift } from '../series-reading';
import type { AnswerWriter } from './answer';
import { clock } from './format';
import type { Subject } from './signal-reads';

/** How far back the series that name the database are looked for. */
const LOOKBACK = 60n * 60n * 1_000_000n;

/**
 * What the connections of a PostgreSQL server are doing now ("what state are those connections
 * in?", "how many are idle in transaction?"): postgres_exporter's pg_stat_activity_count by state,
 * of the server whose series name the subject (a database services call, or a service whose name
 * its series carry), with how many it has open of the most its max_connections allows. The states are PostgreSQL's own: active,
 * idle, idle in transaction, …
 */
export async function answerConnectionStates(
  session: InvestigationSession,
  source: SourceBrief,
  answer: AnswerWriter,
  subject: Subject,
  until: Timestamp,
  /** The question asked: a state it names ("how many are idle in transaction?") is said first. */
  message = '',
): Promise<void> {
  const listed = await session.runTool({
    tool: 'prometheus.series',
    integrationId: source.integrationId,
    arguments: { match: ['pg_stat_activity_count'], start: shift(until, -LOOKBACK).toISOString(), end: until.toISOString() },
    purpose: `Which PostgreSQL server's connection states name ${subject.value}`,
  });
  const series = (listed.output as { series?: Array<Record<string, string>> } | null)?.series ?? [];
  const naming = (labels: Record<string, string>): string | undefined =>
    Object.keys(labels).find((k) => k !== '__name__' && k !== 'state' && labels[k].toLowerCase().includes(subject.value.toLowerCase()));
  const named = series.find((labels) => naming(labels));
  const label = named && naming(named);
  if (!named || !label) {
    answer.cannot(
      `no PostgreSQL server's connection states (postgres_exporter's pg_stat_activity_count) name ${subject.value}, so what its connections are doing is unknown`,
      listed,
    );
    return;
  }
  const run = await session.runTool({
    tool: 'prometheus.query',
    integrationId: source.integrationId,
    arguments: {
      // (With the server's max_connections, which the connections open count against.)
      query: `sum by (state) (pg_stat_activity_count{${label}=${quote(named[label])}}) or label_replace(max(pg_settings_max_connections{${label}=${quote(named[label])}}), "limit", "max_connections", "", "")`,
      time: until.toISOString(),
    },
    purpose: `What the connections of ${subject.value} are doing, by state`,
  });
  const max = seriesOf(run).find((s) => s.metric.limit === 'max_connections');
  const allowed = max ? Number(max.value?.[1] ?? NaN) : NaN;
  const states = seriesOf(run)
    .filter((s) => s !== max)
    .map((s) => ({ state: s.metric.state ?? '(no state)', n: Number(s.value?.[1] ?? NaN) }))
    .filter((s) => Number.isFinite(s.n))
    .sort((a, b) => b.n - a.n);
  const total = states.reduce((sum, s) => sum + s.n, 0);
  if (!states.length || total === 0) {
    answer.cannot(`no connection of ${subject.value} is counted at ${clock(until, until)}`, [listed, run]);
    return;
  }
  // The state the question names, the longest that its words hold ("idle in transaction", not "idle"), counted first.
  const lower = message.toLowerCase();
  const asked = states
    .filter((s) => new RegExp(`(^|[^a-z])${s.state.toLowerCase().replace(/[^a-z0-9 ]/g, '.')}($|[^a-z])`).test(lower))
    .sort((a, b) => b.state.length - a.state.length)[0];
  const table = ['| state | connections |', '|---|---:|', ...states.map((s) => `| ${s.state} | ${Math.round(s.n)} |`)].join('\n');
  const first = asked ? `${Math.round(asked.n)} connections of ${subject.value} are ${asked.state} at ${clock(until, until)}; ` : '';
  answer.record(
    session,
    `${first}${subject.value} has ${Math.round(total)} connections open at ${clock(until, until)}${Number.isFinite(allowed) ? `, of ${Math.round(allowed)} connections allowed (max_connections)` : ''}; by state: ${states.map((s, i) => `${Math.round(s.n)}${i === 0 ? ' connections' : ''} ${s.state}`).join(', ')} (the most are ${states[0].state})`,
    [listed, run],
    table,
  );
}
