import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { MonitoringProcess } from '../test/support/monitoring-stack';
import {
  apiJson,
  cpuSeconds,
  deliver,
  freePort,
  genericIntegration,
  machineTicks,
  percentile,
  postgresCpuSeconds,
  sleep,
  startWorker,
  stopChild,
} from './support';

/**
 * Investigation throughput of one worker process with the built-in reasoner against a local
 * Prometheus (scraping itself every second, with one alerting rule that fires). In the same run,
 * the floor: the same Prometheus requests the tool runs recorded, replayed straight from this
 * process with the worker's concurrency; then as many investigations again with two worker
 * processes, for the rate a second worker adds.
 */
const arg = (name: string): string | undefined => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
/** `--investigations=N` (default 100). */
const INVESTIGATIONS = Number(arg('investigations') ?? 100);
/** The worker's InvestigationProcessor concurrency, for the replayed floor. */
const WORKER_CONCURRENCY = 4;
const RULE = 'BenchPrometheusUp';
const JOB = 'prometheus';
const DATA_SECONDS = 5;
const END_STATUSES = ['concluded', 'partial', 'needs_input', 'failed', 'cancelled'];

export interface InvestigationsContext {
  port: number;
  cookie: string;
  databaseUrl: string;
  /** The environment the API runs with: the worker must share its database, Redis, queue prefix and secret key. */
  env: Record<string, string>;
  apiPid: number;
  /** The worker writes a V8 CPU profile there when it stops. */
  profileDir?: string;
}

/** A local Prometheus scraping itself every second, with one alerting rule on that scrape that fires. */
async function startPrometheus(): Promise<MonitoringProcess> {
  const port = await freePort();
  const config = [
    'global:',
    '  scrape_interval: 1s',
    '  evaluation_interval: 1s',
    'rule_files:',
    '  - rules.yml',
    'scrape_configs:',
    `  - job_name: ${JOB}`,
    `    static_configs: [{ targets: ['127.0.0.1:${port}'] }]`,
    '',
  ].join('\n');
  const rules = [
    'groups:',
    '  - name: bench',
    '    rules:',
    `      - alert: ${RULE}`,
    `        expr: up{job="${JOB}"} == 1`,
    '        labels: { severity: info }',
    '        annotations: { summary: "Prometheus scrapes itself" }',
    '',
  ].join('\n');
  return MonitoringProcess.prometheus(config, port, { 'rules.yml': rules });
}

interface Row {
  id: string;
  status: string;
  conclusion_status: string | null;
  error: string | null;
  stopped_by: string | null;
  to_conclusion_ms: number;
  run_ms: number;
  queued_ms: number;
  tool_runs: number;
  failed_runs: number;
  tool_ms: number;
  events: number;
}

/** Transactions committed in the current database so far (pg_stat_database). */
async function commits(db: Client): Promise<number> {
  await db.query('SELECT pg_stat_clear_snapshot()');
  return Number((await db.query<{ n: string }>('SELECT xact_commit AS n FROM pg_stat_database WHERE datname = current_database()')).rows[0].n);
}

const fmt = (n: number, digits = 1): string => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');

/** INVESTIGATIONS incidents of RULE, one per delivery, each in its own group (`prefix` keeps batches apart). */
async function openIncidents(port: number, cookie: string, alerts: { id: string; secret: string }, prometheusUrl: string, prefix: string): Promise<string[]> {
  const incidents: string[] = [];
  for (let i = 0; i < INVESTIGATIONS; i++) {
    const [incidentId] = await deliver(port, alerts, {
      groupKey: `bench-investigations/${prefix}/${i}`,
      alerts: [
        {
          labels: { alertname: RULE, job: JOB, instance: new URL(prometheusUrl).host, severity: 'info', n: `${prefix}-${i}` },
          annotations: { summary: `Bench incident ${prefix} ${i}` },
          startsAt: new Date().toISOString(),
        },
      ],
    });
    incidents.push(incidentId);
  }
  if (new Set(incidents).size !== INVESTIGATIONS) throw new Error(`expected ${INVESTIGATIONS} incidents, got ${new Set(incidents).size}`);
  return incidents;
}

