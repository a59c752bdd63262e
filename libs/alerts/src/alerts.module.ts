import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { IncidentsModule } from '@svc/incidents';
import { IntegrationsModule } from '@svc/integrations';
import { AlertAdmissionService } from './admission/alert-admission.service';
import { AlertWebhookController } from './admission/alert-webhook.controller';
import { AlertWebhookHandler } from './admission/alert-webhook.handler';
import { WebhookDelivery } from './deliveries/webhook-delivery.entity';
import { WebhookDeliveriesController } from './deliveries/webhook-deliveries.controller';

/** Alert ingestion: the webhook front door and the record of what came through it. */
@Module({
  imports: [TypeOrmModule.forFeature([WebhookDelivery]), IntegrationsModule, IncidentsModule],
  controllers: [AlertWebhookController, WebhookDeliveriesController],
  providers: [AlertAdmissionService, AlertWebhookHandler],
})
export class AlertsModule {}
