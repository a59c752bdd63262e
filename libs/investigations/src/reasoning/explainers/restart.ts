import type { Timestamp } from '@svc/platform';
import type { RecordedRun } from '../reasoner';
import { earliest, firstSampleAt, MINUTE, minutesBetween, SeriesOut, seriesOf, shift } from '../series-reading';
import type { DetectedCause, Explainer, WhyAnswer } from './explainer';

/** Working set at or above this share of the memory limit counts as at the limit. */
const AT_MEMORY_LIMIT = 0.9;

const PROCESS_STARTS = 'process_start_time_seconds';
const CONTAINER_RESTARTS = 'kube_pod_container_status_restarts_total';

/**
 * A restart of the alerting service near the onset: a process that started again (its own
 * `process_start_time_seconds`, scoped to the alert's job) or a container Kubernetes restarted in
 * the alerting workload's pods. A proximate event, stated only when no new version started (a
 * rollout restarts everything) and when no cause found before it (a failing liveness probe)
 * already explains the restart. Asked why, it reads Kubernetes' record of the container's last
 * termination: killed for running out of memory, at its memory limit.
 */
export const restartExplainer: Explainer = {
  name: 'restarts',
  reads: [PROCESS_STARTS, CONTAINER_RESTARTS],
  appliesTo: () => true,
  async explain(ctx, found) {
    const onset = ctx.scope.onset;
    const pods = ctx.scope.pods;
    const job = ctx.jobMatcher;
    const from = shift(onset, -15n * MINUTE);
    const until = shift(onset, MINUTE);
    const runs: RecordedRun[] = [];
    if (ctx.presence.has([PROCESS_STARTS]))
      runs.push(await ctx.readFine(`changes(${PROCESS_STARTS}{${job}}[5m]) > 0`, 'Did a process restart around the onset?', from, until));
    else ctx.notLookedFor.push('process restarts');
    // Kubernetes counts container restarts itself, with the pod and container: ask it too.
    if (pods && ctx.presence.has([CONTAINER_RESTARTS]))
      runs.push(
        await ctx.readFine(
          `increase(${CONTAINER_RESTARTS}{${pods}}[5m]) > 0`,
          'Did a container of the alerting workload restart around the onset?',
          from,
          until,
        ),
      );
    else if (pods) ctx.notLookedFor.push('container restarts');
    const restarted = runs
      .flatMap((run) => seriesOf(run).map((s) => ({ s, run, at: firstSampleAt(s) })))
      .filter((x): x is { s: SeriesOut; run: RecordedRun; at: Timestamp } => !!x.at && ctx.changedNear(x.at))
      .sort((a, b) => (a.at.isAfter(b.at) ? 1 : -1))[0];
    // A rollout restarts every replica: the new version is the change, not its restarts.
    if (!restarted || found.some((c) => c.id === 'h-version')) return null;
    const pod = restarted.s.metric.pod;
    // A restart whose failing liveness probe (or the cause behind it) was found is a step of that chain.
    if (pod && found.some((c) => c.restartedPods?.includes(pod))) return null;
    const what = pod ? `A restart of ${restarted.s.metric.container ? `${restarted.s.metric.container} in ` : ''}${pod}` : 'A process restart';
    const at = restarted.at;
    const cause: DetectedCause = {
      id: 'h-restart',
      statement: `${what} at ${at.toISOString()} caused the alert's condition`,
      at,
      run: restarted.run,
      mechanism: `A process restarted ${minutesBetween(at, onset)} min before the condition began`,
      mechanismRuns: [],
      chainRuns: [],
      unexplained: ['why the process restarted (out of memory, a crash after a configuration change, a failing liveness probe)'],
      action: {
        title: 'Find out why the process restarted',
        rationale: 'The condition began after a restart',
        verification: 'process_start_time_seconds stays constant and the alert resolves',
      },
      subject: restarted.s.metric,
    };
    return cause;
  },
  /**
   * Why did the process stop? Kubernetes records an out-of-memory kill as the container's last
   * termination reason; the kill is the cause, and verified, when the container's working set was
   * at its memory limit before the restart. The question needs the restarted series' pod
   * (Prometheus' Kubernetes discovery labels targets with it).
   */
  async askWhy(ctx, cause, condition): Promise<WhyAnswer> {
    const { namespace, pod } = cause.subject ?? {};
    if (!pod)
      return {
        runs: [],
        mechanismRuns: [],
        limitations: [
          {
            type: 'missing_telemetry',
            statement: "The restarted process's series has no pod label, so Kubernetes' record of why it stopped could not be read",
            runRefs: [cause.run.ordinal],
            messageSequences: [],
          },
        ],
      };
    const podScope = [namespace ? `namespace=${JSON.stringify(namespace)}` : '', `pod=${JSON.stringify(pod)}`].filter(Boolean).join(', ');
    const from = shift(cause.at, -15n * MINUTE);
    const until = shift(cause.at, 2n * MINUTE);
    const killed = await ctx.readFine(
      `kube_pod_container_status_last_terminated_reason{${podScope}, reason="OOMKilled"} == 1`,
      `Why did ${pod} restart: was a container killed for running out of memory?`,
      from,
      until,
      cause.id,
    );
    const container = seriesOf(killed)[0]?.metric.container;
    if (!container) {
      // The liveness detector read this pod's probes: they passed.
      const probed = condition.livenessPassed.get(pod);
      return {
        runs: probed !== undefined ? [killed.ordinal, probed] : [killed.ordinal],
        mechanismRuns: [],
        limitations: [],
        ...(killed.outcome === 'succeeded'
          ? {
              restated: {
                unexplained: [
                  probed !== undefined
                    ? `why ${pod} restarted (no container of it was killed for running out of memory, and its liveness probe did not fail; a crash after a configuration change remains)`
                    : `why ${pod} restarted (no container of it was killed for running out of memory; a crash after a configuration change or a failing liveness probe remain)`,
                ],
              },
            }
          : {}),
      };
    }
    const memory = await ctx.readFine(
      `container_memory_working_set_bytes{${podScope}, container=${JSON.stringify(container)}} / on(namespace, pod, container) (container_spec_memory_limit_bytes{${podScope}, container=${JSON.stringify(container)}} > 0) >= ${AT_MEMORY_LIMIT}`,
      `Was ${container} of ${pod} at its memory limit before the restart?`,
      from,
      until,
      cause.id,
    );
    const atLimit = earliest(seriesOf(memory).map(firstSampleAt));
    const restarted = minutesBetween(cause.at, condition.onset);
    const restated: WhyAnswer['restated'] = {
      statement: `The out-of-memory kill (OOMKilled) of container ${container} in pod ${pod}, restarted at ${cause.at.toISOString()}, caused the alert's condition`,
      mechanism: atLimit
        ? `${container} reached ${AT_MEMORY_LIMIT * 100}% or more of its memory limit from ${atLimit.toISOString()}, was OOM-killed and restarted ${restarted} min before the condition began`
        : `${container} was OOM-killed and restarted ${restarted} min before the condition began`,
      action: {
        title: `Raise the memory limit of ${container} in ${pod}, or find what made its memory grow`,
        rationale: 'It was killed for running out of memory just before the condition began',
        verification: `kube_pod_container_status_last_terminated_reason{pod="${pod}", reason="OOMKilled"} stays absent and the alert resolves`,
      },
      unexplained: [],
    };
    if (atLimit) return { runs: [killed.ordinal, memory.ordinal], mechanismRuns: [killed.ordinal, memory.ordinal], restated, limitations: [] };
    return {
      runs: [killed.ordinal, memory.ordinal],
      mechanismRuns: [],
      restated,
      limitations: [
        {
          type: 'missing_telemetry',
          statement: `The memory of ${container} against its limit could not be read (container_memory_working_set_bytes, container_spec_memory_limit_bytes), so the out-of-memory kill is not verified`,
          runRefs: [memory.ordinal],
          messageSequences: [],
        },
      ],
    };
  },
};
