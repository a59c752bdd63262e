import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AuditService } from '@svc/audit';
import { IntegrationsService } from '@svc/integrations';
import { AppConfig, AuditContext, ConflictError, InjectScopedRepository, newId, NotFoundError, Outbox, ScopedRepository, Timestamp } from '@svc/platform';
import { CHAT_REPLY_JOB, CONVERSATIONS_QUEUE, ConversationsService } from '../conversations.service';
import { messageView, PostedMessageView } from '../dto/conversation.view';
import { ChatReply } from './chat-reply.entity';
import { ChatThread } from './chat-thread.entity';
import { ChatEventPayload } from './chat-intake.service';
import { ChatPoster } from './chat-poster';
import { ChatRepository } from './chat.repository';

/** A conversation's subject is its first message, cut to the contract's 512 characters. */
const SUBJECT_MAX = 512;
const MESSAGE_MAX = 8192;
const LEADING_MENTIONS = /^(?:\s*<@[A-Za-z0-9_]+(?:\|[^>]*)?>)+\s*/;

/** The question an event's text asks: without the leading mention of the app, within the message limit. */
export function questionOf(text: string): string {
  const stripped = text.replace(LEADING_MENTIONS, '').trim();
  return (stripped || text.trim()).slice(0, MESSAGE_MAX);
}

/**
 * Chat threads as conversations (decisions §9): a mention opens the conversation of its thread
 * (`source: "chat"`) or continues it, a reply in the thread continues it; when a turn ends its
 * answer is posted in the thread with a link to the investigation; a message whose turn failed
 * or whose reply could not be posted can be recovered.
 */
@Injectable()
export class ChatService {
  private readonly logger = new Logger(ChatService.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectScopedRepository(ChatThread) private readonly threads: ScopedRepository<ChatThread>,
    @InjectScopedRepository(ChatReply) private readonly replies: ScopedRepository<ChatReply>,
    private readonly repository: ChatRepository,
    private readonly conversations: ConversationsService,
    private readonly integrations: IntegrationsService,
    private readonly poster: ChatPoster,
    private readonly outbox: Outbox,
    private readonly audit: AuditService,
    private readonly config: AppConfig,
  ) {}

  /**
   * The worker's side of an event taken in: its message joins the thread's conversation (opened
   * by a mention when the thread has none) and its turn is queued. Safe to repeat: a message is
   * stored once per `<channel>:<ts>`.
   */
  async handleEvent(organizationId: string, event: ChatEventPayload): Promise<void> {
    const context: AuditContext = { actorKind: 'system', actorId: null, actorName: `chat:${event.user}`, sourceAddress: null, requestId: event.eventId };
    const key = { integrationId: event.integrationId, channel: event.channel, threadTs: event.threadTs };
    await this.dataSource.transaction(async (manager) => {
      await this.repository.lockThread(organizationId, key, manager);
      const threadRows = this.threads.withManager(manager);
      const text = questionOf(event.text);
      let conversationId = (await threadRows.findOne(organizationId, key))?.conversationId;
      if (!conversationId) {
        if (event.kind !== 'mention') return;
        conversationId = (await this.conversations.openChat(manager, organizationId, { subject: text.slice(0, SUBJECT_MAX), userId: event.user }, context)).id;
        await threadRows.insert(organizationId, { id: newId(), ...key, conversationId });
      }
      const posted = await this.conversations.postChat(
        manager,
        organizationId,
        conversationId,
        { text, userId: event.user, sourceReference: `${event.channel}:${event.ts}` },
        context,
      );
      if (!posted) return;
      await this.replies.withManager(manager).insert(organizationId, {
        id: newId(),
        conversationId,
        messageSequence: posted.message.sequence,
        status: 'processing',
        failure: null,
        error: null,
        attempts: 0,
        postedTs: null,
        updatedAt: Timestamp.now(),
      });
    });
  }

