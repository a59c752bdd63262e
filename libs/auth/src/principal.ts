import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import type { Role, Timestamp } from '@svc/platform';

export interface PrincipalUser {
  id: string;
  email: string;
  name: string;
}

export interface PrincipalSession {
  id: string;
  issuedAt: Timestamp;
  expiresAt: Timestamp;
  lastSeenAt: Timestamp;
  idleExpiresAt: Timestamp;
  activeOrganizationId: string | null;
}

/** Who is calling, as established by the access guard. */
export interface Principal {
  kind: 'session';
  user: PrincipalUser;
  session: PrincipalSession;
}

/** An API token acting in its one Organization. */
export interface TokenCaller {
  id: string;
  name: string;
  organizationId: string;
  role: Role;
}

/** Whoever is acting, person or token: what audit records and what token-capable routes use. */
export interface Actor {
  kind: 'user' | 'api_token';
  id: string;
  name: string;
}

/**
 * The Organization a request works in and the caller's role there (for a token: the token's id
 * and role).
 */
export interface OrganizationContext {
  id: string;
  membership: { id: string; role: Role };
}

export interface AuthenticatedRequest extends Request {
  /** Set for people (session cookie); never for API tokens. */
  principal?: Principal;
  token?: TokenCaller;
  actor?: Actor;
  organization?: OrganizationContext;
}

class ContextMissingError extends Error {}

/** The signed-in person. Throws on routes open to API tokens or without authentication: a wiring bug. */
export const CurrentPrincipal = createParamDecorator((_: unknown, ctx: ExecutionContext): Principal => {
  const principal = ctx.switchToHttp().getRequest<AuthenticatedRequest>().principal;
  if (!principal) throw new ContextMissingError('CurrentPrincipal used on a route without an authenticated caller');
  return principal;
});

/** The acting person or API token. Throws when the access guard did not authenticate anyone. */
export const CurrentActor = createParamDecorator((_: unknown, ctx: ExecutionContext): Actor => {
  const actor = ctx.switchToHttp().getRequest<AuthenticatedRequest>().actor;
  if (!actor) throw new ContextMissingError('CurrentActor used on a route without an authenticated caller');
  return actor;
});

/** The resolved Organization. Throws when the route declared no permission (so none was resolved). */
export const CurrentOrganization = createParamDecorator((_: unknown, ctx: ExecutionContext): OrganizationContext => {
  const organization = ctx.switchToHttp().getRequest<AuthenticatedRequest>().organization;
  if (!organization) throw new ContextMissingError('CurrentOrganization used on a route that resolves no Organization');
  return organization;
});
