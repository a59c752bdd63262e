import Redis, { RedisOptions } from 'ioredis';
import { isIP } from 'node:net';
import { DatastoreEndpoint, DatastoreFailure, SESSION_APPLICATION_NAME, SessionLimits } from '../datastore.types';

/**
 * The only commands a Redis session sends for the reads: each reads the server's state, none
 * reads or writes a key's value. Anything else is refused before it reaches the server, whatever
 * the account may do.
 */
const READ_COMMANDS: ReadonlyArray<readonly string[]> = [
  ['PING'],
  ['INFO'],
  ['SLOWLOG', 'GET'],
  ['SLOWLOG', 'LEN'],
  ['LATENCY', 'LATEST'],
  ['CLIENT', 'LIST'],
  // Settings by name only: CONFIG GET of a pattern could read requirepass or masterauth.
  ['CONFIG', 'GET', 'MAXMEMORY'],
  ['CONFIG', 'GET', 'MAXMEMORY-POLICY'],
  ['CONFIG', 'GET', 'MAXCLIENTS'],
  ['CONFIG', 'GET', 'SLOWLOG-LOG-SLOWER-THAN'],
  ['CONFIG', 'GET', 'LATENCY-MONITOR-THRESHOLD'],
  ['ACL', 'WHOAMI'],
];

interface RedisError {
  message?: string;
  code?: string;
}

/**
 * A session with a Redis server that runs only the reads of this library (READ_COMMANDS): every
 * command has a timeout, the connection is never retried or queued behind a reconnect, and the
 * session names itself (CLIENT SETNAME, when the account may).
 */
export class RedisSession {
  private constructor(
    private readonly client: Redis,
    private readonly where: string,
  ) {}

  static async open(endpoint: DatastoreEndpoint, address: string, limits: SessionLimits, signal: AbortSignal, ca?: string): Promise<RedisSession> {
    const options: RedisOptions = {
      host: address,
      port: endpoint.port,
      username: endpoint.username,
      password: endpoint.password,
      connectTimeout: limits.connectTimeoutMs,
      commandTimeout: limits.statementTimeoutMs,
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
      enableReadyCheck: false,
      tls:
        endpoint.tls === 'disable'
          ? undefined
          : { rejectUnauthorized: endpoint.tls === 'verify-full', ...(isIP(endpoint.host) ? {} : { servername: endpoint.host }), ...(ca ? { ca } : {}) },
    };
    const client = new Redis(options);
    // While connecting, the connection's own error (WRONGPASS, ECONNREFUSED) says more than the closed stream a command then meets.
    let socketError: unknown;
    client.on('error', (error) => (socketError ??= error));
    const where = `${endpoint.host}:${endpoint.port}`;
    const abort = () => client.disconnect();
    signal.addEventListener('abort', abort, { once: true });
    try {
      await client.connect();
      // The first command shows whether the sign-in worked (a server requiring a password answers NOAUTH).
      await client.ping();
    } catch (error) {
      signal.removeEventListener('abort', abort);
      client.disconnect();
      throw connectFailure(endpoint, where, socketError ?? error);
    }
    await client.client('SETNAME', SESSION_APPLICATION_NAME).catch(() => undefined); // an account without client|setname stays unnamed
    return new RedisSession(client, where);
  }

  /** Runs one of the read commands; anything else is refused here, before the server sees it. */
  async command(name: string, ...args: string[]): Promise<unknown> {
    const words = [name, ...args].map((w) => w.toUpperCase());
    if (!READ_COMMANDS.some((allowed) => allowed.every((word, i) => words[i] === word) && (allowed[0] !== 'CONFIG' || words.length === allowed.length)))
      throw new DatastoreFailure(`${[name, ...args.slice(0, 1)].join(' ')} is not one of the reads a Redis session runs`);
    try {
      return await this.client.call(name, ...args);
    } catch (error) {
      throw new DatastoreFailure(readFailure(error, words.slice(0, 2).join(' ')));
    }
  }

  /**
   * Whether the account may run a write, asked without running one: SET is queued in a
   * transaction that is then discarded, and Redis checks the account's permissions (and a read-only
   * replica's refusal) when it queues a command, so nothing is executed either way.
   */
  async writeProbe(): Promise<'allowed' | 'refused' | 'replica' | 'unknown'> {
    const key = `${SESSION_APPLICATION_NAME}:verify:${Math.random().toString(36).slice(2)}`;
    try {
      await this.client.call('MULTI');
    } catch {
      return 'unknown';
    }
    try {
      await this.client.call('SET', key, '1');
      return 'allowed';
    } catch (error) {
      const message = (error as RedisError).message ?? '';
      if (/^NOPERM/.test(message)) return 'refused';
      if (/^READONLY/.test(message)) return 'replica';
      return 'unknown';
    } finally {
      await this.client.call('DISCARD').catch(() => undefined);
    }
  }

  async close(): Promise<void> {
    this.client.disconnect();
  }

  toString(): string {
    return `Redis at ${this.where}`;
  }
}

function connectFailure(endpoint: DatastoreEndpoint, where: string, error: unknown): DatastoreFailure {
  const e = error as RedisError;
  const message = e.message ?? String(error);
  if (/WRONGPASS|NOAUTH|invalid username-password|AUTH/i.test(message))
    return new DatastoreFailure(
      `Redis at ${where} refused the sign-in${endpoint.username ? ` of ${endpoint.username}` : ''}: ${message.replace(/^\w+ /, '')}`,
      'rejected',
    );
  if (/max number of clients/i.test(message)) return new DatastoreFailure(`Redis at ${where} has no connection slot left: ${message}`, 'rejected');
  if (/certificate|self[- ]signed|altnames/i.test(message))
    return new DatastoreFailure(`Redis at ${where}: TLS certificate not trusted (${message})`, 'rejected');
  if (e.code === 'ECONNREFUSED' || /ECONNREFUSED/.test(message))
    return new DatastoreFailure(`Could not connect to ${where}: connection refused`, 'unreachable');
  if (/ETIMEDOUT|timed? ?out/i.test(message)) return new DatastoreFailure(`Could not connect to ${where}: no answer in time`, 'unreachable');
  if (/Connection is closed|ECONNRESET|socket/i.test(message) && endpoint.tls !== 'disable')
    return new DatastoreFailure(
      `Redis at ${where} closed the TLS connection: does it accept TLS? Set config.tls to "disable" to connect in plain text`,
      'rejected',
    );
  return new DatastoreFailure(`Could not connect to Redis at ${where}: ${e.code ?? message}`, 'unreachable');
}

function readFailure(error: unknown, command: string): string {
  const message = (error as RedisError).message ?? String(error);
  if (/^NOPERM/.test(message)) return `Redis refused ${command}: ${message} (see the permissions the tools need)`;
  if (/timed? ?out/i.test(message)) return `Redis gave no answer to ${command} in time`;
  return `Redis: ${message}`;
}
