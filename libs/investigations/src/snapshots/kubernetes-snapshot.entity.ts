import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { OrganizationOwnedEntity, Timestamp, TimestampColumn } from '@svc/platform';

/** One read of a snapshot, as stored: what a tool run records, without a number of an investigation. */
export interface SnapshotRun {
  tool: string;
  integrationId: string;
  arguments: Record<string, unknown>;
  purpose: string;
  outcome: 'succeeded' | 'failed';
  summary: string | null;
  output: unknown;
  truncated: boolean;
  sources: string[];
  error: string | null;
  startedAt: string;
  finishedAt: string;
}

/**
 * What the Kubernetes API showed of an incident's workloads when the incident opened: their pods'
 * states and their events (which expire after about an hour), read by the worker once per
 * incident. A worker claims the incident first (claimedAt); takenAt is set with the runs.
 */
@Entity('incident_kubernetes_snapshots')
@Index('incident_kubernetes_snapshots_incident', ['organizationId', 'incidentId'], { unique: true })
export class KubernetesSnapshot extends OrganizationOwnedEntity {
  @Column({ type: 'uuid' })
  incidentId!: string;

  /** When a worker began taking it: another may take it over when it never finished. */
  @TimestampColumn()
  claimedAt!: Timestamp;

  @TimestampColumn({ nullable: true })
  takenAt!: Timestamp | null;

  @Column({ type: 'jsonb', default: () => `'[]'` })
  runs!: SnapshotRun[];

  /** Taken for the incident: it goes with it. */
  @ManyToOne('Incident', { onDelete: 'CASCADE' })
  @JoinColumn([
    { name: 'organization_id', referencedColumnName: 'organizationId', foreignKeyConstraintName: 'incident_kubernetes_snapshots_incident_fk' },
    { name: 'incident_id', referencedColumnName: 'id' },
  ])
  incident?: object;

  @ManyToOne('Organization', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organization_id', foreignKeyConstraintName: 'incident_kubernetes_snapshots_organization_fk' })
  organization?: object;
}
