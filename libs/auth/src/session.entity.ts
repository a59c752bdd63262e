import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { TimestampColumn, Timestamp } from '@svc/platform';
import { User } from './user.entity';

export const REVOCATION_REASONS = ['signed_out', 'revoked', 'password_changed', 'member_removed', 'user_disabled'] as const;
export type RevocationReason = (typeof REVOCATION_REASONS)[number];

/** A browser session. Only the SHA-256 of the cookie value is stored. */
@Entity('sessions')
@Index('sessions_token_hash', ['tokenHash'], { unique: true })
@Index('sessions_user', ['userId', 'issuedAt'])
export class Session {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ type: 'bytea' })
  tokenHash!: Buffer;

  @Column({ type: 'uuid' })
  userId!: string;

  /** The Organization flat paths use when no header names one. */
  @Column({ type: 'text', nullable: true })
  activeOrganizationId!: string | null;

  @TimestampColumn()
  issuedAt!: Timestamp;

  @TimestampColumn()
  lastSeenAt!: Timestamp;

  /** Absolute end of the session. */
  @TimestampColumn()
  expiresAt!: Timestamp;

  /** Idle lifetime fixed when the session was issued. */
  @Column({ type: 'integer' })
  idleTimeoutSeconds!: number;

  @TimestampColumn({ nullable: true })
  revokedAt!: Timestamp | null;

  @Column({ type: 'text', nullable: true })
  revokedReason!: RevocationReason | null;

  @Column({ type: 'text', nullable: true })
  userAgent!: string | null;

  @Column({ type: 'text', nullable: true })
  address!: string | null;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'sessions_user_fk' })
  user?: User;

  @ManyToOne('Organization', { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'active_organization_id', foreignKeyConstraintName: 'sessions_active_organization_fk' })
  activeOrganization?: object;
}
