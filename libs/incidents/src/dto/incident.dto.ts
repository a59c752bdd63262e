import { ApiProperty, ApiPropertyOptional, IntersectionType } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { IsRfc3339, ListQueryDto } from '@svc/platform';
import type { AlertEvent } from '../alert-event.entity';
import type { Incident } from '../incident.entity';

class IncidentFilterDto {
  @ApiPropertyOptional({ enum: ['open', 'resolved', 'merged'] }) @IsOptional() @IsIn(['open', 'resolved', 'merged'])
  status?: 'open' | 'resolved' | 'merged';

  @ApiPropertyOptional({ format: 'date-time', description: 'Opened at or after' }) @IsOptional() @IsRfc3339()
  from?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Opened before' }) @IsOptional() @IsRfc3339()
  until?: string;
}

export class ListIncidentsQueryDto extends IntersectionType(IncidentFilterDto, ListQueryDto) {}

export class IncidentView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ enum: ['open', 'resolved', 'merged'] }) status!: string;
  @ApiProperty() title!: string;
  @ApiProperty({ format: 'uuid' }) integrationId!: string;
  @ApiProperty() groupKey!: string;
  @ApiProperty({ type: Object }) labels!: Record<string, string>;
  @ApiProperty({ type: String, format: 'date-time' }) openedAt!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) resolvedAt!: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) mergedInto!: string | null;
  @ApiProperty() alertCount!: number;
  @ApiProperty({ type: String, format: 'date-time' }) createdAt!: string;
  @ApiProperty({ type: String, format: 'date-time' }) updatedAt!: string;
}

export class AlertEventView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) incidentId!: string;
  @ApiProperty({ format: 'uuid' }) integrationId!: string;
  @ApiProperty() fingerprint!: string;
  @ApiProperty({ enum: ['firing', 'resolved'] }) status!: string;
  @ApiProperty({ type: Object }) labels!: Record<string, string>;
  @ApiProperty({ type: Object }) annotations!: Record<string, string>;
  @ApiProperty({ type: String, format: 'date-time' }) startsAt!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) endsAt!: string | null;
  @ApiProperty({ type: String, nullable: true }) generatorUrl!: string | null;
  @ApiProperty({ type: String, format: 'date-time' }) receivedAt!: string;
}

export function incidentView(i: Incident): IncidentView {
  return {
    id: i.id, status: i.status, title: i.title, integrationId: i.integrationId, groupKey: i.groupKey, labels: i.labels,
    openedAt: i.openedAt.toISOString(), resolvedAt: i.resolvedAt?.toISOString() ?? null, mergedInto: i.mergedInto, alertCount: i.alertCount,
    createdAt: i.createdAt.toISOString(), updatedAt: i.updatedAt.toISOString(),
  };
}

export function alertEventView(e: AlertEvent): AlertEventView {
  return {
    id: e.id, incidentId: e.incidentId, integrationId: e.integrationId, fingerprint: e.fingerprint, status: e.status, labels: e.labels,
    annotations: e.annotations, startsAt: e.startsAt.toISOString(), endsAt: e.endsAt?.toISOString() ?? null, generatorUrl: e.generatorUrl,
    receivedAt: e.receivedAt.toISOString(),
  };
}
