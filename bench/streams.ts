import { ChildProcess, spawn } from 'node:child_process';
import { Agent, IncomingMessage, request } from 'node:http';
import { connect, Socket } from 'node:net';
import { cpus as cpuList } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { ACTIVITY_CHANNEL } from '@svc/investigations';
import {
  apiJson,
  cpuSeconds,
  deliver,
  freePort,
  genericIntegration,
  machineTicks,
  Memory,
  percentile,
  settledMemory,
  sleep,
  startApi,
  stopApi,
  stopChild,
} from './support';

/**
 * Event streams: STREAMS concurrent `GET /api/v1/investigations/{id}/events` held by one API
 * process. Resident memory per stream (against an idle keep-alive connection, measured in the same
 * run), then the delay from each appended event's commit to its arrival at every client, and that
 * every client gets every event once, in order, and that every stream ends after the terminal
 * event. Delivery baselines in the same run: a bare LISTEN client in this process receiving the
 * same NOTIFY, and the floor of a fan-out (bench/sse-floor.ts: one read per NOTIFY shared by all
 * streams, bare node:http) serving the same clients the same events.
 */
const arg = (name: string): string | undefined => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
/** `--streams=N` (default 1000), `--stream-events=N` (default 50), `--stream-event-ms=N` between appends (default 100). */
const STREAMS = Number(arg('streams') ?? 1000);
const EVENTS = Number(arg('stream-events') ?? 50);
const EVENT_EVERY_MS = Number(arg('stream-event-ms') ?? 100);
/** Streams opened at once (the listen backlog is 511). */
const OPEN_CONCURRENCY = 200;
const WARM_UP_STREAMS = 20;
const TARGET_KIB_PER_STREAM = 50;
const TARGET_P99_MS = 100;
const cpus = cpuList().length;

export interface StreamsContext {
  /** The bench's API, for the setup. */
  port: number;
  cookie: string;
  databaseUrl: string;
  /** The bench API's environment: the section's own API processes run with it, on their own ports. */
  env: Record<string, string>;
  profileDir?: string;
  organizationId: string;
}

interface Received {
  sequence: number;
  type: string;
  dataSequence: number;
  at: number;
}

/** One SSE client: parses `retry:`/`id:`/`event:`/`data:` frames and stamps each with its chunk's arrival time. */
class StreamClient {
  status = 0;
  opened = false;
  ended = false;
  error?: string;
  readonly events: Received[] = [];
  /** Time from the request to the `retry:` preamble. */
  openMs = NaN;
  private buffer = '';
  private res?: IncomingMessage;

  constructor(private readonly started: number) {}

  static open(port: number, path: string, cookie: string, agent: Agent): Promise<StreamClient> {
    const client = new StreamClient(performance.now());
    return new Promise((resolve) => {
      const req = request({ host: '127.0.0.1', port, path, agent, headers: { cookie, accept: 'text/event-stream' } }, (res) => {
        client.res = res;
        client.status = res.statusCode ?? 0;
        if (client.status !== 200) {
          client.error = `HTTP ${client.status}`;
          res.resume();
          resolve(client);
          return;
        }
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          client.receive(chunk, performance.now());
          if (client.opened) resolve(client);
        });
        res.on('end', () => {
          client.ended = true;
          resolve(client);
        });
        res.on('error', (error) => {
          client.error ??= error.message;
          resolve(client);
        });
      });
      req.on('error', (error) => {
        client.error ??= error.message;
        resolve(client);
      });
      req.end();
    });
  }

  close(): void {
    this.res?.destroy();
  }

  private receive(chunk: string, at: number): void {
    this.buffer += chunk;
    let end: number;
    while ((end = this.buffer.indexOf('\n\n')) >= 0) {
      const frame = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      let id: string | undefined;
      let type = 'message';
      let data = '';
      for (const line of frame.split('\n')) {
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'retry') {
          if (!this.opened) this.openMs = at - this.started;
          this.opened = true;
        } else if (field === 'id') id = value;
        else if (field === 'event') type = value;
        else if (field === 'data') data += data ? `\n${value}` : value;
      }
      if (id !== undefined) {
        let dataSequence = NaN;
        try {
          dataSequence = (JSON.parse(data) as { sequence: number }).sequence;
        } catch {
          /* counted as a mismatch */
        }
        this.events.push({ sequence: Number(id), type, dataSequence, at });
      }
    }
  }
}

