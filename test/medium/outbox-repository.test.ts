import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataSourceOptions, newId, OutboxRepository } from '@svc/platform';
import { createTestDatabase } from '../support/databases';
import { organizationRows } from '../support/tenancy';

const A = 'org-a';
const B = 'org-b';

/**
 * Writing a job is per Organization; the relay's statements are across Organizations by design
 * (by message id), and must touch only the messages they name.
 */
describe('OutboxRepository', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let dataSource: DataSource;
  let repository: OutboxRepository;
  const bMessage = newId();

  beforeAll(async () => {
    db = await createTestDatabase();
    dataSource = await new DataSource(dataSourceOptions({ url: db.url })).initialize();
    repository = new OutboxRepository(dataSource);
    await repository.insert(B, { id: bMessage, queue: 'q', jobName: 'j', payload: { n: 1 } });
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });

  it("a job of A is written under A, and B's messages are untouched", async () => {
    const messagesOf = async (org: string) =>
      ((await organizationRows(dataSource, org, ['outbox_messages'])).outbox_messages as { id: string; organization_id: string }[]).map((r) => [
        r.organization_id,
        r.id,
      ]);
    const before = await organizationRows(dataSource, B, ['outbox_messages']);
    const beforeA = await messagesOf(A);
    const id = newId();
    await repository.insert(A, { id, queue: 'q', jobName: 'j', payload: { n: 2 } });
    await repository.notifyRelays('q');
    expect(await organizationRows(dataSource, B, ['outbox_messages'])).toEqual(before);
    // Exactly this row was added to A (the other test writes a message of A as well).
    expect((await messagesOf(A)).sort()).toEqual([...beforeA, [A, id]].sort());
  });

  it("the relay claims every Organization's messages, each with its own Organization, and marks only those it names", async () => {
    const aMessage = newId();
    await repository.insert(A, { id: aMessage, queue: 'q', jobName: 'j', payload: {} });
    await dataSource.transaction(async (manager) => {
      const pending = await repository.claimPendingAcrossOrganizations(100, manager);
      expect(pending.find((m) => m.id === bMessage)?.organization_id).toBe(B);
      expect(pending.find((m) => m.id === aMessage)?.organization_id).toBe(A);
      const before = await organizationRows(dataSource, B, ['outbox_messages']);
      await repository.markDispatchedAcrossOrganizations([aMessage], manager);
      await repository.recordFailureAcrossOrganizations(aMessage, 'E', manager);
      expect(await organizationRows(dataSource, B, ['outbox_messages'])).toEqual(before);
    });
    const [a] = await dataSource.query(`SELECT attempts, last_error, dispatched_at IS NOT NULL AS dispatched FROM outbox_messages WHERE id = $1`, [aMessage]);
    expect(a).toEqual({ attempts: 1, last_error: 'E', dispatched: true });
  });

  it('counts the messages not yet relayed by queue, every Organization’s, up to the cap', async () => {
    const [{ pending }] = (await dataSource.query(`SELECT count(*)::int AS pending FROM outbox_messages WHERE dispatched_at IS NULL AND queue = 'q'`)) as {
      pending: number;
    }[];
    await repository.insert(A, { id: newId(), queue: 'depth', jobName: 'j', payload: {} });
    await repository.insert(B, { id: newId(), queue: 'depth', jobName: 'j', payload: {} });
    const counts = await repository.pendingCountsAcrossOrganizations(1_000);
    expect(counts.get('depth')).toBe(2);
    expect(counts.get('q') ?? 0).toBe(pending);
    const capped = await repository.pendingCountsAcrossOrganizations(1);
    expect([...capped.values()].reduce((sum, n) => sum + n, 0)).toBe(1);
  });
});
