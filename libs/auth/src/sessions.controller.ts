import { Controller, Delete, Get, HttpCode, Param, Query } from '@nestjs/common';
import { ApiCookieAuth, ApiNoContentResponse, ApiOkResponse, ApiProperty, ApiTags } from '@nestjs/swagger';
import {
  AuditContext, CurrentAuditContext, CurrentOrganization, CurrentPrincipal, ListQueryDto, OrganizationContext, Principal, RequirePermission, SignedIn, uuidParam,
} from '@svc/platform';
import { Session } from './session.entity';
import { SessionsService } from './sessions.service';

export class SessionItem {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) userId!: string;
  @ApiProperty({ type: String, format: 'date-time' }) issuedAt!: string;
  @ApiProperty({ type: String, format: 'date-time' }) expiresAt!: string;
  @ApiProperty({ type: String, format: 'date-time' }) lastSeenAt!: string;
  @ApiProperty({ type: String, nullable: true }) userAgent!: string | null;
  @ApiProperty({ type: String, nullable: true }) address!: string | null;
  @ApiProperty({ description: 'This is the session making the request' }) current!: boolean;
}

export class SessionPage {
  @ApiProperty({ type: [SessionItem] }) sessions!: SessionItem[];
  @ApiProperty({ type: String, nullable: true }) next!: string | null;
}

function sessionItem(s: Session, currentId: string): SessionItem {
  return {
    id: s.id, userId: s.userId, issuedAt: s.issuedAt.toISOString(), expiresAt: s.expiresAt.toISOString(),
    lastSeenAt: s.lastSeenAt.toISOString(), userAgent: s.userAgent, address: s.address, current: s.id === currentId,
  };
}

@ApiTags('sessions')
@ApiCookieAuth('session')
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
    @Param('session', uuidParam('session')) sessionId: string,
    @CurrentPrincipal() principal: Principal, @CurrentOrganization() organization: OrganizationContext, @CurrentAuditContext() audit: AuditContext,
  ): Promise<void> {
    await this.sessions.revokeById(sessionId, principal, { id: organization.id, role: organization.membership.role }, audit);
  }
}
