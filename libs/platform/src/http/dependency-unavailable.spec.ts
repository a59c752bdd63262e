import { createServer, Server, Socket } from 'node:net';
import Redis from 'ioredis';
import { Client } from 'pg';
import { DataSource, QueryFailedError } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../../../../test/support/until';
import { toErrorResponse } from './error-body';
import { unavailableDependency } from './dependency-unavailable';

const DATABASE = process.env.TEST_DATABASE_SERVER_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function listen(onConnection: (socket: Socket) => void): Promise<{ server: Server; port: number }> {
  const server = createServer(onConnection);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as { port: number }).port };
}

async function failure(work: () => Promise<unknown>): Promise<unknown> {
  try {
    await work();
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

/** The errors node-postgres, TypeORM and ioredis really throw, not hand-made look-alikes. */
describe('unavailableDependency', () => {
  let silent: { server: Server; port: number };
  let closing: { server: Server; port: number };
  let nothing: { server: Server; port: number };

  beforeAll(async () => {
    silent = await listen(() => undefined); // accepts, never answers
    closing = await listen((socket) => socket.destroy());
    nothing = await listen(() => undefined);
    await new Promise((resolve) => nothing.server.close(resolve)); // a port nobody listens on
  });
  afterAll(async () => {
    silent.server.close();
    closing.server.close();
  });

  const pooled = (target: number | string, extra: Record<string, unknown> = {}) =>
    new DataSource({
      type: 'postgres',
      url: typeof target === 'string' ? target : `postgres://postgres@127.0.0.1:${target}/postgres`,
      extra: { connectionTimeoutMillis: 300, ...extra },
    });

  it('recognizes PostgreSQL refusing, closing and never answering a connection', async () => {
    const refused = await failure(() => pooled(nothing.port).initialize());
    expect((refused as { code: string }).code).toBe('ECONNREFUSED');
    expect(unavailableDependency(refused)).toBe('PostgreSQL');
    expect(unavailableDependency(await failure(() => pooled(closing.port).initialize()))).toBe('PostgreSQL');
    const timedOut = await failure(() => pooled(silent.port).initialize());
    expect((timedOut as Error).message).toMatch(/connection timeout/);
    expect(unavailableDependency(timedOut)).toBe('PostgreSQL');
  });

  it('recognizes a connection terminated by the server (57P01) and a query PostgreSQL does not answer in time', async () => {
    const victim = await pooled(DATABASE).initialize();
    const killer = new Client({ connectionString: DATABASE });
    await killer.connect();
    try {
      const runner = victim.createQueryRunner();
      await runner.connect();
      const [{ pid }] = (await runner.query('SELECT pg_backend_pid() AS pid')) as Array<{ pid: number }>;
      const pending = failure(() => runner.query('SELECT pg_sleep(5)'));
      // Once the sleep is under way (so it is the query, not an idle connection, that is cut).
      await until(
        async () =>
          (await killer.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid = $1 AND query LIKE '%pg_sleep(5)%'`, [pid])).rowCount === 1,
        5_000,
        'the sleeping query to be terminated',
      );
      const terminated = await pending;
      expect(terminated).toBeInstanceOf(QueryFailedError);
      expect((terminated as { code: string }).code).toBe('57P01');
      expect(unavailableDependency(terminated)).toBe('PostgreSQL');
      await runner.release().catch(() => undefined);
    } finally {
      await killer.end();
      await victim.destroy();
    }
    const slow = await pooled(DATABASE, { query_timeout: 200 }).initialize();
    try {
      const unanswered = await failure(() => slow.query('SELECT pg_sleep(2)'));
      expect(unavailableDependency(unanswered)).toBe('PostgreSQL');
    } finally {
      await slow.destroy().catch(() => undefined);
    }
  });

  it('recognizes ioredis giving up on a command', async () => {
    const offline = new Redis(nothing.port, '127.0.0.1', { enableOfflineQueue: false, maxRetriesPerRequest: 0, lazyConnect: true });
    offline.on('error', () => undefined);
    expect(unavailableDependency(await failure(() => offline.get('k')))).toBe('Redis');
    offline.disconnect();
    const retrying = new Redis(nothing.port, '127.0.0.1', { maxRetriesPerRequest: 1, retryStrategy: () => 10 });
    retrying.on('error', () => undefined);
    const gaveUp = await failure(() => retrying.get('k'));
    expect((gaveUp as Error).name).toBe('MaxRetriesPerRequestError');
    expect(unavailableDependency(gaveUp)).toBe('Redis');
    retrying.disconnect();
  });

  it('leaves errors of the request or the code alone', async () => {
    const database = await pooled(DATABASE).initialize();
    try {
      const syntax = await failure(() => database.query('SELEKT 1'));
      expect(unavailableDependency(syntax)).toBeUndefined();
      const division = await failure(() => database.query('SELECT 1/0'));
      expect(unavailableDependency(division)).toBeUndefined();
    } finally {
      await database.destroy();
    }
    expect(unavailableDependency(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBeUndefined();
    // An outbound HTTP call that found nothing listening: fetch's TypeError, not the database.
    const fetched = await failure(() => fetch(`http://127.0.0.1:${nothing.port}/`));
    expect(unavailableDependency(fetched)).toBeUndefined();
    expect(unavailableDependency(null)).toBeUndefined();
  });

  it('makes a 503 with Retry-After in the Error shape, and keeps anything else a 500', async () => {
    const refused = await failure(() => pooled(nothing.port).initialize());
    const response = toErrorResponse(refused);
    expect(response).toEqual({
      status: 503,
      body: { error: 'The database is not answering; retry shortly' },
      retryAfterSeconds: 5,
      unavailable: 'PostgreSQL',
    });
    expect(toErrorResponse(new Error('connect ECONNREFUSED but thrown by hand')).status).toBe(500);
  });
});
