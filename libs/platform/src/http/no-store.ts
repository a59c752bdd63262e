import type { NextFunction, Request, Response } from 'express';

/** Everything under /api and /webhooks may carry Organization data: no cache may keep it. */
export function noStore(req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Cache-Control', 'no-store');
  next();
}
