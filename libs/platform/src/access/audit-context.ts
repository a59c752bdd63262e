import type { Request } from 'express';

/** Who an audit record names as acting. `system` is the service itself (jobs, the worker). */
export type ActorKind = 'user' | 'api_token' | 'system' | 'anonymous';

/** Who acted and from where: taken from the request once, passed to every record of it. */
export interface AuditContext {
  actorKind: ActorKind;
  actorId: string | null;
  actorName: string | null;
  sourceAddress: string | null;
  requestId: string | null;
}

/** Where a request came from, as services need it (no Express types past the controller). */
export interface RequestOrigin {
  userAgent?: string;
  address?: string;
  requestId?: string;
}

/** `req`: Express's request, or a lean route's (which carries `ip` as Express would give it). */
export function requestOrigin(req: Pick<Request, 'headers' | 'ip' | 'id'>): RequestOrigin {
  return { userAgent: req.headers['user-agent'], address: req.ip, requestId: typeof req.id === 'string' ? req.id : undefined };
}

/** Who acted: a person (the default) or an API token. */
export interface AuditActor {
  kind?: 'user' | 'api_token';
  id: string;
  name: string;
}

/** The audit context of a request made by `actor` (anonymous when there is none, e.g. a failed sign-in). */
export function auditContext(origin: RequestOrigin, actor?: AuditActor | null): AuditContext {
  return {
    actorKind: actor ? (actor.kind ?? 'user') : 'anonymous',
    actorId: actor?.id ?? null,
    actorName: actor?.name ?? null,
    sourceAddress: origin.address ?? null,
    requestId: origin.requestId ?? null,
  };
}
