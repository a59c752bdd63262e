import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { OrganizationOwnedEntity, TimestampColumn, Timestamp } from '@svc/platform';

/** A one-time token a relay registers with. Only its SHA-256 is kept; the value is shown once. */
@Entity('relay_bootstrap_tokens')
@Index('relay_bootstrap_tokens_token_hash', ['tokenHash'], { unique: true })
export class RelayBootstrapToken extends OrganizationOwnedEntity {
  /** The name the relay registered with it gets. */
  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'bytea' })
  tokenHash!: Buffer;

  @Column({ type: 'uuid' })
  createdBy!: string;

  @TimestampColumn({ default: () => 'clock_timestamp()' })
  createdAt!: Timestamp;

  @TimestampColumn()
  expiresAt!: Timestamp;

  /** When a relay registered with it; a used token is refused. */
  @TimestampColumn({ nullable: true })
  usedAt!: Timestamp | null;

  @ManyToOne('Organization', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organization_id', foreignKeyConstraintName: 'relay_bootstrap_tokens_organization_fk' })
  organization?: object;
}
