import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import {
  ApiErrors,
  AuditContext,
  CurrentAuditContext,
  CurrentOrganization,
  InvalidInputError,
  OrganizationContext,
  RequirePermission,
  UuidParam,
} from '@svc/platform';
import { CreateIntegrationDto, ListIntegrationsQueryDto, UpdateIntegrationDto } from './dto/integration.dto';
import { CreatedIntegrationView, IntegrationPage, IntegrationView, RotationResult } from './dto/integration.view';
import { IntegrationsService } from './integrations.service';

@ApiTags('integrations')
@Controller('api/v1/integrations')
export class IntegrationsController {
  constructor(private readonly integrations: IntegrationsService) {}

  /** Where an OAuth provider returns the browser; no OAuth connection can be in progress in this release. */
  @RequirePermission('integrations:write')
  @Get('connect/callback')
  @ApiErrors({ status: 400, description: 'No OAuth connection is in progress' })
  connectCallback(): never {
    throw new InvalidInputError('No OAuth connection is in progress: no integration type of this release connects by OAuth');
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
