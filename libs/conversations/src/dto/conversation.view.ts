import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { ConversationMessage } from '../conversation-message.entity';
import type { Conversation } from '../conversation.entity';

const STATUSES = ['queued', 'investigating', 'needs_input', 'partial', 'concluded', 'cancelled', 'failed'];

/** A turn as the contract shapes it: exactly these properties, optional ones absent until known. */
export class ConversationTurnView {
  @ApiProperty({ format: 'uuid' }) investigationId!: string;
  @ApiProperty({ minimum: 1 }) turn!: number;
  @ApiProperty({ enum: STATUSES }) status!: string;
  @ApiPropertyOptional({ maxLength: 32768, description: "The investigation's answer (for needs_input: its question)" }) answer?: string;
  @ApiPropertyOptional({ enum: ['tool_runs', 'reasoner_turns', 'wall_clock', 'stagnation', 'context'] }) stoppedBy?: string;
  @ApiPropertyOptional({ maxLength: 4096 }) error?: string;
  @ApiProperty({ type: String, format: 'date-time' }) createdAt!: string;
  @ApiPropertyOptional({ type: String, format: 'date-time' }) concludedAt?: string;
}

export class ConversationTurnPage {
  @ApiProperty({ type: [ConversationTurnView], maxItems: 200 }) turns!: ConversationTurnView[];
  @ApiProperty({ type: String, nullable: true, maxLength: 512 }) next!: string | null;
}

export class MessageView {
  @ApiProperty({ description: 'Position in the conversation, from 1' }) sequence!: number;
  @ApiProperty({ enum: ['user', 'assistant'] }) role!: string;
  @ApiProperty() text!: string;
  @ApiProperty({ type: String, format: 'date-time' }) createdAt!: string;
  @ApiProperty() authorId!: string;
  @ApiPropertyOptional({ description: "The author's display name, when known" }) authorName?: string;
  @ApiPropertyOptional() sourceReference?: string;
  @ApiPropertyOptional({ format: 'uuid', description: 'The turn it started (user) or answers (assistant)' }) investigationId?: string;
  @ApiPropertyOptional({ type: String, format: 'date-time' }) windowFrom?: string;
  @ApiPropertyOptional({ type: String, format: 'date-time' }) windowUntil?: string;
}

export class ConversationView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ minLength: 1, maxLength: 512 }) subject!: string;
  @ApiProperty({ enum: ['web', 'chat'] }) source!: string;
  @ApiProperty({ type: String, format: 'date-time' }) createdAt!: string;
  @ApiProperty({ type: String, format: 'date-time' }) lastActivityAt!: string;
  @ApiPropertyOptional({ format: 'uuid' }) incidentId?: string;
  @ApiProperty({ maxLength: 256 }) createdBy!: string;
}

/** The answer to opening a conversation: with its first message and turn when it had a message. */
export class OpenedConversationView extends ConversationView {
  @ApiPropertyOptional({ type: MessageView }) message?: MessageView;
  @ApiPropertyOptional({ type: ConversationTurnView }) turn?: ConversationTurnView;
  @ApiProperty({ description: 'A turn was queued for the message' }) queued!: boolean;
}

/** The single read: the conversation and every message, in sequence order (the thread). */
export class ConversationDetailView extends ConversationView {
  @ApiProperty({ type: [MessageView] }) messages!: MessageView[];
}

export class PostedMessageView {
  @ApiProperty({ type: MessageView }) message!: MessageView;
  @ApiProperty({ type: ConversationTurnView }) turn!: ConversationTurnView;
  @ApiProperty({ description: 'A turn was queued for the message' }) queued!: boolean;
}

export class ConversationPage {
  @ApiProperty({ type: [ConversationView] }) items!: ConversationView[];
  @ApiProperty({ type: String, nullable: true }) next!: string | null;
}

export function conversationView(c: Conversation): ConversationView {
  return {
    id: c.id,
    subject: c.subject,
    source: c.source,
    createdAt: c.createdAt.toISOString(),
    lastActivityAt: c.lastActivityAt.toISOString(),
    ...(c.incidentId ? { incidentId: c.incidentId } : {}),
    createdBy: c.createdBy.slice(0, 256),
  };
}

export function messageView(m: ConversationMessage): MessageView {
  return {
    sequence: m.sequence,
    role: m.role,
    text: m.text,
    createdAt: m.createdAt.toISOString(),
    authorId: m.authorId,
    ...(m.authorName ? { authorName: m.authorName } : {}),
    ...(m.sourceReference ? { sourceReference: m.sourceReference } : {}),
    ...(m.investigationId ? { investigationId: m.investigationId } : {}),
    ...(m.windowFrom ? { windowFrom: m.windowFrom.toISOString() } : {}),
    ...(m.windowUntil ? { windowUntil: m.windowUntil.toISOString() } : {}),
  };
}

/** What a turn view needs of its investigation. */
export interface TurnInvestigation {
  id: string;
  status: string;
  summary: string | null;
  stoppedBy: string | null;
  error: string | null;
  createdAt: { toISOString(): string };
  concludedAt: { toISOString(): string } | null;
}

const ANSWERED = ['concluded', 'partial', 'needs_input'];

export function turnView(turn: { turn: number; investigationId: string }, i: TurnInvestigation): ConversationTurnView {
  return {
    investigationId: turn.investigationId,
    turn: turn.turn,
    status: i.status,
    ...(i.summary && ANSWERED.includes(i.status) ? { answer: i.summary.slice(0, 32768) } : {}),
    ...(i.stoppedBy ? { stoppedBy: i.stoppedBy } : {}),
    ...(i.error ? { error: i.error.slice(0, 4096) } : {}),
    createdAt: i.createdAt.toISOString(),
    ...(i.concludedAt ? { concludedAt: i.concludedAt.toISOString() } : {}),
  };
}
