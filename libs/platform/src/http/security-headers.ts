import type { NextFunction, Request, Response } from 'express';

/**
 * Headers every response carries, whatever answers it (API, webhooks, health, metrics, errors, the
 * event stream): `X-Content-Type-Options: nosniff`, so a browser never runs a JSON or text answer
 * as something else.
 */
export function securityHeaders(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  next();
}
