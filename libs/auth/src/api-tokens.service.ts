import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { createHash, randomBytes } from 'node:crypto';
import { DataSource, IsNull, Repository } from 'typeorm';
import { AuditService } from '@svc/audit';
import { PolicyService } from '@svc/organizations';
import {
  AuditContext,
  byTimeThenId,
  Clock,
  ConflictError,
  CursorCodec,
  ForbiddenError,
  InjectScopedRepository,
  InvalidInputError,
  keysetPage,
  newId,
  NotFoundError,
  Page,
  PageRequest,
  Role,
  RecentReads,
  roleAtLeast,
  ScopedRepository,
  Timestamp,
  TokenCaller,
  UnauthenticatedError,
} from '@svc/platform';
import { ApiToken } from './api-token.entity';
import { CreateApiTokenDto } from './dto/api-token.dto';
import { ApiTokenView, CreatedApiTokenView } from './dto/api-token.view';

const PREFIX = 'svc_pat_';
const FORMAT = /^svc_pat_[A-Za-z0-9_-]{43}$/;
const MAX_LIFETIME_DAYS = 366;
const TOUCH_EVERY_SECONDS = 60;
/**
 * A live token read from the database is served from this process's memory for at most this long,
 * so a revocation made in another process is honoured here within it (as for sessions), and at
 * once in the process that revoked it. The Policy check is not cached.
 */
const TOKEN_REREAD_MS = 500;

const NEWEST_FIRST = byTimeThenId<ApiToken>('t', 'created_at', (t) => t.createdAt, 'DESC');

function hash(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

function view(t: ApiToken): ApiTokenView {
  return {
    id: t.id,
    name: t.name,
    role: t.role,
    createdBy: t.createdBy,
    createdAt: t.createdAt.toISOString(),
    expiresAt: t.expiresAt.toISOString(),
    lastUsedAt: t.lastUsedAt?.toISOString() ?? null,
    revokedAt: t.revokedAt?.toISOString() ?? null,
  };
}

/**
 * Organization API tokens for REST clients and audit exporters (decisions §2): minted by an Admin,
 * bound to one Organization and a role no higher than the minter's, shown once, stored hashed.
 * Policy `apiTokensAllowed` switches minting and use off.
 */
@Injectable()
export class ApiTokensService {
  constructor(
    @InjectScopedRepository(ApiToken) private readonly tokens: ScopedRepository<ApiToken>,
    @InjectRepository(ApiToken) private readonly repository: Repository<ApiToken>,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly policies: PolicyService,
    private readonly audit: AuditService,
    private readonly cursors: CursorCodec,
    clock: Clock,
  ) {
    this.recent = new RecentReads<ApiToken | null>(clock, TOKEN_REREAD_MS);
  }

  /** Live tokens by hash (base64), read at most TOKEN_REREAD_MS ago. */
  private readonly recent: RecentReads<ApiToken | null>;

  async mint(organizationId: string, minterRole: Role, input: CreateApiTokenDto, context: AuditContext): Promise<CreatedApiTokenView> {
    if (!(await this.policies.get(organizationId)).apiTokensAllowed) throw new ConflictError("API tokens are switched off by this Organization's Policy");
    if (!roleAtLeast(minterRole, input.role)) throw new ForbiddenError('A token cannot have a higher role than its minter');
    const expiresAt = Timestamp.parse(input.expiresAt)!;
    const now = Timestamp.now();
    if (!expiresAt.isAfter(now) || now.secondsUntil(expiresAt) > MAX_LIFETIME_DAYS * 86400) {
      throw new InvalidInputError(`Invalid input: expiresAt must be in the future and at most ${MAX_LIFETIME_DAYS} days ahead`);
    }
    const token = `${PREFIX}${randomBytes(32).toString('base64url')}`;
    const id = newId();
    return this.dataSource.transaction(async (manager) => {
      const tokens = this.tokens.withManager(manager);
      await tokens.insert(organizationId, {
        id,
        name: input.name,
        role: input.role,
        tokenHash: hash(token),
        createdBy: context.actorId!,
        expiresAt,
        lastUsedAt: null,
        revokedAt: null,
      });
      await this.audit.record(manager, organizationId, context, {
        action: 'api_token.create',
        targetKind: 'api_token',
        targetId: id,
        detail: { name: input.name, role: input.role, expiresAt: expiresAt.toISOString() },
      });
      return { ...view((await tokens.findById(organizationId, id))!), token };
    });
  }

  async list(organizationId: string, page: PageRequest): Promise<Page<ApiTokenView>> {
    const result = await keysetPage(
      this.tokens.query(organizationId, 't'),
      this.cursors,
      { scope: organizationId, collection: 'api-tokens' },
      NEWEST_FIRST,
      page,
    );
    return { items: result.items.map(view), next: result.next };
  }

  /** Revokes a token; revoking a revoked one changes nothing. */
  async revoke(organizationId: string, id: string, context: AuditContext): Promise<void> {
    this.recent.forget((t) => t?.id === id);
    await this.dataSource.transaction(async (manager) => {
      const tokens = this.tokens.withManager(manager);
      const token = await tokens.findById(organizationId, id);
      if (!token) throw new NotFoundError('API token');
      if (token.revokedAt) return;
      await tokens.update(organizationId, { id }, { revokedAt: Timestamp.now() });
      await this.audit.record(manager, organizationId, context, {
        action: 'api_token.revoke',
        targetKind: 'api_token',
        targetId: id,
        detail: { name: token.name },
      });
    });
  }

  /**
   * The live token behind a bearer value. Unknown, malformed, revoked, expired, or switched off
   * by Policy: 401 `credential_rejected`, alike.
   */
  async authenticate(value: string): Promise<TokenCaller> {
    const rejected = () => new UnauthenticatedError('credential_rejected', 'API token is unknown, expired, revoked or not allowed');
    if (!FORMAT.test(value)) throw rejected();
    const tokenHash = hash(value);
    const key = tokenHash.toString('base64');
    const now = Timestamp.now();
    const remembered = this.recent.get(key);
    if (remembered && !now.isBefore(remembered.expiresAt)) this.recent.forget((t) => t === remembered);
    // The token's hash is globally unique; this lookup is the one read that precedes knowing the
    // Organization. Requests arriving while it is read share the read.
    const token =
      remembered && now.isBefore(remembered.expiresAt)
        ? remembered
        : await this.recent.through(
            key,
            () => this.repository.findOneBy({ tokenHash }),
            (read) => read !== null && !read.revokedAt && now.isBefore(read.expiresAt),
          );
    if (!token || token.revokedAt || !now.isBefore(token.expiresAt)) throw rejected();
    if (!(await this.policies.get(token.organizationId)).apiTokensAllowed) throw rejected();
    if (!token.lastUsedAt || token.lastUsedAt.secondsUntil(now) >= TOUCH_EVERY_SECONDS) {
      // Set before the write, so concurrent requests on the remembered token do not all write it.
      token.lastUsedAt = now;
      await this.repository.update({ organizationId: token.organizationId, id: token.id, revokedAt: IsNull() }, { lastUsedAt: now });
    }
    return { id: token.id, name: token.name, organizationId: token.organizationId, role: token.role };
  }
}
