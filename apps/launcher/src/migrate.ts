import 'reflect-metadata';
import { ensureDatabase, loadConfigOrExit, runMigrations } from '@svc/platform';
import { MIGRATIONS } from '../../../migrations';

/** Creates the database when missing and applies pending migrations. Returns what it did, for the log. */
export async function prepareDatabase(databaseUrl: string): Promise<string[]> {
  const notes: string[] = [];
  if (await ensureDatabase(databaseUrl)) notes.push(`created database ${new URL(databaseUrl).pathname.slice(1)}`);
  const applied = await runMigrations(databaseUrl, MIGRATIONS);
  notes.push(applied.length ? `applied migrations: ${applied.join(', ')}` : 'schema is up to date');
  return notes;
}

if (require.main === module) {
  prepareDatabase(loadConfigOrExit().DATABASE_URL)
    .then((notes) => process.stdout.write(`${JSON.stringify({ level: 'info', msg: `database ready: ${notes.join('; ')}` })}\n`))
    .catch((error: unknown) => {
      process.stderr.write(`Migration failed: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    });
}
