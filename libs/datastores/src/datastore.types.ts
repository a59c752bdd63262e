/** The datastores whose state investigations read directly (RabbitMQ is read over its HTTP management API instead). */
export type DatastoreKind = 'postgresql' | 'mysql' | 'redis';

/**
 * How the connection is protected: `disable` is plain text; `require` encrypts without checking
 * the server's certificate; `verify-full` (the default) encrypts and checks the certificate and
 * the host name against the trusted authorities.
 */
export type DatastoreTls = 'disable' | 'require' | 'verify-full';

/** Where a datastore is and how to sign in: from an integration's config and sealed credentials. */
export interface DatastoreEndpoint {
  kind: DatastoreKind;
  host: string;
  port: number;
  /** The database to connect to (PostgreSQL, MySQL); Redis ignores it. */
  database?: string;
  tls: DatastoreTls;
  username?: string;
  password?: string;
}

export const DEFAULT_PORTS: Record<DatastoreKind, number> = { postgresql: 5432, mysql: 3306, redis: 6379 };

export const DATASTORE_NAMES: Record<DatastoreKind, string> = { postgresql: 'PostgreSQL', mysql: 'MySQL', redis: 'Redis' };

/** What every session with a datastore is held to. */
export interface SessionLimits {
  /** Connecting, signing in included. */
  connectTimeoutMs: number;
  /** Each statement or command. */
  statementTimeoutMs: number;
  /** Waiting for a lock (PostgreSQL, MySQL): a diagnostic read never queues behind what it diagnoses. */
  lockTimeoutMs: number;
}

export const DEFAULT_SESSION_LIMITS: SessionLimits = { connectTimeoutMs: 5_000, statementTimeoutMs: 5_000, lockTimeoutMs: 1_000 };

/** The application name every session announces, so the datastore's own views tell it apart. */
export const SESSION_APPLICATION_NAME = 'incident-investigation';

/**
 * Where it failed: `refused` by the outbound policy (nothing was sent), `unresolved` (the host
 * name does not resolve), `unreachable` (no
 * connection, or no answer of the datastore's protocol in time), `rejected` by the datastore
 * (sign-in, database, TLS, no connection slot), or `read` (the session was open; a read failed).
 */
export type DatastoreFailureKind = 'refused' | 'unresolved' | 'unreachable' | 'rejected' | 'read';

/** A problem with the datastore or the read, in words fit for a tool run (never the credentials). */
export class DatastoreFailure extends Error {
  constructor(
    message: string,
    readonly kind: DatastoreFailureKind = 'read',
  ) {
    super(message);
    this.name = 'DatastoreFailure';
  }
}

/** Rows a read returns at most per list; the tool's output cap cuts further. */
export const MAX_ROWS = 50;
/** Statement texts are cut to this many characters. */
export const MAX_STATEMENT_LENGTH = 1000;
