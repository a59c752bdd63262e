import { ChildProcess, spawn } from 'node:child_process';
import { accessSync, constants, mkdirSync } from 'node:fs';
import { connect } from 'node:net';
import { delimiter, join } from 'node:path';
import { ServiceLog } from './service-log';
import { LocalServerProcess } from './local-server-process';

/** The default address of REDIS_URL, where the launcher's redis-server listens when nothing else does. */
export const LOCAL_REDIS_HOST = '127.0.0.1';
export const LOCAL_REDIS_PORT = 6379;

/** The message for a machine with neither a Redis answering nor redis-server to start one. */
export const NO_REDIS_MESSAGE =
  `nothing answers at redis://${LOCAL_REDIS_HOST}:${LOCAL_REDIS_PORT} and there is no redis-server on the PATH to start one. ` +
  'Install Redis 6 or later (Debian/Ubuntu: apt-get install redis-server; Fedora: dnf install redis; macOS: brew install redis) ' +
  'or set REDIS_URL to a Redis you run (e.g. REDIS_URL=redis://host:6379)';

/** The redis-server executable on the PATH, if any. */
export function findRedisServer(path = process.env.PATH ?? ''): string | undefined {
  for (const dir of path.split(delimiter).filter(Boolean)) {
    const candidate = join(dir, 'redis-server');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/**
 * A redis-server from the PATH with its data (dump.rdb, saved on the default schedule and at
 * shutdown, so queued jobs survive a restart) and its log in `<data>/redis`. It runs in its own
 * process group, so a Ctrl-C at the terminal reaches the launcher, which stops it after the API
 * and the worker.
 */
export class LocalRedisServer extends LocalServerProcess {
  private constructor(
    process: ChildProcess,
    readonly dir: string,
  ) {
    super(process, 'SIGTERM'); // Redis saves its data and exits
  }

  readonly url = `redis://${LOCAL_REDIS_HOST}:${LOCAL_REDIS_PORT}`;

  static async start(executable: string, dataDir: string): Promise<LocalRedisServer> {
    const dir = join(dataDir, 'redis');
    mkdirSync(dir, { recursive: true });
    const log = new ServiceLog(join(dir, 'redis.log'));
    const child = log.withDescriptor((fd) =>
      spawn(
        executable,
        ['--port', String(LOCAL_REDIS_PORT), '--bind', LOCAL_REDIS_HOST, '--dir', dir, '--pidfile', join(dir, 'redis.pid'), '--daemonize', 'no'],
        { detached: true, stdio: ['ignore', fd, fd] },
      ),
    );
    const server = new LocalRedisServer(child, dir);
    const failed = new Promise<never>((_, reject) => {
      child.once('error', (error) => reject(new Error(`could not run ${executable}: ${error.message}`)));
      child.once('exit', () => reject(new Error(`redis-server stopped while starting (log: ${log.path}):\n${log.tail()}`)));
    });
    failed.catch(() => undefined);
    await Promise.race([server.answered(), failed]);
    return server;
  }

  /** Resolves once the server answers PING (it refuses connections, or answers LOADING, before). */
  private async answered(): Promise<void> {
    while (this.running) {
      if (await ping()) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

function ping(): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: LOCAL_REDIS_HOST, port: LOCAL_REDIS_PORT });
    let reply = '';
    const done = (result: boolean) => {
      socket.destroy();
      resolve(result);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      reply += chunk.toString('utf8');
      if (reply.includes('\r\n')) done(reply.startsWith('+PONG'));
    });
    socket.once('error', () => done(false));
  });
}
