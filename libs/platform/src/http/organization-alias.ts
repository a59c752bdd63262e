import type { NextFunction, Request, Response } from 'express';

/** Resources that can also be addressed under /api/v1/organizations/{organization}/ (decisions §1). */
export const ALIASED_RESOURCES = ['integrations', 'incidents', 'investigations', 'conversations', 'relays', 'audit-events', 'changes'] as const;

const ALIAS = new RegExp(`^/api/v1/organizations/([^/?]+)/(${ALIASED_RESOURCES.join('|')})(?=[/?]|$)`);

export interface AliasedRequest extends Request {
  /** The Organization named by an alias path, before validation. */
  aliasOrganization?: string;
}

/** Percent-encoding that is not UTF-8 (`%ED%A0%80`) is kept as sent; the guard refuses it as an invalid Organization id (400). */
function decodeOrKeep(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * Routes an alias path to the same handler as the flat path, remembering the Organization it
 * named; the access guard validates and authorizes it like a header.
 */
export function organizationAliasMiddleware(req: Request, _res: Response, next: NextFunction): void {
  const match = ALIAS.exec(req.url);
  if (match) {
    (req as AliasedRequest).aliasOrganization = decodeOrKeep(match[1]);
    req.url = `/api/v1/${match[2]}${req.url.slice(match[0].length)}`;
  }
  next();
}