/** An idle keep-alive HTTP/1.1 connection after one `GET /api/v1/meta` (a plain socket, so each is its own connection). */
function idleKeepAlive(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.setEncoding('latin1');
    socket.once('connect', () => socket.write(`GET /api/v1/meta HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: keep-alive\r\n\r\n`));
    socket.on('data', (chunk: string) => {
      text += chunk;
      const head = text.indexOf('\r\n\r\n');
      if (head < 0) return;
      if (!text.startsWith('HTTP/1.1 200')) {
        reject(new Error(`GET /api/v1/meta: ${text.slice(0, text.indexOf('\r\n'))}`));
        socket.destroy();
        return;
      }
      const length = /\r\ncontent-length:\s*(\d+)/i.exec(text.slice(0, head + 2))?.[1];
      const complete = length !== undefined ? text.length - head - 4 >= Number(length) : text.endsWith('\r\n0\r\n\r\n');
      if (complete) {
        socket.removeAllListeners('data');
        resolve(socket);
      }
    });
    socket.on('error', reject);
  });
}

/**
 * The API's memory after a full collection (the API runs with the bench's gc-on-signal preload,
 * which also writes V8's figures to apiMemoryFile(port)), so garbage from the requests just served is
 * not counted as held.
 */
interface Appended {
  sequence: number;
  type: string;
  committedAt: number;
}

