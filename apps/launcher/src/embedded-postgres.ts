import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { chownSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { arch, platform, tmpdir, userInfo } from 'node:os';
import { basename, dirname, join, parse, resolve } from 'node:path';
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
 * Where a root launcher keeps what the postgres user must reach when the checkout or the data
 * directory is private to root (a fresh machine's /root, a container's home): a copy of the
 * binaries, and clusters of data directories it cannot enter.
 */
export const SHARED_DIR = '/var/lib/incident-investigation';

interface Binaries {
  postgres: string;
  initdb: string;
}
type Ids = { uid: number; gid: number };

/**
 * A PostgreSQL cluster in `<data>/postgres` for a machine with no PostgreSQL. The `embedded-postgres`
 * package supplies the binaries (through its platform package); the launcher creates the cluster
 * with their initdb and runs the server itself, in its own process group, so a Ctrl-C at the terminal
 * reaches only the launcher, which stops the server after the API and worker are done with it.
 * It listens on 127.0.0.1:5432 only, without a Unix socket (clusters in separate network
 * namespaces never share a lock file), authenticates with a password generated at creation and kept
 * in `<data>/postgres.password`, and logs to `<data>/postgres.log`.
 *
 * Run by root, PostgreSQL runs as the `postgres` system user (created when missing), which must
 * reach its binaries and its cluster. When the checkout is in a folder it cannot enter, the
 * binaries are copied once to `SHARED_DIR/postgresql-<version>`; when the data directory is, the
 * cluster lives in `SHARED_DIR/clusters/<name>-<hash of the data directory's path>`, which the
 * start line names (the password and logs stay in the data directory).
 */
export class EmbeddedPostgresServer extends LocalServerProcess {
  private constructor(
    process: ChildProcess,
    readonly url: string,
    readonly clusterDir: string,
    /** Whether an existing cluster was started rather than a new one created. */
    readonly reused: boolean,
    /** Why the cluster is not in the data directory (a folder above it the postgres user cannot enter); undefined when it is. */
    readonly movedBecause: string | undefined,
  ) {
    super(process, 'SIGINT'); // a fast shutdown: sessions ended, committed work on disk
  }

  static async start(dataDir: string): Promise<EmbeddedPostgresServer> {
    const ids = userInfo().uid === 0 ? ensureSystemUser() : undefined;
    const packaged = await loadBinaries();
    const binaries = ids && closedTo(ids, dirname(packaged.postgres)) ? placeBinaries(packaged) : packaged;
    const { clusterDir, movedBecause } = placeCluster(dataDir, ids);
    const passwordFile = join(dataDir, 'postgres.password');
    const reused = existsSync(join(clusterDir, 'PG_VERSION'));
    if (reused && !existsSync(passwordFile)) {
      throw new Error(
        `the PostgreSQL cluster in ${clusterDir} was created with a password kept in ${passwordFile}, which is missing: remove ${clusterDir} to start with an empty one`,
      );
    }

    const password = reused ? readFileSync(passwordFile, 'utf8').trim() : randomBytes(24).toString('base64url');
    const log = new ServiceLog(join(dataDir, 'postgres.log'));
    if (!reused) {
      await createCluster(binaries.initdb, clusterDir, password, ids, log);
      writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 });
    }

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
      spawn(binaries.postgres, args, {
        detached: true,
        stdio: ['ignore', fd, fd],
        uid: ids?.uid,
        gid: ids?.gid,
        // A directory the postgres user can enter: the launcher's own may be private to root.
        cwd: dirname(clusterDir),
        env: { ...process.env, LC_MESSAGES: 'C' },
      }),
    );
    const url = `postgres://${USER}:${password}@${EMBEDDED_POSTGRES_HOST}:${EMBEDDED_POSTGRES_PORT}/${DATABASE}`;
    const server = new EmbeddedPostgresServer(child, url, clusterDir, reused, movedBecause);
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

