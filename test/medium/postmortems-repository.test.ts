import { DataSource } from 'typeorm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PostmortemsRepository } from '@svc/postmortems';
import { dataSourceOptions, newId, Timestamp } from '@svc/platform';
import { createTestDatabase } from '../support/databases';
import { lockable, organizationRows } from '../support/tenancy';

const A = 'org-a';
const B = 'org-b';
const TABLES = ['postmortems', 'postmortem_revisions'];
const T1 = Timestamp.parse('2026-11-20T10:00:00Z')!;

/**
 * Both Organizations hold an incident and its postmortem with the same ids (B's at a higher
 * revision, with more kept revisions); only B has a postmortem of incident bOnly. Every statement
 * runs for A and must neither read, lock nor change a row of B.
 */
describe('PostmortemsRepository keeps to one Organization', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let dataSource: DataSource;
  let repository: PostmortemsRepository;
  const incidentId = newId();
  const postmortemId = newId();
  const bOnlyIncident = newId();
  const bOnlyPostmortem = newId();
  let before: Record<string, unknown[]>;

  async function postmortem(org: string, id: string, incident: string, revision: number): Promise<void> {
    await dataSource.query(
      `INSERT INTO incidents (organization_id, id, integration_id, group_key, status, title, labels, opened_at) VALUES ($1, $2, $3, 'g', 'resolved', 'T', '{}', $4)`,
      [org, incident, newId(), T1],
    );
    await dataSource.query(`INSERT INTO postmortems (organization_id, id, incident_id, status, revision, document) VALUES ($1, $2, $3, 'draft', $4, '{}')`, [
      org,
      id,
      incident,
      revision,
    ]);
    for (let r = 1; r <= revision; r++) {
      await dataSource.query(
        `INSERT INTO postmortem_revisions (organization_id, id, postmortem_id, revision, kind, document, created_by, created_at) VALUES ($1, $2, $3, $4, $5, '{}', $6, $7)`,
        [org, newId(), id, r, r === 1 ? 'generated' : 'corrected', `${org}-user`, T1],
      );
    }
  }

  beforeAll(async () => {
    db = await createTestDatabase();
    dataSource = await new DataSource(dataSourceOptions({ url: db.url })).initialize();
    repository = new PostmortemsRepository(dataSource);
    // B first: a statement that lost its Organization condition would meet B's rows first.
    for (const org of [B, A]) {
      await dataSource.query(`INSERT INTO organizations (id, display_name) VALUES ($1, $1)`, [org]);
      await postmortem(org, postmortemId, incidentId, org === B ? 3 : 2);
    }
    await postmortem(B, bOnlyPostmortem, bOnlyIncident, 1);
  });
  beforeEach(async () => {
    before = await organizationRows(dataSource, B, TABLES);
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });
  const bUnchanged = async (): Promise<void> => expect(await organizationRows(dataSource, B, TABLES)).toEqual(before);

  it("locks only the Organization's postmortem, by incident and by id", async () => {
    await dataSource.transaction(async (manager) => {
      expect(await repository.lockByIncident(A, bOnlyIncident, manager)).toBeUndefined();
      expect(await repository.lockByIncident(A, incidentId, manager)).toBe(postmortemId);
      expect(await lockable(dataSource, 'postmortems', B)).toBe(true);
      expect(await lockable(dataSource, 'postmortems', A)).toBe(false);
    });
    await dataSource.transaction(async (manager) => {
      expect(await repository.lockById(A, bOnlyPostmortem, manager)).toBeUndefined();
      expect(await repository.lockById(A, postmortemId, manager)).toBe(2);
      expect(await lockable(dataSource, 'postmortems', B)).toBe(true);
      expect(await lockable(dataSource, 'postmortems', A)).toBe(false);
    });
    await bUnchanged();
  });

  it("lists only the Organization's kept revisions", async () => {
    const revisions = await repository.revisions(A, postmortemId);
    expect(revisions).toEqual([
      { revision: 1, kind: 'generated', createdBy: 'org-a-user', createdAt: T1 },
      { revision: 2, kind: 'corrected', createdBy: 'org-a-user', createdAt: T1 },
    ]);
    expect(await repository.revisions(A, bOnlyPostmortem)).toEqual([]);
    await bUnchanged();
  });
});
