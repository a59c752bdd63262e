import type { DatastoreEndpoint, SessionLimits } from './datastore.types';
import type { DatastoreVerification } from './datastore-verification';

/** An open read-only session with one datastore. */
export interface DatastoreSession {
  close(): Promise<void>;
}

/**
 * One kind of datastore: how a read-only session is opened to a checked address, the reads it
 * offers by name, and how verify reads what the account may do. Opening throws
 * DatastoreFailure (`unreachable` or `rejected`); a read or verify throws DatastoreFailure
 * (`read`).
 */
export interface DatastoreDriver<S extends DatastoreSession = DatastoreSession> {
  open(endpoint: DatastoreEndpoint, address: string, limits: SessionLimits, signal: AbortSignal, ca?: string): Promise<S>;
  /** Every read this kind offers: what a tool or a relay job may ask for. */
  reads: Record<string, (session: S, args: Record<string, unknown>) => Promise<unknown>>;
  verify(session: S): Promise<DatastoreVerification>;
}
