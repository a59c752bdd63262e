import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { OrganizationOwnedEntity, TimestampColumn, Timestamp } from '@svc/platform';
import { Relay } from './relay.entity';

/**
 * A connection refused because another one held the registration. Further refusals while it is
 * open count on the same record; an Admin clears it.
 */
@Entity('relay_session_conflicts')
@Index('relay_session_conflicts_created', ['organizationId', 'relayId', 'occurredAt', 'id'])
@Index('relay_session_conflicts_open', ['organizationId', 'relayId'], { unique: true, where: 'cleared_at IS NULL' })
export class RelaySessionConflict extends OrganizationOwnedEntity {
  @Column({ type: 'uuid' })
  relayId!: string;

  /** The first refused connection. */
  @TimestampColumn({ default: () => 'clock_timestamp()' })
  occurredAt!: Timestamp;

  /** The latest refused connection. */
  @TimestampColumn({ default: () => 'clock_timestamp()' })
  lastAttemptAt!: Timestamp;

  /** Refused connections counted on this record. */
  @Column({ type: 'integer', default: 1 })
  attempts!: number;

  /** The address the refused connection came from. */
  @Column({ type: 'text', nullable: true })
  address!: string | null;

  @TimestampColumn({ nullable: true })
  clearedAt!: Timestamp | null;

  @Column({ type: 'uuid', nullable: true })
  clearedBy!: string | null;

  @ManyToOne(() => Relay, { onDelete: 'CASCADE' })
  @JoinColumn([
    { name: 'organization_id', referencedColumnName: 'organizationId' },
    { name: 'relay_id', referencedColumnName: 'id' },
  ])
  relay?: Relay;
}
