import type { Response } from 'express';
import { ErrorResponse } from './error-body';

export function sendError(res: Response, response: ErrorResponse): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  if (response.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(Math.max(1, Math.ceil(response.retryAfterSeconds))));
  res.status(response.status).type('application/json').send(JSON.stringify(response.body));
}
