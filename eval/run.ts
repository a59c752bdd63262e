import { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { ensureDatabase, loadConfig, runMigrations } from '@svc/platform';
import { dropQueueKeys, startApi, startWorker, stopApi, stopChild } from '../bench/support';
import { MIGRATIONS } from '../migrations';
import { freePort } from '../test/support/ports';
import { writeFileSync } from 'node:fs';
import type { HeldCondition } from './datastore-scenarios';
import { ApiClient, resultsJson, runScenario, ScenarioResult, stageScenario, StageResult, table } from './harness';
import { Scenario } from './scenarios';
import { NEZHA_SUITE, runNezhaSuite } from './nezha/suite';
import { ALL_SCENARIOS, conventionOf, Suite, SUITES, suiteOf } from './suites';

/**
 * Evaluates the investigation reasoner the worker runs (built-in, or a language model when
 * SVC_LLM_* is set) on generated incidents: each scenario's data in a real Prometheus, its alerts
 * delivered as Alertmanager would, an investigation opened through the API of a real API process
 * and worked by a real worker process, scored against the scenario's ground truth.
 *
 * `--suite=own,conventions-dev` runs only those suites (default: all); `--suite=nezha-trainticket`
 * replays the faults of the Nezha dataset's TrainTicket days (eval/nezha/README.md), also part of
 * the default; `--scenario=a,b` runs only those scenarios (or Nezha faults, by id); `--list` prints the scenarios with their suite and convention; `--json=path`
 * also writes the results as JSON; `--stage-only` stages each scenario's Prometheus and derives its
 * alerts (no API or worker), to show that every page fires; `--dump=dir` writes each ended
 * investigation's single read, with its runs, to `dir/<scenario>.json`. The Nezha faults are
 * replayed with their pods' logs in a Loki beside the Prometheus; `--without-logs` leaves it out.
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

/** The suites `--suite` selects (all by default). */
function selectedSuites(): string[] {
  const suites = arg('suite')?.split(',') ?? [...SUITES, NEZHA_SUITE];
  for (const suite of suites)
    if (!(SUITES as readonly string[]).includes(suite) && suite !== NEZHA_SUITE)
      throw new Error(`unknown suite ${suite}; the suites are ${[...SUITES, NEZHA_SUITE].join(', ')}`);
  return suites;
}

/** The generated scenarios `--suite` and `--scenario` select, and the names `--scenario` gives that are none of them (Nezha faults). */
function selected(): { scenarios: Scenario[]; rest: string[] | undefined } {
  const suites = selectedSuites();
  const inSuites = ALL_SCENARIOS.filter((s) => suites.includes(suiteOf(s) as Suite));
  const only = arg('scenario')?.split(',');
  const scenarios = only ? inSuites.filter((s) => only.includes(s.name)) : inSuites;
  const rest = only?.filter((name) => !scenarios.some((s) => s.name === name));
  if (rest?.length && !suites.includes(NEZHA_SUITE)) throw new Error(`unknown scenario in ${only!.join(', ')} (of ${suites.join(', ')}); --list shows them`);
  return { scenarios, rest };
}

/** Stages every selected scenario and prints whether and when its page fired. */
async function stageOnly(scenarios: Scenario[]): Promise<void> {
  const results: StageResult[] = [];
  for (const scenario of scenarios) {
    let r: StageResult;
    try {
      r = await stageScenario(scenario);
    } catch (error) {
      r = { scenario, series: 0, pageFiredMinutesAgo: null, pageEpisodes: 0, others: {}, seconds: 0, error: (error as Error).message };
    }
    results.push(r);
    const others = Object.entries(r.others).map(([a, n]) => `${a} x${n}`);
    console.log(
      `${scenario.name} [${suiteOf(scenario)}, ${conventionOf(scenario)}]: ${r.series} series; ${scenario.rule.alert} ` +
        `${r.error ? `error: ${r.error}` : r.pageFiredMinutesAgo === null ? 'NEVER FIRED' : `fired ${r.pageFiredMinutesAgo} min before the end (${r.pageEpisodes} episode(s))`}` +
        `${others.length ? `; also ${others.join(', ')}` : ''} (${r.seconds.toFixed(1)} s)`,
    );
  }
  // A page that never fired, or first fired more than an hour before the end (before any scenario's fault), is broken.
  const broken = results.filter((r) => r.error || r.pageFiredMinutesAgo === null || r.pageFiredMinutesAgo > 60);
  console.log(`\n${results.length - broken.length}/${results.length} pages fired within the last hour of their data.`);
  for (const r of broken) console.log(`broken: ${r.scenario.name}`);
  if (broken.length) process.exitCode = 1;
}

async function main(): Promise<void> {
  const { scenarios, rest } = selected();
  const nezha = selectedSuites().includes(NEZHA_SUITE);
  // The Nezha faults --scenario names (all when it names none of them, or is not given).
  const nezhaOnly = rest?.length ? rest : undefined;
  if (process.argv.includes('--list')) {
    for (const s of scenarios)
      console.log(`${s.name} [${suiteOf(s)}, ${conventionOf(s)}${s.missing?.length ? `, no ${s.missing.join(', ')}` : ''}] (${s.family}): ${s.story}`);
    if (nezha) await runNezhaSuite(undefined, { list: true, only: nezhaOnly });
    return;
  }
  if (process.argv.includes('--stage-only')) return stageOnly(scenarios);
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
  const held = new Map<string, Promise<HeldCondition>>();
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

    // The datastore scenarios' conditions are made now and their scenarios run last: the page fires
    // in data that reaches minutes past the condition, and the others' time passes meanwhile.
    for (const scenario of scenarios.filter((s) => s.datastore)) {
      const condition = scenario.datastore!.hold();
      condition.catch(() => undefined); // awaited (and its failure reported) when the scenario runs
      held.set(scenario.name, condition);
    }
    const ordered = [...scenarios.filter((s) => !s.datastore), ...scenarios.filter((s) => s.datastore)];
    // One at a time: the machine is shared, and time per investigation is reported.
    for (const scenario of ordered) {
      const started = Date.now();
      try {
        results.push(await runScenario(client, scenario, { baseUrl, log: (line) => console.log(line), dumpTo: arg('dump'), held }));
      } catch (error) {
        results.push({
          scenario,
          investigationId: null,
          status: 'harness error',
          conclusionStatus: null,
          top1: false,
          top3: false,
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
        `${scenario.name}: alerts ${r.alerts.join(', ') || '-'}; ${r.status}/${r.conclusionStatus ?? '-'} top-1 ${r.top1} top-3 ${r.top3} grounded ${r.grounded} false confidence ${r.falseConfidence}: ${r.error ?? r.cause}`,
      );
    }
    const json = arg('json');
    if (scenarios.length) {
      console.log(`\nReasoner evaluation, ${results.length} scenario(s)\n`);
      console.log(table(results));
    }
    if (json && scenarios.length) {
      const llm = Object.keys(env).some((k) => k.startsWith('SVC_LLM_'));
      writeFileSync(
        json,
        `${JSON.stringify(resultsJson(results, { finishedAt: new Date().toISOString(), reasoner: llm ? 'language model (SVC_LLM_*)' : 'built-in', suites: arg('suite') ?? 'all' }), null, 2)}\n`,
      );
      console.log(`\nResults written to ${json}`);
    }
    // The recorded incidents after the generated ones (their results in a file of their own beside --json's).
    if (nezha && (!arg('scenario') || nezhaOnly))
      await runNezhaSuite(
        { client, baseUrl },
        {
          only: nezhaOnly,
          json: json && scenarios.length ? json.replace(/(\.json)?$/, '-nezha.json') : json,
          dumpTo: arg('dump'),
          withoutLogs: process.argv.includes('--without-logs'),
        },
      );
  } finally {
    // A condition whose scenario never ran (or failed before releasing it) is released here.
    for (const condition of held.values()) await (await condition.catch(() => null))?.release();
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
