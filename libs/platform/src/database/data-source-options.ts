import type { DataSourceOptions, MixedList } from 'typeorm';
import { SnakeNamingStrategy } from './snake-naming.strategy';

export interface DatabaseOptions {
  url: string;
  poolSize?: number;
  migrations?: MixedList<Function>;
  entities?: MixedList<Function | string>;
  applicationName?: string;
  /** Fail a query PostgreSQL has not answered within this many milliseconds (none by default). */
  queryTimeoutMs?: number;
}

/**
 * How long getting a connection may take, from the pool or a new one (node-postgres'
 * `connectionTimeoutMillis`): a database that refuses or never answers fails the request within it.
 */
export const CONNECTION_TIMEOUT_MS = 5000;

/** The one place that says how the service talks to PostgreSQL; used by the apps, the CLI and tests. */
export function dataSourceOptions(options: DatabaseOptions): DataSourceOptions {
  return {
    type: 'postgres',
    url: options.url,
    synchronize: false,
    migrationsRun: false,
    migrationsTableName: 'schema_migrations',
    migrationsTransactionMode: 'each',
    migrations: options.migrations ?? [],
    entities: options.entities ?? [],
    namingStrategy: new SnakeNamingStrategy(),
    applicationName: options.applicationName ?? 'incident-investigation-service',
    poolSize: options.poolSize ?? 10,
    extra: {
      connectionTimeoutMillis: CONNECTION_TIMEOUT_MS,
      idleTimeoutMillis: 30000,
      ...(options.queryTimeoutMs !== undefined ? { query_timeout: options.queryTimeoutMs } : {}),
    },
    logging: false,
  };
}
