import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiCookieAuth, ApiPropertyOptional, ApiTags, IntersectionType } from '@nestjs/swagger';
import { InjectRepository } from '@nestjs/typeorm';
import { IsOptional, IsUUID } from 'class-validator';
import { Repository } from 'typeorm';
import { CurrentOrganization, OrganizationContext } from '@svc/auth/principal';
import { byTimeThenId, CursorCodec, keysetPage, ListQueryDto, NotFoundError, RequirePermission, ScopedRepository, uuidParam } from '@svc/platform';
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

  constructor(@InjectRepository(WebhookDelivery) repository: Repository<WebhookDelivery>, private readonly cursors: CursorCodec) {
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
    const delivery = await this.deliveries.findById(organization.id, id);
    if (!delivery) throw new NotFoundError('Webhook delivery');
    return view(delivery, true);
  }
}
