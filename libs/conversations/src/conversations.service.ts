import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Brackets, DataSource, EntityManager } from 'typeorm';
import { AuditService } from '@svc/audit';
import { IncidentsService } from '@svc/incidents';
import { ContextMessage, ContextTurn, ConversationContext, incidentWindow, InvestigationsService, TERMINAL_STATUSES } from '@svc/investigations';
import {
  AuditContext,
  byTimeThenId,
  CursorCodec,
  InjectScopedRepository,
  InvalidInputError,
  KeysetOrdering,
  keysetPage,
  newId,
  NotFoundError,
  Outbox,
  PageRequest,
  ScopedRepository,
  Timestamp,
} from '@svc/platform';
import { ConversationMessage } from './conversation-message.entity';
import { ConversationTurn } from './conversation-turn.entity';
import { Conversation, ConversationSource } from './conversation.entity';
import { LockedConversation, ConversationsRepository } from './conversations.repository';
import {
  ConversationDetailView,
  ConversationPage,
  ConversationTurnView,
  conversationView,
  messageView,
  OpenedConversationView,
  PostedMessageView,
  TurnInvestigation,
  turnView,
} from './dto/conversation.view';

export const CONVERSATIONS_QUEUE = 'conversations';
/** Written by a turn's investigation as it ends: appends its answer and starts the next turn. */
export const TURN_ENDED_JOB = 'conversation.turn-ended';
/** A chat event taken in by the webhook: its message opens or continues the thread's conversation. */
export const CHAT_EVENT_JOB = 'chat.event';
/** A chat message's turn ended: its answer is posted in the thread. */
export const CHAT_REPLY_JOB = 'chat.reply';

const NEWEST_FIRST = byTimeThenId<Conversation>('c', 'created_at', (c) => c.createdAt, 'DESC');
const BY_TURN: KeysetOrdering<ConversationTurn> = {
  name: 'turn',
  direction: 'ASC',
  columns: [
    { expression: 't.turn', read: (t) => t.turn },
    { expression: 't.investigation_id', read: (t) => t.investigationId },
  ],
};

const HOUR_MICROS = 60n * 60n * 1_000_000n;
/**
 * How much of the conversation (message texts and earlier conclusions, in characters) a turn's
 * reasoner is given; the oldest messages and conclusions are left out first beyond it.
 */
export const CONTEXT_BUDGET_CHARS = 24_000;

/** A question as the API accepts it: the text, and the window as sent. */
export interface MessageInput {
  message: string;
  windowFrom?: string;
  windowUntil?: string;
}

interface Window {
  from: Timestamp;
  until: Timestamp;
}

/** Who wrote a message, as stored with it. */
export interface MessageAuthor {
  id: string;
  /** Empty when not known (a chat user). */
  name: string;
}

const authorOf = (context: AuditContext) => ({
  id: context.actorKind === 'api_token' ? `token:${context.actorId}` : (context.actorId ?? context.actorKind),
  name: context.actorName ?? context.actorKind,
});

/**
 * Conversations: a subject, an optional incident, and numbered messages. Each user message
 * starts a turn, which is an investigation; turns run one at a time in message order (a message
 * that arrives while a turn runs waits for it), and a turn's answer is appended as an
 * `assistant` message when its investigation ends.
 */
@Injectable()
export class ConversationsService {
  constructor(
    @InjectScopedRepository(Conversation) private readonly conversations: ScopedRepository<Conversation>,
    @InjectScopedRepository(ConversationMessage) private readonly messages: ScopedRepository<ConversationMessage>,
    @InjectScopedRepository(ConversationTurn) private readonly turns: ScopedRepository<ConversationTurn>,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly repository: ConversationsRepository,
    private readonly incidents: IncidentsService,
    private readonly investigations: InvestigationsService,
    private readonly audit: AuditService,
    private readonly cursors: CursorCodec,
    private readonly outbox: Outbox,
  ) {}