/** ActivityService.append's statements, in one transaction of this client; the time is taken when COMMIT returns. */
async function append(
  db: Client,
  organizationId: string,
  investigationId: string,
  type: string,
  data: Record<string, unknown>,
  extra?: string,
): Promise<Appended> {
  await db.query('BEGIN');
  try {
    const { rows } = await db.query<{ last_sequence: number }>(
      'UPDATE investigations SET last_sequence = last_sequence + 1, updated_at = clock_timestamp() WHERE organization_id = $1 AND id = $2 RETURNING last_sequence',
      [organizationId, investigationId],
    );
    const sequence = rows[0].last_sequence;
    await db.query(
      'INSERT INTO investigation_activity (organization_id, id, investigation_id, sequence, type, at, data) VALUES ($1, gen_random_uuid(), $2, $3, $4, clock_timestamp(), $5)',
      [organizationId, investigationId, sequence, type, JSON.stringify(data)],
    );
    if (extra) await db.query(extra, [organizationId, investigationId]);
    await db.query('SELECT pg_notify($1, $2)', [ACTIVITY_CHANNEL, `${organizationId}/${investigationId}/${sequence}`]);
    await db.query('COMMIT');
    return { sequence, type, committedAt: performance.now() };
  } catch (error) {
    await db.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

const fmt = (n: number, digits = 1): string => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');

interface Round {
  delays: number[];
  terminalDelays: number[];
  firstDelays: number[];
  spreads: number[];
  listenDelays: number[];
  expected: number;
  exact: number;
  missing: number;
  duplicated: number;
  outOfOrder: number;
  mismatched: number;
  ended: number;
  errored: number;
  endedWithin: number;
  /** CPU seconds of the serving process per second of the events phase. */
  cpuShare: number;
  cpuMicrosPerDelivery: number;
  /** Busy share of all CPUs during the events phase. */
  machineShare: number;
}

/**
 * EVENTS progress events every EVENT_EVERY_MS, then the terminal `concluded` (which also ends the
 * investigation, as the engine does, so no worker takes it up later); waits for every stream to end
 * and checks what each got: the appended sequences exactly, once each, in order, ids matching data.
 */
async function deliveryRound(
  db: Client,
  listened: Map<string, number>,
  organizationId: string,
  investigationId: string,
  clients: StreamClient[],
  servingPid: number,
): Promise<Round> {
  const appended: Appended[] = [];
  const cpuBefore = cpuSeconds(servingPid);
  const machineBefore = machineTicks();
  const t0 = performance.now();
  for (let i = 0; i < EVENTS; i++) {
    const wait = t0 + i * EVENT_EVERY_MS - performance.now();
    if (wait > 0) await sleep(wait);
    appended.push(await append(db, organizationId, investigationId, 'progress', { message: `Bench progress ${i + 1} of ${EVENTS}` }));
  }
  await sleep(EVENT_EVERY_MS);
  const eventsSeconds = (performance.now() - t0) / 1000;
  const cpuShare = (cpuSeconds(servingPid) - cpuBefore) / eventsSeconds;
  const machineAfter = machineTicks();
  const machineShare = (machineAfter.busy - machineBefore.busy) / Math.max(1, machineAfter.total - machineBefore.total);
  const terminal = await append(
    db,
    organizationId,
    investigationId,
    'concluded',
    { status: 'concluded', conclusionStatus: 'inconclusive', stoppedBy: null, summary: 'Bench stream ended' },
    `UPDATE investigations SET status = 'concluded', conclusion_status = 'inconclusive', summary = 'Bench stream ended', concluded_at = clock_timestamp() WHERE organization_id = $1 AND id = $2`,
  );
  appended.push(terminal);
  const endDeadline = performance.now() + 15_000;
  while (clients.some((c) => !c.ended && !c.error) && performance.now() < endDeadline) await sleep(20);
  const endedWithin = (performance.now() - terminal.committedAt) / 1000;

  const expected = appended.map((a) => a.sequence);
  const committedAt = new Map(appended.map((a) => [a.sequence, a.committedAt]));
  const r: Round = {
    delays: [],
    terminalDelays: [],
    firstDelays: [],
    spreads: [],
    listenDelays: [],
    expected: expected.length,
    exact: 0,
    missing: 0,
    duplicated: 0,
    outOfOrder: 0,
    mismatched: 0,
    ended: clients.filter((c) => c.ended).length,
    errored: clients.filter((c) => c.error).length,
    endedWithin,
    cpuShare,
    cpuMicrosPerDelivery: (cpuShare * eventsSeconds * 1e6) / (EVENTS * clients.length),
    machineShare,
  };
  const firstArrival = new Map<number, number>();
  const lastArrival = new Map<number, number>();
  for (const c of clients) {
    const got = c.events.map((e) => e.sequence);
    if (got.length === expected.length && got.every((s, i) => s === expected[i])) r.exact += 1;
    const seen = new Set<number>();
    let previous = -Infinity;
    for (const e of c.events) {
      if (seen.has(e.sequence)) r.duplicated += 1;
      if (e.sequence <= previous) r.outOfOrder += 1;
      if (e.dataSequence !== e.sequence) r.mismatched += 1;
      seen.add(e.sequence);
      previous = e.sequence;
      const committed = committedAt.get(e.sequence);
      if (committed === undefined) continue;
      (e.sequence === terminal.sequence ? r.terminalDelays : r.delays).push(e.at - committed);
      firstArrival.set(e.sequence, Math.min(firstArrival.get(e.sequence) ?? Infinity, e.at));
      lastArrival.set(e.sequence, Math.max(lastArrival.get(e.sequence) ?? -Infinity, e.at));
    }
    r.missing += expected.filter((s) => !seen.has(s)).length;
  }
  const progress = appended.filter((a) => a !== terminal);
  const ascending = (values: number[]): number[] => values.sort((a, b) => a - b);
  ascending(r.delays);
  ascending(r.terminalDelays);
  r.firstDelays = ascending(progress.filter((a) => firstArrival.has(a.sequence)).map((a) => firstArrival.get(a.sequence)! - a.committedAt));
  r.spreads = ascending(progress.filter((a) => firstArrival.has(a.sequence)).map((a) => lastArrival.get(a.sequence)! - firstArrival.get(a.sequence)!));
  r.listenDelays = ascending(
    progress.map((a) => (listened.get(`${organizationId}/${investigationId}/${a.sequence}`) ?? NaN) - a.committedAt).filter((d) => !Number.isNaN(d)),
  );
  return r;
}

/** The delivery floor (bench/sse-floor.ts) as its own process; resolves with its port. */
async function startFloor(databaseUrl: string, organizationId: string, investigationId: string): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, [join(__dirname, 'sse-floor.js')], {
    env: {
      PATH: process.env.PATH ?? '',
      DATABASE_URL: databaseUrl,
      BENCH_ORGANIZATION: organizationId,
      BENCH_INVESTIGATION: investigationId,
      BENCH_CHANNEL: ACTIVITY_CHANNEL,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const match = /port (\d+)/.exec(out);
        if (match) resolve(Number(match[1]));
      });
      child.once('exit', (code) => reject(new Error(`sse-floor exited with ${code}`)));
    });
    child.stdout!.resume();
    return { child, port };
  } catch (error) {
    await stopChild(child);
    throw error;
  }
}

