import { isIP } from 'node:net';
import { Client, ClientConfig } from 'pg';
import { DatastoreEndpoint, DatastoreFailure, SESSION_APPLICATION_NAME, SessionLimits } from '../datastore.types';

/**
 * A read-only session with a PostgreSQL server: every transaction is read only
 * (`default_transaction_read_only`, and each read runs in `BEGIN READ ONLY`), every statement
 * has a timeout and every lock wait a shorter one, and the session announces itself by its
 * application name. Nothing it runs is written by a user: only the reads of this library.
 */
export class PostgresqlSession {
  private constructor(private readonly client: Client) {}

  /** Connects to `address` (one the outbound policy allowed for the endpoint's host). */
  static async open(endpoint: DatastoreEndpoint, address: string, limits: SessionLimits, signal: AbortSignal, ca?: string): Promise<PostgresqlSession> {
    const config: ClientConfig = {
      host: address,
      port: endpoint.port,
      user: endpoint.username,
      password: endpoint.password ?? '',
      database: endpoint.database ?? 'postgres',
      application_name: SESSION_APPLICATION_NAME,
      connectionTimeoutMillis: limits.connectTimeoutMs,
      statement_timeout: limits.statementTimeoutMs,
      lock_timeout: limits.lockTimeoutMs,
      idle_in_transaction_session_timeout: limits.statementTimeoutMs,
      options: '-c default_transaction_read_only=on',
      ssl:
        endpoint.tls === 'disable'
          ? false
          : {
              rejectUnauthorized: endpoint.tls === 'verify-full',
              // The certificate names the host the integration was configured with, not the address connected to.
              ...(isIP(endpoint.host) ? {} : { servername: endpoint.host }),
              ...(ca ? { ca } : {}),
            },
    };
    const client = new Client(config);
    client.on('error', () => undefined); // a connection lost mid-read fails that read; nothing else listens
    const abort = () => void client.end().catch(() => undefined);
    signal.addEventListener('abort', abort, { once: true });
    try {
      await client.connect();
    } catch (error) {
      signal.removeEventListener('abort', abort);
      await client.end().catch(() => undefined);
      const failure = connectFailure(endpoint, error);
      throw new DatastoreFailure(failure.message, failure.kind);
    }
    return new PostgresqlSession(client);
  }

  /**
   * Runs `work` in one read-only transaction, rolled back at the end: what it reads is one
   * snapshot of the statistics views, and nothing can be written.
   */
  async readOnly<T>(work: (query: <R>(sql: string, params?: unknown[]) => Promise<R[]>) => Promise<T>): Promise<T> {
    await this.client.query('BEGIN TRANSACTION READ ONLY');
    try {
      return await work(async <R>(sql: string, params: unknown[] = []) => (await this.client.query(sql, params)).rows as R[]);
    } catch (error) {
      throw new DatastoreFailure(queryFailure(error));
    } finally {
      await this.client.query('ROLLBACK').catch(() => undefined);
    }
  }

  /** One statement outside the reads' transaction: for tests that prove a write is refused. */
  async statement(sql: string): Promise<void> {
    try {
      await this.client.query(sql);
    } catch (error) {
      throw new DatastoreFailure(queryFailure(error));
    }
  }

  async close(): Promise<void> {
    await this.client.end().catch(() => undefined);
  }
}

interface PgError {
  code?: string;
  message?: string;
}

/** Why a connection failed, without the password or anything the server sent beyond its error. */
function connectFailure(endpoint: DatastoreEndpoint, error: unknown): { message: string; kind: 'unreachable' | 'rejected' } {
  const e = error as PgError;
  const where = `${endpoint.host}:${endpoint.port}`;
  const rejected = (message: string) => ({ message, kind: 'rejected' as const });
  if (e.code === '28P01' || e.code === '28000')
    return rejected(`PostgreSQL at ${where} refused the sign-in of ${endpoint.username ?? 'the user'}: ${e.message}`);
  if (e.code === '3D000') return rejected(`PostgreSQL at ${where}: ${e.message}`);
  if (e.code === '53300') return rejected(`PostgreSQL at ${where} has no connection slot left: ${e.message}`);
  if (/does not support SSL/i.test(e.message ?? ''))
    return rejected(`PostgreSQL at ${where} does not accept TLS connections; set config.tls to "disable" to connect in plain text`);
  if (/self[- ]signed|certificate|altnames/i.test(e.message ?? '')) return rejected(`PostgreSQL at ${where}: TLS certificate not trusted (${e.message})`);
  if (e.code === 'ECONNREFUSED') return { message: `Could not connect to ${where}: connection refused`, kind: 'unreachable' };
  if (/timeout/i.test(e.message ?? '')) return { message: `Could not connect to ${where}: no answer in time`, kind: 'unreachable' };
  if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return rejected(`PostgreSQL at ${where}: ${e.message} (${e.code})`);
  return { message: `Could not connect to PostgreSQL at ${where}: ${e.code ?? e.message ?? String(error)}`, kind: 'unreachable' };
}

function queryFailure(error: unknown): string {
  const e = error as PgError;
  if (e instanceof DatastoreFailure) return e.message;
  if (e.code === '57014') return 'PostgreSQL cancelled the read at the statement timeout';
  if (e.code === '55P03') return 'PostgreSQL could not take a lock in time (lock timeout)';
  if (e.code === '42501') return `PostgreSQL refused the read: ${e.message} (see the privileges the tools need)`;
  return `PostgreSQL: ${e.message ?? String(error)}${e.code ? ` (${e.code})` : ''}`;
}
