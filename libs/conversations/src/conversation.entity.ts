import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { OrganizationOwnedEntity, Timestamp, TimestampColumn } from '@svc/platform';

export type ConversationSource = 'web' | 'chat';

/**
 * A conversation: a subject, an optional incident, and numbered messages. Each user message
 * starts a turn (an investigation); turns run one at a time, in message order.
 */
@Entity('conversations')
@Index('conversations_created', ['organizationId', 'createdAt', 'id'])
@Index('conversations_incident', ['organizationId', 'incidentId', 'createdAt'])
export class Conversation extends OrganizationOwnedEntity {
  @Column({ type: 'text' })
  subject!: string;

  @Column({ type: 'text' })
  source!: ConversationSource;

  @Column({ type: 'uuid', nullable: true })
  incidentId!: string | null;

  /** A user id, `token:<id>` for an API token (or `chat:<user id>` for a chat conversation). */
  @Column({ type: 'text' })
  createdBy!: string;

  /** The sequence of its latest message (messages are numbered 1, 2, … per conversation). */
  @Column({ type: 'integer', default: 0 })
  lastSequence!: number;

  /** The number of its latest turn. */
  @Column({ type: 'integer', default: 0 })
  lastTurn!: number;

  @TimestampColumn({ default: () => 'clock_timestamp()' })
  createdAt!: Timestamp;

  @TimestampColumn({ default: () => 'clock_timestamp()' })
  lastActivityAt!: Timestamp;

  // Incidents belong to the incidents library; the foreign key names the entity to keep the libraries apart.
  @ManyToOne('Incident', { onDelete: 'CASCADE' })
  @JoinColumn([
    { name: 'organization_id', referencedColumnName: 'organizationId' },
    { name: 'incident_id', referencedColumnName: 'id' },
  ])
  incident?: object;

  // The key to the incident holds the Organization only while incidentId is set.
  @ManyToOne('Organization', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organization_id', foreignKeyConstraintName: 'conversations_organization_fk' })
  organization?: object;
}
