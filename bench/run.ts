import autocannon from 'autocannon';
import { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { Client } from 'pg';
import { ensureDatabase, loadConfig, runMigrations } from '@svc/platform';
import { MIGRATIONS } from '../migrations';
import { chatSection } from './chat';
import { investigationsSection } from './investigations';
import { listingsSection } from './listings';
import { relaysSection } from './relays';
import { streamsSection } from './streams';
import { cpuSeconds, dropQueueKeys, postgresCpuSeconds, deliver, genericIntegration, percentile, rssKiB, settledMemory, startApi, stopApi } from './support';

/**
 * Request pipeline benchmark. Every figure is a ratio against a baseline measured in the same
 * run on the same machine: a bare node:http server answering the same JSON. Loopback only,
 * bounded by duration. Further sections, each with its own baseline: audit export memory,
 * alert admission, event streams (bench/streams.ts), investigation throughput
 * (bench/investigations.ts) and reads through a relay (bench/relays.ts).
 */
const DURATION_S = Number(process.argv.find((a) => a.startsWith('--duration='))?.split('=')[1] ?? 5);
const CONNECTIONS = 32;
/**
 * Pipeline section: each read and its baseline are measured in `--pipeline-rounds=N` pairs of
 * windows of `--pipeline-window=S` seconds, alternating which goes first, so a machine that speeds
 * up or slows down meanwhile (shared cores) moves both sides of each ratio alike; the ratio reported
 * is the median of the rounds', with their range beside it.
 */
const PIPELINE_ROUNDS = Number(process.argv.find((a) => a.startsWith('--pipeline-rounds='))?.split('=')[1] ?? 7);
const PIPELINE_WINDOW_S = Number(process.argv.find((a) => a.startsWith('--pipeline-window='))?.split('=')[1] ?? 2);
/** Admission section: a fixed count of deliveries (`--deliveries=N`), after a warm-up. */
const DELIVERIES = Number(process.argv.find((a) => a.startsWith('--deliveries='))?.split('=')[1] ?? 6000);
const ADMISSION_WARM_UP = 300;
/** Admission is also measured with this many API processes sharing a port (`--api-processes=N`). */
const API_PROCESSES_BENCH = Number(process.argv.find((a) => a.startsWith('--api-processes='))?.split('=')[1] ?? 2);
/** `--distinct-groups`: each delivery opens its own incident instead of joining one (diagnostic). */
const DISTINCT_GROUPS = process.argv.includes('--distinct-groups');
/**
 * `--only=admission` (or `pipeline`, `export`, `streams`, `investigations`, `relays`, `chat`, `listings`): run one section.
 * `streams` takes `--streams=N`, `--stream-events=N`, `--stream-event-ms=N`; `investigations` takes `--investigations=N`;
 * `pipeline` takes `--pipeline-rounds=N` and `--pipeline-window=S`;
 * `relays` takes `--relay-reads=N`, `--relay-concurrent=N`, `--relay-rounds=N`; `chat` takes `--chat-events=N` and `--chat-threads=N`;
 * `listings` takes `--listing-rows=N`, `--listing-page=N`, `--listing-reads=N`.
 */
const ONLY = process.argv.find((a) => a.startsWith('--only='))?.split('=')[1];
/**
 * `--profile=DIR`: the API writes a V8 CPU profile there when it stops (open it in Chrome DevTools);
 * so do the streams section's own API processes, the investigations section's worker, and the relays
 * section's relay and the API process serving it.
 */
const PROFILE_DIR = process.argv.find((a) => a.startsWith('--profile='))?.split('=')[1];
const runs = (section: 'pipeline' | 'export' | 'admission' | 'streams' | 'investigations' | 'relays' | 'chat' | 'listings'): boolean =>
  ONLY === undefined || ONLY === section;

interface Result {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  cpuMsEach?: number;
}

/** `pid`: the serving process, whose CPU time per request is reported (less inflated by the machine's other load than rates). */
async function load(name: string, url: string, headers: Record<string, string> = {}, pid?: number, duration = DURATION_S): Promise<Result> {
  const cpuBefore = pid === undefined ? 0 : cpuSeconds(pid);
  const windowStart = process.hrtime.bigint() / 1000n;
  const r = await autocannon({ url, connections: CONNECTIONS, duration, headers });
  if (PROFILE_DIR && pid !== undefined) console.log(`profile window of "${name}" (pid ${pid}): ${windowStart}-${process.hrtime.bigint() / 1000n} us`);
  const cpuMsEach = pid === undefined ? undefined : (1000 * (cpuSeconds(pid) - cpuBefore)) / Math.max(1, r.requests.total);
  return { name, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors, non2xx: r.non2xx, cpuMsEach };
}

/**
 * The baseline: bare node:http answering a fixed JSON body per path. `/` answers the meta document;
 * `bodies` adds the API's own answers (fetched once from the API) so an authenticated read is
 * compared with the same bytes served with nothing behind them.
 */
const baselineBodies = new Map<string, string>([
  [
    '/',
    JSON.stringify({
      service: 'incident-investigation-service',
      version: '0.1.0',
      contractVersion: '0.1.0',
      release: 'pre-release',
      authentication: { local: true, oidc: false },
    }),
  ],
]);

function baseline(): Promise<Server> {
  const server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'x-request-id': randomBytes(16).toString('hex') });
    res.end(baselineBodies.get(req.url ?? '/') ?? baselineBodies.get('/'));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/**
 * The API's environment; the worker of the investigations section runs with the same one. The queue
 * prefix (Bull's and the rate limiter's Redis keys) is this run's own, so concurrent bench runs
 * sharing the Redis never take each other's jobs; its keys are deleted at the end.
 */
