import { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { Client as PgClient } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiProcess, startApiProcess } from '../support/api-process';
import { createTestDatabase } from '../support/databases';
import { freePort } from '../support/ports';
import { until } from '../support/until';

/** Every delivery carries the same alert but for its `seq` label, so each is a new phase of its own alert. */
const STARTS_AT = '2026-11-22T02:00:00Z';
const GROUP_KEY = '{alertname="Crash",service="s"}';
const SENDERS = 8;
/**
 * Where the kill lands varies per run, from a seed that is printed: ADMISSION_CRASH_SEED=<seed>
 * replays a run's kill point.
 */
const SEED = Number(process.env.ADMISSION_CRASH_SEED ?? Math.floor(Math.random() * 2 ** 31));
/** mulberry32: a small deterministic generator, so one seed gives one kill point. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = seeded(SEED);
/** The stream is killed once this many deliveries have been acknowledged (150-300)... */
const KILL_AFTER = 150 + Math.floor(random() * 151);
/** ...plus 0-20 ms, so the kill lands at no particular point of an admission. */
const KILL_JITTER_MS = Math.floor(random() * 21);
console.log(`[admission-crash] seed ${SEED}: kill after ${KILL_AFTER} acknowledged + ${KILL_JITTER_MS} ms (ADMISSION_CRASH_SEED=${SEED} replays it)`);
/** Bound on the stream: the kill must come long before this. */
const MAX_SEQS = 2_000;
const REQUEST_TIMEOUT_MS = 15_000;

type Outcome = { kind: 'status'; status: number; body: unknown } | { kind: 'error'; code: string };

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** The delivery of `seq`: the same alert but for its `seq` label. */
const deliveryBody = (seq: number): string =>
  JSON.stringify({ alerts: [{ labels: { alertname: 'Crash', service: 's', seq: String(seq) }, startsAt: STARTS_AT }] });

