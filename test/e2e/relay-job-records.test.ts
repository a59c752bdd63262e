import { DataSource } from 'typeorm';
import { describe, expect, it } from 'vitest';
import { newId } from '@svc/platform';
import { RelayGateway, RelayJobsService } from '@svc/relays';
import type { JobMessage } from '@svc/relays/protocol';
import { useBootstrappedApi } from '../support/factories';
import { connectRelay, protocolClient, registerRelay } from '../support/relay-protocol';
import { until } from '../support/until';

/**
 * A relay's answer goes to its read without waiting for the job's record: the record follows
 * within moments, and when PostgreSQL refuses it the read is answered all the same.
 */
describe('relay job records', () => {
  const ctx = useBootstrappedApi({ env: { SVC_RELAY_GRPC_PORT: '0', SVC_RELAY_ALLOW_PLAINTEXT: 'true', SVC_RELAY_HEARTBEAT_SECONDS: '2' } });

  it('answers the read whether or not the record can be written, and records it when it can', async () => {
    const dataSource = ctx.api.app.get(DataSource);
    const client = protocolClient(ctx.api.app.get(RelayGateway).port!);
    const token = (await ctx.admin.post('/api/v1/relays/bootstrap-tokens', { name: 'records edge' })).body.token as string;
    const { relayId, organizationId, credential } = await registerRelay(client, token);
    const relay = connectRelay(client, credential);
    await relay.welcomed();
    const integrationId = newId();
    relay.call.write({ hello: { version: 'test', capabilities: [{ integrationId, capabilityId: 'prometheus.query', capabilityVersion: 1 }] } });
    await until(
      async () => ((await ctx.admin.get(`/api/v1/relays/${relayId}/integrations`)).body.items as unknown[]).length === 1,
      20_000,
      'the capability advertised',
    );
    // The relay answers every job it is sent with the job's query.
    const answered = new Set<string>();
    relay.call.on('data', (message: { job?: JobMessage }) => {
      const job = message.job;
      if (!job || answered.has(job.jobId)) return;
      answered.add(job.jobId);
      relay.call.write({ result: { jobId: job.jobId, ok: true, status: 200, body: Buffer.from(job.query[0].value), truncated: false, error: '' } });
    });
    const read = (query: string) =>
      ctx.api.app.get(RelayJobsService).read({
        organizationId,
        relayId,
        integrationId,
        integrationType: 'prometheus',
        path: 'api/v1/query',
        query: [['query', query]],
        signal: AbortSignal.timeout(20_000),
        maxBytes: 1024,
        timeoutMs: 20_000,
      });
    const recorded = async () =>
      (await dataSource.query('SELECT status, source FROM relay_jobs WHERE organization_id = $1 AND relay_id = $2 ORDER BY source', [
        organizationId,
        relayId,
      ])) as { status: string; source: string }[];

    // PostgreSQL refuses every record, counting the attempts (a sequence is not rolled back).
    await dataSource.query('CREATE SEQUENCE refused_relay_job_records');
    await dataSource.query(`CREATE FUNCTION refuse_relay_job_records() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN PERFORM nextval('refused_relay_job_records'); RAISE EXCEPTION 'relay job records refused for this test'; END $$`);
    try {
      await dataSource.query('CREATE TRIGGER refuse_relay_job_records BEFORE INSERT ON relay_jobs FOR EACH ROW EXECUTE FUNCTION refuse_relay_job_records()');
      const refused = await read('up');
      expect({ status: refused.status, body: refused.body.toString(), complete: refused.complete }).toEqual({ status: 200, body: 'up', complete: true });
      await until(
        async () => ((await dataSource.query('SELECT is_called FROM refused_relay_job_records')) as { is_called: boolean }[])[0].is_called,
        10_000,
        'the record refused',
      );
    } finally {
      await dataSource.query('DROP TRIGGER IF EXISTS refuse_relay_job_records ON relay_jobs');
      await dataSource.query('DROP FUNCTION IF EXISTS refuse_relay_job_records()');
      await dataSource.query('DROP SEQUENCE IF EXISTS refused_relay_job_records');
    }
    const kept = await read('vector(1)');
    expect(kept.body.toString()).toBe('vector(1)');
    await until(async () => (await recorded()).length === 1, 10_000, 'the record written');
    // The refused record is not written later either.
    expect(await recorded()).toEqual([{ status: 'succeeded', source: '/api/v1/query?query=vector%281%29' }]);
    relay.call.end();
    client.close();
  }, 60_000);
});
