import { userInfo } from 'node:os';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './app-config';

describe('loadConfig', () => {
  it('applies the contract defaults', () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(8080);
    expect(config.REDIS_URL).toBe('redis://127.0.0.1:6379');
    expect(config.SVC_PUBLIC_URL).toBe('http://localhost:8080');
    expect(config.publicOrigin).toBe('http://localhost:8080');
    expect(config.SVC_SESSION_IDLE_SECONDS).toBe(12 * 3600);
    expect(config.SVC_SESSION_ABSOLUTE_SECONDS).toBe(7 * 24 * 3600);
    expect(config.SVC_JSON_BODY_LIMIT).toBe(1024 * 1024);
    expect(config.oidcConfigured).toBe(false);
  });

  it('connects as the operating-system user when DATABASE_URL names none, like libpq', () => {
    expect(loadConfig({}).DATABASE_URL).toBe(`postgres://${userInfo().username}@localhost:5432/svc`);
    expect(loadConfig({ DATABASE_URL: 'postgres://app:pw@db:5432/x' }).DATABASE_URL).toBe('postgres://app:pw@db:5432/x');
  });

  it('reads numbers and the public origin', () => {
    const config = loadConfig({ PORT: '9090', SVC_PUBLIC_URL: 'https://incidents.example.com/console/' });
    expect(config.PORT).toBe(9090);
    expect(config.publicOrigin).toBe('https://incidents.example.com');
  });

  it('names every bad variable, and hides secret values', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: '80a', REDIS_URL: 'http://nope', SVC_SECRET_KEY: 'tooshort', LOG_LEVEL: 'loud', SVC_LLM_PROVIDER: 'other' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    for (const name of ['PORT="80a"', 'REDIS_URL', 'SVC_SECRET_KEY=(hidden)', 'LOG_LEVEL', 'SVC_LLM_PROVIDER']) expect(message).toContain(name);
    expect(message).not.toContain('tooshort');
  });

  it('keeps the former constants as defaults: sign-in throttle, admission limits, event stream timings', () => {
    const config = loadConfig({});
    expect(config.SVC_SIGN_IN_MAX_FAILURES).toBe(10);
    expect(config.SVC_SIGN_IN_WINDOW_SECONDS).toBe(15 * 60);
    expect(config.SVC_ADMISSION_MAX_IN_FLIGHT).toBe(256);
    expect(config.SVC_ADMISSION_CONNECTION_WAIT_MS).toBe(250);
    expect(config.SVC_DATABASE_QUERY_TIMEOUT_MS).toBe(30_000);
    expect(config.SVC_STREAM_RETRY_MS).toBe(2000);
    expect(config.SVC_STREAM_HEARTBEAT_SECONDS).toBe(15);
    expect(config.SVC_STREAM_WRITE_DEADLINE_SECONDS).toBe(10);
  });

  it('reads them from the environment', () => {
    const config = loadConfig({
      SVC_SIGN_IN_MAX_FAILURES: '3',
      SVC_SIGN_IN_WINDOW_SECONDS: '3600',
      SVC_ADMISSION_MAX_IN_FLIGHT: '1',
      SVC_ADMISSION_CONNECTION_WAIT_MS: '1000',
      SVC_DATABASE_QUERY_TIMEOUT_MS: '5000',
      SVC_STREAM_RETRY_MS: '5000',
      SVC_STREAM_HEARTBEAT_SECONDS: '30',
      SVC_STREAM_WRITE_DEADLINE_SECONDS: '20',
    });
    expect(config).toMatchObject({
      SVC_SIGN_IN_MAX_FAILURES: 3,
      SVC_SIGN_IN_WINDOW_SECONDS: 3600,
      SVC_ADMISSION_MAX_IN_FLIGHT: 1,
      SVC_ADMISSION_CONNECTION_WAIT_MS: 1000,
      SVC_DATABASE_QUERY_TIMEOUT_MS: 5000,
      SVC_STREAM_RETRY_MS: 5000,
      SVC_STREAM_HEARTBEAT_SECONDS: 30,
      SVC_STREAM_WRITE_DEADLINE_SECONDS: 20,
    });
  });

  it.each([
    ['SVC_SIGN_IN_MAX_FAILURES', ['0', '1001', 'ten', '2.5']],
    ['SVC_SIGN_IN_WINDOW_SECONDS', ['59', '86401', '-900']],
    ['SVC_ADMISSION_MAX_IN_FLIGHT', ['0', '100001', '']],
    ['SVC_ADMISSION_CONNECTION_WAIT_MS', ['9', '30001', '250ms']],
    ['SVC_DATABASE_QUERY_TIMEOUT_MS', ['999', '600001', '30s']],
    ['SVC_STREAM_RETRY_MS', ['99', '600001', 'soon']],
    ['SVC_STREAM_HEARTBEAT_SECONDS', ['0', '301', '1.5']],
    ['SVC_STREAM_WRITE_DEADLINE_SECONDS', ['0', '301', 'x']],
    ['SVC_POSTMORTEM_NARRATIVE_TIMEOUT_SECONDS', ['0', '601', '2m']],
    ['SVC_RELAY_GRPC_PORT', ['-1', '65536', 'grpc']],
    ['SVC_RELAY_HEARTBEAT_SECONDS', ['0', '301', '1.5']],
    ['SVC_RELAY_ALLOW_PLAINTEXT', ['yes', 'TRUE']],
    ['SVC_RELAY_REGISTER_PER_MINUTE', ['0', '10001', 'many']],
  ])('refuses %s out of its bounds or not a whole number, naming the variable', (name, values) => {
    for (const value of values) {
      let error: unknown;
      try {
        loadConfig({ [name]: value });
      } catch (e) {
        error = e;
      }
      expect(error, `${name}=${value}`).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toContain(`${name}=`);
    }
  });

  it('treats empty optional settings as unset', () => {
    const config = loadConfig({ SVC_BOOTSTRAP_CREDENTIAL: '', SVC_SECRET_KEY: '', SVC_OIDC_ISSUER: '' });
    expect(config.SVC_BOOTSTRAP_CREDENTIAL).toBeUndefined();
    expect(config.SVC_SECRET_KEY).toBeUndefined();
  });

  it('serves relays only with TLS, or plaintext when explicitly allowed; no port, no endpoint', () => {
    expect(loadConfig({}).SVC_RELAY_GRPC_PORT).toBeUndefined();
    expect(() => loadConfig({ SVC_RELAY_GRPC_PORT: '8443' })).toThrow(/SVC_RELAY_GRPC_PORT: the relay endpoint needs SVC_RELAY_TLS_CERT_FILE/);
    expect(() => loadConfig({ SVC_RELAY_GRPC_PORT: '8443', SVC_RELAY_TLS_CERT_FILE: 'cert.pem' })).toThrow(ConfigError);
    expect(loadConfig({ SVC_RELAY_GRPC_PORT: '8443', SVC_RELAY_TLS_CERT_FILE: 'cert.pem', SVC_RELAY_TLS_KEY_FILE: 'key.pem' })).toMatchObject({
      SVC_RELAY_GRPC_PORT: 8443,
      SVC_RELAY_ALLOW_PLAINTEXT: false,
    });
    expect(loadConfig({ SVC_RELAY_GRPC_PORT: '0', SVC_RELAY_ALLOW_PLAINTEXT: 'true' })).toMatchObject({
      SVC_RELAY_GRPC_PORT: 0,
      SVC_RELAY_ALLOW_PLAINTEXT: true,
    });
  });
});
