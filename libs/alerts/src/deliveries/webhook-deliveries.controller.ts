import { Controller, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { ApiCookieAuth, ApiPropertyOptional, ApiTags, IntersectionType } from '@nestjs/swagger';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import type { Request } from 'express';
import { IsOptional, IsUUID } from 'class-validator';
import { DataSource, Repository } from 'typeorm';
import { AuditService } from '@svc/audit';
import { IntegrationsService } from '@svc/integrations';
import {
  Actor, auditContext, byTimeThenId, ConflictError, CurrentActor, CurrentOrganization, CursorCodec, keysetPage, ListQueryDto, NotFoundError, OrganizationContext, requestOrigin, RequirePermission, ScopedRepository, uuidParam,
} from '@svc/platform';
import { AlertAdmissionService } from '../admission/alert-admission.service';
import { WebhookDelivery } from './webhook-delivery.entity';

class DeliveryFilterDto {
  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsUUID()
  integrationId?: string;
}

class ListDeliveriesQueryDto extends IntersectionType(DeliveryFilterDto, ListQueryDto) {}

const NEWEST_FIRST = byTimeThenId<WebhookDelivery>('d', 'received_at', (d) => d.receivedAt, 'DESC');

function view(d: WebhookDelivery, withBody: boolean) {
  return {
    id: d.id, integrationId: d.integrationId, receivedAt: d.receivedAt.toISOString(), statusCode: d.statusCode, accepted: d.accepted,
    duplicates: d.duplicates, incidentIds: d.incidentIds, error: d.error, replayOf: d.replayOf,
    ...(withBody ? { headers: d.headers, body: d.body } : {}),
  };
}

/** What each authenticated delivery brought and what it got. The list leaves bodies out; the single read has them. */
@ApiTags('webhooks')
@ApiCookieAuth('session')
@Controller('api/v1/webhook-deliveries')
export class WebhookDeliveriesController {
  private readonly deliveries: ScopedRepository<WebhookDelivery>;

  constructor(
    @InjectRepository(WebhookDelivery) repository: Repository<WebhookDelivery>,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly cursors: CursorCodec,
    private readonly integrations: IntegrationsService,
    private readonly admission: AlertAdmissionService,
    private readonly audit: AuditService,
  ) {
    this.deliveries = new ScopedRepository(repository);
  }

  @RequirePermission('webhook-deliveries:read')
  @Get()
  async list(@Query() query: ListDeliveriesQueryDto, @CurrentOrganization() organization: OrganizationContext) {
    const q = this.deliveries.query(organization.id, 'd');
    if (query.integrationId) q.andWhere('d.integration_id = :integrationId', { integrationId: query.integrationId });
    const page = await keysetPage(q, this.cursors, { scope: organization.id, collection: `webhook-deliveries?${query.integrationId ?? ''}` }, NEWEST_FIRST, query);
    return { items: page.items.map((d) => view(d, false)), next: page.next };
  }

  @RequirePermission('webhook-deliveries:read')
  @Get(':delivery')
  async get(@Param('delivery', uuidParam('delivery')) id: string, @CurrentOrganization() organization: OrganizationContext) {
    return view(await this.require(organization.id, id), true);
  }

  /**
   * Re-admits the stored body as a new delivery (replayOf names the original) and answers with
   * that delivery, whatever its outcome: phases already accepted count as duplicates.
   */
  @RequirePermission('webhook-deliveries:replay')
  @Post(':delivery/replay')
  @HttpCode(200)
  async replay(@Param('delivery', uuidParam('delivery')) id: string, @CurrentOrganization() organization: OrganizationContext, @CurrentActor() actor: Actor, @Req() req: Request) {
    const original = await this.require(organization.id, id);
    if (original.body === null) throw new ConflictError('This delivery was refused unread: there is no body to replay');
    const receiver = await this.integrations.receiverFor(organization.id, original.integrationId);
    if (!receiver.enabled) throw new ConflictError('The integration is disabled: enable it before replaying its deliveries');
    const outcome = await this.admission.admit(receiver, { headers: original.headers, body: original.body, replayOf: original.id });
    const newId = outcome.kind === 'admitted' ? outcome.response.deliveryId : outcome.deliveryId;
    await this.audit.record(this.dataSource.manager, organization.id, auditContext(requestOrigin(req), actor), {
      action: 'webhook_delivery.replay', targetKind: 'webhook_delivery', targetId: original.id, detail: { replayDeliveryId: newId, statusCode: outcome.status },
    });
    return view(await this.require(organization.id, newId), true);
  }

  private async require(organizationId: string, id: string): Promise<WebhookDelivery> {
    const delivery = await this.deliveries.findById(organizationId, id);
    if (!delivery) throw new NotFoundError('Webhook delivery');
    return delivery;
  }
}
