import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AuditService } from '@svc/audit';
import { OrganizationsService, PolicyService } from '@svc/organizations';
import { AppConfig, auditContext, ForbiddenError, newId, RequestOrigin, Role } from '@svc/platform';
import { IssuedSession, SessionsService } from '../sessions.service';
import { SignInLocksRepository } from '../sign-in-locks.repository';
import { User } from '../user.entity';
import { VerifiedIdentity } from './oidc-issuer';
import { OidcIdentity } from './oidc-identity.entity';

const NO_ACCOUNT = 'No account for this identity';

type Outcome = { kind: 'signed-in'; issued: IssuedSession } | { kind: 'disabled'; user: User; organizationIds: string[] };

/**
 * Turns a verified OpenID identity into a session: the user linked to (issuer, subject), else the
 * user with that verified email (and the identity is linked to them), else a new user provisioned
 * into the provisioning Organization when its Policy allows it. Everything, the audit events
 * included, happens in one transaction.
 */
@Injectable()
export class OidcSignInService {
  private readonly logger = new Logger('OidcSignIn');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    private readonly sessions: SessionsService,
    private readonly organizations: OrganizationsService,
    private readonly policies: PolicyService,
    private readonly audit: AuditService,
    private readonly locks: SignInLocksRepository,
  ) {}

  async signIn(identity: VerifiedIdentity, origin: RequestOrigin): Promise<IssuedSession> {
    const outcome = await this.dataSource.transaction((manager) => this.match(manager, identity, origin));
    if (outcome.kind === 'disabled') {
      await this.dataSource.transaction((manager) =>
        this.audit.recordInEach(manager, outcome.organizationIds, auditContext(origin), {
          action: 'session.sign_in',
          outcome: 'failed',
          targetKind: 'user',
          targetId: outcome.user.id,
          detail: { method: 'oidc', issuer: identity.issuer, reason: 'account disabled' },
        }),
      );
      throw new ForbiddenError('This account is disabled');
    }
    return outcome.issued;
  }

  private async match(manager: EntityManager, identity: VerifiedIdentity, origin: RequestOrigin): Promise<Outcome> {
    const { issuer, subject } = identity;
    await this.locks.lockIdentityDeploymentWide(`oidc-identity:${issuer}\n${subject}`, manager);
    const users = manager.getRepository(User);
    const linked = await manager.findOneBy(OidcIdentity, { issuer, subject });
    let user = linked ? await users.findOneBy({ id: linked.userId }) : null;
    let linkedNow = false;
    let provisioned: { organizationId: string; role: Role } | null = null;

    if (!user && identity.email && identity.emailVerified) {
      await this.locks.lockIdentityDeploymentWide(`user-email:${identity.email}`, manager);
      user = await users.findOneBy({ email: identity.email });
      if (user && !user.disabledAt) {
        await this.link(manager, identity, user.id);
        linkedNow = true;
      }
    }
    if (!user) {
      // Provisioning needs a verified address: an unverified one could later be "verified" into
      // someone else's account by the email match above.
      if (!identity.email || !identity.emailVerified) {
        this.logger.warn({ issuer, requestId: origin.requestId }, 'OIDC sign-in refused: unknown identity without a verified email');
        throw new ForbiddenError(NO_ACCOUNT);
      }
      const organizationId = await this.provisioningOrganization(manager);
      const role = organizationId ? (await this.policies.get(organizationId, manager)).oidcAutoProvision : null;
      if (!organizationId || !role) {
        this.logger.warn({ issuer, organizationId, requestId: origin.requestId }, 'OIDC sign-in refused: unknown identity and the Policy provisions no one');
        throw new ForbiddenError(NO_ACCOUNT);
      }
      user = manager.create(User, { id: newId(), email: identity.email, name: identity.name ?? identity.email, passwordHash: null, disabledAt: null });
      await manager.insert(User, user);
      await this.organizations.addMember(manager, organizationId, user.id, role);
      await this.link(manager, identity, user.id);
      provisioned = { organizationId, role };
    }

    const organizationIds = (await this.organizations.organizationsOfUser(user.id, manager)).map((o) => o.id);
    if (user.disabledAt) return { kind: 'disabled', user, organizationIds };

    const actor = auditContext(origin, user);
    if (provisioned) {
      await this.audit.record(manager, provisioned.organizationId, actor, {
        action: 'user.provision',
        targetKind: 'user',
        targetId: user.id,
        detail: { method: 'oidc', role: provisioned.role, issuer },
      });
    }
    if (linkedNow) {
      await this.audit.recordInEach(manager, organizationIds, actor, {
        action: 'user.identity_link',
        targetKind: 'user',
        targetId: user.id,
        detail: { method: 'oidc', issuer, subject },
      });
    }
    const issued = await this.sessions.issue(manager, user.id, organizationIds[0] ?? null, origin);
    await this.audit.recordInEach(manager, organizationIds, actor, {
      action: 'session.sign_in',
      targetKind: 'session',
      targetId: issued.session.id,
      detail: { method: 'oidc', issuer },
    });
    return { kind: 'signed-in', issued };
  }

  private async link(manager: EntityManager, identity: VerifiedIdentity, userId: string): Promise<void> {
    await manager.insert(OidcIdentity, { id: newId(), issuer: identity.issuer, subject: identity.subject, userId });
  }

  /** SVC_OIDC_ORGANIZATION when it names an existing Organization, else the oldest Organization. */
  private async provisioningOrganization(manager: EntityManager): Promise<string | null> {
    const configured = this.config.SVC_OIDC_ORGANIZATION;
    if (configured) {
      if (await this.organizations.exists(configured, manager)) return configured;
      this.logger.error({ organizationId: configured }, 'SVC_OIDC_ORGANIZATION names no existing Organization: nobody is provisioned');
      return null;
    }
    return this.organizations.oldestOrganizationId(manager);
  }
}
