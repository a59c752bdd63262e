import { Test, TestingModule } from '@nestjs/testing';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChangeOrigin, CHANGES_ENTITIES, ChangesRepository, DEPENDENCY_DEPTH, MAX_DEPENDENCIES, NormalizedChange, ServiceCallsRepository } from '@svc/changes';
import { AUTH_ENTITIES } from '@svc/auth';
import { ORGANIZATIONS_ENTITIES } from '@svc/organizations';
import { CursorCodec, dataSourceOptions, newId, ScopedRepositoryModule, SecretKeys, Timestamp } from '@svc/platform';
import { createTestDatabase } from '../support/databases';
import { organizationRows } from '../support/tenancy';

const at = (minute: number, day = 20) => Timestamp.parse(`2026-11-${String(day).padStart(2, '0')}T10:${String(minute).padStart(2, '0')}:00Z`)!;

/** A delivery through the changes integration `integrationId`. */
const delivered = (integrationId: string): ChangeOrigin => ({ integrationId, deliveryId: newId(), investigationId: null });

function change(externalId: string, minute: number, service: string | null = 'checkout', day = 20): NormalizedChange {
  return {
    externalId,
    occurredAt: at(minute, day),
    service,
    environment: 'production',
    kind: 'deploy',
    summary: `Change ${externalId}`,
    author: null,
    versionBefore: null,
    versionAfter: null,
    links: [],
    details: {},
  };
}

/**
 * Each statement of ChangesRepository run for one Organization while another Organization holds
 * changes of the same integration id, with the same sender ids, at the same instants.
 */
