import { Timestamp } from '@svc/platform';
import type { ContainerState as Container, EventState as Event, PodState as Pod } from '../explainers/kubernetes-pods';
import type { InvestigationSession, RecordedRun } from '../reasoner';
import type { QuestionKind, TypedQuestion } from './parse';
import type { AnswerWriter } from './answer';
import { clock } from './format';
import { incidentNamespace } from './signal-reads';

/** The kinds of question a question of the cluster's words is read as (a listing, a relation, changes, logs or what to do keep their own answers). */
const CLUSTER_KINDS = new Set<QuestionKind>(['cause', 'unknown', 'signals', 'when']);

/** Whether the question is answered from the cluster: it asks what the cluster says, and a Kubernetes integration is connected. */
export const readsTheCluster = (asked: TypedQuestion, session: InvestigationSession): boolean =>
  asked.asksCluster && CLUSTER_KINDS.has(asked.kind) && session.sources.some((s) => s.type === 'kubernetes');

/** Pods listed in the answer's table, events in its other table. */
const MAX_PODS = 8;
const MAX_EVENTS = 8;
/** Lines of a terminated container's previous log read. */
const TAIL_LINES = 20;

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\s+/g, ' ').slice(0, 200);
const at = (iso: string | undefined, day: Timestamp) => {
  const t = iso ? Timestamp.parse(iso) : null;
  return t ? clock(t, day) : '-';
};

/** A container's state in words: `running`, `waiting (CrashLoopBackOff)`, `terminated (Error, exit code 1)`. */
function stateOf(c: Container): string {
  if (c.state?.waiting) return `waiting (${c.state.waiting.reason ?? 'unknown'})`;
  if (c.state?.terminated) return `terminated (${c.state.terminated.reason ?? 'unknown'}, exit code ${c.state.terminated.exitCode ?? '?'})`;
  return c.state?.running ? 'running' : 'unknown';
}

/** Whether a container is in trouble: not running, or it ended before. */
const troubled = (c: Container) => !!c.state?.waiting || !!c.state?.terminated || !!c.lastState?.terminated;

/**
 * "Why did it crash?", "what events are there?": what the Kubernetes API says of the workload asked
 * about (else the incident's) in the incident's namespace: its pods' states (`kubernetes.pod_status`
 * of the Deployment), the events of the pod in most trouble and its owners (`kubernetes.events`),
 * and, when a container of it terminated, the last lines its previous instance wrote
 * (`kubernetes.container_logs` with `previous`). Says so when no Kubernetes integration reads the
 * namespace, or the incident names none.
 */