  /** Opens a conversation; with a first message, its first turn is queued too. */
  async open(
    organizationId: string,
    input: { subject: string; incidentId?: string } & Partial<MessageInput>,
    context: AuditContext,
  ): Promise<OpenedConversationView> {
    const acceptedAt = Timestamp.now();
    const window = this.windowOf(input, acceptedAt);
    const incident = input.incidentId ? await this.incidents.get(organizationId, input.incidentId) : null;
    const id = newId();
    const author = authorOf(context);
    const posted = await this.dataSource.transaction(async (manager) => {
      await this.conversations.withManager(manager).insert(organizationId, {
        id,
        subject: input.subject,
        source: 'web' satisfies ConversationSource,
        incidentId: incident?.id ?? null,
        createdBy: author.id,
        lastSequence: 0,
        lastTurn: 0,
        createdAt: acceptedAt,
        lastActivityAt: acceptedAt,
      });
      await this.audit.record(manager, organizationId, context, {
        action: 'conversation.open',
        targetKind: 'conversation',
        targetId: id,
        detail: { incidentId: incident?.id ?? null, withMessage: input.message !== undefined },
      });
      if (input.message === undefined) return null;
      return this.post(
        manager,
        organizationId,
        { id, incidentId: incident?.id ?? null, source: 'web' },
        { text: input.message, window, sourceReference: null },
        author,
        context,
        acceptedAt,
      );
    });
    const conversation = await this.get(organizationId, id);
    return { ...conversationView(conversation), ...(posted ? { message: posted.message, turn: posted.turn } : {}), queued: posted?.queued ?? false };
  }

  /** A person's message: numbered after the messages so far; its turn starts now or when the running one ends. */
  async postMessage(organizationId: string, conversationId: string, input: MessageInput, context: AuditContext): Promise<PostedMessageView> {
    const acceptedAt = Timestamp.now();
    const window = this.windowOf(input, acceptedAt);
    return this.dataSource.transaction(async (manager) => {
      const conversation = await this.repository.lock(organizationId, conversationId, manager);
      if (!conversation) throw new NotFoundError('Conversation');
      // Turns that ended since are answered first, so the thread reads in order.
      await this.advance(manager, organizationId, conversationId);
      return this.post(manager, organizationId, conversation, { text: input.message, window, sourceReference: null }, authorOf(context), context, acceptedAt);
    });
  }

  async get(organizationId: string, id: string): Promise<Conversation> {
    const conversation = await this.conversations.findById(organizationId, id);
    if (!conversation) throw new NotFoundError('Conversation');
    return conversation;
  }

  /** The conversation with every message, in sequence order. */
  async detail(organizationId: string, id: string): Promise<ConversationDetailView> {
    const conversation = await this.get(organizationId, id);
    const messages = await this.messages.find(organizationId, { where: { conversationId: id }, order: { sequence: 'ASC' } });
    return { ...conversationView(conversation), messages: messages.map(messageView) };
  }

  /** Newest first; filtered by incident and source. */
  async page(organizationId: string, filters: { incidentId?: string; source?: ConversationSource }, page: PageRequest): Promise<ConversationPage> {
    const query = this.conversations.query(organizationId, 'c').andWhere(
      new Brackets((qb) => {
        qb.where('TRUE');
        if (filters.incidentId) qb.andWhere('c.incident_id = :incidentId', { incidentId: filters.incidentId });
        if (filters.source) qb.andWhere('c.source = :source', { source: filters.source });
      }),
    );
    const found = await keysetPage(
      query,
      this.cursors,
      { scope: organizationId, collection: `conversations?${filters.incidentId ?? ''}&${filters.source ?? ''}` },
      NEWEST_FIRST,
      page,
    );
    return { items: found.items.map(conversationView), next: found.next };
  }

  /** The turns, by turn number then investigation id; cursors are bound to the Organization, the conversation and this ordering. */
  async turnPage(organizationId: string, conversationId: string, page: PageRequest): Promise<{ turns: ConversationTurnView[]; next: string | null }> {
    await this.get(organizationId, conversationId);
    const query = this.turns.query(organizationId, 't').andWhere('t.conversation_id = :conversationId', { conversationId });
    const found = await keysetPage(query, this.cursors, { scope: organizationId, collection: `conversations/${conversationId}/turns` }, BY_TURN, page);
    const investigations = new Map(
      (
        await this.investigations.findMany(
          organizationId,
          found.items.map((t) => t.investigationId),
        )
      ).map((i) => [i.id, i]),
    );
    return { turns: found.items.map((t) => turnView(t, investigations.get(t.investigationId)!)), next: found.next };
  }

