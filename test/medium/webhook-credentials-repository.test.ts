import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashWebhookSecret, WebhookCredentialsRepository } from '@svc/integrations';
import { dataSourceOptions, newId } from '@svc/platform';
import { createTestDatabase } from '../support/databases';
import { until } from '../support/until';

/**
 * Webhook authentication reads by integration id across Organizations by nature (the URL names no
 * Organization). Each statement reads exactly the integrations it is asked for, whatever their
 * Organization, reports the row's own Organization, and writes nothing.
 */
describe('WebhookCredentialsRepository against PostgreSQL', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let dataSource: DataSource;
  let repository: WebhookCredentialsRepository;
  const ids = { a: newId(), aDisabled: newId(), b: newId() };
  const snapshot = () => dataSource.query('SELECT organization_id, id, enabled, webhook_secret_hash, updated_at, xmin::text FROM integrations ORDER BY id');

  beforeAll(async () => {
    db = await createTestDatabase();
    dataSource = await new DataSource(dataSourceOptions({ url: db.url, entities: [] })).initialize();
    await dataSource.query(`INSERT INTO organizations (id, display_name) VALUES ('org-a', 'A'), ('org-b', 'B')`);
    const insert = (org: string, id: string, enabled: boolean, secret: string) =>
      dataSource.query(
        `INSERT INTO integrations (organization_id, id, type, name, enabled, config, webhook_secret_hash, created_by) VALUES ($1, $2, 'generic', $3, $4, '{"groupingLabels":["service"]}', $5, $6)`,
        [org, id, `${org} ${secret}`, enabled, hashWebhookSecret(secret), newId()],
      );
    await insert('org-a', ids.a, true, 'secret-a');
    await insert('org-a', ids.aDisabled, false, 'secret-a2');
    await insert('org-b', ids.b, true, 'secret-b');
    repository = new WebhookCredentialsRepository(dataSource);
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });

  it('finds one integration by id, with its own Organization, and nothing for an unknown id', async () => {
    const before = await snapshot();
    const a = await repository.findByIdAcrossOrganizations(ids.a);
    expect(a).toMatchObject({ organizationId: 'org-a', type: 'generic', enabled: true, config: { groupingLabels: ['service'] } });
    expect(a!.secretHash!.equals(hashWebhookSecret('secret-a'))).toBe(true);
    expect((await repository.findByIdAcrossOrganizations(ids.b))?.organizationId).toBe('org-b');
    expect(await repository.findByIdAcrossOrganizations(newId())).toBeUndefined();
    expect(await snapshot()).toEqual(before);
  });

  it('locks and reads the current secrets of exactly the enabled integrations asked for, writing nothing', async () => {
    const before = await snapshot();
    const current = await dataSource.transaction((manager) =>
      repository.lockCurrentSecretsAcrossOrganizations(manager, [
        { organizationId: 'org-a', integrationId: ids.a },
        { organizationId: 'org-a', integrationId: ids.aDisabled },
      ]),
    );
    expect([...current.keys()]).toEqual([ids.a]);
    expect(current.get(ids.a)!.equals(hashWebhookSecret('secret-a'))).toBe(true);
    const both = await dataSource.transaction((manager) =>
      repository.lockCurrentSecretsAcrossOrganizations(manager, [
        { organizationId: 'org-b', integrationId: ids.b },
        { organizationId: 'org-a', integrationId: ids.a },
      ]),
    );
    expect(new Set(both.keys())).toEqual(new Set([ids.a, ids.b]));
    // An integration asked for under another Organization is not found.
    const foreign = await dataSource.transaction((manager) =>
      repository.lockCurrentSecretsAcrossOrganizations(manager, [{ organizationId: 'org-a', integrationId: ids.b }]),
    );
    expect(foreign.size).toBe(0);
    expect(await snapshot()).toEqual(before);
  });

  it('holds off a change of a locked integration until the reading transaction ends', async () => {
    const runner = dataSource.createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    await repository.lockCurrentSecretsAcrossOrganizations(runner.manager, [{ organizationId: 'org-b', integrationId: ids.b }]);
    let rotated = false;
    const rotation = dataSource
      .transaction(async (manager) => {
        await manager.query('SELECT id FROM integrations WHERE organization_id = $1 AND id = $2 FOR UPDATE', ['org-b', ids.b]);
        await manager.query('UPDATE integrations SET webhook_secret_hash = $3 WHERE organization_id = $1 AND id = $2', [
          'org-b',
          ids.b,
          hashWebhookSecret('secret-b2'),
        ]);
      })
      .then(() => {
        rotated = true;
      });
    // The rotation is waiting on the lock: PostgreSQL shows it blocked by the reading transaction.
    const readerPid = (await runner.query('SELECT pg_backend_pid() AS pid'))[0].pid;
    await until(
      async () => {
        const [{ blocked }] = await dataSource.query('SELECT count(*)::int AS blocked FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))', [
          readerPid,
        ]);
        return blocked > 0;
      },
      10_000,
      "the rotation to wait on the reader's lock",
    );
    expect(rotated).toBe(false);
    await runner.commitTransaction();
    await runner.release();
    await rotation;
    const after = await dataSource.transaction((manager) =>
      repository.lockCurrentSecretsAcrossOrganizations(manager, [{ organizationId: 'org-b', integrationId: ids.b }]),
    );
    expect(after.get(ids.b)!.equals(hashWebhookSecret('secret-b2'))).toBe(true);
  });
});
