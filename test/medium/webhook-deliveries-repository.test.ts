import { Test, TestingModule } from '@nestjs/testing';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALERTS_ENTITIES, WebhookDeliveriesRepository } from '@svc/alerts';
import { AUTH_ENTITIES } from '@svc/auth';
import { ORGANIZATIONS_ENTITIES } from '@svc/organizations';
import { CursorCodec, dataSourceOptions, newId, ScopedRepositoryModule, SecretKeys } from '@svc/platform';
import { createTestDatabase } from '../support/databases';

/**
 * Each statement of WebhookDeliveriesRepository run for one Organization while another
 * Organization holds deliveries of the same integration id, received at the same instants.
 */
describe('WebhookDeliveriesRepository keeps to one Organization', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let moduleRef: TestingModule;
  let dataSource: DataSource;
  let repository: WebhookDeliveriesRepository;
  const integrationId = newId();
  const ours = [newId(), newId(), newId()];
  const theirs = [newId(), newId(), newId()];

  async function insert(organizationId: string, id: string, second: number): Promise<void> {
    await dataSource.query(
      `INSERT INTO webhook_deliveries (organization_id, id, integration_id, received_at, status_code, incident_ids, headers, body)
       VALUES ($1, $2, $3, $4, 202, '[]', '{}', '{}')`,
      [organizationId, id, integrationId, new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString()],
    );
  }

  beforeAll(async () => {
    db = await createTestDatabase();
    moduleRef = await Test.createTestingModule({
      imports: [
        TypeOrmModule.forRoot(dataSourceOptions({ url: db.url, entities: [...ALERTS_ENTITIES, ...ORGANIZATIONS_ENTITIES, ...AUTH_ENTITIES] })),
        ScopedRepositoryModule.forFeature(ALERTS_ENTITIES),
      ],
      providers: [WebhookDeliveriesRepository, CursorCodec, { provide: SecretKeys, useValue: new SecretKeys(Buffer.alloc(32, 7)) }],
    }).compile();
    dataSource = moduleRef.get(DataSource);
    repository = moduleRef.get(WebhookDeliveriesRepository);
    await dataSource.query(`INSERT INTO organizations (id, display_name) VALUES ('org-a', 'A'), ('org-b', 'B')`);
    for (const [i, id] of ours.entries()) await insert('org-a', id, i);
    for (const [i, id] of theirs.entries()) await insert('org-b', id, i);
  });
  afterAll(async () => {
    await moduleRef?.close();
    await db?.drop();
  });

  it("page: newest first, across pages, only the Organization's deliveries", async () => {
    const first = await repository.page('org-a', {}, { limit: 2 });
    expect(first.items.map((d) => d.id)).toEqual([ours[2], ours[1]]);
    const second = await repository.page('org-a', {}, { limit: 2, cursor: first.next! });
    expect(second.items.map((d) => d.id)).toEqual([ours[0]]);
    expect(second.next).toBeNull();
    const filtered = await repository.page('org-a', { integrationId }, { limit: 10 });
    expect(filtered.items.map((d) => d.id)).toEqual([ours[2], ours[1], ours[0]]);
    expect(filtered.items.every((d) => d.organizationId === 'org-a')).toBe(true);
  });

  it('page: a cursor of one Organization is refused by another', async () => {
    const first = await repository.page('org-a', {}, { limit: 1 });
    await expect(repository.page('org-b', {}, { limit: 1, cursor: first.next! })).rejects.toThrow();
  });

  it("findById: another Organization's delivery is not found, inside a transaction too", async () => {
    expect((await repository.findById('org-a', ours[0]))?.id).toBe(ours[0]);
    expect(await repository.findById('org-a', theirs[0])).toBeNull();
    await dataSource.transaction(async (manager) => {
      expect(await repository.findById('org-a', theirs[1], manager)).toBeNull();
      expect((await repository.findById('org-b', theirs[1], manager))?.organizationId).toBe('org-b');
    });
  });
});
