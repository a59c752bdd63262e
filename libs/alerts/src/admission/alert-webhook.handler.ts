import { Injectable, OnModuleInit } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { DomainError, isUuid, LeanRoutes, sendJson, UnauthenticatedError } from '@svc/platform';
import { AlertAdmissionService } from './alert-admission.service';
import { ReceivedDelivery, WebhookAdmissionGate } from './webhook-admission-gate';
import { presentedSecret, recordableHeaders } from './webhook-request';

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
    private readonly gate: WebhookAdmissionGate,
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

  receive(integrationId: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
    return this.gate.inFlightSlot(() => this.receiveNow(integrationId, req, res));
  }

  private async receiveNow(integrationId: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const receiver = isUuid(integrationId) ? await this.gate.authenticate(integrationId, presentedSecret(req)) : null;
    // A change-event integration's secret authenticates only its own route.
    if (!receiver || receiver.format === 'changes') throw new UnauthenticatedError('credential_rejected', 'Unknown integration or wrong webhook credential');
    const delivery: ReceivedDelivery = { headers: recordableHeaders(req), body: null };
    await this.gate.acceptBody(receiver, req, delivery);
    const outcome = await this.admission.admit(receiver, delivery);
    if (outcome.kind === 'refused') throw new DomainError('invalid_input', outcome.error);
    sendJson(res, outcome.status, outcome.response);
  }
}