/** Opens an investigation of each incident, back to back, and polls every 50 ms until all have ended. */
async function investigateAll(
  port: number,
  cookie: string,
  db: Client,
  incidents: string[],
  workers: Awaited<ReturnType<typeof startWorker>>[],
): Promise<{ ids: string[]; polls: number; opened: number }> {
  const ids: string[] = [];
  for (const incidentId of incidents) ids.push((await apiJson<{ id: string }>(port, cookie, 'POST', '/api/v1/investigations', { incidentId }, [201])).id);
  const opened = performance.now();
  const deadline = Date.now() + 120_000;
  let polls = 0;
  for (;;) {
    polls += 1;
    const [{ n }] = (
      await db.query<{ n: number }>('SELECT count(*)::int AS n FROM investigations WHERE id = ANY($1) AND status = ANY($2)', [ids, END_STATUSES])
    ).rows;
    if (n === ids.length) return { ids, polls, opened };
    for (const worker of workers)
      if (worker.child.exitCode !== null) throw new Error(`a worker exited with ${worker.child.exitCode}:\n${worker.output().slice(-4000)}`);
    if (Date.now() > deadline) throw new Error(`only ${n} of ${ids.length} investigations ended within 120 s`);
    await sleep(50);
  }
}

/** Seconds from the first investigation created to the last concluded. */
async function wallSecondsOf(db: Client, ids: string[]): Promise<number> {
  const [{ wall_ms: wallMs }] = (
    await db.query<{ wall_ms: string }>(
      'SELECT EXTRACT(EPOCH FROM max(concluded_at) - min(created_at)) * 1000 AS wall_ms FROM investigations WHERE id = ANY($1)',
      [ids],
    )
  ).rows;
  return Number(wallMs) / 1000;
}

