import { ApiProperty } from '@nestjs/swagger';
import type { ChangeEvent } from '../change-event.entity';
import { CHANGE_KINDS, CHANGE_SOURCES } from '../formats/normalized-change';

export class ChangeLinkView {
  @ApiProperty({ format: 'uri' }) href!: string;
  @ApiProperty({ type: String, nullable: true }) text!: string | null;
}

export class ChangeView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid', description: 'The changes integration it came through, or the Prometheus integration a rollout was read from' })
  integrationId!: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The webhook delivery that brought it first; null for a rollout observed' })
  deliveryId!: string | null;
  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'The investigation that saw the rollout in the metrics (source kubernetes or prometheus); null for a reported change',
  })
  investigationId!: string | null;
  @ApiProperty({
    enum: CHANGE_SOURCES,
    description: "The sender's format; kubernetes for a rollout read from kube-state-metrics, prometheus for a new version read from a *_build_info series",
  })
  source!: string;
  @ApiProperty({ description: "The sender's id of the change, prefixed by its format: a repeated delivery of it is a duplicate" }) externalId!: string;
  @ApiProperty({ type: String, format: 'date-time' }) occurredAt!: string;
  @ApiProperty({ type: String, format: 'date-time' }) receivedAt!: string;
  @ApiProperty({ type: String, nullable: true, description: 'The service or component changed' }) service!: string | null;
  @ApiProperty({ type: String, nullable: true }) environment!: string | null;
  @ApiProperty({ enum: CHANGE_KINDS }) kind!: string;
  @ApiProperty() summary!: string;
  @ApiProperty({ type: String, nullable: true, description: 'Who made it' }) author!: string | null;
  @ApiProperty({ type: String, nullable: true }) versionBefore!: string | null;
  @ApiProperty({ type: String, nullable: true }) versionAfter!: string | null;
  @ApiProperty({ type: [ChangeLinkView] }) links!: ChangeLinkView[];
  @ApiProperty({ type: 'object', additionalProperties: true, description: "The sender's further fields (at most 16 KiB)" }) details!: Record<string, unknown>;
}

export class ChangePage {
  @ApiProperty({ type: [ChangeView] }) items!: ChangeView[];
  @ApiProperty({ type: String, nullable: true }) next!: string | null;
}

export class IncidentChangesWindowView {
  @ApiProperty({ type: String, format: 'date-time', description: 'An hour before the first alert began' }) from!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When the incident resolved; null while it is open' }) until!: string | null;
}

/** An incident's changes: those of its window on the services its alerts name and their dependencies (and those naming no service), oldest first. */
export class IncidentChangePage extends ChangePage {
  @ApiProperty({ type: IncidentChangesWindowView }) window!: IncidentChangesWindowView;
  @ApiProperty({
    type: [String],
    description: 'The services its alerts name (service, app, job, deployment, container labels); empty: every change of the window',
  })
  services!: string[];
  @ApiProperty({
    type: [String],
    description:
      'What those services call, directly or through up to three calls, as investigations saw it in the metrics (nearest first, at most 50): their changes are included too',
  })
  dependencies!: string[];
  @ApiProperty({ description: 'How many changes these pages hold in all (every page, not this one), counted up to 10,000', minimum: 0, maximum: 10_000 })
  total!: number;
  @ApiProperty({ description: 'True when there are more than `total` (the count stopped at 10,000)' })
  totalCapped!: boolean;
}

export function changeView(c: ChangeEvent): ChangeView {
  return {
    id: c.id,
    integrationId: c.integrationId,
    deliveryId: c.deliveryId,
    investigationId: c.investigationId,
    source: c.source,
    externalId: c.externalId,
    occurredAt: c.occurredAt.toISOString(),
    receivedAt: c.receivedAt.toISOString(),
    service: c.service,
    environment: c.environment,
    kind: c.kind,
    summary: c.summary,
    author: c.author,
    versionBefore: c.versionBefore,
    versionAfter: c.versionAfter,
    links: c.links,
    details: c.details,
  };
}
