import * as grpc from '@grpc/grpc-js';
import { randomUUID } from 'node:crypto';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JobMessage, relayServiceDefinition, RelayMessage, ServerMessage } from '@svc/relays/protocol';
import { relayDirectory, RelayProcess, writeRelayConfig } from '../support/relay-process';
import { until } from '../support/until';

const JOBS = 6;

/**
 * The relay agent (the real process) against control planes of either kind: one whose Welcome
 * says it takes results several to a message, and one from before batches, whose Welcome does
 * not. The control plane here is a gRPC server speaking the protocol file, since a release
 * without batches cannot run beside this one; the relay reads a local HTTP system.
 */
describe('the relay agent and result batches', () => {
  let system: Server;
  let systemUrl: string;

  beforeAll(async () => {
    // Answers once JOBS reads wait, all in one go: the relay has their results ready together.
    let waiting: (() => void)[] = [];
    system = createServer((req, res) => {
      const query = new URL(req.url!, 'http://relay.local').searchParams.get('query');
      waiting.push(() => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 'success', query })));
      if (waiting.length < JOBS) return;
      for (const answer of waiting) answer();
      waiting = [];
    });
    await new Promise<void>((resolve) => system.listen(0, '127.0.0.1', resolve));
    systemUrl = `http://127.0.0.1:${(system.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => system.close(() => resolve())));

  /**
   * A control plane whose Welcome says `resultBatches`; once the relay's Hello arrives it sends
   * JOBS jobs (as one JobBatch when the Hello takes batches) and keeps what the relay sends.
   */
  async function controlPlane(resultBatches: boolean) {
    const received: RelayMessage[] = [];
    const relayId = randomUUID();
    const integrationId = randomUUID();
    const server = new grpc.Server();
    server.addService(relayServiceDefinition(), {
      Register: (_call: unknown, callback: grpc.sendUnaryData<unknown>) => callback({ code: grpc.status.UNIMPLEMENTED }),
      Connect: (call: grpc.ServerDuplexStream<RelayMessage, ServerMessage>) => {
        call.write({ welcome: { sessionId: randomUUID(), relayId, heartbeatSeconds: 30, resultBatches } });
        call.on('data', (message: RelayMessage) => {
          received.push(message);
          if (!message.hello) return;
          const jobs: JobMessage[] = Array.from({ length: JOBS }, (_, i) => ({
            jobId: randomUUID(),
            integrationId,
            capabilityId: 'prometheus.query',
            capabilityVersion: 1,
            path: 'api/v1/query',
            query: [{ name: 'query', value: `vector(${i})` }],
            timeoutMs: 10_000,
            maxBytes: 1024,
          }));
          if (message.hello.jobBatches) call.write({ jobs: { jobs } });
          else for (const job of jobs) call.write({ job });
        });
        call.on('error', () => undefined);
      },
    });
    const port = await new Promise<number>((resolve, reject) =>
      server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))),
    );
    const dir = relayDirectory();
    writeFileSync(join(dir, 'state.json'), JSON.stringify({ relayId, organizationId: 'acme', name: 'edge', credential: `rly_${'a'.repeat(43)}` }));
    const relay = RelayProcess.start(
      writeRelayConfig(dir, {
        server: `127.0.0.1:${port}`,
        plaintext: true,
        stateFile: 'state.json',
        integrations: [{ integrationId, type: 'prometheus', baseUrl: systemUrl, capabilities: ['prometheus.query'] }],
      }),
    );
    const results = () => received.flatMap((m) => (m.result ? [m.result] : (m.results?.results ?? [])));
    return {
      received,
      results,
      relay,
      answered: () => until(() => results().length >= JOBS, 30_000, `${JOBS} results; relay output:\n${relay.output()}`),
      close: async () => {
        await relay.stop();
        server.forceShutdown();
      },
    };
  }

  const queries = (results: { ok: boolean; status: number; body: Buffer }[]) =>
    results.map((r) => (r.ok && r.status === 200 ? (JSON.parse(Buffer.from(r.body).toString()) as { query: string }).query : 'failed')).sort();
  const expected = Array.from({ length: JOBS }, (_, i) => `vector(${i})`).sort();

  it('takes a JobBatch, and sends its results several to a message to a control plane that takes them', async () => {
    const plane = await controlPlane(true);
    try {
      await plane.answered();
      expect(plane.received.find((m) => m.hello)?.hello).toMatchObject({ jobBatches: true });
      expect(queries(plane.results())).toEqual(expected);
      // The results of jobs answered together went together.
      expect(plane.received.some((m) => (m.results?.results.length ?? 0) > 1)).toBe(true);
    } finally {
      await plane.close();
    }
  }, 60_000);

  it('sends one result a message to a control plane whose Welcome does not take batches', async () => {
    const plane = await controlPlane(false);
    try {
      await plane.answered();
      expect(queries(plane.results())).toEqual(expected);
      expect(plane.received.filter((m) => m.results)).toEqual([]);
    } finally {
      await plane.close();
    }
  }, 60_000);
});
