import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { OrganizationOwnedEntity, TimestampColumn, Timestamp } from '@svc/platform';
import { Incident } from './incident.entity';

/**
 * One lifecycle phase of one alert: firing (from startsAt) or resolved (at endsAt). The unique key
 * makes an exact retry of an accepted phase a duplicate instead of a second event.
 */
@Entity('alert_events')
@Index('alert_events_phase', ['organizationId', 'integrationId', 'fingerprint', 'status', 'phaseAt'], { unique: true })
@Index('alert_events_incident', ['organizationId', 'incidentId', 'receivedAt', 'id'])
export class AlertEvent extends OrganizationOwnedEntity {
  @Column({ type: 'uuid' })
  incidentId!: string;

  @Column({ type: 'uuid' })
  integrationId!: string;

  @Column({ type: 'uuid' })
  deliveryId!: string;

  @Column({ type: 'text' })
  fingerprint!: string;

  @Column({ type: 'text' })
  status!: 'firing' | 'resolved';

  @Column({ type: 'jsonb' })
  labels!: Record<string, string>;

  @Column({ type: 'jsonb' })
  annotations!: Record<string, string>;

  @TimestampColumn()
  startsAt!: Timestamp;

  @TimestampColumn({ nullable: true })
  endsAt!: Timestamp | null;

  /** startsAt for a firing phase, endsAt (or the receipt time) for a resolved one. */
  @TimestampColumn()
  phaseAt!: Timestamp;

  @Column({ type: 'text', nullable: true })
  generatorUrl!: string | null;

  @TimestampColumn({ default: () => 'clock_timestamp()' })
  receivedAt!: Timestamp;

  @ManyToOne(() => Incident, { onDelete: 'CASCADE' })
  @JoinColumn([
    { name: 'organization_id', referencedColumnName: 'organizationId' },
    { name: 'incident_id', referencedColumnName: 'id' },
  ])
  incident?: Incident;
}
