import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { OrganizationOwnedEntity, TimestampColumn, Timestamp } from '@svc/platform';
import { RelayBootstrapToken } from './relay-bootstrap-token.entity';

/**
 * A registered relay: an agent in a customer network that runs tool runs for integrations the
 * control plane cannot reach. Created when a relay registers with a bootstrap token. It holds at
 * most one session at a time (`sessionId`), kept alive by heartbeats (`lastSeenAt`).
 */
@Entity('relays')
@Index('relays_created', ['organizationId', 'createdAt', 'id'])
// A Connect call names only its credential: found by it before the Organization is known.
@Index('relays_credential_hash', ['credentialHash'], { unique: true })
export class Relay extends OrganizationOwnedEntity {
  @Column({ type: 'text' })
  name!: string;

  /** SHA-256 of the registration credential; the credential itself is returned once, to the relay. */
  @Column({ type: 'bytea' })
  credentialHash!: Buffer;

  /** The bootstrap token it registered with. */
  @Column({ type: 'uuid' })
  bootstrapTokenId!: string;

  /** The relay's software version, as it last said. */
  @Column({ type: 'text', nullable: true })
  version!: string | null;

  /** The current session, null when none. */
  @Column({ type: 'uuid', nullable: true })
  sessionId!: string | null;

  /** The relay process that holds (or last held) the session: it may take its own session back. */
  @Column({ type: 'text', nullable: true })
  sessionInstance!: string | null;

  @TimestampColumn({ nullable: true })
  sessionStartedAt!: Timestamp | null;

  /** The last heartbeat of a session. */
  @TimestampColumn({ nullable: true })
  lastSeenAt!: Timestamp | null;

  @TimestampColumn({ default: () => 'clock_timestamp()' })
  createdAt!: Timestamp;

  @ManyToOne('Organization', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organization_id', foreignKeyConstraintName: 'relays_organization_fk' })
  organization?: object;

  /** Its provenance: a token cannot be deleted while the relay it registered exists. */
  @ManyToOne(() => RelayBootstrapToken, { onDelete: 'NO ACTION' })
  @JoinColumn([
    { name: 'organization_id', referencedColumnName: 'organizationId', foreignKeyConstraintName: 'relays_bootstrap_token_fk' },
    { name: 'bootstrap_token_id', referencedColumnName: 'id' },
  ])
  bootstrapToken?: RelayBootstrapToken;
}
