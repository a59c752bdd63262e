import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, Repository } from 'typeorm';
import { AuditService } from '@svc/audit';
import {
  AuditContext,
  byTimeThenId,
  Clock,
  ConflictError,
  CursorCodec,
  InjectScopedRepository,
  keysetPage,
  newId,
  Page,
  PageRequest,
  RecentReads,
  Role,
  ScopedRepository,
  Timestamp,
} from '@svc/platform';
import { Membership } from './membership.entity';
import { Organization } from './organization.entity';
import { OrganizationView } from './dto/organization.view';

const OLDEST_FIRST = byTimeThenId<Membership>('m', 'created_at', (m) => m.createdAt, 'ASC');
/**
 * A membership read from the database is served from this process's memory for at most this long
 * (as sessions are): a role change or a removal takes effect in every process within this bound,
 * and at once in the process that made it.
 */
export const MEMBERSHIP_REREAD_MS = 500;

@Injectable()
export class OrganizationsService {
  constructor(
    @InjectRepository(Organization) private readonly organizations: Repository<Organization>,
    @InjectScopedRepository(Membership) private readonly memberships: ScopedRepository<Membership>,
    private readonly cursors: CursorCodec,
    private readonly audit: AuditService,
    @InjectDataSource() private readonly dataSource: DataSource,
    clock: Clock,
  ) {
    this.recent = new RecentReads<(OrganizationView & { userId: string }) | null>(clock, MEMBERSHIP_REREAD_MS);
  }

  /** Memberships found, by `<organization> <user>`, read at most MEMBERSHIP_REREAD_MS ago (a missing one is always read again). */
  private readonly recent: RecentReads<(OrganizationView & { userId: string }) | null>;

  /** A new Organization with the acting person as its first member, recorded in its audit trail. */
  create(organization: { id: string; displayName: string }, userId: string, role: Role, context: AuditContext): Promise<OrganizationView> {
    return this.dataSource.transaction(async (manager) => {
      const created = await this.createWithMember(manager, organization, userId, role);
      await this.audit.record(manager, created.id, context, {
        action: 'organization.create',
        targetKind: 'organization',
        targetId: created.id,
        detail: { displayName: created.displayName },
      });
      return created;
    });
  }

  /** Creates an Organization with its first member, inside the caller's transaction. */
  async createWithMember(manager: EntityManager, organization: { id: string; displayName: string }, userId: string, role: Role): Promise<OrganizationView> {
    const inserted = await manager
      .createQueryBuilder()
      .insert()
      .into(Organization)
      .values({ id: organization.id, displayName: organization.displayName })
      .orIgnore()
      .execute();
    if ((inserted.raw as unknown[]).length === 0) throw new ConflictError(`Organization ${organization.id} already exists`);
    const membershipId = newId();
    await this.memberships.withManager(manager).insert(organization.id, { id: membershipId, userId, role });
    return { id: organization.id, displayName: organization.displayName, membership: { id: membershipId, role } };
  }

  /** The caller's membership in one Organization, or null when there is none (or no such Organization). */
  async membership(organizationId: string, userId: string): Promise<OrganizationView | null> {
    const found = await this.recent.through(
      `${organizationId} ${userId}`,
      async () => {
        const row = await this.memberships
          .query(organizationId, 'm')
          .innerJoinAndSelect('m.organization', 'o')
          .andWhere('m.user_id = :userId', { userId })
          .getOne();
        return row ? { id: row.organizationId, displayName: row.organization!.displayName, membership: { id: row.id, role: row.role }, userId } : null;
      },
      (value) => value !== null,
    );
    return found && { id: found.id, displayName: found.displayName, membership: { ...found.membership } };
  }

  /** Forgets what this process remembers of a user's membership (after its role changed or it was removed). */
  forgetMembership(organizationId: string, userId: string): void {
    this.recent.forget((m) => m !== null && m.id === organizationId && m.userId === userId);
  }

  /**
   * Every Organization a user belongs to, oldest membership first. This is the one read that
   * spans Organizations: it is keyed by the user and returns only that user's memberships.
   * With `manager`, it reads inside the caller's transaction (and sees memberships it added).
   */
  /** One page of the Organizations of a user, oldest membership first; the cursor is bound to the user. */
  async organizationsPageOfUser(userId: string, page: PageRequest): Promise<Page<OrganizationView>> {
    const query = this.organizations.manager
      .getRepository(Membership)
      .createQueryBuilder('m')
      .innerJoinAndSelect('m.organization', 'o')
      .where('m.user_id = :userId', { userId });
    const rows = await keysetPage(query, this.cursors, { scope: `user:${userId}`, collection: 'organizations' }, OLDEST_FIRST, page);
    return { items: rows.items.map(organizationOfMembership), next: rows.next };
  }

