import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { OrganizationOwnedEntity, Timestamp, TimestampColumn } from '@svc/platform';
import { Conversation } from '../conversation.entity';

/**
 * `processing` until the answer is posted in the thread (`posted`), or `failed`: the turn failed
 * (`failure: 'turn'`, its notice is still posted) or the reply could not be posted
 * (`failure: 'post'`).
 */
export type ChatReplyStatus = 'processing' | 'posted' | 'failed';

/** The terminal processing of one chat message (a user message of a chat conversation): its turn, then its reply in the thread. */
@Entity('chat_replies')
@Index('chat_replies_message', ['organizationId', 'conversationId', 'messageSequence'], { unique: true })
export class ChatReply extends OrganizationOwnedEntity {
  @Column({ type: 'uuid' })
  conversationId!: string;

  /** The user message's sequence. */
  @Column({ type: 'integer' })
  messageSequence!: number;

  @Column({ type: 'text' })
  status!: ChatReplyStatus;

  @Column({ type: 'text', nullable: true })
  failure!: 'turn' | 'post' | null;

  /** Why it failed: the turn's error, or the provider's last answer (status and `error` code only). */
  @Column({ type: 'text', nullable: true })
  error!: string | null;

  /** Posting attempts so far (all processing runs together). */
  @Column({ type: 'integer', default: 0 })
  attempts!: number;

  /** The `ts` of the posted reply. */
  @Column({ type: 'text', nullable: true })
  postedTs!: string | null;

  @TimestampColumn({ default: () => 'clock_timestamp()' })
  updatedAt!: Timestamp;

  @ManyToOne(() => Conversation, { onDelete: 'CASCADE' })
  @JoinColumn([
    { name: 'organization_id', referencedColumnName: 'organizationId' },
    { name: 'conversation_id', referencedColumnName: 'id' },
  ])
  conversation?: Conversation;
}
