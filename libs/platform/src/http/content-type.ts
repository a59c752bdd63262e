import type { IncomingMessage, ServerResponse } from 'node:http';
import typeIs from 'type-is';
import { errorBody } from './error-body';
import { sendError } from './send-error';

/** The media types taken as JSON bodies, by this check and by the body parser alike. */
export const JSON_TYPES = ['application/json', 'application/*+json'];

/** Whether the body's Content-Type is JSON (`application/json` or `application/*+json`), as Express's `req.is` answers it. */
export function isJsonBody(req: IncomingMessage): boolean {
  return typeof typeIs(req, JSON_TYPES) === 'string';
}

function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  if (length !== undefined) return Number(length) > 0;
  return req.headers['transfer-encoding'] !== undefined;
}

/** JSON or nothing: a request that carries a body of another media type gets 415 before it is read. */
export function requireJsonBody(req: IncomingMessage, res: ServerResponse, next: () => void): void {
  if (hasBody(req) && !isJsonBody(req)) {
    sendError(res, { status: 415, body: errorBody(415, 'Unsupported media type: send application/json') });
    return;
  }
  next();
}
