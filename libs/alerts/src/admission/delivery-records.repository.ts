import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';

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

/** The record of every webhook delivery, written by admission. */
@Injectable()
export class DeliveryRecordsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

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
