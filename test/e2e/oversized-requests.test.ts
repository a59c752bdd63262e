import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { useBootstrappedApi } from '../support/factories';

/** A raw HTTP/1.1 exchange: what `request` (bytes as written) gets back, whole, until the server closes. */
function exchange(baseUrl: string, request: string): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(request));
    let raw = '';
    socket.on('data', (chunk) => (raw += chunk.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head, ...rest] = raw.split('\r\n\r\n');
      const [statusLine, ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') });
    });
  });
}

/**
 * Requests Node's HTTP parser refuses before routing are answered in the contract's Error shape,
 * on the API's routes and on the lean webhook routes alike, and the OpenAPI document lists them.
 */
describe('requests refused before routing', () => {
  const ctx = useBootstrappedApi();
  const oversized = (path: string) => `GET ${path} HTTP/1.1\r\nHost: x\r\nX-Padding: ${'a'.repeat(20_000)}\r\n\r\n`;

  it('answers headers over the limit with 431 and an Error body, on every kind of route', async () => {
    for (const path of ['/api/v1/incidents', '/webhooks/v1/integrations/0190a000-0000-7000-8000-000000000000/alert-events', '/healthz', '/']) {
      const answer = await exchange(ctx.api.baseUrl, oversized(path));
      expect(answer.status, path).toBe(431);
      expect(answer.headers['content-type'], path).toBe('application/json; charset=utf-8');
      expect(JSON.parse(answer.body), path).toEqual({
        error: expect.stringMatching(/^Request header fields too large: the request line and headers must fit in \d+ bytes$/),
      });
    }
    // A long request line counts against the same limit.
    const longLine = await exchange(ctx.api.baseUrl, `GET /api/v1/incidents?cursor=${'b'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(longLine.status).toBe(431);
    // Under the limit, the same request is routed as usual.
    const ordinary = await exchange(ctx.api.baseUrl, `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Padding: ${'a'.repeat(1_000)}\r\nConnection: close\r\n\r\n`);
    expect(ordinary.status).toBe(200);
  });

  it('answers what is not HTTP with 400 and an Error body', async () => {
    const answer = await exchange(ctx.api.baseUrl, 'NOT HTTP AT ALL\r\n\r\n');
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toEqual({ error: 'Malformed HTTP request' });
  });

  it('lists 431 on every operation of the OpenAPI document', async () => {
    const document = (await ctx.admin.get('/api/v1/openapi.json')).body as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
    const operations = Object.values(document.paths).flatMap((item) =>
      Object.values(item).filter((o) => typeof o === 'object' && o !== null && 'responses' in o),
    );
    expect(operations.length).toBeGreaterThan(50);
    expect(operations.filter((o) => !o.responses['431'])).toEqual([]);
  });
});
