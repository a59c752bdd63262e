import type { Response } from 'express';
import { SESSION_COOKIE, Timestamp } from '@svc/platform';

/** HttpOnly; Secure; Path=/; SameSite=Lax; no Domain (decisions §2). */
export function setSessionCookie(res: Response, token: string, expiresAt: Timestamp): void {
  res.cookie(SESSION_COOKIE, token, {
    httpOnly: true,
    secure: true,
    sameSite: 'lax',
    path: '/',
    expires: expiresAt.toDate(),
  });
}

export function clearSessionCookie(res: Response): void {
  res.clearCookie(SESSION_COOKIE, { httpOnly: true, secure: true, sameSite: 'lax', path: '/' });
}