function benchEnv(databaseUrl: string, port: number): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    DATABASE_URL: databaseUrl,
    REDIS_URL: loadConfig().REDIS_URL,
    PORT: String(port),
    LOG_LEVEL: 'info',
    SVC_SECRET_KEY: randomBytes(32).toString('hex'),
    SVC_BOOTSTRAP_CREDENTIAL: 'bench-bootstrap-credential',
    SVC_QUEUE_PREFIX: `bench-${process.pid}`,
    SVC_RATE_LIMIT_PER_MINUTE: '10000000',
    SVC_PUBLIC_URL: `http://127.0.0.1:${port}`,
  };
}

function rssMiB(pid: number): number {
  return rssKiB(pid) / 1024;
}

/** Streams an export to nowhere while sampling the API's resident memory. */
async function exportRun(
  url: string,
  cookie: string,
  pid: number,
  port: number,
): Promise<{ events: number; seconds: number; idleMiB: number; peakMiB: number }> {
  // Idle memory after a full GC: garbage left by the sections before would make growth look negative or inflated.
  const idleMiB = (await settledMemory(pid, port)).rssKiB / 1024;
  let peakMiB = idleMiB;
  const sampler = setInterval(() => {
    peakMiB = Math.max(peakMiB, rssMiB(pid));
  }, 20);
  const started = process.hrtime.bigint();
  const res = await fetch(url, { headers: { cookie } });
  let events = 0;
  const reader = res.body!.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    for (const byte of value) if (byte === 10) events += 1;
  }
  clearInterval(sampler);
  return { events, seconds: Number(process.hrtime.bigint() - started) / 1e9, idleMiB, peakMiB };
}

async function seedAuditEvents(databaseUrl: string, count: number): Promise<void> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query(
    `INSERT INTO audit_events (organization_id, id, occurred_at, actor_kind, actor_id, actor_name, action, target_kind, target_id, outcome, source_address, request_id, detail)
    SELECT 'bench', gen_random_uuid(), now() - (n * interval '1 millisecond'), 'user', gen_random_uuid()::text, 'Bench User', 'member.role_change', 'membership', gen_random_uuid()::text,
           'allowed', '192.0.2.' || (n % 250), gen_random_uuid()::text, jsonb_build_object('before', 'viewer', 'after', 'editor', 'n', n)
    FROM generate_series(1, $1) n`,
    [count],
  );
  await client.end();
}

interface FixedCountResult {
  name: string;
  count: number;
  seconds: number;
  perSecond: number;
  p50: number;
  p99: number;
  failures: string;
  cpuMsEach?: number;
  /** CPU of the PostgreSQL server's processes, and of this process (the senders), per delivery or insert. */
  postgresMsEach?: number;
  senderMsEach?: number;
  /** Committed transactions per delivery or insert, from the database's statistics. */
  commitsEach?: number;
}

