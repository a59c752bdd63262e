import { createServer as createTcpServer, Server as TcpServer } from 'node:net';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../support/api';
import { ensureBuilt } from '../support/dist';
import { useBootstrappedApi } from '../support/factories';
import { freePort } from '../support/ports';
import { investigationEnded } from '../support/investigations';
import { startWorker, TestWorker } from '../support/worker';

const SECRET = 'SECRET-LEAK-7f3a';

/** A loopback HTTP server that counts the connections it accepted. */
async function httpServer(handle: (req: IncomingMessage, res: ServerResponse) => void, host = '127.0.0.1') {
  const state = { connections: 0, requests: [] as string[] };
  const server: Server = createServer((req, res) => {
    state.requests.push(req.url ?? '');
    handle(req, res);
  });
  server.on('connection', () => state.connections++);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return {
    state,
    url: `http://${host}:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A TCP server that is not HTTP: it says `banner` (or nothing) and keeps the connection. */
async function tcpServer(banner: string | null) {
  const sockets = new Set<import('node:net').Socket>();
  const server: TcpServer = createTcpServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    if (banner) socket.write(banner);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        sockets.forEach((s) => s.destroy());
        server.close(() => resolve());
      }),
  };
}

describe('outbound requests to integrations under the default policy', () => {
  const ctx = useBootstrappedApi();
  let leaky: Awaited<ReturnType<typeof httpServer>>;
  let redirector: Awaited<ReturnType<typeof httpServer>>;
  let worker: TestWorker | undefined;
  let generic: { id: string; secret: string };

  beforeAll(async () => {
    ensureBuilt();
    // An internal server reached by mistake: its error pages carry things no Viewer should read.
    leaky = await httpServer((_req, res) =>
      res.writeHead(500, { 'content-type': 'text/html' }).end(`<html>internal admin console ${SECRET} password=hunter2-${SECRET}</html>`),
    );
    redirector = await httpServer((_req, res) => res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/iam/security-credentials/' }).end());
    const g = await ctx.admin.post('/api/v1/integrations', { type: 'generic', name: 'Probe alerts' });
    generic = { id: g.body.id, secret: g.body.webhookSecret };
  });

  afterAll(async () => {
    await worker?.close();
    await leaky?.close();
    await redirector?.close();
  });

  it('create and update answer 400 naming config.baseUrl when the host resolves to a refused address', async () => {
    const databasePort = new URL(ctx.api.databaseUrl).port || '5432';
    const cases: Array<[string, string]> = [
      [
        'http://169.254.169.254/',
        'config.baseUrl: The outbound policy refuses 169.254.169.254 port 80: link-local addresses (cloud metadata included) are always refused',
      ],
      [
        'http://[::ffff:169.254.169.254]:9090',
        'config.baseUrl: The outbound policy refuses ::ffff:a9fe:a9fe (169.254.169.254) port 9090: link-local addresses (cloud metadata included) are always refused',
      ],
      [
        `http://127.0.0.1:${databasePort}`,
        `config.baseUrl: The outbound policy refuses 127.0.0.1 port ${databasePort}: it is this service's own PostgreSQL (DATABASE_URL)`,
      ],
      ['http://localhost:6379/', "it is this service's own Redis (REDIS_URL)"],
    ];
    for (const [baseUrl, message] of cases) {
      const res = await ctx.admin.post('/api/v1/integrations', { type: 'prometheus', name: 'Refused', config: { baseUrl } });
      expect(res.status, baseUrl).toBe(400);
      expect(Object.keys(res.body)).toEqual(['error']);
      expect(res.body.error).toContain(message);
    }
    const fine = await ctx.admin.post('/api/v1/integrations', { type: 'alertmanager', name: 'Fine', config: { baseUrl: leaky.url } });
    expect(fine.status).toBe(201);
    const moved = await ctx.admin.request('PATCH', `/api/v1/integrations/${fine.body.id}`, {
      body: { config: { baseUrl: 'http://169.254.170.2/v2/credentials' } },
    });
    expect(moved.status).toBe(400);
    expect(moved.body.error).toMatch(/^config\.baseUrl: The outbound policy refuses 169\.254\.170\.2 port 80/);
    expect((await ctx.admin.get(`/api/v1/integrations/${fine.body.id}`)).body.config).toEqual({ baseUrl: leaky.url });
    expect((await ctx.admin.post(`/api/v1/integrations/${fine.body.id}/disable`)).status).toBe(200);
  });

  it('verify copies only the status of an error answer, never its body, into the integration and the audit', async () => {
    const created = await ctx.admin.post('/api/v1/integrations', { type: 'prometheus', name: 'Leaky', config: { baseUrl: leaky.url } });
    const verified = await ctx.admin.post(`/api/v1/integrations/${created.body.id}/verify`);
    expect(verified.body.lastVerification).toMatchObject({ outcome: 'failed', detail: 'Prometheus answered HTTP 500 at /api/v1/status/buildinfo' });
    const audit = await ctx.admin.get(`/api/v1/audit-events?action=integration.verify&targetId=${created.body.id}`);
    expect(audit.text).toContain('answered HTTP 500');
    expect(audit.text).not.toContain(SECRET);
    expect((await ctx.admin.post(`/api/v1/integrations/${created.body.id}/disable`)).status).toBe(200);
  });

  it('verify reads at most 64 KiB: a 20 MB version string is neither held nor recorded', async () => {
    let written = 0;
    const huge = await httpServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"status":"success","data":{"version":"');
      const chunk = Buffer.alloc(64 * 1024, 'v');
      const pump = () => {
        while (written < 20 * 1024 * 1024 && !res.destroyed) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end('"}}');
      };
      pump();
    });
    try {
      const created = await ctx.admin.post('/api/v1/integrations', { type: 'prometheus', name: 'Huge', config: { baseUrl: huge.url } });
      const verified = await ctx.admin.post(`/api/v1/integrations/${created.body.id}/verify`);
      expect(verified.body.lastVerification).toMatchObject({
        outcome: 'failed',
        detail: "The answer at /api/v1/status/buildinfo is larger than 64 KiB: not Prometheus's",
      });
      const audit = await ctx.admin.get(`/api/v1/audit-events?action=integration.verify&targetId=${created.body.id}`);
      expect(audit.text.length).toBeLessThan(4096);
      expect(written).toBeLessThan(20 * 1024 * 1024);
      await ctx.admin.request('DELETE', `/api/v1/integrations/${created.body.id}`);
    } finally {
      await huge.close();
    }
  });

  it('verify is not a port scanner: closed, silent and non-HTTP ports all read "could not connect"', async () => {
    const closedPort = await freePort();
    const silent = await tcpServer(null);
    const ssh = await tcpServer('SSH-2.0-OpenSSH_9.6\r\n');
    try {
      const details: string[] = [];
      for (const baseUrl of [`http://127.0.0.1:${closedPort}`, silent.url, ssh.url]) {
        const created = await ctx.admin.post('/api/v1/integrations', { type: 'alertmanager', name: 'Probe', config: { baseUrl } });
        const verified = await ctx.admin.post(`/api/v1/integrations/${created.body.id}/verify`);
        expect(verified.body.lastVerification.outcome).toBe('failed');
        details.push(verified.body.lastVerification.detail.replace(baseUrl, 'ORIGIN'));
        await ctx.admin.request('DELETE', `/api/v1/integrations/${created.body.id}`);
      }
      expect(new Set(details)).toEqual(new Set(['Could not connect to ORIGIN: no HTTP answer within 5 s (refused, reset, filtered or not HTTP)']));
    } finally {
      await silent.close();
      await ssh.close();
    }
  }, 40_000);

  async function investigate(): Promise<{ investigation: any; text: string }> {
    worker ??= await startWorker();
    const alert = await new Client(ctx.api.baseUrl).request('POST', `/webhooks/v1/integrations/${generic.id}/alert-events`, {
      body: { alerts: [{ labels: { alertname: `OutboundProbe${Date.now()}`, job: 'api' }, startsAt: new Date(Date.now() - 60_000).toISOString() }] },
      headers: { 'x-svc-token': generic.secret },
      origin: false,
    });
    expect(alert.status).toBe(202);
    const id = (await ctx.admin.post('/api/v1/investigations', { incidentId: alert.body.incidentIds[0] })).body.id;
    const investigation = await investigationEnded(ctx.admin, id, { timeoutMs: 60_000 });
    const activity = await ctx.admin.get(`/api/v1/investigations/${id}/activity?limit=200`);
    const report = await ctx.admin.get(`/api/v1/investigations/${id}/report`);
    const audit = await ctx.admin.get('/api/v1/audit-events?limit=200');
    // The event stream of an ended investigation replays everything and ends at its terminal event.
    const events = await ctx.admin.get(`/api/v1/investigations/${id}/events`, { headers: { accept: 'text/event-stream' } });
    expect(events.text).toContain('tool.completed');
    return { investigation, text: [JSON.stringify(investigation), activity.text, report.text, audit.text, events.text].join('\n') };
  }

  it('a tool reading an internal server: a failed run with the status only, nothing of the body in the run, activity, event stream, report or audit', async () => {
    const prom = await ctx.admin.post('/api/v1/integrations', { type: 'prometheus', name: 'Leaky Prometheus', config: { baseUrl: leaky.url } });
    // Other tests of this file read it too, in any order: count this investigation's requests only.
    const before = leaky.state.requests.length;
    try {
      const { investigation, text } = await investigate();
      const failed = investigation.runs.filter((r: { tool: string }) => r.tool.startsWith('prometheus.'));
      expect(failed.length).toBeGreaterThan(0);
      for (const run of failed)
        expect(run).toMatchObject({ outcome: 'failed', error: expect.stringMatching(/^Prometheus answered HTTP 500 at \/api\/v1\/[a-z_/]+$/) });
      expect(investigation.limitations).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'tool_failure' })]));
      // A Prometheus that answers 500 cannot be read: it was asked once, and the investigation ends partial saying so.
      expect(leaky.state.requests.length - before).toBe(failed.length);
      expect(investigation.status).toBe('partial');
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain('hunter2');
    } finally {
      await ctx.admin.post(`/api/v1/integrations/${prom.body.id}/disable`);
    }
  }, 90_000);

  it('at run time, a destination the policy refuses (here through a redirect) is a failed run and a limitation', async () => {
    const prom = await ctx.admin.post('/api/v1/integrations', { type: 'prometheus', name: 'Redirecting Prometheus', config: { baseUrl: redirector.url } });
    expect(prom.status).toBe(201);
    try {
      const { investigation } = await investigate();
      const failed = investigation.runs.filter((r: { tool: string }) => r.tool.startsWith('prometheus.'));
      expect(failed.length).toBeGreaterThan(0);
      for (const run of failed) {
        expect(run).toMatchObject({
          outcome: 'failed',
          error:
            'Refused: after a redirect to http://169.254.169.254: The outbound policy refuses 169.254.169.254 port 80: link-local addresses (cloud metadata included) are always refused',
        });
      }
      expect(investigation.limitations).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ type: 'tool_failure', statement: expect.stringContaining('The outbound policy refuses 169.254.169.254') }),
        ]),
      );
    } finally {
      await ctx.admin.post(`/api/v1/integrations/${prom.body.id}/disable`);
    }
  }, 90_000);
});

