import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { dataSourceOptions, loadConfig } from '@svc/platform';
import { MIGRATIONS } from './migrations';

/** The DataSource the TypeORM CLI uses (migration:generate / migration:run), on the compiled code. */
export default new DataSource(
  dataSourceOptions({
    url: loadConfig().DATABASE_URL,
    entities: [`${__dirname}/libs/**/*.entity.js`],
    migrations: MIGRATIONS,
    applicationName: 'svc-cli',
  }),
);
