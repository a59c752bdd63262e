import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_TEXT_MAX_LENGTH } from '@svc/audit';
import { DEFAULT_READ_CAP_BYTES, TRUNCATION_MARKER } from '@svc/platform';
import { Client } from '../support/api';
import { useBootstrappedApi } from '../support/factories';

const codePoints = (text: string) => [...text].length;

/**
 * The most a capped read takes from a connection: it stops at the piece that crosses the cap, and
 * a piece is at most what the answer's stream holds (its 64 KiB high-water mark) plus one socket
 * read (64 KiB).
 */
const READ_AT_MOST_BYTES = DEFAULT_READ_CAP_BYTES + 2 * 64 * 1024;

/**
 * What verify reads from an upstream, and what it and the audit trail keep, is bounded whatever
 * the upstream answers: a real HTTP server on loopback plays a Prometheus with absurd answers.
 */
describe('verify and the audit trail under oversized answers', () => {
  const ctx = useBootstrappedApi();
  let upstream: Server;
  let origin: string;
  /** Bytes the upstream managed to hand to the connection for the huge answer. */
  let hugeWritten = 0;
  const HUGE_VERSION_BYTES = 20 * 1024 * 1024;

  beforeAll(async () => {
    upstream = createServer((req, res) => {
      res.on('error', () => undefined);
      req.socket.on('error', () => undefined);
      const path = req.url ?? '';
      if (path === '/huge/api/v1/status/buildinfo') {
        // A 20 MB version string, written in pieces so the reader's cap is what stops it.
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"status":"success","data":{"version":"');
        const piece = '9'.repeat(64 * 1024);
        let sent = 0;
        const pump = (): void => {
          while (sent < HUGE_VERSION_BYTES) {
            sent += piece.length;
            hugeWritten = sent;
            if (!res.write(piece)) {
              res.once('drain', pump);
              return;
            }
          }
          res.end('"}}');
        };
        pump();
        return;
      }
      if (path === '/long/api/v1/status/buildinfo') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 'success', data: { version: `3.1.0-${'x'.repeat(10_000)}` } }));
        return;
      }
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    upstream?.closeAllConnections();
    await new Promise<void>((resolve) => (upstream ? upstream.close(() => resolve()) : resolve()));
  });

  /** The bytes the API's outbound client has read from answers, as its /metrics shows them. */
  async function bytesRead(): Promise<number> {
    const metrics = await new Client(ctx.api.baseUrl).get('/metrics');
    const line = metrics.text.split('\n').find((l) => l.startsWith('outbound_response_bytes_total '));
    expect(line).toBeDefined();
    return Number(line!.split(' ')[1]);
  }

  async function verified(baseUrl: string) {
    const created = await ctx.admin.post('/api/v1/integrations', { type: 'prometheus', name: 'Oversized', config: { baseUrl } });
    expect(created.status).toBe(201);
    const res = await ctx.admin.post(`/api/v1/integrations/${created.body.id}/verify`);
    expect(res.status).toBe(200);
    const stored = await ctx.admin.get(`/api/v1/integrations/${created.body.id}`);
    const audit = await ctx.admin.get(`/api/v1/audit-events?action=integration.verify&targetId=${created.body.id}`);
    expect(audit.body.events).toHaveLength(1);
    return { id: created.body.id as string, res, stored: stored.body.lastVerification, event: audit.body.events[0] };
  }

  it('a 20 MB version string: verify reads no more than its cap and answers; nothing stored or audited is large', async () => {
    const before = await bytesRead();
    const { res, stored, event } = await verified(`${origin}/huge`);
    const read = (await bytesRead()) - before;
    expect(read).toBeGreaterThanOrEqual(DEFAULT_READ_CAP_BYTES);
    expect(read).toBeLessThanOrEqual(READ_AT_MOST_BYTES);
    expect(res.body.lastVerification).toMatchObject({
      outcome: 'failed',
      detail: "The answer at /huge/api/v1/status/buildinfo is larger than 64 KiB: not Prometheus's",
    });
    expect(stored.detail).toBe(res.body.lastVerification.detail);
    expect(JSON.stringify(event).length).toBeLessThan(4096);
    expect(event.detail).toEqual({ outcome: 'failed', detail: stored.detail });
    // The reader stopped early: the upstream could not hand over the whole answer.
    expect(hugeWritten).toBeLessThan(HUGE_VERSION_BYTES);
  });

  it('a long version in a complete answer is shown cut to 64 characters, ending with the truncation marker', async () => {
    const { res, stored, event } = await verified(`${origin}/long`);
    expect(res.body.lastVerification.outcome).toBe('succeeded');
    const detail: string = stored.detail;
    expect(detail.startsWith('Prometheus 3.1.0-xxx')).toBe(true);
    expect(detail.endsWith(TRUNCATION_MARKER)).toBe(true);
    expect(codePoints(detail)).toBe('Prometheus '.length + 64);
    expect(event.detail).toEqual({ outcome: 'succeeded', detail });
  });

  it('a detail naming a very long path is stored and audited cut, with the marker; so is every long audited value', async () => {
    const longPath = `/${'p'.repeat(1900)}`;
    const { id, stored, event } = await verified(`${origin}${longPath}`);
    expect(stored.outcome).toBe('failed');
    expect(stored.detail.startsWith(`Prometheus answered HTTP 404 at ${longPath.slice(0, 100)}`)).toBe(true);
    expect(codePoints(stored.detail)).toBe(1024);
    expect(stored.detail.endsWith(TRUNCATION_MARKER)).toBe(true);
    expect(event.detail.detail).toBe(stored.detail);

    // The creation's audit event recorded the config: its 1,900-character baseUrl is cut at the audit limit.
    const created = await ctx.admin.get(`/api/v1/audit-events?action=integration.create&targetId=${id}`);
    const baseUrl: string = created.body.events[0].detail.config.baseUrl;
    expect(codePoints(baseUrl)).toBe(AUDIT_TEXT_MAX_LENGTH);
    expect(baseUrl.startsWith(`${origin}/ppp`)).toBe(true);
    expect(baseUrl.endsWith(TRUNCATION_MARKER)).toBe(true);
    // The integration itself keeps its whole baseUrl: only the audit record is capped.
    expect((await ctx.admin.get(`/api/v1/integrations/${id}`)).body.config.baseUrl).toBe(`${origin}${longPath}`);
  });
});
