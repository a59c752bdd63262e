import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { AuditContext, CurrentAuditContext, CurrentOrganization, ListQueryDto, OrganizationContext, RequirePermission, UuidParam } from '@svc/platform';
import { CreateBootstrapTokenDto } from './dto/relay.dto';
import {
  CreatedBootstrapTokenView,
  RelayFailurePage,
  RelayIntegrationPage,
  RelayPage,
  RelaySummaryView,
  RelayView,
  SessionConflictPage,
} from './dto/relay.view';
import { RelaysService } from './relays.service';

@ApiTags('relays')
@Controller('api/v1/relays')
export class RelaysController {
  constructor(private readonly relays: RelaysService) {}

  @RequirePermission('relays:read')
  @Get()
  @ApiOkResponse({ type: RelayPage })
  list(@Query() query: ListQueryDto, @CurrentOrganization() organization: OrganizationContext): Promise<RelayPage> {
    return this.relays.list(organization.id, query);
  }

  @RequirePermission('relays:read')
  @Get('summary')
  @ApiOkResponse({ type: RelaySummaryView })
  summary(@CurrentOrganization() organization: OrganizationContext): Promise<RelaySummaryView> {
    return this.relays.summary(organization.id);
  }

  /** A one-time token a relay registers with (default lifetime 24 h); shown this once. */
  @RequirePermission('relays:write')
  @Post('bootstrap-tokens')
  @HttpCode(201)
  @ApiCreatedResponse({ type: CreatedBootstrapTokenView })
  createBootstrapToken(
    @Body() body: CreateBootstrapTokenDto,
    @CurrentOrganization() organization: OrganizationContext,
    @CurrentAuditContext() audit: AuditContext,
  ): Promise<CreatedBootstrapTokenView> {
    return this.relays.mintBootstrapToken(organization.id, body, audit);
  }

  @RequirePermission('relays:read')
  @Get(':registration/integrations')
  @ApiOkResponse({ type: RelayIntegrationPage })
  integrations(
    @UuidParam('registration') id: string,
    @Query() query: ListQueryDto,
    @CurrentOrganization() organization: OrganizationContext,
  ): Promise<RelayIntegrationPage> {
    return this.relays.integrations(organization.id, id, query);
  }

  @RequirePermission('relays:read')
  @Get(':registration/session-conflicts')
  @ApiOkResponse({ type: SessionConflictPage })
  sessionConflicts(
    @UuidParam('registration') id: string,
    @Query() query: ListQueryDto,
    @CurrentOrganization() organization: OrganizationContext,
  ): Promise<SessionConflictPage> {
    return this.relays.sessionConflicts(organization.id, id, query);
  }

  /** Clears the open session conflicts and ends the current session, so that the next connection wins. */
  @RequirePermission('relays:write')
  @Post(':registration/clear-conflict')
  @HttpCode(200)
  @ApiOkResponse({ type: RelayView })
  clearConflict(
    @UuidParam('registration') id: string,
    @CurrentOrganization() organization: OrganizationContext,
    @CurrentAuditContext() audit: AuditContext,
  ): Promise<RelayView> {
    return this.relays.clearConflict(organization.id, id, audit);
  }

  @RequirePermission('relays:read')
  @Get(':registration/failures')
  @ApiOkResponse({ type: RelayFailurePage })
  failures(
    @UuidParam('registration') id: string,
    @Query() query: ListQueryDto,
    @CurrentOrganization() organization: OrganizationContext,
  ): Promise<RelayFailurePage> {
    return this.relays.failures(organization.id, id, query);
  }
}
