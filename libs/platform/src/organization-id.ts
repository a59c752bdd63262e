/**
 * An Organization id (decisions §1): 1-63 lower-case letters, digits and inner hyphens, a DNS
 * label. The one definition: DTOs, the access guard, the scoped repository, job envelopes,
 * configuration and the OpenAPI document all use it.
 */
export const ORGANIZATION_ID_PATTERN = '^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$';

export const ORGANIZATION_ID = new RegExp(ORGANIZATION_ID_PATTERN);

export function isOrganizationId(value: unknown): value is string {
  return typeof value === 'string' && ORGANIZATION_ID.test(value);
}
