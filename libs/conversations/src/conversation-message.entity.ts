import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { OrganizationOwnedEntity, Timestamp, TimestampColumn } from '@svc/platform';
import { Conversation } from './conversation.entity';

export type MessageRole = 'user' | 'assistant';

/** One message: a person's (which starts a turn) or the service's answer to a turn. */
@Entity('conversation_messages')
@Index('conversation_messages_sequence', ['organizationId', 'conversationId', 'sequence'], { unique: true })
export class ConversationMessage extends OrganizationOwnedEntity {
  @Column({ type: 'uuid' })
  conversationId!: string;

  @Column({ type: 'integer' })
  sequence!: number;

  @Column({ type: 'text' })
  role!: MessageRole;

  @Column({ type: 'text' })
  text!: string;

  @Column({ type: 'text' })
  authorId!: string;

  @Column({ type: 'text' })
  authorName!: string;

  @Column({ type: 'text', nullable: true })
  sourceReference!: string | null;

  /** The turn's investigation: the one it started (user) or the one it answers (assistant). */
  @Column({ type: 'uuid', nullable: true })
  investigationId!: string | null;

  @TimestampColumn({ nullable: true })
  windowFrom!: Timestamp | null;

  @TimestampColumn({ nullable: true })
  windowUntil!: Timestamp | null;

  @TimestampColumn({ default: () => 'clock_timestamp()' })
  createdAt!: Timestamp;

  @ManyToOne(() => Conversation, { onDelete: 'CASCADE' })
  @JoinColumn([
    { name: 'organization_id', referencedColumnName: 'organizationId' },
    { name: 'conversation_id', referencedColumnName: 'id' },
  ])
  conversation?: Conversation;

  /**
   * The message outlives its turn's investigation, without the link. The migration narrows the
   * action to ON DELETE SET NULL ("investigation_id"), which TypeORM cannot express: a plain SET
   * NULL would clear organization_id too.
   */
  @ManyToOne('Investigation', { onDelete: 'SET NULL' })
  @JoinColumn([
    { name: 'organization_id', referencedColumnName: 'organizationId', foreignKeyConstraintName: 'conversation_messages_investigation_fk' },
    { name: 'investigation_id', referencedColumnName: 'id' },
  ])
  investigation?: object;
}