describe('SVC_OUTBOUND_DENY=loopback with a narrower SVC_OUTBOUND_ALLOW', () => {
  const ctx = useBootstrappedApi({ env: { SVC_OUTBOUND_DENY: 'loopback', SVC_OUTBOUND_ALLOW: '127.0.0.2/32' } });
  let allowed: Awaited<ReturnType<typeof httpServer>>;
  let denied: Awaited<ReturnType<typeof httpServer>>;

  beforeAll(async () => {
    denied = await httpServer((_req, res) => res.writeHead(200).end('{}'));
    allowed = await httpServer(
      (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"success","data":{"version":"2.99.0"}}'),
      '127.0.0.2',
    );
  });
  afterAll(async () => {
    await allowed?.close();
    await denied?.close();
    delete process.env.SVC_OUTBOUND_DENY;
    delete process.env.SVC_OUTBOUND_ALLOW;
  });

  it('refuses 127.0.0.1 and localhost at create, allows 127.0.0.2, and verify connects only there', async () => {
    const port = new URL(denied.url).port;
    for (const baseUrl of [denied.url, `http://localhost:${port}`]) {
      const res = await ctx.admin.post('/api/v1/integrations', { type: 'prometheus', name: 'Local', config: { baseUrl } });
      expect(res.status, baseUrl).toBe(400);
      expect(res.body.error).toMatch(new RegExp(`^config\\.baseUrl: The outbound policy refuses .*port ${port}: SVC_OUTBOUND_DENY refuses loopback$`));
    }
    expect(denied.state.connections).toBe(0);
    const created = await ctx.admin.post('/api/v1/integrations', { type: 'prometheus', name: 'Allowed', config: { baseUrl: allowed.url } });
    expect(created.status).toBe(201);
    const verified = await ctx.admin.post(`/api/v1/integrations/${created.body.id}/verify`);
    expect(verified.body.lastVerification).toMatchObject({ outcome: 'succeeded', detail: 'Prometheus 2.99.0' });
    expect(allowed.state.connections).toBe(1);
  });
});
