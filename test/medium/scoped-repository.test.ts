import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Membership } from '../../libs/organizations/src/membership.entity';
import { Organization } from '../../libs/organizations/src/organization.entity';
import { User } from '../../libs/auth/src/user.entity';
import { Session } from '../../libs/auth/src/session.entity';
import { dataSourceOptions, MissingOrganizationError, newId, ScopedRepository } from '@svc/platform';
import '../../libs/platform/src/database/database.module';
import { createTestDatabase } from '../support/databases';

describe('ScopedRepository against PostgreSQL', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let dataSource: DataSource;
  let memberships: ScopedRepository<Membership>;
  const userId = newId();
  const ids = { a: newId(), b: newId() };

  beforeAll(async () => {
    db = await createTestDatabase();
    dataSource = await new DataSource(dataSourceOptions({ url: db.url, entities: [Organization, Membership, User, Session] })).initialize();
    await dataSource.query(`INSERT INTO organizations (id, display_name) VALUES ('org-a', 'A'), ('org-b', 'B')`);
    await dataSource.query(`INSERT INTO users (id, email, name) VALUES ($1, 'u@example.com', 'U')`, [userId]);
    memberships = new ScopedRepository(dataSource.getRepository(Membership));
    await memberships.insert('org-a', { id: ids.a, userId, role: 'admin' });
    await memberships.insert('org-b', { id: ids.b, userId, role: 'viewer' });
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });

  it('every read requires an Organization: none, empty or malformed throws before any query', async () => {
    for (const org of [undefined, null, '', 'Not An Org', "org-a' OR 1=1 --"] as unknown as string[]) {
      await expect(memberships.find(org)).rejects.toBeInstanceOf(MissingOrganizationError);
      await expect(memberships.findById(org, ids.a)).rejects.toBeInstanceOf(MissingOrganizationError);
      await expect(memberships.count(org)).rejects.toBeInstanceOf(MissingOrganizationError);
      expect(() => memberships.query(org, 'm')).toThrow(MissingOrganizationError);
      await expect(memberships.delete(org, { id: ids.a })).rejects.toBeInstanceOf(MissingOrganizationError);
      await expect(memberships.update(org, { id: ids.a }, { role: 'editor' })).rejects.toBeInstanceOf(MissingOrganizationError);
    }
  });

  it('returns only the Organization\'s rows, and another Organization\'s id is simply not found', async () => {
    expect((await memberships.find('org-a')).map((m) => m.id)).toEqual([ids.a]);
    expect(await memberships.findById('org-a', ids.b)).toBeNull();
    expect((await memberships.findById('org-b', ids.b))?.role).toBe('viewer');
    expect(await memberships.count('org-a')).toBe(1);
  });

  it('a condition cannot widen the scope: naming organizationId throws, OR-lists stay scoped', async () => {
    await expect(memberships.find('org-a', { where: { organizationId: 'org-b' } })).rejects.toThrow(/set by the scope/);
    const either = await memberships.find('org-a', { where: [{ id: ids.a }, { id: ids.b }] });
    expect(either.map((m) => m.id)).toEqual([ids.a]);
  });

  it('the query builder refuses where/orWhere, which would replace or escape the scope', async () => {
    expect(() => memberships.query('org-a', 'm').where('1=1')).toThrow(/andWhere/);
    expect(() => memberships.query('org-a', 'm').orWhere('1=1')).toThrow(/andWhere/);
    const rows = await memberships.query('org-a', 'm').andWhere('m.id IN (:...ids)', { ids: [ids.a, ids.b] }).getMany();
    expect(rows.map((m) => m.id)).toEqual([ids.a]);
  });

  it('writes stay in the Organization: update and delete of another Organization\'s id touch nothing', async () => {
    expect(await memberships.update('org-a', { id: ids.b }, { role: 'admin' })).toBe(0);
    expect(await memberships.delete('org-a', { id: ids.b })).toBe(0);
    expect((await memberships.findById('org-b', ids.b))?.role).toBe('viewer');
    await expect(memberships.insert('org-a', { id: newId(), userId, role: 'viewer', organizationId: 'org-b' } as never)).rejects.toThrow(/set by the scope/);
  });

  it('the composite key stops a child row from pointing at another Organization\'s parent', async () => {
    // memberships(organization_id) references organizations(id): a membership of an unknown Organization is refused.
    await expect(dataSource.query(`INSERT INTO memberships (organization_id, id, user_id, role) VALUES ('org-x', $1, $2, 'viewer')`, [newId(), userId])).rejects.toThrow(/foreign key/);
    // The same id may not be reused inside one Organization.
    await expect(dataSource.query(`INSERT INTO memberships (organization_id, id, user_id, role) VALUES ('org-a', $1, $2, 'viewer')`, [ids.a, newId()])).rejects.toThrow();
  });
});
