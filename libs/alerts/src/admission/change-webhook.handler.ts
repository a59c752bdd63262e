import { Injectable, OnModuleInit } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { WebhookReceiver } from '@svc/integrations';
import { DomainError, isUuid, LeanRoutes, sendJson, UnauthenticatedError } from '@svc/platform';
import { ChangeAdmissionService } from './change-admission.service';
import { ReceivedDelivery, WebhookAdmissionGate } from './webhook-admission-gate';
import { presentedSecret, presentedSignature, recordableHeaders, signedWith } from './webhook-request';

function rejected(): UnauthenticatedError {
  return new UnauthenticatedError('credential_rejected', 'Unknown integration or wrong webhook credential');
}

/** The secret a change-event sender presents: the alert webhooks' headers, or GitLab's `X-Gitlab-Token`. */
function presentedChangeSecret(req: IncomingMessage): string | undefined {
  const gitlab = req.headers['x-gitlab-token'];
  return presentedSecret(req) ?? (typeof gitlab === 'string' && gitlab.length > 0 ? gitlab : undefined);
}

/**
 * Receives a change-event delivery, with the admission rules of alert webhooks (decisions §8) and
 * the same budget of requests in flight. A sender that presents the secret (`X-Svc-Token`,
 * `Authorization: Bearer`, `X-Gitlab-Token`) is authenticated from the headers alone, before the
 * body is read; one that signs the body with it (GitHub's `X-Hub-Signature-256`, Flux's
 * `X-Signature`) once the body is read (an oversized body is then 413 before authentication and
 * not recorded). Every credential failure is the same 401. A lean route, like the alert webhook's.
 */
@Injectable()
export class ChangeWebhookHandler implements OnModuleInit {
  constructor(
    private readonly admission: ChangeAdmissionService,
    private readonly gate: WebhookAdmissionGate,
    private readonly leanRoutes: LeanRoutes,
  ) {}

  onModuleInit(): void {
    this.leanRoutes.register({
      method: 'POST',
      pattern: /^\/webhooks\/v1\/integrations\/([^/]+)\/change-events$/,
      template: '/webhooks/v1/integrations/:integration/change-events',
      handle: (req, res, [integrationId]) => this.receive(integrationId, req, res),
    });
  }

  receive(integrationId: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
    return this.gate.inFlightSlot(() => this.receiveNow(integrationId, req, res));
  }

  private async receiveNow(integrationId: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const secret = presentedChangeSecret(req);
    const signature = secret === undefined ? presentedSignature(req) : undefined;
    const delivery: ReceivedDelivery = { headers: recordableHeaders(req), body: null };
    let receiver: WebhookReceiver | null;
    let raw: Buffer | undefined;
    if (signature) {
      raw = await this.gate.readBody(req);
      const body = raw;
      receiver = isUuid(integrationId) ? await this.gate.authenticateSigned(integrationId, (s) => signedWith(signature, body, s)) : null;
    } else {
      receiver = isUuid(integrationId) ? await this.gate.authenticate(integrationId, secret) : null;
    }
    // An alert integration's secret authenticates only its own route.
    if (!receiver || receiver.format !== 'changes') throw rejected();
    await this.gate.acceptBody(receiver, req, delivery, raw);
    const outcome = await this.admission.admit(receiver, delivery);
    if (outcome.kind === 'refused') throw new DomainError('invalid_input', outcome.error);
    sendJson(res, outcome.status, outcome.response);
  }
}
