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
}

export function investigationRecord(i: Investigation, runOrdinals: number[]): InvestigationRecord {
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
  };
}
