import { OutboundClient, OutboundError } from '@svc/platform';
import {
  DATASTORE_NAMES,
  DatastoreEndpoint,
  DatastoreFailure,
  DatastoreFailureKind,
  DatastoreKind,
  DEFAULT_SESSION_LIMITS,
  SessionLimits,
} from './datastore.types';
import type { DatastoreDriver, DatastoreSession } from './datastore-driver';
import type { DatastoreVerification } from './datastore-verification';
import { MYSQL_DRIVER } from './mysql';
import { POSTGRESQL_DRIVER } from './postgresql';
import { REDIS_DRIVER } from './redis';

/** Every kind of datastore this release reads. */
const DRIVERS: Partial<Record<DatastoreKind, DatastoreDriver>> = {
  // Each driver's reads take its own session; the client hands each the session its driver opened.
  postgresql: POSTGRESQL_DRIVER as unknown as DatastoreDriver,
  mysql: MYSQL_DRIVER as unknown as DatastoreDriver,
  redis: REDIS_DRIVER as unknown as DatastoreDriver,
};

/** The reads of each kind of datastore, by name: what a tool or a relay job may ask for. */
export const DATASTORE_READS: Record<DatastoreKind, readonly string[]> = {
  postgresql: Object.keys(DRIVERS.postgresql?.reads ?? {}),
  mysql: Object.keys(DRIVERS.mysql?.reads ?? {}),
  redis: Object.keys(DRIVERS.redis?.reads ?? {}),
};

/** The addresses a connection to `host`:`port` may be made to (throws OutboundError when none may). */
export type AddressResolver = (host: string, port: number) => Promise<string[]>;

export interface DatastoreClientOptions {
  limits?: Partial<SessionLimits>;
  /** Extra trusted certificate authorities (PEM) for `verify-full`. */
  ca?: string;
}

/**
 * The one way to a datastore: the host is resolved and every address checked by the outbound
 * policy (decisions §13), the session opened to a checked address with the read-only settings
 * and timeouts of its kind, one named read run, the session closed. Nothing is kept open between
 * reads: an investigation reads a datastore a few times, and a held connection would count
 * against the very limit a connection incident is about.
 */
export class DatastoreClient {
  private readonly limits: SessionLimits;

  private readonly resolve: AddressResolver;

  /**
   * `addresses`: the outbound client of the control plane (its policy decides), or, in a relay,
   * a resolver of the relay's own network.
   */
  constructor(
    addresses: OutboundClient | AddressResolver,
    private readonly options: DatastoreClientOptions = {},
  ) {
    this.limits = { ...DEFAULT_SESSION_LIMITS, ...options.limits };
    this.resolve = addresses instanceof OutboundClient ? (host, port) => addresses.allowedAddresses(host, port) : addresses;
  }

  /** Runs the named read; throws DatastoreFailure saying why it could not (an abort is rethrown as is). */
  async read(endpoint: DatastoreEndpoint, read: string, args: Record<string, unknown>, signal: AbortSignal): Promise<unknown> {
    const run = DRIVERS[endpoint.kind]?.reads[read];
    if (!run || !Object.hasOwn(DRIVERS[endpoint.kind]!.reads, read))
      throw new DatastoreFailure(`${DATASTORE_NAMES[endpoint.kind] ?? endpoint.kind} has no read named ${read}`);
    return this.withSession(endpoint, signal, (session) => run(session, args));
  }

  /** Connects, signs in and reads what the account may do; a failure says where it failed (`failure`). */
  async verify(endpoint: DatastoreEndpoint, signal: AbortSignal): Promise<DatastoreVerification & { failure?: DatastoreFailureKind }> {
    try {
      return await this.withSession(endpoint, signal, (session) => this.driver(endpoint).verify(session));
    } catch (error) {
      if (error instanceof DatastoreFailure) return { outcome: 'failed', detail: error.message, failure: error.kind };
      throw error;
    }
  }

  /** A session for `work` (the tests use it to show what a session refuses), closed after it. */
  async withSession<T, S extends DatastoreSession = DatastoreSession>(
    endpoint: DatastoreEndpoint,
    signal: AbortSignal,
    work: (session: S) => Promise<T>,
  ): Promise<T> {
    const session = (await this.open(endpoint, signal)) as S;
    try {
      return await work(session);
    } finally {
      await session.close();
    }
  }

  private driver(endpoint: DatastoreEndpoint): DatastoreDriver {
    const driver = DRIVERS[endpoint.kind];
    if (!driver) throw new DatastoreFailure(`${endpoint.kind} datastores are not read by this release`);
    return driver;
  }

  private async open(endpoint: DatastoreEndpoint, signal: AbortSignal): Promise<DatastoreSession> {
    const driver = this.driver(endpoint);
    let addresses: string[];
    try {
      addresses = await this.resolve(endpoint.host, endpoint.port);
    } catch (error) {
      if (error instanceof OutboundError && error.kind === 'refused') throw new DatastoreFailure(`Refused: ${error.message}`, 'refused');
      const why = error instanceof OutboundError ? error.message : `${endpoint.host} does not resolve`;
      throw new DatastoreFailure(`Could not connect to ${endpoint.host}:${endpoint.port}: ${why}`, 'unresolved');
    }
    if (addresses.length === 0)
      throw new DatastoreFailure(`Could not connect to ${endpoint.host}:${endpoint.port}: ${endpoint.host} does not resolve`, 'unresolved');
    let failure: unknown;
    for (const address of addresses) {
      if (signal.aborted) throw signal.reason;
      try {
        return await driver.open(endpoint, address, this.limits, signal, this.options.ca);
      } catch (error) {
        failure = error;
        if (!(error instanceof DatastoreFailure) || error.kind !== 'unreachable') break;
      }
    }
    if (signal.aborted) throw signal.reason;
    throw failure;
  }
}
