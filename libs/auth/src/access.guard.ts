import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request as ExpressRequest } from 'express';
import type { IncomingMessage, ServerResponse } from 'node:http';
import passport from 'passport';
import {
  ACCESS_METADATA,
  AccessRule,
  AliasedRequest,
  AppConfig,
  auditContext,
  AuthenticatedRequest,
  DomainError,
  ForbiddenError,
  InvalidInputError,
  isOrganizationId,
  LeanRoutes,
  minimumRole,
  OrganizationContext,
  Principal,
  requestOrigin,
  roleAtLeast,
  sendJson,
  UnauthenticatedError,
  unavailableDependency,
} from '@svc/platform';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AuditService } from '@svc/audit';
import { OrganizationsService } from '@svc/organizations';
import { ApiTokensService } from './api-tokens.service';
import { RequestRateLimit } from './request-rate-limit';
import { SESSION_STRATEGY } from './session.strategy';

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
export const ORGANIZATION_HEADER = 'x-svc-organization';

/**
 * What the checks read of a request: Node's request with the client's address and path, as both
 * Express's request and a lean route's (LeanRequest) carry them, and what the checks set on it.
 */
type Request = IncomingMessage &
  Pick<ExpressRequest, 'ip' | 'path'> &
  Partial<Pick<ExpressRequest, 'baseUrl' | 'route' | 'user'>> &
  Omit<AuthenticatedRequest & AliasedRequest, keyof ExpressRequest>;

/**
 * The session strategy, run by one Passport middleware made once (not a middleware, an options
 * object and a guard's promise made anew each request, as `AuthGuard` from @nestjs/passport does):
 * the strategy's own errors pass through unchanged, and a database that cannot be reached too
 * (503 through the exception filter, not a 401 that would sign the caller out).
 */
class SessionAuthentication {
  private readonly middleware = passport.authenticate(SESSION_STRATEGY, { session: false, authInfo: false, failWithError: true }) as (
    req: Request,
    res: ServerResponse,
    next: (error?: unknown) => void,
  ) => void;

  principal(req: Request, res: ServerResponse): Promise<Principal> {
    return new Promise((resolve, reject) =>
      this.middleware(req, res, (error?: unknown) => {
        if (error !== undefined && error !== null)
          reject(error instanceof DomainError || unavailableDependency(error) ? error : new UnauthenticatedError('credential_rejected'));
        else if (!req.user) reject(new UnauthenticatedError('credential_rejected'));
        else resolve(req.user as Principal);
      }),
    );
  }
}

/**
 * The one global guard. Deny by default: a route must declare its access rule. For everything
 * but public routes it authenticates the caller (session cookie, or an API token as Bearer),
 * enforces the Origin rule for cookie-authenticated unsafe requests, resolves the Organization
 * (alias path, then header, then the session's active one; a token's own), checks membership
 * (403 `credential_rejected` when there is none) and the role.
 */
@Injectable()
export class AccessGuard implements CanActivate {
  private readonly sessionAuthentication = new SessionAuthentication();

  constructor(
    private readonly reflector: Reflector,
    private readonly config: AppConfig,
    private readonly organizations: OrganizationsService,
    private readonly audit: AuditService,
    private readonly tokens: ApiTokensService,
    private readonly rateLimit: RequestRateLimit,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return false;
    const rule = this.reflector.getAllAndOverride<AccessRule | undefined>(ACCESS_METADATA, [context.getHandler(), context.getClass()]);
    if (!rule) throw new ForbiddenError('This route declares no access rule');
    const http = context.switchToHttp();
    return this.admit(http.getRequest<Request>(), http.getResponse<ServerResponse>(), rule);
  }

