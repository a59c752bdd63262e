import { Controller, Delete, Get, HttpCode, Res } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { AuditContext, CurrentAuditContext, CurrentPrincipal, Principal, SignedIn } from '@svc/platform';
import { OrganizationsService } from '@svc/organizations';
import { CurrentSessionView } from './dto/auth.view';
import { clearSessionCookie } from './session-cookie.writer';
import { SessionsService } from './sessions.service';

@ApiTags('sessions')
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
  async signOut(
    @CurrentPrincipal() principal: Principal,
    @CurrentAuditContext() audit: AuditContext,
    @Res({ passthrough: true }) res: Response,
  ): Promise<void> {
    await this.sessions.signOut(principal, audit);
    clearSessionCookie(res);
  }
}
