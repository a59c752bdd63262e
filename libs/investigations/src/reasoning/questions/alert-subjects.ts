import { Timestamp } from '@svc/platform';
import { escape, quote } from '../explainers/labels';
import type { InvestigationSession, SourceBrief } from '../reasoner';
import { seriesOf } from '../series-reading';
import type { AnswerWriter } from './answer';
import { clock } from './format';

/** The labels that say what an alert is about, in the order the answer names them. */
const SUBJECT_LABELS = [
  'container',
  'deployment',
  'statefulset',
  'daemonset',
  'job_name',
  'service',
  'job',
  'queue',
  'persistentvolumeclaim',
  'mountpoint',
  'node',
  'namespace',
  'pod',
  'instance',
];
/** Labels of the alert itself, not of what it is about. */
const OWN_LABELS = new Set(['__name__', 'alertname', 'alertstate', 'severity', 'prometheus', 'receiver']);
const MAX_VALUES = 5;

type RulesOutput = { rules?: Array<{ name: string; query: string; alerts: Array<{ labels: Record<string, string>; state: string }> }> };

/**
 * What the alert `name` is about ("CPUThrottlingHigh is firing too: which workload is that?"): the
 * labels of its active alerts, or, when Prometheus holds none now, of the series its rule's
 * expression returns at the end of the window; the labels that name a workload first.
 */
export async function answerAlertSubject(
  session: InvestigationSession,
  source: SourceBrief,
  answer: AnswerWriter,
  name: string,
  until: Timestamp,
): Promise<void> {
  const rules = await session.runTool({
    tool: 'prometheus.alert_rules',
    integrationId: source.integrationId,
    arguments: { name },
    purpose: `What the alerting rule ${name} checks, and its active alerts`,
  });
  const rule = (rules.output as RulesOutput | null)?.rules?.find((r) => r.name === name);
  if (!rule) {
    answer.cannot(`Prometheus has no alerting rule named ${name}, so what it is about is unknown`, rules);
    return;
  }
  const query = (expr: string, purpose: string) =>
    session.runTool({ tool: 'prometheus.query', integrationId: source.integrationId, arguments: { query: expr, time: until.toISOString() }, purpose });
  let labels = rule.alerts.map((a) => a.labels);
  let run = rules;
  if (!labels.length) {
    // No active alert now: what the rule's condition holds for, read at the end of the window.
    run = await query(rule.query, `What the condition of ${name} holds for at ${clock(until, until)}`);
    labels = seriesOf(run).map((s) => s.metric);
  }
  // Nothing now (an alert that flaps): what it held for at any time of the last hour.
  let when = `holds at ${clock(until, until)}`;
  if (!labels.length) {
    run = await query(`count_over_time((${rule.query})[1h:1m])`, `What the condition of ${name} held for in the hour to ${clock(until, until)}`);
    labels = seriesOf(run).map((s) => s.metric);
    when = `held at times in the hour to ${clock(until, until)}, not at ${clock(until, until)},`;
  }
  if (!labels.length) {
    answer.record(session, `The condition of ${name} held for nothing in the hour to ${clock(until, until)}: its expression returned no series`, run);
    return;
  }
  const named = SUBJECT_LABELS.filter((l) => labels.some((x) => x[l]))
    .concat([...new Set(labels.flatMap((x) => Object.keys(x)))].filter((l) => !OWN_LABELS.has(l) && !SUBJECT_LABELS.includes(l)))
    .map((l) => {
      const values = [...new Set(labels.map((x) => x[l]).filter(Boolean))];
      return `${l} ${values.slice(0, MAX_VALUES).join(', ')}${values.length > MAX_VALUES ? ` and ${values.length - MAX_VALUES} more` : ''}`;
    });
  // The nodes of the pods it names ("KubePodCrashLooping on cart: which pod, on what node?"), from kube-state-metrics.
  const pods = [...new Set(labels.filter((x) => x.pod).map((x) => x.pod))].slice(0, MAX_VALUES);
  const placed = pods.length
    ? await query(`max by (pod, node) (kube_pod_info{pod=~${quote(pods.map(escape).join('|'))}})`, `Which nodes the pods ${name} names run on`)
    : null;
  const nodes = placed ? seriesOf(placed).filter((s) => s.metric.node && s.metric.pod) : [];
  const where = nodes.length ? `; ${nodes.map((s) => `pod ${s.metric.pod} runs on node ${s.metric.node}`).join(', ')}` : '';
  answer.record(
    session,
    `${rule.alerts.length ? `${name} is active` : `The condition of ${name} ${when}`} for ${named.join('; ')}${where}`,
    placed && nodes.length ? [run, placed] : run,
  );
}
