import { describe, expect, it } from 'vitest';
import { PUBLIC_ORIGIN } from '../support/api';
import { ADMIN, useBootstrappedApi } from '../support/factories';
import { OpenApiContract } from '../support/openapi-contract';
import { fuzzOperations, prepareFuzzTarget } from '../support/openapi-fuzz';

/**
 * A fixed seed, so the suite gives the same answer for the same code (a new operation or schema
 * changes what is generated); `FUZZ_SEED` picks another, and `npm run fuzz` draws a new one each run.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);

/**
 * A small bounded fuzz pass over every operation of the OpenAPI document (`npm run fuzz` runs a
 * longer one): valid and invalid inputs from the schemas, as an Admin. No answer may be a server
 * error, and every answer must be one the document describes.
 */
describe('schema-driven fuzz of the API', () => {
  const ctx = useBootstrappedApi({ env: { SVC_RATE_LIMIT_PER_MINUTE: '1000000', SVC_SIGN_IN_MAX_FAILURES: '1000' } });

  it('answers a few hundred generated requests without a server error or an undocumented answer', async () => {
    console.log(`fuzz seed ${SEED} (FUZZ_SEED=${SEED} replays it)`);
    const contract = await OpenApiContract.load(ctx.api.baseUrl);
    const prepared = await prepareFuzzTarget(ctx.api.baseUrl, PUBLIC_ORIGIN, ADMIN);
    const result = await fuzzOperations({ baseUrl: ctx.api.baseUrl, contract, ...prepared, requests: 300, seed: SEED });
    expect(result.failures).toEqual([]);
    expect(result.sent).toBe(300);
    // The walk reached handlers, not only validation: some valid requests succeeded.
    expect([...result.statuses.keys()].filter((k) => / 2\d\d$/.test(k)).length).toBeGreaterThan(20);
  }, 180_000);
});
