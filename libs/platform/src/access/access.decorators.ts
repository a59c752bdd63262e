import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiBearerAuth, ApiCookieAuth, ApiHeader } from '@nestjs/swagger';
import { ApiErrors } from '../http/api-errors';
import { ORGANIZATION_ID_PATTERN } from '../organization-id';
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
 *
 * Each also documents the route in the OpenAPI document: its security schemes (the session cookie,
 * and Bearer API tokens where tokens are accepted), the X-Svc-Organization header, and the
 * 401/403/429 every authenticated route can answer.
 */
export type AccessRule =
  { kind: 'public' } | { kind: 'signed-in' } | { kind: 'permission'; permission: Permission; organizationHeader: 'optional' | 'required'; tokens: boolean };

export const Public = () => SetMetadata(ACCESS_METADATA, { kind: 'public' } satisfies AccessRule);

export const SignedIn = () =>
  applyDecorators(SetMetadata(ACCESS_METADATA, { kind: 'signed-in' } satisfies AccessRule), ApiCookieAuth('session'), ApiErrors(401, 403, 429));

export const RequirePermission = (permission: Permission, options: { organizationHeader?: 'optional' | 'required'; tokens?: boolean } = {}) => {
  const rule = {
    kind: 'permission',
    permission,
    organizationHeader: options.organizationHeader ?? 'optional',
    tokens: options.tokens ?? true,
  } satisfies AccessRule;
  return applyDecorators(
    SetMetadata(ACCESS_METADATA, rule),
    ApiCookieAuth('session'),
    ...(rule.tokens ? [ApiBearerAuth('bearer')] : []),
    ApiHeader({
      name: 'X-Svc-Organization',
      required: rule.organizationHeader === 'required',
      description: 'The Organization of the request (else the alias path’s, a token’s own, or the session’s active one)',
      schema: { type: 'string', pattern: ORGANIZATION_ID_PATTERN, minLength: 1, maxLength: 63 },
    }),
    ApiErrors(401, 403, 429),
  );
};
