import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { OrganizationOwnedEntity, Timestamp, TimestampColumn } from '@svc/platform';

/**
 * A chat event taken in: its `event_id` per integration, unique, so a repeated delivery (the
 * provider retries until it hears 200 in time) is answered 200 and processed once, whichever API
 * process receives it.
 */
@Entity('chat_events')
@Index('chat_events_event', ['organizationId', 'integrationId', 'eventId'], { unique: true })
export class ChatEvent extends OrganizationOwnedEntity {
  @Column({ type: 'uuid' })
  integrationId!: string;

  @Column({ type: 'text' })
  eventId!: string;

  @TimestampColumn({ default: () => 'clock_timestamp()' })
  receivedAt!: Timestamp;

  // Integrations belong to the integrations library; the foreign key names the entity to keep the libraries apart.
  @ManyToOne('Integration', { onDelete: 'CASCADE' })
  @JoinColumn([
    { name: 'organization_id', referencedColumnName: 'organizationId' },
    { name: 'integration_id', referencedColumnName: 'id' },
  ])
  integration?: object;
}
