import { Controller, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBody, ApiOkResponse, ApiParam, ApiProperty, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ApiErrors, Public } from '@svc/platform';
import { ALERTMANAGER_PAYLOAD_SCHEMA, GENERIC_PAYLOAD_SCHEMA, GRAFANA_PAYLOAD_SCHEMA } from '../payloads/payload-schemas';
import { AlertWebhookHandler } from './alert-webhook.handler';

/** The answer to an admitted delivery (202, or 200 when every phase in it was already accepted). */
export class DeliveryResponseView {
  @ApiProperty({ format: 'uuid' }) deliveryId!: string;
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Alert lifecycle phases newly accepted' }) accepted!: number;
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Phases already accepted before' }) duplicates!: number;
  @ApiProperty({ type: String, format: 'uuid', isArray: true }) incidentIds!: string[];
}

/**
 * Alert webhooks (decisions §8). Deliveries are answered by AlertWebhookHandler as a lean route
 * ahead of Nest's router; this route documents the operation and receives what falls through
 * (a query string, for one, which the input-shape rule then refuses).
 */
@ApiTags('webhooks')
@Controller('webhooks/v1/integrations')
export class AlertWebhookController {
  constructor(private readonly handler: AlertWebhookHandler) {}

  @Public()
  @Post(':integration/alert-events')
  @HttpCode(202)
  @ApiSecurity('webhookToken')
  @ApiSecurity('webhookBearer')
  @ApiParam({ name: 'integration', type: String, format: 'uuid', description: 'The integration; an unknown one is the same 401 as a wrong secret' })
  @ApiBody({
    description: "The integration's type decides the format (docs/alert-payloads.md): Alertmanager, Grafana or generic",
    schema: { anyOf: [ALERTMANAGER_PAYLOAD_SCHEMA, GRAFANA_PAYLOAD_SCHEMA, GENERIC_PAYLOAD_SCHEMA] },
  })
  @ApiAcceptedResponse({ type: DeliveryResponseView, description: 'The delivery and its alerts are committed and grouped' })
  @ApiOkResponse({ type: DeliveryResponseView, description: 'Every alert phase in it was already accepted' })
  @ApiErrors(
    { status: 400, description: 'Malformed JSON, not UTF-8, or a payload the format refuses (the field is named); recorded, never worth retrying' },
    { status: 401, description: 'Unknown or disabled integration, or a missing or wrong secret (reason credential_rejected)' },
    { status: 413, description: 'Body over 1 MiB' },
    { status: 415, description: 'Not JSON' },
    { status: 503, description: 'Admission pressure or the database unavailable; retry after Retry-After' },
  )
  receive(@Param('integration') integrationId: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.handler.receive(integrationId, req, res);
  }
}
