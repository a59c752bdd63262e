import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { TimestampColumn, Timestamp } from '@svc/platform';

/** A person who signs in. Users are global; what they may see comes from their memberships. */
@Entity('users')
@Index('users_email', ['email'], { unique: true })
export class User {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  /** Stored lower-cased and trimmed. */
  @Column({ type: 'text' })
  email!: string;

  @Column({ type: 'text' })
  name!: string;

  /** argon2id PHC string; null for users who only sign in through OIDC. */
  @Column({ type: 'text', nullable: true })
  passwordHash!: string | null;

  @TimestampColumn({ nullable: true })
  disabledAt!: Timestamp | null;

  @TimestampColumn({ default: () => 'clock_timestamp()' })
  createdAt!: Timestamp;

  @TimestampColumn({ default: () => 'clock_timestamp()' })
  updatedAt!: Timestamp;
}
