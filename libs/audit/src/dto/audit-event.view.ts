import { ApiProperty } from '@nestjs/swagger';
import type { AuditEvent } from '../audit-event.entity';

export class AuditEventView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ type: String, format: 'date-time' }) occurredAt!: string;
  @ApiProperty({ enum: ['user', 'api_token', 'system', 'anonymous'] }) actorKind!: string;
  @ApiProperty({ type: String, nullable: true }) actorId!: string | null;
  @ApiProperty({ type: String, nullable: true }) actorName!: string | null;
  @ApiProperty({ example: 'session.sign_in' }) action!: string;
  @ApiProperty({ type: String, nullable: true }) targetKind!: string | null;
  @ApiProperty({ type: String, nullable: true }) targetId!: string | null;
  @ApiProperty({ enum: ['allowed', 'denied', 'failed'] }) outcome!: string;
  @ApiProperty({ type: String, nullable: true }) sourceAddress!: string | null;
  @ApiProperty({ type: String, nullable: true }) requestId!: string | null;
  @ApiProperty({ type: 'object', additionalProperties: true }) detail!: Record<string, unknown>;
}

export class AuditEventPage {
  @ApiProperty({ type: [AuditEventView] }) events!: AuditEventView[];
  @ApiProperty({ type: String, nullable: true }) next!: string | null;
}

/** The same listing on the alias path `/api/v1/organizations/{organization}/audit-events` (decisions §1). */
export class AuditEventItemsPage {
  @ApiProperty({ type: [AuditEventView] }) items!: AuditEventView[];
  @ApiProperty({ type: String, nullable: true }) next!: string | null;
}

export function auditEventView(e: AuditEvent): AuditEventView {
  return {
    id: e.id,
    occurredAt: e.occurredAt.toISOString(),
    actorKind: e.actorKind,
    actorId: e.actorId,
    actorName: e.actorName,
    action: e.action,
    targetKind: e.targetKind,
    targetId: e.targetId,
    outcome: e.outcome,
    sourceAddress: e.sourceAddress,
    requestId: e.requestId,
    detail: e.detail,
  };
}

export const CSV_COLUMNS = [
  'id',
  'occurredAt',
  'actorKind',
  'actorId',
  'actorName',
  'action',
  'targetKind',
  'targetId',
  'outcome',
  'sourceAddress',
  'requestId',
  'detail',
] as const;

function csvField(value: unknown): string {
  const text = value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
  // Quote every field that needs it; a leading formula character is neutralized for spreadsheets.
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) || safe !== text ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function csvLine(view: AuditEventView): string {
  return `${CSV_COLUMNS.map((c) => csvField(view[c])).join(',')}\r\n`;
}
