import { DataSource, QueryRunner } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignInLocksRepository } from '@svc/auth';
import { dataSourceOptions } from '@svc/platform';
import { createTestDatabase } from '../support/databases';
import { until } from '../support/until';

/**
 * Sign-in locks are deployment-wide advisory locks (users are not an Organization's rows): they
 * read and write no table. What they must do is serialize exactly the work they name: the same key
 * waits for the holder's transaction to end, another key does not.
 */
describe('SignInLocksRepository', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let dataSource: DataSource;
  let locks: SignInLocksRepository;

  beforeAll(async () => {
    db = await createTestDatabase();
    dataSource = await new DataSource(dataSourceOptions({ url: db.url, poolSize: 4 })).initialize();
    locks = new SignInLocksRepository(dataSource);
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });

  async function inTransaction(): Promise<QueryRunner> {
    const runner = dataSource.createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    return runner;
  }

  const waitingOn = async (holder: QueryRunner): Promise<boolean> => {
    const [{ pid }] = await holder.query('SELECT pg_backend_pid() AS pid');
    const [{ blocked }] = await dataSource.query('SELECT count(*)::int AS blocked FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))', [pid]);
    return blocked > 0;
  };

  it("one identity's lock holds off a second sign-in of the same identity until the first transaction ends, not another identity's", async () => {
    const holder = await inTransaction();
    await locks.lockIdentityDeploymentWide('oidc-identity:https://idp.example\nada', holder.manager);

    const other = await inTransaction();
    await locks.lockIdentityDeploymentWide('oidc-identity:https://idp.example\ngrace', other.manager);
    await other.commitTransaction();
    await other.release();

    const second = await inTransaction();
    let acquired = false;
    const waiting = locks.lockIdentityDeploymentWide('oidc-identity:https://idp.example\nada', second.manager).then(() => {
      acquired = true;
    });
    await until(() => waitingOn(holder), 10_000, 'the second sign-in to wait on the first one');
    expect(acquired).toBe(false);

    await holder.commitTransaction();
    await holder.release();
    await waiting;
    expect(acquired).toBe(true);
    await second.commitTransaction();
    await second.release();
  });

  it('the bootstrap lock serializes concurrent bootstraps and is released with the transaction', async () => {
    const holder = await inTransaction();
    await locks.lockBootstrapDeploymentWide(holder.manager);
    const second = await inTransaction();
    let acquired = false;
    const waiting = locks.lockBootstrapDeploymentWide(second.manager).then(() => {
      acquired = true;
    });
    await until(() => waitingOn(holder), 10_000, 'the second bootstrap to wait on the first one');
    expect(acquired).toBe(false);
    await holder.rollbackTransaction();
    await holder.release();
    await waiting;
    expect(acquired).toBe(true);
    await second.commitTransaction();
    await second.release();
  });
});