/** initdb, as the postgres user when run by root: UTF-8 with the built-in C.UTF-8 locale, whatever locales the OS has. */
async function createCluster(initdb: string, clusterDir: string, password: string, ids: Ids | undefined, log: ServiceLog): Promise<void> {
  // The directories above it open to the postgres user; the cluster itself closed to others (initdb insists).
  mkdirSync(dirname(clusterDir), { recursive: true, mode: 0o755 });
  mkdirSync(clusterDir, { recursive: true, mode: 0o700 });
  // The password reaches initdb in a file only its user can read, removed once the cluster exists.
  const work = mkdtempSync(join(tmpdir(), 'svc-initdb-'));
  const pwfile = join(work, 'password');
  writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
  if (ids) for (const path of [clusterDir, work, pwfile]) chownSync(path, ids.uid, ids.gid);
  const args = [
    `--pgdata=${clusterDir}`,
    '--auth=scram-sha-256',
    `--username=${USER}`,
    `--pwfile=${pwfile}`,
    '--encoding=UTF8',
    '--locale=C',
    '--lc-messages=C',
    '--locale-provider=builtin',
    '--builtin-locale=C.UTF-8',
  ];
  try {
    await new Promise<void>((done, fail) => {
      const child = spawn(initdb, args, {
        uid: ids?.uid,
        gid: ids?.gid,
        cwd: work,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, LC_MESSAGES: 'C' },
      });
      child.stdout.on('data', (chunk: Buffer) => log.write(chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => log.write(chunk.toString()));
      child.once('error', fail);
      child.once('close', (code, signal) => (code === 0 ? done() : fail(new Error(`initdb ended with ${code ?? signal}`))));
    });
  } catch (error) {
    throw new Error(`could not create a PostgreSQL cluster in ${clusterDir}: ${error instanceof Error ? error.message : String(error)}\n${log.tail()}`, {
      cause: error,
    });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The PostgreSQL binaries of this platform, from the package's platform-specific dependency. */
async function loadBinaries(): Promise<Binaries> {
  const name = `@embedded-postgres/${platform()}-${arch()}`;
  try {
    const { postgres, initdb } = await importEsm<Binaries>(() => import(name));
    return { postgres, initdb };
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
 * The first directory on the way to `path` (itself included) that the user `ids` cannot enter,
 * by its permission bits; null when it can reach it.
 */
function closedTo(ids: Ids, path: string): string | null {
  const ways: string[] = [];
  for (let dir = resolve(path); ; dir = dirname(dir)) {
    ways.unshift(dir);
    if (dir === parse(dir).root) break;
  }
  for (const dir of ways) {
    if (!existsSync(dir)) return null; // made later by root with 0755
    const stat = statSync(dir);
    const bit = stat.uid === ids.uid ? 0o100 : stat.gid === ids.gid ? 0o010 : 0o001;
    if ((stat.mode & bit) === 0) return dir;
  }
  return null;
}

/** Where the cluster of `dataDir` lives, and why it is not in it when it is not. */
function placeCluster(dataDir: string, ids: Ids | undefined): { clusterDir: string; movedBecause: string | undefined } {
  const closed = ids ? closedTo(ids, dataDir) : null;
  if (!closed) return { clusterDir: join(dataDir, 'postgres'), movedBecause: undefined };
  const key = createHash('sha256').update(resolve(dataDir)).digest('hex').slice(0, 12);
  return {
    clusterDir: join(SHARED_DIR, 'clusters', `${basename(resolve(dataDir)) || 'data'}-${key}`),
    movedBecause: `the ${SYSTEM_USER} user cannot enter ${closed}`,
  };
}

/** The cluster directory of `dataDir` for the user running this process (also where a leftover server's pid file is). */
export function clusterDirOf(dataDir: string): string {
  return placeCluster(dataDir, userInfo().uid === 0 ? systemUserIds() : undefined).clusterDir;
}

/** The binaries copied where the postgres user can run them (once per version; a copy cut short is made again). */
function placeBinaries(packaged: Binaries): Binaries {
  const native = dirname(dirname(packaged.postgres));
  const version = (JSON.parse(readFileSync(join(native, '..', 'package.json'), 'utf8')) as { version: string }).version;
  const target = join(SHARED_DIR, `postgresql-${version}`);
  if (!existsSync(join(target, '.complete'))) {
    mkdirSync(SHARED_DIR, { recursive: true, mode: 0o755 });
    const staging = `${target}.${process.pid}`;
    rmSync(staging, { recursive: true, force: true });
    // Modes are kept (executables stay executable); the library links stay relative.
    cpSync(native, staging, { recursive: true, verbatimSymlinks: true });
    writeFileSync(join(staging, '.complete'), `${version}\n`);
    rmSync(target, { recursive: true, force: true });
    renameSync(staging, target);
  }
  return { postgres: join(target, 'bin', 'postgres'), initdb: join(target, 'bin', 'initdb') };
}

function systemUserIds(): Ids | undefined {
  try {
    const id = (flag: string) => Number(execFileSync('id', [flag, SYSTEM_USER], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    return undefined;
  }
}

/** The postgres system user, created (with its group, no home, no shell) when missing. */
function ensureSystemUser(): Ids {
  const found = systemUserIds();
  if (found) return found;
  try {
    execFileSync('groupadd', ['--system', '-f', SYSTEM_USER], { stdio: 'ignore' });
    execFileSync('useradd', ['--system', '-g', SYSTEM_USER, '-M', '-s', '/usr/sbin/nologin', SYSTEM_USER], { stdio: 'ignore' });
  } catch (error) {
    throw new Error(
      `PostgreSQL does not run as root, and the system user "${SYSTEM_USER}" to run it as could not be created (${error instanceof Error ? error.message : String(error)}): create it, run npm start as an ordinary user, or set DATABASE_URL to a PostgreSQL you run`,
      { cause: error },
    );
  }
  const created = systemUserIds();
  if (!created) throw new Error(`the system user "${SYSTEM_USER}" was created but cannot be found: set DATABASE_URL to a PostgreSQL you run`);
  return created;
}
