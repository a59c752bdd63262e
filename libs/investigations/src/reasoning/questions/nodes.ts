import type { Timestamp } from '@svc/platform';
import { escape, quote } from '../explainers/labels';
import type { InvestigationSession, RecordedRun, SourceBrief } from '../reasoner';
import { pointsOf, seriesOf, shift } from '../series-reading';
import type { AnswerWriter } from './answer';
import { clock } from './format';
import { STEP_SECONDS } from './signal-reads';

const MAX_ROWS = 12;

/**
 * Which nodes failed and when ("which node died?", "when did it go NotReady?", "which machine
 * failed, and what ran on it?"): kube-state-metrics' node conditions over the window (not Ready,
 * or under memory, disk or PID pressure), of the nodes named or of every node; each with when it
 * began, whether it still holds, and the pods that ran on it just before.
 */
export async function answerNodeHealth(
  session: InvestigationSession,
  source: SourceBrief,
  answer: AnswerWriter,
  nodes: string[],
  until: Timestamp,
): Promise<void> {
  const from = session.window.from;
  const on = nodes.length ? `node=~${quote(nodes.map(escape).join('|'))}, ` : '';
  const run = await session.runTool({
    tool: 'prometheus.query_range',
    integrationId: source.integrationId,
    arguments: {
      query: `max by (node, condition) (kube_node_status_condition{${on}condition="Ready", status="true"} == 0) or max by (node, condition) (kube_node_status_condition{${on}condition=~"MemoryPressure|DiskPressure|PIDPressure", status="true"} == 1)`,
      start: from.toISOString(),
      end: until.toISOString(),
      step: STEP_SECONDS,
    },
    purpose: `Which ${nodes.length ? `of ${nodes.join(', ')}` : 'nodes'} were not Ready or under pressure, and when`,
  });
  if (run.outcome !== 'succeeded') {
    answer.cannot(`the nodes' conditions could not be read (${run.error ?? 'failed'}), so which failed is unknown`, run);
    return;
  }
  const step = BigInt(STEP_SECONDS) * 1_000_000n;
  const troubles = seriesOf(run)
    .map((s) => ({ node: s.metric.node ?? '', condition: s.metric.condition ?? '', points: pointsOf(s) }))
    .filter((t) => t.node && t.points.length)
    .map((t) => ({ ...t, since: t.points[0].t, last: t.points[t.points.length - 1].t }))
    .sort((a, b) => (a.since.isAfter(b.since) ? 1 : -1));
  if (!troubles.length) {
    // No condition series at all may mean kube-state-metrics does not report them: say which was read.
    answer.record(
      session,
      `${nodes.length ? nodes.join(', ') : 'Every node'} stayed Ready, without memory, disk or PID pressure, from ${clock(from, until)} to ${clock(until, until)} (kube_node_status_condition)`,
      run,
    );
    return;
  }
  const say = (t: (typeof troubles)[number]): string => {
    const what = t.condition === 'Ready' ? 'has not been Ready' : `has been under ${t.condition}`;
    const holds = until.epochMicros - t.last.epochMicros <= 2n * step;
    return holds
      ? `Node ${t.node} ${what} since ${clock(t.since, until)}, and still at ${clock(until, until)}`
      : `Node ${t.node} ${t.condition === 'Ready' ? 'was not Ready' : `was under ${t.condition}`} from ${clock(t.since, until)} to ${clock(t.last, until)}`;
  };
  // The pods that ran on the first node that failed, just before it did.
  const first = troubles[0];
  const before = shift(first.since, -2n * step);
  const pods: RecordedRun = await session.runTool({
    tool: 'prometheus.query',
    integrationId: source.integrationId,
    arguments: { query: `max by (namespace, pod, created_by_name) (kube_pod_info{node=${quote(first.node)}})`, time: before.toISOString() },
    purpose: `Which pods ran on ${first.node} just before it failed`,
  });
  const rows = seriesOf(pods)
    .map((s) => ({ pod: s.metric.pod ?? '', namespace: s.metric.namespace ?? '' }))
    .filter((r) => r.pod);
  const table = rows.length
    ? ['| pod | namespace |', '|---|---|', ...rows.slice(0, MAX_ROWS).map((r) => `| ${r.pod} | ${r.namespace} |`)].join('\n')
    : undefined;
  answer.record(
    session,
    `${troubles.slice(0, 3).map(say).join('; ')}${rows.length ? `; ${rows.length} pod(s) ran on ${first.node} at ${clock(before, until)}, just before` : ''}`,
    rows.length ? [run, pods] : run,
    table,
  );
}
