import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { byTimeThenId, CursorCodec, InjectScopedRepository, keysetPage, Page, PageRequest, ScopedRepository } from '@svc/platform';
import { WebhookDelivery } from './webhook-delivery.entity';

const NEWEST_FIRST = byTimeThenId<WebhookDelivery>('d', 'received_at', (d) => d.receivedAt, 'DESC');

/** The stored webhook deliveries of an Organization, read newest first or by id. */
@Injectable()
export class WebhookDeliveriesRepository {
  constructor(
    @InjectScopedRepository(WebhookDelivery) private readonly deliveries: ScopedRepository<WebhookDelivery>,
    private readonly cursors: CursorCodec,
  ) {}

  /** One page, newest first, of all deliveries or those of one integration. */
  page(organizationId: string, filter: { integrationId?: string }, page: PageRequest, manager?: EntityManager): Promise<Page<WebhookDelivery>> {
    const query = this.scoped(manager).query(organizationId, 'd');
    if (filter.integrationId) query.andWhere('d.integration_id = :integrationId', { integrationId: filter.integrationId });
    // The filter is part of the cursor's binding: a cursor of one listing is refused by another.
    return keysetPage(query, this.cursors, { scope: organizationId, collection: `webhook-deliveries?${filter.integrationId ?? ''}` }, NEWEST_FIRST, page);
  }

  findById(organizationId: string, id: string, manager?: EntityManager): Promise<WebhookDelivery | null> {
    return this.scoped(manager).findById(organizationId, id);
  }

  private scoped(manager?: EntityManager): ScopedRepository<WebhookDelivery> {
    return manager ? this.deliveries.withManager(manager) : this.deliveries;
  }
}
