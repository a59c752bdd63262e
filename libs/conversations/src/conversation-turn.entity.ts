import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { OrganizationOwnedEntity, Timestamp, TimestampColumn } from '@svc/platform';
import { Conversation } from './conversation.entity';

/**
 * A turn: the investigation a user message started. `startedAt` is set when its job was queued
 * (after the earlier turns ended), `answeredAt` when its answer was appended as a message.
 */
@Entity('conversation_turns')
@Index('conversation_turns_number', ['organizationId', 'conversationId', 'turn', 'investigationId'], { unique: true })
@Index('conversation_turns_investigation', ['organizationId', 'investigationId'], { unique: true })
export class ConversationTurn extends OrganizationOwnedEntity {
  @Column({ type: 'uuid' })
  conversationId!: string;

  @Column({ type: 'integer' })
  turn!: number;

  @Column({ type: 'uuid' })
  investigationId!: string;

  /** The user message that started it. */
  @Column({ type: 'integer' })
  messageSequence!: number;

  @TimestampColumn({ nullable: true })
  startedAt!: Timestamp | null;

  @TimestampColumn({ nullable: true })
  answeredAt!: Timestamp | null;

  @ManyToOne(() => Conversation, { onDelete: 'CASCADE' })
  @JoinColumn([
    { name: 'organization_id', referencedColumnName: 'organizationId' },
    { name: 'conversation_id', referencedColumnName: 'id' },
  ])
  conversation?: Conversation;

  // Investigations belong to the investigations library; the foreign key names the entity to keep the libraries apart.
  @ManyToOne('Investigation', { onDelete: 'CASCADE' })
  @JoinColumn([
    { name: 'organization_id', referencedColumnName: 'organizationId' },
    { name: 'investigation_id', referencedColumnName: 'id' },
  ])
  investigation?: object;
}
