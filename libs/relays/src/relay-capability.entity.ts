import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { OrganizationOwnedEntity } from '@svc/platform';
import { Relay } from './relay.entity';

/** One capability a relay advertised for one integration in its current (or last) session. */
@Entity('relay_capabilities')
@Index('relay_capabilities_key', ['organizationId', 'relayId', 'integrationId', 'capabilityId'], { unique: true })
export class RelayCapability extends OrganizationOwnedEntity {
  @Column({ type: 'uuid' })
  relayId!: string;

  /** The integration it serves, as named in the relay's configuration. */
  @Column({ type: 'uuid' })
  integrationId!: string;

  @Column({ type: 'text' })
  capabilityId!: string;

  @Column({ type: 'integer' })
  capabilityVersion!: number;

  @ManyToOne(() => Relay, { onDelete: 'CASCADE' })
  @JoinColumn([
    { name: 'organization_id', referencedColumnName: 'organizationId' },
    { name: 'relay_id', referencedColumnName: 'id' },
  ])
  relay?: Relay;
}
