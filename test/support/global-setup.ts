import { runMigrations } from '../../libs/platform/src/database/prepare-database';
import { MIGRATIONS } from '../../migrations';
import { databaseUrl, TEMPLATE_DATABASE, withServer } from './databases';

/** Once per run: a template database at the head migration, which every test file clones. */
export default async function setup(): Promise<() => Promise<void>> {
  await withServer(async (client) => {
    await client.query(`DROP DATABASE IF EXISTS "${TEMPLATE_DATABASE}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE "${TEMPLATE_DATABASE}"`);
  });
  await runMigrations(databaseUrl(TEMPLATE_DATABASE), MIGRATIONS);
  return async () => {
    await withServer(async (client) => {
      const stale = await client.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE 'svc_test_%'`);
      for (const row of stale.rows) await client.query(`DROP DATABASE IF EXISTS "${row.datname}" WITH (FORCE)`);
    });
  };
}