export async function investigationsSection(ctx: InvestigationsContext): Promise<void> {
  const { port, cookie, databaseUrl, env, apiPid, profileDir } = ctx;
  let prometheus: MonitoringProcess | undefined;
  let worker: Awaited<ReturnType<typeof startWorker>> | undefined;
  let workers: Awaited<ReturnType<typeof startWorker>>[] = [];
  const db = new Client({ connectionString: databaseUrl, application_name: 'bench-investigations' });
  try {
    await db.connect();
    prometheus = await startPrometheus();
    // A few seconds of samples, and the rule evaluated (its alert active).
    const dataDeadline = Date.now() + 30_000;
    const readyAt = Date.now();
    for (;;) {
      const rules = (await (await fetch(`${prometheus.url}/api/v1/rules?type=alert`)).json()) as {
        data: { groups: Array<{ rules: Array<{ name: string; state: string }> }> };
      };
      const firing = rules.data.groups.flatMap((g) => g.rules).some((r) => r.name === RULE && r.state === 'firing');
      if (firing && Date.now() - readyAt >= DATA_SECONDS * 1000) break;
      if (Date.now() > dataDeadline) throw new Error(`${RULE} did not fire within 30 s`);
      await sleep(250);
    }

    const source = await apiJson<{ id: string }>(
      port,
      cookie,
      'POST',
      '/api/v1/integrations',
      { type: 'prometheus', name: 'Bench Prometheus', config: { baseUrl: prometheus.url } },
      [201],
    );
    const verified = await apiJson<{ lastVerification: { outcome: string; detail: string } }>(port, cookie, 'POST', `/api/v1/integrations/${source.id}/verify`);
    if (verified.lastVerification.outcome !== 'succeeded')
      throw new Error(`verifying the Prometheus integration: ${JSON.stringify(verified.lastVerification)}`);
    const alerts = await genericIntegration(port, cookie, 'Bench investigations');
    const incidents = await openIncidents(port, cookie, alerts, prometheus.url, 'one-worker');
    worker = await startWorker(env, profileDir);
    // Whatever an earlier section left in the outbox is relayed first; let it settle.
    await sleep(1000);

    const pids = { worker: worker.child.pid!, api: apiPid, prometheus: prometheus.pid! };
    const cpuBefore = { worker: cpuSeconds(pids.worker), api: cpuSeconds(pids.api), prometheus: cpuSeconds(pids.prometheus) };
    const machineBefore = machineTicks();
    const postgresBefore = postgresCpuSeconds();
    const commitsBefore = await commits(db);
    const started = performance.now();
    const { ids, polls, opened } = await investigateAll(port, cookie, db, incidents, [worker]);
    const polledSeconds = (performance.now() - started) / 1000;
    const cpuShare = (name: keyof typeof pids): number => (cpuSeconds(pids[name]) - cpuBefore[name]) / polledSeconds;
    const cpu = { worker: cpuShare('worker'), api: cpuShare('api'), prometheus: cpuShare('prometheus') };
    const machineAfter = machineTicks();
    const postgresMsEach = ((postgresCpuSeconds() - postgresBefore) * 1000) / INVESTIGATIONS;
    const machineShare = (machineAfter.busy - machineBefore.busy) / Math.max(1, machineAfter.total - machineBefore.total);
    // A backend reports its transaction counts when it exits or, idle, within about a second.
    await stopChild(worker.child);
    await sleep(1500);
    const transactions = (await commits(db)) - commitsBefore - polls - 1;

    const rows = (
      await db.query<Row>(
        `
      SELECT i.id, i.status, i.conclusion_status, i.error, i.stopped_by,
             EXTRACT(EPOCH FROM i.concluded_at - i.created_at) * 1000 AS to_conclusion_ms,
             EXTRACT(EPOCH FROM i.concluded_at - i.started_at) * 1000 AS run_ms,
             EXTRACT(EPOCH FROM i.started_at - i.created_at) * 1000 AS queued_ms,
             (SELECT count(*) FROM tool_runs r WHERE r.organization_id = i.organization_id AND r.investigation_id = i.id)::int AS tool_runs,
             (SELECT count(*) FROM tool_runs r WHERE r.organization_id = i.organization_id AND r.investigation_id = i.id AND r.outcome = 'failed')::int AS failed_runs,
             (SELECT COALESCE(sum(EXTRACT(EPOCH FROM r.finished_at - r.started_at)), 0) * 1000 FROM tool_runs r WHERE r.organization_id = i.organization_id AND r.investigation_id = i.id) AS tool_ms,
             (SELECT count(*) FROM investigation_activity a WHERE a.organization_id = i.organization_id AND a.investigation_id = i.id)::int AS events
        FROM investigations i WHERE i.id = ANY($1)`,
        [ids],
      )
    ).rows.map((r) => ({
      ...r,
      to_conclusion_ms: Number(r.to_conclusion_ms),
      run_ms: Number(r.run_ms),
      queued_ms: Number(r.queued_ms),
      tool_ms: Number(r.tool_ms),
    }));
    const wallSeconds = await wallSecondsOf(db, ids);

    // The floor: every Prometheus request the runs recorded, replayed from here, one investigation's
    // requests in sequence, WORKER_CONCURRENCY investigations at a time.
    const sources = (
      await db.query<{ investigation_id: string; sources: string[] }>(
        'SELECT investigation_id, sources FROM tool_runs WHERE investigation_id = ANY($1) AND integration_id IS NOT NULL ORDER BY investigation_id, ordinal',
        [ids],
      )
    ).rows;
    const requestsOf = new Map<string, string[]>();
    for (const r of sources) requestsOf.set(r.investigation_id, [...(requestsOf.get(r.investigation_id) ?? []), ...r.sources]);
    const lanes = [...requestsOf.values()];
    const replayMs: number[] = [];
    let replayFailures = 0;
    const replayStarted = performance.now();
    let nextLane = 0;
    await Promise.all(
      Array.from({ length: WORKER_CONCURRENCY }, async () => {
        while (nextLane < lanes.length) {
          const lane = lanes[nextLane++];
          const t0 = performance.now();
          for (const path of lane) {
            const res = await fetch(`${prometheus!.url}${path}`, { headers: { accept: 'application/json' } });
            await res.arrayBuffer();
            if (!res.ok) replayFailures += 1;
          }
          replayMs.push(performance.now() - t0);
        }
      }),
    );
    const replaySeconds = (performance.now() - replayStarted) / 1000;

    const byStatus = new Map<string, number>();
    for (const r of rows) {
      const key = `${r.status}${r.conclusion_status ? ` (${r.conclusion_status})` : ''}${r.stopped_by ? ` stopped by ${r.stopped_by}` : ''}`;
      byStatus.set(key, (byStatus.get(key) ?? 0) + 1);
    }
    const errors = [...new Set(rows.filter((r) => r.error).map((r) => r.error!.slice(0, 200)))];
    const sorted = (values: number[]): number[] => [...values].sort((a, b) => a - b);
    const toConclusion = sorted(rows.map((r) => r.to_conclusion_ms));
    const runMs = sorted(rows.map((r) => r.run_ms));
    const toolMs = sorted(rows.map((r) => r.tool_ms));
    const queuedMs = sorted(rows.map((r) => r.queued_ms));
    const toolRuns = rows.map((r) => r.tool_runs);
    const meanRuns = toolRuns.reduce((a, b) => a + b, 0) / rows.length;
    const replay = sorted(replayMs);
    const perSecond = INVESTIGATIONS / wallSeconds;
    const floorPerSecond = lanes.length / replaySeconds;

    console.log(
      `\nInvestigations: ${INVESTIGATIONS} incidents (alert ${RULE}, job="${JOB}"), one investigation each, opened back to back (${fmt((opened - started) / 1000, 2)} s);` +
        ` one worker process (concurrency ${WORKER_CONCURRENCY}), built-in reasoner, against a local Prometheus ${verified.lastVerification.detail} scraping itself every 1 s.` +
        ` Floor: the same Prometheus requests the runs recorded, replayed from the bench process, ${WORKER_CONCURRENCY} investigations at a time.\n`,
    );
    console.log('| case | investigations/s | ratio to floor | wall s | p50 ms | p99 ms | max ms |');
    console.log('|---|---:|---:|---:|---:|---:|---:|');
    console.log(
      `| worker: first created → last concluded; time to conclusion (created → concluded) | ${fmt(perSecond, 2)} | ${fmt(perSecond / floorPerSecond, 3)} | ${fmt(wallSeconds, 2)} | ${fmt(percentile(toConclusion, 50), 0)} | ${fmt(percentile(toConclusion, 99), 0)} | ${fmt(toConclusion[toConclusion.length - 1], 0)} |`,
    );
    console.log(
      `| … of which queued (created → started; min ${fmt(queuedMs[0], 0)} ms) | | | | ${fmt(percentile(queuedMs, 50), 0)} | ${fmt(percentile(queuedMs, 99), 0)} | ${fmt(queuedMs[queuedMs.length - 1], 0)} |`,
    );
    console.log(
      `| … of which running (started → concluded) | | | | ${fmt(percentile(runMs, 50), 0)} | ${fmt(percentile(runMs, 99), 0)} | ${fmt(runMs[runMs.length - 1], 0)} |`,
    );
    console.log(
      `| … of which inside tool runs (sum of started → finished) | | | | ${fmt(percentile(toolMs, 50), 0)} | ${fmt(percentile(toolMs, 99), 0)} | ${fmt(toolMs[toolMs.length - 1], 0)} |`,
    );
    console.log(
      `| floor: replayed Prometheus requests (${replayFailures} not 2xx); per investigation | ${fmt(floorPerSecond, 2)} | 1.000 | ${fmt(replaySeconds, 2)} | ${fmt(percentile(replay, 50), 0)} | ${fmt(percentile(replay, 99), 0)} | ${fmt(replay[replay.length - 1], 0)} |`,
    );
    console.log(
      `\nTool runs per investigation: mean ${fmt(meanRuns, 2)}, min ${Math.min(...toolRuns)}, max ${Math.max(...toolRuns)} (failed runs: ${rows.reduce((a, r) => a + r.failed_runs, 0)});` +
        ` activity events per investigation: mean ${fmt(rows.reduce((a, r) => a + r.events, 0) / rows.length, 1)};` +
        ` database transactions per investigation: ${fmt(transactions / INVESTIGATIONS, 1)} (committed in the bench database during the run, the API's POSTs included, this process's polling not), PostgreSQL CPU per investigation ${fmt(postgresMsEach, 1)} ms; Prometheus requests per investigation: mean ${fmt(lanes.reduce((a, l) => a + l.length, 0) / Math.max(1, lanes.length), 1)}.`,
    );
    console.log(
      `CPU from the first POST until all ended: worker ${fmt(cpu.worker * 100, 0)}% of one core, API ${fmt(cpu.api * 100, 0)}%, Prometheus ${fmt(cpu.prometheus * 100, 0)}%;` +
        ` whole machine ${fmt(machineShare * 100, 0)}% of ${cpus().length} CPUs (the rest: PostgreSQL, Redis, this process).`,
    );
    console.log(
      `Final status: ${[...byStatus].map(([k, n]) => `${n} ${k}`).join(', ')}.${errors.length ? ` Errors: ${errors.join(' | ')}` : ''} (All ended ${fmt(polledSeconds, 2)} s after the first POST, as seen by polling every 50 ms.)`,
    );

    // Two worker processes on the same queue and PostgreSQL: the rate the second one adds.
    const more = await openIncidents(port, cookie, alerts, prometheus.url, 'two-workers');
    workers = [await startWorker(env), await startWorker(env)];
    await sleep(1000);
    const two = await investigateAll(port, cookie, db, more, workers);
    const twoPerSecond = INVESTIGATIONS / (await wallSecondsOf(db, two.ids));
    const [{ ended }] = (
      await db.query<{ ended: number }>(`SELECT count(*) FILTER (WHERE status = 'concluded')::int AS ended FROM investigations WHERE id = ANY($1)`, [two.ids])
    ).rows;
    console.log(
      `Two worker processes on the same queue: ${fmt(twoPerSecond, 2)} investigations/s (one: ${fmt(perSecond, 2)}), ${fmt(twoPerSecond / perSecond, 2)}x;` +
        ` ${ended} of ${INVESTIGATIONS} concluded; both share this machine's ${cpus().length} CPUs with the API, PostgreSQL and Prometheus.`,
    );
  } finally {
    await stopChild(worker?.child);
    for (const w of workers) await stopChild(w.child);
    await prometheus?.stop();
    await db.end().catch(() => undefined);
  }
}
