import { createServer, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { Client } from 'pg';

/**
 * The streams section's delivery floor, run as its own process (`node sse-floor.js`): a bare
 * node:http server that holds every event stream of one investigation and, on each NOTIFY, reads
 * the new activity rows ONCE (plain pg, the stream's query) and writes the same frames to every
 * stream, ending them after the terminal event. No authentication, no framework, one shared
 * cursor (all clients connect before the first event): the least work a fan-out of these events
 * can take on this machine. Env: DATABASE_URL, BENCH_ORGANIZATION, BENCH_INVESTIGATION, BENCH_CHANNEL
 * (the activity NOTIFY channel, passed in so this process loads no library); it prints
 * `port <n>` once it listens on a loopback port.
 */
const organizationId = process.env.BENCH_ORGANIZATION!;
const investigationId = process.env.BENCH_INVESTIGATION!;
const ACTIVITY_CHANNEL = process.env.BENCH_CHANNEL!;
const TERMINAL = new Set(['concluded', 'failed', 'cancelled']);

interface Row {
  sequence: number;
  type: string;
  at: Date;
  data: Record<string, unknown>;
}

async function main(): Promise<void> {
  const streams = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    req.socket.setNoDelay(true);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
    res.write('retry: 2000\n\n');
    streams.add(res);
    res.once('close', () => streams.delete(res));
  });
  const db = new Client({ connectionString: process.env.DATABASE_URL, application_name: 'bench-sse-floor' });
  await db.connect();
  let cursor = 0;
  let reading = false;
  let again = false;
  const pump = async (): Promise<void> => {
    if (reading) {
      again = true;
      return;
    }
    reading = true;
    try {
      do {
        again = false;
        const { rows } = await db.query<Row>(
          `SELECT sequence, type, at, data FROM investigation_activity
            WHERE organization_id = $1 AND investigation_id = $2 AND sequence > $3 AND type <> 'hypothesis.updated' ORDER BY sequence LIMIT 200`,
          [organizationId, investigationId, cursor],
        );
        if (rows.length === 0) break;
        let chunk = '';
        let terminal = false;
        for (const row of rows) {
          chunk += `id: ${row.sequence}\nevent: ${row.type}\ndata: ${JSON.stringify({ sequence: row.sequence, type: row.type, investigationId, at: row.at.toISOString(), data: row.data })}\n\n`;
          cursor = row.sequence;
          if (TERMINAL.has(row.type)) {
            terminal = true;
            break;
          }
        }
        for (const res of streams) {
          res.write(chunk);
          if (terminal) res.end();
        }
        if (rows.length === 200) again = true;
      } while (again);
    } finally {
      reading = false;
    }
  };
  db.on('notification', (message) => {
    if (message.channel === ACTIVITY_CHANNEL && message.payload?.startsWith(`${organizationId}/${investigationId}/`)) void pump();
  });
  await db.query(`LISTEN ${ACTIVITY_CHANNEL}`);
  server.listen(0, '127.0.0.1', 1024, () => process.stdout.write(`port ${(server.address() as AddressInfo).port}\n`));
  process.once('SIGTERM', () => {
    for (const res of streams) res.destroy();
    server.close();
    void db.end().finally(() => process.exit(0));
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`sse-floor: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
