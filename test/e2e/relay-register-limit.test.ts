import * as grpc from '@grpc/grpc-js';
import Redis from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RelayGateway } from '@svc/relays';
import type { RelayServiceClient } from '@svc/relays/protocol';
import { Client, startApi, TestApi } from '../support/api';
import { bootstrap } from '../support/factories';
import { relayDirectory, RelayProcess, writeRelayConfig } from '../support/relay-process';
import { protocolClient, registerRelay } from '../support/relay-protocol';

const ACME = { headers: { 'x-svc-organization': 'acme' } };

/**
 * Register calls are limited per source address (SVC_RELAY_REGISTER_PER_MINUTE), whatever the
 * token: past the limit the endpoint answers RESOURCE_EXHAUSTED without looking at the token, which
 * stays unused; the relay agent waits and tries again.
 */
describe('the relay registration limit', () => {
  let api: TestApi;
  let admin: Client;
  let client: RelayServiceClient;
  let redis: Redis;
  let relay: RelayProcess | undefined;

  beforeAll(async () => {
    api = await startApi({
      env: { SVC_RELAY_GRPC_PORT: '0', SVC_RELAY_ALLOW_PLAINTEXT: 'true', SVC_RELAY_HEARTBEAT_SECONDS: '2', SVC_RELAY_REGISTER_PER_MINUTE: '3' },
    });
    ({ admin } = await bootstrap(api));
    client = protocolClient(api.app.get(RelayGateway).port!);
    redis = new Redis(process.env.REDIS_URL!);
  });
  afterAll(async () => {
    relay?.kill();
    client?.close();
    redis?.disconnect();
    await api?.close();
  });

  it('refuses the calls past the limit from one address with RESOURCE_EXHAUSTED, leaving the token unused; the relay retries and registers once the window has passed', async () => {
    const minted = await admin.post('/api/v1/relays/bootstrap-tokens', { name: 'limited' }, ACME);
    expect(minted.status).toBe(201);
    for (let i = 0; i < 3; i++) {
      await expect(registerRelay(client, `rbt_${String(i).repeat(43)}`)).rejects.toMatchObject({ code: grpc.status.UNAUTHENTICATED });
    }
    // The fourth call is refused before its token is looked at, a good token included.
    const refused = await registerRelay(client, minted.body.token).then(
      () => null,
      (error: grpc.ServiceError) => error,
    );
    expect(refused).toMatchObject({ code: grpc.status.RESOURCE_EXHAUSTED });
    const retryIn = /^Too many registrations from this address \(at most 3 a minute\); retry in (\d+) s$/.exec(refused!.details);
    expect(retryIn).not.toBeNull();
    // The count is kept in Redis, shared by every API process, under a key that ends with the
    // window: within the minute, and no later than the retry the refusal named.
    const key = `${process.env.SVC_QUEUE_PREFIX}:relay-register:127.0.0.1`;
    expect(await redis.keys(`${process.env.SVC_QUEUE_PREFIX}:relay-register:*`)).toEqual([key]);
    expect(Number(await redis.get(key))).toBe(4);
    const windowLeftMs = await redis.pttl(key);
    expect(windowLeftMs).toBeGreaterThan(0);
    expect(windowLeftMs).toBeLessThanOrEqual(60_000);
    expect(windowLeftMs).toBeLessThanOrEqual(Number(retryIn![1]) * 1000);
    const [token] = await api.dataSource.query('SELECT used_at FROM relay_bootstrap_tokens WHERE id = $1', [minted.body.id]);
    expect(token.used_at).toBeNull();
    expect((await admin.get('/api/v1/relays', ACME)).body.items).toEqual([]);

    // The relay agent takes the refusal as a reason to wait, not to give up.
    relay = RelayProcess.start(
      writeRelayConfig(relayDirectory(), {
        server: `127.0.0.1:${api.app.get(RelayGateway).port}`,
        plaintext: true,
        bootstrapToken: minted.body.token,
        stateFile: 'state.json',
      }),
    );
    await relay.logged('"code":8', 2);
    expect(relay.count('registered')).toBe(0);
    // Every refused try counted (the relay's included), in the same window.
    expect(Number(await redis.get(key))).toBeGreaterThanOrEqual(6);
    expect(await redis.pttl(key)).toBeLessThanOrEqual(windowLeftMs);
    // The window passing: Redis's clock cannot be moved, so the key is given the last millisecond
    // of its window, and Redis ends it as it ends every window; the next try registers.
    expect(await redis.pexpire(key, 1)).toBe(1);
    await relay.logged('session established');
    expect((await admin.get('/api/v1/relays', ACME)).body.items).toHaveLength(1);
    expect(await relay.stop()).toBe(0);
  });
});
