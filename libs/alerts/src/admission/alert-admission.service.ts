import { Injectable, Logger } from '@nestjs/common';
import { Gauge, Histogram } from 'prom-client';
import { EntityManager } from 'typeorm';
import { ALERT_BATCH_UNPLACED, AdmissionInput, AdmissionResult, DEFAULT_GROUPING_LABELS, IncidentAdmissionService } from '@svc/incidents';
import { WebhookReceiver } from '@svc/integrations';
import { Metrics, newId, Timestamp } from '@svc/platform';
import { parsePayload } from '../payloads/parse-payload';
import { DeliveryAdmission, DeliveryRecordsRepository } from './delivery-records.repository';
import { AdmissionPressure, ReceivedDelivery, RefusedDelivery, staleCredential, WebhookAdmissionGate } from './webhook-admission-gate';

export interface DeliveryResponse {
  deliveryId: string;
  accepted: number;
  duplicates: number;
  incidentIds: string[];
}

/** Admitted (202, or 200 for an exact retry), or refused for its content (400) and recorded all the same. */
export type AdmissionOutcome = { kind: 'admitted'; status: 200 | 202; response: DeliveryResponse } | RefusedDelivery;

/**
 * Batches committing at once per API process; deliveries arriving meanwhile wait for the next
 * batch. One: the batch is a single statement, so the API has nothing to overlap with it but the
 * next requests, which it reads and parses meanwhile; a second batch would mostly wait for the
 * same incident locks and halve the deliveries each commit carries.
 */
const CONCURRENT_BATCHES = 1;
/** Deliveries admitted in one transaction at most. */
const MAX_BATCH = 128;
/** Deliveries of a batch admitted one by one at once, when the batch cannot be admitted together. */
const ONE_BY_ONE_CONCURRENCY = 4;

/**
 * What became of a batch's statement (the `outcome` of alert_admission_batch_deliveries):
 * `admitted` together; `stale`, a credential changed, those deliveries answered 401 and the rest
 * batched again; `unplaced` (a group with no open incident to go to) or `failed` (a deadlock, a
 * delivery the database refused), its deliveries then admitted one by one; `unavailable`, no
 * database connection within the wait, all answered 503.
 */
type BatchOutcome = 'admitted' | 'stale' | 'unplaced' | 'failed' | 'unavailable';

interface PendingAdmission {
  receiver: WebhookReceiver;
  delivery: ReceivedDelivery;
  input: AdmissionInput;
  /** What was repaired to keep the alerts (ParsedDelivery.repairs), recorded with the delivery. */
  note: string | null;
  resolve: (outcome: AdmissionOutcome) => void;
  reject: (error: unknown) => void;
}

/** Most repairs listed in a delivery's record; the count says how many there were in all. */
const REPAIRS_SHOWN = 20;

/** The record of an accepted delivery whose values were repaired (decisions §4, §8): in its `error`, which is otherwise null when accepted. */
function repairNote(repairs: string[]): string {
  const shown = repairs.slice(0, REPAIRS_SHOWN).join('; ');
  const more = repairs.length > REPAIRS_SHOWN ? `; and ${repairs.length - REPAIRS_SHOWN} more` : '';
  return `Accepted with ${repairs.length} value(s) repaired: ${shown}${more}`;
}

/**
 * Turns an authenticated delivery into alert events and incidents, and records the delivery, in
 * one transaction: when the sender gets 202 (or 200 for an exact retry), everything is committed.
 */
@Injectable()
export class AlertAdmissionService {
  private readonly logger = new Logger(AlertAdmissionService.name);
  private readonly waiting: PendingAdmission[] = [];
  private batchesRunning = 0;
  /** Deliveries per batch statement, by what became of it: how much batching carries, and how often it falls back. */
  private readonly batchDeliveries: Histogram<'outcome'>;

  constructor(
    private readonly gate: WebhookAdmissionGate,
    private readonly incidentAdmission: IncidentAdmissionService,
    private readonly deliveryRecords: DeliveryRecordsRepository,
    metrics: Metrics,
  ) {
    this.batchDeliveries = new Histogram({
      name: 'alert_admission_batch_deliveries',
      help: 'Webhook deliveries per admission batch (one statement), by outcome: admitted, stale, unplaced, failed (then one by one), unavailable',
      labelNames: ['outcome'],
      buckets: [1, 2, 4, 8, 16, 32, 64, 128],
      registers: [metrics.registry],
    });
    const waiting = this.waiting;
    new Gauge({
      name: 'alert_admission_waiting_deliveries',
      help: 'Webhook deliveries parsed and waiting for the next admission batch',
      registers: [metrics.registry],
      collect() {
        this.set(waiting.length);
      },
    });
  }

