import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { OrganizationOwnedEntity, Role, TimestampColumn, Timestamp } from '@svc/platform';

/** An Organization API token. Only the SHA-256 of its value is kept; the value is shown once. */
@Entity('api_tokens')
@Index('api_tokens_token_hash', ['tokenHash'], { unique: true })
@Index('api_tokens_created', ['organizationId', 'createdAt', 'id'])
export class ApiToken extends OrganizationOwnedEntity {
  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text' })
  role!: Role;

  @Column({ type: 'bytea' })
  tokenHash!: Buffer;

  @Column({ type: 'uuid' })
  createdBy!: string;

  @TimestampColumn({ default: () => 'clock_timestamp()' })
  createdAt!: Timestamp;

  @TimestampColumn()
  expiresAt!: Timestamp;

  @TimestampColumn({ nullable: true })
  lastUsedAt!: Timestamp | null;

  @TimestampColumn({ nullable: true })
  revokedAt!: Timestamp | null;

  @ManyToOne('Organization', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organization_id', foreignKeyConstraintName: 'api_tokens_organization_fk' })
  organization?: object;
}
