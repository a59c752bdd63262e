import * as grpc from '@grpc/grpc-js';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { JobMessage, JobResultMessage, RelayMessage, relayServiceDefinition, ServerMessage } from '@svc/relays/protocol';
import { ensureBuilt } from '../support/dist';
import { relayDirectory, RelayProcess, writeRelayConfig } from '../support/relay-process';
import { until } from '../support/until';

const PROMETHEUS = '0190a000-0000-7000-8000-0000000000e1';
const NOT_HERE = '0190a000-0000-7000-8000-0000000000e2';

/**
 * The real relay process (from dist) under a control plane that asks for more than the relay's
 * configuration allows: the control plane here is the test, speaking the relay protocol over
 * gRPC, because the service itself only sends what a relay advertised. Whatever it asks, a job
 * the local policy refuses never reaches the local system (a real HTTP server on loopback that
 * records every request), and the refusal comes back over the wire saying why.
 */
describe("the relay process's local policy against a control plane that asks too much", () => {
  let system: Server;
  const received: string[] = [];
  let controlPlane: grpc.Server;
  let session: grpc.ServerDuplexStream<RelayMessage, ServerMessage> | undefined;
  let hello: RelayMessage['hello'] | undefined;
  const results = new Map<string, JobResultMessage>();
  let relay: RelayProcess | undefined;
  let seq = 0;

  beforeAll(async () => {
    ensureBuilt();
    system = createServer((req, res) => {
      received.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"success","data":{"resultType":"vector","result":[]}}');
    });
    await new Promise<void>((resolve) => system.listen(0, '127.0.0.1', resolve));

    controlPlane = new grpc.Server();
    controlPlane.addService(relayServiceDefinition(), {
      Register: (_call: grpc.ServerUnaryCall<unknown, unknown>, callback: grpc.sendUnaryData<unknown>) =>
        callback(null, { relayId: '0190a000-0000-7000-8000-0000000000e0', organizationId: 'acme', name: 'edge', credential: 'test-relay-credential' }),
      Connect: (call: grpc.ServerDuplexStream<RelayMessage, ServerMessage>) => {
        session = call;
        call.on('data', (message: RelayMessage) => {
          if (message.hello) hello = message.hello;
          if (message.result) results.set(message.result.jobId, message.result);
        });
        call.on('error', () => undefined);
        call.write({ welcome: { sessionId: 'session-1', relayId: '0190a000-0000-7000-8000-0000000000e0', heartbeatSeconds: 30 } });
      },
    });
    const port = await new Promise<number>((resolve, reject) =>
      controlPlane.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))),
    );

    const dir = relayDirectory();
    relay = RelayProcess.start(
      writeRelayConfig(dir, {
        server: `127.0.0.1:${port}`,
        plaintext: true,
        bootstrapToken: 'test-bootstrap-token',
        stateFile: 'state.json',
        integrations: [
          {
            integrationId: PROMETHEUS,
            type: 'prometheus',
            baseUrl: `http://127.0.0.1:${(system.address() as AddressInfo).port}/prometheus`,
            capabilities: ['prometheus.query'],
          },
        ],
      }),
    );
    await until(() => hello, 30_000, `the relay's hello; output:\n${relay.output()}`);
  }, 240_000);

  afterAll(async () => {
    await relay?.stop();
    session?.end();
    controlPlane?.forceShutdown();
    system?.closeAllConnections();
    system?.close();
  });

  beforeEach(() => {
    received.length = 0;
  });

  /** Sends a job on the relay's session and waits for its result. */
  async function ask(over: Partial<JobMessage>): Promise<JobResultMessage> {
    const jobId = `job-${++seq}`;
    session!.write({
      job: {
        jobId,
        integrationId: PROMETHEUS,
        capabilityId: 'prometheus.query',
        capabilityVersion: 1,
        path: 'api/v1/query',
        query: [{ name: 'query', value: 'up' }],
        timeoutMs: 5000,
        maxBytes: 4096,
        ...over,
      },
    });
    return until(() => results.get(jobId), 30_000, `the result of ${jobId}; output:\n${relay!.output()}`);
  }

  it('advertises only what its configuration allows', () => {
    expect(hello!.capabilities).toEqual([{ integrationId: PROMETHEUS, capabilityId: 'prometheus.query', capabilityVersion: 1 }]);
  });

  it('answers a refused job with the reason and never reaches the local system; an allowed one reaches it once', async () => {
    const refusals: [Partial<JobMessage>, RegExp][] = [
      [{ capabilityId: 'prometheus.targets', path: 'api/v1/targets', query: [] }, /prometheus.targets is not allowed for this integration/],
      [{ path: 'api/v1/admin/tsdb/delete_series' }, /prometheus.query does not read api\/v1\/admin\/tsdb\/delete_series/],
      [{ integrationId: NOT_HERE }, /integration 0190a000-0000-7000-8000-0000000000e2 is not configured on this relay/],
    ];
    for (const [over, reason] of refusals) {
      const result = await ask(over);
      expect(result).toMatchObject({ ok: false, status: 0 });
      expect(result.error).toMatch(reason);
    }
    expect(received).toEqual([]);

    const allowed = await ask({});
    expect(allowed).toMatchObject({ ok: true, status: 200, error: '' });
    expect(JSON.parse(Buffer.from(allowed.body).toString('utf8'))).toMatchObject({ status: 'success' });
    expect(received).toEqual(['/prometheus/api/v1/query?query=up']);
  }, 120_000);
});
