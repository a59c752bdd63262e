import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { createHash, randomBytes } from 'node:crypto';
import { DataSource, EntityManager, IsNull, Repository } from 'typeorm';
import { AuditService } from '@svc/audit';
import { OrganizationsService, PolicyService } from '@svc/organizations';
import {
  AuditContext,
  byTimeThenId,
  Clock,
  CursorCodec,
  ForbiddenError,
  keysetPage,
  newId,
  NotFoundError,
  Page,
  PageRequest,
  Principal,
  RecentReads,
  RequestOrigin,
  Timestamp,
  UnauthenticatedError,
} from '@svc/platform';
import { RevocationReason, Session } from './session.entity';
import { User } from './user.entity';

const TOKEN = /^[A-Za-z0-9_-]{43}$/;
/** last_seen_at is written at most this often per session, not on every request. */
const TOUCH_EVERY_SECONDS = 60;
/**
 * A live session read from the database is served from this process's memory for at most this
 * long. Ending a session (sign-out, revoke, member removal or disable, password change) therefore
 * takes effect in every process within this bound (the contract allows one second), and at once
 * in the process that ended it.
 */
export const SESSION_REREAD_MS = 500;

export interface IssuedSession {
  session: Session;
  /** The cookie value: shown to the browser once, never stored. */
  token: string;
}

type SessionWithUser = Session & { user: User };

const NEWEST_FIRST = byTimeThenId<Session>('s', 'issued_at', (s) => s.issuedAt, 'DESC');

