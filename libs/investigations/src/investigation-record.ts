import type { Timestamp } from '@svc/platform';
import type { ActionItem, ConclusionStatus, FindingItem, HypothesisItem, Impact, LimitationItem } from './conclusion.types';
import type { Investigation, InvestigationStatus } from './investigation.entity';

/** An investigation as other libraries read it (a plain record, not the entity), with the ordinals of its runs. */
export interface InvestigationRecord {
  id: string;
  /** Null for a conversation turn without an incident. */
  incidentId: string | null;
  status: InvestigationStatus;
  subject: string;
  conclusionStatus: ConclusionStatus | null;
  summary: string | null;
  impact: Impact | null;
  findings: FindingItem[];
  hypotheses: HypothesisItem[];
  actions: ActionItem[];
  limitations: LimitationItem[];
  createdAt: Timestamp;
  concludedAt: Timestamp | null;
  /** The ordinals of its tool runs: what a citation of it may name. */
  runOrdinals: number[];
  /** The reported changes its findings cite (those of the changes.near_onset runs a finding cites), oldest first. */
  citedChanges: CitedChange[];
}

/** A change a deploy or configuration tool reported, as an investigation read and cited it. */
export interface CitedChange {
  id: string;
  occurredAt: string;
  kind: string;
  service: string | null;
  summary: string;
  author: string | null;
  source: string;
  /** The run that read it. */
  runOrdinal: number;
}

export function investigationRecord(i: Investigation, runOrdinals: number[], citedChanges: CitedChange[] = []): InvestigationRecord {
  return {
    id: i.id,
    incidentId: i.incidentId,
    status: i.status,
    subject: i.subject,
    conclusionStatus: i.conclusionStatus,
    summary: i.summary,
    impact: i.impact,
    findings: i.findings,
    hypotheses: i.hypotheses,
    actions: i.actions,
    limitations: i.limitations,
    createdAt: i.createdAt,
    concludedAt: i.concludedAt,
    runOrdinals,
    citedChanges,
  };
}
