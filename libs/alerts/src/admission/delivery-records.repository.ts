import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ALERT_BATCH_TYPES, alertBatchArguments, BatchAlert } from '@svc/incidents';

/** One received webhook delivery as recorded (webhook_deliveries), with what admission made of it. */
export interface DeliveryRecord {
  organizationId: string;
  id: string;
  integrationId: string;
  statusCode: number;
  accepted: number;
  duplicates: number;
  incidentIds: string[];
  error: string | null;
  headers: Record<string, unknown>;
  body: string | null;
  replayOf: string | null;
}

/** A delivery to admit with its alerts, and what to record with it (a credential is checked, see admitAcrossOrganizations). */
export interface DeliveryToAdmit {
  organizationId: string;
  id: string;
  integrationId: string;
  /** The secret hash its sender was authenticated with; null for a replay, which has none to check. */
  credential: Buffer | null;
  error: string | null;
  headers: Record<string, unknown>;
  body: string | null;
  replayOf: string | null;
}

/** What admission made of a delivery: recorded with 202 or 200, or 401 (stale credential, nothing written). */
export interface DeliveryAdmission {
  statusCode: 200 | 202 | 401;
  accepted: number;
  duplicates: number;
  incidentIds: string[];
}

const DELIVERY_TYPES = ['text[]', 'uuid[]', 'uuid[]', 'bytea[]', 'text[]', 'jsonb[]', 'text[]', 'uuid[]', 'int[]'];

/** `$1::text[], $2::uuid[], ...` for these types. */
const placeholders = (types: string[]): string => types.map((type, i) => `$${i + 1}::${type}`).join(', ');

const ADMIT_WEBHOOK_DELIVERIES = `SELECT delivery_n, delivery_status, delivery_accepted, delivery_duplicates, delivery_incident_ids
  FROM admit_webhook_deliveries(${placeholders([...DELIVERY_TYPES, ...ALERT_BATCH_TYPES])})`;

/** The record of every webhook delivery, written by admission. */
@Injectable()
export class DeliveryRecordsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Admits a batch of deliveries and records them, in one statement (the `admit_webhook_deliveries`
   * database function, see its migration), so in a transaction of its own: credentials confirmed
   * and held, the alerts admitted by the incidents library's `admit_alert_batch` (`alerts`, each
   * with the 0-based delivery it belongs to), each delivery recorded with what became of it.
   * Returns what became of each delivery, in `deliveries` order. When a credential is no longer
   * current, nothing is written, and those deliveries come back with 401 and the others with
   * nothing (the caller admits them again). Across Organizations: every row carries its own.
   */
  async admitAcrossOrganizations(
    deliveries: DeliveryToAdmit[],
    alerts: { alerts: BatchAlert[]; requestOf: number[] },
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Array<DeliveryAdmission | undefined>> {
    const rows = (await manager.query(ADMIT_WEBHOOK_DELIVERIES, [
      deliveries.map((d) => d.organizationId),
      deliveries.map((d) => d.id),
      deliveries.map((d) => d.integrationId),
      deliveries.map((d) => d.credential),
      deliveries.map((d) => d.error),
      deliveries.map((d) => JSON.stringify(d.headers)),
      deliveries.map((d) => d.body),
      deliveries.map((d) => d.replayOf),
      alerts.requestOf.map((i) => i + 1),
      ...alertBatchArguments(alerts.alerts),
    ])) as Array<{
      delivery_n: number;
      delivery_status: 200 | 202 | 401;
      delivery_accepted: number;
      delivery_duplicates: number;
      delivery_incident_ids: string[];
    }>;
    const admissions: Array<DeliveryAdmission | undefined> = new Array(deliveries.length).fill(undefined);
    for (const row of rows)
      admissions[row.delivery_n - 1] = {
        statusCode: row.delivery_status,
        accepted: row.delivery_accepted,
        duplicates: row.delivery_duplicates,
        incidentIds: row.delivery_incident_ids,
      };
    return admissions;
  }

  /**
   * Records the deliveries of one admission batch in one statement. Across Organizations: a batch
   * holds deliveries for several, and each row is written under its own Organization.
   */
  async insertAcrossOrganizations(rows: DeliveryRecord[], manager: EntityManager = this.dataSource.manager): Promise<void> {
    await manager.query(
      `INSERT INTO webhook_deliveries (organization_id, id, integration_id, status_code, accepted, duplicates, incident_ids, error, headers, body, replay_of)
       SELECT * FROM unnest($1::text[], $2::uuid[], $3::uuid[], $4::int[], $5::int[], $6::int[], $7::jsonb[], $8::text[], $9::jsonb[], $10::text[], $11::uuid[])`,
      [
        rows.map((r) => r.organizationId),
        rows.map((r) => r.id),
        rows.map((r) => r.integrationId),
        rows.map((r) => r.statusCode),
        rows.map((r) => r.accepted),
        rows.map((r) => r.duplicates),
        rows.map((r) => JSON.stringify(r.incidentIds)),
        rows.map((r) => r.error),
        rows.map((r) => JSON.stringify(r.headers)),
        rows.map((r) => r.body),
        rows.map((r) => r.replayOf),
      ],
    );
  }
}
