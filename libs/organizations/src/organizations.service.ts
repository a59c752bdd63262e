import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { ConflictError, newId, Role, ScopedRepository } from '@svc/platform';
import { Membership } from './membership.entity';
import { Organization } from './organization.entity';
import { OrganizationView } from './organization-view';

@Injectable()
export class OrganizationsService {
  private readonly memberships: ScopedRepository<Membership>;

  constructor(
    @InjectRepository(Organization) private readonly organizations: Repository<Organization>,
    @InjectRepository(Membership) membershipRepository: Repository<Membership>,
  ) {
    this.memberships = new ScopedRepository(membershipRepository);
  }

  /** Creates an Organization with its first member, inside the caller's transaction. */
  async createWithMember(manager: EntityManager, organization: { id: string; displayName: string }, userId: string, role: Role): Promise<OrganizationView> {
    const inserted = await manager.createQueryBuilder().insert().into(Organization)
      .values({ id: organization.id, displayName: organization.displayName }).orIgnore().execute();
    if ((inserted.raw as unknown[]).length === 0) throw new ConflictError(`Organization ${organization.id} already exists`);
    const membershipId = newId();
    await this.memberships.withManager(manager).insert(organization.id, { id: membershipId, userId, role });
    return { id: organization.id, displayName: organization.displayName, membership: { id: membershipId, role } };
  }

  /** The caller's membership in one Organization, or null when there is none (or no such Organization). */
  async membership(organizationId: string, userId: string): Promise<OrganizationView | null> {
    const row = await this.memberships.query(organizationId, 'm')
      .innerJoinAndSelect('m.organization', 'o')
      .andWhere('m.user_id = :userId', { userId })
      .getOne();
    return row ? { id: row.organizationId, displayName: row.organization!.displayName, membership: { id: row.id, role: row.role } } : null;
  }

  /**
   * Every Organization a user belongs to, oldest membership first. This is the one read that
   * spans Organizations: it is keyed by the user and returns only that user's memberships.
   */
  async organizationsOfUser(userId: string): Promise<OrganizationView[]> {
    const rows = await this.organizations.manager.getRepository(Membership).createQueryBuilder('m')
      .innerJoinAndSelect('m.organization', 'o')
      .where('m.user_id = :userId', { userId })
      .orderBy('m.created_at', 'ASC').addOrderBy('m.id', 'ASC')
      .getMany();
    return rows.map((row) => ({ id: row.organizationId, displayName: row.organization!.displayName, membership: { id: row.id, role: row.role } }));
  }
}
