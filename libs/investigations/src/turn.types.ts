import type { Timestamp } from '@svc/platform';
import type { ConclusionStatus } from './conclusion.types';

/** One message of a conversation as a turn's reasoner reads it. */
export interface ContextMessage {
  sequence: number;
  role: 'user' | 'assistant';
  text: string;
  at: string;
}

/** An earlier turn's conclusion as a later turn's reasoner reads it. */
export interface ContextTurn {
  turn: number;
  investigationId: string;
  status: string;
  conclusionStatus: ConclusionStatus | null;
  summary: string | null;
  /** The statements of its findings, with their kind. */
  findings: string[];
}

/**
 * The conversation a turn belongs to, as its reasoner sees it: the message that asked the
 * question, and the earlier messages and turns that fit the context budget (oldest dropped first).
 */
export interface ConversationContext {
  conversationId: string;
  turn: number;
  /** The sequence of the user message that started (and scoped) this turn. */
  messageSequence: number;
  /** Earlier messages kept, in sequence order. */
  messages: ContextMessage[];
  /** Earlier turns kept, in turn order. */
  turns: ContextTurn[];
  /** Sequences of earlier messages left out to stay within the budget. */
  droppedMessageSequences: number[];
  /** Earlier turns left out to stay within the budget. */
  droppedTurns: number[];
}

/** The job written to the outbox in the transaction that ends the investigation. */
export interface EndJob {
  queue: string;
  name: string;
  payload: Record<string, unknown>;
}

/** What opening a conversation turn's investigation needs (the opener owns the rest). */
export interface TurnOpening {
  id: string;
  subject: string;
  incidentId: string | null;
  windowFrom: Timestamp;
  windowUntil: Timestamp;
  openedBy: string;
  endJob: EndJob;
}
