import autocannon from 'autocannon';
import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { Client } from 'pg';
import { ensureDatabase, loadConfig, runMigrations } from '@svc/platform';
import { MIGRATIONS } from '../migrations';

/**
 * Request pipeline benchmark. Every figure is a ratio against a baseline measured in the same
 * run on the same machine: a bare node:http server answering the same JSON. Loopback only,
 * bounded by duration.
 */
const DURATION_S = Number(process.argv.find((a) => a.startsWith('--duration='))?.split('=')[1] ?? 5);
const CONNECTIONS = 32;

interface Result { name: string; rps: number; p50: number; p99: number; errors: number; non2xx: number }

async function load(name: string, url: string, headers: Record<string, string> = {}): Promise<Result> {
  const r = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, headers });
  return { name, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors, non2xx: r.non2xx };
}

function baseline(): Promise<Server> {
  const body = JSON.stringify({ service: 'incident-investigation-service', version: '0.1.0', contractVersion: '0.1.0', release: 'pre-release', authentication: { local: true, oidc: false } });
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'x-request-id': randomBytes(16).toString('hex') });
    res.end(body);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

async function startApi(databaseUrl: string, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, [join(__dirname, '../apps/api/src/main.js')], {
    env: { PATH: process.env.PATH ?? '', DATABASE_URL: databaseUrl, PORT: String(port), LOG_LEVEL: 'info', SVC_SECRET_KEY: randomBytes(32).toString('hex'), SVC_BOOTSTRAP_CREDENTIAL: 'bench-bootstrap-credential', SVC_QUEUE_PREFIX: 'bench', SVC_PUBLIC_URL: `http://127.0.0.1:${port}` },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/readyz`)).ok) return child;
    } catch { /* starting */ }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('API did not start');
}

function rssMiB(pid: number): number {
  const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  return kb / 1024;
}

/** Streams an export to nowhere while sampling the API's resident memory. */
async function exportRun(url: string, cookie: string, pid: number): Promise<{ events: number; seconds: number; idleMiB: number; peakMiB: number }> {
  const idleMiB = rssMiB(pid);
  let peakMiB = idleMiB;
  const sampler = setInterval(() => { peakMiB = Math.max(peakMiB, rssMiB(pid)); }, 20);
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
  await client.query(`INSERT INTO audit_events (organization_id, id, occurred_at, actor_kind, actor_id, actor_name, action, target_kind, target_id, outcome, source_address, request_id, detail)
    SELECT 'bench', gen_random_uuid(), now() - (n * interval '1 millisecond'), 'user', gen_random_uuid()::text, 'Bench User', 'member.role_change', 'membership', gen_random_uuid()::text,
           'allowed', '192.0.2.' || (n % 250), gen_random_uuid()::text, jsonb_build_object('before', 'viewer', 'after', 'editor', 'n', n)
    FROM generate_series(1, $1) n`, [count]);
  await client.end();
}

async function main(): Promise<void> {
  const base = new URL(loadConfig().DATABASE_URL);
  base.pathname = `/svc_bench_${process.pid}`;
  const databaseUrl = base.toString();
  await ensureDatabase(databaseUrl);
  await runMigrations(databaseUrl, MIGRATIONS);
  const port = 20_000 + (process.pid % 10_000);
  const api = await startApi(databaseUrl, port);
  const plain = await baseline();
  try {
    const boot = await fetch(`http://127.0.0.1:${port}/api/v1/auth/local/bootstrap`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer bench-bootstrap-credential' },
      body: JSON.stringify({ organization: { id: 'bench', displayName: 'Bench' }, user: { email: 'bench@example.com', name: 'Bench', password: 'a long enough password' } }),
    });
    const cookie = boot.headers.getSetCookie()[0].split(';')[0];
    const baseUrl = `http://127.0.0.1:${(plain.address() as AddressInfo).port}/`;
    await load('warm-up', `http://127.0.0.1:${port}/api/v1/meta`);
    const results = [
      await load('baseline: node:http, same JSON', baseUrl),
      await load('GET /api/v1/meta (public, full pipeline)', `http://127.0.0.1:${port}/api/v1/meta`),
      await load('GET /api/v1/session (cookie: session lookup)', `http://127.0.0.1:${port}/api/v1/session`, { cookie }),
      await load('GET /api/v1/permissions (session + membership + role)', `http://127.0.0.1:${port}/api/v1/permissions`, { cookie }),
    ];
    const exportUrl = `http://127.0.0.1:${port}/api/v1/audit-events/export?format=ndjson`;
    await seedAuditEvents(databaseUrl, 100_000);
    const small = await exportRun(exportUrl, cookie, api.pid!);
    await seedAuditEvents(databaseUrl, 200_000);
    const large = await exportRun(exportUrl, cookie, api.pid!);
    const floor = results[0].rps;
    console.log(`\nRequest pipeline, ${CONNECTIONS} connections, ${DURATION_S}s each, loopback (API logs at info to /dev/null)\n`);
    console.log('| case | req/s | ratio to baseline | p50 ms | p99 ms | errors | non-2xx |');
    console.log('|---|---:|---:|---:|---:|---:|---:|');
    for (const r of results) {
      console.log(`| ${r.name} | ${r.rps.toFixed(0)} | ${(r.rps / floor).toFixed(3)} | ${r.p50} | ${r.p99} | ${r.errors} | ${r.non2xx} |`);
    }
    console.log('\nAudit export (NDJSON, streamed; API resident memory sampled every 20 ms)\n');
    console.log('| events | seconds | events/s | API RSS idle MiB | API RSS peak MiB | growth MiB |');
    console.log('|---:|---:|---:|---:|---:|---:|');
    for (const e of [small, large]) {
      console.log(`| ${e.events} | ${e.seconds.toFixed(2)} | ${(e.events / e.seconds).toFixed(0)} | ${e.idleMiB.toFixed(1)} | ${e.peakMiB.toFixed(1)} | ${(e.peakMiB - e.idleMiB).toFixed(1)} |`);
    }
    console.log(`\nPeak growth exporting ${large.events} events is ${((large.peakMiB - large.idleMiB) / Math.max(0.1, small.peakMiB - small.idleMiB)).toFixed(2)}x that of ${small.events} (flat memory: about 1x; memory that grew with the count would be about 3x).`);
  } finally {
    plain.close();
    api.kill('SIGTERM');
    await new Promise((r) => api.once('exit', r));
    const admin = new URL(databaseUrl);
    admin.pathname = '/postgres';
    const client = new Client({ connectionString: admin.toString() });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS "svc_bench_${process.pid}" WITH (FORCE)`);
    await client.end();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
