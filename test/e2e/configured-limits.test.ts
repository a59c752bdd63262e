import { connect, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvestigationEventStream } from '@svc/investigations/stream';
import { Client, startApi, TestApi } from '../support/api';
import { ADMIN, bootstrap } from '../support/factories';
import { until } from '../support/until';

/**
 * The limits that were constants are settings (decisions: every default is configurable): one API
 * started with non-default values shows each taking effect through the real routes.
 */
describe('configured limits', () => {
  let api: TestApi;
  let admin: Client;
  let integration: { id: string; secret: string };

  beforeAll(async () => {
    api = await startApi({
      env: {
        SVC_SIGN_IN_MAX_FAILURES: '3',
        SVC_SIGN_IN_WINDOW_SECONDS: '120',
        SVC_ADMISSION_MAX_IN_FLIGHT: '1',
        SVC_STREAM_RETRY_MS: '4500',
        SVC_STREAM_HEARTBEAT_SECONDS: '1',
        SVC_STREAM_WRITE_DEADLINE_SECONDS: '3',
      },
    });
    ({ admin } = await bootstrap(api));
    const created = await admin.post('/api/v1/integrations', { type: 'generic', name: 'Configured' });
    integration = { id: created.body.id, secret: created.body.webhookSecret };
  }, 60_000);
  afterAll(() => api?.close());

  const webhookPath = () => `/webhooks/v1/integrations/${integration.id}/alert-events`;
  const deliveryOf = (seq: string) => JSON.stringify({ alerts: [{ labels: { alertname: 'Configured', seq }, startsAt: '2026-11-22T02:00:00Z' }] });
  const send = (seq: string) =>
    new Client(api.baseUrl).request('POST', webhookPath(), {
      body: JSON.parse(deliveryOf(seq)),
      headers: { 'x-svc-token': integration.secret },
      origin: false,
    });

  it('SVC_SIGN_IN_MAX_FAILURES=3: the fourth attempt after three failures gets 429, within SVC_SIGN_IN_WINDOW_SECONDS', async () => {
    const signIn = (password: string, address: string) =>
      new Client(api.baseUrl).post('/api/v1/auth/local/sign-in', { email: ADMIN.email, password }, { headers: { 'x-forwarded-for': address } });
    for (let i = 0; i < 3; i++) expect((await signIn(`wrong guess ${i}`, `198.51.100.${i + 1}`)).status).toBe(401);
    const blocked = await signIn(ADMIN.password, '198.51.100.9');
    expect(blocked.status).toBe(429);
    const retryAfter = Number(blocked.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(120);
  });

  /** A delivery whose body stops after its first bytes: the server holds it (and its in-flight slot) until the rest comes. */
  async function holdDelivery(body: string): Promise<{ socket: Socket; answer: Promise<string>; answered: () => boolean }> {
    const url = new URL(api.baseUrl);
    const socket: Socket = connect(Number(url.port), url.hostname);
    let text = '';
    let ended = false;
    const answer = new Promise<string>((resolve, reject) => {
      socket.on('data', (d: Buffer) => (text += d.toString('utf8')));
      socket.on('end', () => {
        ended = true;
        resolve(text);
      });
      socket.on('error', reject);
    });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('error', reject);
    });
    socket.write(
      `POST ${webhookPath()} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\nX-Svc-Token: ${integration.secret}\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body.slice(0, 10)}`,
    );
    return { socket, answer, answered: () => ended || text.length > 0 };
  }

  it('SVC_ADMISSION_MAX_IN_FLIGHT=1: while one delivery is held mid-body, another gets 503 with Retry-After; the held one is then admitted', async () => {
    const body = deliveryOf('held');
    let held = await holdDelivery(body);
    try {
      // A probe can overtake the held request on its way in; the held one is then refused and sent again.
      const refused = await until(
        async () => {
          if (held.answered()) {
            held.socket.destroy();
            held = await holdDelivery(body);
            return false;
          }
          const res = await send('refused');
          return res.status === 503 && res;
        },
        20_000,
        'a delivery refused while another is held',
      );
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(Object.keys(refused.body)).toEqual(['error']);
      held.socket.write(body.slice(10));
      expect((await held.answer).split('\r\n')[0]).toBe('HTTP/1.1 202 Accepted');
    } finally {
      held.socket.destroy();
    }
    expect((await send('after')).status).toBe(202);
    const rows = await api.dataSource.query(`SELECT DISTINCT labels->>'seq' AS seq FROM alert_events WHERE labels->>'seq' IN ('held', 'after') ORDER BY 1`);
    expect(rows.map((r: { seq: string }) => r.seq)).toEqual(['after', 'held']);
  });

  it('SVC_STREAM_RETRY_MS=4500 is the retry: field; SVC_STREAM_HEARTBEAT_SECONDS=1 heartbeats an idle stream', async () => {
    const alert = await send('stream');
    expect(alert.status).toBe(202);
    const opened = await admin.post('/api/v1/investigations', { incidentId: alert.body.incidentIds[0] });
    expect(opened.status).toBe(201);
    const controller = new AbortController();
    try {
      const res = await fetch(`${api.baseUrl}/api/v1/investigations/${opened.body.id}/events`, {
        headers: { cookie: admin.cookie ?? '', accept: 'text/event-stream' },
        signal: controller.signal,
      });
      expect(res.status).toBe(200);
      const reader = res.body!.getReader();
      let text = '';
      // Read until a heartbeat arrives: with the default 15 s it would not come within this bound.
      await until(
        async () => {
          const { value, done } = await reader.read();
          if (value) text += Buffer.from(value).toString('utf8');
          return done || text.includes(': heartbeat\n\n');
        },
        10_000,
        'a heartbeat',
      );
      expect(text.startsWith('retry: 4500\n\n')).toBe(true);
      expect(text).toContain(': heartbeat\n\n');
      // The write deadline drops a stalled reader (test/e2e/investigation-events.test.ts); here, that the stream serving it took the setting.
      expect(api.app.get(InvestigationEventStream, { strict: false }).timings).toMatchObject({ heartbeatMs: 1000, writeDeadlineMs: 3000 });
    } finally {
      controller.abort();
    }
  });
});