  /**
   * After a turn's investigation ended (the job its end wrote): appends the answers of the turns
   * that ended, in turn order, and starts the next waiting turn. Safe to repeat.
   */
  async turnEnded(organizationId: string, conversationId: string): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      if (!(await this.repository.lock(organizationId, conversationId, manager))) return;
      await this.advance(manager, organizationId, conversationId);
    });
  }

  /**
   * Opens a chat conversation (`source: "chat"`, created by `chat:<user id>`) in the caller's
   * transaction, locked for the rest of it; its subject is the first message.
   */
  async openChat(
    manager: EntityManager,
    organizationId: string,
    input: { subject: string; userId: string },
    context: AuditContext,
  ): Promise<LockedConversation> {
    const id = newId();
    const now = Timestamp.now();
    await this.conversations.withManager(manager).insert(organizationId, {
      id,
      subject: input.subject,
      source: 'chat' satisfies ConversationSource,
      incidentId: null,
      createdBy: `chat:${input.userId}`,
      lastSequence: 0,
      lastTurn: 0,
      createdAt: now,
      lastActivityAt: now,
    });
    await this.audit.record(manager, organizationId, context, {
      action: 'conversation.open',
      targetKind: 'conversation',
      targetId: id,
      detail: { source: 'chat', withMessage: true },
    });
    return (await this.repository.lock(organizationId, id, manager))!;
  }

  /**
   * A chat message in the caller's transaction: numbered and its turn queued like a person's
   * message in the console, with the provider's user id as author and `<channel>:<ts>` as its
   * source reference. Null when a message with that reference is already in the conversation
   * (the provider sends a mention in a thread as a mention and as a message).
   */
  async postChat(
    manager: EntityManager,
    organizationId: string,
    conversationId: string,
    message: { text: string; userId: string; sourceReference: string },
    context: AuditContext,
  ): Promise<PostedMessageView | null> {
    const conversation = await this.repository.lock(organizationId, conversationId, manager);
    if (!conversation) return null;
    if (await this.messages.withManager(manager).findOne(organizationId, { conversationId, sourceReference: message.sourceReference })) return null;
    await this.advance(manager, organizationId, conversationId);
    return this.post(
      manager,
      organizationId,
      conversation,
      { text: message.text, window: null, sourceReference: message.sourceReference },
      { id: message.userId, name: '' },
      context,
      Timestamp.now(),
    );
  }

  /** The chat conversation, locked for the rest of the caller's transaction; undefined when it is not one of the Organization's chat conversations. */
  async lockChat(manager: EntityManager, organizationId: string, conversationId: string): Promise<LockedConversation | undefined> {
    const conversation = await this.repository.lock(organizationId, conversationId, manager);
    return conversation?.source === 'chat' ? conversation : undefined;
  }

  /** The message at `sequence` and the turn it started (null for an answer), in the caller's transaction. */
  async messageWithTurn(
    manager: EntityManager,
    organizationId: string,
    conversationId: string,
    sequence: number,
  ): Promise<{ message: ConversationMessage; turn: ConversationTurn | null; status: string | null } | null> {
    const message = await this.messages.withManager(manager).findOne(organizationId, { conversationId, sequence });
    if (!message) return null;
    if (message.role !== 'user' || !message.investigationId) return { message, turn: null, status: null };
    const turn = await this.turns.withManager(manager).findOne(organizationId, { conversationId, investigationId: message.investigationId });
    const [investigation] = await this.investigations.findMany(organizationId, [message.investigationId], manager);
    return { message, turn, status: investigation?.status ?? null };
  }

  /** The answer (an `assistant` message) to the turn of this investigation, once appended. */
  async answerTo(organizationId: string, conversationId: string, investigationId: string): Promise<ConversationMessage | null> {
    return this.messages.findOne(organizationId, { conversationId, investigationId, role: 'assistant' });
  }

  /**
   * A new turn for a user message whose turn failed (chat recovery), in the caller's transaction
   * with the conversation locked: a new investigation with the next turn number, which the
   * message now names; it starts now or when the running turn ends.
   */
  async retryTurn(manager: EntityManager, organizationId: string, conversationId: string, sequence: number, context: AuditContext): Promise<PostedMessageView> {
    const conversation = (await this.repository.lock(organizationId, conversationId, manager))!;
    const messageRows = this.messages.withManager(manager);
    const message = (await messageRows.findOne(organizationId, { conversationId, sequence }))!;
    const turn = await this.repository.takeTurnNumber(organizationId, conversationId, manager);
    const window = message.windowFrom && message.windowUntil ? { from: message.windowFrom, until: message.windowUntil } : null;
    const investigationId = await this.openTurnInvestigation(
      manager,
      organizationId,
      conversation,
      message.text,
      window,
      context.actorId ?? context.actorKind,
      Timestamp.now(),
    );
    await messageRows.update(organizationId, { id: message.id }, { investigationId });
    await this.turns.withManager(manager).insert(organizationId, {
      id: newId(),
      conversationId,
      turn,
      investigationId,
      messageSequence: sequence,
      startedAt: null,
      answeredAt: null,
    });
    await this.advance(manager, organizationId, conversationId);
    const [investigation] = await this.investigations.findMany(organizationId, [investigationId], manager);
    return { message: messageView({ ...message, investigationId }), turn: turnView({ turn, investigationId }, investigation), queued: true };
  }

  /** The turn a message now has, as the turn shape. */
  async turnOf(manager: EntityManager, organizationId: string, turn: ConversationTurn): Promise<ConversationTurnView> {
    const [investigation] = await this.investigations.findMany(organizationId, [turn.investigationId], manager);
    return turnView(turn, investigation);
  }

  /**
   * The window a message asks about (decisions: only with a message; `windowFrom` before
   * `windowUntil`; `windowUntil` no later than acceptance). Missing `windowUntil` is the time of
   * acceptance; missing `windowFrom` is an hour before `windowUntil`. Null without either.
   */
  private windowOf(input: Partial<MessageInput>, acceptedAt: Timestamp): Window | null {
    if (input.windowFrom === undefined && input.windowUntil === undefined) return null;
    if (input.message === undefined)
      throw new InvalidInputError(`Invalid input: ${input.windowFrom !== undefined ? 'windowFrom' : 'windowUntil'} is only accepted with a message`);
    const until = input.windowUntil !== undefined ? Timestamp.parse(input.windowUntil)! : acceptedAt;
    const from = input.windowFrom !== undefined ? Timestamp.parse(input.windowFrom)! : Timestamp.fromEpochMicros(until.epochMicros - HOUR_MICROS);
    if (until.isAfter(acceptedAt)) throw new InvalidInputError('Invalid input: windowUntil must not be later than the time the message is accepted');
    if (!from.isBefore(until)) throw new InvalidInputError('Invalid input: windowFrom must be before windowUntil');
    return { from, until };
  }

  /**
   * Opens the investigation of a turn, with the job that ends the turn: its subject the message,
   * its window the message's, else the incident's, else the hour before `at`. Returns its id.
   */
  private async openTurnInvestigation(
    manager: EntityManager,
    organizationId: string,
    conversation: LockedConversation,
    text: string,
    window: Window | null,
    openedBy: string,
    at: Timestamp,
  ): Promise<string> {
    const investigationId = newId();
    const { from, until } = window ?? (await this.defaultWindow(organizationId, conversation.incidentId, at));
    await this.investigations.openTurn(manager, organizationId, {
      id: investigationId,
      subject: text,
      incidentId: conversation.incidentId,
      windowFrom: from,
      windowUntil: until,
      openedBy,
      endJob: { queue: CONVERSATIONS_QUEUE, name: TURN_ENDED_JOB, payload: { conversationId: conversation.id, investigationId } },
    });
    return investigationId;
  }

  /** Numbers and stores a user message, opens its turn's investigation, and starts it unless a turn is running. */
  private async post(
    manager: EntityManager,
    organizationId: string,
    conversation: LockedConversation,
    message: { text: string; window: Window | null; sourceReference: string | null },
    author: MessageAuthor,
    context: AuditContext,
    acceptedAt: Timestamp,
  ): Promise<PostedMessageView> {
    const { sequence, turn } = await this.repository.takeNumbers(organizationId, conversation.id, { turn: true }, manager);
    const investigationId = await this.openTurnInvestigation(manager, organizationId, conversation, message.text, message.window, author.id, acceptedAt);
    const stored: Partial<ConversationMessage> = {
      id: newId(),
      conversationId: conversation.id,
      sequence,
      role: 'user',
      text: message.text,
      authorId: author.id,
      authorName: author.name,
      sourceReference: message.sourceReference,
      investigationId,
      windowFrom: message.window?.from ?? null,
      windowUntil: message.window?.until ?? null,
      createdAt: acceptedAt,
    };
    await this.messages.withManager(manager).insert(organizationId, stored);
    await this.turns.withManager(manager).insert(organizationId, {
      id: newId(),
      conversationId: conversation.id,
      turn,
      investigationId,
      messageSequence: sequence,
      startedAt: null,
      answeredAt: null,
    });
    await this.audit.record(manager, organizationId, context, {
      action: 'conversation.message',
      targetKind: 'conversation',
      targetId: conversation.id,
      detail: { sequence, turn, investigationId },
    });
    await this.advance(manager, organizationId, conversation.id);
    const [investigation] = await this.investigations.findMany(organizationId, [investigationId], manager);
    return { message: messageView(stored as ConversationMessage), turn: turnView({ turn, investigationId }, investigation), queued: true };
  }

  /** The message's window when it gave none: the incident's investigation window, else the last hour. */
  private async defaultWindow(organizationId: string, incidentId: string | null, now: Timestamp): Promise<Window> {
    if (incidentId) return incidentWindow(await this.incidents.get(organizationId, incidentId), now);
    return { from: Timestamp.fromEpochMicros(now.epochMicros - HOUR_MICROS), until: now };
  }

  /**
   * With the conversation locked: appends the answer of every ended turn not yet answered, in
   * turn order, and starts the first waiting turn once no turn runs (one turn at a time).
   */
  private async advance(manager: EntityManager, organizationId: string, conversationId: string): Promise<void> {
    const turnRows = this.turns.withManager(manager);
    const all = await turnRows.find(organizationId, { where: { conversationId }, order: { turn: 'ASC' } });
    const pending = all.filter((t) => !t.answeredAt);
    if (pending.length === 0) return;
    const investigations = new Map(
      (
        await this.investigations.findMany(
          organizationId,
          pending.map((t) => t.investigationId),
          manager,
        )
      ).map((i) => [i.id, i]),
    );
    for (const turn of pending) {
      let investigation = investigations.get(turn.investigationId)!;
      if (!TERMINAL_STATUSES.includes(investigation.status as never)) {
        if (turn.startedAt) return;
        const context = await this.contextFor(manager, organizationId, conversationId, turn, all);
        if (await this.investigations.startTurn(manager, organizationId, turn.investigationId, context)) {
          await turnRows.update(organizationId, { id: turn.id }, { startedAt: Timestamp.now() });
          return;
        }
        // Cancelled while it waited: answered like any ended turn.
        [investigation] = await this.investigations.findMany(organizationId, [turn.investigationId], manager);
      }
      await this.answer(manager, organizationId, conversationId, turn, investigation);
    }
  }

  /** Appends the ended turn's answer as an `assistant` message. */
  private async answer(
    manager: EntityManager,
    organizationId: string,
    conversationId: string,
    turn: ConversationTurn,
    i: TurnInvestigation & { reasoner: string | null },
  ) {
    const { sequence } = await this.repository.takeNumbers(organizationId, conversationId, { turn: false }, manager);
    const text =
      i.status === 'failed'
        ? `The turn failed: ${i.error ?? 'no detail'}`
        : i.status === 'cancelled'
          ? 'The turn was cancelled before it answered.'
          : (i.summary ?? `The turn ended ${i.status}.`);
    await this.messages.withManager(manager).insert(organizationId, {
      id: newId(),
      conversationId,
      sequence,
      role: 'assistant',
      text: text.slice(0, 32768),
      authorId: 'service',
      authorName: i.reasoner ? `Investigation service (${i.reasoner})` : 'Investigation service',
      sourceReference: null,
      investigationId: turn.investigationId,
      windowFrom: null,
      windowUntil: null,
      createdAt: Timestamp.now(),
    });
    await this.turns
      .withManager(manager)
      .update(organizationId, { id: turn.id }, { answeredAt: Timestamp.now(), startedAt: turn.startedAt ?? Timestamp.now() });
    const conversation = await this.conversations.withManager(manager).findById(organizationId, conversationId);
    if (conversation?.source === 'chat')
      await this.outbox.add(manager, {
        organizationId,
        queue: CONVERSATIONS_QUEUE,
        name: CHAT_REPLY_JOB,
        payload: { conversationId, messageSequence: turn.messageSequence, investigationId: turn.investigationId },
      });
  }

  /**
   * The conversation as the turn's reasoner sees it: the earlier messages (every answer, and the
   * user messages before its own) and the earlier turns' conclusions, the oldest left out first
   * beyond CONTEXT_BUDGET_CHARS.
   */
  private async contextFor(
    manager: EntityManager,
    organizationId: string,
    conversationId: string,
    turn: ConversationTurn,
    all: ConversationTurn[],
  ): Promise<ConversationContext> {
    const rows = await this.messages.withManager(manager).find(organizationId, { where: { conversationId }, order: { sequence: 'ASC' } });
    let messages: ContextMessage[] = rows
      .filter((m) => m.sequence !== turn.messageSequence && (m.role === 'assistant' || m.sequence < turn.messageSequence))
      .map((m) => ({ sequence: m.sequence, role: m.role, text: m.text, at: m.createdAt.toISOString() }));
    const earlier = all.filter((t) => t.turn < turn.turn);
    const concluded = new Map(
      (
        await this.investigations.findMany(
          organizationId,
          earlier.map((t) => t.investigationId),
          manager,
        )
      ).map((i) => [i.id, i]),
    );
    let turns: ContextTurn[] = earlier.map((t) => {
      const i = concluded.get(t.investigationId)!;
      return {
        turn: t.turn,
        investigationId: t.investigationId,
        status: i.status,
        conclusionStatus: i.conclusionStatus,
        summary: i.summary,
        findings: i.findings.map((f) => `${f.kind}: ${f.statement}${f.runRefs.length ? ` [${f.runRefs.map((n) => `#${n}`).join(', ')}]` : ''}`),
      };
    });
    const sizeOf = (m: ContextMessage[], t: ContextTurn[]) =>
      m.reduce((n, x) => n + x.text.length, 0) + t.reduce((n, x) => n + (x.summary?.length ?? 0) + x.findings.reduce((k, f) => k + f.length, 0), 0);
    const droppedMessageSequences: number[] = [];
    const droppedTurns: number[] = [];
    const messageOfTurn = new Map(all.map((t) => [t.turn, t.messageSequence]));
    while ((messages.length || turns.length) && sizeOf(messages, turns) > CONTEXT_BUDGET_CHARS) {
      // The oldest first: a turn is as old as the message that started it.
      const oldestTurnAt = turns.length ? messageOfTurn.get(turns[0].turn)! : Infinity;
      if (messages.length && messages[0].sequence <= oldestTurnAt) {
        droppedMessageSequences.push(messages[0].sequence);
        messages = messages.slice(1);
      } else {
        droppedTurns.push(turns[0].turn);
        turns = turns.slice(1);
      }
    }
    return { conversationId, turn: turn.turn, messageSequence: turn.messageSequence, messages, turns, droppedMessageSequences, droppedTurns };
  }
}
