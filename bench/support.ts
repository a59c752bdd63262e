import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';

/** Where the gc-on-signal preload of the API on `port` writes its memory figures (BENCH_MEMORY_FILE). */
export function apiMemoryFile(port: number): string {
  return join(tmpdir(), `svc-bench-api-memory-${process.pid}-${port}.json`);
}

const apiPorts = new WeakMap<ChildProcess, number>();

/**
 * Starts the API from dist on `port` (env.PORT and SVC_PUBLIC_URL are set to it) and waits until it
 * is ready. It runs with the gc-on-signal preload: SIGWINCH runs a full GC and writes its memory
 * figures to apiMemoryFile(port), for memory read without garbage. `profileDir`: it writes a V8 CPU
 * profile there when it stops. `main`: the script to run instead of the API's (bench/api-cluster.js).
 */
export async function startApi(env: Record<string, string>, port: number, profileDir?: string, main = '../apps/api/src/main.js'): Promise<ChildProcess> {
  const profile = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  const gcOnSignal = ['--expose-gc', '--require', join(__dirname, 'gc-on-signal.js')];
  const child = spawn(process.execPath, [...profile, ...gcOnSignal, join(__dirname, main)], {
    env: { ...env, PORT: String(port), SVC_PUBLIC_URL: `http://127.0.0.1:${port}`, BENCH_MEMORY_FILE: apiMemoryFile(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  apiPorts.set(child, port);
  for (let i = 0; i < 200 && child.exitCode === null; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/readyz`)).ok) return child;
    } catch {
      /* starting */
    }
    await sleep(100);
  }
  await stopApi(child);
  throw new Error('API did not start');
}

/** SIGTERM (the API ends its streams and drains), and wait for it to exit. */
export async function stopApi(child: ChildProcess): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  const port = apiPorts.get(child);
  if (port !== undefined) rmSync(apiMemoryFile(port), { force: true });
}

/** Nearest-rank percentile of an ascending array (NaN when empty). */
export function percentile(sorted: number[], p: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** Resident memory of a process (VmRSS), KiB. */
export function rssKiB(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
}

export interface Memory {
  rssKiB: number;
  heapUsedKiB: number;
  externalKiB: number;
}

/** The API's memory after a full GC (SIGWINCH to its gc-on-signal preload), so garbage of what ran before does not count. */
export async function settledMemory(pid: number, port: number): Promise<Memory> {
  const signalled = Date.now();
  for (let i = 0; i < 2; i++) {
    process.kill(pid, 'SIGWINCH');
    await sleep(250);
  }
  const v8 = JSON.parse(readFileSync(apiMemoryFile(port), 'utf8')) as { at: number; heapUsed: number; external: number };
  if (v8.at < signalled) throw new Error('the API did not write its memory figures: is it running with the gc-on-signal preload?');
  return { rssKiB: rssKiB(pid), heapUsedKiB: v8.heapUsed / 1024, externalKiB: v8.external / 1024 };
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The one free-port helper, shared with the tests. */
export { freePort } from '../test/support/ports';

/** POST/GET JSON to the bench API with the session cookie (and the Origin unsafe cookie requests need). */
export async function apiJson<T>(port: number, cookie: string, method: string, path: string, body?: unknown, expected = [200, 201]): Promise<T> {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, {
    method,
    headers: { cookie, origin: `http://127.0.0.1:${port}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!expected.includes(res.status)) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 500)}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** One alert delivery to a generic integration's webhook; returns the incident ids of the 202/200 answer. */
export async function deliver(port: number, integration: { id: string; secret: string }, payload: unknown): Promise<string[]> {
  const res = await fetch(`http://127.0.0.1:${port}/webhooks/v1/integrations/${integration.id}/alert-events`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-svc-token': integration.secret },
    body: JSON.stringify(payload),
  });
  const text = await res.text();
  if (res.status !== 202 && res.status !== 200) throw new Error(`the webhook answered ${res.status}: ${text.slice(0, 500)}`);
  return (JSON.parse(text) as { incidentIds: string[] }).incidentIds;
}

/** A generic (webhook) integration of the bench Organization. */
export async function genericIntegration(port: number, cookie: string, name: string): Promise<{ id: string; secret: string }> {
  const created = await apiJson<{ id: string; webhookSecret: string }>(port, cookie, 'POST', '/api/v1/integrations', { type: 'generic', name }, [201]);
  return { id: created.id, secret: created.webhookSecret };
}

const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

/** CPU time of a process so far (user + system), seconds. */
export function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

/**
 * CPU seconds of every PostgreSQL server process on this machine, for CPU per unit of work: its
 * backends, and those that have ended (counted in the postmaster's children's time).
 */
export function postgresCpuSeconds(): number {
  return commandCpuSeconds('postgres');
}

/** The CPU time so far of every process of this machine running `command` (its name in /proc), with its reaped children's, in seconds. */
export function commandCpuSeconds(command: string): number {
  let sum = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.slice(stat.indexOf('(') + 1, stat.indexOf(')')) !== command) continue;
      const fields = stat.split(') ')[1].split(' ');
      sum += (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) / CLOCK_TICKS;
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return sum;
}

/** The whole machine's busy and total CPU time so far (all CPUs), in clock ticks. */
export function machineTicks(): { busy: number; total: number } {
  const [, ...values] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
  const ticks = values.map(Number);
  const total = ticks.slice(0, 8).reduce((a, b) => a + b, 0);
  return { busy: total - ticks[3] - ticks[4], total };
}

/** The worker process from dist, started like `npm run start:worker`; resolves once it says it processes jobs. */
export async function startWorker(env: Record<string, string>, profileDir?: string): Promise<{ child: ChildProcess; output: () => string }> {
  const profile = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  const child = spawn(process.execPath, [...profile, join(__dirname, '../apps/worker/src/main.js')], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  // Keep the tail of its output for an error message; reading it also keeps the pipes from filling.
  const keep = (chunk: Buffer): void => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  try {
    await new Promise<void>((resolve, reject) => {
      const settle = (error?: Error): void => {
        clearInterval(poll);
        clearTimeout(limit);
        child.off('exit', onExit);
        if (error) reject(error);
        else resolve();
      };
      const poll = setInterval(() => {
        if (output.includes('Worker started')) settle();
      }, 50);
      const limit = setTimeout(() => settle(new Error(`the worker did not start:\n${output.slice(-4000)}`)), 30_000);
      const onExit = (code: number | null): void => settle(new Error(`the worker exited with ${code}:\n${output.slice(-4000)}`));
      child.once('exit', onExit);
    });
  } catch (error) {
    await stopChild(child);
    throw error;
  }
  return { child, output: () => output };
}

/** SIGTERM, SIGKILL after 10 s, and wait for the exit. */
export async function stopChild(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** Deletes this run's Redis keys (Bull queues, rate-limit counters). */
export async function dropQueueKeys(redisUrl: string, prefix: string): Promise<void> {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } catch (error) {
    console.error(`Could not delete the Redis keys ${prefix}:*: ${(error as Error).message}`);
  } finally {
    redis.disconnect();
  }
}
