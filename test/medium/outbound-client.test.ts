import { execFileSync } from 'node:child_process';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createTlsServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AppConfig, OutboundClient, OutboundError } from '@svc/platform';

/** A loopback HTTP server that counts the connections it accepted and the requests it got. */
async function localServer(host: string, handle: (req: IncomingMessage, res: ServerResponse) => void) {
  const state = { connections: 0, requests: [] as Array<{ url: string; headers: IncomingMessage['headers'] }> };
  const server: Server = createServer((req, res) => {
    state.requests.push({ url: req.url ?? '', headers: req.headers });
    handle(req, res);
  });
  server.on('connection', () => state.connections++);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as { port: number };
  return {
    state,
    port,
    url: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Every TCP client socket this process creates (Node's own connect hook), while recording. */
const sockets: string[] = [];
const onSocket = (message: unknown) => sockets.push(String((message as { socket: { remoteAddress?: string } }).socket.remoteAddress ?? 'connecting'));

function config(env: Partial<AppConfig> = {}): AppConfig {
  return Object.assign(new AppConfig(), { DATABASE_URL: 'postgres://localhost:5432/svc', REDIS_URL: 'redis://127.0.0.1:6379' }, env);
}

const clients: OutboundClient[] = [];
function client(env: Partial<AppConfig> = {}, lookup?: (host: string) => Promise<string[]>, ca?: string): OutboundClient {
  const made = new OutboundClient(config(env), { ...(lookup ? { lookup } : {}), ...(ca ? { ca } : {}) });
  clients.push(made);
  return made;
}

async function refusal(request: Promise<unknown>): Promise<OutboundError> {
  const error = await request.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OutboundError);
  return error as OutboundError;
}

describe('the outbound client: the policy is checked on the address connected to, before connecting', () => {
  let ok: Awaited<ReturnType<typeof localServer>>;
  let other: Awaited<ReturnType<typeof localServer>>;

  beforeAll(async () => {
    subscribe('net.client.socket', onSocket);
    ok = await localServer('127.0.0.1', (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'));
    // 127.0.0.2 is loopback too on Linux: a second host name for the narrower-range cases.
    other = await localServer('127.0.0.2', (_req, res) => res.writeHead(200).end('second'));
  });
  afterEach(() => {
    sockets.length = 0;
  });
  afterAll(async () => {
    unsubscribe('net.client.socket', onSocket);
    await Promise.all(clients.map((c) => c.close()));
    await Promise.all([ok.close(), other.close()]);
  });

  it('the default policy allows loopback: a real round trip', async () => {
    const answer = await client().get({ url: `${ok.url}/x`, maxBytes: 1024 });
    expect(answer).toMatchObject({ status: 200, complete: true, contentType: 'application/json' });
    expect(answer.body.toString()).toBe('{"ok":true}');
    expect(sockets).toHaveLength(1); // the recording sees the client's connections
  });

  it('tries each allowed address of a host in turn (::1 refused, then 127.0.0.1)', async () => {
    const answer = await client({}, async () => ['::1', '127.0.0.1']).get({ url: `http://dual.example.test:${ok.port}/`, maxBytes: 1024 });
    expect(answer.status).toBe(200);
  });

  it("https: connects to the checked address and still verifies the certificate against the URL's host name", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-outbound-tls-'));
    try {
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'ec',
          '-pkeyopt',
          'ec_paramgen_curve:prime256v1',
          '-nodes',
          '-keyout',
          join(dir, 'key.pem'),
          '-out',
          join(dir, 'cert.pem'),
          '-days',
          '1',
          '-subj',
          '/CN=prometheus.example.test',
          '-addext',
          'subjectAltName=DNS:prometheus.example.test',
        ],
        { stdio: 'ignore' },
      );
      const cert = readFileSync(join(dir, 'cert.pem'), 'utf8');
      const server = createTlsServer({ key: readFileSync(join(dir, 'key.pem')), cert }, (_req, res) => res.writeHead(200).end('over tls'));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as { port: number };
      try {
        const lookup = async () => ['127.0.0.1'];
        const answer = await client({}, lookup, cert).get({ url: `https://prometheus.example.test:${port}/`, maxBytes: 1024 });
        expect(answer.body.toString()).toBe('over tls');
        // The same server under a name its certificate does not carry: refused by TLS, not trusted.
        const wrongName = await refusal(client({}, async () => ['127.0.0.1'], cert).get({ url: `https://other.example.test:${port}/`, maxBytes: 1024 }));
        expect(wrongName).toMatchObject({ kind: 'unreachable', code: 'ERR_TLS_CERT_ALTNAME_INVALID' });
      } finally {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a link-local literal (the cloud metadata address) is refused without a connection, whatever ALLOW says', async () => {
    const outbound = client({ SVC_OUTBOUND_ALLOW: '0.0.0.0/0,::/0' });
    // Decimal and hexadecimal spellings are the same address once the URL is parsed.
    for (const url of [
      'http://169.254.169.254/latest/meta-data/',
      'http://2852039166/',
      'http://0xa9.0xfe.0xa9.0xfe/',
      'http://[fe80::1]/',
      'http://[::ffff:169.254.169.254]/',
      'http://[fd00:ec2::254]/',
    ]) {
      const error = await refusal(outbound.get({ url, maxBytes: 1024 }));
      expect(error.kind, url).toBe('refused');
      expect(error.message).toContain('link-local');
    }
    expect(sockets).toEqual([]);
    expect(await outbound.refusal('http://169.254.169.254/')).toEqual({ message: expect.stringContaining('link-local') });
  });

  it('a host name resolving to a denied address is refused without a connection', async () => {
    const before = ok.state.connections;
    const outbound = client({}, async (host) => (host === 'metadata.example.test' ? ['10.1.2.3', '169.254.169.254'] : ['127.0.0.1']));
    const error = await refusal(outbound.get({ url: 'http://metadata.example.test/computeMetadata/v1/', maxBytes: 1024 }));
    expect(error).toMatchObject({ kind: 'refused' });
    expect(error.message).toBe(
      'The outbound policy refuses metadata.example.test (resolved to 169.254.169.254) port 80: link-local addresses (cloud metadata included) are always refused',
    );

    // The system resolver: localhost under SVC_OUTBOUND_DENY=loopback.
    const denyLoopback = client({ SVC_OUTBOUND_DENY: 'loopback' });
    const viaName = await refusal(denyLoopback.get({ url: `http://localhost:${ok.port}/`, maxBytes: 1024 }));
    expect(viaName.message).toMatch(/^The outbound policy refuses localhost \(resolved to (127\.0\.0\.1|::1)\) port \d+: SVC_OUTBOUND_DENY refuses loopback$/);
    expect(sockets).toEqual([]);
    expect(ok.state.connections).toBe(before);
  });

  it('SVC_OUTBOUND_DENY=loopback refuses 127.0.0.1 (IPv4-mapped too); an ALLOW CIDR re-allows a narrower range', async () => {
    const before = ok.state.connections;
    const otherBefore = other.state.connections;
    const denied = client({ SVC_OUTBOUND_DENY: 'loopback' });
    expect((await refusal(denied.get({ url: ok.url, maxBytes: 1024 }))).message).toBe(
      `The outbound policy refuses 127.0.0.1 port ${ok.port}: SVC_OUTBOUND_DENY refuses loopback`,
    );
    expect((await refusal(denied.get({ url: `http://[::ffff:127.0.0.1]:${ok.port}/`, maxBytes: 1024 }))).kind).toBe('refused');
    expect(sockets).toEqual([]);
    expect(ok.state.connections).toBe(before);

    const narrower = client({ SVC_OUTBOUND_DENY: 'loopback', SVC_OUTBOUND_ALLOW: '127.0.0.1/32' });
    expect((await narrower.get({ url: ok.url, maxBytes: 1024 })).status).toBe(200);
    expect(ok.state.connections).toBe(before + 1);
    expect((await refusal(narrower.get({ url: other.url, maxBytes: 1024 }))).kind).toBe('refused');
    expect(other.state.connections).toBe(otherBefore);
  });

  it("the service's own PostgreSQL and Redis (from DATABASE_URL and REDIS_URL, resolved) are refused, by any local address", async () => {
    const outbound = client({ SVC_OUTBOUND_ALLOW: 'loopback,private' });
    const cases: Array<[string, string]> = [
      ['http://127.0.0.1:5432/', 'PostgreSQL (DATABASE_URL)'],
      ['http://localhost:5432/', 'PostgreSQL (DATABASE_URL)'],
      ['http://127.0.0.2:5432/', 'PostgreSQL (DATABASE_URL)'],
      ['http://[::ffff:127.0.0.1]:6379/', 'Redis (REDIS_URL)'],
      ['http://127.0.0.1:6379/', 'Redis (REDIS_URL)'],
    ];
    for (const [url, what] of cases) {
      const error = await refusal(outbound.get({ url, maxBytes: 1024 }));
      expect(error.message, url).toContain(`it is this service's own ${what}`);
    }
    expect(sockets).toEqual([]);
    // Another port on the same addresses is not refused for that.
    expect((await outbound.get({ url: ok.url, maxBytes: 1024 })).status).toBe(200);
  });

  it('a redirect from an allowed server to a denied address is refused at the hop: nothing reaches the second server', async () => {
    const redirecting = await localServer('127.0.0.1', (req, res) => {
      if (req.url === '/same') res.writeHead(302, { location: '/final' }).end();
      else if (req.url === '/final') res.writeHead(200).end('same origin');
      else res.writeHead(307, { location: `${other.url}/stolen` }).end();
    });
    try {
      const otherBefore = other.state.connections;
      const outbound = client({ SVC_OUTBOUND_DENY: 'loopback', SVC_OUTBOUND_ALLOW: '127.0.0.1/32' });
      const error = await refusal(outbound.get({ url: `${redirecting.url}/start`, headers: { authorization: 'Bearer s3cret' }, maxBytes: 1024 }));
      expect(error).toMatchObject({ kind: 'refused', redirects: 1, origin: other.url });
      expect(error.message).toBe(`The outbound policy refuses 127.0.0.2 port ${other.port}: SVC_OUTBOUND_DENY refuses loopback`);
      expect(other.state.connections).toBe(otherBefore);
      expect(redirecting.state.requests.map((r) => r.url)).toEqual(['/start']);

      // Allowed, a cross-origin hop is followed without the credentials; a same-origin one keeps them.
      const open = client();
      const followed = await open.get({
        url: `${redirecting.url}/start`,
        headers: { authorization: 'Bearer s3cret', accept: 'application/json' },
        maxBytes: 1024,
      });
      expect(followed).toMatchObject({ status: 200, url: new URL(`${other.url}/stolen`) });
      expect(other.state.requests.at(-1)!.headers.authorization).toBeUndefined();
      expect(other.state.requests.at(-1)!.headers.accept).toBe('application/json');
      const same = await open.get({ url: `${redirecting.url}/same`, headers: { authorization: 'Bearer s3cret' }, maxBytes: 1024 });
      expect(same.body.toString()).toBe('same origin');
      expect(redirecting.state.requests.at(-1)!.headers.authorization).toBe('Bearer s3cret');
    } finally {
      await redirecting.close();
    }
  });

  it('POST goes through the same policy: allowed, it sends the body and returns the answer with its headers; denied, nothing connects', async () => {
    const answer = await client().post({
      url: `${ok.url}/chat.postMessage`,
      headers: { 'content-type': 'application/json' },
      body: '{"text":"hi"}',
      maxBytes: 1024,
    });
    expect(answer).toMatchObject({ status: 200, complete: true });
    expect(answer.headers?.['content-type']).toBe('application/json');
    expect(ok.state.requests.at(-1)).toMatchObject({ url: '/chat.postMessage' });
    sockets.length = 0;
    const before = ok.state.connections;
    const denied = client({ SVC_OUTBOUND_DENY: 'loopback' });
    expect((await refusal(denied.post({ url: ok.url, body: '{}', maxBytes: 1024 }))).kind).toBe('refused');
    expect(sockets).toEqual([]);
    expect(ok.state.connections).toBe(before);
  });

  it('redirects are bounded', async () => {
    const loop = await localServer('127.0.0.1', (_req, res) => res.writeHead(302, { location: '/again' }).end());
    try {
      const error = await refusal(client().get({ url: loop.url, maxBytes: 1024 }));
      expect(error).toMatchObject({ kind: 'redirect', message: 'More than 3 redirects' });
      expect(loop.state.requests).toHaveLength(4);
    } finally {
      await loop.close();
    }
  });

  it('reads at most the cap: the rest of a long answer is never read', async () => {
    const total = 256 * 1024 * 1024;
    let written = 0;
    let closed!: () => void;
    const done = new Promise<void>((resolve) => (closed = resolve));
    const endless = await localServer('127.0.0.1', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = Buffer.alloc(64 * 1024, 'a');
      const pump = () => {
        while (written < total && !res.destroyed) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      res.on('close', () => closed());
      pump();
    });
    try {
      const answer = await client().get({ url: endless.url, maxBytes: 64 * 1024 });
      expect(answer.complete).toBe(false);
      expect(answer.body.length).toBe(64 * 1024);
      await done;
      expect(written).toBeLessThan(total);
    } finally {
      await endless.close();
    }
  });

  it('a connection refused, and a port that accepts but never answers, fail the same way (no answer)', async () => {
    const silent = await localServer('127.0.0.1', () => {
      /* never answers */
    });
    const port = silent.port;
    await silent.close();
    const closed = await refusal(client().get({ url: `http://127.0.0.1:${port}/`, maxBytes: 1024 }));
    expect(closed).toMatchObject({ kind: 'unreachable', code: 'ECONNREFUSED' });
    const unresolved = await refusal(
      client({}, async () => {
        throw Object.assign(new Error('nope'), { code: 'ENOTFOUND' });
      }).get({ url: 'http://nowhere.example.test/', maxBytes: 1024 }),
    );
    expect(unresolved).toMatchObject({ kind: 'unresolved', code: 'ENOTFOUND' });
  });
});
