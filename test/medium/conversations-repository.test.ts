import { DataSource } from 'typeorm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConversationsRepository } from '@svc/conversations';
import { dataSourceOptions, newId } from '@svc/platform';
import { createTestDatabase } from '../support/databases';
import { lockable, organizationRows } from '../support/tenancy';

const A = 'org-a';
const B = 'org-b';
const TABLES = ['conversations'];

/**
 * Both Organizations hold a conversation with the same id (B's further along, with an incident);
 * only B has conversation bOnly. Every statement runs for A and must neither read, lock nor
 * change a row of B.
 */
describe('ConversationsRepository keeps to one Organization', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let dataSource: DataSource;
  let repository: ConversationsRepository;
  const conversationId = newId();
  const bOnly = newId();
  const incidentId = newId();
  let before: Record<string, unknown[]>;

  beforeAll(async () => {
    db = await createTestDatabase();
    dataSource = await new DataSource(dataSourceOptions({ url: db.url })).initialize();
    repository = new ConversationsRepository(dataSource);
    // B first: a statement that lost its Organization condition would meet B's rows first.
    for (const org of [B, A]) {
      await dataSource.query(`INSERT INTO organizations (id, display_name) VALUES ($1, $1)`, [org]);
      await dataSource.query(
        `INSERT INTO incidents (organization_id, id, integration_id, group_key, status, title, labels, opened_at) VALUES ($1, $2, $3, 'g', 'open', 'T', '{}', now())`,
        [org, incidentId, newId()],
      );
      await dataSource.query(
        `INSERT INTO conversations (organization_id, id, subject, source, incident_id, created_by, last_sequence, last_turn) VALUES ($1, $2, 'S', 'web', $3, 'u', $4, $4)`,
        [org, conversationId, org === B ? incidentId : null, org === B ? 7 : 0],
      );
    }
    await dataSource.query(`INSERT INTO conversations (organization_id, id, subject, source, created_by) VALUES ($1, $2, 'S', 'web', 'u')`, [B, bOnly]);
  });
  beforeEach(async () => {
    before = await organizationRows(dataSource, B, TABLES);
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });
  const bUnchanged = async (): Promise<void> => expect(await organizationRows(dataSource, B, TABLES)).toEqual(before);

  it("locks only the Organization's conversation", async () => {
    await dataSource.transaction(async (manager) => {
      expect(await repository.lock(A, bOnly, manager)).toBeUndefined();
      expect(await repository.lock(A, conversationId, manager)).toEqual({ id: conversationId, incidentId: null, source: 'web' });
      expect(await lockable(dataSource, 'conversations', B)).toBe(true);
    });
    await bUnchanged();
  });

  it("numbers messages and turns within the Organization's conversation only", async () => {
    expect(await repository.takeNumbers(A, conversationId, { turn: true })).toEqual({ sequence: 1, turn: 1 });
    expect(await repository.takeNumbers(A, conversationId, { turn: false })).toEqual({ sequence: 2, turn: 1 });
    expect(await repository.takeTurnNumber(A, conversationId)).toBe(2);
    await bUnchanged();
  });
});
