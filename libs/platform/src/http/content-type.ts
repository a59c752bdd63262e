import type { NextFunction, Request, Response } from 'express';
import { errorBody } from './error-body';
import { sendError } from './send-error';

function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  if (length !== undefined) return Number(length) > 0;
  return req.headers['transfer-encoding'] !== undefined;
}

/** JSON or nothing: a request that carries a body of another media type gets 415 before it is read. */
export function requireJsonBody(req: Request, res: Response, next: NextFunction): void {
  if (hasBody(req) && !req.is(['application/json', 'application/*+json'])) {
    sendError(res, { status: 415, body: errorBody(415, 'Unsupported media type: send application/json') });
    return;
  }
  next();
}