export async function answerCluster(session: InvestigationSession, answer: AnswerWriter, workload: string | null): Promise<void> {
  const namespace = incidentNamespace(session);
  const clusters = session.sources.filter((s) => s.type === 'kubernetes');
  if (!workload) return answer.cannot("the question names no service, and the incident's alerts name none whose pods to read", null);
  if (!namespace) return answer.cannot(`the incident's alerts name no namespace, so the pods of ${workload} cannot be found in the cluster`, null);
  const cluster = clusters[0];
  const day = session.window.until;
  const status = await session.runTool({
    tool: 'kubernetes.pod_status',
    integrationId: cluster.integrationId,
    arguments: { namespace, workload: { kind: 'Deployment', name: workload } },
    purpose: `The state of the pods of ${workload} in ${namespace}`,
  });
  if (status.outcome !== 'succeeded')
    return answer.cannot(
      `the pods of the Deployment ${workload} in ${namespace} could not be read: ${status.error ?? 'the Kubernetes API did not answer'}`,
      status,
    );
  const pods = ((status.output as { pods?: Pod[] } | null)?.pods ?? []).filter((p) => p.name);
  if (!pods.length) return answer.record(session, `The Deployment ${workload} in ${namespace} has no pod`, status);
  const byTrouble = [...pods].sort(
    (a, b) => Number((b.containers ?? []).some(troubled)) - Number((a.containers ?? []).some(troubled)) || (b.restarts ?? 0) - (a.restarts ?? 0),
  );
  const worst = byTrouble[0];
  const inTrouble = pods.filter((p) => (p.containers ?? []).some(troubled) || p.conditions?.some((c) => c.type === 'PodScheduled' && c.status === 'False'));
  const crashed = (worst.containers ?? []).find((c) => c.lastState?.terminated);
  const lead = inTrouble.length
    ? `${inTrouble.length} of the ${pods.length} pod(s) of ${workload} in ${namespace} are in trouble: ${inTrouble
        .slice(0, 3)
        .map((p) => podWords(p, day))
        .join('; ')}`
    : `The ${pods.length} pod(s) of ${workload} in ${namespace} are running, none restarted or waiting`;
  const table = [
    '| pod | phase | ready | restarts | state | last termination |',
    '|---|---|---|---:|---|---|',
    ...byTrouble.slice(0, MAX_PODS).map((p) => {
      const containers = p.containers ?? [];
      const last = containers.find((c) => c.lastState?.terminated)?.lastState?.terminated;
      return `| ${p.name} | ${p.phase ?? '-'} | ${containers.length ? `${containers.filter((c) => c.ready).length}/${containers.length}` : '-'} | ${p.restarts ?? 0} | ${cell(containers.map(stateOf).join(', ') || '-')} | ${last ? `${last.reason ?? '?'}, exit code ${last.exitCode ?? '?'}, ${at(last.finishedAt, day)}` : '-'} |`;
    }),
  ].join('\n');
  answer.record(session, lead, status, table);

  const events = await session.runTool({
    tool: 'kubernetes.events',
    integrationId: cluster.integrationId,
    arguments: { namespace, kind: 'Pod', name: worst.name! },
    purpose: `The events of pod ${worst.name} and its owners`,
  });
  if (events.outcome === 'succeeded') recordEvents(session, answer, events, worst.name!, day);

  if (crashed) {
    const logs = await session.runTool({
      tool: 'kubernetes.container_logs',
      integrationId: cluster.integrationId,
      arguments: { namespace, pod: worst.name!, container: crashed.name!, previous: true, tailLines: TAIL_LINES },
      purpose: `The last lines ${crashed.name} in ${worst.name} wrote before it ended`,
    });
    const lines = logs.outcome === 'succeeded' ? ((logs.output as { lines?: string[] } | null)?.lines ?? []) : [];
    if (lines.length)
      answer.record(
        session,
        `The last line the previous instance of ${crashed.name} in ${worst.name} wrote before it ended (${crashed.lastState!.terminated!.reason ?? 'terminated'}): \`${cell(lines[lines.length - 1])}\``,
        logs,
        ['| last lines of the previous instance |', '|---|', ...lines.slice(-5).map((l) => `| \`${cell(l)}\` |`)].join('\n'),
      );
  }
}

/** A pod in words: its containers waiting or ended, with the reason, exit code, when and restarts. */
function podWords(p: Pod, day: Timestamp): string {
  const unscheduled = p.conditions?.find((c) => c.type === 'PodScheduled' && c.status === 'False');
  if (unscheduled) return `${p.name} is not scheduled${unscheduled.message ? ` (${unscheduled.message})` : ''}`;
  const parts = (p.containers ?? []).filter(troubled).map((c) => {
    const last = c.lastState?.terminated;
    return `${c.name} ${stateOf(c)}${last ? `, last terminated ${last.reason ?? ''} (exit code ${last.exitCode ?? '?'}) at ${at(last.finishedAt, day)}` : ''}`;
  });
  return `${p.name}: ${parts.join(', ')}, ${p.restarts ?? 0} restart(s)`;
}

function recordEvents(session: InvestigationSession, answer: AnswerWriter, run: RecordedRun, pod: string, day: Timestamp): void {
  const events = (run.output as { events?: Event[] } | null)?.events ?? [];
  if (!events.length) return answer.record(session, `No event of ${pod} or its owners is kept (the cluster keeps them for about an hour)`, run);
  const warnings = events.filter((e) => e.type === 'Warning');
  const lead = warnings.length
    ? `${warnings.length} warning event(s) of ${pod} and its owners: ${warnings
        .slice(0, 3)
        .map((e) => `${e.reason} ×${e.count ?? 1} (${cell(e.message ?? '')})`)
        .join('; ')}`
    : `${events.length} event(s) of ${pod} and its owners, none a warning`;
  const table = [
    '| type | reason | object | count | last | message |',
    '|---|---|---|---:|---|---|',
    ...events
      .slice(0, MAX_EVENTS)
      .map(
        (e) =>
          `| ${e.type ?? '-'} | ${e.reason ?? '-'} | ${e.object ?? '-'} | ${e.count ?? 1} | ${at(e.lastTime ?? e.firstTime, day)} | ${cell(e.message ?? '')} |`,
      ),
  ].join('\n');
  answer.record(session, lead, run, table);
}
