import { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiProcess } from '../support/api-process';
import { useBootstrappedApi } from '../support/factories';
import { freePort } from '../support/ports';
import { relayDirectory, RelayProcess, writeRelayConfig } from '../support/relay-process';
import { until } from '../support/until';

/**
 * The relay holds its session on a second API process (started from dist); an Admin's
 * clear-conflict on this one reaches it through PostgreSQL NOTIFY and ends the session there.
 */
describe('relay sessions across API processes', () => {
  const ctx = useBootstrappedApi({ env: { SVC_RELAY_GRPC_PORT: '0', SVC_RELAY_ALLOW_PLAINTEXT: 'true', SVC_RELAY_HEARTBEAT_SECONDS: '2' } });
  let second: ChildProcess;
  let grpcPort: number;
  let relay: RelayProcess | undefined;

  beforeAll(async () => {
    const port = await freePort();
    grpcPort = await freePort();
    ({ child: second } = await startApiProcess(
      { ...process.env, PORT: String(port), SVC_RELAY_GRPC_PORT: String(grpcPort), LOG_LEVEL: 'warn' },
      `http://127.0.0.1:${port}`,
    ));
  }, 240_000);

  afterAll(async () => {
    relay?.kill();
    if (second && second.exitCode === null) {
      const exited = new Promise((resolve) => second.once('exit', resolve));
      second.kill('SIGTERM');
      await exited;
    }
  });

  it('ends the session held by the other API process when an Admin clears the conflict here', async () => {
    const dir = relayDirectory();
    const token = (await ctx.admin.post('/api/v1/relays/bootstrap-tokens', { name: 'elsewhere' })).body.token;
    relay = RelayProcess.start(writeRelayConfig(dir, { server: `127.0.0.1:${grpcPort}`, plaintext: true, bootstrapToken: token, stateFile: 'state.json' }));
    await relay.logged('session established');
    const { relayId } = JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8')) as { relayId: string };
    const state = async () => ((await ctx.admin.get('/api/v1/relays')).body.items as { id: string; state: string }[]).find((r) => r.id === relayId)?.state;
    await until(async () => (await state()) === 'connected', 20_000, 'connected through the other process');
    expect((await ctx.admin.post(`/api/v1/relays/${relayId}/clear-conflict`)).status).toBe(200);
    await relay.logged('the session was ended by an Admin');
    await relay.logged('session established', 2);
    await until(async () => (await state()) === 'connected', 20_000, 'the relay back');
    expect(await relay.stop()).toBe(0);
  });
});
