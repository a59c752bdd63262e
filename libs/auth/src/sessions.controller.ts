import { Controller, Delete, Get, HttpCode, Query } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import {
  AuditContext,
  CurrentAuditContext,
  CurrentOrganization,
  CurrentPrincipal,
  ListQueryDto,
  OrganizationContext,
  Principal,
  RequirePermission,
  SignedIn,
  UuidParam,
} from '@svc/platform';
import { SessionPage, sessionItem } from './dto/session.view';
import { SessionsService } from './sessions.service';

@ApiTags('sessions')
@Controller('api/v1/sessions')
export class SessionsController {
  constructor(private readonly sessions: SessionsService) {}

  /** The caller's live sessions, newest first. */
  @SignedIn()
  @Get()
  @ApiOkResponse({ type: SessionPage })
  async list(@Query() query: ListQueryDto, @CurrentPrincipal() principal: Principal): Promise<SessionPage> {
    const page = await this.sessions.listLive(principal.user.id, query);
    return { sessions: page.items.map((s) => sessionItem(s, principal.session.id)), next: page.next };
  }

  /** Ends a session: one's own, or (as an Admin of the header's Organization) a member's. */
  @RequirePermission('organizations:read', { organizationHeader: 'required', tokens: false })
  @Delete(':session')
  @HttpCode(204)
  @ApiNoContentResponse()
  async revoke(
    @UuidParam('session') sessionId: string,
    @CurrentPrincipal() principal: Principal,
    @CurrentOrganization() organization: OrganizationContext,
    @CurrentAuditContext() audit: AuditContext,
  ): Promise<void> {
    await this.sessions.revokeById(sessionId, principal, { id: organization.id, role: organization.membership.role }, audit);
  }
}
