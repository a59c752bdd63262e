import { Controller, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiHeader, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '@svc/platform';
import { AlertWebhookHandler } from './alert-webhook.handler';

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
  @ApiHeader({ name: 'X-Svc-Token', required: false, description: "The integration's webhook secret (or Authorization: Bearer <secret>)" })
  @ApiAcceptedResponse({ description: '{deliveryId, accepted, duplicates, incidentIds}: the delivery and its alerts are committed and grouped' })
  @ApiOkResponse({ description: 'The same shape: every alert phase in it was already accepted' })
  receive(@Param('integration') integrationId: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.handler.receive(integrationId, req, res);
  }
}
