import { connect as tcpConnect, isIP } from 'node:net';
import { checkServerIdentity, TLSSocket } from 'node:tls';
import { Connection, ConnectionOptions, createConnection } from 'mysql2/promise';
import { DatastoreEndpoint, DatastoreFailure, SESSION_APPLICATION_NAME, SessionLimits } from '../datastore.types';

/** The server a session is connected to: MariaDB and MySQL differ in a few settings and views. */
export interface MysqlServer {
  /** As the server says it, e.g. `10.11.6-MariaDB-0+deb12u1` or `8.0.36`. */
  version: string;
  mariadb: boolean;
  /** `MariaDB` or `MySQL`, for messages. */
  product: 'MariaDB' | 'MySQL';
}

export type MysqlQuery = <R>(sql: string, params?: unknown[]) => Promise<R[]>;

/**
 * A read-only session with a MySQL or MariaDB server: every transaction is read only
 * (`SET SESSION TRANSACTION READ ONLY`, and each read runs in `START TRANSACTION READ ONLY`),
 * every statement has a timeout (`max_statement_time` on MariaDB, `max_execution_time` on MySQL)
 * and every lock wait a shorter one (`innodb_lock_wait_timeout`, `lock_wait_timeout`), and the
 * session announces itself by its program name (a connection attribute). Nothing it runs is
 * written by a user: only the reads of this library.
 */
export class MysqlSession {
  private constructor(
    private readonly connection: Connection,
    readonly server: MysqlServer,
    private readonly release: () => void,
  ) {}

  /** Connects to `address` (one the outbound policy allowed for the endpoint's host). */
  static async open(endpoint: DatastoreEndpoint, address: string, limits: SessionLimits, signal: AbortSignal, ca?: string): Promise<MysqlSession> {
    const verifyHost = endpoint.tls === 'verify-full' && !isIP(endpoint.host);
    const options: ConnectionOptions = {
      // mysql2 takes the TLS server name and the name the certificate is checked against from `host`:
      // with verify-full that is the host the integration was configured with, while the socket goes to the checked address.
      host: verifyHost ? endpoint.host : address,
      ...(verifyHost
        ? {
            stream: () => {
              const socket = tcpConnect({ host: address, port: endpoint.port });
              socket.setNoDelay(true);
              return socket;
            },
          }
        : {}),
      port: endpoint.port,
      user: endpoint.username,
      password: endpoint.password ?? '',
      // No default database: every read is server-wide (information_schema, performance_schema, SHOW), and MySQL lets an
      // account use a database only with a privilege on it, which a monitoring account needs on none (endpoint.database is not used).
      connectTimeout: limits.connectTimeoutMs,
      connectAttributes: { program_name: SESSION_APPLICATION_NAME },
      // Numbers as numbers (DECIMAL included), times read as UTC (the session's time zone is set to UTC below).
      decimalNumbers: true,
      timezone: 'Z',
      multipleStatements: false,
      ssl:
        endpoint.tls === 'disable'
          ? undefined
          : endpoint.tls === 'require'
            ? { rejectUnauthorized: false }
            : { rejectUnauthorized: true, verifyIdentity: true, ...(ca ? { ca } : {}) },
    };
    let connection: Connection | undefined;
    let onAbort: () => void = () => undefined;
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => {
        connection?.destroy();
        reject(signal.reason);
      };
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    });
    aborted.catch(() => undefined);
    const release = () => signal.removeEventListener('abort', onAbort);
    const connecting = createConnection(options);
    try {
      connection = await Promise.race([connecting, aborted]);
    } catch (error) {
      release();
      // A connection that completes after the abort is closed at once.
      connecting.then((late) => late.destroy()).catch(() => undefined);
      if (signal.aborted) throw signal.reason;
      const failure = connectFailure(endpoint, error);
      throw new DatastoreFailure(failure.message, failure.kind);
    }
    connection.on('error', () => undefined); // a connection lost mid-read fails that read; nothing else listens
    try {
      // mysql2 checks the certificate's name only against a host name; an address is checked here, before any read.
      if (endpoint.tls === 'verify-full' && isIP(endpoint.host)) checkAddressIdentity(connection, endpoint);
      const [{ version }] = (await connection.query('SELECT VERSION() AS version'))[0] as Array<{ version: string }>;
      const mariadb = /mariadb/i.test(version);
      const server: MysqlServer = { version, mariadb, product: mariadb ? 'MariaDB' : 'MySQL' };
      await connection.query('SET SESSION TRANSACTION READ ONLY');
      const lockSeconds = Math.max(1, Math.ceil(limits.lockTimeoutMs / 1000));
      const statementTimeout = mariadb
        ? `max_statement_time = ${Math.max(0.001, limits.statementTimeoutMs / 1000)}`
        : `max_execution_time = ${Math.max(1, Math.round(limits.statementTimeoutMs))}`;
      await connection.query(
        `SET SESSION ${statementTimeout}, innodb_lock_wait_timeout = ${lockSeconds}, lock_wait_timeout = ${lockSeconds}, time_zone = '+00:00'`,
      );
      return new MysqlSession(connection, server, release);
    } catch (error) {
      release();
      connection.destroy();
      if (signal.aborted) throw signal.reason;
      if (error instanceof DatastoreFailure) throw error;
      throw new DatastoreFailure(queryFailure(error, 'MySQL'), 'rejected');
    }
  }

  /**
   * Runs `work` in one read-only transaction, rolled back at the end: what it reads of InnoDB is
   * one consistent snapshot, and nothing can be written.
   */
  async readOnly<T>(work: (query: MysqlQuery) => Promise<T>): Promise<T> {
    try {
      await this.connection.query('START TRANSACTION READ ONLY');
      return await work(async <R>(sql: string, params: unknown[] = []) => (await this.connection.query(sql, params))[0] as R[]);
    } catch (error) {
      throw new DatastoreFailure(queryFailure(error, this.server.product));
    } finally {
      await this.connection.query('ROLLBACK').catch(() => undefined);
    }
  }

  /** One statement outside the reads' transaction: for tests that prove a write is refused. */
  async statement(sql: string): Promise<void> {
    try {
      await this.connection.query(sql);
    } catch (error) {
      throw new DatastoreFailure(queryFailure(error, this.server.product));
    }
  }

  async close(): Promise<void> {
    this.release();
    await this.connection.end().catch(() => this.connection.destroy());
  }
}