/** Measures the CPU spent by PostgreSQL and by this process, and the commits of `databaseUrl`'s database, while `work` runs. */
async function measuredCosts(databaseUrl: string, work: () => Promise<FixedCountResult>): Promise<FixedCountResult> {
  const db = new Client({ connectionString: databaseUrl, application_name: 'bench-costs' });
  await db.connect();
  // Statistics reach the shared counters within a second of each transaction's end.
  const commits = async (): Promise<number> => {
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const { rows } = await db.query<{ n: string }>('SELECT xact_commit AS n FROM pg_stat_database WHERE datname = current_database()');
    return Number(rows[0].n);
  };
  try {
    const commitsBefore = await commits();
    const postgresBefore = postgresCpuSeconds();
    const senderBefore = process.cpuUsage();
    const result = await work();
    const sender = process.cpuUsage(senderBefore);
    result.postgresMsEach = (1000 * (postgresCpuSeconds() - postgresBefore)) / result.count;
    result.senderMsEach = (sender.user + sender.system) / 1000 / result.count;
    // The first statistics read is itself a committed transaction.
    result.commitsEach = ((await commits()) - commitsBefore - 1) / result.count;
    return result;
  } finally {
    await db.end();
  }
}

/** What a bench delivery carries: one alert, or one change (the generic formats of each webhook). */
type Webhook = 'alert-events' | 'change-events';

function deliveryBody(webhook: Webhook, seq: number): string {
  if (webhook === 'change-events')
    return JSON.stringify({ id: `bench-${seq}`, summary: `Deployed bench ${seq}`, kind: 'deploy', service: 'bench', timestamp: '2026-11-22T02:00:00Z' });
  const labels = { alertname: 'BenchAdmission', service: DISTINCT_GROUPS ? `svc-${seq}` : 'bench', seq: String(seq) };
  return JSON.stringify({ alerts: [{ labels, startsAt: '2026-11-22T02:00:00Z' }] });
}

/**
 * Sends `count` unique single-alert (or single-change) deliveries with CONNECTIONS concurrent
 * senders (autocannon, one request in flight per connection). Every answer should be 202:
 * anything else is counted.
 */
async function admissionRun(
  name: string,
  port: number,
  integration: { id: string; secret: string },
  count: number,
  firstSeq: number,
  webhook: Webhook = 'alert-events',
): Promise<FixedCountResult> {
  let seq = firstSeq;
  const statuses = new Map<number, number>();
  const started = process.hrtime.bigint();
  // autocannon reports completion on its one-second tick: time the run to its last answer instead.
  let lastAnswer = started;
  const r = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: CONNECTIONS,
    amount: count,
    timeout: 30,
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-svc-token': integration.secret },
    requests: [
      {
        method: 'POST',
        path: `/webhooks/v1/integrations/${integration.id}/${webhook}`,
        setupRequest: (request) => {
          seq += 1;
          return { ...request, body: deliveryBody(webhook, seq) };
        },
        onResponse: (status) => {
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
          lastAnswer = process.hrtime.bigint();
        },
      },
    ],
  });
  const seconds = Number(lastAnswer - started) / 1e9;
  const accepted = statuses.get(202) ?? 0;
  const other = [...statuses].filter(([status]) => status !== 202).map(([status, n]) => `${n}x${status}`);
  if (r.errors > 0) other.push(`${r.errors} connection errors (${r.timeouts} timeouts)`);
  return { name, count: accepted, seconds, perSecond: accepted / seconds, p50: r.latency.p50, p99: r.latency.p99, failures: other.join(', ') || 'none' };
}

/**
 * The physical floor for one commit per request: CONNECTIONS workers, each with its own `pg`
 * connection, inserting one row per statement (autocommit: one commit per insert) until `count`.
 */
async function insertFloor(databaseUrl: string, count: number, firstId: number): Promise<FixedCountResult> {
  const clients = await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      const client = new Client({ connectionString: databaseUrl, application_name: 'bench-floor' });
      await client.connect();
      return client;
    }),
  );
  try {
    let next = firstId;
    const end = firstId + count;
    const latencies: number[] = [];
    const started = process.hrtime.bigint();
    await Promise.all(
      clients.map(async (client) => {
        while (next < end) {
          const id = next++;
          const payload = JSON.stringify({
            alerts: [{ labels: { alertname: 'BenchAdmission', service: 'bench', seq: String(id) }, startsAt: '2026-11-22T02:00:00Z' }],
          });
          const t0 = process.hrtime.bigint();
          await client.query('INSERT INTO bench_floor (id, payload) VALUES ($1, $2)', [id, payload]);
          latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
        }
      }),
    );
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    latencies.sort((a, b) => a - b);
    return {
      name: 'pg single-row insert floor',
      count,
      seconds,
      perSecond: count / seconds,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      failures: 'none',
    };
  } finally {
    await Promise.all(clients.map((c) => c.end()));
  }
}

