import { escape, quote, workloadOfPod } from '../explainers/labels';
import { CallPair, callPath } from '../graph/call-graph';
import type { InvestigationSession, RecordedRun, SourceBrief } from '../reasoner';
import { earliest, MINUTE, seriesOf, shift } from '../series-reading';

/** How long before the incident's first alert the pods read ran: a neighbour that began the trouble ran beside them then. */
const PODS_BEFORE_ALERT = 30n * MINUTE;
import type { AnswerWriter } from './answer';
import { clock } from './format';
import { incidentNamespace, type Subject } from './signal-reads';

/**
 * Whether two services are related: a chain of calls from one to the other (the caller → callee
 * pairs service graphs, meshes and client metrics show, read before), the services both call,
 * and the nodes both ran pods on from before the incident to now (kube-state-metrics' kube_pod_info). Each said with the run
 * that shows it; a relation the data cannot show is said to be unknown, not absent.
 */
export async function answerRelated(
  session: InvestigationSession,
  source: SourceBrief,
  answer: AnswerWriter,
  [a, b]: [Subject, Subject],
  calls: { pairs: CallPair[]; run: RecordedRun },
): Promise<void> {
  const until = session.window.until;
  const [x, y] = [a.value, b.value];
  if (!calls.pairs.length) answer.cannot(`no series pairs callers and callees, so whether ${x} and ${y} call each other is unknown`, calls.run);
  else {
    const path = callPath(calls.pairs, x, y) ?? callPath(calls.pairs, y, x);
    const through = (p: string[]): string =>
      p.length === 2 ? `${p[0]} calls ${p[1]}` : `${p[0]} calls ${p[p.length - 1]} through ${p.slice(1, -1).join(', ')} (${p.join(' → ')})`;
    const both = [...new Set(calls.pairs.filter((p) => p.caller === x).map((p) => p.callee))].filter((c) =>
      calls.pairs.some((p) => p.caller === y && p.callee === c),
    );
    if (path) answer.record(session, through(path), calls.run);
    if (both.length) answer.record(session, `${x} and ${y} both call ${both.join(', ')}`, calls.run);
    if (!path && !both.length) answer.record(session, `No call between ${x} and ${y} shows in the series that pair callers and callees`, calls.run);
  }
  const namespace = incidentNamespace(session);
  const pods = `pod=~${quote(`(${escape(x)}|${escape(y)})-.+`)}`;
  // The pods that ran from before the incident to now: a rollout may have moved them since.
  const firstAlert = earliest(session.alerts.map((al) => al.startsAt)) ?? until;
  const since = shift(firstAlert, -PODS_BEFORE_ALERT);
  const from = since.isAfter(session.window.from) ? since : session.window.from;
  const minutes = Math.max(1, Math.ceil(Number(until.epochMicros - from.epochMicros) / 60e6));
  const run = await session.runTool({
    tool: 'prometheus.query',
    integrationId: source.integrationId,
    arguments: {
      query: `max by (node, pod) (max_over_time(kube_pod_info{${[namespace ? `namespace=${quote(namespace)}` : '', pods].filter(Boolean).join(', ')}}[${minutes}m]))`,
      time: until.toISOString(),
    },
    purpose: `Which nodes the pods of ${x} and ${y} ran on from ${from.toISOString()} on`,
  });
  // A pod is a workload's when its name is the workload's with a replica suffix (orders-worker's pods are not orders').
  const podsOf = (name: string): Array<{ pod: string; node: string }> =>
    seriesOf(run)
      .map((s) => ({ pod: s.metric.pod ?? '', node: s.metric.node ?? '' }))
      .filter((p) => p.node && (workloadOfPod(p.pod) === name || (workloadOfPod(p.pod) === p.pod && p.pod.startsWith(`${name}-`))));
  const [onX, onY] = [podsOf(x), podsOf(y)];
  const span = `from ${clock(from, until)} to ${clock(until, until)}`;
  if (!onX.length || !onY.length) {
    answer.cannot(
      `no kube_pod_info names the pods of ${[!onX.length ? x : '', !onY.length ? y : ''].filter(Boolean).join(' and ')} ${span}, so whether they share a node is unknown`,
      run,
    );
    return;
  }
  const shared = [...new Set(onX.map((p) => p.node))].filter((n) => onY.some((p) => p.node === n));
  const nodesOf = (list: Array<{ node: string }>): string => [...new Set(list.map((p) => p.node))].join(', ');
  answer.record(
    session,
    shared.length
      ? `${x} and ${y} share node${shared.length === 1 ? '' : 's'} ${shared.join(', ')} ${span} (${shared
          .map(
            (n) =>
              [...onX, ...onY]
                .filter((p) => p.node === n)
                .map((p) => p.pod)
                .join(' and ') + ` on ${n}`,
          )
          .join('; ')})`
      : `${x} and ${y} ran on different nodes ${span} (${x}: ${nodesOf(onX)}; ${y}: ${nodesOf(onY)})`,
    run,
  );
}
