import type { IncomingMessage, ServerResponse } from 'node:http';

/** Everything under /api and /webhooks may carry Organization data: no cache may keep it. */
export function noStore(_req: IncomingMessage, res: ServerResponse, next: () => void): void {
  res.setHeader('Cache-Control', 'no-store');
  next();
}
