import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { parse } from 'cookie';
import type { Request } from 'express';
import { Strategy } from 'passport-custom';
import { Principal, SESSION_COOKIE, UnauthenticatedError } from '@svc/platform';
import { SessionsService } from './sessions.service';

export const SESSION_STRATEGY = 'svc-session';

/** Authenticates the `__Host-svc_session` cookie against the server-side session. */
@Injectable()
export class SessionStrategy extends PassportStrategy(Strategy, SESSION_STRATEGY) {
  constructor(private readonly sessions: SessionsService) {
    super();
  }

  async validate(req: Request): Promise<Principal> {
    const header = req.headers.cookie;
    const token = header ? parse(header)[SESSION_COOKIE] : undefined;
    if (token === undefined) throw new UnauthenticatedError('credential_rejected', 'Sign in first');
    const { session, user } = await this.sessions.authenticate(token);
    return {
      kind: 'session',
      user: { id: user.id, email: user.email, name: user.name },
      session: {
        id: session.id,
        issuedAt: session.issuedAt,
        expiresAt: session.expiresAt,
        lastSeenAt: session.lastSeenAt,
        idleExpiresAt: this.sessions.idleExpiry(session),
        activeOrganizationId: session.activeOrganizationId,
      },
    };
  }
}
