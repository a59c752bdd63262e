import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { freePort } from './ports';
import { until } from './until';

/** The newest PostgreSQL of the machine's packages (Debian keeps them in /usr/lib/postgresql/<version>/bin). */
function binaries(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  const found = versions.map((v) => join(root, v, 'bin')).find((dir) => existsSync(join(dir, 'postgres')));
  if (!found) throw new Error(`no PostgreSQL server binaries under ${root}`);
  return found;
}

/**
 * A private PostgreSQL cluster on its own loopback port (the machine's packages, run as the
 * postgres user when the tests run as root): a datastore an integration may read, apart from
 * the service's own database, with settings a test chooses (max_connections, preloaded libraries).
 * Passwords are checked on TCP (scram-sha-256); the superuser `postgres` has `password`.
 */
export class PostgresServer {
  private constructor(
    private readonly child: ChildProcess,
    readonly port: number,
    private readonly dir: string,
  ) {}

  static readonly SUPERUSER_PASSWORD = 'password';

  static async start(settings: Record<string, string | number> = {}): Promise<PostgresServer> {
    const bin = binaries();
    const dir = mkdtempSync(join(tmpdir(), 'svc-datastore-pg-'));
    const ids =
      userInfo().uid === 0
        ? { uid: Number(execFileSync('id', ['-u', 'postgres']).toString()), gid: Number(execFileSync('id', ['-g', 'postgres']).toString()) }
        : undefined;
    if (ids) chownSync(dir, ids.uid, ids.gid);
    const data = join(dir, 'data');
    const pwfile = join(dir, 'pw');
    writeFileSync(pwfile, `${PostgresServer.SUPERUSER_PASSWORD}\n`);
    if (ids) chownSync(pwfile, ids.uid, ids.gid);
    execFileSync(
      join(bin, 'initdb'),
      ['-D', data, '-U', 'postgres', '--pwfile', pwfile, '--auth-host=scram-sha-256', '--auth-local=trust', '-E', 'UTF8', '--no-sync'],
      {
        stdio: 'ignore',
        ...(ids ?? {}),
      },
    );
    const port = await freePort();
    const args = ['-D', data, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', `unix_socket_directories=${dir}`, '-c', 'fsync=off'];
    for (const [name, value] of Object.entries(settings)) args.push('-c', `${name}=${value}`);
    const child = spawn(join(bin, 'postgres'), args, { stdio: 'ignore', ...(ids ?? {}), env: { ...process.env, LC_MESSAGES: 'C' } });
    const server = new PostgresServer(child, port, dir);
    await until(
      async () => {
        const client = server.client();
        try {
          await client.connect();
          return true;
        } catch {
          return false;
        } finally {
          await client.end().catch(() => undefined);
        }
      },
      30_000,
      'the private PostgreSQL to accept connections',
    );
    return server;
  }

  /** A client of this server (not connected): the superuser unless `user` and `password` say otherwise. */
  client(options: { user?: string; password?: string; database?: string; application?: string } = {}): Client {
    const client = new Client({
      host: '127.0.0.1',
      port: this.port,
      user: options.user ?? 'postgres',
      password: options.password ?? PostgresServer.SUPERUSER_PASSWORD,
      database: options.database ?? 'postgres',
      application_name: options.application,
    });
    client.on('error', () => undefined);
    return client;
  }

  /**
   * The shop the datastore tests read: an application role `shop` (password `shop-secret`) owning
   * database `shop` with one order row, and a monitoring role `investigator` (`monitor-secret`,
   * pg_monitor), the account the integrations sign in with.
   */
  async createShop(): Promise<void> {
    await this.admin(
      `CREATE ROLE shop LOGIN PASSWORD 'shop-secret'; CREATE ROLE investigator LOGIN PASSWORD 'monitor-secret'; GRANT pg_monitor TO investigator;`,
    );
    await this.admin('CREATE DATABASE shop OWNER shop');
    await this.admin(`SET ROLE shop; CREATE TABLE orders (id int PRIMARY KEY, status text); INSERT INTO orders VALUES (1, 'new');`, 'shop');
  }

  /** Runs statements as the superuser. */
  async admin(sql: string, database = 'postgres'): Promise<void> {
    const client = this.client({ database });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null) {
      await new Promise<void>((resolve) => {
        this.child.once('exit', () => resolve());
        this.child.kill('SIGINT');
      });
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
