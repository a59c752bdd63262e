import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { IncomingMessage } from 'node:http';
import { DataSource, EntityManager, QueryRunner } from 'typeorm';
import { WebhookAuthenticator, WebhookReceiver } from '@svc/integrations';
import {
  AppConfig,
  DomainError,
  isJsonBody,
  isNestedDeeperThan,
  MAX_JSON_DEPTH,
  newId,
  PayloadTooLarge,
  readLimitedBody,
  UnauthenticatedError,
} from '@svc/platform';
import { DeliveryRecordsRepository } from './delivery-records.repository';
import { readText } from './webhook-request';

/** A delivery as it arrived (headers without credentials, the body as text), or a stored one replayed. */
export interface ReceivedDelivery {
  headers: Record<string, string>;
  body: string | null;
  replayOf?: string;
}

/** What is recorded of a delivery: its answer and what it brought. */
export interface RecordedDelivery {
  receiver: WebhookReceiver;
  id: string;
  delivery: ReceivedDelivery;
  statusCode: number;
  result: { accepted: number; duplicates: number; incidentIds: string[] };
  error: string | null;
}

/** A delivery refused for its content: answered 400 and recorded all the same. */
export interface RefusedDelivery {
  kind: 'refused';
  status: 400;
  deliveryId: string;
  error: string;
}

export class AdmissionPressure extends DomainError {
  constructor(message: string) {
    super('unavailable', message, { retryAfterSeconds: 1 });
  }
}

/** The same 401 as for any other credential failure (the webhook routes'). */
export function staleCredential(): UnauthenticatedError {
  return new UnauthenticatedError('credential_rejected', 'Unknown integration or wrong webhook credential');
}

/**
 * What every webhook route that admits deliveries shares (alert events and change events,
 * decisions §8): one budget of requests in flight per process, authentication with the process's
 * cache of integrations, connections obtained within a bounded wait (else 503, never a hang or a
 * 500), and the record of each authenticated delivery.
 */
