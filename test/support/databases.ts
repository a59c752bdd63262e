import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

/** The PostgreSQL server the tests use; each test file gets its own database on it. */
export const TEST_SERVER_URL = process.env.TEST_DATABASE_SERVER_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/**
 * Databases are named after the test run (the Vitest main process: the global setup runs in it,
 * and test files run in processes it forks), so concurrent runs never touch each other's.
 */
export function runTag(inGlobalSetup = false): string {
  return String(inGlobalSetup ? process.pid : process.ppid);
}

export function templateDatabase(inGlobalSetup = false): string {
  return `svc_test_template_${runTag(inGlobalSetup)}`;
}

export function databaseUrl(name: string): string {
  const url = new URL(TEST_SERVER_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function withServer<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: TEST_SERVER_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * A new database cloned from the migrated template: a fresh, migrated database in milliseconds.
 * With `empty`, a database with no schema at all (for a test that runs migrations itself).
 */
export async function createTestDatabase(options: { empty?: boolean } = {}): Promise<{ name: string; url: string; drop: () => Promise<void> }> {
  const name = `svc_test_${runTag()}_${randomBytes(6).toString('hex')}`;
  await withServer(async (client) => {
    for (let attempt = 0; ; attempt++) {
      try {
        await client.query(options.empty ? `CREATE DATABASE "${name}"` : `CREATE DATABASE "${name}" TEMPLATE "${templateDatabase()}"`);
        return;
      } catch (error) {
        // Two clones starting at the same instant can briefly see each other on the template.
        if (attempt < 20 && /being accessed by other users/.test((error as Error).message)) {
          // A randomised back-off before trying the clone again, not a wait for something to happen.
          // eslint-disable-next-line timing/no-guessed-sleep
          await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
          continue;
        }
        throw error;
      }
    }
  });
  return {
    name,
    url: databaseUrl(name),
    drop: () =>
      withServer(async (client) => {
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      }),
  };
}
