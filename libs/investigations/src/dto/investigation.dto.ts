import { ApiProperty, ApiPropertyOptional, IntersectionType } from '@nestjs/swagger';
import { IsIn, IsOptional, IsUUID } from 'class-validator';
import { ListQueryDto } from '@svc/platform';
import type { ActivityEnvelope } from '../activity.service';
import type { ActionItem, FindingItem, HypothesisItem, Impact, LimitationItem } from '../conclusion.types';
import type { InvestigationSource } from '../investigation-source.entity';
import type { Investigation, InvestigationStatus } from '../investigation.entity';
import type { ToolRun } from '../tool-run.entity';

const STATUSES: InvestigationStatus[] = ['queued', 'investigating', 'needs_input', 'partial', 'concluded', 'cancelled', 'failed'];

export class OpenInvestigationDto {
  @ApiProperty({ format: 'uuid', description: 'The incident to investigate' })
  @IsUUID('all')
  incidentId!: string;
}

class InvestigationFilterDto {
  @ApiPropertyOptional({ enum: STATUSES }) @IsOptional() @IsIn(STATUSES)
  status?: InvestigationStatus;

  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsUUID('all')
  incidentId?: string;
}

export class ListInvestigationsQueryDto extends IntersectionType(InvestigationFilterDto, ListQueryDto) {}

export interface ToolRunView {
  ordinal: number;
  tool: string;
  windowFrom: string | null;
  windowUntil: string | null;
  outcome: string;
  startedAt: string;
  finishedAt: string | null;
  integrationId: string | null;
  purpose: string;
  hypothesisId: string | null;
  arguments: Record<string, unknown>;
  truncated: boolean;
  summary: string | null;
  sources: string[];
  error: string | null;
}

export interface InvestigationView {
  id: string;
  status: InvestigationStatus;
  subject: string;
  windowFrom: string;
  windowUntil: string;
  incidentId: string;
  impact: Impact | null;
  findings: FindingItem[];
  hypotheses: HypothesisItem[];
  actions: ActionItem[];
  limitations: LimitationItem[];
  usage: { inputTokens: number; outputTokens: number };
  conclusionStatus: string | null;
  summary: string | null;
  stoppedBy: string | null;
  error: string | null;
  reasoner: string | null;
  createdAt: string;
  startedAt: string | null;
  concludedAt: string | null;
  humanConfirmationRequired: boolean;
  runs?: ToolRunView[];
}

export function toolRunView(r: ToolRun): ToolRunView {
  return {
    ordinal: r.ordinal, tool: r.tool, windowFrom: r.windowFrom?.toISOString() ?? null, windowUntil: r.windowUntil?.toISOString() ?? null,
    outcome: r.outcome, startedAt: r.startedAt.toISOString(), finishedAt: r.finishedAt?.toISOString() ?? null, integrationId: r.integrationId,
    purpose: r.purpose, hypothesisId: r.hypothesisId, arguments: r.arguments, truncated: r.truncated, summary: r.summary, sources: r.sources, error: r.error,
  };
}

export function investigationView(i: Investigation, runs?: ToolRun[]): InvestigationView {
  return {
    id: i.id, status: i.status, subject: i.subject, windowFrom: i.windowFrom.toISOString(), windowUntil: i.windowUntil.toISOString(), incidentId: i.incidentId,
    impact: i.impact, findings: i.findings, hypotheses: i.hypotheses, actions: i.actions, limitations: i.limitations,
    usage: { inputTokens: i.inputTokens, outputTokens: i.outputTokens }, conclusionStatus: i.conclusionStatus, summary: i.summary, stoppedBy: i.stoppedBy,
    error: i.error, reasoner: i.reasoner, createdAt: i.createdAt.toISOString(), startedAt: i.startedAt?.toISOString() ?? null,
    concludedAt: i.concludedAt?.toISOString() ?? null, humanConfirmationRequired: i.actions.length > 0,
    ...(runs ? { runs: runs.map(toolRunView) } : {}),
  };
}

export function sourcesView(investigationId: string, sources: InvestigationSource[], runs: ToolRun[]): { investigationId: string; sources: unknown[]; runs: ToolRunView[] } {
  return {
    investigationId,
    sources: sources.map((s) => ({ integrationId: s.integrationId, rank: s.rank, reason: s.reason, selectedAt: s.selectedAt.toISOString() })),
    runs: runs.map(toolRunView),
  };
}

export type ActivityPage = { items: ActivityEnvelope[]; next: string | null };
