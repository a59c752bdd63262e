import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { OrganizationOwnedEntity, TimestampColumn, Timestamp } from '@svc/platform';
import { Investigation } from './investigation.entity';

/** Stream event types (decisions §7); `hypothesis.updated` is listed by the activity listing only. */
export type ActivityType = 'started' | 'progress' | 'tool.started' | 'tool.completed' | 'hypothesis.updated' | 'concluded' | 'failed' | 'cancelled';

export const TERMINAL_EVENT_TYPES: readonly ActivityType[] = ['concluded', 'failed', 'cancelled'];

/**
 * A durable, sequenced activity row: the event stream is read from these, so a stream resumed on
 * another API instance or after a restart sees the same sequence, with no gap and no duplicate.
 */
@Entity('investigation_activity')
@Index('investigation_activity_sequence', ['organizationId', 'investigationId', 'sequence'], { unique: true })
export class InvestigationActivity extends OrganizationOwnedEntity {
  @Column({ type: 'uuid' })
  investigationId!: string;

  @Column({ type: 'integer' })
  sequence!: number;

  @Column({ type: 'text' })
  type!: ActivityType;

  @TimestampColumn({ default: () => 'clock_timestamp()' })
  at!: Timestamp;

  @Column({ type: 'jsonb' })
  data!: Record<string, unknown>;

  @ManyToOne(() => Investigation, { onDelete: 'CASCADE' })
  @JoinColumn([
    { name: 'organization_id', referencedColumnName: 'organizationId' },
    { name: 'investigation_id', referencedColumnName: 'id' },
  ])
  investigation?: Investigation;
}
