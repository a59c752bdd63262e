/** A backing service the API cannot answer without. */
export type Dependency = 'PostgreSQL' | 'Redis';

/** Socket failures of a connection to PostgreSQL or Redis: refused, reset, unreachable, timed out. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);

/**
 * PostgreSQL's own refusals of an otherwise working request: the server is shutting down or
 * starting (57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now), out of
 * connection slots (53300 too_many_connections), or the connection failed (class 08).
 */
const POSTGRES_CODES = new Set(['57P01', '57P02', '57P03', '53300']);

/** What node-postgres (client and pool) throws when the connection is gone or never came. */
const POSTGRES_MESSAGES = [
  /^Connection terminated/, // unexpectedly, due to connection timeout, or by the pool
  /^timeout exceeded when trying to connect$/, // pg-pool: no connection within connectionTimeoutMillis
  /^Client has encountered a connection error and is not queryable$/,
  /^Client was closed and is not queryable$/,
  /^Cannot use a pool after calling end on the pool$/,
  /^Query read timeout$/, // no answer within query_timeout (SVC_DATABASE_QUERY_TIMEOUT_MS)
];

/** What ioredis throws when a command cannot reach Redis. */
const REDIS_MESSAGES = [
  /^Connection is closed\.$/,
  /^Stream isn't writeable and enableOfflineQueue options is false$/,
  /^Reached the max retries per request limit/,
];

interface ErrorLike {
  name?: unknown;
  message?: unknown;
  code?: unknown;
  driverError?: unknown;
  errors?: unknown;
}

/**
 * Whether `error` says that PostgreSQL or Redis cannot be reached or stopped answering (rather
 * than that the request or the code is wrong), and which. Looks through TypeORM's
 * QueryFailedError to the driver's error and into an AggregateError (a host name with several
 * addresses, all refused). A socket error code alone counts only when it is the driver's: an
 * outbound HTTP call's failure is not the database's.
 */
export function unavailableDependency(error: unknown): Dependency | undefined {
  return classify(error, 0);
}

function classify(error: unknown, depth: number): Dependency | undefined {
  if (depth > 3 || typeof error !== 'object' || error === null) return undefined;
  const e = error as ErrorLike;
  const message = typeof e.message === 'string' ? e.message : '';
  const code = typeof e.code === 'string' ? e.code : undefined;
  if (e.name === 'MaxRetriesPerRequestError' || REDIS_MESSAGES.some((m) => m.test(message))) return 'Redis';
  if (code !== undefined && (POSTGRES_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return 'PostgreSQL';
  if (POSTGRES_MESSAGES.some((m) => m.test(message))) return 'PostgreSQL';
  if (e.driverError !== undefined) return classify(e.driverError, depth + 1);
  // node-postgres hands the socket's own error through (`connect ECONNREFUSED 127.0.0.1:5432`), as
  // a plain Error: it is not wrapped by anything that would say it came from the database. The
  // service wraps every outbound HTTP failure (OutboundError), so a bare socket error reaching the
  // HTTP layer is the database's or Redis's.
  if (code !== undefined && SOCKET_CODES.has(code) && e.name === 'Error') return 'PostgreSQL';
  if (Array.isArray(e.errors) && e.errors.length > 0) {
    const inner = e.errors.map((x) => classify(x, depth + 1));
    if (inner.every((d) => d !== undefined)) return inner[0];
  }
  return undefined;
}
