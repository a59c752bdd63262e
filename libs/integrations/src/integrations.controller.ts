import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import {
  ApiErrors,
  AuditContext,
  CurrentAuditContext,
  CurrentOrganization,
  CurrentPrincipal,
  OrganizationContext,
  Principal,
  RequirePermission,
  UuidParam,
} from '@svc/platform';
import { ChatConnectService } from './connect/chat-connect.service';
import { ConnectCallbackQueryDto, CreateIntegrationDto, ListIntegrationsQueryDto, UpdateIntegrationDto } from './dto/integration.dto';
import { CreatedIntegrationView, IntegrationPage, IntegrationView, RotationResult } from './dto/integration.view';
import { IntegrationsService } from './integrations.service';

@ApiTags('integrations')
@Controller('api/v1/integrations')
export class IntegrationsController {
  constructor(
    private readonly integrations: IntegrationsService,
    private readonly connects: ChatConnectService,
  ) {}

  /**
   * Where the provider returns the browser after an OAuth install: the state must be the one this
   * session started in this Organization; the code is exchanged for the bot token and the
   * integration created with it sealed.
   */
  @RequirePermission('integrations:write', { tokens: false })
  @Get('connect/callback')
  @ApiOkResponse({ type: CreatedIntegrationView, description: 'The integration the install created' })
  @ApiErrors(
    { status: 400, description: 'No valid state for this session and Organization, the install was refused, or the provider refused the code' },
    { status: 503, description: "The provider's token endpoint could not be reached or failed; retry the connection" },
  )
  connectCallback(
    @Query() query: ConnectCallbackQueryDto,
    @CurrentOrganization() organization: OrganizationContext,
    @CurrentPrincipal() principal: Principal,
    @CurrentAuditContext() audit: AuditContext,
  ): Promise<CreatedIntegrationView> {
    return this.connects.complete(query, organization.id, principal.session.id, audit);
  }

  @RequirePermission('integrations:read')
  @Get()
  @ApiOkResponse({ type: IntegrationPage })
  list(@Query() query: ListIntegrationsQueryDto, @CurrentOrganization() organization: OrganizationContext): Promise<IntegrationPage> {
    return this.integrations.list(organization.id, query);
  }

  /** Enabled on creation; types that receive webhooks return their webhookUrl and, this once, webhookSecret. */
  @RequirePermission('integrations:write')
  @Post()
  @HttpCode(201)
  @ApiCreatedResponse({ type: CreatedIntegrationView })
  @ApiErrors({ status: 404, description: 'config.relayId names an unknown relay, or another Organization’s' })
  create(
    @Body() body: CreateIntegrationDto,
    @CurrentOrganization() organization: OrganizationContext,
    @CurrentAuditContext() audit: AuditContext,
  ): Promise<CreatedIntegrationView> {
    return this.integrations.create(organization.id, body, audit);
  }

  @RequirePermission('integrations:read')
  @Get(':integration')
  @ApiOkResponse({ type: IntegrationView })
  get(@UuidParam('integration') id: string, @CurrentOrganization() organization: OrganizationContext): Promise<IntegrationView> {
    return this.integrations.get(organization.id, id);
  }

  @RequirePermission('integrations:write')
  @Patch(':integration')
  @ApiOkResponse({ type: IntegrationView })
  update(
    @UuidParam('integration') id: string,
    @Body() body: UpdateIntegrationDto,
    @CurrentOrganization() organization: OrganizationContext,
    @CurrentAuditContext() audit: AuditContext,
  ): Promise<IntegrationView> {
    return this.integrations.update(organization.id, id, body, audit);
  }

  @RequirePermission('integrations:write')
  @Delete(':integration')
  @HttpCode(204)
  @ApiNoContentResponse()
  async remove(
    @UuidParam('integration') id: string,
    @CurrentOrganization() organization: OrganizationContext,
    @CurrentAuditContext() audit: AuditContext,
  ): Promise<void> {
    await this.integrations.remove(organization.id, id, audit);
  }

  @RequirePermission('integrations:write')
  @Post(':integration/enable')
  @HttpCode(200)
  @ApiOkResponse({ type: IntegrationView })
  enable(
    @UuidParam('integration') id: string,
    @CurrentOrganization() organization: OrganizationContext,
    @CurrentAuditContext() audit: AuditContext,
  ): Promise<IntegrationView> {
    return this.integrations.setEnabled(organization.id, id, true, audit);
  }

  @RequirePermission('integrations:write')
  @Post(':integration/disable')
  @HttpCode(200)
  @ApiOkResponse({ type: IntegrationView })
  disable(
    @UuidParam('integration') id: string,
    @CurrentOrganization() organization: OrganizationContext,
    @CurrentAuditContext() audit: AuditContext,
  ): Promise<IntegrationView> {
    return this.integrations.setEnabled(organization.id, id, false, audit);
  }

  /** Contacts the system with the stored credentials and records the outcome (in lastVerification). */
  @RequirePermission('integrations:write')
  @Post(':integration/verify')
  @HttpCode(200)
  @ApiOkResponse({ type: IntegrationView })
  verify(
    @UuidParam('integration') id: string,
    @CurrentOrganization() organization: OrganizationContext,
    @CurrentAuditContext() audit: AuditContext,
  ): Promise<IntegrationView> {
    return this.integrations.verify(organization.id, id, audit);
  }

  @RequirePermission('integrations:write')
  @Post(':integration/rotate-webhook-secret')
  @HttpCode(200)
  @ApiOkResponse({ type: RotationResult })
  rotate(
    @UuidParam('integration') id: string,
    @CurrentOrganization() organization: OrganizationContext,
    @CurrentAuditContext() audit: AuditContext,
  ): Promise<RotationResult> {
    return this.integrations.rotateWebhookSecret(organization.id, id, audit);
  }
}
