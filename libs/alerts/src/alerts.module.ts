import { Module } from '@nestjs/common';
import { ScopedRepositoryModule } from '@svc/platform';
import { IncidentsModule } from '@svc/incidents';
import { IntegrationsModule } from '@svc/integrations';
import { AlertAdmissionService } from './admission/alert-admission.service';
import { AlertWebhookController } from './admission/alert-webhook.controller';
import { DeliveryRecordsRepository } from './admission/delivery-records.repository';
import { AlertWebhookHandler } from './admission/alert-webhook.handler';
import { WebhookDelivery } from './deliveries/webhook-delivery.entity';
import { WebhookDeliveriesController } from './deliveries/webhook-deliveries.controller';
import { WebhookDeliveriesRepository } from './deliveries/webhook-deliveries.repository';
import { WebhookDeliveriesService } from './deliveries/webhook-deliveries.service';

/** The entities this library owns, for a DataSource built outside Nest (tests, tools). */
export const ALERTS_ENTITIES = [WebhookDelivery];

/** Alert ingestion: the webhook front door and the record of what came through it. */
@Module({
  imports: [ScopedRepositoryModule.forFeature(ALERTS_ENTITIES), IntegrationsModule, IncidentsModule],
  controllers: [AlertWebhookController, WebhookDeliveriesController],
  providers: [AlertAdmissionService, AlertWebhookHandler, DeliveryRecordsRepository, WebhookDeliveriesRepository, WebhookDeliveriesService],
})
export class AlertsModule {}
