import { Injectable, OnModuleInit } from '@nestjs/common';
import type { Request, Response } from 'express';
import getRawBody from 'raw-body';
import { AppConfig, DomainError, LeanRoutes } from '@svc/platform';
import { ChatIntakeService } from './chat-intake.service';

const header = (req: Request, name: string): string | undefined => {
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

  receive(req: Request, res: Response): Promise<void> {
    return this.intake.inFlightSlot(() => this.receiveNow(req, res));
  }

  private async receiveNow(req: Request, res: Response): Promise<void> {
    if (!req.is(['application/json', 'application/*+json'])) throw new DomainError('unsupported_media_type', 'Unsupported media type: send application/json');
    const limit = this.config.SVC_JSON_BODY_LIMIT;
    const declared = Number(req.headers['content-length'] ?? NaN);
    if (declared > limit) throw new DomainError('payload_too_large', `Request body too large: the limit is ${limit} bytes`);
    let raw: Buffer;
    try {
      raw = await getRawBody(req, { limit, length: Number.isNaN(declared) ? undefined : declared });
    } catch (error) {
      if ((error as { type?: string }).type === 'entity.too.large')
        throw new DomainError('payload_too_large', `Request body too large: the limit is ${limit} bytes`);
      throw new DomainError('invalid_input', 'The request body could not be read');
    }
    const ack = await this.intake.receive({ timestamp: header(req, 'x-svc-request-timestamp'), signature: header(req, 'x-svc-signature') }, raw);
    res.status(ack.status).json(ack.body);
  }
}
