import { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId, runMigrations } from '@svc/platform';
import { MIGRATIONS } from '../../migrations';
import { ReferenceKeys1795700000000 } from '../../migrations/1795700000000-ReferenceKeys';
import { createTestDatabase } from '../support/databases';

/**
 * The migration that adds the reference keys, on a database that was edited by hand: a reference
 * to nothing is dropped, but a record a key would refuse stops the migration, naming it and
 * changing nothing, until the operator has decided what to do with it.
 */
describe('the reference keys migration on a database holding rows a key would refuse', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let client: Client;
  const relayId = newId();
  const messageId = newId();
  const missingInvestigation = newId();
  const keys = async () =>
    (
      await client.query<{ conname: string }>(
        `SELECT conname FROM pg_constraint WHERE conname IN ('conversation_messages_investigation_fk', 'relays_bootstrap_token_fk') ORDER BY conname`,
      )
    ).rows.map((r) => r.conname);
  const link = async () => (await client.query(`SELECT investigation_id FROM conversation_messages WHERE id = $1`, [messageId])).rows[0].investigation_id;

  beforeAll(async () => {
    db = await createTestDatabase({ empty: true });
    await runMigrations(
      db.url,
      MIGRATIONS.filter((m) => m !== ReferenceKeys1795700000000),
    );
    client = new Client({ connectionString: db.url });
    await client.connect();
    await client.query(`INSERT INTO organizations (id, display_name) VALUES ('acme', 'Acme')`);
    const conversation = newId();
    await client.query(`INSERT INTO conversations (organization_id, id, subject, source, created_by) VALUES ('acme', $1, 's', 'web', 'u')`, [conversation]);
    await client.query(
      `INSERT INTO conversation_messages (organization_id, id, conversation_id, sequence, role, text, author_id, author_name, investigation_id)
       VALUES ('acme', $1, $2, 1, 'user', 'why?', 'u', 'Ada', $3)`,
      [messageId, conversation, missingInvestigation],
    );
    await client.query(`INSERT INTO relays (organization_id, id, name, credential_hash, bootstrap_token_id) VALUES ('acme', $1, 'edge', $2, $3)`, [
      relayId,
      Buffer.from(relayId),
      newId(),
    ]);
  });
  afterAll(async () => {
    await client?.end();
    await db?.drop();
  });

  it('stops at a relay whose bootstrap token does not exist, naming it and changing nothing; once it is dealt with, it adds the keys and drops the dangling link', async () => {
    await expect(runMigrations(db.url, MIGRATIONS)).rejects.toThrow(
      new RegExp(`relays whose bootstrap token their Organization does not have \\(${relayId}\\)`),
    );
    expect(await keys()).toEqual([]);
    expect(await link()).toBe(missingInvestigation);
    expect((await client.query(`SELECT count(*)::int AS n FROM relays`)).rows[0].n).toBe(1);

    // The operator's decision: this relay goes (its agent registers again with a new token).
    await client.query(`DELETE FROM relays WHERE id = $1`, [relayId]);
    expect(await runMigrations(db.url, MIGRATIONS)).toEqual(['ReferenceKeys1795700000000']);
    expect(await keys()).toEqual(['conversation_messages_investigation_fk', 'relays_bootstrap_token_fk']);
    expect(await link()).toBeNull();
  });
});
