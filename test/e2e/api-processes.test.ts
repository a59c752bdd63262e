import { ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { databaseUrl, withServer } from '../support/databases';
import { DIST_APPS as DIST, ensureBuilt } from '../support/dist';
import { freePort } from '../support/ports';
import { until } from '../support/until';

/** The launcher's child processes that run the API (node:cluster workers run the API's main too). */
function apiChildren(launcherPid: number): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const ppid = Number(readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1].split(' ')[1]);
      if (ppid === launcherPid && readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('api/src/main.js')) pids.push(Number(entry));
    } catch {
      /* gone meanwhile */
    }
  }
  return pids;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** `SVC_API_PROCESSES`: the launcher runs that many API processes on one port. */
describe('the launcher with SVC_API_PROCESSES', () => {
  const name = `svc_test_api_processes_${process.pid}`;
  const started: ChildProcess[] = [];

  afterAll(async () => {
    for (const child of started) {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
    }
    await withServer((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
  });

  async function launch(processes: string, port: number): Promise<{ launcher: ChildProcess; output: () => string; exit: Promise<number | null> }> {
    ensureBuilt();
    const launcher = spawn(process.execPath, [join(DIST, 'launcher/src/main.js')], {
      env: {
        PATH: process.env.PATH ?? '',
        DATABASE_URL: databaseUrl(name),
        PORT: String(port),
        SVC_QUEUE_PREFIX: `apiprocs${process.pid}`,
        LOG_LEVEL: 'warn',
        SVC_API_PROCESSES: processes,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    started.push(launcher);
    let output = '';
    launcher.stdout!.on('data', (d) => (output += d));
    launcher.stderr!.on('data', (d) => (output += d));
    const exit = new Promise<number | null>((resolve) => launcher.once('exit', (code) => resolve(code)));
    return { launcher, output: () => output, exit };
  }

  /** Waits until the port answers ready and the launcher has two API processes (fails at once if it exits). */
  async function twoApisReady(launcher: ChildProcess, port: number, output: () => string): Promise<void> {
    await until(
      async () => {
        if (launcher.exitCode !== null) throw new Error(`launcher exited:\n${output()}`);
        try {
          return (await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200 && apiChildren(launcher.pid!).length === 2 ? true : undefined;
        } catch {
          return undefined;
        }
      },
      120_000,
      'two API processes ready',
    );
  }

  it('refuses a count that is not a whole number from 1, naming the variable', async () => {
    const { exit, output } = await launch('two', await freePort());
    expect(await exit).not.toBe(0);
    expect(output()).toContain('SVC_API_PROCESSES');
  });

  it('runs two API processes on one port, and stops everything with a failure when one dies on its own', async () => {
    const port = await freePort();
    const { launcher, exit, output } = await launch('2', port);
    await twoApisReady(launcher, port, output);
    for (let i = 0; i < 6; i++) expect((await fetch(`http://127.0.0.1:${port}/api/v1/meta`)).status).toBe(200);

    const [victim, other] = apiChildren(launcher.pid!);
    process.kill(victim, 'SIGKILL');
    expect(await exit).not.toBe(0);
    expect(alive(other)).toBe(false);
    await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
  }, 180_000);

  it('stops all of them, and exits 0, on SIGTERM', async () => {
    const port = await freePort();
    const { launcher, exit, output } = await launch('2', port);
    await twoApisReady(launcher, port, output);
    const apis = apiChildren(launcher.pid!);
    launcher.kill('SIGTERM');
    expect(await exit).toBe(0);
    for (const pid of apis) expect(alive(pid)).toBe(false);
  }, 180_000);
});
