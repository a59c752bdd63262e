import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, startApi, TestApi } from '../support/api';
import { bootstrap } from '../support/factories';

const ERROR_KEYS = new Set(['error', 'reason', 'requires']);

function expectErrorBody(body: Record<string, unknown>) {
  expect(typeof body.error).toBe('string');
  expect((body.error as string).length).toBeGreaterThan(0);
  expect((body.error as string).length).toBeLessThanOrEqual(1024);
  for (const key of Object.keys(body)) expect(ERROR_KEYS.has(key), `unexpected error property ${key}`).toBe(true);
}

describe('request pipeline', () => {
  let api: TestApi;
  let anonymous: Client;
  let admin: Client;

  beforeAll(async () => {
    api = await startApi();
    anonymous = new Client(api.baseUrl);
    ({ admin } = await bootstrap(api));
  });
  afterAll(() => api?.close());

  it('puts a request id on every response, success or failure, and echoes a sane incoming one', async () => {
    const ok = await anonymous.get('/api/v1/meta');
    const missing = await anonymous.get('/api/v1/no-such-route');
    const malformed = await admin.request('POST', '/api/v1/organizations', { rawBody: '{"id":', headers: { 'content-type': 'application/json' } });
    for (const res of [ok, missing, malformed]) expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set([ok, missing, malformed].map((r) => r.headers.get('x-request-id'))).size).toBe(3);
    const echoed = await anonymous.get('/api/v1/meta', { headers: { 'x-request-id': 'proxy-abc.123' } });
    expect(echoed.headers.get('x-request-id')).toBe('proxy-abc.123');
    const unsafe = await anonymous.get('/api/v1/meta', { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(unsafe.headers.get('x-request-id')).not.toBe('bad id with spaces');
  });

  it('answers unknown routes with 404 in the error shape', async () => {
    const res = await anonymous.get('/api/v1/no-such-route');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Not found' });
  });

  it('marks API responses no-store', async () => {
    expect((await admin.get('/api/v1/organizations')).headers.get('cache-control')).toBe('no-store');
    expect((await anonymous.get('/api/v1/organizations')).headers.get('cache-control')).toBe('no-store');
  });

  it('refuses malformed JSON with 400', async () => {
    const res = await admin.request('POST', '/api/v1/organizations', { rawBody: '{"id": "x",', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expectErrorBody(res.body);
    expect(res.body.error).toMatch(/JSON/);
  });

  it('refuses a non-JSON body with 415 before reading it', async () => {
    const res = await admin.request('POST', '/api/v1/organizations', { rawBody: 'id=acme2', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(res.status).toBe(415);
    expectErrorBody(res.body);
    const none = await admin.request('POST', '/api/v1/organizations', { rawBody: 'hello', headers: { 'content-type': 'text/plain' } });
    expect(none.status).toBe(415);
  });

  it('refuses a body over 1 MiB with 413 and reads one of exactly 1 MiB', async () => {
    /** A JSON body of exactly `bytes` bytes: an Organization whose displayName fills it. */
    const sized = (id: string, bytes: number) => {
      const frame = JSON.stringify({ id, displayName: '' });
      return JSON.stringify({ id, displayName: 'x'.repeat(bytes - Buffer.byteLength(frame)) });
    };
    const over = sized('over', 1024 * 1024 + 1);
    expect(Buffer.byteLength(over)).toBe(1024 * 1024 + 1);
    const res = await admin.request('POST', '/api/v1/organizations', { rawBody: over, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(413);
    expectErrorBody(res.body);
    // At the limit the body is read and judged on its content: the name is too long (400), not the body (413).
    const atLimit = sized('at-limit', 1024 * 1024);
    expect(Buffer.byteLength(atLimit)).toBe(1024 * 1024);
    const read = await admin.request('POST', '/api/v1/organizations', { rawBody: atLimit, headers: { 'content-type': 'application/json' } });
    expect(read.status).toBe(400);
    expect(read.body.error).toContain('displayName');
  });

  it('refuses unknown body properties and names them', async () => {
    const res = await admin.post('/api/v1/organizations', { id: 'acme3', displayName: 'Acme 3', plan: 'gold' });
    expect(res.status).toBe(400);
    expectErrorBody(res.body);
    expect(res.body.error).toContain('plan');
  });

  it('refuses invalid values with a message naming the field', async () => {
    const res = await admin.post('/api/v1/organizations', { id: 'Not Valid!', displayName: '' });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain('id must be');
    expect(res.body.error).toContain('displayName');
  });

  it('refuses unknown query parameters', async () => {
    const res = await admin.get('/api/v1/organizations?include=everything');
    expect(res.status).toBe(400);
    expectErrorBody(res.body);
    expect(res.body.error).toContain('include');
  });

  it('refuses a body on an operation that takes none', async () => {
    const res = await admin.request('DELETE', '/api/v1/session', { body: { reason: 'bye' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/no request body/);
  });

  it('serializes timestamps in UTC with microseconds', async () => {
    const res = await admin.get('/api/v1/session');
    expect(res.status).toBe(200);
    for (const key of ['issuedAt', 'expiresAt', 'lastSeenAt', 'idleExpiresAt']) {
      expect(res.body.session[key]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
    }
  });
});

describe('service endpoints', () => {
  let api: TestApi;
  let anonymous: Client;

  beforeAll(async () => {
    api = await startApi();
    anonymous = new Client(api.baseUrl);
  });
  afterAll(() => api?.close());

  it('GET /api/v1/meta describes the service without authentication', async () => {
    const res = await anonymous.get('/api/v1/meta');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      service: 'incident-investigation-service',
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      contractVersion: '0.1.0',
      release: 'pre-release',
      authentication: { local: true, oidc: false },
    });
  });

  it('GET /healthz is live and /readyz checks PostgreSQL and Redis', async () => {
    expect((await anonymous.get('/healthz')).status).toBe(200);
    const ready = await anonymous.get('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body.info).toMatchObject({ postgres: { status: 'up' }, redis: { status: 'up' } });
  });

  it('GET /metrics speaks the Prometheus text format and counts requests by route template', async () => {
    await anonymous.get('/api/v1/meta');
    const res = await anonymous.get('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    expect(res.text).toContain('# TYPE http_request_duration_seconds histogram');
    expect(res.text).toMatch(/http_requests_total\{method="GET",route="\/api\/v1\/meta",status="200"\} \d+/);
    expect(res.text).toContain('process_cpu_user_seconds_total');
  });

  it('serves the OpenAPI document of the whole API and a docs page', async () => {
    const res = await anonymous.get('/api/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toMatch(/^3\./);
    for (const path of [
      '/api/v1/meta',
      '/api/v1/auth/local/bootstrap',
      '/api/v1/auth/local/sign-in',
      '/api/v1/session',
      '/api/v1/organizations',
      '/api/v1/permissions',
    ]) {
      expect(res.body.paths[path], path).toBeDefined();
    }
    expect(res.body.paths['/healthz']).toBeUndefined();
    expect(res.body.components.securitySchemes).toHaveProperty('session');
    const page = await anonymous.get('/api/v1/docs');
    expect(page.status).toBe(200);
    expect(page.text).toContain('swagger');
  });
});
