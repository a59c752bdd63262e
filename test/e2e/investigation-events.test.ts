import type { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ActivityService, InvestigationsRepository } from '@svc/investigations';
import { ActivityNotifier, InvestigationEventStream } from '@svc/investigations/stream';
import { configureHttpApp, dataSourceOptions, loadConfig, Outbox, OutboxRepository, ScopedRepository } from '@svc/platform';
import { Client, startApi, TestApi } from '../support/api';
import { bootstrap, signedInMember } from '../support/factories';
import { withServer } from '../support/databases';
import { freePort } from '../support/ports';
import { until } from '../support/until';

type ActivityType = Parameters<ActivityService['append']>[3];

/**
 * The investigation event stream (decisions §7) through the real API: the real route, pipeline and
 * guard, against a real database. The worker (the producer) is stood in for by
 * ActivityService.append in a transaction, on connections of its own (a third party to both API
 * instances).
 */

const ORG = 'acme';
const HEARTBEAT_MS = 400;
const WRITE_DEADLINE_MS = 1500;

/** Short heartbeat and write deadline, so the tests need not wait the contract's 15 s and 10 s. */
function shortenTimings(app: NestExpressApplication): void {
  Object.assign(app.get(InvestigationEventStream, { strict: false }).timings, { heartbeatMs: HEARTBEAT_MS, writeDeadlineMs: WRITE_DEADLINE_MS });
}

/** A second API instance on the same database: its own process state, its own LISTEN connection. */
async function startSecondApi(): Promise<{ app: NestExpressApplication; baseUrl: string }> {
  const { AppModule } = await import('../../apps/api/src/app.module');
  const moduleRef = await Test.createTestingModule({ imports: [AppModule.forRoot(loadConfig())] }).compile();
  const app = moduleRef.createNestApplication<NestExpressApplication>({ bodyParser: false, logger: false });
  configureHttpApp(app);
  shortenTimings(app);
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  return { app, baseUrl: `http://127.0.0.1:${port}` };
}

interface Frame {
  id: string | undefined;
  event: string | undefined;
  data: string | undefined;
  raw: string;
}

/** A server-sent event client over fetch that keeps every block it received, as received. */
class SseClient {
  readonly blocks: string[] = [];
  readonly frames: Frame[] = [];
  heartbeats = 0;
  text = '';
  ended = false;
  /** The response ended normally (a complete chunked body), not by a dropped connection. */
  endedCleanly = false;
  status = 0;
  headers!: Headers;
  private readonly abort = new AbortController();
  private reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  private closedByClient = false;
  private waiters: (() => void)[] = [];
  finished!: Promise<void>;

  static async open(url: string, cookie: string | undefined, lastEventId?: string): Promise<SseClient> {
    const client = new SseClient();
    const headers: Record<string, string> = { accept: 'text/event-stream' };
    if (cookie) headers.cookie = cookie;
    if (lastEventId !== undefined) headers['last-event-id'] = lastEventId;
    // A stream answers its headers at once (before any event): a request that gets none is a failure, named as one.
    const deadline = setTimeout(() => client.abort.abort(new Error(`no response headers within 10 s from ${url}`)), 10_000);
    const res = await fetch(url, { headers, signal: client.abort.signal }).finally(() => clearTimeout(deadline));
    client.status = res.status;
    client.headers = res.headers;
    client.finished = client.consume(res);
    return client;
  }

  private async consume(res: globalThis.Response): Promise<void> {
    const decoder = new TextDecoder();
    let pending = '';
    try {
      if (!res.body) return;
      const reader = (this.reader = res.body.getReader());
      for (;;) {
        const { value, done } = await reader.read();
        if (done) {
          this.endedCleanly = !this.closedByClient;
          break;
        }
        const chunk = decoder.decode(value, { stream: true });
        this.text += chunk;
        pending += chunk;
        let end: number;
        while ((end = pending.indexOf('\n\n')) !== -1) {
          const block = pending.slice(0, end);
          pending = pending.slice(end + 2);
          this.blocks.push(block);
          if (block === ': heartbeat') this.heartbeats += 1;
          else if (block.startsWith('id: ')) {
            const field = (name: string) =>
              block
                .split('\n')
                .find((l) => l.startsWith(`${name}: `))
                ?.slice(name.length + 2);
            this.frames.push({ id: field('id'), event: field('event'), data: field('data'), raw: block });
          }
          this.notify();
        }
      }
    } catch {
      // Aborted by the test, or the connection was dropped.
    } finally {
      this.ended = true;
      this.notify();
    }
  }

