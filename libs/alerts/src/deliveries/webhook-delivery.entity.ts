import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { OrganizationOwnedEntity, TimestampColumn, Timestamp } from '@svc/platform';

/**
 * Every authenticated webhook delivery, whatever its outcome: what came (headers without
 * credentials, the body as received) and what the service answered.
 */
@Entity('webhook_deliveries')
@Index('webhook_deliveries_received', ['organizationId', 'receivedAt', 'id'])
export class WebhookDelivery extends OrganizationOwnedEntity {
  @Column({ type: 'uuid' })
  integrationId!: string;

  @TimestampColumn({ default: () => 'clock_timestamp()' })
  receivedAt!: Timestamp;

  @Column({ type: 'integer' })
  statusCode!: number;

  @Column({ type: 'integer', default: 0 })
  accepted!: number;

  @Column({ type: 'integer', default: 0 })
  duplicates!: number;

  @Column({ type: 'jsonb' })
  incidentIds!: string[];

  @Column({ type: 'text', nullable: true })
  error!: string | null;

  @Column({ type: 'jsonb' })
  headers!: Record<string, string>;

  /** The body as received (UTF-8); null when it was refused unread (413, 415). */
  @Column({ type: 'text', nullable: true })
  body!: string | null;

  @Column({ type: 'uuid', nullable: true })
  replayOf!: string | null;

  @ManyToOne('Organization', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organization_id', foreignKeyConstraintName: 'webhook_deliveries_organization_fk' })
  organization?: object;
}
