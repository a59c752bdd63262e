import type { Timestamp } from '@svc/platform';
import { anyOf, earliest, firstSampleAt, pointsOf, round, seriesOf } from '../series-reading';
import type { ExplainerContext } from './context';
import type { DetectedCause } from './explainer';
import { escape, quote } from './labels';

/** Working set at or above this share of the memory limit counts as at the limit. */
const AT_MEMORY_LIMIT = 0.9;

const MiB = 1024 * 1024;
const bytes = (n: number): string => (n >= 1024 ** 3 ? `${round(n / 1024 ** 3)} GiB` : `${round(n / MiB)} MiB`);

/** Crash loops from out-of-memory kills: the working set at the limit, and whether the limit was lowered. */
export async function outOfMemory(
  ctx: ExplainerContext,
  base: DetectedCause,
  namespace: string | undefined,
  podNames: string[],
  deployment: string,
  loopAt: Timestamp,
): Promise<DetectedCause> {
  const ns = namespace ? `namespace=${quote(namespace)}, ` : '';
  const memory = await ctx.read(
    `max by (pod, container) (container_memory_working_set_bytes{${ns}pod=~${anyOf(podNames)}, container!=""} / on (namespace, pod, container) (container_spec_memory_limit_bytes{${ns}pod=~${anyOf(podNames)}, container!=""} > 0)) >= ${AT_MEMORY_LIMIT}`,
    `Did the containers of ${deployment} reach their memory limit?`,
    -30,
    2,
  );
  const atLimit = earliest(seriesOf(memory).map(firstSampleAt));
  const oom: DetectedCause = {
    ...base,
    id: 'h-oom',
    statement: `Out-of-memory kills (OOMKilled) of ${deployment}'s containers, crash looping from ${loopAt.toISOString()}, caused the alert's condition`,
    mechanism: `${base.mechanism}${atLimit ? `; their working set reached ${AT_MEMORY_LIMIT * 100}% of the memory limit from ${atLimit.toISOString()}` : ''}`,
    mechanismRuns: atLimit ? [memory.ordinal, base.chainRuns[0]] : [],
    chainRuns: [...base.chainRuns, memory.ordinal],
    unexplained: [`why the memory of ${deployment} outgrew its limit (its limit did not change)`],
    action: {
      title: `Raise the memory limit of ${deployment}, or find what made its memory grow`,
      rationale: 'Its containers are OOM-killed',
      verification: `kube_pod_container_status_last_terminated_reason{reason="OOMKilled"} of ${deployment} stays absent and the alert resolves`,
    },
  };
  if (!atLimit)
    ctx.limitations.push({
      type: 'missing_telemetry',
      statement: `The working set of ${deployment}'s containers was not seen at ${AT_MEMORY_LIMIT * 100}% of their memory limit (a scrape can miss the seconds before a kill), so the out-of-memory kills are not verified by their memory`,
      runRefs: [memory.ordinal],
      messageSequences: [],
    });
  if (!ctx.canRead(1)) return oom;
  const deploymentPods = `${ns}pod=~${JSON.stringify(`${escape(deployment)}-.+`)}`;
  const limits = await ctx.read(
    `min by (pod) (kube_pod_container_resource_limits{${deploymentPods}, resource="memory"})`,
    `Was the memory limit of ${deployment} lowered?`,
    -40,
    2,
    30,
  );
  oom.chainRuns.push(limits.ordinal);
  // New pods with a lower limit than the pods they replaced.
  const byPod = seriesOf(limits).map((s) => ({ pod: s.metric.pod, at: firstSampleAt(s), limit: pointsOf(s)[0]?.v }));
  const crashing = byPod.filter((p) => podNames.includes(p.pod) && p.limit !== undefined);
  const older = byPod.filter((p) => !podNames.includes(p.pod) && p.limit !== undefined && p.at && crashing.some((c) => c.at && p.at!.isBefore(c.at)));
  const lowered = crashing.find((c) => older.some((o) => o.limit! > c.limit! * 1.2));
  if (!lowered || !lowered.at) return oom;
  const was = Math.max(...older.map((o) => o.limit!));
  const rolledAt = earliest(crashing.map((c) => c.at));
  return {
    ...oom,
    id: 'h-memory-limit',
    statement: `The memory limit of ${deployment}, lowered from ${bytes(was)} to ${bytes(lowered.limit!)} by the rollout at ${rolledAt!.toISOString()}, got its containers OOMKilled and caused the alert's condition`,
    at: rolledAt!,
    run: limits,
    mechanism: `New pods of ${deployment} started at ${rolledAt!.toISOString()} with a memory limit of ${bytes(lowered.limit!)} (the pods they replaced had ${bytes(was)}); ${oom.mechanism}`,
    mechanismRuns: atLimit ? [limits.ordinal, memory.ordinal, base.chainRuns[0]] : [],
    unexplained: [],
    action: {
      title: `Restore the memory limit of ${deployment} (${bytes(was)})`,
      rationale: `The rollout lowered it to ${bytes(lowered.limit!)} and the new containers are OOM-killed`,
      verification: `kube_pod_container_status_last_terminated_reason{reason="OOMKilled"} of ${deployment} stays absent and the alert resolves`,
    },
  };
}
