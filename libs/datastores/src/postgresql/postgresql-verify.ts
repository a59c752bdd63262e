import type { DatastoreVerification } from '../datastore-verification';
import type { PostgresqlSession } from './postgresql-session';

interface Account {
  version: string;
  user: string;
  database: string;
  superuser: boolean;
  createRole: boolean;
  replication: boolean;
  readAllStats: boolean;
  writableTables: number;
  tables: number;
  statements: boolean;
}

/**
 * What the account may do, read in the session the tools use: a superuser, or an account that
 * can write to a table of the connected database or create roles, is more than investigations
 * need (verify fails and says so); one that cannot see other users' sessions in full works but
 * misses most of what the tools are for (verify succeeds and says what to grant).
 */
export async function verifyPostgresql(session: PostgresqlSession): Promise<DatastoreVerification> {
  const account = await session.readOnly(async (query) => {
    const [row] = await query<Account>(
      `SELECT split_part(current_setting('server_version'), ' ', 1) AS version, current_user AS user, current_database() AS database,
              r.rolsuper AS superuser, r.rolcreaterole AS "createRole", r.rolreplication AS replication,
              r.rolsuper OR pg_has_role(current_user, 'pg_read_all_stats', 'USAGE') AS "readAllStats",
              (SELECT count(*)::int FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                WHERE c.relkind IN ('r', 'p') AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_toast%'
                  AND has_table_privilege(c.oid, 'INSERT, UPDATE, DELETE, TRUNCATE')) AS "writableTables",
              (SELECT count(*)::int FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                WHERE c.relkind IN ('r', 'p') AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_toast%') AS tables,
              EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_stat_statements') AS statements
         FROM pg_roles r WHERE r.rolname = current_user`,
    );
    return row;
  });
  const who = `PostgreSQL ${account.version} as ${account.user} (database ${account.database})`;
  const excess = [
    account.superuser ? 'is a superuser' : null,
    account.createRole ? 'can create roles' : null,
    account.writableTables > 0 ? `can write to ${account.writableTables} of the ${account.tables} tables of ${account.database}` : null,
  ].filter((x): x is string => x !== null);
  if (excess.length) {
    return {
      outcome: 'failed',
      detail: `${who}: the account ${excess.join(', ')}; the tools only read, so give them a role that cannot write (pg_monitor and CONNECT, see the documentation)`,
    };
  }
  const notes = [
    account.readAllStats ? "sees every session's activity (pg_read_all_stats)" : "sees only its own sessions' queries: GRANT pg_monitor to read the others'",
    account.statements ? 'pg_stat_statements installed' : 'pg_stat_statements not installed (no statement timings)',
  ];
  return { outcome: 'succeeded', detail: `${who}: read-only (writes to none of the ${account.tables} tables); ${notes.join('; ')}` };
}
