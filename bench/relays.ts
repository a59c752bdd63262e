import { INestApplicationContext, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ChildProcess, spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { AuditModule } from '@svc/audit';
import { AUTH_ENTITIES } from '@svc/auth';
import { ORGANIZATIONS_ENTITIES } from '@svc/organizations';
import { ConfigModule, DatabaseModule, loadConfig, LoggingModule, OutboundClient, PaginationModule } from '@svc/platform';
import { RelayJobsService, RelaysModule } from '@svc/relays';
import { MIGRATIONS } from '../migrations';
import { MonitoringProcess } from '../test/support/monitoring-stack';
import { apiJson, commandCpuSeconds, cpuSeconds, freePort, percentile, postgresCpuSeconds, sleep, startApi, stopApi, stopChild } from './support';

/**
 * Reads through a relay against the same reads made directly, in the same run: a Prometheus
 * instant query (`QUERY`, over a Prometheus scraping itself every second) read by this process as
 * a worker's tool reads it, once through a real relay process (the relay checked in PostgreSQL, the
 * job queued in Redis, sent by the API process holding the relay's session, run by the relay,
 * answered back, recorded) and once
 * directly through the outbound client. Then bursts of 100 reads at once each way.
 */
const arg = (name: string): string | undefined => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
/** `--relay-reads=N`: sequential reads of each kind (default 300), after a warm-up. */
const READS = Number(arg('relay-reads') ?? 300);
/** `--relay-concurrent=N`: relay jobs started at once (default 100). */
const CONCURRENT = Number(arg('relay-concurrent') ?? 100);
/** `--relay-rounds=N`: bursts of CONCURRENT reads of each kind (default 5). */
const ROUNDS = Number(arg('relay-rounds') ?? 5);
const WARM_UP = 20;
const QUERY = 'rate(prometheus_http_requests_total[1m])';
const MAX_BYTES = 16 * 1024 * 1024;
const TIMEOUT_MS = 15_000;
const CAPABILITIES = ['prometheus.query', 'prometheus.status'];

export interface RelaysContext {
  cookie: string;
  /** The environment the bench API runs with (database, Redis, queue prefix, secret key). */
  env: Record<string, string>;
  organizationId: string;
  /** Where the relay and the API serving it write V8 CPU profiles when they stop. */
  profileDir?: string;
}

/** The relay side of a worker, in this process: the relay job reader and the outbound client, nothing else. */
function readerModule(config: ReturnType<typeof loadConfig>) {
  @Module({
    imports: [
      ConfigModule.forRoot(config),
      LoggingModule.forRoot('bench-relay-reader', config),
      DatabaseModule.forRoot({ migrations: MIGRATIONS, applicationName: 'svc-bench-relay-reader' }),
      PaginationModule,
      // The entities the relay and audit entities relate to.
      TypeOrmModule.forFeature([...ORGANIZATIONS_ENTITIES, ...AUTH_ENTITIES]),
      AuditModule,
      RelaysModule,
    ],
  })
  class BenchRelayReaderModule {}
  return BenchRelayReaderModule;
}

/**
 * The relay agent from dist with a configuration file in `dir`; resolves once it logs `message`.
 * Its log goes to a file (as to a container's log collector), not through this process: reading
 * a line a job here would count as the reading process's CPU.
 */
async function startRelay(dir: string, config: Record<string, unknown>, message: string, profileDir?: string): Promise<ChildProcess> {
  writeFileSync(join(dir, 'relay.json'), JSON.stringify(config));
  const logFile = join(dir, 'relay.log');
  writeFileSync(logFile, '');
  const log = openSync(logFile, 'a');
  const profile = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  const child = spawn(process.execPath, [...profile, join(__dirname, '../apps/relay/src/main.js'), join(dir, 'relay.json')], {
    env: { PATH: process.env.PATH, LOG_LEVEL: 'info' },
    stdio: ['ignore', log, log],
  });
  closeSync(log);
  for (let i = 0; i < 300; i++) {
    if (readFileSync(logFile, 'utf8').includes(message)) return child;
    if (child.exitCode !== null) break;
    await sleep(100);
  }
  await stopChild(child);
  throw new Error(`the relay did not log "${message}":\n${readFileSync(logFile, 'utf8').slice(-20_000)}`);
}

/** A Prometheus scraping itself every second, once its first scrapes answer QUERY with series. */
async function startPrometheus(): Promise<MonitoringProcess> {
  const port = await freePort();
  const prometheus = await MonitoringProcess.prometheus(
    ['global:', '  scrape_interval: 1s', 'scrape_configs:', '  - job_name: prometheus', `    static_configs: [{ targets: ['127.0.0.1:${port}'] }]`, ''].join(
      '\n',
    ),
    port,
  );
  for (let i = 0; i < 100; i++) {
    const answer = (await (await fetch(`${prometheus.url}/api/v1/query?query=${encodeURIComponent(QUERY)}`)).json()) as { data: { result: unknown[] } };
    if (answer.data.result.length > 0) return prometheus;
    await sleep(200);
  }
  await prometheus.stop();
  throw new Error(`Prometheus has no series for ${QUERY}`);
}

interface Timed {
  ms: number;
  ok: boolean;
  bytes: number;
}

const summary = (times: Timed[]) => {
  const sorted = times.map((t) => t.ms).sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), ok: times.filter((t) => t.ok).length, bytes: times[0]?.bytes ?? 0 };
};

