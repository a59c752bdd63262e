import { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { Client } from 'pg';
import { ensureDatabase, loadConfig, runMigrations } from '@svc/platform';
import { dropQueueKeys, startApi, startWorker, stopApi, stopChild } from '../bench/support';
import { MIGRATIONS } from '../migrations';
import { freePort } from '../test/support/ports';
import { ApiClient, runScenario, ScenarioResult, table } from './harness';
import { runNezhaSuite, NEZHA_SUITE } from './nezha/suite';
import { SCENARIOS } from './scenarios';

/**
 * Evaluates the investigation reasoner the worker runs (built-in, or a language model when
 * SVC_LLM_* is set) on generated incidents: each scenario's data in a real Prometheus, its alerts
 * delivered as Alertmanager would, an investigation opened through the API of a real API process
 * and worked by a real worker process, scored against the scenario's ground truth.
 *
 * `--scenario=a,b` runs only those; `--list` prints the scenarios. `--suite=nezha-trainticket`
 * replays the faults of the Nezha dataset's TrainTicket days instead (eval/nezha/README.md), with
 * `--scenario=` selecting faults by id. `--json=path` writes the results as JSON.
 */
const arg = (name: string): string | undefined => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];

/** The API with the Admin's session cookie, and the Origin unsafe cookie requests need. */
class SessionClient implements ApiClient {
  cookie = '';

  constructor(readonly baseUrl: string) {}

  async request(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }> {
    const res = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: { cookie: this.cookie, origin: this.baseUrl, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text && res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text };
  }

  get(path: string) {
    return this.request('GET', path);
  }

  post(path: string, body?: unknown) {
    return this.request('POST', path, body);
  }
}

async function main(): Promise<void> {
  const suite = arg('suite') ?? 'generated';
  if (suite !== 'generated' && suite !== NEZHA_SUITE) throw new Error(`unknown suite ${suite}: generated or ${NEZHA_SUITE}`);
  if (suite === NEZHA_SUITE && process.argv.includes('--list')) {
    await runNezhaSuite(undefined, { list: true, only: arg('scenario')?.split(',') });
    return;
  }
  if (process.argv.includes('--list')) {
    for (const s of SCENARIOS) console.log(`${s.name} (${s.family}): ${s.story}`);
    return;
  }
  const only = arg('scenario')?.split(',');
  const scenarios = suite !== 'generated' ? [] : only ? SCENARIOS.filter((s) => only.includes(s.name)) : SCENARIOS;
  if (suite === 'generated' && only && scenarios.length !== only.length) throw new Error(`unknown scenario in ${only.join(', ')}; --list shows them`);
  const json = arg('json');
  const base = new URL(loadConfig().DATABASE_URL);
  base.pathname = `/svc_eval_${process.pid}`;
  const databaseUrl = base.toString();
  const port = await freePort();
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    DATABASE_URL: databaseUrl,
    REDIS_URL: loadConfig().REDIS_URL,
    PORT: String(port),
    LOG_LEVEL: 'info',
    SVC_SECRET_KEY: randomBytes(32).toString('hex'),
    SVC_BOOTSTRAP_CREDENTIAL: 'eval-bootstrap-credential',
    SVC_QUEUE_PREFIX: `eval-${process.pid}`,
    SVC_PUBLIC_URL: `http://127.0.0.1:${port}`,
    ...Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[0].startsWith('SVC_LLM_') && e[1] !== undefined)),
  };
  await ensureDatabase(databaseUrl);
  let api: ChildProcess | undefined;
  let worker: ChildProcess | undefined;
  const results: ScenarioResult[] = [];
  try {
    await runMigrations(databaseUrl, MIGRATIONS);
    const baseUrl = `http://127.0.0.1:${port}`;
    api = await startApi(env, port);
    worker = (await startWorker(env)).child;
    const client = new SessionClient(baseUrl);
    const boot = await fetch(`${baseUrl}/api/v1/auth/local/bootstrap`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${env.SVC_BOOTSTRAP_CREDENTIAL}` },
      body: JSON.stringify({
        organization: { id: 'eval', displayName: 'Evaluation' },
        user: { email: 'eval@example.com', name: 'Evaluation', password: 'a long enough password' },
      }),
    });
    if (boot.status !== 201) throw new Error(`bootstrap answered ${boot.status}: ${await boot.text()}`);
    client.cookie = boot.headers.getSetCookie()[0].split(';')[0];

    if (suite === NEZHA_SUITE) {
      await runNezhaSuite({ client, baseUrl }, { only, json });
      return;
    }

    // One at a time: the machine is shared, and time per investigation is reported.
    for (const scenario of scenarios) {
      const started = Date.now();
      try {
        results.push(await runScenario(client, scenario, { baseUrl, log: (line) => console.log(line) }));
      } catch (error) {
        results.push({
          scenario,
          investigationId: null,
          status: 'harness error',
          conclusionStatus: null,
          top1: false,
          grounded: false,
          citationsExist: false,
          falseConfidence: false,
          seconds: (Date.now() - started) / 1000,
          cause: '',
          alerts: [],
          error: (error as Error).message,
        });
      }
      const r = results[results.length - 1];
      console.log(
        `${scenario.name}: alerts ${r.alerts.join(', ') || '-'}; ${r.status}/${r.conclusionStatus ?? '-'} top-1 ${r.top1} grounded ${r.grounded} false confidence ${r.falseConfidence}: ${r.error ?? r.cause}`,
      );
    }
    console.log(`\nReasoner evaluation, ${results.length} scenario(s)\n`);
    console.log(table(results));
    if (json)
      writeFileSync(
        json,
        JSON.stringify(
          results.map(({ scenario, ...r }) => ({ scenario: scenario.name, family: scenario.family, ...r })),
          null,
          2,
        ),
      );
  } finally {
    await stopChild(worker);
    if (api) await stopApi(api);
    const admin = new URL(databaseUrl);
    admin.pathname = '/postgres';
    const db = new Client({ connectionString: admin.toString() });
    await db.connect();
    await db.query(`DROP DATABASE IF EXISTS "svc_eval_${process.pid}" WITH (FORCE)`);
    await db.end();
    await dropQueueKeys(env.REDIS_URL, env.SVC_QUEUE_PREFIX);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
