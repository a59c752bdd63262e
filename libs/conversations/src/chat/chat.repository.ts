import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { newId } from '@svc/platform';

/**
 * The statements of chat beyond what the scoped repository does: the event-id record (across
 * Organizations by nature: the webhook takes in every workspace's events together) and the
 * per-thread lock.
 */
@Injectable()
export class ChatRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Records the events of a batch (of any Organizations: the webhook takes in events of every
   * workspace together, each row carrying its own Organization) and returns those taken in now;
   * the ones already taken in (a repeated delivery, from any process) are left out.
   */
  async recordEventsAcrossOrganizations(
    events: { organizationId: string; integrationId: string; eventId: string }[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<{ organizationId: string; integrationId: string; eventId: string }[]> {
    const rows = (await manager.query(
      `INSERT INTO chat_events (organization_id, id, integration_id, event_id)
        SELECT * FROM unnest($1::text[], $2::uuid[], $3::uuid[], $4::text[])
        ON CONFLICT (organization_id, integration_id, event_id) DO NOTHING
        RETURNING organization_id, integration_id, event_id`,
      [events.map((e) => e.organizationId), events.map(() => newId()), events.map((e) => e.integrationId), events.map((e) => e.eventId)],
    )) as { organization_id: string; integration_id: string; event_id: string }[];
    return rows.map((r) => ({ organizationId: r.organization_id, integrationId: r.integration_id, eventId: r.event_id }));
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
