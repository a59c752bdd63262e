import { ChildProcess } from 'node:child_process';
import { createConnection, createServer, Server, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, PUBLIC_ORIGIN, startApi, TestApi } from '../support/api';
import { ApiProcess, startApiProcess } from '../support/api-process';
import { ADMIN, bootstrap } from '../support/factories';
import { freePort } from '../support/ports';
import { until } from '../support/until';

/**
 * A loopback TCP proxy to PostgreSQL that the test can cut (connections refused, open ones
 * reset), stall (connections accepted and open ones kept, but nothing forwarded either way: a
 * database that stops answering) and restore.
 */
class DatabaseProxy {
  private server?: Server;
  private stalled = false;
  private readonly sockets = new Set<Socket>();

  constructor(readonly port: number) {}

  async open(): Promise<void> {
    if (this.stalled) this.dropConnections(); // what a healed partition leaves: connections that timed out
    this.stalled = false;
    if (this.server) return;
    this.server = createServer((client) => {
      this.track(client);
      if (this.stalled) return; // accepted, never answered
      const upstream = createConnection({ host: '127.0.0.1', port: 5432 });
      this.track(upstream);
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', () => resolve()));
  }

  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    this.dropConnections();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  stall(): void {
    this.stalled = true;
    for (const s of this.sockets) {
      s.unpipe();
      s.pause();
    }
  }

  private track(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  }

  private dropConnections(): void {
    for (const s of this.sockets) s.destroy();
  }
}

async function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** Longest a request may take while the database is away: a connection wait (5 s) or two query timeouts (3 s each), plus a loaded machine's margin. */
const CLIENT_TIMEOUT_MS = 25_000;

interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
}

/**
 * A real API process reaching PostgreSQL only through a proxy the test controls; the test's own
 * API (direct to the same database) sets up the data. While the database is unreachable or
 * stalled, every route answers 503 with Retry-After in the Error shape, within a bounded time,
 * logged once at warn with the request id; once it is back, the same calls succeed.
 */
describe('every route while the database is unreachable or not answering', () => {
  let proxy: DatabaseProxy;
  let api: TestApi;
  let processApi: ApiProcess;
  let baseUrl: string;
  let sessionCookie: string;
  let token: string;

  beforeAll(async () => {
    proxy = new DatabaseProxy(await freePort());
    await proxy.open();
    api = await startApi();
    const { admin } = await bootstrap(api);
    sessionCookie = admin.cookie!;
    const minted = await admin.post('/api/v1/api-tokens', {
      name: 'outage reader',
      role: 'viewer',
      expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
    });
    expect(minted.status).toBe(201);
    token = minted.body.token;
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    processApi = await startApiProcess(
      {
        ...process.env,
        PORT: String(port),
        LOG_LEVEL: 'warn',
        DATABASE_URL: api.databaseUrl.replace(/@[^/]+\//, `@127.0.0.1:${proxy.port}/`),
        SVC_DATABASE_QUERY_TIMEOUT_MS: '3000',
      },
      baseUrl,
    );
  }, 240_000);

  afterAll(async () => {
    await proxy?.open();
    await stop(processApi?.child);
    await api?.close();
    await proxy?.cut();
  });

  async function call(method: string, path: string, options: { body?: unknown; headers?: Record<string, string> } = {}): Promise<Answer> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
  }

  let n = 0;
  /** The representative calls: what each answers when the database is there. */
  const calls: Array<{ name: string; expected: number; send: () => Promise<Answer> }> = [
    { name: 'session-authenticated GET', expected: 200, send: () => call('GET', '/api/v1/incidents', { headers: { cookie: sessionCookie } }) },
    { name: 'API-token GET', expected: 200, send: () => call('GET', '/api/v1/audit-events', { headers: { authorization: `Bearer ${token}` } }) },
    {
      name: 'sign-in POST',
      expected: 200,
      send: () => call('POST', '/api/v1/auth/local/sign-in', { body: { email: ADMIN.email, password: ADMIN.password }, headers: { origin: PUBLIC_ORIGIN } }),
    },
    {
      name: 'write',
      expected: 201,
      send: () =>
        call('POST', '/api/v1/integrations', {
          body: { type: 'generic', name: `During outage ${++n}` },
          headers: { cookie: sessionCookie, origin: PUBLIC_ORIGIN },
        }),
    },
  ];

  /** A session this process has never seen: the guard itself must read it from the database. */
  async function freshSessionLookup(): Promise<Answer> {
    const fresh = new Client(api.baseUrl);
    expect((await fresh.post('/api/v1/auth/local/sign-in', { email: ADMIN.email, password: ADMIN.password })).status).toBe(200);
    return call('GET', '/api/v1/session', { headers: { cookie: fresh.cookie! } });
  }

  function expectUnavailable(answer: Answer, what: string): string {
    expect(answer.status, what).toBe(503);
    expect(answer.headers.get('retry-after'), what).toMatch(/^[1-9][0-9]*$/);
    expect(answer.headers.get('content-type'), what).toMatch(/^application\/json/);
    expect(answer.body, what).toEqual({ error: 'The database is not answering; retry shortly' });
    const requestId = answer.headers.get('x-request-id');
    expect(requestId, what).toBeTruthy();
    return requestId!;
  }

  async function expectServing(): Promise<void> {
    for (const c of calls) {
      // The pool may hand out one connection that died with the outage before it notices.
      const answer = await until(
        async () => {
          const a = await c.send();
          return a.status === 503 ? undefined : a;
        },
        30_000,
        `${c.name} to succeed again`,
      );
      expect(answer.status, c.name).toBe(c.expected);
    }
    expect((await call('GET', '/readyz')).status).toBe(200);
  }

  async function expectRefusing(): Promise<string[]> {
    const ids: string[] = [];
    for (const c of calls) ids.push(expectUnavailable(await c.send(), c.name));
    ids.push(expectUnavailable(await freshSessionLookup(), 'session lookup in the guard'));
    // Readiness says so too; liveness does not depend on the database.
    expect((await call('GET', '/readyz')).status).toBe(503);
    expect((await call('GET', '/healthz')).status).toBe(200);
    return ids;
  }

  function logLines(): Array<Record<string, unknown>> {
    return processApi
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  }

  /** Each refused request: exactly one warning naming it (pino's level 40), and no error line for it. */
  async function expectLoggedOnceAsWarnings(ids: string[]): Promise<void> {
    const refusal = (line: Record<string, unknown>) => line.msg === 'Request refused with 503: PostgreSQL is not answering';
    await until(() => ids.every((id) => logLines().some((line) => refusal(line) && line.requestId === id)), 10_000, 'the warnings to be written');
    const lines = logLines();
    for (const id of ids) {
      const mine = lines.filter((line) => refusal(line) && line.requestId === id);
      expect(mine, id).toHaveLength(1); // the access line (`request refused: …`) aside
      expect(mine[0]).toMatchObject({ level: 40, dependency: 'PostgreSQL' });
    }
    expect(lines.filter((line) => line.msg === 'Request failed')).toEqual([]);
  }

  it('refused or reset connections: 503 with Retry-After on every kind of route, and served again once it is back', async () => {
    await proxy.open();
    await expectServing();
    await proxy.cut();
    const ids = await expectRefusing();
    await expectLoggedOnceAsWarnings(ids);
    await proxy.open();
    await expectServing();
    expect(await freshSessionLookup()).toMatchObject({ status: 200 });
  }, 180_000);

  it('a database that stops answering: 503 within the connection and query timeouts, not a hang, and served again once it answers', async () => {
    await proxy.open();
    await expectServing();
    proxy.stall();
    const ids = await expectRefusing();
    await expectLoggedOnceAsWarnings(ids);
    await proxy.open();
    await expectServing();
    expect(await freshSessionLookup()).toMatchObject({ status: 200 });
  }, 240_000);
});
