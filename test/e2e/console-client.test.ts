import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useBootstrappedApi } from '../support/factories';
import { CONSOLE_SCHEMA_FILE, consoleSchemaSource } from '../support/console-client';

/**
 * The console's client types are generated from the OpenAPI document the service serves, so the
 * console cannot drift from the document. With CONSOLE_CLIENT_WRITE=1 (`npm run console:client`)
 * the file is rewritten instead of compared.
 */
describe('the console client types', () => {
  const ctx = useBootstrappedApi();

  it('are what openapi-typescript makes of the served OpenAPI document', async () => {
    const res = await fetch(`${ctx.api.baseUrl}/api/v1/openapi.json`);
    expect(res.status).toBe(200);
    const expected = await consoleSchemaSource(await res.json());
    if (process.env.CONSOLE_CLIENT_WRITE === '1') writeFileSync(CONSOLE_SCHEMA_FILE, expected);
    const checkedIn = readFileSync(CONSOLE_SCHEMA_FILE, 'utf8');
    expect(checkedIn === expected, 'apps/console/src/api/schema.d.ts is out of date: run `npm run console:client`').toBe(true);
    expect(checkedIn).toContain('"/api/v1/investigations/{investigation}/events"');
  });
});
