import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { runMigrations } from '@svc/platform';
import { MIGRATIONS } from '../../migrations';
import { databaseUrl, runTag, templateDatabase, withServer } from './databases';

/** Once per run: a template database at the head migration, which every test file of the run clones. */
export default async function setup(): Promise<() => Promise<void>> {
  const template = templateDatabase(true);
  await withServer(async (client) => {
    await client.query(`DROP DATABASE IF EXISTS "${template}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE "${template}"`);
  });
  await runMigrations(databaseUrl(template), MIGRATIONS);
  return async () => {
    rmSync(join(__dirname, '../../.test-results', `built-${runTag(true)}`), { force: true });
    // This run's databases only (a file that failed may have left its own behind).
    await withServer(async (client) => {
      const tag = runTag(true);
      const own = await client.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname = $1 OR datname LIKE $2`, [
        template,
        `svc_test_${tag}_%`,
      ]);
      for (const row of own.rows) await client.query(`DROP DATABASE IF EXISTS "${row.datname}" WITH (FORCE)`);
    });
  };
}
