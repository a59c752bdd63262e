import type { Request } from 'express';
import type { AliasedRequest } from './organization-alias';

/**
 * Flat paths answer with the contract's named collection (`{events, next}`); alias paths under
 * /organizations/{organization}/ answer `{items, next}` (decisions §1).
 */
export function listingBody<T, K extends string>(
  req: Request,
  key: K,
  items: T[],
  next: string | null,
): { items: T[]; next: string | null } | ({ [P in K]: T[] } & { next: string | null }) {
  return (req as AliasedRequest).aliasOrganization !== undefined ? { items, next } : ({ [key]: items, next } as { [P in K]: T[] } & { next: string | null });
}
