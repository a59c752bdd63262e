import { Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ApiErrors, Public } from '@svc/platform';
import { ChatWebhookHandler } from './chat-webhook.handler';

/** The provider's event envelope, as far as the service reads it. */
const CHAT_EVENT_SCHEMA = {
  type: 'object',
  properties: {
    type: { type: 'string', description: '`url_verification` or `event_callback`; others are acknowledged and ignored' },
    challenge: { type: 'string', maxLength: 1024, description: 'url_verification: answered back' },
    team_id: { type: 'string', description: 'The workspace: with api_app_id, names the chat integration' },
    api_app_id: { type: 'string' },
    event_id: { type: 'string', description: 'Processed once, however often it is delivered' },
    event: {
      type: 'object',
      description: '`app_mention`, or `message` in a thread that has a conversation; from bots and other kinds: ignored',
      properties: {
        type: { type: 'string' },
        user: { type: 'string' },
        text: { type: 'string' },
        channel: { type: 'string' },
        ts: { type: 'string' },
        thread_ts: { type: 'string' },
        bot_id: { type: 'string' },
        subtype: { type: 'string' },
      },
      additionalProperties: true,
    },
  },
  additionalProperties: true,
};

/**
 * Chat events (decisions §9). Answered by ChatWebhookHandler as a lean route ahead of Nest's
 * router; this route documents the operation and receives what falls through.
 */
@ApiTags('webhooks')
@Controller('webhooks/v1/chat')
export class ChatWebhookController {
  constructor(private readonly handler: ChatWebhookHandler) {}

  @Public()
  @Post('events')
  @HttpCode(200)
  @ApiHeader({ name: 'X-Svc-Request-Timestamp', required: true, description: 'Unix seconds; more than 5 minutes away from now either way is 401' })
  @ApiHeader({ name: 'X-Svc-Signature', required: true, description: '`v0=` and the hex HMAC-SHA256 of `v0:{timestamp}:{raw body}` under the signing secret' })
  @ApiBody({ schema: CHAT_EVENT_SCHEMA })
  @ApiOkResponse({
    description: '`{challenge}` for url_verification; otherwise `{}`: taken in (processed once), already taken in, or ignored',
    schema: { type: 'object', properties: { challenge: { type: 'string' } }, additionalProperties: false },
  })
  @ApiErrors(
    { status: 400, description: 'Not a JSON object, or an event_callback without event_id or event' },
    { status: 401, description: 'No chat integration of the workspace and app, a stale or future timestamp, or a bad signature (reason credential_rejected)' },
    { status: 413, description: 'Body over the limit' },
    { status: 415, description: 'Not JSON' },
    { status: 429, description: 'Admission pressure: retry after Retry-After' },
  )
  receive(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.handler.receive(req, res);
  }
}