/** This process's CPU time so far, in ms. */
const ownCpuMs = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

export async function relaysSection({ cookie, env, organizationId, profileDir }: RelaysContext): Promise<void> {
  const port = await freePort();
  const grpcPort = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-relay-'));
  let api: ChildProcess | undefined;
  let relay: ChildProcess | undefined;
  let prometheus: MonitoringProcess | undefined;
  let context: INestApplicationContext | undefined;
  try {
    // An API process serving the relay endpoint (plaintext on loopback), beside the bench's API.
    api = await startApi({ ...env, SVC_RELAY_GRPC_PORT: String(grpcPort), SVC_RELAY_ALLOW_PLAINTEXT: 'true' }, port, profileDir);
    prometheus = await startPrometheus();
    const token = (await apiJson<{ token: string }>(port, cookie, 'POST', '/api/v1/relays/bootstrap-tokens', { name: 'bench' })).token;
    const relayConfig = { server: `127.0.0.1:${grpcPort}`, plaintext: true, stateFile: 'state.json', maxConcurrentJobs: CONCURRENT };
    relay = await startRelay(dir, { ...relayConfig, bootstrapToken: token, integrations: [] }, 'session established');
    const { relayId } = JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8')) as { relayId: string };
    const integration = await apiJson<{ id: string }>(port, cookie, 'POST', '/api/v1/integrations', {
      type: 'prometheus',
      name: 'Bench Prometheus behind a relay',
      config: { relayId },
    });
    await stopChild(relay);
    relay = await startRelay(
      dir,
      { ...relayConfig, integrations: [{ integrationId: integration.id, type: 'prometheus', baseUrl: prometheus.url, capabilities: CAPABILITIES }] },
      'session established',
      profileDir,
    );
    for (let i = 0; ; i++) {
      const { items } = await apiJson<{ items: { id: string; state: string; capabilities: unknown[] }[] }>(port, cookie, 'GET', '/api/v1/relays');
      const item = items.find((r) => r.id === relayId);
      if (item?.state === 'connected' && item.capabilities.length === CAPABILITIES.length) break;
      if (i > 200) throw new Error('the relay did not connect');
      await sleep(100);
    }

    const config = loadConfig({ ...env, LOG_LEVEL: 'warn' });
    context = await NestFactory.createApplicationContext(readerModule(config), { logger: ['error'], abortOnError: false });
    const jobs = context.get(RelayJobsService);
    const outbound = new OutboundClient(config);
    const throughRelay = async (): Promise<Timed> => {
      const started = performance.now();
      try {
        const answer = await jobs.read({
          organizationId,
          relayId,
          integrationId: integration.id,
          integrationType: 'prometheus',
          path: 'api/v1/query',
          query: [['query', QUERY]],
          signal: AbortSignal.timeout(TIMEOUT_MS),
          maxBytes: MAX_BYTES,
          timeoutMs: TIMEOUT_MS,
        });
        return { ms: performance.now() - started, ok: answer.status === 200 && answer.complete, bytes: answer.body.length };
      } catch {
        return { ms: performance.now() - started, ok: false, bytes: 0 };
      }
    };
    const direct = async (): Promise<Timed> => {
      const started = performance.now();
      try {
        const url = new URL('api/v1/query', `${prometheus!.url}/`);
        url.searchParams.set('query', QUERY);
        const answer = await outbound.get({ url, headers: { accept: 'application/json' }, signal: AbortSignal.timeout(TIMEOUT_MS), maxBytes: MAX_BYTES });
        return { ms: performance.now() - started, ok: answer.status === 200 && answer.complete, bytes: answer.body.length };
      } catch {
        return { ms: performance.now() - started, ok: false, bytes: 0 };
      }
    };

    for (let i = 0; i < WARM_UP; i++) {
      await direct();
      await throughRelay();
    }
    // One after the other, alternating which goes first, so both see the same moments of the machine.
    const relayed: Timed[] = [];
    const directly: Timed[] = [];
    for (let i = 0; i < READS; i++) {
      if (i % 2 === 0) {
        directly.push(await direct());
        relayed.push(await throughRelay());
      } else {
        relayed.push(await throughRelay());
        directly.push(await direct());
      }
    }
    const r = summary(relayed);
    const d = summary(directly);

    // Bursts of CONCURRENT reads, ROUNDS of each kind, alternating which goes first; the rate is
    // all reads over the time their bursts took, the percentiles over every read of every burst.
    const burst = async (read: () => Promise<Timed>) => {
      // The others' CPU from /proc; this process's own last before the burst and first after it,
      // so reading /proc is not counted as reading through the relay.
      const othersCpuMs = () => ({
        relay: cpuSeconds(relay!.pid!) * 1000,
        api: cpuSeconds(api!.pid!) * 1000,
        postgres: postgresCpuSeconds() * 1000,
        prometheus: cpuSeconds(prometheus!.pid!) * 1000,
        redis: commandCpuSeconds('redis-server') * 1000,
      });
      const cpuBefore = { ...othersCpuMs(), reader: ownCpuMs() };
      const started = performance.now();
      const times = await Promise.all(Array.from({ length: CONCURRENT }, () => read()));
      const seconds = (performance.now() - started) / 1000;
      const readerAfter = ownCpuMs();
      const cpuAfter = { ...othersCpuMs(), reader: readerAfter };
      const cpu = {
        relay: cpuAfter.relay - cpuBefore.relay,
        api: cpuAfter.api - cpuBefore.api,
        reader: cpuAfter.reader - cpuBefore.reader,
        postgres: cpuAfter.postgres - cpuBefore.postgres,
        prometheus: cpuAfter.prometheus - cpuBefore.prometheus,
        redis: cpuAfter.redis - cpuBefore.redis,
      };
      return { times, seconds, cpu };
    };
    const bursts = { direct: [] as Awaited<ReturnType<typeof burst>>[], relay: [] as Awaited<ReturnType<typeof burst>>[] };
    for (let round = 0; round < ROUNDS; round++) {
      if (round % 2 === 0) {
        bursts.direct.push(await burst(direct));
        bursts.relay.push(await burst(throughRelay));
      } else {
        bursts.relay.push(await burst(throughRelay));
        bursts.direct.push(await burst(direct));
      }
    }
    /** CPU ms per read of one process over the bursts. */
    const perRead = (done: Awaited<ReturnType<typeof burst>>[], process: 'relay' | 'api' | 'reader' | 'postgres' | 'prometheus' | 'redis') =>
      done.reduce((sum, b) => sum + b.cpu[process], 0) / (done.length * CONCURRENT);
    const rate = (done: Awaited<ReturnType<typeof burst>>[]) => {
      const seconds = done.reduce((sum, b) => sum + b.seconds, 0);
      return { ...summary(done.flatMap((b) => b.times)), seconds, perSecond: (done.length * CONCURRENT) / seconds };
    };
    const concurrentDirect = rate(bursts.direct);
    const concurrentRelay = rate(bursts.relay);

    console.log(
      `\nRelays: the instant query ${QUERY} (${r.bytes} bytes answered) to a local Prometheus, read as a worker's tool reads it,` +
        ` ${READS} times each way, one at a time, alternating; loopback, the relay process, the API process holding its session and PostgreSQL on this machine\n`,
    );
    console.log('| read | p50 ms | p99 ms | succeeded |');
    console.log('|---|---:|---:|---:|');
    console.log(`| direct (outbound client) | ${d.p50.toFixed(2)} | ${d.p99.toFixed(2)} | ${d.ok}/${READS} |`);
    console.log(`| through the relay | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${r.ok}/${READS} |`);
    console.log(
      `\nAdded by the relay: p50 +${(r.p50 - d.p50).toFixed(2)} ms, p99 +${(r.p99 - d.p99).toFixed(2)} ms; ratio relay/direct: p50 ${(r.p50 / d.p50).toFixed(1)}x, p99 ${(r.p99 / d.p99).toFixed(1)}x.`,
    );
    console.log(
      `\n${CONCURRENT} reads started at once (the relay runs up to ${CONCURRENT} jobs at once), ${ROUNDS} times each way, alternating; connections kept alive between bursts\n`,
    );
    console.log('| read | per second | seconds | p50 ms | p99 ms | succeeded |');
    console.log('|---|---:|---:|---:|---:|---:|');
    for (const [name, c] of [
      ['direct (outbound client)', concurrentDirect],
      ['through the relay', concurrentRelay],
    ] as const) {
      console.log(
        `| ${name} | ${c.perSecond.toFixed(0)} | ${c.seconds.toFixed(2)} | ${c.p50.toFixed(2)} | ${c.p99.toFixed(2)} | ${c.ok}/${ROUNDS * CONCURRENT} |`,
      );
    }
    console.log(
      `\nAt once, through the relay: ${(concurrentRelay.perSecond / concurrentDirect.perSecond).toFixed(2)} of the direct rate, p99 +${(concurrentRelay.p99 - concurrentDirect.p99).toFixed(2)} ms.`,
    );
    console.log(
      `CPU per read (ms): direct, the reading process ${perRead(bursts.direct, 'reader').toFixed(3)}; through the relay, the reading process ${perRead(bursts.relay, 'reader').toFixed(3)},` +
        ` the API process holding the session ${perRead(bursts.relay, 'api').toFixed(3)}, the relay ${perRead(bursts.relay, 'relay').toFixed(3)},` +
        ` PostgreSQL ${perRead(bursts.relay, 'postgres').toFixed(3)} (direct: ${perRead(bursts.direct, 'postgres').toFixed(3)});` +
        ` Redis ${perRead(bursts.relay, 'redis').toFixed(3)} (direct: ${perRead(bursts.direct, 'redis').toFixed(3)}),` +
        ` Prometheus ${perRead(bursts.relay, 'prometheus').toFixed(3)} (direct: ${perRead(bursts.direct, 'prometheus').toFixed(3)}); every process shares this machine's cores.`,
    );
    if (r.ok !== READS || concurrentRelay.ok !== ROUNDS * CONCURRENT) console.log('\nSome relay reads failed: see the table.');
  } finally {
    await context?.close();
    await stopChild(relay);
    if (api) await stopApi(api);
    await prometheus?.stop();
    if (existsSync(dir)) rmSync(dir, { recursive: true, force: true });
  }
}
