import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Headers every response carries, whatever answers it (API, webhooks, health, metrics, errors, the
 * event stream): `X-Content-Type-Options: nosniff`, so a browser never runs a JSON or text answer
 * as something else.
 */
export function securityHeaders(_req: IncomingMessage, res: ServerResponse, next: () => void): void {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  next();
}