  /**
   * Admits, or refuses for the content (400, recorded); AdmissionPressure (503) when it cannot take
   * it now. Deliveries that arrive while earlier ones are being committed wait and are admitted
   * together, in one transaction: the commit, not the request, is the unit of cost.
   */
  async admit(receiver: WebhookReceiver, delivery: ReceivedDelivery): Promise<AdmissionOutcome> {
    const receivedAt = Timestamp.now();
    const body = this.gate.parseJson(delivery);
    if (!body.ok) return this.gate.refuse(receiver, delivery, body.error);
    const json = body.json;
    // Change-event integrations never reach here: their route and replay go to ChangeAdmissionService.
    if (receiver.format === 'changes') throw new Error('A change-event delivery is not admitted as alerts');
    const parsed = parsePayload(receiver.format, json, receivedAt);
    if (!parsed.ok) return this.gate.refuse(receiver, delivery, parsed.error);
    const input: AdmissionInput = {
      integrationId: receiver.integrationId,
      groupingLabels: receiver.groupingLabels ?? DEFAULT_GROUPING_LABELS,
      groupKey: parsed.delivery.groupKey,
      deliveryId: newId(),
      receivedAt,
      alerts: parsed.delivery.alerts,
    };
    const note = parsed.delivery.repairs ? repairNote(parsed.delivery.repairs) : null;
    return new Promise((resolve, reject) => {
      this.waiting.push({ receiver, delivery, input, note, resolve, reject });
      this.dispatch();
    });
  }

  /**
   * Starts batches while fewer than CONCURRENT_BATCHES run; each takes what waits, up to MAX_BATCH.
   * A batch gives its place up when its statement is done, or when its deliveries go one by one
   * (they hold connections of their own, and the next batch need not wait for them).
   */
  private dispatch(): void {
    while (this.batchesRunning < CONCURRENT_BATCHES && this.waiting.length > 0) {
      const batch = this.waiting.splice(0, MAX_BATCH);
      this.batchesRunning += 1;
      let running = true;
      const giveUpPlace = (): void => {
        if (!running) return;
        running = false;
        this.batchesRunning -= 1;
        this.dispatch();
      };
      void this.admitBatch(batch, giveUpPlace).finally(giveUpPlace);
    }
  }

  /**
   * The whole batch in one statement, so in one round trip and a transaction of its own (see
   * DeliveryRecordsRepository.admitAcrossOrganizations); when that cannot be (a group with no open
   * incident to go to, a deadlock, a delivery the database refuses), each delivery is admitted in
   * a transaction of its own, so one delivery's problem is never another's. Deliveries whose
   * secret changed since they were authenticated are answered 401 and the others admitted again.
   */
  private async admitBatch(batch: PendingAdmission[], giveUpPlace: () => void): Promise<void> {
    try {
      const admissions = await this.gate.withConnection((manager) => this.admitTogether(manager, batch), { transaction: false, errors: 'raw' });
      const stale = batch.filter((_, i) => admissions[i]?.statusCode === 401);
      if (stale.length > 0) {
        this.observeBatch('stale', batch);
        for (const pending of stale) pending.reject(staleCredential());
        const current = batch.filter((_, i) => admissions[i]?.statusCode !== 401);
        if (current.length > 0) await this.admitBatch(current, giveUpPlace);
        return;
      }
      // Every outcome first, so a missing one (which the statement never returns) resolves none of them.
      const outcomes = batch.map((pending, i) => this.outcomeOf(pending, admissions[i]));
      this.observeBatch('admitted', batch);
      batch.forEach((pending, i) => pending.resolve(outcomes[i]));
      return;
    } catch (error) {
      if (error instanceof AdmissionPressure) {
        this.observeBatch('unavailable', batch);
        for (const pending of batch) pending.reject(error);
        return;
      }
      if ((error as { code?: string }).code === ALERT_BATCH_UNPLACED) this.observeBatch('unplaced', batch);
      else {
        this.observeBatch('failed', batch);
        this.logger.warn({ err: error, deliveries: batch.length }, 'Batch admission failed; admitting its deliveries one by one');
      }
    }
    giveUpPlace();
    // A few at a time: a whole batch at once would hold up to MAX_BATCH connections, most of them
    // waiting for the same incident's lock, and leave later deliveries none within the wait.
    const queue = [...batch];
    const admitNext = async (): Promise<void> => {
      for (let pending = queue.shift(); pending; pending = queue.shift()) await this.admitAlone(pending);
    };
    await Promise.all(Array.from({ length: Math.min(ONE_BY_ONE_CONCURRENCY, queue.length) }, admitNext));
  }

