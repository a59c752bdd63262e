import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { OrganizationOwnedEntity, TimestampColumn, Timestamp } from '@svc/platform';
import type { ChangeKind, ChangeLink, ChangeSource } from './formats/normalized-change';

/**
 * One change to the Organization's systems (a deploy, a configuration or flag change, a migration,
 * an infrastructure change), as a sender reported it. The unique key makes a repeated delivery of
 * the same change a duplicate instead of a second change.
 */
@Entity('change_events')
@Index('change_events_sender_id', ['organizationId', 'integrationId', 'externalId'], { unique: true })
@Index('change_events_occurred', ['organizationId', 'occurredAt', 'id'])
@Index('change_events_service', ['organizationId', 'serviceKey', 'occurredAt'])
export class ChangeEvent extends OrganizationOwnedEntity {
  /**
   * The `changes` integration it came through, or the Prometheus integration a rollout was read
   * from (kept as history when the integration is deleted).
   */
  @Column({ type: 'uuid' })
  integrationId!: string;

  /** The webhook delivery that brought it (recorded by the alerts library, in the same transaction); null for a rollout observed. */
  @Column({ type: 'uuid', nullable: true })
  deliveryId!: string | null;

  /** The investigation that saw the rollout in the metrics; null for a reported change. */
  @Column({ type: 'uuid', nullable: true })
  investigationId!: string | null;

  @Column({ type: 'text' })
  source!: ChangeSource;

  /** The sender's id of the change, prefixed by its format. */
  @Column({ type: 'text' })
  externalId!: string;

  @TimestampColumn()
  occurredAt!: Timestamp;

  @TimestampColumn({ default: () => 'clock_timestamp()' })
  receivedAt!: Timestamp;

  @Column({ type: 'text', nullable: true })
  service!: string | null;

  /** The service in lower case: services are matched without regard to case (`Checkout` is `checkout`). */
  @Column({ type: 'text', nullable: true })
  serviceKey!: string | null;

  @Column({ type: 'text', nullable: true })
  environment!: string | null;

  @Column({ type: 'text' })
  kind!: ChangeKind;

  @Column({ type: 'text' })
  summary!: string;

  @Column({ type: 'text', nullable: true })
  author!: string | null;

  @Column({ type: 'text', nullable: true })
  versionBefore!: string | null;

  @Column({ type: 'text', nullable: true })
  versionAfter!: string | null;

  @Column({ type: 'jsonb' })
  links!: ChangeLink[];

  @Column({ type: 'jsonb' })
  details!: Record<string, unknown>;

  @ManyToOne('Organization', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organization_id', foreignKeyConstraintName: 'change_events_organization_fk' })
  organization?: object;
}
