import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { OrganizationOwnedEntity } from '@svc/platform';
import { Conversation } from '../conversation.entity';

/** The chat thread a conversation is keyed by: the workspace's integration, the channel and the thread's first message `ts`. */
@Entity('chat_threads')
@Index('chat_threads_thread', ['organizationId', 'integrationId', 'channel', 'threadTs'], { unique: true })
@Index('chat_threads_conversation', ['organizationId', 'conversationId'], { unique: true })
export class ChatThread extends OrganizationOwnedEntity {
  @Column({ type: 'uuid' })
  integrationId!: string;

  @Column({ type: 'text' })
  channel!: string;

  @Column({ type: 'text' })
  threadTs!: string;

  @Column({ type: 'uuid' })
  conversationId!: string;

  @ManyToOne(() => Conversation, { onDelete: 'CASCADE' })
  @JoinColumn([
    { name: 'organization_id', referencedColumnName: 'organizationId' },
    { name: 'conversation_id', referencedColumnName: 'id' },
  ])
  conversation?: Conversation;

  // Integrations belong to the integrations library; the foreign key names the entity to keep the libraries apart.
  @ManyToOne('Integration', { onDelete: 'CASCADE' })
  @JoinColumn([
    { name: 'organization_id', referencedColumnName: 'organizationId' },
    { name: 'integration_id', referencedColumnName: 'id' },
  ])
  integration?: object;
}