function hashToken(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

@Injectable()
export class SessionsService {
  constructor(
    @InjectRepository(Session) private readonly sessions: Repository<Session>,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly organizations: OrganizationsService,
    private readonly policies: PolicyService,
    private readonly audit: AuditService,
    private readonly cursors: CursorCodec,
    clock: Clock,
  ) {
    this.recent = new RecentReads<SessionWithUser>(clock, SESSION_REREAD_MS);
  }

  /** Live sessions with their users, by token hash (base64), read at most SESSION_REREAD_MS ago. */
  private readonly recent: RecentReads<SessionWithUser>;

  /**
   * A new session with a fresh random value (every sign-in rotates it). Its lifetimes are the
   * active Organization's Policy at the time of issue.
   */
  async issue(manager: EntityManager, userId: string, activeOrganizationId: string | null, origin: RequestOrigin): Promise<IssuedSession> {
    const token = randomBytes(32).toString('base64url');
    const { sessions: lifetimes } = activeOrganizationId ? await this.policies.get(activeOrganizationId, manager) : this.policies.defaults();
    const now = Timestamp.now();
    const session = manager.create(Session, {
      id: newId(),
      tokenHash: hashToken(token),
      userId,
      activeOrganizationId,
      issuedAt: now,
      lastSeenAt: now,
      expiresAt: now.plusSeconds(lifetimes.absoluteSeconds),
      idleTimeoutSeconds: lifetimes.idleSeconds,
      revokedAt: null,
      revokedReason: null,
      userAgent: origin.userAgent?.slice(0, 512) ?? null,
      address: origin.address ?? null,
    });
    await manager.insert(Session, session);
    return { session, token };
  }

  /**
   * The live session behind a cookie value, with its user. Unknown or malformed values are
   * `credential_rejected`, revoked ones `session_revoked`, expired ones `session_expired`.
   */
  async authenticate(token: string | undefined): Promise<{ session: Session; user: User }> {
    if (!token || !TOKEN.test(token)) throw new UnauthenticatedError('credential_rejected', 'Sign in first');
    const hash = hashToken(token);
    const key = hash.toString('base64');
    const now = Timestamp.now();
    // Only a live session is remembered, and it is re-read before it is refused: a refusal always
    // comes from the database, never from memory. Requests arriving while it is read share the read.
    const remembered = this.recent.get(key);
    if (remembered && !this.liveAt(remembered, now)) this.recent.forget((s) => s === remembered);
    const session =
      remembered && this.liveAt(remembered, now)
        ? remembered
        : await this.recent.through(
            key,
            () => this.read(hash),
            (read) => this.liveAt(read, now),
          );
    if (session.revokedAt) throw new UnauthenticatedError('session_revoked', 'This session was ended; sign in again');
    if (session.user.disabledAt) throw new UnauthenticatedError('session_revoked', 'This account is disabled');
    if (!this.liveAt(session, now)) throw new UnauthenticatedError('session_expired', 'This session has expired; sign in again');
    if (session.lastSeenAt.secondsUntil(now) >= TOUCH_EVERY_SECONDS) {
      // Set before the write, so concurrent requests on the remembered session do not all write it.
      session.lastSeenAt = now;
      await this.sessions.update({ id: session.id, revokedAt: IsNull() }, { lastSeenAt: now });
    }
    return { session, user: session.user };
  }

  /** The session behind a token hash, with its user; credential_rejected when there is none. */
  private async read(hash: Buffer): Promise<SessionWithUser> {
    // token_hash is unique: a plain join, no LIMIT (findOne's LIMIT with a relation costs TypeORM a second query).
    const session = await this.sessions.createQueryBuilder('s').innerJoinAndSelect('s.user', 'u').where('s.token_hash = :hash', { hash }).getOne();
    if (!session || !session.user) throw new UnauthenticatedError('credential_rejected', 'Sign in first');
    return session as SessionWithUser;
  }

  /** Not ended, its user not disabled, and neither lifetime over at `now`. */
  private liveAt(session: SessionWithUser, now: Timestamp): boolean {
    return !session.revokedAt && !session.user.disabledAt && now.isBefore(session.expiresAt) && now.isBefore(this.idleExpiry(session));
  }

  idleExpiry(session: Session): Timestamp {
    return session.lastSeenAt.plusSeconds(session.idleTimeoutSeconds);
  }

  /** Ends one session; ending an already ended one changes nothing. Returns whether it ended it. */
  async revoke(manager: EntityManager, sessionId: string, reason: RevocationReason): Promise<boolean> {
    this.recent.forget((s) => s.id === sessionId);
    const result = await manager.update(Session, { id: sessionId, revokedAt: IsNull() }, { revokedAt: Timestamp.now(), revokedReason: reason });
    return (result.affected ?? 0) > 0;
  }

  /** Ends every live session of a user (optionally but one); returns how many ended. */
  async revokeAllOfUser(manager: EntityManager, userId: string, reason: RevocationReason, exceptSessionId?: string): Promise<number> {
    this.recent.forget((s) => s.userId === userId && s.id !== exceptSessionId);
    const query = manager
      .createQueryBuilder()
      .update(Session)
      .set({ revokedAt: Timestamp.now(), revokedReason: reason })
      .where('user_id = :userId AND revoked_at IS NULL', { userId });
    if (exceptSessionId) query.andWhere('id <> :exceptSessionId', { exceptSessionId });
    return (await query.execute()).affected ?? 0;
  }

  /** Sign-out: the caller's own session ends, recorded in each of their Organizations. */
  async signOut(principal: Principal, context: AuditContext): Promise<void> {
    const organizations = await this.organizations.organizationsOfUser(principal.user.id);
    await this.dataSource.transaction(async (manager) => {
      if (!(await this.revoke(manager, principal.session.id, 'signed_out'))) return;
      await this.audit.recordInEach(
        manager,
        organizations.map((o) => o.id),
        context,
        {
          action: 'session.sign_out',
          targetKind: 'session',
          targetId: principal.session.id,
        },
      );
    });
  }

  /** A user's live sessions (not ended, not expired), newest first. */
  listLive(userId: string, page: PageRequest): Promise<Page<Session>> {
    const query = this.sessions
      .createQueryBuilder('s')
      .where('s.user_id = :userId', { userId })
      .andWhere('s.revoked_at IS NULL AND s.expires_at > now()')
      .andWhere(`s.last_seen_at + s.idle_timeout_seconds * interval '1 second' > now()`);
    return keysetPage(query, this.cursors, { scope: `user:${userId}`, collection: 'sessions' }, NEWEST_FIRST, page);
  }

  /**
   * Ends a session named by id. One's own session always; another person's only as an Admin of
   * the Organization named by the header, and only if that person is a member there (else 404,
   * as for an unknown session).
   */
  async revokeById(sessionId: string, principal: Principal, organization: { id: string; role: string }, context: AuditContext): Promise<void> {
    const session = await this.sessions.findOneBy({ id: sessionId });
    if (!session) throw new NotFoundError('Session');
    if (session.userId !== principal.user.id) {
      if (!(await this.organizations.membership(organization.id, session.userId))) throw new NotFoundError('Session');
      if (organization.role !== 'admin') throw new ForbiddenError("Only an Admin may end another member's session", { requires: 'sessions:revoke-others' });
    }
    await this.dataSource.transaction(async (manager) => {
      if (!(await this.revoke(manager, session.id, 'revoked'))) return;
      await this.audit.record(manager, organization.id, context, {
        action: 'session.revoke',
        targetKind: 'session',
        targetId: session.id,
        detail: { userId: session.userId },
      });
    });
  }
}
