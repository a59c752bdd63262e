import { Injectable, OnModuleInit } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AppConfig, DomainError, isUuid, LeanRoutes, PayloadTooLarge, readLimitedBody, sendJson, UnauthenticatedError } from '@svc/platform';
import { AlertAdmissionService, ReceivedDelivery } from './alert-admission.service';

const CREDENTIAL_HEADERS = new Set(['authorization', 'x-svc-token', 'cookie', 'proxy-authorization']);

function presentedSecret(req: Request): string | undefined {
  const token = req.headers['x-svc-token'];
  if (typeof token === 'string' && token.length > 0) return token;
  return /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
}

function recordableHeaders(req: Request): Record<string, string> {
  return Object.fromEntries(
    Object.entries(req.headers)
      .filter(([name]) => !CREDENTIAL_HEADERS.has(name))
      .map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : String(value)]),
  );
}

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * A body as text that PostgreSQL can store (NUL replaced by U+FFFD, invalid UTF-8 decoded with
 * replacement), and why it is refused when it is: not UTF-8, or a raw NUL (a control character
 * JSON never allows, inside a string or out). NUL written as the escape `\u0000` is JSON and is
 * left to the parser.
 */
function readText(raw: Buffer): { recordable: string; problem?: string } {
  let text: string;
  try {
    text = STRICT_UTF8.decode(raw);
  } catch {
    return { recordable: raw.toString('utf8').replaceAll('\u0000', '\ufffd'), problem: 'Malformed body: not valid UTF-8' };
  }
  if (text.includes('\u0000')) return { recordable: text.replaceAll('\u0000', '\ufffd'), problem: 'Malformed JSON body: a raw NUL character' };
  return { recordable: text };
}

/**
 * Receives an alert webhook delivery (decisions §8). Authentication comes first, from the headers
 * alone, so that every credential failure is the same 401 and an oversized body is refused before
 * it is read. It answers as a lean route, ahead of Nest's router (the route is public and needs
 * none of the guards, interceptors or body parsing); the controller of the same path, which
 * OpenAPI documents, calls the same code for requests that fall through to Nest.
 */
@Injectable()
export class AlertWebhookHandler implements OnModuleInit {
  constructor(
    private readonly admission: AlertAdmissionService,
    private readonly config: AppConfig,
    private readonly leanRoutes: LeanRoutes,
  ) {}

  onModuleInit(): void {
    this.leanRoutes.register({
      method: 'POST',
      pattern: /^\/webhooks\/v1\/integrations\/([^/]+)\/alert-events$/,
      template: '/webhooks/v1/integrations/:integration/alert-events',
      handle: (req, res, [integrationId]) => this.receive(integrationId, req, res),
    });
  }

  receive(integrationId: string, req: Request, res: Response): Promise<void> {
    return this.admission.inFlightSlot(() => this.receiveNow(integrationId, req, res));
  }

  private async receiveNow(integrationId: string, req: Request, res: Response): Promise<void> {
    const receiver = isUuid(integrationId) ? await this.admission.authenticate(integrationId, presentedSecret(req)) : null;
    if (!receiver) throw new UnauthenticatedError('credential_rejected', 'Unknown integration or wrong webhook credential');
    const delivery: ReceivedDelivery = { headers: recordableHeaders(req), body: null };

    if (!req.is(['application/json', 'application/*+json'])) {
      await this.admission.recordRefusal(receiver, delivery, 415, 'Unsupported media type');
      throw new DomainError('unsupported_media_type', 'Unsupported media type: send application/json');
    }
    let raw: Buffer;
    try {
      raw = await readLimitedBody(req, this.config.SVC_JSON_BODY_LIMIT);
    } catch (error) {
      if (error instanceof PayloadTooLarge) await this.admission.recordRefusal(receiver, delivery, 413, error.recordedAs);
      throw error;
    }
    const text = readText(raw);
    delivery.body = text.recordable;
    if (text.problem) {
      // Refused for good (400) and recorded: a 503 here made senders retry a poison message forever.
      await this.admission.recordRefusal(receiver, delivery, 400, text.problem);
      throw new DomainError('invalid_input', text.problem);
    }
    const outcome = await this.admission.admit(receiver, delivery);
    if (outcome.kind === 'refused') throw new DomainError('invalid_input', outcome.error);
    sendJson(res, outcome.status, outcome.response);
  }
}
