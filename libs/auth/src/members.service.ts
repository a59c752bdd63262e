import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import { AuditService } from '@svc/audit';
import { OrganizationsService } from '@svc/organizations';
import { AuditContext, ConflictError, ForbiddenError, newId, NotFoundError, Page, PageRequest, Timestamp } from '@svc/platform';
import { CreateLocalUserDto, UpdateMemberDto } from './dto/member.dto';
import { LocalUserView, MemberView } from './dto/member.view';
import { normalizeEmail } from './local-auth.service';
import { Passwords } from './passwords';
import { SessionsService } from './sessions.service';
import { User } from './user.entity';

/**
 * People in an Organization: memberships (kept by the organizations module) joined with the
 * accounts this module owns. Account-wide changes (disabling, a password reset) reach every
 * Organization the person belongs to, so they need the caller to be Admin in each of them.
 */
@Injectable()
export class MembersService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly organizations: OrganizationsService,
    private readonly sessions: SessionsService,
    private readonly passwords: Passwords,
    private readonly audit: AuditService,
  ) {}

  async list(organizationId: string, page: PageRequest): Promise<Page<MemberView>> {
    const memberships = await this.organizations.listMemberships(organizationId, page);
    const users = await this.dataSource.getRepository(User).findBy({ id: In(memberships.items.map((m) => m.userId)) });
    const byId = new Map(users.map((u) => [u.id, u]));
    return {
      items: memberships.items.map((m) => memberView(m, byId.get(m.userId)!)),
      next: memberships.next,
    };
  }

  async createLocalUser(organizationId: string, input: CreateLocalUserDto, context: AuditContext): Promise<LocalUserView> {
    const passwordHash = await this.passwords.hash(input.password);
    const email = normalizeEmail(input.email);
    return this.dataSource.transaction(async (manager) => {
      const inserted = await manager
        .createQueryBuilder()
        .insert()
        .into(User)
        .values({ id: newId(), email, name: input.name, passwordHash, disabledAt: null })
        .orIgnore()
        .returning('id')
        .execute();
      const row = (inserted.raw as { id: string }[])[0];
      if (!row) throw new ConflictError('A user with this email already exists');
      const membership = await this.organizations.addMember(manager, organizationId, row.id, input.role);
      await this.audit.record(manager, organizationId, context, {
        action: 'user.create',
        targetKind: 'user',
        targetId: row.id,
        detail: { email, name: input.name, role: input.role, membershipId: membership.id },
      });
      return { id: row.id, email, name: input.name, membership: { id: membership.id, role: membership.role } };
    });
  }

  async update(organizationId: string, memberRef: string, input: UpdateMemberDto, context: AuditContext): Promise<MemberView> {
    const updated = await this.dataSource.transaction(async (manager) => {
      let membership = await this.requireMembership(manager, organizationId, memberRef);
      const before = { role: membership.role };
      if (input.role !== undefined && input.role !== membership.role) {
        membership = await this.organizations.changeRole(manager, organizationId, membership, input.role);
        await this.audit.record(manager, organizationId, context, {
          action: 'member.role_change',
          targetKind: 'membership',
          targetId: membership.id,
          detail: { userId: membership.userId, before: before.role, after: membership.role },
        });
      }
      let user = await manager.getRepository(User).findOneByOrFail({ id: membership.userId });
      if (input.disabled !== undefined && input.disabled !== Boolean(user.disabledAt)) {
        if (membership.userId === context.actorId) throw new ConflictError('You cannot disable your own account');
        await this.assertAdminEverywhere(manager, membership.userId, context);
        await manager.update(User, { id: user.id }, { disabledAt: input.disabled ? Timestamp.now() : null, updatedAt: Timestamp.now() });
        const ended = input.disabled ? await this.sessions.revokeAllOfUser(manager, user.id, 'user_disabled') : 0;
        await this.audit.record(manager, organizationId, context, {
          action: input.disabled ? 'user.disable' : 'user.enable',
          targetKind: 'user',
          targetId: user.id,
          detail: { sessionsEnded: ended },
        });
        user = await manager.getRepository(User).findOneByOrFail({ id: membership.userId });
      }
      return memberView(membership, user);
    });
    // Once committed, this process stops serving the role it remembered.
    this.organizations.forgetMembership(organizationId, updated.userId);
    return updated;
  }

  /** Removes the membership and ends every session of that person at once. */
  async remove(organizationId: string, memberRef: string, context: AuditContext): Promise<void> {
    const userId = await this.dataSource.transaction(async (manager) => {
      const membership = await this.requireMembership(manager, organizationId, memberRef);
      await this.organizations.removeMember(manager, organizationId, membership);
      const ended = await this.sessions.revokeAllOfUser(manager, membership.userId, 'member_removed');
      await this.audit.record(manager, organizationId, context, {
        action: 'member.remove',
        targetKind: 'membership',
        targetId: membership.id,
        detail: { userId: membership.userId, role: membership.role, sessionsEnded: ended },
      });
      return membership.userId;
    });
    this.organizations.forgetMembership(organizationId, userId);
  }

  /** An Admin sets a member's password: all of that person's sessions end. */
  async setPassword(organizationId: string, userId: string, password: string, context: AuditContext): Promise<void> {
    const passwordHash = await this.passwords.hash(password);
    await this.dataSource.transaction(async (manager) => {
      const membership = await this.organizations.findMembership(organizationId, userId, manager);
      if (!membership || membership.userId !== userId) throw new NotFoundError('User');
      await this.assertAdminEverywhere(manager, userId, context);
      await manager.update(User, { id: userId }, { passwordHash, updatedAt: Timestamp.now() });
      const ended = await this.sessions.revokeAllOfUser(manager, userId, 'password_changed');
      await this.audit.record(manager, organizationId, context, {
        action: 'user.password_reset',
        targetKind: 'user',
        targetId: userId,
        detail: { sessionsEnded: ended },
      });
    });
  }

  private async requireMembership(manager: EntityManager, organizationId: string, memberRef: string) {
    const membership = await this.organizations.findMembership(organizationId, memberRef, manager);
    if (!membership) throw new NotFoundError('Member');
    return membership;
  }

  /** Account-wide changes need the caller to be Admin in every Organization the account belongs to. */
  private async assertAdminEverywhere(manager: EntityManager, userId: string, context: AuditContext): Promise<void> {
    const theirs = await this.organizations.organizationsOfUser(userId);
    const mine = new Map((await this.organizations.organizationsOfUser(context.actorId ?? '')).map((o) => [o.id, o.membership.role]));
    const outside = theirs.filter((o) => mine.get(o.id) !== 'admin');
    if (outside.length > 0) {
      throw new ForbiddenError('This account also belongs to Organizations you do not administer; remove it from this Organization instead', {
        requires: 'members:write',
      });
    }
  }
}

function memberView(m: { id: string; userId: string; role: MemberView['role']; createdAt: Timestamp }, user: User): MemberView {
  return {
    id: m.id,
    userId: m.userId,
    email: user.email,
    name: user.name,
    role: m.role,
    local: user.passwordHash !== null,
    disabled: user.disabledAt !== null,
    createdAt: m.createdAt.toISOString(),
  };
}
