import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { OrganizationOwnedEntity, Timestamp, TimestampColumn } from '@svc/platform';

/**
 * One service calling another, as an investigation saw it in the metrics it read (a service
 * graph, a mesh's or a client library's series naming both ends). What an alerting service calls
 * is where its incident's changes may also lie: an incident's changes include its dependencies'.
 */
@Entity('service_calls')
@Index('service_calls_pair', ['organizationId', 'callerKey', 'calleeKey'], { unique: true })
export class ServiceCall extends OrganizationOwnedEntity {
  /** The caller as the series named it. */
  @Column({ type: 'text' })
  caller!: string;

  /** The caller in lower case: services are matched without regard to case. */
  @Column({ type: 'text' })
  callerKey!: string;

  @Column({ type: 'text' })
  callee!: string;

  @Column({ type: 'text' })
  calleeKey!: string;

  /** The Prometheus integration whose series showed the call last (kept as history when the integration is deleted). */
  @Column({ type: 'uuid' })
  integrationId!: string;

  /** The investigation that saw the call last. */
  @Column({ type: 'uuid' })
  investigationId!: string;

  @TimestampColumn({ default: () => 'clock_timestamp()' })
  firstSeenAt!: Timestamp;

  /** When an investigation last saw it: calls not seen for as long as changes are kept are forgotten. */
  @TimestampColumn({ default: () => 'clock_timestamp()' })
  lastSeenAt!: Timestamp;

  @ManyToOne('Organization', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organization_id', foreignKeyConstraintName: 'service_calls_organization_fk' })
  organization?: object;
}