@Injectable()
export class WebhookAdmissionGate {
  private readonly logger = new Logger(WebhookAdmissionGate.name);
  private inFlight = 0;
  /** In-flight webhook requests past which senders are told to back off (decisions §8). */
  private readonly maxInFlight: number;
  /** How long an admission waits for a database connection before answering 503. */
  private readonly connectionWaitMs: number;
  private readonly bodyLimit: number;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly webhooks: WebhookAuthenticator,
    private readonly deliveryRecords: DeliveryRecordsRepository,
    config: AppConfig,
  ) {
    this.maxInFlight = config.SVC_ADMISSION_MAX_IN_FLIGHT;
    this.connectionWaitMs = config.SVC_ADMISSION_CONNECTION_WAIT_MS;
    this.bodyLimit = config.SVC_JSON_BODY_LIMIT;
  }

  /** The request's body, up to SVC_JSON_BODY_LIMIT (PayloadTooLarge past it, before the rest is read). */
  readBody(req: IncomingMessage): Promise<Buffer> {
    return readLimitedBody(req, this.bodyLimit);
  }

  /**
   * An authenticated delivery's body as text, into `delivery.body`, or its refusal, recorded:
   * not JSON (415), over the limit (413), not UTF-8 or with a raw NUL (400: refused for good, as
   * a 503 made senders retry a poison message forever). `raw` when the body was read already
   * (a signed delivery is read before it is authenticated).
   */
  async acceptBody(receiver: WebhookReceiver, req: IncomingMessage, delivery: ReceivedDelivery, raw?: Buffer): Promise<void> {
    if (!isJsonBody(req)) {
      await this.recordRefusal(receiver, delivery, 415, 'Unsupported media type');
      throw new DomainError('unsupported_media_type', 'Unsupported media type: send application/json');
    }
    let body = raw;
    if (!body) {
      try {
        body = await this.readBody(req);
      } catch (error) {
        if (error instanceof PayloadTooLarge) await this.recordRefusal(receiver, delivery, 413, error.recordedAs);
        throw error;
      }
    }
    const text = readText(body);
    delivery.body = text.recordable;
    if (text.problem) {
      await this.recordRefusal(receiver, delivery, 400, text.problem);
      throw new DomainError('invalid_input', text.problem);
    }
  }

  /** The delivery's body as JSON, or why it is not (a 400 the caller records): malformed, or nested too deep. */
  parseJson(delivery: ReceivedDelivery): { ok: true; json: unknown } | { ok: false; error: string } {
    let json: unknown;
    try {
      json = JSON.parse(delivery.body ?? '');
    } catch {
      return { ok: false, error: 'Malformed JSON body' };
    }
    if (isNestedDeeperThan(json)) return { ok: false, error: `Invalid input: body is nested deeper than ${MAX_JSON_DEPTH} levels` };
    return { ok: true, json };
  }

  /**
   * Counts a whole webhook request (authentication, reading, admission) against SVC_ADMISSION_MAX_IN_FLIGHT;
   * past it the sender is told to back off before any work is done.
   */
  async inFlightSlot<T>(work: () => Promise<T>): Promise<T> {
    if (this.inFlight >= this.maxInFlight) throw new AdmissionPressure('Too many deliveries in flight; retry shortly');
    this.inFlight += 1;
    try {
      return await work();
    } finally {
      this.inFlight -= 1;
    }
  }

  /**
   * The integration a delivery is for: from this process's cache when it knows the secret, else
   * read under the same connection budget as admission itself. Either way the transaction that
   * admits the delivery confirms the secret is still current (see `stillCurrent`).
   */
  async authenticate(integrationId: string, secret: string | undefined): Promise<WebhookReceiver | null> {
    return (
      this.webhooks.fromCache(integrationId, secret) ??
      this.withConnection((manager) => this.webhooks.authenticate(integrationId, secret, manager), { transaction: false })
    );
  }

  /** The integration a signed delivery is for (WebhookAuthenticator.authenticateSigned), under the same connection budget. */
  authenticateSigned(integrationId: string, signedWith: (secret: string) => boolean): Promise<WebhookReceiver | null> {
    return this.withConnection((manager) => this.webhooks.authenticateSigned(integrationId, signedWith, manager), { transaction: false });
  }

  /**
   * Which of the receivers' secrets are still current, read and locked in the admitting
   * transaction: a rotation, disable or delete either committed before (and is seen) or waits for
   * the admission to commit.
   */
  stillCurrent(manager: EntityManager, receivers: WebhookReceiver[]): Promise<boolean[]> {
    return this.webhooks.stillCurrent(manager, receivers);
  }

  /** Records a delivery refused before admission (400, 413, 415), so it shows in the deliveries list. */
  async recordRefusal(receiver: WebhookReceiver, delivery: ReceivedDelivery, statusCode: number, error: string): Promise<string> {
    const id = newId();
    await this.withConnection((manager) =>
      this.insertDeliveries(manager, [{ receiver, id, delivery, statusCode, result: { accepted: 0, duplicates: 0, incidentIds: [] }, error }]),
    );
    return id;
  }

  /** Refuses a delivery for its content (400; `error` names why), recorded like every authenticated delivery. */
  async refuse(receiver: WebhookReceiver, delivery: ReceivedDelivery, error: string): Promise<RefusedDelivery> {
    return { kind: 'refused', status: 400, error, deliveryId: await this.recordRefusal(receiver, delivery, 400, error) };
  }

  /**
   * A transaction on a connection obtained within SVC_ADMISSION_CONNECTION_WAIT_MS; otherwise, or when the
   * database is unreachable, 503 with Retry-After: never a 500, never a hang. With `errors: 'raw'`,
   * a failure inside the work is thrown as it is, for the caller to decide.
   */
  async withConnection<T>(work: (manager: EntityManager) => Promise<T>, options: { transaction?: boolean; errors?: 'pressure' | 'raw' } = {}): Promise<T> {
    const transaction = options.transaction ?? true;
    const runner: QueryRunner = this.dataSource.createQueryRunner();
    let timer: NodeJS.Timeout | undefined;
    const connected = runner.connect();
    try {
      await Promise.race([
        connected,
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new AdmissionPressure('No database connection available; retry shortly')), this.connectionWaitMs);
        }),
      ]);
    } catch (error) {
      // A connection that arrives late goes straight back to the pool.
      void connected.then(
        () => runner.release(),
        () => undefined,
      );
      if (error instanceof AdmissionPressure) throw error;
      this.logger.warn({ err: error }, 'Database unreachable during admission');
      throw new AdmissionPressure('The database is unreachable; retry shortly');
    } finally {
      clearTimeout(timer);
    }
    try {
      if (transaction) await runner.startTransaction();
      const result = await work(runner.manager);
      if (transaction) await runner.commitTransaction();
      return result;
    } catch (error) {
      if (transaction) await runner.rollbackTransaction().catch(() => undefined);
      if (error instanceof DomainError || options.errors === 'raw') throw error;
      this.logger.error({ err: error }, 'Admission failed; the sender will retry');
      throw new AdmissionPressure('The delivery could not be admitted now; retry shortly');
    } finally {
      await runner.release();
    }
  }

  async insertDeliveries(manager: EntityManager, rows: RecordedDelivery[]): Promise<void> {
    await this.deliveryRecords.insertAcrossOrganizations(
      rows.map((r) => ({
        organizationId: r.receiver.organizationId,
        id: r.id,
        integrationId: r.receiver.integrationId,
        statusCode: r.statusCode,
        accepted: r.result.accepted,
        duplicates: r.result.duplicates,
        incidentIds: r.result.incidentIds,
        error: r.error,
        headers: r.delivery.headers,
        body: r.delivery.body,
        replayOf: r.delivery.replayOf ?? null,
      })),
      manager,
    );
  }
}
