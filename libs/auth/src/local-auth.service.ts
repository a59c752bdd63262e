import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AuditService } from '@svc/audit';
import { auditContext, ConflictError, ForbiddenError, newId, Principal, RequestOrigin, Timestamp, UnauthenticatedError } from '@svc/platform';
import { OrganizationsService } from '@svc/organizations';
import { BootstrapDto } from './dto/bootstrap.dto';
import { SignedInView } from './dto/auth.view';
import { SignInDto } from './dto/sign-in.dto';
import { ChangePasswordDto } from './dto/member.dto';
import { Passwords } from './passwords';
import { IssuedSession, SessionsService } from './sessions.service';
import { SignInLocksRepository } from './sign-in-locks.repository';
import { SignInThrottle } from './sign-in-throttle';
import { User } from './user.entity';

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

@Injectable()
export class LocalAuthService implements BeforeApplicationShutdown {
  private readonly logger = new Logger('Authentication');
  /** Failed sign-in records still being written after their 401 was sent (awaited at shutdown). */
  private readonly pendingFailureRecords = new Set<Promise<void>>();

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly passwords: Passwords,
    private readonly sessions: SessionsService,
    private readonly organizations: OrganizationsService,
    private readonly audit: AuditService,
    private readonly throttle: SignInThrottle,
    private readonly locks: SignInLocksRepository,
  ) {}

  /** Creates the first Organization, its first Admin and a session. Only while no user exists. */
  async bootstrap(input: BootstrapDto, origin: RequestOrigin): Promise<{ view: SignedInView; issued: IssuedSession }> {
    const passwordHash = await this.passwords.hash(input.user.password);
    return this.dataSource.transaction(async (manager) => {
      // Serializes concurrent bootstraps; the loser sees the winner's user and gets 409.
      await this.locks.lockBootstrapDeploymentWide(manager);
      const anyUser = await manager.getRepository(User).createQueryBuilder('u').select('1').limit(1).getRawOne();
      if (anyUser) throw new ConflictError('This deployment is already bootstrapped');
      const user = manager.create(User, { id: newId(), email: normalizeEmail(input.user.email), name: input.user.name, passwordHash, disabledAt: null });
      await manager.insert(User, user);
      const organization = await this.organizations.createWithMember(manager, input.organization, user.id, 'admin');
      const issued = await this.sessions.issue(manager, user.id, organization.id, origin);
      await this.audit.record(manager, organization.id, auditContext(origin, user), {
        action: 'deployment.bootstrap',
        targetKind: 'organization',
        targetId: organization.id,
        detail: { userId: user.id, email: user.email, sessionId: issued.session.id },
      });
      return { view: { user: { id: user.id, email: user.email, name: user.name }, organizations: [organization] }, issued };
    });
  }

  /**
   * Email and password sign-in. Unknown account, wrong password and disabled account are one
   * answer, and each costs one argon2 verification, so neither body nor timing tells them apart:
   * on every failure the response path does the same steps (throttle check, user lookup,
   * verification, throttle count), and the failure is recorded after the answer for known and
   * unknown accounts alike (an audit write for a known one, a log line for an unknown one), so
   * the audit write no longer makes known accounts a few milliseconds slower.
   */
  async signIn(input: SignInDto, origin: RequestOrigin): Promise<{ view: SignedInView; issued: IssuedSession }> {
    // Before any hashing: a flood of guesses costs a Redis round trip, not an argon2 verification.
    await this.throttle.assertAllowed(input.email, origin.address);
    const user = await this.dataSource.getRepository(User).findOneBy({ email: normalizeEmail(input.email) });
    const valid = await this.passwords.verify(user?.passwordHash, input.password);
    if (!user || !valid || user.disabledAt) {
      await this.throttle.recordFailure(input.email, origin.address);
      this.recordFailedSignInAfterAnswer(user, input.email, origin, user?.disabledAt ? 'account disabled' : 'wrong password');
      throw new UnauthenticatedError('credential_rejected', 'Email or password is incorrect');
    }
    await this.throttle.recordSuccess(input.email);
    const organizations = await this.organizations.organizationsOfUser(user.id);
    const issued = await this.dataSource.transaction(async (manager) => {
      const issued = await this.sessions.issue(manager, user.id, organizations[0]?.id ?? null, origin);
      await this.audit.recordInEach(
        manager,
        organizations.map((o) => o.id),
        auditContext(origin, user),
        {
          action: 'session.sign_in',
          targetKind: 'session',
          targetId: issued.session.id,
          detail: { method: 'local' },
        },
      );
      return issued;
    });
    return { view: { user: { id: user.id, email: user.email, name: user.name }, organizations }, issued };
  }

  /** Starts recording a failed sign-in without holding up its answer; a failed write is logged. */
  private recordFailedSignInAfterAnswer(user: User | null, email: string, origin: RequestOrigin, why: string): void {
    const pending: Promise<void> = this.recordFailedSignIn(user, email, origin, why)
      .catch((error: unknown) => this.logger.error({ requestId: origin.requestId, err: error }, 'A failed sign-in could not be recorded'))
      .finally(() => this.pendingFailureRecords.delete(pending));
    this.pendingFailureRecords.add(pending);
  }

  /** A stopping process finishes the failure records it started, before its connections close. */
  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all([...this.pendingFailureRecords]);
  }

  /** Records a failed sign-in in the account's Organizations; an unknown account has none, so it is logged only. */
  private async recordFailedSignIn(user: User | null, email: string, origin: RequestOrigin, why: string): Promise<void> {
    if (!user) {
      this.logger.warn({ requestId: origin.requestId, sourceAddress: origin.address }, 'Sign-in failed for an unknown account');
      return;
    }
    const organizations = await this.organizations.organizationsOfUser(user.id);
    await this.dataSource.transaction((manager) =>
      this.audit.recordInEach(
        manager,
        organizations.map((o) => o.id),
        auditContext(origin),
        {
          action: 'session.sign_in',
          outcome: 'failed',
          targetKind: 'user',
          targetId: user.id,
          detail: { method: 'local', email: normalizeEmail(email), reason: why },
        },
      ),
    );
  }

  /** The caller changes their own password: every other session of theirs ends. */
  async changePassword(principal: Principal, input: ChangePasswordDto, origin: RequestOrigin): Promise<void> {
    const user = await this.dataSource.getRepository(User).findOneByOrFail({ id: principal.user.id });
    await this.throttle.assertAllowed(user.email, origin.address);
    if (!(await this.passwords.verify(user.passwordHash, input.currentPassword))) {
      await this.throttle.recordFailure(user.email, origin.address);
      throw new ForbiddenError('The current password is incorrect');
    }
    const passwordHash = await this.passwords.hash(input.newPassword);
    const organizations = await this.organizations.organizationsOfUser(user.id);
    await this.dataSource.transaction(async (manager) => {
      await manager.update(User, { id: user.id }, { passwordHash, updatedAt: Timestamp.now() });
      const ended = await this.sessions.revokeAllOfUser(manager, user.id, 'password_changed', principal.session.id);
      await this.audit.recordInEach(
        manager,
        organizations.map((o) => o.id),
        auditContext(origin, user),
        {
          action: 'user.password_change',
          targetKind: 'user',
          targetId: user.id,
          detail: { otherSessionsEnded: ended },
        },
      );
    });
  }
}
