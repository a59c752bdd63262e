import { Timestamp } from '@svc/platform';
import type { RecordedRun, SourceBrief } from '../reasoner';
import type { ExplainerContext } from './context';
import type { DetectedCause, Explainer } from './explainer';

/** The waiting reasons that keep a container from starting at all. */
const CANNOT_START = new Set([
  'ImagePullBackOff',
  'ErrImagePull',
  'InvalidImageName',
  'CreateContainerConfigError',
  'CreateContainerError',
  'RunContainerError',
]);
/** The previous instance's last lines quoted in the mechanism. */
const LAST_LINES = 3;
const TAIL_LINES = 50;

/** The session tool that reads the incident's Kubernetes snapshot (the engine offers it when one was taken). */
export const KUBERNETES_SNAPSHOT_TOOL_NAME = 'incident.kubernetes_snapshot';

/** A container of a pod as kubernetes.pod_status states it. */
export interface ContainerState {
  name: string;
  ready?: boolean;
  restartCount?: number;
  state?: { running?: unknown; waiting?: { reason?: string; message?: string }; terminated?: { reason?: string; exitCode?: number } };
  lastState?: { terminated?: { reason?: string; exitCode?: number; finishedAt?: string } };
}

/** A pod as kubernetes.pod_status states it. */
export interface PodState {
  name: string;
  phase?: string;
  reason?: string;
  message?: string;
  restarts?: number;
  conditions?: Array<{ type: string; status: string; reason?: string; message?: string; lastTransitionTime?: string }>;
  containers?: ContainerState[];
}

/** An event as kubernetes.events lists it. */
export interface EventState {
  type?: string;
  reason?: string;
  message?: string;
  object?: string;
  count?: number;
  firstTime?: string;
  lastTime?: string;
}

/**
 * What the Kubernetes API says of the alerting workload's pods (with a `kubernetes` integration):
 * their state now (`kubernetes.pod_status` of the pod the alert names, else of the Deployment
 * named after the workload). A container terminated near the onset (its `lastState.terminated`:
 * OOMKilled, Error with its exit code) is a cause, with the last lines its previous instance wrote
 * (`kubernetes.container_logs`, `previous=true`); a container that cannot start (an image that
 * cannot be pulled, a missing ConfigMap or Secret) or a pod that cannot be scheduled, from near the
 * onset, is one too, with the API's own message. A termination the metrics already showed as a
 * restart or crash loop of the same pod is left to them.
 */
export const kubernetesPodsExplainer: Explainer = {
  name: 'pod states from the Kubernetes API',
  // It reads the Kubernetes API, not metrics: never left out for want of series.
  reads: [],
  appliesTo: (scope) => !!scope.namespace && !!(scope.labels.pod || scope.workload),
  async explain(ctx, found) {
    const k8s = ctx.session.sources.find((s) => s.type === 'kubernetes');
    if (!k8s || !ctx.canRead(1)) return null;
    const namespace = ctx.scope.namespace!;
    const pod = ctx.scope.labels.pod;
    const run = await ctx.session.runTool({
      tool: 'kubernetes.pod_status',
      integrationId: k8s.integrationId,
      arguments: pod ? { namespace, pod } : { namespace, workload: { kind: 'Deployment', name: ctx.scope.workload! } },
      purpose: `The state of the pods of ${ctx.who} in the Kubernetes API: terminations, containers that cannot start, pods not scheduled`,
    });
    // A pod the alert names that is gone now may still be in the snapshot taken when the incident opened.
    const pods = run.outcome === 'succeeded' ? ((run.output as { pods?: PodState[] } | null)?.pods ?? []) : [];
    if (run.outcome !== 'succeeded' && !pod) return null;
    // Restarts of these pods the metrics showed are their explainers' to state.
    const restarted = new Set(found.flatMap((c) => c.restartedPods ?? []));
    // The pods as they are now, then those the incident's snapshot saw that are gone (a crashed pod replaced since), with the run that shows each.
    const shown: Array<{ p: PodState; run: RecordedRun }> = [...pods.map((p) => ({ p, run })), ...snapshotPods(ctx, namespace, pods)];
    for (const { p, run: seen } of shown) {
      for (const c of p.containers ?? []) {
        const last = c.lastState?.terminated;
        const at = last?.finishedAt ? Timestamp.parse(last.finishedAt) : null;
        if (last && ctx.near(at) && !restarted.has(p.name)) return terminated(ctx, k8s, seen, namespace, p, c.name, last, at, c.restartCount ?? 0);
      }
    }
    for (const p of pods) {
      const waiting = (p.containers ?? []).find((c) => c.state?.waiting?.reason && CANNOT_START.has(c.state.waiting.reason));
      const unscheduled = p.phase === 'Pending' ? p.conditions?.find((c) => c.type === 'PodScheduled' && c.status === 'False') : undefined;
      const since = (p.conditions?.find((c) => c.type === (unscheduled ? 'PodScheduled' : 'Ready'))?.lastTransitionTime ?? null) as string | null;
      const at = since ? Timestamp.parse(since) : null;
      if (!ctx.near(at)) continue;
      if (waiting) {
        const reason = waiting.state!.waiting!.reason!;
        const message = waiting.state!.waiting!.message;
        return cannotRun(ctx, run, at, `the container ${waiting.name} of pod ${p.name} cannot start (${reason}${message ? `: ${message}` : ''})`, reason);
      }
      if (unscheduled)
        return cannotRun(
          ctx,
          run,
          at,
          `pod ${p.name} cannot be scheduled (${unscheduled.reason ?? 'Unschedulable'}${unscheduled.message ? `: ${unscheduled.message}` : ''})`,
          'scheduling',
        );
    }
    // A pod the kubelet evicted near the onset (its node ran low on memory or disk), in the kubelet's words.
    for (const p of pods) {
      if (p.phase !== 'Failed' || p.reason !== 'Evicted') continue;
      const since = p.conditions?.find((c) => c.type === 'Ready')?.lastTransitionTime;
      const at = since ? Timestamp.parse(since) : null;
      if (ctx.near(at)) return cannotRun(ctx, run, at, `pod ${p.name} was evicted${p.message ? ` (${p.message})` : ''}`, 'eviction');
    }
    // A pod that stopped being ready near the onset, its containers neither ended nor waiting (a crash
    // explains its readiness) and no restart of it seen in the metrics: its probes' failures, in its events.
    const unready = pods.find((p) => {
      const ready = p.conditions?.find((c) => c.type === 'Ready');
      const crashed = (p.containers ?? []).some((c) => c.lastState?.terminated || c.state?.waiting);
      return (
        p.phase === 'Running' &&
        !crashed &&
        !restarted.has(p.name) &&
        ready?.status === 'False' &&
        ctx.near(ready.lastTransitionTime ? Timestamp.parse(ready.lastTransitionTime) : null)
      );
    });
    return unready && ctx.canRead(1) ? probesFailing(ctx, k8s, run, namespace, unready) : null;
  },
};

