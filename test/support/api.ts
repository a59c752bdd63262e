import { ModuleMetadata } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { DataSource } from 'typeorm';
import { Clock, configureHttpApp, loadConfig } from '@svc/platform';
import { createTestDatabase } from './databases';
import { ensureBuilt } from './dist';

export const PUBLIC_URL = 'http://console.test:8080';
export const PUBLIC_ORIGIN = 'http://console.test:8080';
export const BOOTSTRAP_CREDENTIAL = 'test-bootstrap-credential-0123456789';

export interface TestApi {
  baseUrl: string;
  app: NestExpressApplication;
  dataSource: DataSource;
  databaseUrl: string;
  close: () => Promise<void>;
}

/**
 * Boots the real API (AppModule and the real request pipeline) on a loopback port, against a
 * fresh database and a Redis key prefix of its own. Extra modules/controllers can be mounted for
 * tests that need a probe route. `port` makes it listen on that port (for a SVC_PUBLIC_URL that must
 * be reachable, like an OIDC callback) instead of a random one.
 */
export interface StartApiOptions {
  env?: Record<string, string>;
  extra?: ModuleMetadata;
  port?: number;
  /** Reach PostgreSQL through this host:port (a proxy the test controls) instead of directly. */
  databaseVia?: string;
  /** The clock the service reads time through, instead of the system's (a TestClock the test moves). */
  clock?: Clock;
}

/**
 * What process.env held, before the previous startApi of this test file set them, for the
 * settings that call took from its `options.env`.
 */
let overriddenSettings: Record<string, string | undefined> = {};

export async function startApi(options: StartApiOptions = {}): Promise<TestApi> {
  // The compiled service that worker, relay and launcher processes run from is built (or waited
  // for) now, before this API listens: the build blocks this process's event loop, and a blocked
  // in-process server would let its idle keep-alive connections time out under a client's next
  // request (ECONNRESET).
  ensureBuilt();
  const database = await createTestDatabase();
  const env: Record<string, string> = {
    DATABASE_URL: options.databaseVia ? database.url.replace(/@[^/]+\//, `@${options.databaseVia}/`) : database.url,
    REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
    SVC_PUBLIC_URL: PUBLIC_URL,
    SVC_BOOTSTRAP_CREDENTIAL: BOOTSTRAP_CREDENTIAL,
    SVC_SECRET_KEY: randomBytes(32).toString('hex'),
    SVC_QUEUE_PREFIX: `test-${database.name}`,
    ...options.env,
  };
  // The API's settings stay in process.env, where startWorker and the queue helpers find them. An
  // earlier API's own settings (`options.env`) do not carry over to this one: which describe block
  // of a file starts its API first must not change what the others get.
  for (const [key, value] of Object.entries(overriddenSettings)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  overriddenSettings = Object.fromEntries(Object.keys(options.env ?? {}).map((key) => [key, process.env[key]]));
  Object.assign(process.env, env);
  const { AppModule } = await import('../../apps/api/src/app.module');
  const builder = Test.createTestingModule({
    imports: [AppModule.forRoot(loadConfig()), ...(options.extra?.imports ?? [])],
    controllers: options.extra?.controllers ?? [],
    providers: options.extra?.providers ?? [],
  });
  if (options.clock) builder.overrideProvider(Clock).useValue(options.clock);
  const moduleRef = await builder.compile();
  const app = moduleRef.createNestApplication<NestExpressApplication>({ bodyParser: false, logger: false });
  configureHttpApp(app);
  await app.listen(options.port ?? 0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    app,
    dataSource: app.get(DataSource),
    databaseUrl: database.url,
    close: async () => {
      await app.close();
      await database.drop();
    },
  };
}

export interface HttpResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
  cookies: string[];
}

export interface RequestOptions {
  body?: unknown;
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
  /** Send the Origin of the console (default for unsafe methods); false to send none. */
  origin?: string | false;
}

/** A browser-like client: keeps the session cookie and sends the console's Origin on unsafe methods. */
export class Client {
  cookie?: string;
  /** Called with every response (OpenApiContract.watch checks them against the document). */
  observe?: (method: string, path: string, response: { status: number; contentType: string | null; body: unknown; text: string }) => void;

  constructor(private readonly baseUrl: string) {}

  async request<T = any>(method: string, path: string, options: RequestOptions = {}): Promise<HttpResult<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (this.cookie && !('cookie' in headers)) headers.cookie = this.cookie;
    const unsafe = !['GET', 'HEAD', 'OPTIONS'].includes(method);
    const origin = options.origin === undefined ? (unsafe ? PUBLIC_ORIGIN : false) : options.origin;
    if (origin !== false) headers.origin = origin;
    let body: string | Buffer | undefined;
    if (options.rawBody !== undefined) body = options.rawBody;
    else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(`${this.baseUrl}${path}`, { method, headers, body, redirect: 'manual' });
    const text = await res.text();
    const cookies = res.headers.getSetCookie();
    const session = cookies.find((c) => c.startsWith('__Host-svc_session='));
    if (session) {
      const value = session.split(';')[0];
      this.cookie = value === '__Host-svc_session=' ? undefined : value;
    }
    let parsed: unknown = undefined;
    if (text && /^application\/(?:[\w.-]+\+)?json\b/.test(res.headers.get('content-type') ?? '')) parsed = JSON.parse(text);
    this.observe?.(method, path, { status: res.status, contentType: res.headers.get('content-type'), body: parsed, text });
    return { status: res.status, headers: res.headers, body: parsed as T, text, cookies };
  }

  get<T = any>(path: string, options?: RequestOptions) {
    return this.request<T>('GET', path, options);
  }
  post<T = any>(path: string, body?: unknown, options?: RequestOptions) {
    return this.request<T>('POST', path, { ...options, body });
  }
  put<T = any>(path: string, body?: unknown, options?: RequestOptions) {
    return this.request<T>('PUT', path, { ...options, body });
  }
  patch<T = any>(path: string, body?: unknown, options?: RequestOptions) {
    return this.request<T>('PATCH', path, { ...options, body });
  }
  delete<T = any>(path: string, options?: RequestOptions) {
    return this.request<T>('DELETE', path, options);
  }
}
