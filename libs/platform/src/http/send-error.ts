import type { ServerResponse } from 'node:http';
import { ErrorResponse } from './error-body';

/** Writes the contract's Error body (Node's response methods only: Express's and a lean route's responses alike). */
export function sendError(res: ServerResponse, response: ErrorResponse): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  if (response.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(Math.max(1, Math.ceil(response.retryAfterSeconds))));
  sendJson(res, response.status, response.body);
}

/**
 * Writes a JSON answer directly (one `writeHead`, one `end`), with the headers already set on the
 * response: what `res.status(s).json(body)` sends, without Express's content negotiation steps, for
 * lean routes.
 */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}