/** Sends one delivery; a transport failure (reset, refused, timeout) is an outcome, not a throw. */
async function deliver(baseUrl: string, integration: { id: string; secret: string }, seq: number): Promise<Outcome> {
  const body = deliveryBody(seq);
  try {
    const res = await fetch(`${baseUrl}/webhooks/v1/integrations/${integration.id}/alert-events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-svc-token': integration.secret },
      body,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      /* not JSON: keep the text */
    }
    return { kind: 'status', status: res.status, body: parsed };
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return { kind: 'error', code: cause?.code ?? cause?.message ?? (error as Error).name };
  }
}

/**
 * Sends one delivery with node:http, telling when its request has been handed whole to the socket
 * (`written`: the API may be reading or committing it, and has not answered yet) and what came of it.
 */
function deliverWritten(baseUrl: string, integration: { id: string; secret: string }, seq: number): { written: Promise<void>; outcome: Promise<Outcome> } {
  const body = deliveryBody(seq);
  let written!: () => void;
  const whenWritten = new Promise<void>((resolve) => (written = resolve));
  const outcome = new Promise<Outcome>((resolve) => {
    const req = request(
      `${baseUrl}/webhooks/v1/integrations/${integration.id}/alert-events`,
      { method: 'POST', headers: { 'content-type': 'application/json', 'x-svc-token': integration.secret }, timeout: REQUEST_TIMEOUT_MS },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ kind: 'status', status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
        res.on('error', (error: NodeJS.ErrnoException) => resolve({ kind: 'error', code: error.code ?? error.message }));
      },
    );
    req.on('finish', written);
    req.on('timeout', () => req.destroy(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })));
    req.on('error', (error: NodeJS.ErrnoException) => {
      written();
      resolve({ kind: 'error', code: error.code ?? error.message });
    });
    req.end(body);
  });
  return { written: whenWritten, outcome };
}

/**
 * SIGKILL of the API in the middle of a stream of deliveries: a 202 means committed (decisions §8),
 * so every acknowledged delivery is stored exactly once, and re-sending any of them afterwards is
 * either its first admission (202) or an exact retry (200), never a duplicate.
 */
describe('alert admission survives SIGKILL of the API', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let port: number;
  let baseUrl: string;
  let env: Record<string, string>;
  let api: ApiProcess | undefined;
  let cookie: string;
  let integration: { id: string; secret: string };
  let pg: PgClient;

  // What the stream and its kill left behind, for both tests (whichever runs first does the kill).
  const acknowledged = new Set<number>();
  const failed = new Map<number, string>();
  const refused = new Map<number, number>();
  let sent = 0;
  let killedStream: Promise<{ killed: boolean; signal: NodeJS.Signals | null; stored: Awaited<ReturnType<typeof stored>> }> | undefined;

  const startApi = (): Promise<ApiProcess> => startApiProcess(env, baseUrl);

  async function post(path: string, body: unknown, headers: Record<string, string>): Promise<{ status: number; body: any; cookie?: string }> {
    const res = await fetch(`${baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    return { status: res.status, body: await res.json(), cookie: res.headers.getSetCookie()[0]?.split(';')[0] };
  }

  /** Alert events and 202 delivery rows per seq, straight from the database. */
  async function stored(): Promise<{ events: Map<number, number>; accepted: Map<number, number>; retried: Map<number, number> }> {
    const events = await pg.query<{ seq: string; n: number }>(
      `SELECT labels->>'seq' AS seq, count(*)::int AS n FROM alert_events WHERE integration_id = $1 GROUP BY 1`,
      [integration.id],
    );
    const deliveries = await pg.query<{ seq: string; status_code: number; n: number }>(
      `SELECT (body::jsonb)->'alerts'->0->'labels'->>'seq' AS seq, status_code, count(*)::int AS n
         FROM webhook_deliveries WHERE integration_id = $1 AND status_code IN (200, 202) GROUP BY 1, 2`,
      [integration.id],
    );
    const byStatus = (code: number) => new Map(deliveries.rows.filter((r) => r.status_code === code).map((r) => [Number(r.seq), r.n]));
    return { events: new Map(events.rows.map((r) => [Number(r.seq), r.n])), accepted: byStatus(202), retried: byStatus(200) };
  }

  /** Backends of the killed API finish (commit or abort) on their own; wait until none is left. */
  async function waitForDeadBackends(): Promise<void> {
    await until(
      async () => {
        const { rows } = await pg.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND application_name = 'svc-api'`, [
          database.name,
        ]);
        return rows[0].n === 0;
      },
      20_000,
      "the killed API's backends to finish",
    );
  }

  /** Streams deliveries from several senders and SIGKILLs the API mid-stream; then what is stored. Once per file. */
  const killMidStream = () =>
    (killedStream ??= (async () => {
      const child = api!.child;
      let killed = false;
      let scheduled = false;
      const note = (seq: number, outcome: Outcome): void => {
        if (outcome.kind === 'error') failed.set(seq, outcome.code);
        else if (outcome.status === 202) acknowledged.add(seq);
        else refused.set(seq, outcome.status);
      };
      const send = async () => {
        sent += 1;
        const seq = sent;
        note(seq, await deliver(baseUrl, integration, seq));
      };
      // Deliveries sent just before the kill, which lands once each has been handed whole to its
      // socket: under load the senders' own answers may all have reached the client already, so
      // these make sure some are in flight (read or being committed, not yet answered) when it lands.
      const last: Promise<void>[] = [];
      const sender = async () => {
        while (!killed && sent < MAX_SEQS) {
          await send();
          if (!scheduled && acknowledged.size >= KILL_AFTER) {
            // Mid-stream, at a moment not tied to any one answer: the senders keep going until then.
            scheduled = true;
            setTimeout(() => {
              killed = true;
              const finals = Array.from({ length: SENDERS }, () => {
                sent += 1;
                const seq = sent;
                const delivery = deliverWritten(baseUrl, integration, seq);
                last.push(delivery.outcome.then((outcome) => note(seq, outcome)));
                return delivery.written;
              });
              void Promise.all(finals).then(() => child.kill('SIGKILL'));
            }, KILL_JITTER_MS);
          }
        }
      };
      await Promise.all(Array.from({ length: SENDERS }, sender));
      await Promise.all(last);
      await exited(child);
      await waitForDeadBackends();
      return { killed, signal: child.signalCode, stored: await stored() };
    })());

  async function openIncidents(): Promise<{ id: string; groupKey: string; alertCount: number }[]> {
    const res = await fetch(`${baseUrl}/api/v1/incidents?status=open&limit=200`, { headers: { cookie } });
    expect(res.status).toBe(200);
    return ((await res.json()) as { items: { id: string; groupKey: string; alertCount: number }[] }).items;
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    pg = new PgClient({ connectionString: database.url, application_name: 'admission-crash-test' });
    await pg.connect();
    port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    const credential = randomBytes(24).toString('base64url');
    env = {
      PATH: process.env.PATH ?? '',
      PORT: String(port),
      DATABASE_URL: database.url,
      REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
      SVC_SECRET_KEY: randomBytes(32).toString('hex'),
      SVC_BOOTSTRAP_CREDENTIAL: credential,
      SVC_PUBLIC_URL: baseUrl,
      SVC_QUEUE_PREFIX: `crash-${database.name}`,
      LOG_LEVEL: 'warn',
    };
    api = await startApi();

    const boot = await post(
      '/api/v1/auth/local/bootstrap',
      {
        organization: { id: 'crash', displayName: 'Crash' },
        user: { email: 'crash@example.com', name: 'Crash Tester', password: 'a long enough password' },
      },
      { authorization: `Bearer ${credential}` },
    );
    expect(boot.status).toBe(201);
    cookie = boot.cookie!;
    const created = await post('/api/v1/integrations', { type: 'generic', name: 'Crash stream' }, { cookie, origin: new URL(baseUrl).origin });
    expect(created.status).toBe(201);
    integration = { id: created.body.id, secret: created.body.webhookSecret };
  }, 240_000);

  afterAll(async () => {
    if (api && api.child.exitCode === null && api.child.signalCode === null) {
      api.child.kill('SIGKILL');
      await exited(api.child);
    }
    await pg?.end().catch(() => undefined);
    await database?.drop();
  }, 30_000);

  it('every delivery acknowledged with 202 before the SIGKILL is stored exactly once', async () => {
    const {
      killed,
      signal,
      stored: { events, accepted },
    } = await killMidStream();
    expect(killed).toBe(true);
    expect(signal).toBe('SIGKILL');

    // Nothing but 202 while the API was up (a 503 for pressure would be legitimate, and is re-sent below).
    expect([...refused.values()].filter((s) => s !== 503)).toEqual([]);
    // The kill really cut requests off in flight.
    expect(failed.size).toBeGreaterThan(0);
    expect(acknowledged.size + failed.size + refused.size).toBe(sent);

    for (const seq of acknowledged) {
      expect(events.get(seq), `alert events of acknowledged seq ${seq}`).toBe(1);
      expect(accepted.get(seq), `202 delivery rows of acknowledged seq ${seq}`).toBe(1);
    }
    // No duplicates anywhere, and nothing stored that was not sent; events and delivery rows commit together.
    for (const [seq, n] of events) {
      expect(n, `alert events of seq ${seq}`).toBe(1);
      expect(seq >= 1 && seq <= sent).toBe(true);
      expect(accepted.get(seq), `202 delivery rows of stored seq ${seq}`).toBe(1);
    }
    expect(accepted.size).toBe(events.size);
    const committedBeforeResend = new Set(events.keys());
    // Stored but never acknowledged: only deliveries whose answer the kill cut off.
    for (const seq of committedBeforeResend) if (!acknowledged.has(seq)) expect(failed.has(seq) || refused.has(seq)).toBe(true);

    console.log(
      `[admission-crash] seed ${SEED}: killed after ${acknowledged.size} acknowledged (target ${KILL_AFTER} + ${KILL_JITTER_MS} ms); ${sent} sent; ` +
        `${failed.size} cut off (${[...new Set(failed.values())].join(', ')}), of which ${[...failed.keys()].filter((s) => committedBeforeResend.has(s)).length} had committed; ` +
        `${refused.size} refused`,
    );
  }, 120_000);

  it('after a restart, re-sending every delivery is 202 or 200 and never a duplicate', async () => {
    const committedBeforeResend = new Set((await killMidStream()).stored.events.keys());
    expect(committedBeforeResend.size).toBeGreaterThan(0);
    api = await startApi();

    // The incident's count was committed with its alerts.
    const before = await openIncidents();
    expect(before).toHaveLength(1);
    expect(before[0]).toMatchObject({ groupKey: GROUP_KEY, alertCount: committedBeforeResend.size });
    const incidentId = before[0].id;

    const seqs = Array.from({ length: sent }, (_, i) => i + 1);
    const answers = new Map<number, Outcome>();
    let next = 0;
    const resender = async () => {
      while (next < seqs.length) {
        const seq = seqs[next++];
        answers.set(seq, await deliver(baseUrl, integration, seq));
      }
    };
    await Promise.all(Array.from({ length: SENDERS }, resender));

    let asNew = 0;
    let asRetry = 0;
    for (const seq of seqs) {
      const answer = answers.get(seq)!;
      if (committedBeforeResend.has(seq)) {
        expect(answer, `re-sent committed seq ${seq}`).toEqual({
          kind: 'status',
          status: 200,
          body: { deliveryId: expect.any(String), accepted: 0, duplicates: 1, incidentIds: [incidentId] },
        });
        asRetry += 1;
      } else {
        expect(answer, `re-sent uncommitted seq ${seq}`).toEqual({
          kind: 'status',
          status: 202,
          body: { deliveryId: expect.any(String), accepted: 1, duplicates: 0, incidentIds: [incidentId] },
        });
        asNew += 1;
      }
    }

    const { events, accepted, retried } = await stored();
    expect(events.size).toBe(seqs.length);
    for (const seq of seqs) {
      expect(events.get(seq), `alert events of seq ${seq}`).toBe(1);
      expect(accepted.get(seq), `202 delivery rows of seq ${seq}`).toBe(1);
      expect(retried.get(seq) ?? 0, `200 delivery rows of seq ${seq}`).toBe(committedBeforeResend.has(seq) ? 1 : 0);
    }
    const after = await openIncidents();
    expect(after).toEqual([expect.objectContaining({ id: incidentId, groupKey: GROUP_KEY, alertCount: seqs.length })]);

    console.log(
      `[admission-crash] re-sent ${seqs.length}: ${asNew} as 202 (never committed), ${asRetry} as 200 (already committed; ` +
        `${[...committedBeforeResend].filter((s) => !acknowledged.has(s)).length} of them were cut off before their answer)`,
    );
  }, 120_000);
});
