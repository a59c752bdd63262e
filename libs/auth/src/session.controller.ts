import { Controller, Delete, Get, HttpCode, Req, Res } from '@nestjs/common';
import { ApiCookieAuth, ApiNoContentResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { requestOrigin } from '@svc/audit';
import { SignedIn } from '@svc/platform';
import { OrganizationsService } from '@svc/organizations';
import { CurrentSessionView } from './dto/auth-views';
import { CurrentPrincipal, Principal } from './principal';
import { clearSessionCookie } from './session-cookie.writer';
import { SessionsService } from './sessions.service';

@ApiTags('sessions')
@ApiCookieAuth('session')
@Controller('api/v1/session')
export class SessionController {
  constructor(
    private readonly sessions: SessionsService,
    private readonly organizations: OrganizationsService,
  ) {}

  /** The current session, its user, the active Organization and the caller's role there. */
  @SignedIn()
  @Get()
  @ApiOkResponse({ type: CurrentSessionView })
  async current(@CurrentPrincipal() principal: Principal): Promise<CurrentSessionView> {
    const { activeOrganizationId, ...session } = principal.session;
    const organization = activeOrganizationId ? await this.organizations.membership(activeOrganizationId, principal.user.id) : null;
    return { session, user: principal.user, organization };
  }

  /** Signs out: the session is revoked and the cookie cleared. */
  @SignedIn()
  @Delete()
  @HttpCode(204)
  @ApiNoContentResponse()
  async signOut(@CurrentPrincipal() principal: Principal, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<void> {
    await this.sessions.signOut(principal, requestOrigin(req));
    clearSessionCookie(res);
  }
}