  private notify(): void {
    for (const w of this.waiters.splice(0)) w();
  }

  /** Resolves once `check` holds; fails after `timeoutMs`. */
  async until(check: (c: SseClient) => boolean, timeoutMs = 10_000, what = 'stream condition'): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!check(this)) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`${what} not met within ${timeoutMs} ms; received:\n${this.text.slice(-2000)}`);
      await new Promise<void>((r) => {
        // A condition poll like until()'s, woken early by every frame the stream receives.
        // eslint-disable-next-line timing/no-guessed-sleep
        const t = setTimeout(r, Math.min(left, 200));
        this.waiters.push(() => {
          clearTimeout(t);
          r();
        });
      });
    }
  }

  get sequences(): number[] {
    return this.frames.map((f) => Number(f.id));
  }

  /**
   * Aborts the request and cancels the body reader. The cancel is what settles a pending read for
   * certain: when the abort lands after the server completed the body but before fetch closed the
   * body stream (the server ends the stream right after `concluded`), Node's fetch leaves the
   * stream open and the read pending for ever.
   */
  close(): void {
    this.closedByClient = true;
    this.abort.abort();
    this.reader?.cancel().catch(() => undefined);
  }
}

describe('investigation event stream', () => {
  let api: TestApi;
  let second: { app: NestExpressApplication; baseUrl: string } | undefined;
  let producer: DataSource;
  let activity: ActivityService;
  let viewer: Client;
  let admin: Client;
  let apiClosed = false;
  let incidentId: string;

  const path = (investigationId: string) => `/api/v1/investigations/${investigationId}/events`;
  const open = (investigationId: string, lastEventId?: string, baseUrl = api.baseUrl) =>
    SseClient.open(`${baseUrl}${path(investigationId)}`, viewer.cookie, lastEventId);

  /** The worker's part: one activity row per transaction, through the real ActivityService. */
  const append = (investigationId: string, type: ActivityType, data: Record<string, unknown> = {}) =>
    producer.transaction((manager) => activity.append(manager, ORG, investigationId, type, data));

  async function newInvestigation(): Promise<string> {
    const res = await admin.post('/api/v1/investigations', { incidentId });
    if (res.status !== 201) throw new Error(`investigation not opened: ${res.status} ${res.text}`);
    return res.body.id as string;
  }

  const streamOf = (app: NestExpressApplication) => app.get(InvestigationEventStream, { strict: false });

  /**
   * Two API instances on one database, a producer and the users, for the enclosing describe block
   * (one block at a time: in one test process Passport keeps the strategy of the app created last).
   */
  const useApis = () => {
    beforeAll(async () => {
      apiClosed = false;
      api = await startApi();
      shortenTimings(api.app);
      producer = await new DataSource({
        ...dataSourceOptions({ url: api.databaseUrl, poolSize: 4, applicationName: 'svc-test-producer' }),
        entities: api.dataSource.entityMetadatas.map((m) => m.target as Function),
      }).initialize();
      activity = new ActivityService(
        new ScopedRepository(producer.getRepository('InvestigationActivity')),
        new InvestigationsRepository(producer),
        new Outbox(new OutboxRepository(producer)),
      );

      ({ admin } = await bootstrap(api));
      const integration = await admin.post('/api/v1/integrations', { type: 'generic', name: 'Generic' });
      const alert = await new Client(api.baseUrl).request('POST', `/webhooks/v1/integrations/${integration.body.id}/alert-events`, {
        body: { alerts: [{ labels: { alertname: 'CheckoutErrors' }, startsAt: '2026-11-22T02:00:00Z' }] },
        headers: { 'x-svc-token': integration.body.webhookSecret },
        origin: false,
      });
      if (alert.status !== 202) throw new Error(`alert not admitted: ${alert.status} ${alert.text}`);
      incidentId = alert.body.incidentIds[0];
      ({ client: viewer } = await signedInMember(api, ORG, 'viewer'));
      second = await startSecondApi();
    }, 90_000);

    afterAll(async () => {
      await second?.app.close();
      await producer?.destroy();
      if (!apiClosed) await api?.close();
      else await withServer((c) => c.query(`DROP DATABASE IF EXISTS "${new URL(api.databaseUrl).pathname.slice(1)}" WITH (FORCE)`));
    });
  };

  describe('served by two API instances', () => {
    useApis();

    it('answers 404 (plain JSON, no stream) for an unknown investigation', async () => {
      const res = await viewer.get(path('0190a000-0000-7000-8000-000000000000'));
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.body).toEqual({ error: expect.any(String) });
    });

    it('opens with retry: 2000, then sends each activity row as an exact id/event/data frame with the envelope', async () => {
      const investigationId = await newInvestigation();
      await append(investigationId, 'started', { reasoner: 'built-in' });
      await append(investigationId, 'progress', { message: 'Reading "alerts"\nline two', step: 1 });
      const client = await open(investigationId);
      try {
        expect(client.status).toBe(200);
        expect(client.headers.get('content-type')).toBe('text/event-stream');
        expect(client.headers.get('cache-control')).toBe('no-store');
        expect(client.headers.get('x-accel-buffering')).toBe('no');
        expect(client.headers.get('content-encoding')).toBeNull();
        expect(client.headers.get('x-request-id')).toMatch(/^[A-Za-z0-9._:-]+$/);
        await append(investigationId, 'tool.started', { tool: 'prometheus.query', toolRun: 1 });
        await client.until((c) => c.frames.length === 3);
        expect(client.text.startsWith('retry: 2000\n\n')).toBe(true);

        const rows = await producer.query(`SELECT sequence, type, at, data FROM investigation_activity WHERE investigation_id = $1 ORDER BY sequence`, [
          investigationId,
        ]);
        expect(rows.map((r: { type: string }) => r.type)).toEqual(['started', 'progress', 'tool.started']);
        client.frames.forEach((frame, i) => {
          const row = rows[i];
          const lines = frame.raw.split('\n');
          expect(lines).toHaveLength(3);
          expect(lines[0]).toBe(`id: ${row.sequence}`);
          expect(lines[1]).toBe(`event: ${row.type}`);
          expect(lines[2].startsWith('data: ')).toBe(true);
          const envelope = JSON.parse(lines[2].slice('data: '.length));
          expect(Object.keys(envelope)).toEqual(['sequence', 'type', 'investigationId', 'at', 'data']);
          expect(envelope).toEqual({
            sequence: row.sequence,
            type: row.type,
            investigationId,
            at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/),
            data: row.data,
          });
        });
        expect(JSON.parse(client.frames[1].data!).data.message).toBe('Reading "alerts"\nline two');
        expect(client.ended).toBe(false);
      } finally {
        client.close();
      }
    });

    it('leaves out hypothesis.updated, ends the response after a terminal event, and answers 204 at or past it', async () => {
      const investigationId = await newInvestigation();
      const client = await open(investigationId);
      await append(investigationId, 'started');
      await append(investigationId, 'hypothesis.updated', { hypotheses: [{ title: 'bad deploy' }] });
      await append(investigationId, 'progress', { step: 1 });
      await append(investigationId, 'hypothesis.updated', { hypotheses: [] });
      const concluded = await append(investigationId, 'concluded', { status: 'partial' });
      // Appended after the terminal event: never streamed.
      await append(investigationId, 'progress', { late: true });
      await client.until((c) => c.ended, 10_000, 'the stream to end after the terminal event');
      expect(client.endedCleanly).toBe(true);
      expect(client.frames.map((f) => f.event)).toEqual(['started', 'progress', 'concluded']);
      expect(client.sequences).toEqual([1, 3, 5]);
      expect(client.text).not.toContain('hypothesis');
      expect(client.text.endsWith(`id: ${concluded}\nevent: concluded\ndata: ${client.frames[2].data}\n\n`)).toBe(true);

      for (const cursor of [String(concluded), String(concluded + 1), '99999999999']) {
        const res = await fetch(`${api.baseUrl}${path(investigationId)}`, { headers: { cookie: viewer.cookie!, 'last-event-id': cursor } });
        expect(res.status).toBe(204);
        expect(await res.text()).toBe('');
      }
      // Before the terminal event: the rest, ending with it.
      const resumed = await open(investigationId, '3');
      await resumed.until((c) => c.ended);
      expect(resumed.status).toBe(200);
      expect(resumed.sequences).toEqual([5]);
    });

    it('serves the same stream under the Organization-addressed alias', async () => {
      const investigationId = await newInvestigation();
      await append(investigationId, 'started');
      await append(investigationId, 'cancelled', { by: 'someone' });
      const client = await SseClient.open(`${api.baseUrl}/api/v1/organizations/${ORG}/investigations/${investigationId}/events`, viewer.cookie);
      await client.until((c) => c.ended);
      expect(client.status).toBe(200);
      expect(client.frames.map((f) => [f.id, f.event])).toEqual([
        ['1', 'started'],
        ['2', 'cancelled'],
      ]);
    });

    it('refuses a malformed Last-Event-ID with 400 and the contract error body', async () => {
      const investigationId = await newInvestigation();
      for (const cursor of ['abc', '-1', '1.5', '1e3', '0x10']) {
        const res = await viewer.get(path(investigationId), { headers: { 'last-event-id': cursor } });
        expect(res.status).toBe(400);
        expect(res.headers.get('content-type')).toMatch(/^application\/json/);
        expect(Object.keys(res.body)).toEqual(['error']);
        expect(res.body.error).toMatch(/Last-Event-ID/);
      }
    });

    it('resumes strictly after Last-Event-ID with no gap and no duplicate while events are being appended', async () => {
      const investigationId = await newInvestigation();
      const total = 120;
      let appended = 0;
      const producing = (async () => {
        for (let i = 1; i <= total; i++) {
          await append(investigationId, i % 10 === 0 ? 'hypothesis.updated' : 'progress', { step: i });
          appended += 1;
        }
        await append(investigationId, 'concluded', { status: 'concluded' });
      })();

      const seen: number[] = [];
      let cursor: string | undefined;
      // Connect, take a few events, disconnect, resume from the last one: again and again until the end.
      for (let round = 0; round < 100; round++) {
        const client = await open(investigationId, cursor);
        if (client.status === 204) break;
        expect(client.status).toBe(200);
        await client.until((c) => c.ended || c.frames.length >= 7, 15_000);
        client.close();
        await client.until((c) => c.ended, 5_000, 'the closed client to end');
        seen.push(...client.sequences);
        if (client.frames.length > 0) cursor = client.frames[client.frames.length - 1].id;
        if (client.frames.some((f) => f.event === 'concluded')) break;
      }
      await producing;
      expect(appended).toBe(total);
      const expected = (
        await producer.query(`SELECT sequence FROM investigation_activity WHERE investigation_id = $1 AND type <> 'hypothesis.updated' ORDER BY sequence`, [
          investigationId,
        ])
      ).map((r: { sequence: number }) => r.sequence);
      expect(expected).toHaveLength(total - total / 10 + 1);
      expect(seen).toEqual(expected);
    }, 60_000);

    it('sends a heartbeat comment while idle, and none carries an event', async () => {
      const investigationId = await newInvestigation();
      await append(investigationId, 'started');
      const client = await open(investigationId);
      try {
        await client.until((c) => c.frames.length === 1 && c.heartbeats >= 2, 10_000, 'two heartbeats');
        expect(client.blocks[0]).toBe('retry: 2000');
        expect(client.blocks.slice(1).every((b) => b === ': heartbeat' || b.startsWith('id: '))).toBe(true);
        // Still open and still streaming after the idle period.
        await append(investigationId, 'progress');
        await client.until((c) => c.frames.length === 2);
        expect(client.ended).toBe(false);
      } finally {
        client.close();
      }
    });

    it('a client that disconnects is unsubscribed at once', async () => {
      const investigationId = await newInvestigation();
      const notifier = api.app.get(ActivityNotifier, { strict: false });
      const stream = streamOf(api.app);
      const before = stream.openCount;
      const client = await open(investigationId);
      await until(() => stream.openCount === before + 1, 5000, 'the stream to open');
      const subscribed = notifier.subscriberCount;
      expect(subscribed).toBeGreaterThan(0);
      client.close();
      await until(() => stream.openCount === before && notifier.subscriberCount === subscribed - 1, 5000, 'the stream to be forgotten');
      expect({ open: stream.openCount, subscribers: notifier.subscriberCount }).toEqual({ open: before, subscribers: subscribed - 1 });
    });

    it('drops a client that stops reading once a write misses the deadline', async () => {
      const investigationId = await newInvestigation();
      const big = 'x'.repeat(32 * 1024);
      // About 10 MB of frames: more than the kernel buffers on both sides of a loopback connection hold.
      await producer.transaction(async (manager) => {
        for (let i = 0; i < 300; i++) await activity.append(manager, ORG, investigationId, 'progress', { i, big });
      });
      const stream = streamOf(api.app);
      const before = stream.openCount;
      const url = new URL(api.baseUrl);
      const socket: Socket = connect(Number(url.port), url.hostname);
      let received = 0;
      try {
        await new Promise<void>((r, reject) => {
          socket.once('connect', () => r());
          socket.once('error', reject);
        });
        socket.write(`GET ${path(investigationId)} HTTP/1.1\r\nHost: ${url.host}\r\nCookie: ${viewer.cookie}\r\nAccept: text/event-stream\r\n\r\n`);
        // Read the first bytes (the response is a stream), then never read again.
        await new Promise<void>((r) =>
          socket.once('data', (d: Buffer) => {
            received += d.length;
            r();
          }),
        );
        socket.pause();
        await until(() => stream.openCount === before + 1, 5000, 'the stream to open');
        // The stream cannot finish (no terminal event, the client does not read): only the deadline ends it.
        await until(() => stream.openCount === before, WRITE_DEADLINE_MS + 10_000, 'the stalled stream to be dropped');
        expect(received).toBeLessThan(10 * 1024 * 1024);
      } finally {
        socket.destroy();
      }
      // A reading client gets everything.
      const client = await open(investigationId);
      try {
        await client.until((c) => c.frames.length === 300, 20_000);
        expect(client.sequences).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
      } finally {
        client.close();
      }
    }, 60_000);

    it('wakes clients of two API instances for events appended by a third party, also after their LISTEN connections were cut', async () => {
      const investigationId = await newInvestigation();
      const a = await open(investigationId);
      const b = await open(investigationId, undefined, second!.baseUrl);
      try {
        expect([a.status, b.status]).toEqual([200, 200]);
        await until(() => streamOf(api.app).openCount > 0 && streamOf(second!.app).openCount > 0);
        await append(investigationId, 'started');
        await append(investigationId, 'progress', { step: 1 });
        await a.until((c) => c.frames.length === 2, 5000, 'instance A to be woken');
        await b.until((c) => c.frames.length === 2, 5000, 'instance B to be woken');

        // Cut every activity LISTEN connection of this database; the notification of the next event
        // may well be lost, but the reconnect wakes every stream and it re-reads.
        const cut = await producer.query(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'svc-activity-listener'`,
        );
        expect(cut.length).toBe(2);
        await append(investigationId, 'tool.started', { tool: 'prometheus.query' });
        await a.until((c) => c.frames.length === 3, 15_000, 'instance A to catch up after reconnecting');
        await b.until((c) => c.frames.length === 3, 15_000, 'instance B to catch up after reconnecting');
        await until(
          async () =>
            (await producer.query(`SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'svc-activity-listener'`))
              .length === 2,
          15_000,
          'both listeners back',
        );
        await append(investigationId, 'concluded', { status: 'concluded' });
        await a.until((c) => c.ended);
        await b.until((c) => c.ended);
        expect(a.sequences).toEqual([1, 2, 3, 4]);
        expect(b.sequences).toEqual([1, 2, 3, 4]);
      } finally {
        a.close();
        b.close();
      }
    }, 60_000);

    describe('through the supplied nginx configuration', () => {
      let nginx: ChildProcess | undefined;
      let prefix: string;
      let proxyUrl: string;

      beforeAll(async () => {
        // nginx is part of the test environment (.ci/run installs it): its absence fails, never skips.
        if (spawnSync('nginx', ['-v']).status !== 0) throw new Error('nginx is not installed (apt-get install nginx)');
        prefix = mkdtempSync(join(tmpdir(), 'svc-nginx-'));
        const port = await freePort();
        const upstream = new URL(api.baseUrl).host;
        // docker/nginx.conf as shipped, with only the upstream and the listen port changed.
        const conf = readFileSync(resolve(__dirname, '../../docker/nginx.conf'), 'utf8')
          .replace(/server api:8080;/, `server ${upstream};`)
          .replace(/listen 80;/, `listen 127.0.0.1:${port};`)
          .replace(/worker_processes auto;/, 'worker_processes 1;');
        expect(conf).toContain(`server ${upstream};`);
        expect(conf).toContain('proxy_buffering off;');
        writeFileSync(join(prefix, 'nginx.conf'), conf);
        // Its access log goes to /dev/stdout, which cannot be opened on a pipe: give it a file.
        const log = openSync(join(prefix, 'nginx.out'), 'w');
        nginx = spawn('nginx', ['-c', join(prefix, 'nginx.conf'), '-p', prefix, '-g', 'daemon off;'], { stdio: ['ignore', log, log] });
        closeSync(log);
        const output = () => readFileSync(join(prefix, 'nginx.out'), 'utf8');
        proxyUrl = `http://127.0.0.1:${port}`;
        await until(
          async () => {
            if (nginx!.exitCode !== null) throw new Error(`nginx exited:\n${output()}`);
            try {
              return (await fetch(`${proxyUrl}/api/v1/meta`)).status === 200;
            } catch {
              return false;
            }
          },
          15_000,
          'nginx to answer',
        );
      }, 30_000);

      afterAll(async () => {
        if (nginx && nginx.exitCode === null) {
          await new Promise<void>((r) => {
            nginx!.once('exit', () => r());
            nginx!.kill('SIGQUIT');
          });
        }
        if (prefix) rmSync(prefix, { recursive: true, force: true });
      });

      it('delivers each event as it is written (unbuffered), in order, and closes on the terminal event', async () => {
        const investigationId = await newInvestigation();
        const client = await open(investigationId, undefined, proxyUrl);
        try {
          expect(client.status).toBe(200);
          expect(client.headers.get('content-type')).toBe('text/event-stream');
          await client.until((c) => c.blocks[0] === 'retry: 2000', 5000, 'the retry line through nginx');
          // One event at a time: each must arrive before the next one exists, so nothing sits in a buffer.
          const types: ActivityType[] = ['started', 'progress', 'tool.started', 'tool.completed', 'progress', 'concluded'];
          for (const [i, type] of types.entries()) {
            await append(investigationId, type, { step: i });
            await client.until((c) => c.frames.length === i + 1, 3000, `event ${i + 1} through nginx`);
          }
          await client.until((c) => c.ended, 5000, 'the stream to end through nginx');
          expect(client.sequences).toEqual([1, 2, 3, 4, 5, 6]);
          expect(client.frames.map((f) => f.event)).toEqual(types);
          // Heartbeats pass as well (the proxy would otherwise close an idle stream after 60 s).
          expect(client.blocks.every((b) => b === 'retry: 2000' || b === ': heartbeat' || b.startsWith('id: '))).toBe(true);
        } finally {
          client.close();
        }
        const terminal = await fetch(`${proxyUrl}${path(investigationId)}`, { headers: { cookie: viewer.cookie!, 'last-event-id': '6' } });
        expect(terminal.status).toBe(204);
      });
    });
  });

  // Its own instances: this test shuts one down, which the other tests' streams need.
  describe('when an API instance shuts down', () => {
    useApis();

    it('ends every open stream at shutdown so the instance can stop; the client resumes on another instance', async () => {
      const investigationId = await newInvestigation();
      await append(investigationId, 'started');
      // Instance A goes away, B stays (in one test process Passport keeps the strategy of the app
      // created last, B's, for both: closing B first would break A's authentication, not its streams).
      const client = await open(investigationId);
      await client.until((c) => c.frames.length === 1);
      // Closing resolves only once every stream has ended: that it resolves is what is tested.
      await api.app.close();
      apiClosed = true;
      await client.until((c) => c.ended, 5000, 'the stream to end at shutdown');
      // Ended, not dropped: the response is complete.
      expect(client.endedCleanly).toBe(true);
      await append(investigationId, 'progress');
      const resumed = await open(investigationId, client.frames[0].id, second!.baseUrl);
      try {
        await resumed.until((c) => c.frames.length === 1);
        expect(resumed.sequences).toEqual([2]);
      } finally {
        resumed.close();
      }
    }, 30_000);
  });
});
