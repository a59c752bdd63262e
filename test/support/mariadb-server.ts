import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chownSync, closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { Connection, createConnection } from 'mysql2/promise';
import { freePort } from './ports';
import { until } from './until';

/**
 * A private MariaDB server on its own loopback port (the machine's mariadbd, run as the mysql
 * user when the tests run as root), apart from any server of the machine: a datastore an
 * integration may read, with options a test chooses (`max-connections`, `performance-schema`).
 * `root` signs in over TCP with an empty password (ROOT_PASSWORD).
 */
export class MariadbServer {
  private constructor(
    private readonly child: ChildProcess,
    readonly port: number,
    private readonly dir: string,
  ) {}

  static readonly ROOT_PASSWORD = '';

  /** Starts a server; `options` are mariadbd options without their leading dashes, e.g. `{ 'max-connections': 20 }`. */
  static async start(options: Record<string, string | number> = {}): Promise<MariadbServer> {
    const dir = mkdtempSync(join(tmpdir(), 'svc-datastore-mariadb-'));
    if (userInfo().uid === 0) chownSync(dir, Number(execFileSync('id', ['-u', 'mysql']).toString()), Number(execFileSync('id', ['-g', 'mysql']).toString()));
    const data = join(dir, 'data');
    try {
      execFileSync('mariadb-install-db', ['--no-defaults', `--datadir=${data}`, '--user=mysql', '--auth-root-authentication-method=normal', '--skip-test-db'], {
        stdio: 'pipe',
      });
    } catch (error) {
      const e = error as { stdout?: Buffer; stderr?: Buffer; message: string };
      throw new Error(`mariadb-install-db failed: ${e.message}\n${e.stdout?.toString().slice(-2000) ?? ''}\n${e.stderr?.toString().slice(-2000) ?? ''}`, {
        cause: error,
      });
    }
    const port = await freePort();
    const args = [
      '--no-defaults',
      `--datadir=${data}`,
      `--port=${port}`,
      '--bind-address=127.0.0.1',
      `--socket=${join(dir, 'mysqld.sock')}`,
      `--pid-file=${join(dir, 'mysqld.pid')}`,
      '--user=mysql',
      '--innodb-buffer-pool-size=32M',
      '--innodb-flush-log-at-trx-commit=0',
      // Clients show as addresses in PROCESSLIST, as on most production servers (root signs in as root@127.0.0.1).
      '--skip-name-resolve',
    ];
    for (const [name, value] of Object.entries(options)) args.push(`--${name}=${value}`);
    const log = join(dir, 'server.log');
    const logFd = openSync(log, 'a');
    const child = spawn('mariadbd', args, { stdio: ['ignore', logFd, logFd], env: { ...process.env, LC_MESSAGES: 'C' } });
    closeSync(logFd);
    const server = new MariadbServer(child, port, dir);
    try {
      await until(
        async () => {
          if (child.exitCode !== null) throw new Error(`the private MariaDB exited (${child.exitCode}): ${readFileSync(log, 'utf8').slice(-2000)}`);
          try {
            await (await server.connect()).end();
            return true;
          } catch {
            return false;
          }
        },
        30_000,
        'the private MariaDB to accept connections',
      );
    } catch (error) {
      await server.stop();
      throw error;
    }
    return server;
  }

  /** A connection to this server: root unless `user` and `password` say otherwise. */
  async connect(options: { user?: string; password?: string; database?: string; program?: string; multipleStatements?: boolean } = {}): Promise<Connection> {
    const connection = await createConnection({
      host: '127.0.0.1',
      port: this.port,
      user: options.user ?? 'root',
      password: options.password ?? MariadbServer.ROOT_PASSWORD,
      database: options.database,
      multipleStatements: options.multipleStatements,
      ...(options.program ? { connectAttributes: { program_name: options.program } } : {}),
    });
    connection.on('error', () => undefined);
    return connection;
  }

  /** Runs statements (several, separated by `;`) as root. */
  async admin(sql: string): Promise<void> {
    const connection = await this.connect({ multipleStatements: true });
    try {
      await connection.query(sql);
    } finally {
      await connection.end();
    }
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      await new Promise<void>((resolve) => {
        this.child.once('exit', () => resolve());
        this.child.kill('SIGTERM');
      });
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
