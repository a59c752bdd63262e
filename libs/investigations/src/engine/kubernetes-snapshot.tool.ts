import { KUBERNETES_SNAPSHOT_TOOL_NAME } from '../reasoning/explainers/kubernetes-pods';
import type { SessionTool } from '../reasoning/reasoner';
import type { SnapshotRecord } from '../snapshots/kubernetes-snapshots.repository';
import type { ToolResult, ToolWindow } from '../tools/tool.types';

/** What the Kubernetes API showed of the incident's workloads when it opened: read from the service's data, taken by the worker then. */
export const KUBERNETES_SNAPSHOT_TOOL: SessionTool = {
  name: KUBERNETES_SNAPSHOT_TOOL_NAME,
  description:
    "What the Kubernetes API showed of the pods and workloads the incident's alerts name when the incident opened: the pods' states (phase, containers waiting or terminated with reason and exit code, restarts) and their events " +
    '(BackOff, OOMKilling, Unhealthy with the probe failure, FailedScheduling, image pulls, ScalingReplicaSet…), which the cluster itself keeps for about an hour only. Read it before the live cluster: what it shows may be gone there.',
  integrationType: null,
  argumentsSchema: { type: 'object', properties: {}, additionalProperties: false },
};

/** The snapshot as one run (offered only when it made some read): each of its reads' summaries, and their outputs. */
export function runKubernetesSnapshotTool(snapshot: SnapshotRecord, window: ToolWindow): ToolResult {
  const taken = snapshot.takenAt!.toISOString();
  const summaries = snapshot.runs.map((r) => `${r.tool} (${r.purpose}): ${r.outcome === 'succeeded' ? (r.summary ?? '') : `failed: ${r.error ?? ''}`}`);
  return {
    outcome: 'succeeded',
    summary: `Taken at ${taken}, when the incident opened, in ${snapshot.runs.length} read(s). ${summaries.join(' ')}`,
    output: {
      takenAt: taken,
      runs: snapshot.runs.map((r) => ({
        tool: r.tool,
        integrationId: r.integrationId,
        arguments: r.arguments,
        outcome: r.outcome,
        summary: r.summary,
        error: r.error,
        output: r.output,
      })),
    },
    truncated: snapshot.runs.some((r) => r.truncated),
    sources: [`incident Kubernetes snapshot of ${taken}`, ...snapshot.runs.flatMap((r) => r.sources)],
    window,
  };
}
