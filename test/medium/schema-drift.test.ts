import { Test } from '@nestjs/testing';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '@svc/platform';
import { createTestDatabase } from '../support/databases';

describe('migrations and entities', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let close: () => Promise<void>;
  let dataSource: DataSource;

  beforeAll(async () => {
    db = await createTestDatabase();
    Object.assign(process.env, { DATABASE_URL: db.url, SVC_SECRET_KEY: 'x'.repeat(32) });
    const { AppModule } = await import('../../apps/api/src/app.module');
    const moduleRef = await Test.createTestingModule({ imports: [AppModule.forRoot(loadConfig())] }).compile();
    const app = moduleRef.createNestApplication({ logger: false });
    await app.init();
    dataSource = app.get(DataSource);
    close = () => app.close();
  });
  afterAll(async () => {
    await close?.();
    await db?.drop();
  });

  it('the committed migrations produce exactly the schema the entities describe', async () => {
    const sql = await dataSource.driver.createSchemaBuilder().log();
    expect(
      sql.upQueries.map((q) => q.query),
      'run `npm run migration:generate -- <Name>` and commit the result',
    ).toEqual([]);
  });

  it('every timestamp column is timestamptz', async () => {
    const rows = await dataSource.query(`SELECT table_name, column_name FROM information_schema.columns
      WHERE table_schema = 'public' AND data_type = 'timestamp without time zone'`);
    expect(rows).toEqual([]);
  });
});