  /**
   * A chat message's turn ended: its answer (or the notice of its failure) is posted in the
   * thread with a link to the investigation, and the message's processing recorded as posted or
   * failed. Does nothing when the processing already ended or the message has had a new turn
   * since (recovery).
   */
  async postReply(organizationId: string, job: { conversationId: string; messageSequence: number; investigationId: string }): Promise<void> {
    const reply = await this.replies.findOne(organizationId, { conversationId: job.conversationId, messageSequence: job.messageSequence });
    if (!reply || reply.status !== 'processing') return;
    const found = await this.conversations.messageWithTurn(this.dataSource.manager, organizationId, job.conversationId, job.messageSequence);
    if (!found || found.message.investigationId !== job.investigationId) return;
    const answer = await this.conversations.answerTo(organizationId, job.conversationId, job.investigationId);
    const thread = await this.threads.findOne(organizationId, { conversationId: job.conversationId });
    if (!answer || !thread) return;
    const turnFailed = found.status === 'failed';
    let outcome: { posted: true; ts: string | null; tries: number } | { posted: false; error: string; tries: number };
    try {
      const connection = await this.integrations.chatConnection(organizationId, thread.integrationId);
      if (!connection.enabled) outcome = { posted: false, error: 'The chat integration is disabled', tries: 0 };
      else {
        const link = `${this.config.SVC_PUBLIC_URL.replace(/\/$/, '')}/investigations/${job.investigationId}`;
        outcome = await this.poster.post(connection, {
          channel: thread.channel,
          threadTs: thread.threadTs,
          text: `${answer.text}\n\n<${link}|Open the investigation>`,
        });
      }
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
      outcome = { posted: false, error: 'The chat integration no longer exists', tries: 0 };
    }
    if (!outcome.posted)
      this.logger.warn({ organizationId, conversationId: job.conversationId, sequence: job.messageSequence, error: outcome.error }, 'Chat reply not posted');
    await this.replies.update(
      organizationId,
      { id: reply.id, status: 'processing' },
      {
        status: outcome.posted && !turnFailed ? 'posted' : 'failed',
        failure: turnFailed ? 'turn' : outcome.posted ? null : 'post',
        error: turnFailed
          ? `The turn failed${outcome.posted ? '' : `, and its notice was not posted (${outcome.error})`}`
          : outcome.posted
            ? null
            : outcome.error,
        attempts: reply.attempts + outcome.tries,
        postedTs: outcome.posted ? outcome.ts : null,
        updatedAt: Timestamp.now(),
      },
    );
  }

  /**
   * Re-drives the terminal processing of one chat message (`sequence` is the user message's):
   * a failed turn gets a new turn, a reply that could not be posted is posted again. 409 while
   * it is being processed, or when it did not fail.
   */
  async recover(organizationId: string, conversationId: string, sequence: number, context: AuditContext): Promise<PostedMessageView> {
    return this.dataSource.transaction(async (manager) => {
      const conversation = await this.conversations.lockChat(manager, organizationId, conversationId);
      if (!conversation) throw new NotFoundError('Chat conversation');
      const found = await this.conversations.messageWithTurn(manager, organizationId, conversationId, sequence);
      if (!found || found.message.role !== 'user' || !found.turn) throw new NotFoundError('Chat message');
      const reply = await this.replies
        .withManager(manager)
        .query(organizationId, 'r')
        .andWhere('r.conversation_id = :conversationId AND r.message_sequence = :sequence', { conversationId, sequence })
        .setLock('pessimistic_write')
        .getOne();
      if (!reply || reply.status === 'processing') throw new ConflictError('The message is still being processed: nothing to recover yet');
      if (reply.status !== 'failed') throw new ConflictError('The message did not fail: its answer was posted');
      let result: PostedMessageView;
      if (reply.failure === 'turn') result = await this.conversations.retryTurn(manager, organizationId, conversationId, sequence, context);
      else {
        await this.outbox.add(manager, {
          organizationId,
          queue: CONVERSATIONS_QUEUE,
          name: CHAT_REPLY_JOB,
          payload: { conversationId, messageSequence: sequence, investigationId: found.turn.investigationId },
        });
        result = { message: messageView(found.message), turn: await this.conversations.turnOf(manager, organizationId, found.turn), queued: true };
      }
      await this.replies
        .withManager(manager)
        .update(organizationId, { id: reply.id }, { status: 'processing', failure: null, error: null, updatedAt: Timestamp.now() });
      await this.audit.record(manager, organizationId, context, {
        action: 'chat.recover',
        targetKind: 'conversation',
        targetId: conversationId,
        detail: { sequence, failure: reply.failure, error: reply.error, investigationId: result.turn.investigationId },
      });
      return result;
    });
  }
}
