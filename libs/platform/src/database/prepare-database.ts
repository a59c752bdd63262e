import { Client } from 'pg';
import { DataSource, MixedList } from 'typeorm';
import { dataSourceOptions } from './data-source-options';

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** Creates the database named in the URL when it does not exist yet. Returns true when it created it. */
export async function ensureDatabase(url: string): Promise<boolean> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.replace(/^\//, ''));
  if (!name) throw new Error('DATABASE_URL names no database');
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount) return false;
    try {
      await client.query(`CREATE DATABASE ${quoteIdent(name)}`);
    } catch (error) {
      // Another process created it between the check and the CREATE.
      if ((error as { code?: string }).code === '42P04') return false;
      throw error;
    }
    return true;
  } finally {
    await client.end();
  }
}

const MIGRATION_LOCK = 7_402_114_001;

/**
 * Applies pending migrations under an advisory lock, so that several processes starting together
 * migrate once. Returns the names of the migrations applied.
 */
export async function runMigrations(url: string, migrations: MixedList<Function>): Promise<string[]> {
  const dataSource = new DataSource(dataSourceOptions({ url, migrations, poolSize: 2, applicationName: 'svc-migrate' }));
  await dataSource.initialize();
  const lock = dataSource.createQueryRunner();
  try {
    await lock.connect();
    await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return applied.map((m) => m.name);
  } finally {
    await lock.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    await lock.release();
    await dataSource.destroy();
  }
}
