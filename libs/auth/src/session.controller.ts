import { Controller, Delete, Get, HttpCode, OnModuleInit, Optional, Res } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { AuditContext, CurrentAuditContext, CurrentPrincipal, LeanRoutes, Principal, SignedIn } from '@svc/platform';
import { OrganizationsService } from '@svc/organizations';
import { CurrentSessionView } from './dto/auth.view';
import { AccessGuard } from './access.guard';
import { clearSessionCookie } from './session-cookie.writer';
import { SessionsService } from './sessions.service';

/**
 * The caller's session. Reading it is what a console does on every page, so `GET` is also
 * answered as a lean route (ahead of Express's and Nest's routers), after the same access guard;
 * a request with a query string or a body falls through to this controller.
 */
@ApiTags('sessions')
@Controller('api/v1/session')
export class SessionController implements OnModuleInit {
  constructor(
    private readonly sessions: SessionsService,
    private readonly organizations: OrganizationsService,
    private readonly access: AccessGuard,
    // Absent where no HTTP server runs (the worker loads the module for its services).
    @Optional() private readonly leanRoutes?: LeanRoutes,
  ) {}

  onModuleInit(): void {
    this.access.registerLeanRead(this.leanRoutes, '/api/v1/session', SessionController.prototype.current, (req) => this.current(req.principal!));
  }

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
