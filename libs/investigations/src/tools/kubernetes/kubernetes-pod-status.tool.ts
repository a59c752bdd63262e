import type { V1ContainerState, V1ContainerStatus, V1Pod } from '@kubernetes/client-node';
import { count } from '../series-name';
import type { ToolDefinition } from '../tool.types';
import { checkNamespace, isoTime, listAll, NAME_PATTERN, NAMESPACE_ARGUMENT, withKubernetes } from './kubernetes-api';
import { readWorkload, WORKLOAD_KINDS, WorkloadKind, workloadPods } from './kubernetes-workloads';

export type KubernetesPodStatusArguments = {
  namespace: string;
  pod?: string;
  labelSelector?: string;
  workload?: { kind: WorkloadKind; name: string };
};

/** Pods described at most (the others are counted). */
export const MAX_PODS = 20;
const MAX_TEXT = 512;

const cut = (text: string | undefined) => (text && text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT - 1)}…` : text);

function stateOf(state: V1ContainerState | undefined) {
  if (state?.running) return { running: { startedAt: isoTime(state.running.startedAt) } };
  if (state?.waiting) return { waiting: { reason: state.waiting.reason, message: cut(state.waiting.message) } };
  if (state?.terminated) {
    const t = state.terminated;
    return {
      terminated: {
        reason: t.reason,
        exitCode: t.exitCode,
        ...(t.signal !== undefined ? { signal: t.signal } : {}),
        startedAt: isoTime(t.startedAt),
        finishedAt: isoTime(t.finishedAt),
        ...(t.message ? { message: cut(t.message) } : {}),
      },
    };
  }
  return undefined;
}

function containerOf(status: V1ContainerStatus) {
  return {
    name: status.name,
    image: status.image,
    ready: status.ready,
    restartCount: status.restartCount,
    state: stateOf(status.state),
    ...(status.lastState?.terminated ? { lastState: stateOf(status.lastState) } : {}),
  };
}

/** One pod as the run states it: phase, conditions, each container's state and last termination, restarts. */
export function podStatus(pod: V1Pod) {
  const status = pod.status ?? {};
  const containers = (status.containerStatuses ?? []).map(containerOf);
  const initContainers = (status.initContainerStatuses ?? []).map(containerOf);
  return {
    name: pod.metadata?.name,
    phase: status.phase,
    ...(status.reason ? { reason: status.reason } : {}),
    ...(status.message ? { message: cut(status.message) } : {}),
    node: pod.spec?.nodeName,
    startTime: isoTime(status.startTime),
    owner: pod.metadata?.ownerReferences?.find((o) => o.controller)?.name,
    restarts: containers.reduce((sum, c) => sum + (c.restartCount ?? 0), 0),
    conditions: (status.conditions ?? []).map((c) => ({
      type: c.type,
      status: c.status,
      ...(c.reason ? { reason: c.reason } : {}),
      ...(c.message ? { message: cut(c.message) } : {}),
      lastTransitionTime: isoTime(c.lastTransitionTime),
    })),
    containers,
    ...(initContainers.length ? { initContainers } : {}),
  };
}

/** What stands out in a pod, in a few words: a waiting reason, a last termination, restarts. */
function finding(pod: ReturnType<typeof podStatus>): string | undefined {
  for (const c of pod.containers) {
    const last = c.lastState?.terminated;
    if (c.state?.waiting?.reason && c.state.waiting.reason !== 'ContainerCreating')
      return `${pod.name}/${c.name} is waiting (${c.state.waiting.reason})${last ? `, last terminated ${last.reason ?? ''} exit code ${last.exitCode} at ${last.finishedAt}` : ''}`;
    if (last)
      return `${pod.name}/${c.name} restarted ${count(c.restartCount ?? 0, 'time')}, last terminated ${last.reason ?? ''} exit code ${last.exitCode} at ${last.finishedAt}`;
  }
  if (pod.phase !== 'Running' && pod.phase !== 'Succeeded') return `${pod.name} is ${pod.phase}${pod.reason ? ` (${pod.reason})` : ''}`;
  return undefined;
}

export const kubernetesPodStatusTool: ToolDefinition<KubernetesPodStatusArguments> = {
  name: 'kubernetes.pod_status',
  integrationType: 'kubernetes',
  description:
    "Reads pods' status from the Kubernetes API: phase, conditions, each container's state (running, waiting with its reason such as CrashLoopBackOff or ImagePullBackOff, terminated) " +
    'and lastState.terminated (reason such as OOMKilled or Error, exit code, start and finish times), and restart counts. ' +
    'Name one pod, or select pods by label selector, or by their owner workload (a Deployment, StatefulSet, DaemonSet or ReplicaSet). ' +
    'Use it to learn why a workload is unhealthy: a crash, an OOM kill, a failing probe, a pod that cannot start.',
  argumentsSchema: {
    type: 'object',
    properties: {
      namespace: NAMESPACE_ARGUMENT,
      pod: { type: 'string', pattern: NAME_PATTERN, maxLength: 253, description: 'One pod by name' },
      labelSelector: { type: 'string', minLength: 1, maxLength: 1024, description: 'Pods matching a label selector, e.g. "app=checkout"' },
      workload: {
        type: 'object',
        properties: {
          kind: { type: 'string', enum: [...WORKLOAD_KINDS] },
          name: { type: 'string', pattern: NAME_PATTERN, maxLength: 253 },
        },
        required: ['kind', 'name'],
        additionalProperties: false,
        description: 'The pods a workload owns',
      },
    },
    required: ['namespace'],
    additionalProperties: false,
  },
  check: (args) =>
    [args.pod, args.labelSelector, args.workload].filter((given) => given !== undefined).length === 1
      ? null
      : 'Give exactly one of pod, labelSelector or workload',
  async run(args, context) {
    checkNamespace(context, args.namespace);
    return withKubernetes(context, async (session) => {
      const { core } = session.apis;
      let pods: V1Pod[];
      let more = false;
      let selected: string;
      if (args.pod) {
        pods = [await core.readNamespacedPod({ namespace: args.namespace, name: args.pod })];
        selected = `pod ${args.namespace}/${args.pod}`;
      } else if (args.workload) {
        const workload = await readWorkload(session, args.namespace, args.workload.kind, args.workload.name);
        ({ pods, more } = await workloadPods(session, args.namespace, workload));
        selected = `the pods of ${args.workload.kind} ${args.namespace}/${args.workload.name}`;
      } else {
        ({ items: pods, more } = await listAll((page) => core.listNamespacedPod({ namespace: args.namespace, labelSelector: args.labelSelector, ...page })));
        selected = `the pods of ${args.namespace} matching ${args.labelSelector}`;
      }
      const described = pods.map(podStatus).sort((a, b) => b.restarts - a.restarts || String(a.name).localeCompare(String(b.name)));
      const kept = described.slice(0, MAX_PODS);
      const findings = described.map(finding).filter((f): f is string => f !== undefined);
      const notRunning = described.filter((p) => p.phase !== 'Running').length;
      let summary = pods.length
        ? `${count(pods.length, 'pod')} (${selected}), ${notRunning ? `${notRunning} not Running` : 'all Running'}, ${count(
            described.reduce((sum, p) => sum + p.restarts, 0),
            'restart',
          )}${findings.length ? `: ${findings.slice(0, 3).join('; ')}` : ''}.`
        : `No pod: ${selected} match none.`;
      if (kept.length < described.length) summary += ` The ${kept.length} with the most restarts are described.`;
      if (more) summary += ' More pods exist than were read; narrow the selector.';
      return {
        outcome: 'succeeded' as const,
        summary,
        output: {
          namespace: args.namespace,
          count: pods.length,
          pods: kept,
          ...(kept.length < described.length ? { more: described.length - kept.length } : {}),
          ...(more ? { unread: true } : {}),
        },
        truncated: false,
        sources: [...session.sources],
      };
    });
  },
};
