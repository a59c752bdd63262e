import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AuditService } from '@svc/audit';
import { IntegrationsService } from '@svc/integrations';
import { AuditContext, ConflictError, NotFoundError, PageRequest } from '@svc/platform';
import { AlertAdmissionService } from '../admission/alert-admission.service';
import { ChangeAdmissionService } from '../admission/change-admission.service';
import { WebhookDeliveryPage, webhookDeliverySummaryView, WebhookDeliveryView, webhookDeliveryView } from './dto/webhook-delivery.view';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhookDelivery } from './webhook-delivery.entity';

/** What each authenticated delivery brought and what it got, and replaying one. */
@Injectable()
export class WebhookDeliveriesService {
  constructor(
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly integrations: IntegrationsService,
    private readonly admission: AlertAdmissionService,
    private readonly changeAdmission: ChangeAdmissionService,
    private readonly audit: AuditService,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /** Newest first, without bodies. */
  async list(organizationId: string, filter: { integrationId?: string }, page: PageRequest): Promise<WebhookDeliveryPage> {
    const found = await this.deliveries.page(organizationId, filter, page);
    return { items: found.items.map(webhookDeliverySummaryView), next: found.next };
  }

  /** One delivery with its headers and body. */
  async get(organizationId: string, id: string): Promise<WebhookDeliveryView> {
    return webhookDeliveryView(await this.require(organizationId, id));
  }

  /**
   * Re-admits the stored body as a new delivery (replayOf names the original) and answers with
   * that delivery, whatever its outcome: phases already accepted count as duplicates. The replay
   * is recorded in the audit trail after admission, which commits on its own.
   */
  async replay(organizationId: string, id: string, context: AuditContext): Promise<WebhookDeliveryView> {
    const original = await this.require(organizationId, id);
    if (original.body === null) throw new ConflictError('This delivery was refused unread: there is no body to replay');
    const receiver = await this.integrations.receiverFor(organizationId, original.integrationId);
    if (!receiver.enabled) throw new ConflictError('The integration is disabled: enable it before replaying its deliveries');
    const delivery = { headers: original.headers, body: original.body, replayOf: original.id };
    const outcome = receiver.format === 'changes' ? await this.changeAdmission.admit(receiver, delivery) : await this.admission.admit(receiver, delivery);
    const replayId = outcome.kind === 'admitted' ? outcome.response.deliveryId : outcome.deliveryId;
    await this.audit.record(this.dataSource.manager, organizationId, context, {
      action: 'webhook_delivery.replay',
      targetKind: 'webhook_delivery',
      targetId: original.id,
      detail: { replayDeliveryId: replayId, statusCode: outcome.status },
    });
    return webhookDeliveryView(await this.require(organizationId, replayId));
  }

  private async require(organizationId: string, id: string): Promise<WebhookDelivery> {
    const delivery = await this.deliveries.findById(organizationId, id);
    if (!delivery) throw new NotFoundError('Webhook delivery');
    return delivery;
  }
}