/** Runs `open` for `count` items, at most OPEN_CONCURRENCY at a time, in order of start. */
async function limited<T>(count: number, open: () => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(OPEN_CONCURRENCY, count) }, async () => {
      while (next < count) {
        next += 1;
        out.push(await open());
      }
    }),
  );
  return out;
}

export async function streamsSection(ctx: StreamsContext): Promise<void> {
  const { port, cookie, databaseUrl, env, profileDir, organizationId } = ctx;
  // Set up through the bench's API; the streams are held by fresh API processes (below).
  const integration = await genericIntegration(port, cookie, 'Bench streams');
  const [incidentId] = await deliver(port, integration, {
    alerts: [{ labels: { alertname: 'BenchStreams', service: 'streams' }, startsAt: new Date().toISOString() }],
  });
  const { id: investigationId } = await apiJson<{ id: string }>(port, cookie, 'POST', '/api/v1/investigations', { incidentId }, [201]);
  const { id: floorInvestigationId } = await apiJson<{ id: string }>(port, cookie, 'POST', '/api/v1/investigations', { incidentId }, [201]);
  const path = `/api/v1/investigations/${investigationId}/events`;

  const db = new Client({ connectionString: databaseUrl, application_name: 'bench-appender' });
  const listener = new Client({ connectionString: databaseUrl, application_name: 'bench-listen-baseline' });
  const streamAgent = new Agent({ keepAlive: true, maxSockets: Infinity, maxFreeSockets: Infinity });
  let clients: StreamClient[] = [];
  let floorClients: StreamClient[] = [];
  let idle: Socket[] = [];
  let api: ChildProcess | undefined;
  let floor: { child: ChildProcess; port: number } | undefined;
  try {
    await db.connect();
    await listener.connect();
    // The payload `<organization>/<investigation>/<sequence>` → when this process got it.
    const listened = new Map<string, number>();
    listener.on('notification', (message) => {
      if (message.channel === ACTIVITY_CHANNEL && message.payload) listened.set(message.payload, performance.now());
    });
    await listener.query(`LISTEN ${ACTIVITY_CHANNEL}`);

    // Memory is read in fresh API processes, so what earlier sections left in the heap (and the
    // pages it keeps) does not hide or inflate it: one for the baseline, one for the streams, each
    // warmed up the same way (a few of its connections opened and closed) before it is read.
    const basePort = await freePort();
    api = await startApi(env, basePort, profileDir);
    for (const s of await limited(WARM_UP_STREAMS, () => idleKeepAlive(basePort))) s.destroy();
    await sleep(500);
    const idleBefore = await settledMemory(api.pid!, basePort);
    const idleStarted = performance.now();
    idle = await limited(STREAMS, () => idleKeepAlive(basePort));
    const idleOpenSeconds = (performance.now() - idleStarted) / 1000;
    // The server closes idle keep-alive connections after keepAliveTimeout (5 s): read well before.
    const withIdle = await settledMemory(api.pid!, basePort);
    const idleStillOpen = idle.filter((s) => !s.destroyed && s.readyState === 'open').length;
    for (const s of idle) s.destroy();
    idle = [];
    await stopApi(api);

    const streamPort = await freePort();
    api = await startApi(env, streamPort, profileDir);
    // Warm-up: the API's LISTEN connection, its pool and the code paths, then closed again.
    for (const c of await limited(WARM_UP_STREAMS, () => StreamClient.open(streamPort, path, cookie, streamAgent))) c.close();
    await sleep(500);
    const before = await settledMemory(api.pid!, streamPort);
    const openStarted = performance.now();
    clients = await limited(STREAMS, () => StreamClient.open(streamPort, path, cookie, streamAgent));
    const openSeconds = (performance.now() - openStarted) / 1000;
    const refused = clients.filter((c) => !c.opened);
    if (refused.length > 0)
      throw new Error(`${refused.length} of ${STREAMS} streams did not open: ${[...new Set(refused.map((c) => c.error ?? 'no preamble'))].join(', ')}`);
    await sleep(1000);
    const withStreams = await settledMemory(api.pid!, streamPort);
    const perStream = (field: keyof Memory): number => (withStreams[field] - before[field]) / STREAMS;
    const perIdle = (field: keyof Memory): number => (withIdle[field] - idleBefore[field]) / STREAMS;
    const perStreamKiB = perStream('rssKiB');
    const perIdleKiB = perIdle('rssKiB');
    const openTimes = clients.map((c) => c.openMs).sort((a, b) => a - b);
    await sleep(500);

    // Delivery through the API, then through the floor (its own process, the API stopped).
    const apiRound = await deliveryRound(db, listened, organizationId, investigationId, clients, api.pid!);
    for (const c of clients) c.close();
    await stopApi(api);
    api = undefined;
    floor = await startFloor(databaseUrl, organizationId, floorInvestigationId);
    const floorPort = floor.port;
    floorClients = await limited(STREAMS, () => StreamClient.open(floorPort, '/', cookie, streamAgent));
    if (floorClients.some((c) => !c.opened)) throw new Error("the floor's streams did not all open");
    await sleep(1000);
    const floorRound = await deliveryRound(db, listened, organizationId, floorInvestigationId, floorClients, floor.child.pid!);
    const pass = (ok: boolean): string => (ok ? 'met' : 'MISSED');
    const row = (name: string, values: number[], target = '', digits = 1): string =>
      `| ${name} | ${values.length} | ${fmt(percentile(values, 50), digits)} | ${fmt(percentile(values, 99), digits)} | ${fmt(values[values.length - 1], digits)} | ${target} |`;

    console.log(
      `\nEvent streams: ${STREAMS} concurrent SSE streams of one investigation held by one (fresh) API process, loopback;` +
        ` ${EVENTS} events appended every ${EVENT_EVERY_MS} ms (ActivityService.append's SQL, one transaction each), then \`concluded\`.` +
        ` Memory read after a full GC (SIGWINCH to the API's --expose-gc preload); the baseline's ${STREAMS} idle keep-alive connections in another fresh API process, warmed up the same way.` +
        ` Delivery floor: the same clients and events through a bare node:http SSE process that reads each NOTIFY's rows once for all streams (bench/sse-floor.ts). ${cpus} CPUs.\n`,
    );
    console.log('| memory | value | target |');
    console.log('|---|---:|---|');
    console.log(`| API RSS before / with ${STREAMS} idle streams (MiB) | ${fmt(before.rssKiB / 1024)} / ${fmt(withStreams.rssKiB / 1024)} | |`);
    console.log(`| per open idle stream: RSS (KiB) | ${fmt(perStreamKiB)} | < ${TARGET_KIB_PER_STREAM}: ${pass(perStreamKiB < TARGET_KIB_PER_STREAM)} |`);
    console.log(`| … V8 heap used / external (KiB) | ${fmt(perStream('heapUsedKiB'))} / ${fmt(perStream('externalKiB'))} | |`);
    console.log(
      `| baseline API RSS before / with ${STREAMS} idle keep-alive connections (MiB) | ${fmt(idleBefore.rssKiB / 1024)} / ${fmt(withIdle.rssKiB / 1024)} | |`,
    );
    console.log(
      `| baseline: per idle keep-alive connection after one GET /api/v1/meta: RSS (KiB; ${idleStillOpen} of ${STREAMS} still open when read) | ${fmt(perIdleKiB)} | |`,
    );
    console.log(`| … V8 heap used / external (KiB) | ${fmt(perIdle('heapUsedKiB'))} / ${fmt(perIdle('externalKiB'))} | |`);
    console.log(
      `| ratio stream / keep-alive connection: RSS / V8 heap used | ${fmt(perStreamKiB / perIdleKiB, 2)} / ${fmt(perStream('heapUsedKiB') / perIdle('heapUsedKiB'), 2)} | |`,
    );
    console.log(
      `| opening: ${STREAMS} streams (${OPEN_CONCURRENCY} at a time) / ${STREAMS} keep-alive connections (s) | ${fmt(openSeconds, 2)} / ${fmt(idleOpenSeconds, 2)} | |`,
    );
    console.log(
      `| time to the \`retry\` preamble p50 / p99 / max (ms) | ${fmt(percentile(openTimes, 50))} / ${fmt(percentile(openTimes, 99))} / ${fmt(openTimes[openTimes.length - 1])} | |`,
    );
    console.log('\n| delivery delay, commit → arrival (ms) | pairs | p50 | p99 | max | target |');
    console.log('|---|---:|---:|---:|---:|---|');
    console.log(row('API: every (stream, event)', apiRound.delays, `p99 < ${TARGET_P99_MS}: ${pass(percentile(apiRound.delays, 99) < TARGET_P99_MS)}`));
    console.log(row('API: first stream to get each event', apiRound.firstDelays));
    console.log(row('API: fan-out spread per event (last − first arrival)', apiRound.spreads));
    console.log(row('API: terminal `concluded`', apiRound.terminalDelays));
    console.log(row('floor (one read per NOTIFY, bare node:http): every (stream, event)', floorRound.delays));
    console.log(row('floor: fan-out spread per event', floorRound.spreads));
    console.log(
      row(
        'baseline: bare LISTEN client in the bench process, same NOTIFY',
        [...apiRound.listenDelays, ...floorRound.listenDelays].sort((a, b) => a - b),
        '',
        2,
      ),
    );
    console.log(
      `\nRatio of p99 delivery, API / floor: ${fmt(percentile(apiRound.delays, 99) / percentile(floorRound.delays, 99), 1)}.` +
        ` CPU while the events were appended: API process ${fmt(apiRound.cpuShare * 100, 0)}% of one core (${fmt(apiRound.cpuMicrosPerDelivery, 0)} µs per stream-event),` +
        ` floor process ${fmt(floorRound.cpuShare * 100, 0)}% (${fmt(floorRound.cpuMicrosPerDelivery, 0)} µs); whole machine ${fmt(apiRound.machineShare * 100, 0)}% / ${fmt(floorRound.machineShare * 100, 0)}% of ${cpus} CPUs.`,
    );
    for (const [name, r] of [
      ['API', apiRound],
      ['floor', floorRound],
    ] as const) {
      console.log(
        `Completeness (${name}): ${r.exact} of ${STREAMS} streams got exactly the ${r.expected} events once each in order (missing ${r.missing}, duplicated ${r.duplicated},` +
          ` out of order ${r.outOfOrder}, id ≠ data.sequence ${r.mismatched}); ${r.ended} of ${STREAMS} ended after \`concluded\` (within ${fmt(r.endedWithin, 2)} s of its commit), ${r.errored} errored.`,
      );
    }
  } finally {
    for (const s of idle) s.destroy();
    for (const c of [...clients, ...floorClients]) c.close();
    streamAgent.destroy();
    if (api) await stopApi(api);
    await stopChild(floor?.child);
    // A round that did not get to its terminal event leaves its investigation queued: no worker of a later section should take it up.
    await db
      .query("UPDATE investigations SET status = 'cancelled', concluded_at = clock_timestamp() WHERE id = ANY($1) AND status = 'queued'", [
        [investigationId, floorInvestigationId],
      ])
      .catch(() => undefined);
    await db.end().catch(() => undefined);
    await listener.end().catch(() => undefined);
  }
}
