import { Injectable, OnModuleInit } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AppConfig, DomainError, isJsonBody, LeanRoutes, readLimitedBody, sendJson } from '@svc/platform';
import { ChatIntakeService } from './chat-intake.service';

const header = (req: IncomingMessage, name: string): string | undefined => {
  const value = req.headers[name];
  return typeof value === 'string' ? value : undefined;
};

/**
 * Receives chat events (decisions §9) as a lean route, ahead of Nest's router: the provider
 * wants its acknowledgement within 3 s, and the route needs none of the guards or body parsing
 * (the signature is over the raw body). The controller of the same path documents it and calls
 * the same code for requests that fall through.
 */
@Injectable()
export class ChatWebhookHandler implements OnModuleInit {
  constructor(
    private readonly intake: ChatIntakeService,
    private readonly config: AppConfig,
    private readonly leanRoutes: LeanRoutes,
  ) {}

  onModuleInit(): void {
    this.leanRoutes.register({
      method: 'POST',
      pattern: /^\/webhooks\/v1\/chat\/events$/,
      template: '/webhooks/v1/chat/events',
      handle: (req, res) => this.receive(req, res),
    });
  }

  receive(req: IncomingMessage, res: ServerResponse): Promise<void> {
    return this.intake.inFlightSlot(() => this.receiveNow(req, res));
  }

  private async receiveNow(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!isJsonBody(req)) throw new DomainError('unsupported_media_type', 'Unsupported media type: send application/json');
    const raw = await readLimitedBody(req, this.config.SVC_JSON_BODY_LIMIT);
    const ack = await this.intake.receive({ timestamp: header(req, 'x-svc-request-timestamp'), signature: header(req, 'x-svc-signature') }, raw);
    sendJson(res, ack.status, ack.body);
  }
}
