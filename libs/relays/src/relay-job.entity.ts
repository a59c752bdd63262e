import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { OrganizationOwnedEntity, TimestampColumn, Timestamp } from '@svc/platform';
import { Relay } from './relay.entity';

/** How a relay job ended (its row is written then). */
export type RelayJobStatus = 'succeeded' | 'failed' | 'timed_out' | 'cancelled';

/** What the relay is asked to read. */
export interface RelayJobRequest {
  path: string;
  query: [string, string][];
  timeoutMs: number;
  maxBytes: number;
}

/**
 * The record of one read a relay was asked to run for a tool run, written when it ended (while it
 * runs, the job and its answer travel through RelayTransport). Failed and timed-out jobs are the
 * relay's failures.
 */
@Entity('relay_jobs')
@Index('relay_jobs_created', ['organizationId', 'relayId', 'createdAt', 'id'])
export class RelayJob extends OrganizationOwnedEntity {
  @Column({ type: 'uuid' })
  relayId!: string;

  @Column({ type: 'uuid' })
  integrationId!: string;

  @Column({ type: 'text' })
  capabilityId!: string;

  @Column({ type: 'integer' })
  capabilityVersion!: number;

  /** The path and query read (no origin, no credentials). */
  @Column({ type: 'text' })
  source!: string;

  @Column({ type: 'jsonb' })
  request!: RelayJobRequest;

  @Column({ type: 'text' })
  status!: RelayJobStatus;

  /** The HTTP status the local system answered with. */
  @Column({ type: 'integer', nullable: true })
  resultStatus!: number | null;

  @Column({ type: 'boolean', nullable: true })
  resultTruncated!: boolean | null;

  /** Why it failed, without any upstream body. */
  @Column({ type: 'text', nullable: true })
  error!: string | null;

  @TimestampColumn({ default: () => 'clock_timestamp()' })
  createdAt!: Timestamp;

  @TimestampColumn({ nullable: true })
  finishedAt!: Timestamp | null;

  @ManyToOne(() => Relay, { onDelete: 'CASCADE' })
  @JoinColumn([
    { name: 'organization_id', referencedColumnName: 'organizationId' },
    { name: 'relay_id', referencedColumnName: 'id' },
  ])
  relay?: Relay;
}