/**
 * The pods of the alerting workload (or the pod it names) that the incident's Kubernetes snapshot
 * saw when it opened and that the API no longer lists, with the snapshot's run.
 */
function snapshotPods(ctx: ExplainerContext, namespace: string, now: PodState[]): Array<{ p: PodState; run: RecordedRun }> {
  const snapshot = ctx.session.runs.find((r) => r.tool === KUBERNETES_SNAPSHOT_TOOL_NAME && r.outcome === 'succeeded');
  if (!snapshot) return [];
  const listed = new Set(now.map((p) => p.name));
  const named = ctx.scope.labels.pod;
  const reads = (snapshot.output as { runs?: Array<{ tool?: string; arguments?: Record<string, unknown>; output?: unknown }> } | null)?.runs ?? [];
  return reads
    .filter((r) => r.tool === 'kubernetes.pod_status' && r.arguments?.namespace === namespace)
    .filter((r) => (named ? r.arguments?.pod === named : (r.arguments?.workload as { name?: string } | undefined)?.name === ctx.scope.workload))
    .flatMap((r) => (r.output as { pods?: PodState[] } | null)?.pods ?? [])
    .filter((p) => !listed.has(p.name))
    .map((p) => ({ p, run: snapshot }));
}

/** A probe of a pod not ready failing from near the onset (`Unhealthy` events): the kubelet's message, how often. */
async function probesFailing(ctx: ExplainerContext, k8s: SourceBrief, status: RecordedRun, namespace: string, pod: PodState): Promise<DetectedCause | null> {
  const run = await ctx.session.runTool({
    tool: 'kubernetes.events',
    integrationId: k8s.integrationId,
    arguments: { namespace, kind: 'Pod', name: pod.name, owners: false },
    purpose: `Why pod ${pod.name} of ${ctx.who} stopped being ready: its probes' failures`,
  });
  if (run.outcome !== 'succeeded') return null;
  const events = (run.output as { events?: EventState[] } | null)?.events ?? [];
  const failing = events.find((e) => e.type === 'Warning' && e.reason === 'Unhealthy' && ctx.near(e.firstTime ? Timestamp.parse(e.firstTime) : null));
  if (!failing) return null;
  const at = Timestamp.parse(failing.firstTime!)!;
  const probe = /^(\w+) probe/i.exec(failing.message ?? '')?.[1]?.toLowerCase() ?? 'a';
  const what = `the ${probe} probe of pod ${pod.name} failing ${failing.count ?? 1} times from ${at.toISOString()}${failing.message ? ` (${failing.message})` : ''}`;
  return {
    id: 'h-k8s-probe',
    statement: `The ${probe} probe of ${ctx.who} failing from ${at.toISOString()} (pod ${pod.name}) caused the alert's condition`,
    at,
    run,
    mechanism: `The Kubernetes API reports pod ${pod.name} not ready, and ${what}${probe === 'readiness' ? ': the pod is taken out of its Service while it fails' : probe === 'liveness' ? ': the kubelet restarts its container while it fails' : ''}`,
    mechanismRuns: [status.ordinal, run.ordinal],
    chainRuns: [],
    unexplained: [`why ${ctx.who} stopped answering its ${probe} probe (its own fault, or what it depends on)`],
    action: {
      title: `Find why ${ctx.who} fails its ${probe} probe`,
      rationale: `The Kubernetes API says ${what}`,
      verification: `the probe passes, the pod is ready and the alert resolves`,
    },
  };
}

