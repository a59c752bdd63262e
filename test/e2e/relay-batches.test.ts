import { describe, expect, it } from 'vitest';
import { newId } from '@svc/platform';
import { RelayGateway, RelayJobsService } from '@svc/relays';
import type { JobMessage, ServerMessage } from '@svc/relays/protocol';
import { useBootstrappedApi } from '../support/factories';
import { connectRelay, protocolClient, registerRelay, TestSession } from '../support/relay-protocol';
import { until } from '../support/until';

const READS = 5;

/**
 * Jobs and results travel several to a message between the API process and a relay that says it
 * takes them (Hello `job_batches`; the server's Welcome says it takes ResultBatch); a relay that
 * does not say so is sent one Job a message, as before batches existed.
 */
describe('relay job and result batches', () => {
  const ctx = useBootstrappedApi({ env: { SVC_RELAY_GRPC_PORT: '0', SVC_RELAY_ALLOW_PLAINTEXT: 'true', SVC_RELAY_HEARTBEAT_SECONDS: '2' } });

  /** A registered relay's session, welcomed and advertising prometheus.query for a new integration. */
  async function session(name: string, jobBatches: boolean): Promise<{ relay: TestSession; relayId: string; organizationId: string; integrationId: string }> {
    const client = protocolClient(ctx.api.app.get(RelayGateway).port!);
    const token = (await ctx.admin.post('/api/v1/relays/bootstrap-tokens', { name })).body.token as string;
    const { relayId, organizationId, credential } = await registerRelay(client, token);
    const relay = connectRelay(client, credential);
    const welcome = await relay.welcomed();
    expect(welcome).toMatchObject({ relayId, resultBatches: true });
    const integrationId = newId();
    relay.call.write({ hello: { version: 'test', capabilities: [{ integrationId, capabilityId: 'prometheus.query', capabilityVersion: 1 }], jobBatches } });
    await until(
      async () => ((await ctx.admin.get(`/api/v1/relays/${relayId}/integrations`)).body.items as unknown[]).length === 1,
      20_000,
      'the capability advertised',
    );
    return { relay, relayId, organizationId, integrationId };
  }

  /** READS reads started together through the relay, each asking for its own value. */
  function reads(target: { relayId: string; organizationId: string; integrationId: string }) {
    const jobs = ctx.api.app.get(RelayJobsService);
    return Array.from({ length: READS }, (_, i) =>
      jobs.read({
        ...target,
        integrationType: 'prometheus',
        path: 'api/v1/query',
        query: [['query', `vector(${i})`]],
        signal: AbortSignal.timeout(20_000),
        maxBytes: 1024,
        timeoutMs: 20_000,
      }),
    );
  }

  const jobsIn = (received: ServerMessage[]): JobMessage[] => received.flatMap((m) => (m.job ? [m.job] : (m.jobs?.jobs ?? [])));
  const answerTo = (job: JobMessage) => ({ jobId: job.jobId, ok: true, status: 200, body: Buffer.from(job.query[0].value), truncated: false, error: '' });

  it('sends the jobs queued together in one message to a relay that takes batches, and takes their results in one', async () => {
    const target = await session('batching edge', true);
    try {
      const started = reads(target);
      await until(() => jobsIn(target.relay.received).length === READS, 20_000, 'every job sent');
      const batches = target.relay.received.filter((m) => m.jobs);
      expect(batches.length).toBeGreaterThan(0);
      expect(target.relay.received.filter((m) => m.job)).toEqual([]);
      const jobs = jobsIn(target.relay.received);
      target.relay.call.write({ results: { results: jobs.map(answerTo) } });
      const answers = await Promise.all(started);
      expect(answers.map((a) => a.body.toString())).toEqual(Array.from({ length: READS }, (_, i) => `vector(${i})`));
      expect(answers.every((a) => a.status === 200 && a.complete)).toBe(true);
    } finally {
      target.relay.call.end();
    }
  }, 60_000);

  it('sends one Job a message to a relay that does not say it takes batches', async () => {
    const target = await session('single edge', false);
    try {
      const started = reads(target);
      await until(() => jobsIn(target.relay.received).length === READS, 20_000, 'every job sent');
      expect(target.relay.received.filter((m) => m.jobs)).toEqual([]);
      for (const job of jobsIn(target.relay.received)) target.relay.call.write({ result: answerTo(job) });
      const answers = await Promise.all(started);
      expect(answers.map((a) => a.body.toString())).toEqual(Array.from({ length: READS }, (_, i) => `vector(${i})`));
    } finally {
      target.relay.call.end();
    }
  }, 60_000);
});
