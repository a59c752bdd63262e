import { Column, Entity } from 'typeorm';
import { OrganizationOwnedEntity, Timestamp, TimestampColumn } from '@svc/platform';

/**
 * The `memberships` table as the platform's generic database tests see it: an Organization-owned
 * row with a creation time. The tests map it themselves rather than borrow the organizations
 * library's entity, which is that library's own business.
 */
@Entity('memberships')
export class MembershipRow extends OrganizationOwnedEntity {
  @Column({ type: 'uuid' })
  userId!: string;

  @Column({ type: 'text' })
  role!: 'viewer' | 'editor' | 'admin';

  @TimestampColumn({ default: () => 'clock_timestamp()' })
  createdAt!: Timestamp;
}
