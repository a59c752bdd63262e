import { DataSource } from 'typeorm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ChatRepository } from '@svc/conversations';
import { dataSourceOptions, newId } from '@svc/platform';
import { createTestDatabase } from '../support/databases';
import { organizationRows } from '../support/tenancy';

const A = 'org-a';
const B = 'org-b';
const TABLES = ['chat_events', 'chat_threads'];

/**
 * Both Organizations hold a chat integration (integration ids are unique across Organizations);
 * B has taken in event `Ev1` and has a conversation for thread C1:1.000 of its integration. Every
 * statement runs for A, with B's ids where the statement takes them, and must neither see nor
 * change B's rows.
 */
describe('ChatRepository keeps to one Organization', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let dataSource: DataSource;
  let repository: ChatRepository;
  const integrationOf: Record<string, string> = { [A]: newId(), [B]: newId() };
  const thread = { integrationId: integrationOf[B], channel: 'C1', threadTs: '1.000' };
  let before: Record<string, unknown[]>;

  beforeAll(async () => {
    db = await createTestDatabase();
    dataSource = await new DataSource(dataSourceOptions({ url: db.url })).initialize();
    repository = new ChatRepository(dataSource);
    // B first: a statement that lost its Organization condition would meet B's rows first.
    for (const org of [B, A]) {
      await dataSource.query(`INSERT INTO organizations (id, display_name) VALUES ($1, $1)`, [org]);
      await dataSource.query(
        `INSERT INTO integrations (organization_id, id, type, name, enabled, config, created_by) VALUES ($1, $2, 'chat', 'Chat', true, '{}', $3)`,
        [org, integrationOf[org], newId()],
      );
    }
    const conversationId = newId();
    await dataSource.query(`INSERT INTO conversations (organization_id, id, subject, source, created_by) VALUES ($1, $2, 'S', 'chat', 'chat:U1')`, [
      B,
      conversationId,
    ]);
    await dataSource.query(
      `INSERT INTO chat_threads (organization_id, id, integration_id, channel, thread_ts, conversation_id) VALUES ($1, $2, $3, 'C1', '1.000', $4)`,
      [B, newId(), integrationOf[B], conversationId],
    );
    await dataSource.query(`INSERT INTO chat_events (organization_id, id, integration_id, event_id) VALUES ($1, $2, $3, 'Ev1')`, [
      B,
      newId(),
      integrationOf[B],
    ]);
  });
  beforeEach(async () => {
    before = await organizationRows(dataSource, B, TABLES);
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });
  const bUnchanged = async (): Promise<void> => expect(await organizationRows(dataSource, B, TABLES)).toEqual(before);

  it("takes an event id in once per Organization's integration, each row in its own Organization", async () => {
    const event = { organizationId: A, integrationId: integrationOf[A], eventId: 'Ev1' };
    expect(await repository.recordEventsAcrossOrganizations([event, { ...event, eventId: 'Ev2' }])).toEqual([event, { ...event, eventId: 'Ev2' }]);
    expect(await repository.recordEventsAcrossOrganizations([event, { ...event, eventId: 'Ev3' }])).toEqual([{ ...event, eventId: 'Ev3' }]);
    expect(await dataSource.query('SELECT organization_id FROM chat_events WHERE event_id = $1 ORDER BY organization_id', ['Ev1'])).toEqual([
      { organization_id: A },
      { organization_id: B },
    ]);
    await bUnchanged();
  });

  it("sees only the Organization's threads", async () => {
    expect(await repository.threadExists(B, thread)).toBe(true);
    expect(await repository.threadExists(A, thread)).toBe(false);
    await bUnchanged();
  });

  it("locks the Organization's thread key only: another Organization's same thread is not held", async () => {
    await dataSource.transaction(async (manager) => {
      await repository.lockThread(A, thread, manager);
      const runner = dataSource.createQueryRunner();
      try {
        await runner.startTransaction();
        await runner.query("SET LOCAL lock_timeout = '200ms'");
        // B's key is free while A's is held; A's own key is not.
        await repository.lockThread(B, thread, runner.manager);
        await expect(repository.lockThread(A, thread, runner.manager)).rejects.toThrow(/lock timeout/);
      } finally {
        await runner.rollbackTransaction().catch(() => undefined);
        await runner.release();
      }
    });
    await bUnchanged();
  });
});
