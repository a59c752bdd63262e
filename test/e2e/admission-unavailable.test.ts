import { createConnection, createServer, Server, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, startApi, TestApi } from '../support/api';
import { bootstrap } from '../support/factories';
import { freePort } from '../support/ports';

/** A loopback TCP proxy to PostgreSQL that the test can cut and restore. */
class CuttableProxy {
  private server?: Server;
  private readonly sockets = new Set<Socket>();

  constructor(readonly port: number) {}

  async open(): Promise<void> {
    if (this.server) return;
    this.server = createServer((client) => {
      const upstream = createConnection({ host: '127.0.0.1', port: 5432 });
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => s.destroy());
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', () => resolve()));
  }

  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const s of this.sockets) s.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

describe('admission while the database is unreachable', () => {
  let proxy: CuttableProxy;
  let api: TestApi;
  let integration: { id: string; secret: string };

  beforeAll(async () => {
    proxy = new CuttableProxy(await freePort());
    await proxy.open();
    api = await startApi({ databaseVia: `127.0.0.1:${proxy.port}` });
    const { admin } = await bootstrap(api);
    const created = await admin.post('/api/v1/integrations', { type: 'generic', name: 'Resilient' });
    integration = { id: created.body.id, secret: created.body.webhookSecret };
  });
  afterAll(async () => {
    await proxy.open();
    await api?.close();
    await proxy.cut();
  });

  const send = (seq: string) =>
    new Client(api.baseUrl).request('POST', `/webhooks/v1/integrations/${integration.id}/alert-events`, {
      body: { alerts: [{ labels: { alertname: 'DbOutage', service: 'svc', seq }, startsAt: '2026-11-22T02:00:00Z' }] },
      headers: { 'x-svc-token': integration.secret },
      origin: false,
    });

  it('answers 503 with Retry-After (never 500, never a hang), and admits again once the database is back', async () => {
    expect((await send('before')).status).toBe(202);
    await proxy.cut();
    for (const seq of ['during-1', 'during-2']) {
      const res = await send(seq);
      expect(res.status).toBe(503);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(Object.keys(res.body)).toEqual(['error']);
    }
    await proxy.open();
    let res = await send('during-1');
    // The pool may hand out one connection that died with the cut before it notices.
    if (res.status === 503) res = await send('during-1');
    expect(res.status).toBe(202);
    expect((await send('before')).status).toBe(200);
    const rows = await api.dataSource.query(`SELECT labels->>'seq' AS seq FROM alert_events ORDER BY 1`);
    expect(rows.map((r: { seq: string }) => r.seq)).toEqual(['before', 'during-1']);
  }, 60_000);
});