  async organizationsOfUser(userId: string, manager?: EntityManager): Promise<OrganizationView[]> {
    const rows = await (manager ?? this.organizations.manager)
      .getRepository(Membership)
      .createQueryBuilder('m')
      .innerJoinAndSelect('m.organization', 'o')
      .where('m.user_id = :userId', { userId })
      .orderBy('m.created_at', 'ASC')
      .addOrderBy('m.id', 'ASC')
      .getMany();
    return rows.map(organizationOfMembership);
  }

  /** Whether an Organization with this id exists. */
  exists(organizationId: string, manager?: EntityManager): Promise<boolean> {
    return (manager ?? this.organizations.manager).getRepository(Organization).existsBy({ id: organizationId });
  }

  /** The id of the Organization created first (the deployment's first), or null when there is none. Spans Organizations by nature. */
  async oldestOrganizationId(manager?: EntityManager): Promise<string | null> {
    const oldest = await (manager ?? this.organizations.manager)
      .getRepository(Organization)
      .createQueryBuilder('o')
      .select('o.id', 'id')
      .orderBy('o.created_at', 'ASC')
      .addOrderBy('o.id', 'ASC')
      .limit(1)
      .getRawOne<{ id: string }>();
    return oldest?.id ?? null;
  }

  /** The Organization's memberships, oldest first. */
  listMemberships(organizationId: string, page: PageRequest): Promise<Page<Membership>> {
    return keysetPage(this.memberships.query(organizationId, 'm'), this.cursors, { scope: organizationId, collection: 'members' }, OLDEST_FIRST, page);
  }

  /** A membership named by its own id or by its user's id (both path forms of /members/{...}). */
  async findMembership(organizationId: string, membershipOrUserId: string, manager?: EntityManager): Promise<Membership | null> {
    const repository = manager ? this.memberships.withManager(manager) : this.memberships;
    return repository.findOne(organizationId, [{ id: membershipOrUserId }, { userId: membershipOrUserId }]);
  }

  async addMember(manager: EntityManager, organizationId: string, userId: string, role: Role): Promise<Membership> {
    const membership = { id: newId(), userId, role };
    await this.memberships.withManager(manager).insert(organizationId, membership);
    return (await this.memberships.withManager(manager).findById(organizationId, membership.id))!;
  }

  /** Changes a role; the last Admin cannot be demoted (409). */
  async changeRole(manager: EntityManager, organizationId: string, membership: Membership, role: Role): Promise<Membership> {
    if (membership.role === 'admin' && role !== 'admin') await this.assertAnotherAdmin(manager, organizationId, membership.id);
    await this.memberships.withManager(manager).update(organizationId, { id: membership.id }, { role, updatedAt: Timestamp.now() });
    return (await this.memberships.withManager(manager).findById(organizationId, membership.id))!;
  }

  /** Removes a membership; the last Admin cannot be removed (409). */
  async removeMember(manager: EntityManager, organizationId: string, membership: Membership): Promise<void> {
    if (membership.role === 'admin') await this.assertAnotherAdmin(manager, organizationId, membership.id);
    await this.memberships.withManager(manager).delete(organizationId, { id: membership.id });
  }

  /**
   * Locks the Organization's Admin memberships, so two concurrent demotions cannot both see
   * "another Admin remains" and leave none.
   */
  private async assertAnotherAdmin(manager: EntityManager, organizationId: string, exceptMembershipId: string): Promise<void> {
    const admins = await this.memberships.withManager(manager).query(organizationId, 'm').andWhere(`m.role = 'admin'`).setLock('pessimistic_write').getMany();
    if (!admins.some((m) => m.id !== exceptMembershipId)) {
      throw new ConflictError('The last Admin of an Organization cannot be demoted or removed');
    }
  }
}

function organizationOfMembership(row: Membership): OrganizationView {
  return { id: row.organizationId, displayName: row.organization!.displayName, membership: { id: row.id, role: row.role } };
}
