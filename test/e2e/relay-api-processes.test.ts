import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RelayGateway } from '@svc/relays';
import { BOOTSTRAP_CREDENTIAL, Client, PUBLIC_URL, TestApi } from '../support/api';
import { startApiProcess } from '../support/api-process';
import { databaseUrl, withServer } from '../support/databases';
import { DIST_APPS, ensureBuilt } from '../support/dist';
import { bootstrap, useBootstrappedApi } from '../support/factories';
import { investigationEnded } from '../support/investigations';
import { MonitoringProcess } from '../support/monitoring-stack';
import { freePort } from '../support/ports';
import { relayDirectory, RelayProcess, writeRelayConfig, PROMETHEUS_READS } from '../support/relay-process';
import { until } from '../support/until';
import { startWorker, TestWorker } from '../support/worker';

/**
 * Registers a relay (started with no integrations, then stopped) and binds a new Prometheus
 * integration to it: the operator's first steps. `start` runs it with that integration at
 * `prometheusUrl`.
 */
async function registeredRelay(admin: Client, server: string, prometheusUrl: string, name: string) {
  const dir = relayDirectory();
  const token = (await admin.post('/api/v1/relays/bootstrap-tokens', { name })).body.token;
  const config = (integrations: unknown[]) => writeRelayConfig(dir, { server, plaintext: true, bootstrapToken: token, stateFile: 'state.json', integrations });
  const first = RelayProcess.start(config([]));
  await first.logged('session established');
  const { relayId } = JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8')) as { relayId: string };
  const created = await admin.post('/api/v1/integrations', { type: 'prometheus', name: `Prometheus behind ${name}`, config: { relayId } });
  expect(created.status, created.text).toBe(201);
  expect(await first.stop()).toBe(0);
  const integrationId = created.body.id as string;
  return {
    relayId,
    integrationId,
    start: async () => {
      const relay = RelayProcess.start(config([{ integrationId, type: 'prometheus', baseUrl: prometheusUrl, capabilities: PROMETHEUS_READS }]));
      await relay.logged('session established');
      return relay;
    },
  };
}

/** The processes holding an established TCP connection whose local port is `port` (from /proc). */
function processesServingPort(pids: number[], port: number): Set<number> {
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let rows: string[];
    try {
      rows = readFileSync(table, 'utf8').trim().split('\n').slice(1);
    } catch {
      continue;
    }
    for (const row of rows) {
      const fields = row.trim().split(/\s+/);
      if (parseInt(fields[1].split(':')[1], 16) === port && fields[3] === '01') inodes.add(fields[9]);
    }
  }
  const holders = new Set<number>();
  for (const pid of pids) {
    try {
      for (const fd of readdirSync(`/proc/${pid}/fd`)) {
        const target = (() => {
          try {
            return readlinkSync(`/proc/${pid}/fd/${fd}`);
          } catch {
            return '';
          }
        })();
        const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
        if (inode && inodes.has(inode)) holders.add(pid);
      }
    } catch {
      // gone meanwhile
    }
  }
  return holders;
}

/** The launcher's children running the API's main (node:cluster workers when more than one). */
function apiChildren(launcherPid: number): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const ppid = Number(readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1].split(' ')[1]);
      if (ppid === launcherPid && readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('api/src/main.js')) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

/**
 * The relay holds its session on a second API process (started from dist); an Admin's
 * clear-conflict on this one reaches it through PostgreSQL NOTIFY and ends the session there.
 */
