import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { byTimeThenId, CursorCodec, dataSourceOptions, InvalidInputError, keysetPage, ScopedRepository, SecretKeys } from '@svc/platform';
import { createTestDatabase } from '../support/databases';
import { MembershipRow as Membership } from '../support/membership-row';

const ORDER = byTimeThenId<Membership>('m', 'created_at', (m) => m.createdAt, 'ASC');

describe('keyset pagination with signed cursors', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let dataSource: DataSource;
  let memberships: ScopedRepository<Membership>;
  const codec = new CursorCodec(new SecretKeys(Buffer.from('a test secret key of enough length')));
  const binding = (org: string) => ({ scope: org, collection: 'members' });
  const page = (org: string, request: { limit?: number; cursor?: string }, ordering = ORDER) =>
    keysetPage(memberships.query(org, 'm'), codec, binding(org), ordering, request);

  beforeAll(async () => {
    db = await createTestDatabase();
    dataSource = await new DataSource(dataSourceOptions({ url: db.url, entities: [Membership] })).initialize();
    memberships = new ScopedRepository(dataSource.getRepository(Membership));
    await dataSource.query(`INSERT INTO organizations (id, display_name) VALUES ('org-a', 'A'), ('org-b', 'B')`);
    await dataSource.query(`INSERT INTO users (id, email, name) SELECT gen_random_uuid(), 'u' || n || '@example.com', 'U' FROM generate_series(1, 137) n`);
    // Ties on created_at: 137 rows share 3 instants, so the id must break them.
    await dataSource.query(`INSERT INTO memberships (organization_id, id, user_id, role, created_at)
      SELECT 'org-a', gen_random_uuid(), id, 'viewer', timestamptz '2026-11-22 10:00:00.000001+00' + (row_number() OVER () % 3) * interval '1 microsecond'
      FROM users`);
    await dataSource.query(`INSERT INTO memberships (organization_id, id, user_id, role) SELECT 'org-b', gen_random_uuid(), id, 'viewer' FROM users LIMIT 5`);
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });

  it('walks the whole collection in order, without duplicates or gaps, ending with next = null', async () => {
    const seen: Membership[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const result = await page('org-a', { limit: 50, cursor });
      seen.push(...result.items);
      cursor = result.next ?? undefined;
      pages += 1;
      if (cursor) expect(cursor.length).toBeLessThanOrEqual(512);
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toHaveLength(137);
    expect(new Set(seen.map((m) => m.id)).size).toBe(137);
    const expected = await dataSource.query(`SELECT id FROM memberships WHERE organization_id = 'org-a' ORDER BY created_at, id`);
    expect(seen.map((m) => m.id)).toEqual(expected.map((r: { id: string }) => r.id));
  });

  it('a last page that is exactly full says next = null', async () => {
    const result = await page('org-b', { limit: 5 });
    expect(result.items).toHaveLength(5);
    expect(result.next).toBeNull();
  });

  it('walks backwards with a descending ordering', async () => {
    const desc = { ...ORDER, name: 'created-desc', direction: 'DESC' as const };
    const first = await page('org-a', { limit: 100 }, desc);
    const second = await page('org-a', { limit: 100, cursor: first.next! }, desc);
    expect(first.items.length + second.items.length).toBe(137);
    const expected = await dataSource.query(`SELECT id FROM memberships WHERE organization_id = 'org-a' ORDER BY created_at DESC, id DESC`);
    expect([...first.items, ...second.items].map((m) => m.id)).toEqual(expected.map((r: { id: string }) => r.id));
  });

  it('refuses a cursor used for another Organization, collection or ordering, or altered', async () => {
    const { next } = await page('org-a', { limit: 10 });
    await expect(page('org-b', { cursor: next! })).rejects.toBeInstanceOf(InvalidInputError);
    await expect(keysetPage(memberships.query('org-a', 'm'), codec, { scope: 'org-a', collection: 'other' }, ORDER, { cursor: next! })).rejects.toBeInstanceOf(
      InvalidInputError,
    );
    await expect(page('org-a', { cursor: next! }, { ...ORDER, name: 'other-order' })).rejects.toBeInstanceOf(InvalidInputError);
    const [payload, mac] = next!.split('.');
    const forged = Buffer.from(JSON.stringify(['2000-01-01T00:00:00.000000Z', '00000000-0000-0000-0000-000000000000'])).toString('base64url');
    await expect(page('org-a', { cursor: `${forged}.${mac}` })).rejects.toBeInstanceOf(InvalidInputError);
    await expect(page('org-a', { cursor: `${payload}.${mac.slice(0, -2)}AA` })).rejects.toBeInstanceOf(InvalidInputError);
    await expect(page('org-a', { cursor: 'garbage' })).rejects.toBeInstanceOf(InvalidInputError);
  });

  it('a cursor signed with another key is refused', async () => {
    const { next } = await page('org-a', { limit: 10 });
    const otherCodec = new CursorCodec(new SecretKeys(Buffer.from('another secret key of enough length')));
    await expect(keysetPage(memberships.query('org-a', 'm'), otherCodec, binding('org-a'), ORDER, { cursor: next! })).rejects.toBeInstanceOf(InvalidInputError);
  });
});
