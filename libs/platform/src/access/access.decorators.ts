import { SetMetadata } from '@nestjs/common';
import { Permission } from './permissions';

export const ACCESS_METADATA = 'svc:access';

/**
 * Who may call a route, declared on the handler (or its controller). One global guard reads it;
 * a route that declares nothing is refused, and a test fails on it.
 *  - public: anyone (the route authenticates by other means, if at all).
 *  - signed-in: any authenticated caller, with no Organization needed.
 *  - permission: an authenticated member of the resolved Organization whose role holds it, or an
 *    API token of that Organization whose role holds it, unless the route says `tokens: false`
 *    (operations that only make sense for a person: creating Organizations, sessions, tokens).
 * Signed-in routes are for people only.
 */
export type AccessRule =
  { kind: 'public' } | { kind: 'signed-in' } | { kind: 'permission'; permission: Permission; organizationHeader: 'optional' | 'required'; tokens: boolean };

export const Public = () => SetMetadata(ACCESS_METADATA, { kind: 'public' } satisfies AccessRule);

export const SignedIn = () => SetMetadata(ACCESS_METADATA, { kind: 'signed-in' } satisfies AccessRule);

export const RequirePermission = (permission: Permission, options: { organizationHeader?: 'optional' | 'required'; tokens?: boolean } = {}) =>
  SetMetadata(ACCESS_METADATA, {
    kind: 'permission',
    permission,
    organizationHeader: options.organizationHeader ?? 'optional',
    tokens: options.tokens ?? true,
  } satisfies AccessRule);
