import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { OrganizationOwnedEntity, TimestampColumn, Timestamp } from '@svc/platform';

export type IncidentStatus = 'open' | 'resolved' | 'merged';

/**
 * Alerts of one group (an integration and a group key) while any of them fires. The partial
 * unique index makes "at most one open incident per group" a fact of the database, so concurrent
 * deliveries for a group cannot open two.
 */
@Entity('incidents')
@Index('incidents_one_open_per_group', ['organizationId', 'integrationId', 'groupKey'], { unique: true, where: `status = 'open'` })
@Index('incidents_opened', ['organizationId', 'openedAt', 'id'])
export class Incident extends OrganizationOwnedEntity {
  @Column({ type: 'uuid' })
  integrationId!: string;

  @Column({ type: 'text' })
  groupKey!: string;

  @Column({ type: 'text' })
  status!: IncidentStatus;

  @Column({ type: 'text' })
  title!: string;

  /** The labels that define the group (the grouping labels' values, or the sender's group labels). */
  @Column({ type: 'jsonb' })
  labels!: Record<string, string>;

  @TimestampColumn()
  openedAt!: Timestamp;

  @TimestampColumn({ nullable: true })
  resolvedAt!: Timestamp | null;

  @Column({ type: 'uuid', nullable: true })
  mergedInto!: string | null;

  /** Distinct alerts in the incident. */
  @Column({ type: 'integer', default: 0 })
  alertCount!: number;

  /** Alerts whose latest phase is firing: the incident resolves when this reaches 0. */
  @Column({ type: 'integer', default: 0 })
  firingCount!: number;

  /** The latest resolution among its alerts: what resolvedAt becomes when the last one resolves. */
  @TimestampColumn({ nullable: true })
  lastResolutionAt!: Timestamp | null;

  @TimestampColumn({ default: () => 'clock_timestamp()' })
  createdAt!: Timestamp;

  @TimestampColumn({ default: () => 'clock_timestamp()' })
  updatedAt!: Timestamp;

  @ManyToOne('Organization', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organization_id', foreignKeyConstraintName: 'incidents_organization_fk' })
  organization?: object;
}
