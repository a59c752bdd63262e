import { ApiProperty } from '@nestjs/swagger';
import type { WebhookDelivery } from '../webhook-delivery.entity';

/** One stored delivery as listed: what it brought and what the service answered, without the request itself. */
export class WebhookDeliverySummaryView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) integrationId!: string;
  @ApiProperty({ type: String, format: 'date-time' }) receivedAt!: string;
  @ApiProperty({ type: 'integer', description: 'The HTTP status the delivery was answered with' }) statusCode!: number;
  @ApiProperty({ type: 'integer', description: 'Alert phases admitted' }) accepted!: number;
  @ApiProperty({ type: 'integer', description: 'Alert phases already admitted before' }) duplicates!: number;
  @ApiProperty({ type: [String], format: 'uuid' }) incidentIds!: string[];
  @ApiProperty({ type: String, nullable: true }) error!: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The delivery this one replayed' }) replayOf!: string | null;
}

/** One delivery read on its own: the summary plus the request as received. */
export class WebhookDeliveryView extends WebhookDeliverySummaryView {
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' }, description: 'Request headers, credentials left out' })
  headers!: Record<string, string>;

  @ApiProperty({ type: String, nullable: true, description: 'The body as received; null when it was refused unread' })
  body!: string | null;
}

export class WebhookDeliveryPage {
  @ApiProperty({ type: [WebhookDeliverySummaryView] }) items!: WebhookDeliverySummaryView[];
  @ApiProperty({ type: String, nullable: true }) next!: string | null;
}

export function webhookDeliverySummaryView(d: WebhookDelivery): WebhookDeliverySummaryView {
  return {
    id: d.id,
    integrationId: d.integrationId,
    receivedAt: d.receivedAt.toISOString(),
    statusCode: d.statusCode,
    accepted: d.accepted,
    duplicates: d.duplicates,
    incidentIds: d.incidentIds,
    error: d.error,
    replayOf: d.replayOf,
  };
}

export function webhookDeliveryView(d: WebhookDelivery): WebhookDeliveryView {
  return { ...webhookDeliverySummaryView(d), headers: d.headers, body: d.body };
}