interface MysqlError {
  code?: string;
  errno?: number;
  message?: string;
}

/** The TLS socket under a connection, to check its certificate (mysql2 keeps it on the core connection). */
function checkAddressIdentity(connection: Connection, endpoint: DatastoreEndpoint): void {
  const socket = (connection as unknown as { connection?: { stream?: unknown } }).connection?.stream;
  const where = `${endpoint.host}:${endpoint.port}`;
  if (!(socket instanceof TLSSocket)) throw new DatastoreFailure(`MySQL at ${where}: the connection is not encrypted`, 'rejected');
  const problem = checkServerIdentity(endpoint.host, socket.getPeerCertificate());
  if (problem) throw new DatastoreFailure(`MySQL at ${where}: TLS certificate not trusted (${problem.message})`, 'rejected');
}

/** Why a connection failed, without the password or anything the server sent beyond its error. */
function connectFailure(endpoint: DatastoreEndpoint, error: unknown): { message: string; kind: 'unreachable' | 'rejected' } {
  const e = error as MysqlError;
  const where = `${endpoint.host}:${endpoint.port}`;
  const message = e.message ?? String(error);
  const rejected = (text: string) => ({ message: text, kind: 'rejected' as const });
  // ER_ACCESS_DENIED_ERROR, ER_ACCESS_DENIED_NO_PASSWORD_ERROR, ER_HOST_NOT_PRIVILEGED
  if (e.errno === 1045 || e.errno === 1698 || e.errno === 1130)
    return rejected(`MySQL at ${where} refused the sign-in of ${endpoint.username ?? 'the user'}: ${message}`);
  // ER_DBACCESS_DENIED_ERROR, ER_BAD_DB_ERROR
  if (e.errno === 1044 || e.errno === 1049) return rejected(`MySQL at ${where}: ${message}`);
  // ER_CON_COUNT_ERROR
  if (e.errno === 1040 || /too many connections/i.test(message)) return rejected(`MySQL at ${where} has no connection slot left: ${message}`);
  // ER_TOO_MANY_USER_CONNECTIONS, ER_USER_LIMIT_REACHED
  if (e.errno === 1203 || e.errno === 1226) return rejected(`MySQL at ${where} has no connection slot left for ${endpoint.username ?? 'the user'}: ${message}`);
  // ER_HOST_IS_BLOCKED
  if (e.errno === 1129) return rejected(`MySQL at ${where} blocks this host after too many connection errors (FLUSH HOSTS unblocks it): ${message}`);
  if (e.code === 'HANDSHAKE_NO_SSL_SUPPORT' || /does not support secure connection/i.test(message))
    return rejected(`MySQL at ${where} does not accept TLS connections; set config.tls to "disable" to connect in plain text`);
  // ER_SECURE_TRANSPORT_REQUIRED
  if (e.errno === 3159) return rejected(`MySQL at ${where} requires TLS; set config.tls to "require" or "verify-full"`);
  if (/self[- ]signed|certificate|altnames|CERT_|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER/i.test(`${e.code ?? ''} ${message}`))
    return rejected(`MySQL at ${where}: TLS certificate not trusted (${message})`);
  if (e.code === 'ECONNREFUSED') return { message: `Could not connect to ${where}: connection refused`, kind: 'unreachable' };
  if (e.code === 'ETIMEDOUT' || /timeout|timed out/i.test(message)) return { message: `Could not connect to ${where}: no answer in time`, kind: 'unreachable' };
  if (typeof e.errno === 'number' && e.errno > 0) return rejected(`MySQL at ${where}: ${message} (${e.code ?? e.errno})`);
  return { message: `Could not connect to MySQL at ${where}: ${e.code ?? message}`, kind: 'unreachable' };
}

function queryFailure(error: unknown, product: string): string {
  const e = error as MysqlError;
  if (e instanceof DatastoreFailure) return e.message;
  // MariaDB's ER_STATEMENT_TIMEOUT (max_statement_time), MySQL's ER_QUERY_TIMEOUT (max_execution_time)
  if (e.errno === 1969 || e.errno === 3024) return `${product} cancelled the read at the statement timeout`;
  // ER_LOCK_WAIT_TIMEOUT (a row), and a metadata lock past lock_wait_timeout reports the same
  if (e.errno === 1205) return `${product} could not take a lock in time (lock wait timeout)`;
  // ER_SPECIFIC_ACCESS_DENIED_ERROR, ER_TABLEACCESS_DENIED_ERROR, ER_COLUMNACCESS_DENIED_ERROR, ER_DBACCESS_DENIED_ERROR
  if (e.errno === 1227 || e.errno === 1142 || e.errno === 1143 || e.errno === 1044)
    return `${product} refused the read: ${e.message} (see the privileges the tools need)`;
  if (e.code === 'PROTOCOL_CONNECTION_LOST' || e.code === 'ECONNRESET') return `${product} closed the connection during the read`;
  return `${product}: ${e.message ?? String(error)}${e.code ? ` (${e.code})` : e.errno ? ` (${e.errno})` : ''}`;
}
