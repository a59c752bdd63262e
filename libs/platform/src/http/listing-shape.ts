import type { Request } from 'express';
import type { AliasedRequest } from './organization-alias';

/**
 * Flat paths answer with the contract's named collection (`{events, next}`); alias paths under
 * /organizations/{organization}/ answer `{items, next}` (decisions §1).
 */
export function listingBody<T>(req: Request, key: string, items: T[], next: string | null): Record<string, T[] | string | null> {
  return (req as AliasedRequest).aliasOrganization !== undefined ? { items, next } : { [key]: items, next };
}
