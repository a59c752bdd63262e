import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { OrganizationOwnedEntity, TimestampColumn, Timestamp } from '@svc/platform';

export type VerifyOutcome = 'succeeded' | 'failed';

/** A connection to one of the Organization's systems (a source of alerts, of data, or both). */
@Entity('integrations')
@Index('integrations_created', ['organizationId', 'createdAt', 'id'])
// Webhook deliveries name only the integration: found by id before its Organization is known.
@Index('integrations_id', ['id'], { unique: true })
@Index('integrations_webhook_secret', ['webhookSecretHash'], { unique: true, where: 'webhook_secret_hash IS NOT NULL' })
export class Integration extends OrganizationOwnedEntity {
  @Column({ type: 'text' })
  type!: string;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'boolean' })
  enabled!: boolean;

  @Column({ type: 'jsonb' })
  config!: Record<string, unknown>;

  /** AES-256-GCM sealed JSON (see CredentialCipher); never returned. */
  @Column({ type: 'bytea', nullable: true })
  credentialsSealed!: Buffer | null;

  /** SHA-256 of the current webhook secret; the secret itself is shown once. */
  @Column({ type: 'bytea', nullable: true })
  webhookSecretHash!: Buffer | null;

  /**
   * The current webhook secret sealed (see CredentialCipher), for types whose senders sign the body
   * with it (`signedWebhook`: GitHub's X-Hub-Signature-256, Flux's X-Signature) and so need the
   * secret itself to check the signature; null for the others. Never returned.
   */
  @Column({ type: 'bytea', nullable: true })
  webhookSecretSealed!: Buffer | null;

  @TimestampColumn({ nullable: true })
  webhookSecretRotatedAt!: Timestamp | null;

  @TimestampColumn({ nullable: true })
  lastVerifiedAt!: Timestamp | null;

  @Column({ type: 'text', nullable: true })
  lastVerifyOutcome!: VerifyOutcome | null;

  @Column({ type: 'text', nullable: true })
  lastVerifyDetail!: string | null;

  @Column({ type: 'uuid' })
  createdBy!: string;

  @TimestampColumn({ default: () => 'clock_timestamp()' })
  createdAt!: Timestamp;

  @TimestampColumn({ default: () => 'clock_timestamp()' })
  updatedAt!: Timestamp;

  @ManyToOne('Organization', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organization_id', foreignKeyConstraintName: 'integrations_organization_fk' })
  organization?: object;
}
