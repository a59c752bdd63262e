import type { Request } from 'express';
import type { Timestamp } from '../time/timestamp';
import type { Role } from './roles';

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

/**
 * A request as the access guard leaves it. The guard (in the auth library) fills these fields;
 * every other library reads them through the decorators in this folder, so none depends on auth.
 */
export interface AuthenticatedRequest extends Request {
  /** Set for people (session cookie); never for API tokens. */
  principal?: Principal;
  token?: TokenCaller;
  actor?: Actor;
  organization?: OrganizationContext;
}
