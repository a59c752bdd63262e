import { Check, Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { OrganizationOwnedEntity, Role, TimestampColumn, Timestamp } from '@svc/platform';
import { Organization } from './organization.entity';

/** A user's role in one Organization. */
@Entity('memberships')
@Index('memberships_organization_user', ['organizationId', 'userId'], { unique: true })
@Index('memberships_user', ['userId'])
@Check('memberships_role', `role IN ('viewer', 'editor', 'admin')`)
export class Membership extends OrganizationOwnedEntity {
  @Column({ type: 'uuid' })
  userId!: string;

  @Column({ type: 'text' })
  role!: Role;

  @TimestampColumn({ default: () => 'clock_timestamp()' })
  createdAt!: Timestamp;

  @TimestampColumn({ default: () => 'clock_timestamp()' })
  updatedAt!: Timestamp;

  @ManyToOne(() => Organization, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organization_id', foreignKeyConstraintName: 'memberships_organization_fk' })
  organization?: Organization;

  // Users belong to the auth module; the foreign key is declared by name to keep the modules apart.
  @ManyToOne('User', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'memberships_user_fk' })
  user?: object;
}
