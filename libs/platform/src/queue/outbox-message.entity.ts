import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { TimestampColumn } from '../database/timestamp-column';
import type { Timestamp } from '../time/timestamp';

/**
 * A job waiting to reach its queue. Written in the same transaction as the state change that
 * wants it; the relay moves it to Bull with this row's id as the jobId.
 */
@Entity('outbox_messages')
@Index('outbox_messages_pending', ['id'], { where: 'dispatched_at IS NULL' })
export class OutboxMessage {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ type: 'text' })
  organizationId!: string;

  @Column({ type: 'text' })
  queue!: string;

  @Column({ type: 'text' })
  jobName!: string;

  @Column({ type: 'jsonb' })
  payload!: Record<string, unknown>;

  @TimestampColumn({ default: () => 'clock_timestamp()' })
  createdAt!: Timestamp;

  @TimestampColumn({ nullable: true })
  dispatchedAt!: Timestamp | null;

  @Column({ type: 'integer', default: 0 })
  attempts!: number;

  @Column({ type: 'text', nullable: true })
  lastError!: string | null;
}
