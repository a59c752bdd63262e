import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { OrganizationOwnedEntity, TimestampColumn, Timestamp } from '@svc/platform';
import { Investigation } from './investigation.entity';

export type ToolRunOutcome = 'running' | 'succeeded' | 'failed';

/**
 * One numbered read of evidence. The ordinal is unique and gap-free per investigation (taken
 * under the investigation's row lock); the output is kept, capped, so that findings can cite it.
 */
@Entity('tool_runs')
@Index('tool_runs_ordinal', ['organizationId', 'investigationId', 'ordinal'], { unique: true })
export class ToolRun extends OrganizationOwnedEntity {
  @Column({ type: 'uuid' })
  investigationId!: string;

  @Column({ type: 'integer' })
  ordinal!: number;

  @Column({ type: 'text' })
  tool!: string;

  @Column({ type: 'uuid', nullable: true })
  integrationId!: string | null;

  @Column({ type: 'text' })
  purpose!: string;

  @Column({ type: 'text', nullable: true })
  hypothesisId!: string | null;

  @Column({ type: 'jsonb' })
  arguments!: Record<string, unknown>;

  @TimestampColumn({ nullable: true })
  windowFrom!: Timestamp | null;

  @TimestampColumn({ nullable: true })
  windowUntil!: Timestamp | null;

  @Column({ type: 'text' })
  outcome!: ToolRunOutcome;

  @TimestampColumn()
  startedAt!: Timestamp;

  @TimestampColumn({ nullable: true })
  finishedAt!: Timestamp | null;

  @Column({ type: 'text', nullable: true })
  summary!: string | null;

  @Column({ type: 'jsonb', default: () => `'[]'` })
  sources!: string[];

  @Column({ type: 'boolean', default: false })
  truncated!: boolean;

  @Column({ type: 'text', nullable: true })
  error!: string | null;

  @Column({ type: 'jsonb', nullable: true })
  output!: unknown;

  @ManyToOne(() => Investigation, { onDelete: 'CASCADE' })
  @JoinColumn([
    { name: 'organization_id', referencedColumnName: 'organizationId' },
    { name: 'investigation_id', referencedColumnName: 'id' },
  ])
  investigation?: Investigation;
}
