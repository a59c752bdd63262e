import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, QueryRunner } from 'typeorm';
import { DEFAULT_GROUPING_LABELS, IncidentsService } from '@svc/incidents';
import { IntegrationsService, WebhookReceiver } from '@svc/integrations';
import { DomainError, newId, Timestamp } from '@svc/platform';
import { parsePayload } from '../payloads/parse-payload';

export interface DeliveryResponse {
  deliveryId: string;
  accepted: number;
  duplicates: number;
  incidentIds: string[];
}

/** Admitted (202, or 200 for an exact retry), or refused for its content (400) and recorded all the same. */
export type AdmissionOutcome =
  | { kind: 'admitted'; status: 200 | 202; response: DeliveryResponse }
  | { kind: 'refused'; status: 400; deliveryId: string; error: string };

export interface ReceivedDelivery {
  headers: Record<string, string>;
  body: string | null;
  replayOf?: string;
}

/** In-flight admissions past which senders are told to back off (decisions §8). */
export const MAX_IN_FLIGHT = 256;
/** How long an admission waits for a database connection before answering 503. */
export const CONNECTION_WAIT_MS = 250;

export class AdmissionPressure extends DomainError {
  constructor(message: string) {
    super('unavailable', message, { retryAfterSeconds: 1 });
  }
}

/**
 * Turns an authenticated delivery into alert events and incidents, and records the delivery, in
 * one transaction: when the sender gets 202 (or 200 for an exact retry), everything is committed.
 */
@Injectable()
export class AlertAdmissionService {
  private readonly logger = new Logger(AlertAdmissionService.name);
  private inFlight = 0;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly incidents: IncidentsService,
    private readonly integrations: IntegrationsService,
  ) {}

  /**
   * Counts a whole webhook request (authentication, reading, admission) against MAX_IN_FLIGHT;
   * past it the sender is told to back off before any work is done.
   */
  async inFlightSlot<T>(work: () => Promise<T>): Promise<T> {
    if (this.inFlight >= MAX_IN_FLIGHT) throw new AdmissionPressure('Too many deliveries in flight; retry shortly');
    this.inFlight += 1;
    try {
      return await work();
    } finally {
      this.inFlight -= 1;
    }
  }

  /** The integration a delivery is for, under the same connection budget as admission itself. */
  authenticate(integrationId: string, secret: string | undefined): Promise<WebhookReceiver | null> {
    return this.withConnection((manager) => this.integrations.authenticateWebhook(integrationId, secret, manager), { transaction: false });
  }


  /** Records a delivery refused before admission (400, 413, 415), so it shows in the deliveries list. */
  async recordRefusal(receiver: WebhookReceiver, delivery: ReceivedDelivery, statusCode: number, error: string): Promise<string> {
    const id = newId();
    await this.withConnection((manager) => this.insertDelivery(manager, receiver, id, delivery, statusCode, { accepted: 0, duplicates: 0, incidentIds: [] }, error));
    return id;
  }

  /** Admits, or refuses for the content (400, recorded); AdmissionPressure (503) when it cannot take it now. */
  async admit(receiver: WebhookReceiver, delivery: ReceivedDelivery): Promise<AdmissionOutcome> {
    const receivedAt = Timestamp.now();
    const refuse = async (error: string): Promise<AdmissionOutcome> => ({ kind: 'refused', status: 400, error, deliveryId: await this.recordRefusal(receiver, delivery, 400, error) });
    let json: unknown;
    try {
      json = JSON.parse(delivery.body ?? '');
    } catch {
      return refuse('Malformed JSON body');
    }
    const parsed = parsePayload(receiver.format, json, receivedAt);
    if (!parsed.ok) return refuse(parsed.error);
    const deliveryId = newId();
    return this.withConnection(async (manager) => {
      const result = await this.incidents.admit(manager, receiver.organizationId, {
        integrationId: receiver.integrationId,
        groupingLabels: receiver.groupingLabels ?? DEFAULT_GROUPING_LABELS,
        groupKey: parsed.delivery.groupKey,
        deliveryId,
        receivedAt,
        alerts: parsed.delivery.alerts,
      });
      const status = result.accepted === 0 && result.duplicates > 0 ? 200 : 202;
      await this.insertDelivery(manager, receiver, deliveryId, delivery, status, result, null);
      return { kind: 'admitted' as const, status, response: { deliveryId, ...result } };
    });
  }

  /**
   * A transaction on a connection obtained within CONNECTION_WAIT_MS; otherwise, or when the
   * database is unreachable, 503 with Retry-After: never a 500, never a hang.
   */
  private async withConnection<T>(work: (manager: EntityManager) => Promise<T>, options: { transaction: boolean } = { transaction: true }): Promise<T> {
    const runner: QueryRunner = this.dataSource.createQueryRunner();
    let timer: NodeJS.Timeout | undefined;
    const connected = runner.connect();
    try {
      await Promise.race([connected, new Promise((_, reject) => { timer = setTimeout(() => reject(new AdmissionPressure('No database connection available; retry shortly')), CONNECTION_WAIT_MS); })]);
    } catch (error) {
      // A connection that arrives late goes straight back to the pool.
      void connected.then(() => runner.release(), () => undefined);
      if (error instanceof AdmissionPressure) throw error;
      this.logger.warn({ err: error }, 'Database unreachable during admission');
      throw new AdmissionPressure('The database is unreachable; retry shortly');
    } finally {
      clearTimeout(timer);
    }
    try {
      if (options.transaction) await runner.startTransaction();
      const result = await work(runner.manager);
      if (options.transaction) await runner.commitTransaction();
      return result;
    } catch (error) {
      if (options.transaction) await runner.rollbackTransaction().catch(() => undefined);
      if (error instanceof DomainError) throw error;
      this.logger.error({ err: error }, 'Admission failed; the sender will retry');
      throw new AdmissionPressure('The delivery could not be admitted now; retry shortly');
    } finally {
      await runner.release();
    }
  }

  private async insertDelivery(manager: EntityManager, receiver: WebhookReceiver, id: string, delivery: ReceivedDelivery, statusCode: number, result: Omit<DeliveryResponse, 'deliveryId'>, error: string | null): Promise<void> {
    await manager.query(
      `INSERT INTO webhook_deliveries (organization_id, id, integration_id, status_code, accepted, duplicates, incident_ids, error, headers, body, replay_of)
       VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9::jsonb, $10, $11)`,
      [receiver.organizationId, id, receiver.integrationId, statusCode, result.accepted, result.duplicates, JSON.stringify(result.incidentIds), error,
        JSON.stringify(delivery.headers), delivery.body, delivery.replayOf ?? null],
    );
  }
}
