#!/usr/bin/env node
// Writes migrations/<timestamp>-<Name>.ts with the SQL that brings a database migrated to the
// current head in line with the entities, and registers it in migrations/index.ts.
// Usage: npm run migration:generate -- <Name>   (runs on the compiled code in dist/)
'use strict';
require('reflect-metadata');
const { writeFileSync, readFileSync } = require('node:fs');
const { join } = require('node:path');
const { Client } = require('pg');
const { DataSource } = require('typeorm');
const { dataSourceOptions, loadConfig, runMigrations } = require('../dist/libs/platform/src');
const { MIGRATIONS } = require('../dist/migrations');

async function main() {
  const name = process.argv[2];
  if (!name || !/^[A-Z][A-Za-z0-9]+$/.test(name)) throw new Error('Give the migration a PascalCase name: npm run migration:generate -- AddThings');
  const base = new URL(loadConfig().DATABASE_URL);
  const scratch = `svc_migration_scratch_${process.pid}`;
  const admin = new URL(base);
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString() });
  await client.connect();
  await client.query(`CREATE DATABASE "${scratch}"`);
  const url = new URL(base);
  url.pathname = `/${scratch}`;
  try {
    await runMigrations(url.toString(), MIGRATIONS);
    const dataSource = new DataSource(dataSourceOptions({ url: url.toString(), entities: [join(__dirname, '../dist/libs/**/*.entity.js')] }));
    await dataSource.initialize();
    const sql = await dataSource.driver.createSchemaBuilder().log();
    await dataSource.destroy();
    if (sql.upQueries.length === 0) {
      console.log('Entities and migrations agree: nothing to generate.');
      return;
    }
    const stamp = Date.now();
    const className = `${name}${stamp}`;
    const q = (query) =>
      `    await queryRunner.query(${JSON.stringify(query.query)}${query.parameters?.length ? `, ${JSON.stringify(query.parameters)}` : ''});`;
    const file = `import { MigrationInterface, QueryRunner } from 'typeorm';

export class ${className} implements MigrationInterface {
  name = '${className}';

  public async up(queryRunner: QueryRunner): Promise<void> {
${sql.upQueries.map(q).join('\n')}
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
${sql.downQueries.reverse().map(q).join('\n')}
  }
}
`;
    const path = join(__dirname, '../migrations', `${stamp}-${name}.ts`);
    writeFileSync(path, file);
    const indexPath = join(__dirname, '../migrations/index.ts');
    let index = readFileSync(indexPath, 'utf8');
    index = index.replace(
      /(export const MIGRATIONS: Function\[\] = \[)([^\]]*)(\];)/s,
      (_, a, list, c) => `${a}${list.trim() ? `${list.trimEnd()}\n  ` : '\n  '}${className},\n${c}`,
    );
    index = `import { ${className} } from './${stamp}-${name}';\n${index}`;
    writeFileSync(indexPath, index);
    console.log(`Wrote ${path}`);
  } finally {
    await client.query(`DROP DATABASE IF EXISTS "${scratch}" WITH (FORCE)`);
    await client.end();
  }
}

main().catch((error) => {
  console.error(error.message);
  process.exit(1);
});
