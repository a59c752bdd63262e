import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeliveryRecord, DeliveryRecordsRepository } from '@svc/alerts';
import { dataSourceOptions, newId } from '@svc/platform';
import { createTestDatabase } from '../support/databases';
import { organizationRows } from '../support/tenancy';

const A = 'org-a';
const B = 'org-b';

describe('DeliveryRecordsRepository writes each delivery under its own Organization', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let dataSource: DataSource;
  let repository: DeliveryRecordsRepository;
  const integrationId = newId();
  const sharedId = newId();
  const record = (organizationId: string, id: string): DeliveryRecord => ({
    organizationId,
    id,
    integrationId,
    statusCode: 202,
    accepted: 1,
    duplicates: 0,
    incidentIds: [newId()],
    error: null,
    headers: { 'content-type': 'application/json' },
    body: '{}',
    replayOf: null,
  });

  beforeAll(async () => {
    db = await createTestDatabase();
    dataSource = await new DataSource(dataSourceOptions({ url: db.url })).initialize();
    repository = new DeliveryRecordsRepository(dataSource);
    for (const org of [B, A]) await dataSource.query(`INSERT INTO organizations (id, display_name) VALUES ($1, $1)`, [org]);
    await repository.insertAcrossOrganizations([record(B, sharedId)]);
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });

  it("a batch of A's deliveries (one with an id B also has) adds rows to A only", async () => {
    const before = await organizationRows(dataSource, B, ['webhook_deliveries']);
    const extra = newId();
    await repository.insertAcrossOrganizations([record(A, sharedId), record(A, extra)]);
    expect(await organizationRows(dataSource, B, ['webhook_deliveries'])).toEqual(before);
    const a = (await organizationRows(dataSource, A, ['webhook_deliveries'])).webhook_deliveries as { id: string; organization_id: string }[];
    expect(a.map((r) => [r.organization_id, r.id]).sort()).toEqual(
      [
        [A, sharedId],
        [A, extra],
      ].sort(),
    );
  });

  it('a batch of both Organizations puts each row under its own', async () => {
    const [forA, forB] = [newId(), newId()];
    await repository.insertAcrossOrganizations([record(A, forA), record(B, forB)]);
    const owners = await dataSource.query(`SELECT organization_id, id FROM webhook_deliveries WHERE id = ANY($1) ORDER BY organization_id`, [[forA, forB]]);
    expect(owners).toEqual([
      { organization_id: A, id: forA },
      { organization_id: B, id: forB },
    ]);
  });
});
