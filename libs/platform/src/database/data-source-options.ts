import type { DataSourceOptions, MixedList } from 'typeorm';
import { SnakeNamingStrategy } from './snake-naming.strategy';

export interface DatabaseOptions {
  url: string;
  poolSize?: number;
  migrations?: MixedList<Function>;
  entities?: MixedList<Function | string>;
  applicationName?: string;
}

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
    extra: { connectionTimeoutMillis: 5000, idleTimeoutMillis: 30000 },
    logging: false,
  };
}
