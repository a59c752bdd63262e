import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { newId } from '@svc/platform';

/** The statements of chat beyond what the scoped repository does: the event-id record and the per-thread lock. */
@Injectable()
export class ChatRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Records that the event was taken in; false when it already was (a repeated delivery, from
   * any process): the unique key decides, inside the caller's transaction.
   */
  async recordEvent(organizationId: string, integrationId: string, eventId: string, manager: EntityManager = this.dataSource.manager): Promise<boolean> {
    const rows = (await manager.query(
      `INSERT INTO chat_events (organization_id, id, integration_id, event_id) VALUES ($1, $2, $3, $4)
        ON CONFLICT (organization_id, integration_id, event_id) DO NOTHING RETURNING id`,
      [organizationId, newId(), integrationId, eventId],
    )) as { id: string }[];
    return rows.length === 1;
  }

  /** Whether the thread has a conversation (a reply in any other thread is not for the service). */
  async threadExists(
    organizationId: string,
    thread: { integrationId: string; channel: string; threadTs: string },
    manager: EntityManager = this.dataSource.manager,
  ): Promise<boolean> {
    const rows = (await manager.query('SELECT 1 FROM chat_threads WHERE organization_id = $1 AND integration_id = $2 AND channel = $3 AND thread_ts = $4', [
      organizationId,
      thread.integrationId,
      thread.channel,
      thread.threadTs,
    ])) as unknown[];
    return rows.length > 0;
  }

  /**
   * Serialises the caller's transaction with every other one on the same thread until it ends (a
   * transaction-level advisory lock on the thread's key), so two events of a new thread open one
   * conversation between them.
   */
  async lockThread(
    organizationId: string,
    thread: { integrationId: string; channel: string; threadTs: string },
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [
      `chat-thread:${organizationId}:${thread.integrationId}:${thread.channel}:${thread.threadTs}`,
    ]);
  }
}
