import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { ActorKind, OrganizationOwnedEntity, TimestampColumn, Timestamp } from '@svc/platform';

export type AuditOutcome = 'allowed' | 'denied' | 'failed';

/**
 * One thing that happened in an Organization, and who did it. Append-only: the database refuses
 * UPDATE, DELETE and TRUNCATE on this table (see the migration's trigger).
 */
@Entity('audit_events')
@Index('audit_events_time', ['organizationId', 'occurredAt', 'id'])
@Index('audit_events_actor', ['organizationId', 'actorId', 'occurredAt'])
@Index('audit_events_action', ['organizationId', 'action', 'occurredAt'])
export class AuditEvent extends OrganizationOwnedEntity {
  @TimestampColumn({ default: () => 'clock_timestamp()' })
  occurredAt!: Timestamp;

  @Column({ type: 'text' })
  actorKind!: ActorKind;

  @Column({ type: 'text', nullable: true })
  actorId!: string | null;

  @Column({ type: 'text', nullable: true })
  actorName!: string | null;

  @Column({ type: 'text' })
  action!: string;

  @Column({ type: 'text', nullable: true })
  targetKind!: string | null;

  @Column({ type: 'text', nullable: true })
  targetId!: string | null;

  @Column({ type: 'text' })
  outcome!: AuditOutcome;

  @Column({ type: 'text', nullable: true })
  sourceAddress!: string | null;

  @Column({ type: 'text', nullable: true })
  requestId!: string | null;

  @Column({ type: 'jsonb' })
  detail!: Record<string, unknown>;

  // An Organization with an audit trail cannot be deleted out from under it.
  @ManyToOne('Organization', { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'organization_id', foreignKeyConstraintName: 'audit_events_organization_fk' })
  organization?: object;
}
