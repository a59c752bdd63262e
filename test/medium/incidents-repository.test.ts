import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IncidentsRepository } from '@svc/incidents';
import { dataSourceOptions, newId, Timestamp } from '@svc/platform';
import { createTestDatabase } from '../support/databases';
import { organizationRows } from '../support/tenancy';

const A = 'org-a';
const B = 'org-b';
const TABLES = ['incidents', 'alert_events', 'incident_alerts'];
const T1 = Timestamp.parse('2026-11-20T10:00:00Z')!;
const T2 = Timestamp.parse('2026-11-20T11:00:00Z')!;

/** Both Organizations hold incidents with the same ids (target and source); every statement runs for A. */
describe('IncidentsRepository keeps to one Organization', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let dataSource: DataSource;
  let repository: IncidentsRepository;
  const integrationId = newId();
  const target = newId();
  const source = newId();

  beforeAll(async () => {
    db = await createTestDatabase();
    dataSource = await new DataSource(dataSourceOptions({ url: db.url })).initialize();
    repository = new IncidentsRepository(dataSource);
    for (const org of [B, A]) {
      await dataSource.query(`INSERT INTO organizations (id, display_name) VALUES ($1, $1)`, [org]);
      for (const [id, group] of [
        [target, 'g-target'],
        [source, 'g-source'],
      ]) {
        await dataSource.query(
          `INSERT INTO incidents (organization_id, id, integration_id, group_key, status, title, labels, opened_at) VALUES ($1, $2, $3, $4, 'open', 'T', '{}', $5)`,
          [org, id, integrationId, group, T1],
        );
      }
      const fingerprints = org === B ? ['f1', 'f-b-only'] : ['f1'];
      for (const fingerprint of fingerprints) {
        await dataSource.query(
          `INSERT INTO alert_events (organization_id, id, incident_id, integration_id, delivery_id, fingerprint, status, labels, annotations, starts_at, phase_at)
          VALUES ($1, $2, $3, $4, $5, $6, 'resolved', '{}', '{}', $7, $8)`,
          [org, newId(), source, integrationId, newId(), fingerprint, T1, T2],
        );
        await dataSource.query(
          `INSERT INTO incident_alerts (organization_id, incident_id, fingerprint, status, phase_at) VALUES ($1, $2, $3, 'resolved', $4)`,
          [org, source, fingerprint, T2],
        );
      }
    }
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });

  it("a whole merge of A (move, mark, delete, rebuild, count) reads and changes none of B's rows", async () => {
    const before = await organizationRows(dataSource, B, TABLES);
    await dataSource.transaction(async (manager) => {
      await repository.moveAlertEvents(A, [source], target, manager);
      await repository.markMerged(A, [source], target, manager);
      await repository.deleteAlertStates(A, [target, source], manager);
      await repository.rebuildAlertStates(A, target, manager);
      expect(await repository.alertCounts(A, target, manager)).toEqual({ alerts: 1, firing: 0, lastResolution: T2 });
    });
    expect(await organizationRows(dataSource, B, TABLES)).toEqual(before);
    const a = await organizationRows(dataSource, A, ['incident_alerts']);
    expect(a.incident_alerts).toEqual([expect.objectContaining({ organization_id: A, incident_id: target, fingerprint: 'f1' })]);
    const [merged] = await dataSource.query(`SELECT status, merged_into FROM incidents WHERE organization_id = $1 AND id = $2`, [A, source]);
    expect(merged).toEqual({ status: 'merged', merged_into: target });
  });
});
