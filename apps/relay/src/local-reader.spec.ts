import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { JobMessage } from '@svc/relays/protocol';
import { LocalReader } from './local-reader';

const PROMETHEUS = '0190a000-0000-7000-8000-0000000000d1';
const ELSEWHERE = '0190a000-0000-7000-8000-0000000000d2';

/**
 * The relay's local policy is the customer's own boundary: whatever the control plane asks, a job
 * it refuses never reaches the local system. A real HTTP server on loopback plays that system
 * and records every request it receives.
 */
describe("the relay's local policy", () => {
  let system: Server;
  let baseUrl: string;
  const received: { method: string; url: string; authorization?: string }[] = [];
  let reader: LocalReader;

  beforeAll(async () => {
    system = createServer((req, res) => {
      received.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"success","data":{"resultType":"vector","result":[]}}');
    });
    await new Promise<void>((resolve) => system.listen(0, '127.0.0.1', resolve));
    // Below a prefix, so that a path escaping it is visible in what the system receives.
    baseUrl = `http://127.0.0.1:${(system.address() as AddressInfo).port}/prometheus`;
    reader = new LocalReader([
      {
        integrationId: PROMETHEUS,
        type: 'prometheus',
        baseUrl,
        credentials: { bearerToken: 'local-only-token' },
        capabilities: ['prometheus.query', 'prometheus.label_values', 'prometheus.metadata'],
      },
    ]);
  });
  afterAll(async () => {
    await reader.close();
    system.closeAllConnections();
    await new Promise<void>((resolve) => system.close(() => resolve()));
  });
  beforeEach(() => {
    received.length = 0;
  });

  const job = (over: Partial<JobMessage>): JobMessage => ({
    jobId: 'j',
    integrationId: PROMETHEUS,
    capabilityId: 'prometheus.query',
    capabilityVersion: 1,
    path: 'api/v1/query',
    query: [{ name: 'query', value: 'up' }],
    timeoutMs: 5000,
    maxBytes: 1024,
    ...over,
  });
  const run = (over: Partial<JobMessage>) => reader.run(job(over), new AbortController());

  it('reads an allowed job once, below the base URL, with the local credential, and answers what the system said', async () => {
    const result = await run({});
    expect(result).toMatchObject({ jobId: 'j', ok: true, status: 200, truncated: false, error: '' });
    expect(JSON.parse(result.body.toString('utf8'))).toMatchObject({ status: 'success' });
    expect(received).toEqual([{ method: 'GET', url: '/prometheus/api/v1/query?query=up', authorization: 'Bearer local-only-token' }]);
  });

  it('reads a label-values job for a plain label name', async () => {
    const result = await run({ capabilityId: 'prometheus.label_values', path: 'api/v1/label/job/values', query: [] });
    expect(result.ok).toBe(true);
    expect(received.map((r) => r.url)).toEqual(['/prometheus/api/v1/label/job/values']);
  });

  it('reads a metadata job (the types the targets declare) at its own path only', async () => {
    const query = [
      { name: 'metric', value: 'mesh_requests' },
      { name: 'limit_per_metric', value: '4' },
    ];
    expect((await run({ capabilityId: 'prometheus.metadata', path: 'api/v1/metadata', query })).ok).toBe(true);
    expect(received.map((r) => r.url)).toEqual(['/prometheus/api/v1/metadata?metric=mesh_requests&limit_per_metric=4']);
    const elsewhere = await run({ capabilityId: 'prometheus.metadata', path: 'api/v1/targets/metadata', query: [] });
    expect(elsewhere).toMatchObject({ ok: false, error: expect.stringMatching(/prometheus.metadata does not read api\/v1\/targets\/metadata/) });
    expect(received).toHaveLength(1);
  });

  it('sends every query parameter, repeated ones in order, encoded', async () => {
    const query = [
      { name: 'match[]', value: 'up{job="a b"}' },
      { name: 'match[]', value: 'rate(x[5m]) & 1' },
      { name: 'start', value: '1' },
    ];
    expect((await run({ capabilityId: 'prometheus.label_values', path: 'api/v1/label/job/values', query })).ok).toBe(true);
    const sent = new URL(received[0].url, 'http://x');
    expect([...sent.searchParams]).toEqual(query.map(({ name, value }) => [name, value]));
  });

  it('cuts an answer longer than the job allows at max_bytes and says so', async () => {
    const result = await run({ maxBytes: 10 });
    expect(result).toMatchObject({ ok: true, status: 200, truncated: true });
    expect(result.body.toString('utf8')).toBe('{"status":');
  });

  const refused: [string, Partial<JobMessage>, RegExp][] = [
    ['an integration it does not serve', { integrationId: ELSEWHERE }, /integration 0190a000-0000-7000-8000-0000000000d2 is not configured on this relay/],
    ['a capability not allowed for the integration', { capabilityId: 'prometheus.targets', path: 'api/v1/targets' }, /prometheus.targets is not allowed/],
    ['a version it does not know', { capabilityVersion: 2 }, /does not know prometheus.query version 2/],
    ['a path outside the capability', { path: 'api/v1/admin/tsdb/delete_series' }, /prometheus.query does not read api\/v1\/admin\/tsdb\/delete_series/],
    ['a path that climbs out of the base URL', { path: '../api/v1/query' }, /does not read \.\.\/api\/v1\/query/],
    [
      'a dot segment in a path the capability allows',
      { capabilityId: 'prometheus.label_values', path: 'api/v1/label/../values', query: [] },
      /prometheus.label_values does not read api\/v1\/label\/\.\.\/values/,
    ],
    [
      'an encoded dot segment',
      { capabilityId: 'prometheus.label_values', path: 'api/v1/label/%2e%2e/values', query: [] },
      /does not read api\/v1\/label\/%2e%2e\/values/,
    ],
    ['a query string smuggled into the path', { capabilityId: 'prometheus.label_values', path: 'api/v1/label/a?x=1/values', query: [] }, /does not read/],
  ];

  it.each(refused)('refuses %s without reaching the system, saying why', async (_what, over, reason) => {
    const result = await run(over);
    expect(result).toMatchObject({ jobId: 'j', ok: false, status: 0, truncated: false });
    expect(result.error).toMatch(reason);
    expect(result.body.length).toBe(0);
    expect(received).toEqual([]);
  });
});
