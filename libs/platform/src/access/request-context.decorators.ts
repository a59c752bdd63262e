import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { AuditContext, auditContext, RequestOrigin, requestOrigin } from './audit-context';
import { Actor, AuthenticatedRequest, OrganizationContext, Principal } from './request-context';

/** A decorator read on a route whose access rule cannot provide it: a wiring bug, never the caller's fault. */
export class RequestContextMissingError extends Error {}

function httpRequest(ctx: ExecutionContext, decorator: string): AuthenticatedRequest {
  if (ctx.getType() !== 'http') throw new RequestContextMissingError(`${decorator} used outside an HTTP request`);
  return ctx.switchToHttp().getRequest<AuthenticatedRequest>();
}

/** The signed-in person. Throws on routes open to API tokens or without authentication: a wiring bug. */
export const CurrentPrincipal = createParamDecorator((_: unknown, ctx: ExecutionContext): Principal => {
  const principal = httpRequest(ctx, 'CurrentPrincipal').principal;
  if (!principal) throw new RequestContextMissingError('CurrentPrincipal used on a route without an authenticated caller');
  return principal;
});

/** The acting person or API token. Throws when the access guard did not authenticate anyone. */
export const CurrentActor = createParamDecorator((_: unknown, ctx: ExecutionContext): Actor => {
  const actor = httpRequest(ctx, 'CurrentActor').actor;
  if (!actor) throw new RequestContextMissingError('CurrentActor used on a route without an authenticated caller');
  return actor;
});

/** The resolved Organization. Throws when the route declared no permission (so none was resolved). */
export const CurrentOrganization = createParamDecorator((_: unknown, ctx: ExecutionContext): OrganizationContext => {
  const organization = httpRequest(ctx, 'CurrentOrganization').organization;
  if (!organization) throw new RequestContextMissingError('CurrentOrganization used on a route that resolves no Organization');
  return organization;
});

/**
 * The audit context of this request: the acting person or token, the source address and the
 * request id. Public routes (no one authenticated yet) get an anonymous one. Throws outside HTTP.
 */
export const CurrentAuditContext = createParamDecorator((_: unknown, ctx: ExecutionContext): AuditContext => {
  const req = httpRequest(ctx, 'CurrentAuditContext');
  return auditContext(requestOrigin(req), req.actor);
});

/** Where the request came from (user agent, address, request id): for routes that act before anyone is known, like sign-in. */
export const CurrentRequestOrigin = createParamDecorator((_: unknown, ctx: ExecutionContext): RequestOrigin =>
  requestOrigin(httpRequest(ctx, 'CurrentRequestOrigin')),
);
