import { DatastoreEndpoint, DatastoreKind, DatastoreTls, DEFAULT_PORTS } from '@svc/datastores';

/** A datastore integration's stored sign-in. */
export interface DatastoreCredentials {
  username?: string;
  password?: string;
}

/** Where a datastore integration's config says the datastore is, with its sign-in. */
export function datastoreEndpoint(kind: DatastoreKind, config: Record<string, unknown>, credentials: DatastoreCredentials | null): DatastoreEndpoint {
  return {
    kind,
    host: String(config.host ?? ''),
    port: typeof config.port === 'number' ? config.port : DEFAULT_PORTS[kind],
    database: typeof config.database === 'string' ? config.database : undefined,
    tls: typeof config.tls === 'string' ? (config.tls as DatastoreTls) : 'verify-full',
    username: credentials?.username,
    password: credentials?.password,
  };
}

/** The services a datastore integration names as those it serves. */
export function servicesOf(config: Record<string, unknown>): string[] {
  return Array.isArray(config.services) ? config.services.filter((s): s is string => typeof s === 'string') : [];
}
