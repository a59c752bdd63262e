import { Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { ApiErrors, AuditContext, CurrentAuditContext, CurrentOrganization, OrganizationContext, RequirePermission, UuidParam } from '@svc/platform';
import { ListDeliveriesQueryDto } from './dto/list-deliveries-query.dto';
import { WebhookDeliveryPage, WebhookDeliveryView } from './dto/webhook-delivery.view';
import { WebhookDeliveriesService } from './webhook-deliveries.service';

/** What each authenticated delivery brought and what it got. The list leaves bodies out; the single read has them. */
@ApiTags('webhooks')
@Controller('api/v1/webhook-deliveries')
export class WebhookDeliveriesController {
  constructor(private readonly deliveries: WebhookDeliveriesService) {}

  @RequirePermission('webhook-deliveries:read')
  @Get()
  @ApiOkResponse({ type: WebhookDeliveryPage })
  list(@Query() query: ListDeliveriesQueryDto, @CurrentOrganization() organization: OrganizationContext): Promise<WebhookDeliveryPage> {
    const { integrationId, ...page } = query;
    return this.deliveries.list(organization.id, { integrationId }, page);
  }

  @RequirePermission('webhook-deliveries:read')
  @Get(':delivery')
  @ApiOkResponse({ type: WebhookDeliveryView })
  get(@UuidParam('delivery') id: string, @CurrentOrganization() organization: OrganizationContext): Promise<WebhookDeliveryView> {
    return this.deliveries.get(organization.id, id);
  }

  /** Re-admits the stored body as a new delivery and answers with that delivery, whatever its outcome. */
  @RequirePermission('webhook-deliveries:replay')
  @Post(':delivery/replay')
  @HttpCode(200)
  @ApiOkResponse({ type: WebhookDeliveryView })
  @ApiErrors(
    { status: 409, description: 'Refused unread (no body), or its integration is disabled' },
    { status: 503, description: 'Admission pressure or the database unavailable, as for the webhook' },
  )
  replay(
    @UuidParam('delivery') id: string,
    @CurrentOrganization() organization: OrganizationContext,
    @CurrentAuditContext() audit: AuditContext,
  ): Promise<WebhookDeliveryView> {
    return this.deliveries.replay(organization.id, id, audit);
  }
}
