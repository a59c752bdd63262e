import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { describe, expect, it } from 'vitest';
import { AppConfig, newId } from '@svc/platform';
import { RelayGateway, RelayJobsService } from '@svc/relays';
import { useBootstrappedApi } from '../support/factories';
import { connectRelay, protocolClient, registerRelay } from '../support/relay-protocol';
import { until } from '../support/until';

/**
 * A job waits in its relay's queue while no API process holds the relay's session. A read that
 * gives up meanwhile takes its job back out, so the session that comes later never sends the
 * relay a read nobody waits for.
 */
describe('a relay job given up before it was sent', () => {
  const ctx = useBootstrappedApi({ env: { SVC_RELAY_GRPC_PORT: '0', SVC_RELAY_ALLOW_PLAINTEXT: 'true', SVC_RELAY_HEARTBEAT_SECONDS: '1' } });

  it('is recorded timed_out, leaves nothing queued, and the next session never sends it', async () => {
    const dataSource = ctx.api.app.get(DataSource);
    const config = ctx.api.app.get(AppConfig);
    const client = protocolClient(ctx.api.app.get(RelayGateway).port!);
    const token = (await ctx.admin.post('/api/v1/relays/bootstrap-tokens', { name: 'edge' })).body.token as string;
    const { relayId, organizationId, credential } = await registerRelay(client, token);
    const integrationId = newId();
    // Live by its registration (a session heard from just now) and offering the capability, while
    // no API process holds that session: what a relay looks like just after its connection dropped.
    await dataSource.query(
      `UPDATE relays SET session_id = gen_random_uuid(), session_instance = 'gone', last_seen_at = clock_timestamp() WHERE organization_id = $1 AND id = $2`,
      [organizationId, relayId],
    );
    await dataSource.query(
      `INSERT INTO relay_capabilities (organization_id, id, relay_id, integration_id, capability_id, capability_version) VALUES ($1, $2, $3, $4, 'prometheus.query', 1)`,
      [organizationId, newId(), relayId, integrationId],
    );

    const read = ctx.api.app.get(RelayJobsService).read({
      organizationId,
      relayId,
      integrationId,
      integrationType: 'prometheus',
      path: 'api/v1/query',
      query: [['query', 'up']],
      signal: AbortSignal.timeout(300),
      maxBytes: 1024,
      timeoutMs: 300,
    });
    await expect(read).rejects.toMatchObject({ name: 'TimeoutError' });
    const jobs = (await dataSource.query('SELECT id, status, error FROM relay_jobs WHERE organization_id = $1 AND relay_id = $2', [
      organizationId,
      relayId,
    ])) as {
      id: string;
      status: string;
      error: string;
    }[];
    expect(jobs).toEqual([{ id: expect.any(String), status: 'timed_out', error: 'No answer from relay edge within 300 ms' }]);
    const redis = new Redis(config.REDIS_URL);
    try {
      expect(await redis.keys(`${config.SVC_QUEUE_PREFIX}:relay:jobs:*`)).toEqual([]);
    } finally {
      redis.disconnect();
    }

    // The relay comes back (well within the job's own deadline): its session sends what is queued
    // for it at once, and then heartbeats; the given-up job is not among what it sends.
    await dataSource.query('UPDATE relays SET session_id = NULL WHERE organization_id = $1 AND id = $2', [organizationId, relayId]);
    const session = connectRelay(client, credential);
    try {
      expect(await session.welcomed()).toMatchObject({ relayId });
      await until(() => session.received.some((m) => m.heartbeat) || undefined, 10_000, "the server's first heartbeat");
      expect(session.received.filter((m) => m.job).map((m) => m.job!.jobId)).toEqual([]);
    } finally {
      session.call.end();
      client.close();
    }
  }, 60_000);
});
