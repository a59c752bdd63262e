import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { TimestampColumn, Timestamp } from '@svc/platform';
import { User } from '../user.entity';

/** An account at an OpenID Provider, linked to one of our users: (issuer, subject) names it for good. */
@Entity('oidc_identities')
@Index('oidc_identities_issuer_subject', ['issuer', 'subject'], { unique: true })
export class OidcIdentity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  /** The issuer exactly as its discovery document and ID tokens name it. */
  @Column({ type: 'text' })
  issuer!: string;

  /** The ID token's `sub`: stable per issuer, unlike the email address. */
  @Column({ type: 'text' })
  subject!: string;

  @Column({ type: 'uuid' })
  userId!: string;

  @TimestampColumn({ default: () => 'clock_timestamp()' })
  createdAt!: Timestamp;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'oidc_identities_user_fk' })
  user?: User;
}
