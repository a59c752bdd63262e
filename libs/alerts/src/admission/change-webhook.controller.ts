import { Controller, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBody, ApiOkResponse, ApiParam, ApiProperty, ApiPropertyOptional, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ApiErrors, Public } from '@svc/platform';
import { ChangeWebhookHandler } from './change-webhook.handler';

/** The answer to an admitted change-event delivery (202, or 200 when every change in it was already recorded). */
export class ChangeDeliveryResponseView {
  @ApiProperty({ format: 'uuid' }) deliveryId!: string;
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Changes newly recorded' }) accepted!: number;
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Changes the integration had already brought (the same sender id)' }) duplicates!: number;
  @ApiProperty({ type: String, format: 'uuid', isArray: true, description: 'Every change of the delivery, new or repeated' }) changeIds!: string[];
  @ApiPropertyOptional({ description: 'Why an authentic event held no change (a ping, a push to another branch, a deploy still running)' })
  ignored?: string;
}

/**
 * Change-event webhooks. Deliveries are answered by ChangeWebhookHandler as a lean route ahead of
 * Nest's router; this route documents the operation and receives what falls through.
 */
@ApiTags('webhooks')
@Controller('webhooks/v1/integrations')
export class ChangeWebhookController {
  constructor(private readonly handler: ChangeWebhookHandler) {}

  @Public()
  @Post(':integration/change-events')
  @HttpCode(202)
  @ApiSecurity('webhookToken')
  @ApiSecurity('webhookBearer')
  @ApiParam({ name: 'integration', type: String, format: 'uuid', description: 'A changes integration; an unknown one is the same 401 as a wrong secret' })
  @ApiBody({
    description:
      'A change event, recognised by its headers or shape (docs/api.md, "Change events"): the generic format, PagerDuty Change Events v2, ' +
      'GitHub deployment_status, release and push (signed with X-Hub-Signature-256), GitLab Deployment and Pipeline hooks (X-Gitlab-Token), ' +
      'Argo CD notifications with the documented template, and Flux notification-controller events (X-Signature with generic-hmac)',
    schema: { type: 'object', additionalProperties: true },
  })
  @ApiAcceptedResponse({ type: ChangeDeliveryResponseView, description: 'The delivery and its changes are committed' })
  @ApiOkResponse({ type: ChangeDeliveryResponseView, description: 'Every change in it was already recorded' })
  @ApiErrors(
    { status: 400, description: 'Malformed JSON, not UTF-8, or a body no change-event format reads (the field is named); recorded, never worth retrying' },
    {
      status: 401,
      description: 'Unknown or disabled integration, not a changes integration, or a missing or wrong secret or signature (reason credential_rejected)',
    },
    { status: 413, description: 'Body over 1 MiB' },
    { status: 415, description: 'Not JSON' },
    { status: 503, description: 'Admission pressure or the database unavailable; retry after Retry-After' },
  )
  receive(@Param('integration') integrationId: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.handler.receive(integrationId, req, res);
  }
}
