import type { FindingItem } from '../../conclusion.types';
import type { EventState, PodState } from '../explainers/kubernetes-pods';
import type { InvestigationSession, RecordedRun } from '../reasoner';

/** Notes a snapshot's finding lists at most. */
const MAX_NOTES = 6;

/**
 * What the incident's Kubernetes snapshot shows going wrong, as notes: containers waiting (other
 * than while being created), containers that terminated before (reason, exit code, when), pods
 * not scheduled, and the Warning events (reason, object, count, message), each once.
 */
export function snapshotTrouble(run: RecordedRun): string[] {
  const runs = (run.output as { runs?: Array<{ tool?: string; output?: unknown }> } | null)?.runs ?? [];
  const notes = new Set<string>();
  for (const r of runs) {
    if (r.tool === 'kubernetes.pod_status')
      for (const pod of (r.output as { pods?: PodState[] } | null)?.pods ?? []) {
        const unscheduled = pod.conditions?.find((c) => c.type === 'PodScheduled' && c.status === 'False');
        if (unscheduled) notes.add(`${pod.name} not scheduled${unscheduled.message ? `: ${unscheduled.message}` : ''}`);
        for (const c of pod.containers ?? []) {
          const waiting = c.state?.waiting?.reason;
          if (waiting && waiting !== 'ContainerCreating') notes.add(`${pod.name}/${c.name} waiting (${waiting})`);
          const last = c.lastState?.terminated;
          if (last)
            notes.add(
              `${pod.name}/${c.name} terminated ${last.reason ?? ''} (exit code ${last.exitCode ?? '?'})${last.finishedAt ? ` at ${last.finishedAt}` : ''}, ${c.restartCount ?? 0} restart(s)`,
            );
        }
      }
    if (r.tool === 'kubernetes.events')
      for (const e of (r.output as { events?: EventState[] } | null)?.events ?? [])
        if (e.type === 'Warning') notes.add(`${e.reason} on ${e.object} ×${e.count ?? 1}${e.message ? `: ${e.message}` : ''}`);
  }
  return [...notes].slice(0, MAX_NOTES);
}

/** The snapshot's finding: what it showed going wrong when the incident opened, citing its run; null when it showed nothing wrong. */
export function snapshotFinding(session: InvestigationSession, run: RecordedRun): FindingItem | null {
  if (run.outcome !== 'succeeded') return null;
  const notes = snapshotTrouble(run);
  if (!notes.length) return null;
  const takenAt = (run.output as { takenAt?: string } | null)?.takenAt;
  return {
    kind: 'context',
    statement: `When the incident opened${takenAt ? ` (${takenAt})` : ''}, the Kubernetes API showed: ${notes.join('; ')}`,
    mechanism: '',
    runRefs: [run.ordinal],
    evidenceRefs: [{ investigationId: session.investigationId, toolRunOrdinal: run.ordinal }],
  };
}
