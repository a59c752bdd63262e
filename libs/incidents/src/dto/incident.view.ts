import { ApiProperty } from '@nestjs/swagger';
import type { AlertEvent } from '../alert-event.entity';
import type { Incident } from '../incident.entity';
import type { IncidentTriage } from '../incident-triage';

export class IncidentView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ enum: ['open', 'resolved', 'merged'] }) status!: string;
  @ApiProperty() title!: string;
  @ApiProperty({ format: 'uuid' }) integrationId!: string;
  @ApiProperty() groupKey!: string;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } }) labels!: Record<string, string>;
  @ApiProperty({ type: String, format: 'date-time' }) openedAt!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) resolvedAt!: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) mergedInto!: string | null;
  @ApiProperty({ type: 'integer' }) alertCount!: number;
  @ApiProperty({ type: String, format: 'date-time' }) createdAt!: string;
  @ApiProperty({ type: String, format: 'date-time' }) updatedAt!: string;
  @ApiProperty({ description: "The summary of its most severe, newest alert that is not chronic (the title is its first alert's)" }) headline!: string;
  @ApiProperty({ type: String, nullable: true, description: 'The highest `severity` (or `priority`) label among its alerts' }) severity!: string | null;
  @ApiProperty({ type: String, nullable: true, description: "The service the headline's alert names (service, app, job, deployment, container labels)" })
  service!: string | null;
  @ApiProperty({ type: String, nullable: true }) namespace!: string | null;
}

export class AlertEventView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) incidentId!: string;
  @ApiProperty({ format: 'uuid' }) integrationId!: string;
  @ApiProperty() fingerprint!: string;
  @ApiProperty({ enum: ['firing', 'resolved'] }) status!: string;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } }) labels!: Record<string, string>;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } }) annotations!: Record<string, string>;
  @ApiProperty({ type: String, format: 'date-time' }) startsAt!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) endsAt!: string | null;
  @ApiProperty({ type: String, nullable: true }) generatorUrl!: string | null;
  @ApiProperty({ type: String, format: 'date-time' }) receivedAt!: string;
}

export class IncidentPage {
  @ApiProperty({ type: [IncidentView] }) items!: IncidentView[];
  @ApiProperty({ type: String, nullable: true }) next!: string | null;
}

export class AlertEventPage {
  @ApiProperty({ type: [AlertEventView] }) items!: AlertEventView[];
  @ApiProperty({ type: String, nullable: true }) next!: string | null;
}

export function incidentView(i: Incident, triage: IncidentTriage): IncidentView {
  return {
    id: i.id,
    status: i.status,
    title: i.title,
    integrationId: i.integrationId,
    groupKey: i.groupKey,
    labels: i.labels,
    openedAt: i.openedAt.toISOString(),
    resolvedAt: i.resolvedAt?.toISOString() ?? null,
    mergedInto: i.mergedInto,
    alertCount: i.alertCount,
    createdAt: i.createdAt.toISOString(),
    updatedAt: i.updatedAt.toISOString(),
    headline: triage.headline,
    severity: triage.severity,
    service: triage.service,
    namespace: triage.namespace,
  };
}

export function alertEventView(e: AlertEvent): AlertEventView {
  return {
    id: e.id,
    incidentId: e.incidentId,
    integrationId: e.integrationId,
    fingerprint: e.fingerprint,
    status: e.status,
    labels: e.labels,
    annotations: e.annotations,
    startsAt: e.startsAt.toISOString(),
    endsAt: e.endsAt?.toISOString() ?? null,
    generatorUrl: e.generatorUrl,
    receivedAt: e.receivedAt.toISOString(),
  };
}
