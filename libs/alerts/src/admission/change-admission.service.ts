import { Injectable } from '@nestjs/common';
import { ChangesService, parseChangeEvent } from '@svc/changes';
import { WebhookReceiver } from '@svc/integrations';
import { newId, Timestamp } from '@svc/platform';
import { ReceivedDelivery, RefusedDelivery, staleCredential, WebhookAdmissionGate } from './webhook-admission-gate';

/** The answer to an admitted change-event delivery. */
export interface ChangeDeliveryResponse {
  deliveryId: string;
  /** Changes newly recorded. */
  accepted: number;
  /** Changes the integration had already brought (the same sender id). */
  duplicates: number;
  /** Every change of the delivery, new or repeated. */
  changeIds: string[];
  /** Why an authentic event held no change (a ping, a push to another branch, a deploy still running). */
  ignored?: string;
}

export type ChangeAdmissionOutcome = { kind: 'admitted'; status: 200 | 202; response: ChangeDeliveryResponse } | RefusedDelivery;

/** Most repairs listed in a delivery's record; the count says how many there were in all. */
const REPAIRS_SHOWN = 20;

/** What the delivery's record says beside its counts: the event ignored, the values repaired. */
function noteOf(ignored: string | undefined, repairs: string[] | undefined): string | null {
  const parts: string[] = [];
  if (ignored) parts.push(`No change recorded: ${ignored}`);
  if (repairs?.length) {
    const more = repairs.length > REPAIRS_SHOWN ? `; and ${repairs.length - REPAIRS_SHOWN} more` : '';
    parts.push(`Accepted with ${repairs.length} value(s) repaired: ${repairs.slice(0, REPAIRS_SHOWN).join('; ')}${more}`);
  }
  return parts.length > 0 ? parts.join('. ') : null;
}

/**
 * Turns an authenticated change-event delivery into recorded changes and records the delivery,
 * in one transaction: when the sender gets 202 (or 200 when every change in it was already
 * recorded), both are committed. A body that cannot be read as any change-event format is 400,
 * recorded like every authenticated delivery.
 */
@Injectable()
export class ChangeAdmissionService {
  constructor(
    private readonly gate: WebhookAdmissionGate,
    private readonly changes: ChangesService,
  ) {}

  async admit(receiver: WebhookReceiver, delivery: ReceivedDelivery): Promise<ChangeAdmissionOutcome> {
    const receivedAt = Timestamp.now();
    const body = this.gate.parseJson(delivery);
    if (!body.ok) return this.gate.refuse(receiver, delivery, body.error);
    const result = parseChangeEvent(delivery.headers, body.json, receivedAt);
    if (!result.ok) return this.gate.refuse(receiver, delivery, result.error);
    const { parsed } = result;
    const deliveryId = newId();
    return this.gate.withConnection(async (manager) => {
      const [current] = await this.gate.stillCurrent(manager, [receiver]);
      if (!current) throw staleCredential();
      const recorded = await this.changes.record(
        manager,
        receiver.organizationId,
        { integrationId: receiver.integrationId, deliveryId },
        parsed.source,
        parsed.changes,
      );
      const accepted = recorded.filter((r) => !r.duplicate).length;
      const duplicates = recorded.length - accepted;
      const status: 200 | 202 = accepted === 0 && duplicates > 0 ? 200 : 202;
      await this.gate.insertDeliveries(manager, [
        {
          receiver,
          id: deliveryId,
          delivery,
          statusCode: status,
          result: { accepted, duplicates, incidentIds: [] },
          error: noteOf(parsed.ignored, parsed.repairs),
        },
      ]);
      const response: ChangeDeliveryResponse = { deliveryId, accepted, duplicates, changeIds: [...new Set(recorded.map((r) => r.id))] };
      return { kind: 'admitted', status, response: parsed.ignored ? { ...response, ignored: parsed.ignored } : response };
    });
  }
}
