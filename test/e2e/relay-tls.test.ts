import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RelayGateway } from '@svc/relays';
import { Client, startApi, TestApi } from '../support/api';
import { bootstrap } from '../support/factories';
import { relayDirectory, RelayProcess, writeRelayConfig } from '../support/relay-process';

/** A CA made for this test, and a server certificate it signed for 127.0.0.1 and localhost. */
function testCertificates(dir: string): { ca: string; cert: string; key: string; otherCa: string } {
  const run = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
  for (const name of ['ca', 'other-ca']) {
    run('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', `/CN=${name} for relay tests`, '-keyout', `${name}.key`, '-out', `${name}.pem`);
  }
  writeFileSync(join(dir, 'san.cnf'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  run('req', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=localhost', '-keyout', 'server.key', '-out', 'server.csr');
  run('x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-days', '2', '-extfile', 'san.cnf', '-out', 'server.pem');
  return { ca: join(dir, 'ca.pem'), cert: join(dir, 'server.pem'), key: join(dir, 'server.key'), otherCa: join(dir, 'other-ca.pem') };
}

/** The relay endpoint over TLS, with a CA generated here: the relay trusts it, and nothing else gets in. */
describe('the relay endpoint over TLS', () => {
  let api: TestApi;
  let admin: Client;
  let certificates: ReturnType<typeof testCertificates>;
  const relays: RelayProcess[] = [];

  beforeAll(async () => {
    certificates = testCertificates(relayDirectory());
    api = await startApi({ env: { SVC_RELAY_GRPC_PORT: '0', SVC_RELAY_TLS_CERT_FILE: certificates.cert, SVC_RELAY_TLS_KEY_FILE: certificates.key } });
    ({ admin } = await bootstrap(api));
  });
  afterAll(async () => {
    for (const relay of relays) relay.kill();
    await api?.close();
  });

  const start = async (extra: Record<string, unknown>) => {
    const token = (await admin.post('/api/v1/relays/bootstrap-tokens', { name: 'tls' }, { headers: { 'x-svc-organization': 'acme' } })).body.token;
    const relay = RelayProcess.start(
      writeRelayConfig(relayDirectory(), { server: `127.0.0.1:${api.app.get(RelayGateway).port}`, bootstrapToken: token, stateFile: 'state.json', ...extra }),
    );
    relays.push(relay);
    return relay;
  };

  it('registers and holds a session when the relay trusts the CA', async () => {
    const relay = await start({ tls: { caFile: certificates.ca } });
    await relay.logged('session established');
    expect(await relay.stop()).toBe(0);
  });

  it('gets nowhere trusting another CA, or speaking plaintext', async () => {
    for (const relay of [await start({ tls: { caFile: certificates.otherCa } }), await start({ plaintext: true })]) {
      await relay.logged('registration failed; retrying', 2);
      expect(relay.count('registered')).toBe(0);
      expect(await relay.stop()).not.toBe(3);
    }
  });
});
