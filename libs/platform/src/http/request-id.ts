import type { IncomingMessage, ServerResponse } from 'node:http';
import { newId } from '../ids';

const SAFE = /^[A-Za-z0-9._:-]{1,128}$/;

/** Uses a sane incoming X-Request-Id (a proxy's), else mints one; echoes it on every response. */
export function requestIdMiddleware(req: IncomingMessage, res: ServerResponse, next: () => void): void {
  const incoming = req.headers['x-request-id'];
  const id = typeof incoming === 'string' && SAFE.test(incoming) ? incoming : newId();
  (req as { id: string }).id = id;
  res.setHeader('X-Request-Id', id);
  next();
}
