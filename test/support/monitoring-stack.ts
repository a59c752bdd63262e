import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './ports';
import { until } from './until';

/** A real Prometheus or Alertmanager (Debian packages) on a loopback port, with its own data directory. */
export class MonitoringProcess {
  private constructor(
    private readonly child: ChildProcess,
    readonly url: string,
    private readonly dir: string,
  ) {}

  /** The process id (for CPU accounting). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /**
   * `port`: when the config must name it (a scrape of Prometheus itself); a free one otherwise.
   * `files`: written beside prometheus.yml (rule files, named relative to it in the config).
   * `storage`: a TSDB directory to serve (e.g. blocks backfilled with promtool), kept when it stops.
   */
  static async prometheus(
    config = 'global:\n  scrape_interval: 15s\n',
    port?: number,
    files: Record<string, string> = {},
    storage?: string,
  ): Promise<MonitoringProcess> {
    port ??= await freePort();
    const dir = mkdtempSync(join(tmpdir(), 'svc-prometheus-'));
    writeFileSync(join(dir, 'prometheus.yml'), config);
    for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
    const child = spawn(
      'prometheus',
      [
        `--config.file=${join(dir, 'prometheus.yml')}`,
        `--web.listen-address=127.0.0.1:${port}`,
        `--storage.tsdb.path=${storage ?? join(dir, 'data')}`,
        '--log.level=warn',
      ],
      { stdio: 'ignore' },
    );
    return MonitoringProcess.ready(child, `http://127.0.0.1:${port}`, dir, '/-/ready');
  }

  /** An Alertmanager config that sends every alert to `url` with `Authorization: Bearer <secret>`, quickly. */
  static webhookConfig(url: string, secret: string, groupBy: string[]): string {
    return [
      'route:',
      '  receiver: svc',
      `  group_by: [${groupBy.map((l) => `'${l}'`).join(', ')}]`,
      '  group_wait: 1s',
      '  group_interval: 1s',
      '  repeat_interval: 1h',
      'receivers:',
      '  - name: svc',
      '    webhook_configs:',
      `      - url: '${url}'`,
      '        send_resolved: true',
      '        http_config:',
      '          authorization:',
      '            type: Bearer',
      `            credentials: '${secret}'`,
      '',
    ].join('\n');
  }

  static async alertmanager(config = 'route:\n  receiver: default\nreceivers:\n  - name: default\n', port?: number): Promise<MonitoringProcess> {
    port ??= await freePort();
    const dir = mkdtempSync(join(tmpdir(), 'svc-alertmanager-'));
    writeFileSync(join(dir, 'alertmanager.yml'), config);
    const child = spawn(
      'prometheus-alertmanager',
      [
        `--config.file=${join(dir, 'alertmanager.yml')}`,
        `--web.listen-address=127.0.0.1:${port}`,
        `--storage.path=${join(dir, 'data')}`,
        '--cluster.listen-address=',
        '--log.level=warn',
      ],
      { stdio: 'ignore' },
    );
    return MonitoringProcess.ready(child, `http://127.0.0.1:${port}`, dir, '/-/ready');
  }

  private static async ready(child: ChildProcess, url: string, dir: string, path: string): Promise<MonitoringProcess> {
    await until(
      async () => {
        if (child.exitCode !== null) throw new Error(`${url}: process exited with ${child.exitCode}`);
        try {
          return (await fetch(`${url}${path}`)).ok;
        } catch {
          return false; // starting
        }
      },
      30_000,
      `${url} to become ready`,
    );
    return new MonitoringProcess(child, url, dir);
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null) {
      await new Promise<void>((resolve) => {
        this.child.once('exit', () => resolve());
        this.child.kill('SIGTERM');
      });
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
