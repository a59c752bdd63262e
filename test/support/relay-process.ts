import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DIST_APPS, ensureBuilt } from './dist';
import { until } from './until';

/** A directory for one relay's configuration and state. */
export function relayDirectory(): string {
  return mkdtempSync(join(tmpdir(), 'svc-relay-'));
}

/** Writes `config` as relay.json in `dir`; returns its path. */
export function writeRelayConfig(dir: string, config: Record<string, unknown>, name = 'relay.json'): string {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(config, null, 2));
  return path;
}

/** The real relay agent (dist/apps/relay/src/main.js) with a configuration file. */
export class RelayProcess {
  private text = '';
  private exitCode: number | null = null;

  private constructor(readonly child: ChildProcess) {
    child.stdout!.on('data', (d) => (this.text += d));
    child.stderr!.on('data', (d) => (this.text += d));
    child.on('exit', (code, signal) => (this.exitCode = code ?? (signal ? 128 : 1)));
  }

  static start(configPath: string, env: NodeJS.ProcessEnv = {}): RelayProcess {
    ensureBuilt();
    const child = spawn(process.execPath, [join(DIST_APPS, 'relay/src/main.js'), configPath], {
      env: { PATH: process.env.PATH, LOG_LEVEL: 'info', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return new RelayProcess(child);
  }

  output(): string {
    return this.text;
  }

  /** How many log lines so far carry `message`. */
  count(message: string): number {
    return this.text.split('\n').filter((line) => line.includes(message)).length;
  }

  /** Waits until the output has at least `times` lines with `message`. */
  async logged(message: string, times = 1, timeoutMs = 30_000): Promise<void> {
    await until(() => this.count(message) >= times, timeoutMs, `the relay to log "${message}" ${times}x; output:\n${this.text}`);
  }

  /** Waits for the process to exit; returns its code. */
  exited(timeoutMs = 30_000): Promise<number> {
    return until(() => this.exitCode ?? undefined, timeoutMs, `the relay to exit; output:\n${this.text}`);
  }

  /** SIGTERM (a clean drain), then its exit code. */
  async stop(): Promise<number> {
    if (this.exitCode === null) this.child.kill('SIGTERM');
    return this.exited();
  }

  kill(): void {
    if (this.exitCode === null) this.child.kill('SIGKILL');
  }
}

/** The Prometheus reads the test relays offer: every read an investigation over a relay makes. */
export const PROMETHEUS_READS = [
  'prometheus.query',
  'prometheus.query_range',
  'prometheus.series',
  'prometheus.label_values',
  'prometheus.metadata',
  'prometheus.targets',
  'prometheus.alert_rules',
  'prometheus.status',
];
