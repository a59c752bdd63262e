import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { answers } from './answers';
import { stopLeftoverServer } from './leftover-server';
import { clusterDirOf, EMBEDDED_POSTGRES_HOST, EMBEDDED_POSTGRES_PORT, EmbeddedPostgresServer } from './embedded-postgres';
import { findRedisServer, LOCAL_REDIS_HOST, LOCAL_REDIS_PORT, LocalRedisServer, NO_REDIS_MESSAGE } from './local-redis';

/**
 * What `npm start` runs for itself on a machine that has no PostgreSQL or Redis of its own: with
 * DATABASE_URL unset and nothing answering on localhost:5432, an embedded PostgreSQL; with REDIS_URL
 * unset and nothing answering on 127.0.0.1:6379, redis-server from the PATH. Their data lives in
 * SVC_DATA_DIR (default `.data` in the checkout), so the next start finds it again. Sets
 * DATABASE_URL and REDIS_URL in this process's environment, which the API and worker inherit.
 */
export class LocalServices {
  private constructor(
    private readonly postgres: EmbeddedPostgresServer | undefined,
    private readonly redis: LocalRedisServer | undefined,
    /** One sentence for the log: what was started, and where. */
    readonly summary: string,
  ) {
    // Whatever path ends the launcher, the services it started are asked to stop.
    process.once('exit', () => this.stopNow());
  }

  /** The embedded PostgreSQL's URL, when the launcher runs one. */
  get databaseUrl(): string | undefined {
    return this.postgres?.url;
  }

  static async start(env: NodeJS.ProcessEnv = process.env): Promise<LocalServices> {
    const dataDir = dataDirectory(env);
    // Servers an earlier launcher left running when it was killed: stopped, then started as usual.
    const cluster = env.DATABASE_URL ? undefined : clusterDirOf(dataDir);
    const leftovers = [
      cluster && (await stopLeftoverServer(join(cluster, 'postmaster.pid'), cluster, 'SIGINT')),
      !env.REDIS_URL && (await stopLeftoverServer(join(dataDir, 'redis', 'redis.pid'), join(dataDir, 'redis'), 'SIGTERM')),
    ].filter((pid): pid is number => typeof pid === 'number');
    const needPostgres = !env.DATABASE_URL && !(await answers('localhost', EMBEDDED_POSTGRES_PORT));
    const needRedis = !env.REDIS_URL && !(await answers(LOCAL_REDIS_HOST, LOCAL_REDIS_PORT));
    // Known before anything is started, so a missing redis-server starts nothing.
    const redisServer = needRedis ? findRedisServer(env.PATH) : undefined;
    if (needRedis && !redisServer) throw new Error(NO_REDIS_MESSAGE);

    if (needPostgres || needRedis) mkdirSync(dataDir, { recursive: true, mode: 0o755 });
    const postgres = needPostgres ? await EmbeddedPostgresServer.start(dataDir) : undefined;
    let redis: LocalRedisServer | undefined;
    try {
      redis = redisServer ? await LocalRedisServer.start(redisServer, dataDir) : undefined;
    } catch (error) {
      await postgres?.stop();
      throw error;
    }
    if (postgres) env.DATABASE_URL = postgres.url;
    if (redis) env.REDIS_URL = redis.url;

    const parts = [
      postgres
        ? `started embedded PostgreSQL on ${EMBEDDED_POSTGRES_HOST}:${EMBEDDED_POSTGRES_PORT} (${postgres.reused ? 'existing' : 'new'} cluster in ${postgres.clusterDir}${postgres.movedBecause ? `, outside ${dataDir} since ${postgres.movedBecause}` : ''})`
        : `PostgreSQL: ${env.DATABASE_URL ? 'DATABASE_URL' : `the one answering on localhost:${EMBEDDED_POSTGRES_PORT}`}`,
      redis
        ? `started redis-server on ${LOCAL_REDIS_HOST}:${LOCAL_REDIS_PORT} (data in ${redis.dir})`
        : `Redis: ${env.REDIS_URL ? 'REDIS_URL' : `the one answering on ${LOCAL_REDIS_HOST}:${LOCAL_REDIS_PORT}`}`,
    ];
    if (leftovers.length) parts.push(`stopped first what an earlier start left running (pid ${leftovers.join(', ')})`);
    return new LocalServices(postgres, redis, parts.join('; '));
  }

  /** Calls back once if a service the launcher started ends without being asked to. */
  onUnexpectedExit(callback: (service: string, code: number | null) => void): void {
    let called = false;
    const once = (service: string) => (code: number | null) => called || ((called = true), callback(service, code));
    this.postgres?.onUnexpectedExit(once('PostgreSQL'));
    this.redis?.onUnexpectedExit(once('redis-server'));
  }

  /** Stops what was started, once the API and worker that used it have stopped. */
  async stop(): Promise<void> {
    await Promise.all([this.redis?.stop(), this.postgres?.stop()]);
  }

  private stopNow(): void {
    this.redis?.stopNow();
    this.postgres?.stopNow();
  }
}

/** SVC_DATA_DIR, relative to the working directory, or `.data` in the checkout this launcher runs from. */
function dataDirectory(env: NodeJS.ProcessEnv): string {
  if (env.SVC_DATA_DIR) return resolve(env.SVC_DATA_DIR);
  let dir = __dirname;
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return join(dir, '.data');
}