describe('relay sessions across API processes', () => {
  const ctx = useBootstrappedApi({ env: { SVC_RELAY_GRPC_PORT: '0', SVC_RELAY_ALLOW_PLAINTEXT: 'true', SVC_RELAY_HEARTBEAT_SECONDS: '2' } });
  let second: ChildProcess;
  let grpcPort: number;
  let relay: RelayProcess | undefined;

  beforeAll(async () => {
    const port = await freePort();
    grpcPort = await freePort();
    ({ child: second } = await startApiProcess(
      { ...process.env, PORT: String(port), SVC_RELAY_GRPC_PORT: String(grpcPort), LOG_LEVEL: 'warn' },
      `http://127.0.0.1:${port}`,
    ));
  }, 240_000);

  afterAll(async () => {
    relay?.kill();
    if (second && second.exitCode === null) {
      const exited = new Promise((resolve) => second.once('exit', resolve));
      second.kill('SIGTERM');
      await exited;
    }
  });

  it('ends the session held by the other API process when an Admin clears the conflict here', async () => {
    const dir = relayDirectory();
    const token = (await ctx.admin.post('/api/v1/relays/bootstrap-tokens', { name: 'elsewhere' })).body.token;
    relay = RelayProcess.start(writeRelayConfig(dir, { server: `127.0.0.1:${grpcPort}`, plaintext: true, bootstrapToken: token, stateFile: 'state.json' }));
    await relay.logged('session established');
    const { relayId } = JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8')) as { relayId: string };
    const state = async () => ((await ctx.admin.get('/api/v1/relays')).body.items as { id: string; state: string }[]).find((r) => r.id === relayId)?.state;
    await until(async () => (await state()) === 'connected', 20_000, 'connected through the other process');
    expect((await ctx.admin.post(`/api/v1/relays/${relayId}/clear-conflict`)).status).toBe(200);
    await relay.logged('the session was ended by an Admin');
    await relay.logged('session established', 2);
    await until(async () => (await state()) === 'connected', 20_000, 'the relay back');
    expect(await relay.stop()).toBe(0);
  });

  describe('with a worker', () => {
    let prometheus: MonitoringProcess;
    let worker: TestWorker | undefined;
    let other: RelayProcess | undefined;

    beforeAll(async () => {
      [prometheus, worker] = await Promise.all([MonitoringProcess.prometheus('global:\n  scrape_interval: 1s\n'), startWorker()]);
    }, 120_000);
    afterAll(async () => {
      other?.kill();
      await worker?.close();
      await prometheus?.stop();
    });

    it('a job the worker creates reaches the relay connected to the other API process, and so does a verify made here', async () => {
      const hook = (await ctx.admin.post('/api/v1/integrations', { type: 'generic', name: 'Alerts' })).body as { id: string; webhookSecret: string };
      const bound = await registeredRelay(ctx.admin, `127.0.0.1:${grpcPort}`, prometheus.url, 'other-process');
      other = await bound.start();
      const item = async () =>
        ((await ctx.admin.get('/api/v1/relays')).body.items as { id: string; state: string; capabilities: unknown[] }[]).find((r) => r.id === bound.relayId);
      await until(async () => (await item())?.state === 'connected' && (await item())!.capabilities.length > 0, 20_000, 'connected with capabilities');
      // This process holds no session: the relay is the second process's.
      expect(ctx.api.app.get(RelayGateway).sessions.size).toBe(0);

      const verified = await ctx.admin.post(`/api/v1/integrations/${bound.integrationId}/verify`);
      expect(verified.body.lastVerification).toMatchObject({ outcome: 'succeeded', detail: expect.stringContaining('through the relay') });

      const alert = await new Client(ctx.api.baseUrl).request('POST', `/webhooks/v1/integrations/${hook.id}/alert-events`, {
        body: {
          alerts: [{ labels: { alertname: 'ElsewhereProbe', service: 'probe', job: 'prometheus' }, startsAt: new Date(Date.now() - 60_000).toISOString() }],
        },
        headers: { 'x-svc-token': hook.webhookSecret },
        origin: false,
      });
      expect(alert.status).toBe(202);
      const started = await ctx.admin.post('/api/v1/investigations', { incidentId: alert.body.incidentIds[0] });
      const done = await investigationEnded(ctx.admin, started.body.id, { timeoutMs: 60_000 });
      const runs = (done.runs as { tool: string; outcome: string; error: string | null }[]).filter((r) => r.tool.startsWith('prometheus.'));
      expect(runs.filter((r) => r.outcome === 'succeeded').length).toBeGreaterThan(0);
      expect(runs.filter((r) => /relay|offline/i.test(r.error ?? ''))).toEqual([]);
      expect(other.count('job done')).toBeGreaterThan(runs.filter((r) => r.outcome === 'succeeded').length);
      expect(await other.stop()).toBe(0);
    }, 120_000);
  });
});

