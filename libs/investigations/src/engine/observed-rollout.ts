import { CHANGE_LIMITS, NormalizedChange } from '@svc/changes';
import type { ObservedRollout } from '../reasoning/reasoner';

/** How the session records a rollout seen in the metrics (the changes library, wired by the engine). */
export type RolloutRecorder = (rollout: ObservedRollout & { integrationId: string }) => Promise<string | null>;

const WHERE: Record<ObservedRollout['seenIn'], string> = {
  kubernetes: 'kube_pod_container_info',
  prometheus: 'its *_build_info series',
};

/**
 * The change a rollout is on the timeline: a deploy of the program, named by what the metrics
 * show of it. The external id names the program (in its namespace) and the new version, so that
 * every investigation that sees the same rollout records one change.
 */
export function observedChange(rollout: ObservedRollout, investigationId: string): NormalizedChange {
  const program = rollout.namespace ? `${rollout.namespace}/${rollout.program}` : rollout.program;
  return {
    externalId: `${rollout.seenIn}:${program}:${rollout.versionAfter}`.slice(0, CHANGE_LIMITS.maxExternalIdLength),
    occurredAt: rollout.at,
    service: rollout.program.slice(0, CHANGE_LIMITS.maxNameLength),
    environment: null,
    kind: 'deploy',
    summary:
      `${rollout.program} started ${rollout.versionAfter}${rollout.versionBefore ? ` (was ${rollout.versionBefore})` : ''}, seen in ${WHERE[rollout.seenIn]}`.slice(
        0,
        CHANGE_LIMITS.maxSummaryLength,
      ),
    author: null,
    versionBefore: rollout.versionBefore?.slice(0, CHANGE_LIMITS.maxVersionLength) ?? null,
    versionAfter: rollout.versionAfter.slice(0, CHANGE_LIMITS.maxVersionLength),
    links: [],
    details: { namespace: rollout.namespace, labels: rollout.labels, investigationId, toolRunOrdinal: rollout.run.ordinal },
  };
}
