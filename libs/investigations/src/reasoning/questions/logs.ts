import { Timestamp } from '@svc/platform';
import { detectionScopeOf } from '../explainers/labels';
import type { LogTemplate } from '../explainers/log-templates';
import { TROUBLE_FILTER, workloadSelector } from '../explainers/log-templates';
import type { InvestigationSession } from '../reasoner';
import { earliest, MINUTE, shift } from '../series-reading';
import type { AnswerWriter } from './answer';
import { clock } from './format';
import { incidentNamespace } from './signal-reads';

/** How far before the incident's first alert the logs are read. */
const BEFORE_ALERT_MINUTES = 30;
/** An error first seen this long before the incident's first alert (and not earlier) began with it. */
const BEGAN_BEFORE_ALERT_MINUTES = 10;
/** Templates listed in the answer's table. */
const MAX_ROWS = 8;

const WORDS: Record<LogTemplate['status'], string> = {
  new: 'began with it',
  more: 'more often since',
  gone: 'stopped',
  fewer: 'less often since',
  steady: 'as often as before',
};

const cell = (text: string) => `\`${text.replace(/\|/g, '\\|').replace(/`/g, "'").slice(0, 160)}\``;
const rate = (n: number | null) => (n === null ? '-' : `${n}/min`);

/**
 * "What do the logs say?": the lines of the workload asked about (else the incident's) that report
 * trouble, from half an hour before the incident's first alert to now, grouped into templates
 * (`loki.log_patterns` with the first alert as the onset): those new since the incident began
 * first, then those that grew, then those there all along, each with its rate before and after
 * and its first line. Says so when no log store is connected or the streams carry no label that
 * names the workload.
 */
export async function answerLogs(session: InvestigationSession, answer: AnswerWriter, workload: string | null): Promise<void> {
  const loki = session.sources.find((s) => s.type === 'loki');
  if (!loki) {
    answer.cannot('no Loki integration is connected, so the logs cannot be read', null);
    return;
  }
  if (!workload) {
    answer.cannot("the question names no service, and the incident's alerts name none whose logs to read", null);
    return;
  }
  const until = session.window.until;
  const onset = earliest(session.alerts.map((a) => a.startsAt)) ?? session.incident?.openedAt ?? until;
  const wanted = shift(onset, -BigInt(BEFORE_ALERT_MINUTES) * MINUTE);
  const from = wanted.isAfter(session.window.from) ? wanted : session.window.from;
  const labels = await session.runTool({
    tool: 'loki.labels',
    integrationId: loki.integrationId,
    arguments: {},
    purpose: `Which labels the log streams carry, to select the logs of ${workload}`,
  });
  const names = labels.outcome === 'succeeded' ? ((labels.output as { labels?: unknown } | null)?.labels ?? []) : [];
  const namespace = incidentNamespace(session);
  const scope = detectionScopeOf([{ service: workload, ...(namespace ? { namespace } : {}) }], onset, false);
  const selector = workloadSelector(Array.isArray(names) ? names.map(String) : [], { ...scope, workload });
  if (!selector) {
    if (labels.outcome === 'succeeded') answer.cannot(`the log streams carry none of the labels that name ${workload}, so its logs cannot be selected`, labels);
    return;
  }
  const read = await session.runTool({
    tool: 'loki.log_patterns',
    integrationId: loki.integrationId,
    arguments: {
      selector,
      filter: TROUBLE_FILTER,
      onset: (onset.isAfter(until) ? until : onset).toISOString(),
      start: from.toISOString(),
      end: until.toISOString(),
    },
    purpose: `What the logs of ${workload} report since the incident began`,
  });
  if (read.outcome !== 'succeeded') return;
  const templates = (read.output as { templates?: LogTemplate[] } | null)?.templates ?? [];
  const range = `from ${clock(from)} to ${clock(until, from)}`;
  if (!templates.length) {
    answer.record(session, `No line of ${workload} ${range} reports trouble (an error, exception, failure, refusal or timeout)`, [labels, read]);
    return;
  }
  const first = (t: LogTemplate) => Timestamp.parse(t.firstSeen);
  // An alert fires minutes after what caused it: an error first seen from BEGAN_BEFORE_ALERT_MINUTES before the first alert, absent before, began with the incident.
  const began = (t: LogTemplate) => {
    const at = first(t);
    return t.status === 'new' || (!!at && !at.isBefore(shift(onset, -BigInt(BEGAN_BEFORE_ALERT_MINUTES) * MINUTE)) && at.isAfter(shift(from, 5n * MINUTE)));
  };
  const fresh = templates.filter(began);
  const lead = fresh.length
    ? `${fresh.length === 1 ? 'One error' : `${fresh.length} errors`} began in the logs of ${workload} with the incident: ${fresh
        .slice(0, 2)
        .map((t) => `${cell(t.template)} from ${first(t) ? clock(first(t)!, from) : t.firstSeen} (${t.after} lines, ${rate(t.afterPerMinute)})`)
        .join('; ')}`
    : `No error began in the logs of ${workload} with the incident: what they report was there before it`;
  const ordered = [...fresh, ...templates.filter((t) => !began(t))];
  const table = [
    '| template | since the incident began | before | after | first seen |',
    '|---|---|---:|---:|---|',
    ...ordered
      .slice(0, MAX_ROWS)
      .map(
        (t) =>
          `| ${cell(t.template)} | ${WORDS[t.status]} | ${rate(t.beforePerMinute)} | ${rate(t.afterPerMinute)} | ${first(t) ? clock(first(t)!, from) : t.firstSeen} |`,
      ),
  ].join('\n');
  answer.record(session, `${lead} (lines that report trouble, ${range}, the incident's first alert at ${clock(onset, from)})`, [labels, read], table);
  const example = (fresh[0] ?? templates[0]).example;
  if (example) answer.record(session, `Its first line: ${cell(example)}`, read);
}
