import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';

/** The conversation row as the locking statements return it. */
export interface LockedConversation {
  id: string;
  incidentId: string | null;
  source: string;
}

/** The statements on conversations beyond what the scoped repository does: the row lock and the numbering of messages and turns. */
@Injectable()
export class ConversationsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Locks the conversation for the rest of the caller's transaction: messages are numbered, and
   * turns started, one writer at a time. Undefined when it does not exist in the Organization.
   */
  async lock(organizationId: string, conversationId: string, manager: EntityManager = this.dataSource.manager): Promise<LockedConversation | undefined> {
    const [row] = (await manager.query('SELECT id, incident_id, source FROM conversations WHERE organization_id = $1 AND id = $2 FOR UPDATE', [
      organizationId,
      conversationId,
    ])) as { id: string; incident_id: string | null; source: string }[];
    return row ? { id: row.id, incidentId: row.incident_id, source: row.source } : undefined;
  }

  /** Takes the next message sequence (and, for a user message, the next turn number), and records the activity. */
  async takeNumbers(
    organizationId: string,
    conversationId: string,
    options: { turn: boolean },
    manager: EntityManager = this.dataSource.manager,
  ): Promise<{ sequence: number; turn: number }> {
    const [rows] = (await manager.query(
      `UPDATE conversations SET last_sequence = last_sequence + 1, last_turn = last_turn + $3, last_activity_at = clock_timestamp()
        WHERE organization_id = $1 AND id = $2 RETURNING last_sequence, last_turn`,
      [organizationId, conversationId, options.turn ? 1 : 0],
    )) as [{ last_sequence: number; last_turn: number }[], number];
    return { sequence: rows[0].last_sequence, turn: rows[0].last_turn };
  }

  /** Takes the next turn number alone: a failed chat message's new turn, which is not a new message. */
  async takeTurnNumber(organizationId: string, conversationId: string, manager: EntityManager = this.dataSource.manager): Promise<number> {
    const [rows] = (await manager.query(
      `UPDATE conversations SET last_turn = last_turn + 1, last_activity_at = clock_timestamp()
        WHERE organization_id = $1 AND id = $2 RETURNING last_turn`,
      [organizationId, conversationId],
    )) as [{ last_turn: number }[], number];
    return rows[0].last_turn;
  }
}