describe('ChangesRepository keeps to one Organization', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let moduleRef: TestingModule;
  let dataSource: DataSource;
  let repository: ChangesRepository;
  let calls: ServiceCallsRepository;
  const integrationId = newId();
  const theirs = () => organizationRows(dataSource, 'org-b', ['change_events']);

  beforeAll(async () => {
    db = await createTestDatabase();
    moduleRef = await Test.createTestingModule({
      imports: [
        TypeOrmModule.forRoot(dataSourceOptions({ url: db.url, entities: [...CHANGES_ENTITIES, ...ORGANIZATIONS_ENTITIES, ...AUTH_ENTITIES] })),
        ScopedRepositoryModule.forFeature(CHANGES_ENTITIES),
      ],
      providers: [ChangesRepository, ServiceCallsRepository, CursorCodec, { provide: SecretKeys, useValue: new SecretKeys(Buffer.alloc(32, 7)) }],
    }).compile();
    dataSource = moduleRef.get(DataSource);
    repository = moduleRef.get(ChangesRepository);
    calls = moduleRef.get(ServiceCallsRepository);
    await dataSource.query(`INSERT INTO organizations (id, display_name) VALUES ('org-a', 'A'), ('org-b', 'B')`);
    // The other Organization first, with the same sender ids and times.
    for (const organizationId of ['org-b', 'org-a'])
      await repository.record(organizationId, delivered(integrationId), 'generic', [change('a', 1), change('b', 2), change('c', 3, null), change('early', 0)]);
  });
  afterAll(async () => {
    await moduleRef?.close();
    await db?.drop();
  });

  it("record: a sender id is a duplicate only of the same Organization's integration's change", async () => {
    const fresh = newId();
    await repository.record('org-b', delivered(fresh), 'generic', [change('x', 1, 'checkout', 10), change('y', 2, 'checkout', 10)]);
    const before = await theirs();
    const first = await repository.record('org-a', delivered(fresh), 'generic', [
      change('x', 1, 'checkout', 10),
      change('y', 2, 'checkout', 10),
      change('x', 1, 'checkout', 10),
    ]);
    expect(first.map((r) => r.duplicate)).toEqual([false, false, true]);
    expect(first[0].id).toBe(first[2].id);
    const again = await repository.record('org-a', delivered(fresh), 'generic', [change('y', 2, 'checkout', 10), change('z', 3, 'checkout', 10)]);
    expect(again.map((r) => r.duplicate)).toEqual([true, false]);
    expect(again[0].id).toBe(first[1].id);
    // The same sender id through another integration is another change.
    const elsewhere = await repository.record('org-a', delivered(newId()), 'generic', [change('x', 1, 'checkout', 10)]);
    expect(elsewhere[0]).toMatchObject({ duplicate: false });
    expect(elsewhere[0].id).not.toBe(first[0].id);
    expect(await theirs()).toEqual(before);
  });

  it("page and pageAround: only the Organization's changes, and its cursors only", async () => {
    const page = await repository.page('org-a', { service: 'CHECKOUT', integrationId }, { limit: 1 });
    expect(page.items.map((c) => c.externalId)).toEqual(['b']);
    expect(page.items.every((c) => c.organizationId === 'org-a')).toBe(true);
    await expect(repository.page('org-b', { service: 'CHECKOUT', integrationId }, { limit: 1, cursor: page.next! })).rejects.toThrow();
    const around = await repository.pageAround('org-a', { from: at(0), until: at(3) }, ['Checkout'], { limit: 10 });
    expect(around.items.map((c) => c.externalId)).toEqual(['early', 'a', 'b']);
    expect(around.items.every((c) => c.organizationId === 'org-a' && c.integrationId === integrationId)).toBe(true);
    const unscoped = await repository.pageAround('org-a', { from: at(0), until: at(4) }, ['ledger'], { limit: 10 });
    expect(unscoped.items.filter((c) => c.integrationId === integrationId).map((c) => c.externalId)).toEqual(['c']);
  });

  it("findById: another Organization's change is not found", async () => {
    const [ours] = (await repository.page('org-a', { integrationId }, { limit: 1 })).items;
    const [other] = (await repository.page('org-b', { integrationId }, { limit: 1 })).items;
    expect((await repository.findById('org-a', ours.id))?.id).toBe(ours.id);
    expect(await repository.findById('org-a', other.id)).toBeNull();
  });

  it("deleteBefore: deletes the Organization's old changes in batches, none of another's", async () => {
    const old = newId();
    for (const organizationId of ['org-b', 'org-a'])
      await repository.record(organizationId, delivered(old), 'generic', [change('o1', 1, 'checkout', 1), change('o2', 2, 'checkout', 1)]);
    const before = await theirs();
    const cutoff = at(0, 2);
    expect(await repository.deleteBefore('org-a', cutoff, 1)).toBe(1);
    expect(await repository.deleteBefore('org-a', cutoff, 5)).toBe(1);
    expect(await repository.deleteBefore('org-a', cutoff, 5)).toBe(0);
    expect((await repository.page('org-a', { integrationId: old }, { limit: 10 })).items).toEqual([]);
    expect((await repository.page('org-a', { integrationId }, { limit: 10 })).items).toHaveLength(4);
    expect(await theirs()).toEqual(before);
  });

  describe('service calls', () => {
    const seen = (caller: string, callee: string) => ({ caller, callee });
    const theirCalls = () => organizationRows(dataSource, 'org-b', ['service_calls']);

    it("dependenciesOf follows the Organization's calls, nearest first, without regard to case, through cycles, to a bounded depth", async () => {
      // The other Organization sees checkout call what ours does not.
      await calls.record('org-b', { integrationId, investigationId: newId() }, [seen('checkout', 'fraud'), seen('fraud', 'ledger')]);
      const before = await theirCalls();
      await calls.record('org-a', { integrationId, investigationId: newId() }, [
        seen('Checkout', 'Payments'),
        seen('checkout', 'inventory'),
        seen('payments', 'ledger'),
        seen('ledger', 'checkout'), // a cycle back to the start
        seen('ledger', 'archive'),
        seen('archive', 'cold-storage'), // a fourth call away
        seen('inventory', 'inventory'), // a service calling itself is no dependency
        seen('', 'nothing'),
      ]);
      expect(DEPENDENCY_DEPTH).toBe(3);
      expect(await calls.dependenciesOf('org-a', ['CHECKOUT'])).toEqual(['inventory', 'Payments', 'ledger', 'archive']);
      // Each named as the series that showed it as called wrote it.
      expect(await calls.dependenciesOf('org-a', ['ledger'])).toEqual(['archive', 'checkout', 'cold-storage', 'inventory', 'Payments']);
      expect(await calls.dependenciesOf('org-a', ['cold-storage'])).toEqual([]);
      expect(await calls.dependenciesOf('org-a', [])).toEqual([]);
      expect(await calls.dependenciesOf('org-b', ['checkout'])).toEqual(['fraud', 'ledger']);
      expect(await theirCalls()).toEqual(before);
    });

    it('a call seen again is one call, named as last seen, and the list is bounded', async () => {
      const investigationId = newId();
      await calls.record('org-a', { integrationId, investigationId: newId() }, [seen('cart', 'stock')]);
      await calls.record('org-a', { integrationId, investigationId }, [seen('Cart', 'STOCK')]);
      const rows = (await dataSource.query(
        `SELECT caller, callee, investigation_id FROM service_calls WHERE organization_id = 'org-a' AND callee_key = 'stock'`,
      )) as {
        caller: string;
        callee: string;
        investigation_id: string;
      }[];
      expect(rows).toEqual([{ caller: 'Cart', callee: 'STOCK', investigation_id: investigationId }]);
      await calls.record(
        'org-a',
        { integrationId, investigationId },
        Array.from({ length: MAX_DEPENDENCIES + 5 }, (_, i) => seen('gateway', `backend-${String(i).padStart(3, '0')}`)),
      );
      const many = await calls.dependenciesOf('org-a', ['gateway']);
      expect(many).toHaveLength(MAX_DEPENDENCIES);
      expect(many[0]).toBe('backend-000');
    });

    it("deleteSeenBefore forgets the Organization's calls not seen since, none of another's", async () => {
      for (const organizationId of ['org-b', 'org-a'])
        await calls.record(organizationId, { integrationId, investigationId: newId() }, [seen('billing', 'tax'), seen('billing', 'mail')]);
      await dataSource.query(`UPDATE service_calls SET last_seen_at = '2026-01-01T00:00:00Z' WHERE organization_id = 'org-a' AND callee_key = 'tax'`);
      const before = await theirCalls();
      expect(await calls.organizationsWithCallsSeenBeforeAcrossOrganizations(at(0))).toEqual(['org-a']);
      expect(await calls.deleteSeenBefore('org-a', at(0))).toBe(1);
      expect(await calls.dependenciesOf('org-a', ['billing'])).toEqual(['mail']);
      expect(await calls.dependenciesOf('org-b', ['billing'])).toEqual(['mail', 'tax']);
      expect(await theirCalls()).toEqual(before);
    });
  });
});
