import { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { ensureDatabase, loadConfig, runMigrations } from '@svc/platform';
import { MIGRATIONS } from '../migrations';
import { OpenApiContract } from '../test/support/openapi-contract';
import { fuzzOperations, prepareFuzzTarget } from '../test/support/openapi-fuzz';
import { freePort, startApi, stopApi } from './support';

/**
 * `npm run fuzz`: a schema-driven fuzz run against a real API process on loopback, bounded by a
 * request count. It walks every operation of the served OpenAPI document with valid and invalid
 * inputs generated from its schemas, as an Admin of an Organization, and fails (exit 1) on any
 * 5xx or any response the document contradicts. `--requests=N` (default 5000), `--seed=N` (printed,
 * to replay a run). It uses its own database (dropped afterwards) and Redis key prefix.
 */
const REQUESTS = Number(process.argv.find((a) => a.startsWith('--requests='))?.split('=')[1] ?? 5000);
const SEED = Number(process.argv.find((a) => a.startsWith('--seed='))?.split('=')[1] ?? Math.floor(Math.random() * 2 ** 31));
const BOOTSTRAP = 'fuzz-bootstrap-credential-0123456789';
const ADMIN = { email: 'fuzz-admin@example.com', name: 'Fuzz Admin', password: 'fuzz admin password' };

async function main(): Promise<number> {
  const config = loadConfig();
  const base = new URL(config.DATABASE_URL);
  base.pathname = `/svc_fuzz_${process.pid}`;
  const databaseUrl = base.toString();
  await ensureDatabase(databaseUrl);
  let api: ChildProcess | undefined;
  try {
    await runMigrations(databaseUrl, MIGRATIONS);
    const port = await freePort();
    api = await startApi(
      {
        PATH: process.env.PATH ?? '',
        DATABASE_URL: databaseUrl,
        REDIS_URL: config.REDIS_URL,
        SVC_SECRET_KEY: randomBytes(32).toString('hex'),
        SVC_BOOTSTRAP_CREDENTIAL: BOOTSTRAP,
        SVC_QUEUE_PREFIX: `fuzz-${process.pid}`,
        // The fuzz measures answers, not limits: the request limit and the sign-in throttle stay out of its way.
        SVC_RATE_LIMIT_PER_MINUTE: '10000000',
        SVC_SIGN_IN_MAX_FAILURES: '1000',
        // Outbound requests (verify) may only reach loopback, which is all the generated URLs name.
        SVC_OUTBOUND_DENY: 'private',
        LOG_LEVEL: 'error',
      },
      port,
    );
    const baseUrl = `http://127.0.0.1:${port}`;
    const boot = await fetch(`${baseUrl}/api/v1/auth/local/bootstrap`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${BOOTSTRAP}` },
      body: JSON.stringify({ organization: { id: 'fuzz', displayName: 'Fuzz' }, user: ADMIN }),
    });
    if (boot.status !== 201) throw new Error(`bootstrap answered ${boot.status}: ${await boot.text()}`);
    const contract = await OpenApiContract.load(baseUrl);
    const prepared = await prepareFuzzTarget(baseUrl, baseUrl, ADMIN);
    console.log(`Fuzzing ${contract.operations().length} operations with ${REQUESTS} requests, seed ${SEED} (--seed=${SEED} replays it)`);
    const started = Date.now();
    const result = await fuzzOperations({
      baseUrl,
      contract,
      ...prepared,
      requests: REQUESTS,
      seed: SEED,
      log: (line) => console.log(line),
    });
    const statuses = new Map<string, number>();
    for (const [key, count] of result.statuses) {
      const status = key.split(' ').pop()!;
      statuses.set(status, (statuses.get(status) ?? 0) + count);
    }
    console.log(`\n${result.sent} requests in ${((Date.now() - started) / 1000).toFixed(1)} s; answers by status:`);
    for (const [status, count] of [...statuses].sort()) console.log(`  ${status}: ${count}`);
    const reached = new Set([...result.statuses.keys()].filter((k) => / 2\d\d$/.test(k)).map((k) => k.split(' ').slice(0, 2).join(' ')));
    console.log(`Operations answered with a success at least once: ${reached.size} of ${contract.operations().length}`);
    const never = contract.operations().filter((o) => !reached.has(`${o.method.toUpperCase()} ${o.template}`));
    for (const o of never) console.log(`  never a success: ${o.method.toUpperCase()} ${o.template}`);
    if (result.failures.length > 0) {
      console.log(`\n${result.failures.length} failure(s), seed ${SEED}:`);
      for (const failure of result.failures) console.log(`- ${failure}`);
      return 1;
    }
    console.log('No server error and no answer the document contradicts.');
    return 0;
  } finally {
    if (api) await stopApi(api);
    const admin = new URL(databaseUrl);
    admin.pathname = '/postgres';
    const client = new Client({ connectionString: admin.toString() });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS "svc_fuzz_${process.pid}" WITH (FORCE)`);
    await client.end();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
