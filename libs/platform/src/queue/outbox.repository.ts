import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';

export const OUTBOX_CHANNEL = 'svc_outbox';

/** A committed job waiting for the relay. */
export interface PendingOutboxMessage {
  id: string;
  organization_id: string;
  queue: string;
  job_name: string;
  payload: Record<string, unknown>;
}

/**
 * The outbox_messages statements. Writing a job is per Organization; relaying is by nature across
 * Organizations (one relay moves every Organization's jobs, by message id), and says so by name.
 */
@Injectable()
export class OutboxRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async insert(
    organizationId: string,
    message: { id: string; queue: string; jobName: string; payload: Record<string, unknown> },
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.query('INSERT INTO outbox_messages (id, organization_id, queue, job_name, payload) VALUES ($1, $2, $3, $4, $5::jsonb)', [
      message.id,
      organizationId,
      message.queue,
      message.jobName,
      JSON.stringify(message.payload),
    ]);
  }

  /** Several messages, each in its own Organization, in one statement. */
  async insertMany(
    messages: { organizationId: string; id: string; queue: string; jobName: string; payload: Record<string, unknown> }[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.query(
      `INSERT INTO outbox_messages (id, organization_id, queue, job_name, payload)
        SELECT id, organization_id, queue, job_name, payload::jsonb FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[])
          AS m(id, organization_id, queue, job_name, payload)`,
      [
        messages.map((m) => m.id),
        messages.map((m) => m.organizationId),
        messages.map((m) => m.queue),
        messages.map((m) => m.jobName),
        messages.map((m) => JSON.stringify(m.payload)),
      ],
    );
  }

  /** Wakes the relays when the caller's transaction commits. */
  async notifyRelays(queue: string, manager: EntityManager = this.dataSource.manager): Promise<void> {
    await manager.query('SELECT pg_notify($1, $2)', [OUTBOX_CHANNEL, queue]);
  }

  /** Messages not yet relayed, by queue, across Organizations (a depth for /metrics): at most `cap` are counted. */
  async pendingCountsAcrossOrganizations(cap: number, manager: EntityManager = this.dataSource.manager): Promise<Map<string, number>> {
    const rows = (await manager.query(
      'SELECT queue, count(*)::int AS jobs FROM (SELECT queue FROM outbox_messages WHERE dispatched_at IS NULL LIMIT $1) pending GROUP BY queue',
      [cap],
    )) as { queue: string; jobs: number }[];
    return new Map(rows.map((r) => [r.queue, r.jobs]));
  }

  /** Across Organizations: claims up to `limit` undispatched messages, oldest first, skipping those another relay holds. */
  async claimPendingAcrossOrganizations(limit: number, manager: EntityManager = this.dataSource.manager): Promise<PendingOutboxMessage[]> {
    return (await manager.query(
      `SELECT id, organization_id, queue, job_name, payload FROM outbox_messages
        WHERE dispatched_at IS NULL ORDER BY id LIMIT ${Number(limit)} FOR UPDATE SKIP LOCKED`,
    )) as PendingOutboxMessage[];
  }

  /** Across Organizations, by message id: the messages reached their queues. */
  async markDispatchedAcrossOrganizations(ids: string[], manager: EntityManager = this.dataSource.manager): Promise<void> {
    await manager.query('UPDATE outbox_messages SET dispatched_at = clock_timestamp() WHERE id = ANY($1)', [ids]);
  }

  /** Across Organizations, by message id: a failed attempt to queue the message. */
  async recordFailureAcrossOrganizations(id: string, error: string, manager: EntityManager = this.dataSource.manager): Promise<void> {
    await manager.query('UPDATE outbox_messages SET attempts = attempts + 1, last_error = $2 WHERE id = $1', [id, error]);
  }
}