/** A container terminated near the onset: its reason and exit code, and the last lines of the instance that ended. */
async function terminated(
  ctx: ExplainerContext,
  k8s: SourceBrief,
  run: RecordedRun,
  namespace: string,
  pod: PodState,
  container: string,
  last: { reason?: string; exitCode?: number },
  at: Timestamp,
  restarts: number,
): Promise<DetectedCause> {
  const logs = ctx.canRead(1)
    ? await ctx.session.runTool({
        tool: 'kubernetes.container_logs',
        integrationId: k8s.integrationId,
        arguments: { namespace, pod: pod.name, container, previous: true, tailLines: TAIL_LINES },
        purpose: `The last lines the instance of ${container} in ${pod.name} that terminated wrote`,
      })
    : null;
  const lines = logs?.outcome === 'succeeded' ? ((logs.output as { lines?: string[] } | null)?.lines ?? []) : [];
  const reason = last.reason ?? 'terminated';
  const oom = reason === 'OOMKilled';
  const said = `${reason}, exit code ${last.exitCode ?? '?'}`;
  return {
    id: 'h-k8s-terminated',
    statement: `The termination of container ${container} of ${ctx.who} (pod ${pod.name}: ${said}) at ${at.toISOString()} caused the alert's condition`,
    at,
    run,
    mechanism:
      `The Kubernetes API ${run.tool === KUBERNETES_SNAPSHOT_TOOL_NAME ? 'reported when the incident opened (the pod is gone since) that' : 'reports'} the last instance of ${container} in ${pod.name} terminated ${said} at ${at.toISOString()}, ${restarts} restart${restarts === 1 ? '' : 's'} so far` +
      (lines.length ? `; its last lines: ${lines.slice(-LAST_LINES).join(' | ')}` : ''),
    mechanismRuns: [run.ordinal, ...(lines.length && logs ? [logs.ordinal] : [])],
    chainRuns: logs ? [logs.ordinal] : [],
    unexplained: [oom ? `why the memory use of ${container} reached its limit` : `why ${container} exited with code ${last.exitCode ?? '?'}`],
    restartedPods: [pod.name],
    action: {
      title: oom ? `Find what filled the memory of ${ctx.who} (or raise its limit)` : `Find why ${ctx.who} exits with code ${last.exitCode ?? '?'}`,
      rationale: `Its container ${container} terminated (${said}) at ${at.toISOString()}, with the alert's condition`,
      verification: `${container} stops restarting and the alert resolves`,
    },
  };
}

/** Pods that cannot run (a container that cannot start, a pod not scheduled), from near the onset, in the API's words. */
function cannotRun(ctx: ExplainerContext, run: RecordedRun, at: Timestamp, what: string, reason: string): DetectedCause {
  return {
    id: 'h-k8s-cannot-run',
    statement: `The pods of ${ctx.who} not running from ${at.toISOString()}: ${what}, caused the alert's condition`,
    at,
    run,
    mechanism: `The Kubernetes API reports ${what}, since ${at.toISOString()}`,
    mechanismRuns: [run.ordinal],
    chainRuns: [],
    unexplained: [
      reason === 'eviction'
        ? 'what filled the node it ran on (another pod, or its own use above its requests)'
        : `what made ${reason === 'scheduling' ? 'the cluster unable to place it' : 'it fail to start'} (a change of its image, configuration or the cluster)`,
    ],
    action: {
      title:
        reason === 'scheduling'
          ? `Make room for the pods of ${ctx.who}, or lower their requests`
          : reason === 'eviction'
            ? `Relieve the pressure on the node of ${ctx.who}, or raise its requests so that it is not evicted first`
            : `Fix what keeps ${ctx.who} from starting (${reason})`,
      rationale: `The Kubernetes API says ${what}`,
      verification: `the pods of ${ctx.who} run and the alert resolves`,
    },
  };
}
