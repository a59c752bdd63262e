import type { DatastoreDriver } from '../datastore-driver';
import { POSTGRESQL_READS, readPostgresql } from './postgresql-reads';
import type { PostgresqlRead } from './postgresql-reads';
import { PostgresqlSession } from './postgresql-session';
import { verifyPostgresql } from './postgresql-verify';

export const POSTGRESQL_DRIVER: DatastoreDriver<PostgresqlSession> = {
  open: (endpoint, address, limits, signal, ca) => PostgresqlSession.open(endpoint, address, limits, signal, ca),
  reads: Object.fromEntries(
    Object.keys(POSTGRESQL_READS).map((name) => [
      name,
      (session: PostgresqlSession, args: Record<string, unknown>) => readPostgresql(session, name as PostgresqlRead, args),
    ]),
  ),
  verify: verifyPostgresql,
};
