import { SERVICE_LABELS } from '@svc/incidents';
import type { ActionItem } from '../conclusion.types';
import { isExporterTarget, workloadOfPod } from './discovery/entity-model';
import type { AlertBrief, RecordedRun } from './reasoner';

/** The tool that reads the changes deploy and configuration tools reported. */
export const CHANGES_TOOL = 'changes.near_onset';

/** A change as changes.near_onset returns it. */
export interface RecordedChange {
  id: string;
  /** The sender's id prefixed by its format ("generic:cfg-8841"); absent from runs recorded before the tool returned it. */
  externalId?: string;
  occurredAt: string;
  /** Negative after the onset. */
  minutesBeforeOnset: number;
  kind: string;
  service: string | null;
  /** On a service the alerting services call (directly or not), not on one of them. */
  onDependency?: boolean;
  environment: string | null;
  summary: string;
  author: string | null;
  versionBefore: string | null;
  versionAfter: string | null;
  source: string;
  links: Array<{ href: string; text: string | null }>;
}

/** The services the alerts name: every value of a service-naming label (service, app, job, deployment, container…) that is not an exporter's, and their pods' workloads. */
export function alertServices(alerts: ReadonlyArray<Pick<AlertBrief, 'labels'>>): string[] {
  return [
    ...new Set(
      alerts.flatMap((a) => [
        ...SERVICE_LABELS.map((n) => a.labels[n]).filter((v): v is string => Boolean(v) && !isExporterTarget(v)),
        ...(a.labels.pod ? [workloadOfPod(a.labels.pod)] : []),
      ]),
    ),
  ];
}

/** A rollout an investigation saw in the metrics and recorded, rather than a change a tool reported. */
export const isObserved = (c: RecordedChange): boolean => c.source === 'kubernetes' || c.source === 'prometheus';

/** The changes a changes.near_onset run returned (none for a failed run). */
export function recordedChangesOf(run: RecordedRun | undefined): RecordedChange[] {
  if (run?.outcome !== 'succeeded') return [];
  const changes = (run.output as { changes?: unknown } | null)?.changes;
  return Array.isArray(changes) ? (changes as RecordedChange[]) : [];
}

const KIND_TEXT: Record<string, string> = {
  deploy: 'deploy',
  config: 'configuration change',
  feature_flag: 'feature flag change',
  migration: 'migration',
  infrastructure: 'infrastructure change',
  release: 'release',
  code: 'code change',
};

/** The id the sender gave the change ("cfg-8841"), by which its own tool finds it: none for an id derived from its content, or a rollout the metrics showed. */
export function senderIdOf(c: RecordedChange): string | null {
  if (!c.externalId || isObserved(c)) return null;
  const id = c.externalId.slice(c.externalId.indexOf(':') + 1);
  return id && !id.startsWith('sha256:') ? id : null;
}

/** The change as a sentence names it: `the deploy "Deployed checkout 2.4.1" (dep-118) on checkout by ada`, with the sender's id when it gave one. */
export function describeChange(c: RecordedChange): string {
  const kind = KIND_TEXT[c.kind] ?? 'change';
  const id = senderIdOf(c);
  return `the ${kind} "${c.summary.slice(0, 200)}"${id ? ` (${id})` : ''}${c.service ? ` on ${c.service}` : ''}${c.author ? ` by ${c.author}` : ''}`;
}

/** What to do about a change that caused the condition: undo it, in the terms of its kind. */
export function undoChange(c: RecordedChange, condition: string | null): Omit<ActionItem, 'runRefs'> {
  const verification = `The alert's expression returns no series after it${condition ? `: ${condition}` : ''}`;
  const what = `"${c.summary.slice(0, 120)}"`;
  switch (c.kind) {
    case 'deploy':
    case 'release':
      return {
        title: `Roll back ${c.service ?? 'the deploy'}${c.versionBefore ? ` to ${c.versionBefore}` : ''}${c.versionAfter ? ` from ${c.versionAfter}` : ''}`,
        rationale: `The condition began after the deploy ${what} and not before`,
        verification,
      };
    case 'feature_flag':
      return { title: `Turn the flag change ${what} back`, rationale: 'The condition began after the flag changed and not before', verification };
    case 'migration':
      return {
        title: `Check what the migration ${what} changed, and revert it if it can be`,
        rationale: 'The condition began after the migration and not before',
        verification,
      };
    default:
      return { title: `Revert ${describeChange(c)}`, rationale: 'The condition began after this change and not before', verification };
  }
}