  /**
   * Answers `GET <path>` (no query, no body) as a lean route, ahead of Nest (see LeanRoutes): the
   * access rule `handler` declares, applied by these same checks, then `answer`'s value as JSON.
   * Without `leanRoutes` (a process with no HTTP server) nothing is registered.
   */
  registerLeanRead(
    leanRoutes: LeanRoutes | undefined,
    path: string,
    handler: Function,
    answer: (req: Pick<AuthenticatedRequest, 'principal' | 'organization'>) => unknown,
  ): void {
    if (!leanRoutes) return;
    // The rule the handler's decorator declares, as Nest's route applies it.
    const rule = this.reflector.get<AccessRule | undefined>(ACCESS_METADATA, handler);
    if (!rule) throw new Error(`${handler.name} declares no access rule`);
    leanRoutes.register({
      method: 'GET',
      pattern: new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`),
      template: path,
      bodiless: true,
      handle: async (lean, res) => {
        const req: Request = lean;
        await this.admit(req, res, rule);
        sendJson(res, 200, await answer(req));
      },
    });
  }

  private async admit(req: Request, res: ServerResponse, rule: AccessRule): Promise<boolean> {
    if (rule.kind === 'public') {
      // Login CSRF: a browser posting from another site names that site; refuse it.
      if (UNSAFE.has(req.method ?? '') && req.path.startsWith('/api/') && req.headers.origin !== undefined && !this.originMatches(req)) {
        throw new ForbiddenError('Origin does not match this service');
      }
      return true;
    }

    const bearer = /^bearer\s+(.+)$/i.exec(req.headers.authorization ?? '');
    if (bearer) return this.admitToken(req, rule, bearer[1].trim());

    const principal = await this.sessionAuthentication.principal(req, res);
    req.principal = principal;
    req.actor = { kind: 'user', id: principal.user.id, name: principal.user.name };
    await this.rateLimit.consume(`session:${principal.session.id}`);

    if (UNSAFE.has(req.method ?? '') && !this.originMatches(req)) {
      throw new ForbiddenError('Missing or mismatched Origin header on a cookie-authenticated request');
    }
    if (rule.kind === 'signed-in') return true;

    const organizationId = this.organizationOf(req, rule.organizationHeader === 'required') ?? principal.session.activeOrganizationId;
    if (!organizationId) throw new ForbiddenError('No Organization selected: name one with X-Svc-Organization', { reason: 'credential_rejected' });
    const organization = await this.organizations.membership(organizationId, principal.user.id);
    if (!organization) throw new ForbiddenError('Organization not available', { reason: 'credential_rejected' });
    await this.authorize(req, rule, { id: organization.id, membership: organization.membership });
    return true;
  }

  /** API tokens: no Origin needed; bound to their Organization; people-only routes refuse them. */
  private async admitToken(req: Request, rule: Exclude<AccessRule, { kind: 'public' }>, value: string): Promise<boolean> {
    const token = await this.tokens.authenticate(value);
    req.token = token;
    req.actor = { kind: 'api_token', id: token.id, name: token.name };
    await this.rateLimit.consume(`token:${token.id}`);
    if (rule.kind === 'signed-in' || !rule.tokens) throw new ForbiddenError('This operation needs a signed-in person, not an API token');
    const named = this.organizationOf(req, rule.organizationHeader === 'required');
    if (named !== undefined && named !== token.organizationId) throw new ForbiddenError('Organization not available', { reason: 'credential_rejected' });
    await this.authorize(req, rule, { id: token.organizationId, membership: { id: token.id, role: token.role } });
    return true;
  }

  /** The role check, with the denial recorded in the Organization's audit trail. */
  private async authorize(req: Request, rule: Extract<AccessRule, { kind: 'permission' }>, organization: OrganizationContext): Promise<void> {
    if (!roleAtLeast(organization.membership.role, minimumRole(rule.permission))) {
      await this.audit.record(this.dataSource.manager, organization.id, auditContext(requestOrigin(req), req.actor), {
        action: 'access.denied',
        outcome: 'denied',
        targetKind: 'permission',
        targetId: rule.permission,
        detail: {
          method: req.method,
          route: `${req.baseUrl ?? ''}${(req.route as { path?: string } | undefined)?.path ?? req.path}`,
          role: organization.membership.role,
        },
      });
      throw new ForbiddenError(`Your role does not allow this: requires ${rule.permission}`, { requires: rule.permission });
    }
    req.organization = organization;
  }

  private originMatches(req: Request): boolean {
    return req.headers.origin === this.config.publicOrigin;
  }

  /** The Organization named by the alias path or the header, validated; undefined when neither names one. */
  private organizationOf(req: Request, headerRequired: boolean): string | undefined {
    const raw = req.headers[ORGANIZATION_HEADER];
    const header = Array.isArray(raw) ? raw[0] : raw;
    const alias = req.aliasOrganization;
    if (header !== undefined && !isOrganizationId(header)) throw new InvalidInputError('X-Svc-Organization is not a valid Organization identifier');
    if (alias !== undefined && !isOrganizationId(alias)) throw new InvalidInputError('The path names an invalid Organization identifier');
    if (header !== undefined && alias !== undefined && header !== alias)
      throw new InvalidInputError('X-Svc-Organization names a different Organization than the path');
    if (headerRequired && header === undefined) throw new InvalidInputError('This operation requires the X-Svc-Organization header');
    return alias ?? header;
  }
}
