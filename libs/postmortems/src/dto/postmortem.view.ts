import { ApiProperty } from '@nestjs/swagger';
import type { Postmortem, PostmortemRevision } from '../postmortem.entity';
import { DOCUMENT_FIELDS } from '../postmortem.types';

export class FactSourceView {
  @ApiProperty({ enum: ['alert_event', 'incident', 'investigation', 'change'] }) kind!: string;
  @ApiProperty({ format: 'uuid' }) id!: string;
}

export class TimelineEntryView {
  @ApiProperty({ type: String, format: 'date-time' }) at!: string;
  @ApiProperty() description!: string;
  @ApiProperty({ type: [Number] }) runRefs!: number[];
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) investigationId!: string | null;
  @ApiProperty({ type: FactSourceView, nullable: true, description: 'The record the entry was read from; null for an entry a person wrote' })
  source!: FactSourceView | null;
}

export class CitedStatementView {
  @ApiProperty() statement!: string;
  @ApiProperty({ type: [Number] }) runRefs!: number[];
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) investigationId!: string | null;
}

export class ActionItemView {
  @ApiProperty() title!: string;
  @ApiProperty() owner!: string;
  @ApiProperty() deadline!: string;
  @ApiProperty() verification!: string;
  @ApiProperty({ type: [Number] }) runRefs!: number[];
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) investigationId!: string | null;
}

/** The document's fields after its title, as the current postmortem and every kept revision show them. */
abstract class PostmortemDocumentView {
  @ApiProperty() executiveSummary!: string;
  @ApiProperty() impact!: string;
  @ApiProperty() detection!: string;
  @ApiProperty({ type: [TimelineEntryView] }) timeline!: TimelineEntryView[];
  @ApiProperty({ type: [CitedStatementView] }) rootCauses!: CitedStatementView[];
  @ApiProperty({ type: [CitedStatementView] }) contributingFactors!: CitedStatementView[];
  @ApiProperty() resolution!: string;
  @ApiProperty({ type: [String] }) whatWentWell!: string[];
  @ApiProperty({ type: [String] }) whatWentWrong!: string[];
  @ApiProperty({ type: [String] }) detectionGaps!: string[];
  @ApiProperty({ type: [String] }) openQuestions!: string[];
  @ApiProperty({ type: [ActionItemView] }) actionItems!: ActionItemView[];
}

export class PostmortemView extends PostmortemDocumentView {
  @ApiProperty({ format: 'uuid' }) incidentId!: string;
  @ApiProperty({ enum: ['draft', 'reviewed'] }) status!: string;
  @ApiProperty({ minimum: 1 }) revision!: number;
  @ApiProperty({ minLength: 1, maxLength: 1024 }) title!: string;
  @ApiProperty({ type: [String], enum: DOCUMENT_FIELDS, description: 'The fields a person set; regeneration keeps them' })
  correctedFields!: string[];
  @ApiProperty({ type: String, format: 'date-time' }) createdAt!: string;
  @ApiProperty({ type: String, format: 'date-time' }) updatedAt!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) reviewedAt!: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) reviewedByUserId!: string | null;
}

/** A kept revision: its document as it was, why it was made, and by whom. */
export class PostmortemRevisionView extends PostmortemDocumentView {
  @ApiProperty({ format: 'uuid' }) incidentId!: string;
  @ApiProperty({ minimum: 1 }) revision!: number;
  @ApiProperty({ enum: ['generated', 'regenerated', 'corrected', 'narrative'] }) kind!: string;
  @ApiProperty({ description: 'A user id, token:<id>, or system (the narrative job)' }) createdBy!: string;
  @ApiProperty({ type: String, format: 'date-time' }) createdAt!: string;
  @ApiProperty({ type: [String], enum: DOCUMENT_FIELDS }) correctedFields!: string[];
  @ApiProperty() title!: string;
}

export function postmortemRevisionView(incidentId: string, r: PostmortemRevision): PostmortemRevisionView {
  return {
    incidentId,
    revision: r.revision,
    kind: r.kind,
    createdBy: r.createdBy,
    createdAt: r.createdAt.toISOString(),
    correctedFields: r.correctedFields,
    ...r.document,
  };
}

export function postmortemView(p: Postmortem): PostmortemView {
  const d = p.document;
  return {
    incidentId: p.incidentId,
    status: p.status,
    revision: p.revision,
    title: d.title,
    executiveSummary: d.executiveSummary,
    impact: d.impact,
    detection: d.detection,
    timeline: d.timeline.map((t) => ({ at: t.at, description: t.description, runRefs: t.runRefs, investigationId: t.investigationId, source: t.source })),
    rootCauses: d.rootCauses,
    contributingFactors: d.contributingFactors,
    resolution: d.resolution,
    whatWentWell: d.whatWentWell,
    whatWentWrong: d.whatWentWrong,
    detectionGaps: d.detectionGaps,
    openQuestions: d.openQuestions,
    actionItems: d.actionItems,
    correctedFields: p.correctedFields,
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
    reviewedAt: p.reviewedAt?.toISOString() ?? null,
    reviewedByUserId: p.reviewedByUserId,
  };
}
