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

/** The Organization a request works in, and the caller's membership there. */
export interface OrganizationContext {
  id: string;
  displayName: string;
  membership: { id: string; role: Role };
}

export interface AuthenticatedRequest extends Request {
  principal?: Principal;
  organization?: OrganizationContext;
}

class ContextMissingError extends Error {}

/** The authenticated caller. Throws when the access guard did not run: a wiring bug, never a 401. */
export const CurrentPrincipal = createParamDecorator((_: unknown, ctx: ExecutionContext): Principal => {
  const principal = ctx.switchToHttp().getRequest<AuthenticatedRequest>().principal;
  if (!principal) throw new ContextMissingError('CurrentPrincipal used on a route without an authenticated caller');
  return principal;
});

/** The resolved Organization. Throws when the route declared no permission (so none was resolved). */
export const CurrentOrganization = createParamDecorator((_: unknown, ctx: ExecutionContext): OrganizationContext => {
  const organization = ctx.switchToHttp().getRequest<AuthenticatedRequest>().organization;
  if (!organization) throw new ContextMissingError('CurrentOrganization used on a route that resolves no Organization');
  return organization;
});
