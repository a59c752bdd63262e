import { copyFileSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RelayGateway } from '@svc/relays';
import { Client, startApi, TestApi } from '../support/api';
import { bootstrap } from '../support/factories';
import { MonitoringProcess } from '../support/monitoring-stack';
import { relayDirectory, RelayProcess, writeRelayConfig } from '../support/relay-process';
import { until } from '../support/until';

const ACME = { headers: { 'x-svc-organization': 'acme' } };
const INTEGRATION = '0190a000-0000-7000-8000-0000000000c1';

/**
 * The relay agent as a real process, against the API's relay endpoint: registration with a
 * one-use bootstrap token, its local configuration (a real Prometheus only it knows), one session
 * per registration, conflicts and their clearing, and clean drains on both sides. The test that
 * shuts its API down has an API of its own; the API of one describe block is closed before the
 * next block starts its own (two in one process would share Passport's strategies).
 */
describe('the relay process', () => {
  let api: TestApi;
  let admin: Client;
  let prometheus: MonitoringProcess;
  let port: number;
  const relays: RelayProcess[] = [];

  const mint = async (name: string) => {
    const res = await admin.post('/api/v1/relays/bootstrap-tokens', { name }, ACME);
    expect(res.status).toBe(201);
    return res.body as { id: string; token: string };
  };
  const relayItem = async (id: string) =>
    ((await admin.get('/api/v1/relays', ACME)).body.items as { id: string; state: string; capabilities: unknown[] }[]).find((r) => r.id === id);
  const config = (dir: string, extra: Record<string, unknown> = {}) =>
    writeRelayConfig(dir, {
      server: `127.0.0.1:${port}`,
      plaintext: true,
      stateFile: 'state.json',
      integrations: [{ integrationId: INTEGRATION, type: 'prometheus', baseUrl: prometheus.url, capabilities: ['prometheus.query', 'prometheus.targets'] }],
      ...extra,
    });
  const start = (path: string) => {
    const relay = RelayProcess.start(path);
    relays.push(relay);
    return relay;
  };

  /** The API, admin and relay port of the enclosing describe block's tests. */
  const useApi = () => {
    beforeAll(async () => {
      api = await startApi({ env: { SVC_RELAY_GRPC_PORT: '0', SVC_RELAY_ALLOW_PLAINTEXT: 'true', SVC_RELAY_HEARTBEAT_SECONDS: '2' } });
      ({ admin } = await bootstrap(api));
      port = api.app.get(RelayGateway).port!;
    });
    afterAll(async () => {
      for (const relay of relays) relay.kill();
      await api?.close();
    });
  };

  beforeAll(async () => {
    prometheus = await MonitoringProcess.prometheus();
  });
  afterAll(async () => {
    await prometheus?.stop();
  });

  describe('against a running API', () => {
    useApi();

    it('refuses a wrong, used or expired bootstrap token: the relay exits saying so', async () => {
      const wrong = start(config(relayDirectory(), { bootstrapToken: `rbt_${'x'.repeat(43)}` }));
      expect(await wrong.exited()).toBe(3);
      expect(wrong.output()).toContain('Registration refused');

      const token = await mint('used-once');
      const first = start(config(relayDirectory(), { bootstrapToken: token.token }));
      await first.logged('session established');
      const second = start(config(relayDirectory(), { bootstrapToken: token.token }));
      expect(await second.exited()).toBe(3);
      expect(second.output()).toContain('Registration refused');
      expect(await first.stop()).toBe(0);

      const expired = await mint('expired');
      await api.dataSource.query(`UPDATE relay_bootstrap_tokens SET expires_at = clock_timestamp() - interval '1 second' WHERE id = $1`, [expired.id]);
      const late = start(config(relayDirectory(), { bootstrapToken: expired.token }));
      expect(await late.exited()).toBe(3);
    });

    it('registers, keeps its credential locally, advertises what its configuration allows, and drains cleanly', async () => {
      const dir = relayDirectory();
      const relay = start(config(dir, { bootstrapToken: (await mint('edge')).token }));
      await relay.logged('session established');
      const state = JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8')) as { relayId: string; credential: string };
      expect(statSync(join(dir, 'state.json')).mode & 0o777).toBe(0o600);
      await until(
        async () => (await relayItem(state.relayId))?.capabilities.length === 2 && (await relayItem(state.relayId))!.state === 'connected',
        20_000,
        'connected',
      );
      const integrations = await admin.get(`/api/v1/relays/${state.relayId}/integrations`, ACME);
      expect(integrations.body).toEqual({
        items: [
          {
            integrationId: INTEGRATION,
            capabilities: [
              { capabilityId: 'prometheus.query', capabilityVersion: 1 },
              { capabilityId: 'prometheus.targets', capabilityVersion: 1 },
            ],
          },
        ],
        next: null,
      });
      // Nothing of the local configuration reaches the control plane.
      const everything = JSON.stringify([await admin.get('/api/v1/relays', ACME), await admin.get('/api/v1/audit-events', ACME)].map((r) => r.body));
      expect(everything).not.toContain(prometheus.url);
      expect(everything).not.toContain(state.credential);
      expect(await relay.stop()).toBe(0);
      await until(async () => (await relayItem(state.relayId))?.state === 'offline', 20_000, 'offline once the relay drained');

      // Restarted, it reuses its registration (no token needed).
      const again = start(config(dir));
      await again.logged('session established');
      await until(async () => (await relayItem(state.relayId))?.state === 'connected', 20_000, 'connected again');
      expect(await again.stop()).toBe(0);
    });

    it('refuses a second relay with the same registration and lists the conflict; clear-conflict ends the session and the next connection wins', async () => {
      const dirA = relayDirectory();
      const a = start(config(dirA, { bootstrapToken: (await mint('twin')).token }));
      await a.logged('session established');
      const { relayId } = JSON.parse(readFileSync(join(dirA, 'state.json'), 'utf8')) as { relayId: string };
      await until(async () => (await relayItem(relayId))?.state === 'connected', 20_000, 'connected');

      const dirB = relayDirectory();
      copyFileSync(join(dirA, 'state.json'), join(dirB, 'state.json'));
      const b = start(config(dirB));
      await b.logged('session conflict');
      expect(b.count('session established')).toBe(0);
      await until(async () => (await relayItem(relayId))?.state === 'conflict', 20_000, 'the conflict to show');
      const conflicts = await admin.get(`/api/v1/relays/${relayId}/session-conflicts`, ACME);
      expect(conflicts.body.items).toHaveLength(1);
      expect(conflicts.body.items[0]).toMatchObject({ address: '127.0.0.1', clearedAt: null });
      expect(await b.stop()).toBe(0);

      const cleared = await admin.post(`/api/v1/relays/${relayId}/clear-conflict`, undefined, ACME);
      expect(cleared.status).toBe(200);
      expect(cleared.body.id).toBe(relayId);
      await a.logged('the control plane ends the session');
      await a.logged('session established', 2);
      await until(async () => (await relayItem(relayId))?.state === 'connected', 20_000, 'the next connection to hold the session');
      expect((await admin.get(`/api/v1/relays/${relayId}/session-conflicts`, ACME)).body.items[0].clearedAt).not.toBeNull();
      expect(await a.stop()).toBe(0);
    });
  });

  describe('against an API that shuts down', () => {
    useApi();

    it('an API shutting down tells its relays to go, and they keep trying to reconnect', async () => {
      const relay = start(config(relayDirectory(), { bootstrapToken: (await mint('survivor')).token }));
      await relay.logged('session established');
      await api.close();
      api = undefined as unknown as TestApi;
      await relay.logged('the server is shutting down');
      await relay.logged('reconnecting', 2);
      expect(await relay.stop()).toBe(0);
    });
  });
});
