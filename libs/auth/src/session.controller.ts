import { Controller, Delete, Get, HttpCode, Res } from '@nestjs/common';
import { ApiCookieAuth, ApiNoContentResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { InjectRepository } from '@nestjs/typeorm';
import type { Response } from 'express';
import { Repository } from 'typeorm';
import { SignedIn } from '@svc/platform';
import { OrganizationsService } from '@svc/organizations';
import { CurrentSessionView } from './dto/auth-views';
import { CurrentPrincipal, Principal } from './principal';
import { Session } from './session.entity';
import { clearSessionCookie } from './session-cookie.writer';
import { SessionsService } from './sessions.service';

@ApiTags('sessions')
@ApiCookieAuth('session')
@Controller('api/v1/session')
export class SessionController {
  constructor(
    private readonly sessions: SessionsService,
    private readonly organizations: OrganizationsService,
    @InjectRepository(Session) private readonly sessionRows: Repository<Session>,
  ) {}

  /** The current session, its user, the active Organization and the caller's role there. */
  @SignedIn()
  @Get()
  @ApiOkResponse({ type: CurrentSessionView })
  async current(@CurrentPrincipal() principal: Principal): Promise<CurrentSessionView> {
    const session = await this.sessionRows.findOneByOrFail({ id: principal.sessionId });
    const organization = principal.activeOrganizationId
      ? await this.organizations.membership(principal.activeOrganizationId, principal.user.id)
      : null;
    return {
      session: {
        id: session.id,
        issuedAt: session.issuedAt,
        expiresAt: session.expiresAt,
        lastSeenAt: session.lastSeenAt,
        idleExpiresAt: this.sessions.idleExpiry(session),
      },
      user: principal.user,
      organization,
    };
  }

  /** Signs out: the session is revoked and the cookie cleared. */
  @SignedIn()
  @Delete()
  @HttpCode(204)
  @ApiNoContentResponse()
  async signOut(@CurrentPrincipal() principal: Principal, @Res({ passthrough: true }) res: Response): Promise<void> {
    await this.sessions.revoke(principal.sessionId, 'signed_out');
    clearSessionCookie(res);
  }
}