  private observeBatch(outcome: BatchOutcome, batch: PendingAdmission[]): void {
    this.batchDeliveries.observe({ outcome }, batch.length);
  }

  /** One delivery in a transaction of its own, alert by alert (IncidentAdmissionService.admit); settles it. */
  private async admitAlone(pending: PendingAdmission): Promise<void> {
    try {
      pending.resolve(
        await this.gate.withConnection(async (manager) => {
          if ((await this.confirmCredentials(manager, [pending])).stale.length > 0) throw staleCredential();
          const result = await this.incidentAdmission.admit(manager, pending.receiver.organizationId, pending.input);
          const [outcome] = await this.recordAdmitted(manager, [pending], [result]);
          return outcome;
        }),
      );
    } catch (error) {
      pending.reject(error);
    }
  }

  /** The batch admitted and recorded in one statement; what became of each delivery, in batch order. */
  private admitTogether(manager: EntityManager, batch: PendingAdmission[]): Promise<Array<DeliveryAdmission | undefined>> {
    return this.deliveryRecords.admitAcrossOrganizations(
      batch.map((pending) => ({
        organizationId: pending.receiver.organizationId,
        id: pending.input.deliveryId,
        integrationId: pending.receiver.integrationId,
        credential: pending.receiver.credential ?? null,
        error: pending.note,
        headers: pending.delivery.headers,
        body: pending.delivery.body,
        replayOf: pending.delivery.replayOf ?? null,
      })),
      this.incidentAdmission.planBatch(batch.map((p) => ({ organizationId: p.receiver.organizationId, input: p.input }))),
      manager,
    );
  }

  /** A delivery recorded with 202 or 200 (`admitTogether` answers 401 only for stale credentials, taken out before). */
  private outcomeOf(pending: PendingAdmission, admission: DeliveryAdmission | undefined): AdmissionOutcome {
    if (!admission) throw new Error(`The batch statement returned no outcome for delivery ${pending.input.deliveryId}`);
    const { statusCode, accepted, duplicates, incidentIds } = admission;
    return { kind: 'admitted', status: statusCode as 200 | 202, response: { deliveryId: pending.input.deliveryId, accepted, duplicates, incidentIds } };
  }

  /**
   * Splits a batch into the deliveries whose secret is still current and those whose secret was
   * rotated, or whose integration was disabled or deleted, since they were authenticated. Runs
   * first in the admitting transaction and locks the integration rows against such changes until
   * it commits, so what it decided holds at the commit.
   */
  private async confirmCredentials(manager: EntityManager, batch: PendingAdmission[]): Promise<{ current: PendingAdmission[]; stale: PendingAdmission[] }> {
    const still = await this.gate.stillCurrent(
      manager,
      batch.map((p) => p.receiver),
    );
    return { current: batch.filter((_, i) => still[i]), stale: batch.filter((_, i) => !still[i]) };
  }

  /** Records admitted deliveries (202, or 200 when every alert phase in one was already accepted). */
  private async recordAdmitted(manager: EntityManager, batch: PendingAdmission[], results: AdmissionResult[]): Promise<AdmissionOutcome[]> {
    const outcomes = batch.map((pending, i) => {
      const result = results[i];
      const status: 200 | 202 = result.accepted === 0 && result.duplicates > 0 ? 200 : 202;
      return { kind: 'admitted' as const, status, response: { deliveryId: pending.input.deliveryId, ...result } };
    });
    await this.gate.insertDeliveries(
      manager,
      batch.map((pending, i) => ({
        receiver: pending.receiver,
        id: pending.input.deliveryId,
        delivery: pending.delivery,
        statusCode: outcomes[i].status,
        result: results[i],
        error: pending.note,
      })),
    );
    return outcomes;
  }
}
