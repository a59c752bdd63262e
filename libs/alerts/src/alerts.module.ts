import { Module } from '@nestjs/common';
import { ScopedRepositoryModule } from '@svc/platform';
import { ChangesModule } from '@svc/changes';
import { IncidentsModule } from '@svc/incidents';
import { IntegrationsModule } from '@svc/integrations';
import { AlertAdmissionService } from './admission/alert-admission.service';
import { AlertWebhookController } from './admission/alert-webhook.controller';
import { DeliveryRecordsRepository } from './admission/delivery-records.repository';
import { AlertWebhookHandler } from './admission/alert-webhook.handler';
import { ChangeAdmissionService } from './admission/change-admission.service';
import { ChangeWebhookController } from './admission/change-webhook.controller';
import { ChangeWebhookHandler } from './admission/change-webhook.handler';
import { WebhookAdmissionGate } from './admission/webhook-admission-gate';
import { WebhookDelivery } from './deliveries/webhook-delivery.entity';
import { WebhookDeliveriesController } from './deliveries/webhook-deliveries.controller';
import { WebhookDeliveriesRepository } from './deliveries/webhook-deliveries.repository';
import { WebhookDeliveriesService } from './deliveries/webhook-deliveries.service';

/** The entities this library owns, for a DataSource built outside Nest (tests, tools). */
export const ALERTS_ENTITIES = [WebhookDelivery];

/** Webhook ingestion: the front doors for alert events and change events, and the record of what came through them. */
@Module({
  imports: [ScopedRepositoryModule.forFeature(ALERTS_ENTITIES), IntegrationsModule, IncidentsModule, ChangesModule],
  controllers: [AlertWebhookController, ChangeWebhookController, WebhookDeliveriesController],
  providers: [
    WebhookAdmissionGate,
    AlertAdmissionService,
    AlertWebhookHandler,
    ChangeAdmissionService,
    ChangeWebhookHandler,
    DeliveryRecordsRepository,
    WebhookDeliveriesRepository,
    WebhookDeliveriesService,
  ],
})
export class AlertsModule {}