/** A process and its children (node:cluster workers), for CPU time. */
function withChildren(pid: number): number[] {
  const children = readdirSync('/proc')
    .filter((e) => /^\d+$/.test(e))
    .filter((e) => {
      try {
        return Number(readFileSync(`/proc/${e}/stat`, 'utf8').split(') ')[1].split(' ')[1]) === pid;
      } catch {
        return false;
      }
    })
    .map(Number);
  return [pid, ...children];
}

/**
 * A generic integration, a warm-up, then the measured admission run against the API on `port`
 * (process `pid` and its children): with the API's CPU time per delivery, which the machine's
 * other load does not inflate as it does latency. With --profile, the run's window on the
 * monotonic clock the CPU profiles use is printed, to read the profile of that window alone.
 */
async function admissionOn(
  port: number,
  cookie: string,
  databaseUrl: string,
  name: string,
  pid: number,
  webhook: Webhook = 'alert-events',
): Promise<{ id: string; warmUp: FixedCountResult; admission: FixedCountResult }> {
  const created = await fetch(`http://127.0.0.1:${port}/api/v1/integrations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie, origin: `http://127.0.0.1:${port}` },
    body: JSON.stringify({ type: webhook === 'change-events' ? 'changes' : 'generic', name: 'Bench admission' }),
  });
  if (created.status !== 201) throw new Error(`creating the integration failed: ${created.status} ${await created.text()}`);
  const { id, webhookSecret } = (await created.json()) as { id: string; webhookSecret: string };
  const integration = { id, secret: webhookSecret };

  const warmUp = await admissionRun('warm-up', port, integration, ADMISSION_WARM_UP, 0, webhook);
  // 503 is admission's back-pressure answer (the sender retries); reported, not fatal.
  if (warmUp.failures !== 'none') console.log(`admission warm-up answered other than 202: ${warmUp.failures}`);
  const pids = withChildren(pid);
  const cpuBefore = pids.reduce((sum, p) => sum + cpuSeconds(p), 0);
  const windowStart = process.hrtime.bigint() / 1000n;
  const admission = await measuredCosts(databaseUrl, () => admissionRun(name, port, integration, DELIVERIES, 1_000_000, webhook));
  if (PROFILE_DIR) console.log(`profile window of "${name}" (pids ${pids.join(', ')}): ${windowStart}-${process.hrtime.bigint() / 1000n} us`);
  admission.cpuMsEach = (1000 * (pids.reduce((sum, p) => sum + cpuSeconds(p), 0) - cpuBefore)) / admission.count;
  return { id, warmUp, admission };
}

/** Admission throughput and, in the same run, the pg insert floor at the same concurrency. */
async function admissionSection(
  port: number,
  cookie: string,
  databaseUrl: string,
  pid: number,
): Promise<{ admission: FixedCountResult; floor: FixedCountResult; stored: number; expected: number }> {
  const { id, warmUp, admission } = await admissionOn(port, cookie, databaseUrl, 'admission (HTTP, full pipeline, one API process)', pid);

  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const [{ n }] = (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM alert_events WHERE integration_id = $1', [id])).rows;
    await db.query('CREATE TABLE bench_floor (id bigint PRIMARY KEY, payload jsonb NOT NULL)');
    await insertFloor(databaseUrl, ADMISSION_WARM_UP, 0);
    const floor = await measuredCosts(databaseUrl, () => insertFloor(databaseUrl, DELIVERIES, 1_000_000));
    return { admission, floor, stored: n, expected: warmUp.count + admission.count };
  } finally {
    await db.end();
  }
}

