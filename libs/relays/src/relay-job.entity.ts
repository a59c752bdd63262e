import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { OrganizationOwnedEntity, TimestampColumn, Timestamp } from '@svc/platform';
import { Relay } from './relay.entity';

export type RelayJobStatus = 'pending' | 'sent' | 'succeeded' | 'failed' | 'timed_out' | 'cancelled';

/** What the relay is asked to read. */
export interface RelayJobRequest {
  path: string;
  query: [string, string][];
  timeoutMs: number;
  maxBytes: number;
}

/** One read a relay was asked to run for a tool run. Failed and timed-out jobs are the relay's failures. */
@Entity('relay_jobs')
@Index('relay_jobs_created', ['organizationId', 'relayId', 'createdAt', 'id'])
@Index('relay_jobs_pending', ['organizationId', 'relayId'], { where: `status = 'pending'` })
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

  /** The answer, as read by the relay (capped); kept until the tool run has read it. */
  @Column({ type: 'bytea', nullable: true })
  resultBody!: Buffer | null;

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
