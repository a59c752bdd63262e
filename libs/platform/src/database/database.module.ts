import { DynamicModule, Global, Logger, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource, MixedList } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { CredentialCipher } from './credential-cipher';
import { dataSourceOptions } from './data-source-options';
import { PlatformSetting } from './platform-setting.entity';
import { PlatformSettingsService } from './platform-settings.service';
import { SecretKeys } from './secret-keys';
import { installTimestampTypeParser } from './timestamp-type-parser';

installTimestampTypeParser();

export interface DatabaseModuleOptions {
  migrations: MixedList<Function>;
  /** Name the process shows in pg_stat_activity. */
  applicationName: string;
}

/**
 * The DataSource of one process. It never migrates by itself: it refuses to start while
 * migrations are pending, so an API never runs against a schema it does not know.
 */
@Global()
@Module({})
export class DatabaseModule {
  static forRoot(options: DatabaseModuleOptions): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRootAsync({
          inject: [AppConfig],
          useFactory: (config: AppConfig) => ({
            ...dataSourceOptions({
              url: config.DATABASE_URL,
              poolSize: config.SVC_DATABASE_POOL_SIZE,
              queryTimeoutMs: config.SVC_DATABASE_QUERY_TIMEOUT_MS,
              migrations: options.migrations,
              applicationName: options.applicationName,
            }),
            autoLoadEntities: true,
            retryAttempts: 0,
          }),
          dataSourceFactory: async (opts) => {
            const dataSource = await new DataSource(opts!).initialize();
            const pending = await dataSource.showMigrations();
            if (pending) {
              await dataSource.destroy();
              throw new Error('The database has pending migrations: run `npm run db:migrate` (or `npm start`, which migrates first)');
            }
            return dataSource;
          },
        }),
        TypeOrmModule.forFeature([PlatformSetting]),
      ],
      providers: [
        PlatformSettingsService,
        CredentialCipher,
        {
          provide: SecretKeys,
          inject: [AppConfig, PlatformSettingsService],
          useFactory: async (config: AppConfig, settings: PlatformSettingsService) => {
            if (config.SVC_SECRET_KEY) return new SecretKeys(Buffer.from(config.SVC_SECRET_KEY, 'utf8'));
            const stored = await settings.putIfAbsent('development_secret_key', SecretKeys.generateRoot());
            new Logger('SecretKeys').warn(
              'SVC_SECRET_KEY is not set: using a generated development key kept in the database. Set SVC_SECRET_KEY in production.',
            );
            return new SecretKeys(Buffer.from(stored.value, 'utf8'));
          },
        },
      ],
      exports: [TypeOrmModule, PlatformSettingsService, SecretKeys, CredentialCipher],
    };
  }
}