async function main(): Promise<void> {
  const base = new URL(loadConfig().DATABASE_URL);
  base.pathname = `/svc_bench_${process.pid}`;
  const databaseUrl = base.toString();
  await ensureDatabase(databaseUrl);
  // Everything after the database exists runs under the finally that drops it.
  let api: ChildProcess | undefined;
  let plain: Server | undefined;
  const port = 20_000 + (process.pid % 10_000);
  const env = benchEnv(databaseUrl, port);
  try {
    await runMigrations(databaseUrl, MIGRATIONS);
    api = await startApi(env, port, PROFILE_DIR);
    plain = await baseline();
    const boot = await fetch(`http://127.0.0.1:${port}/api/v1/auth/local/bootstrap`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer bench-bootstrap-credential' },
      body: JSON.stringify({
        organization: { id: 'bench', displayName: 'Bench' },
        user: { email: 'bench@example.com', name: 'Bench', password: 'a long enough password' },
      }),
    });
    const cookie = boot.headers.getSetCookie()[0].split(';')[0];
    const baseUrl = `http://127.0.0.1:${(plain.address() as AddressInfo).port}/`;
    if (runs('pipeline')) {
      await load('warm-up', `http://127.0.0.1:${port}/api/v1/meta`);
      // Twenty open incidents, so the incidents list answers a realistic page.
      const seeded = await genericIntegration(port, cookie, 'Bench incidents');
      for (let i = 0; i < 20; i++)
        await deliver(port, seeded, { alerts: [{ labels: { alertname: 'BenchList', service: `svc-${i}` }, startsAt: '2026-11-22T02:00:00Z' }] });
      for (const path of ['/session', '/incidents']) {
        const res = await fetch(`http://127.0.0.1:${port}/api/v1${path}`, { headers: { cookie } });
        if (res.status !== 200) throw new Error(`GET /api/v1${path} answered ${res.status}`);
        baselineBodies.set(path, await res.text());
      }
      // Each read against the baseline serving the same bytes, in alternating windows (see PIPELINE_ROUNDS).
      const cases: { name: string; path: string; headers: Record<string, string>; baselinePath: string }[] = [
        { name: 'GET /api/v1/meta (public, full pipeline)', path: '/meta', headers: {}, baselinePath: '' },
        { name: 'GET /api/v1/session (cookie: session lookup)', path: '/session', headers: { cookie }, baselinePath: 'session' },
        { name: 'GET /api/v1/incidents (cookie, 20 incidents)', path: '/incidents', headers: { cookie }, baselinePath: 'incidents' },
        { name: 'GET /api/v1/permissions (session + membership + role)', path: '/permissions', headers: { cookie }, baselinePath: '' },
      ];
      const rows: string[] = [];
      for (const c of cases) {
        const reads: Result[] = [];
        const floors: Result[] = [];
        for (let round = 0; round < PIPELINE_ROUNDS; round++) {
          const read = () => load(c.name, `http://127.0.0.1:${port}/api/v1${c.path}`, c.headers, api!.pid, PIPELINE_WINDOW_S);
          const floor = () => load(`baseline for ${c.name}`, `${baseUrl}${c.baselinePath}`, {}, undefined, PIPELINE_WINDOW_S);
          if (round % 2 === 0) {
            reads.push(await read());
            floors.push(await floor());
          } else {
            floors.push(await floor());
            reads.push(await read());
          }
        }
        const ratios = reads.map((r, i) => r.rps / floors[i].rps).sort((a, b) => a - b);
        const median = (values: number[]) =>
          percentile(
            [...values].sort((a, b) => a - b),
            50,
          );
        const total = (values: number[]) => values.reduce((sum, v) => sum + v, 0);
        const mean = (values: number[]) => total(values) / values.length;
        rows.push(
          `| ${c.name} | ${mean(reads.map((r) => r.rps)).toFixed(0)} | ${mean(floors.map((r) => r.rps)).toFixed(0)} | ${median(ratios).toFixed(3)} | ` +
            `${ratios[0].toFixed(3)}-${ratios[ratios.length - 1].toFixed(3)} | ${mean(reads.map((r) => r.cpuMsEach ?? 0)).toFixed(3)} | ` +
            `${median(reads.map((r) => r.p50))} | ${median(reads.map((r) => r.p99))} | ${total(reads.map((r) => r.errors))} | ${total(reads.map((r) => r.non2xx))} |`,
        );
      }
      console.log(
        `\nRequest pipeline, ${CONNECTIONS} connections, loopback (API logs at info to /dev/null); each read and its baseline in ${PIPELINE_ROUNDS} alternating pairs of ${PIPELINE_WINDOW_S}s windows\n`,
      );
      console.log(
        '| case | req/s | baseline req/s | ratio to baseline (median of rounds) | range of rounds | API CPU ms per request | p50 ms | p99 ms | errors | non-2xx |',
      );
      console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
      for (const row of rows) console.log(row);
    }
    if (runs('export')) {
      const exportUrl = `http://127.0.0.1:${port}/api/v1/audit-events/export?format=ndjson`;
      await seedAuditEvents(databaseUrl, 100_000);
      const small = await exportRun(exportUrl, cookie, api.pid!, port);
      await seedAuditEvents(databaseUrl, 200_000);
      const large = await exportRun(exportUrl, cookie, api.pid!, port);
      console.log('\nAudit export (NDJSON, streamed; API resident memory sampled every 20 ms)\n');
      console.log('| events | seconds | events/s | API RSS idle MiB | API RSS peak MiB | growth MiB |');
      console.log('|---:|---:|---:|---:|---:|---:|');
      for (const e of [small, large]) {
        console.log(
          `| ${e.events} | ${e.seconds.toFixed(2)} | ${(e.events / e.seconds).toFixed(0)} | ${e.idleMiB.toFixed(1)} | ${e.peakMiB.toFixed(1)} | ${(e.peakMiB - e.idleMiB).toFixed(1)} |`,
        );
      }
      console.log(
        `\nPeak growth exporting ${large.events} events is ${((large.peakMiB - large.idleMiB) / Math.max(0.1, small.peakMiB - small.idleMiB)).toFixed(2)}x that of ${small.events} (flat memory: about 1x; memory that grew with the count would be about 3x).`,
      );
    }
    if (runs('admission')) {
      const { admission, floor: insert, stored, expected } = await admissionSection(port, cookie, databaseUrl, api.pid!);
      // Change events on the same API process, beside alerts: one transaction per delivery (its changes and its record).
      const { admission: changes } = await admissionOn(port, cookie, databaseUrl, 'change-event admission (HTTP, one API process)', api.pid!, 'change-events');
      // The same run against API_PROCESSES_BENCH API processes sharing a port (as SVC_API_PROCESSES starts them).
      const clusterPort = port + 1;
      const cluster = await startApi({ ...env, SVC_API_PROCESSES: String(API_PROCESSES_BENCH) }, clusterPort, PROFILE_DIR, 'api-cluster.js');
      let several: FixedCountResult;
      try {
        ({ admission: several } = await admissionOn(
          clusterPort,
          cookie,
          databaseUrl,
          `admission (HTTP, full pipeline, ${API_PROCESSES_BENCH} API processes)`,
          cluster.pid!,
        ));
      } finally {
        await stopApi(cluster);
      }
      console.log(
        `\nAlert and change-event admission, ${CONNECTIONS} concurrent senders, ${DELIVERIES} unique single-alert (single-change) deliveries after ${ADMISSION_WARM_UP} warm-up, loopback` +
          ` (${DISTINCT_GROUPS ? 'one group per delivery' : 'all in one group, so one incident'}); floor: ${CONNECTIONS} pg connections, one autocommitted insert each\n`,
      );
      console.log(
        '| case | per second | p50 ms | p99 ms | ratio admission/floor | API CPU ms per delivery | PostgreSQL CPU ms each | sender CPU ms each | commits each | count | seconds | not 202 |',
      );
      console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|');
      for (const r of [admission, several, changes, insert]) {
        console.log(
          `| ${r.name} | ${r.perSecond.toFixed(0)} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${(r.perSecond / insert.perSecond).toFixed(3)} | ${r.cpuMsEach?.toFixed(3) ?? 'n/a'} | ${r.postgresMsEach?.toFixed(3)} | ${r.senderMsEach?.toFixed(3)} | ${r.commitsEach?.toFixed(3)} | ${r.count} | ${r.seconds.toFixed(2)} | ${r === insert ? 'n/a' : r.failures} |`,
        );
      }
      console.log(`\nGain from ${API_PROCESSES_BENCH} API processes: ${(several.perSecond / admission.perSecond).toFixed(2)}x.`);
      console.log(`\nStored alert events of the benchmark integration: ${stored} (202 answers, warm-up included: ${expected}).`);
    }
    if (runs('streams')) await streamsSection({ port, cookie, databaseUrl, env, profileDir: PROFILE_DIR, organizationId: 'bench' });
    if (runs('chat')) await chatSection({ port, cookie, databaseUrl, env });
    if (runs('investigations')) await investigationsSection({ port, cookie, databaseUrl, env, apiPid: api.pid!, profileDir: PROFILE_DIR });
    if (runs('relays')) await relaysSection({ cookie, env, organizationId: 'bench', profileDir: PROFILE_DIR });
    if (runs('listings')) await listingsSection({ port, cookie, databaseUrl });
  } finally {
    plain?.close();
    if (api) await stopApi(api);
    const admin = new URL(databaseUrl);
    admin.pathname = '/postgres';
    const client = new Client({ connectionString: admin.toString() });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS "svc_bench_${process.pid}" WITH (FORCE)`);
    await client.end();
    await dropQueueKeys(env.REDIS_URL, env.SVC_QUEUE_PREFIX);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