/**
 * `npm start` with SVC_API_PROCESSES=2: both API processes serve the relay endpoint on the one
 * SVC_RELAY_GRPC_PORT (node:cluster shares the listening socket, as for PORT), relays' sessions
 * land on either, and a read through any relay works from either.
 */
describe('the relay endpoint of a launcher running two API processes', () => {
  const name = `svc_test_relay_api_processes_${process.pid}`;
  let launcher: ChildProcess | undefined;
  let output = '';
  let prometheus: MonitoringProcess;
  const relays: RelayProcess[] = [];

  afterAll(async () => {
    for (const relay of relays) relay.kill();
    if (launcher && launcher.exitCode === null && launcher.signalCode === null) {
      const exited = new Promise((resolve) => launcher!.once('exit', resolve));
      launcher.kill('SIGTERM');
      await exited;
    }
    await prometheus?.stop();
    await withServer((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
  });

  it('serves relays on both API processes, and verifies through each relay whichever process answers', async () => {
    ensureBuilt();
    const [port, grpcPort] = [await freePort(), await freePort()];
    prometheus = await MonitoringProcess.prometheus();
    const proc = spawn(process.execPath, [join(DIST_APPS, 'launcher/src/main.js')], {
      env: {
        PATH: process.env.PATH ?? '',
        DATABASE_URL: databaseUrl(name),
        REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
        PORT: String(port),
        SVC_PUBLIC_URL: PUBLIC_URL,
        SVC_BOOTSTRAP_CREDENTIAL: BOOTSTRAP_CREDENTIAL,
        SVC_SECRET_KEY: randomBytes(32).toString('hex'),
        SVC_QUEUE_PREFIX: `relayprocs${process.pid}`,
        SVC_API_PROCESSES: '2',
        SVC_RELAY_GRPC_PORT: String(grpcPort),
        SVC_RELAY_ALLOW_PLAINTEXT: 'true',
        SVC_RELAY_HEARTBEAT_SECONDS: '2',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    launcher = proc;
    proc.stdout!.on('data', (d) => (output += d));
    proc.stderr!.on('data', (d) => (output += d));
    const baseUrl = `http://127.0.0.1:${port}`;
    await until(
      async () => {
        if (proc.exitCode !== null) throw new Error(`launcher exited:\n${output}`);
        try {
          return (await fetch(`${baseUrl}/readyz`)).status === 200 && apiChildren(proc.pid!).length === 2 ? true : undefined;
        } catch {
          return undefined;
        }
      },
      120_000,
      `two API processes ready; output:\n${output}`,
    );
    const { admin } = await bootstrap({ baseUrl } as TestApi);
    const bound = [];
    for (let i = 0; i < 4; i++) bound.push(await registeredRelay(admin, `127.0.0.1:${grpcPort}`, prometheus.url, `dc-${i}`));
    // Connections to the shared port are handed to the API processes in turn: four in a row land on both.
    for (const one of bound) relays.push(await one.start());
    const items = async () => (await admin.get('/api/v1/relays')).body.items as { id: string; state: string; capabilities: unknown[] }[];
    await until(async () => (await items()).filter((r) => r.state === 'connected' && r.capabilities.length > 0).length === 4, 30_000, 'four relays connected');
    // Both API processes hold relay sessions on the shared port.
    const apis = apiChildren(proc.pid!);
    expect(processesServingPort(apis, grpcPort).size).toBe(2);
    // Each verify is answered by either API process; the relay's session may be on the other.
    for (const { integrationId } of [...bound, ...bound]) {
      const verified = await admin.post(`/api/v1/integrations/${integrationId}/verify`);
      expect(verified.status, verified.text).toBe(200);
      expect(verified.body.lastVerification).toMatchObject({ outcome: 'succeeded', detail: expect.stringContaining('through the relay') });
    }
    for (const relay of relays) expect(await relay.stop()).toBe(0);
  }, 240_000);
});
