import { DatastoreClient, DatastoreEndpoint } from '@svc/datastores';
import { DataSourceConnection, ToolCatalog, ToolContext } from '@svc/investigations/tools';
import { AppConfig, OutboundClient, Timestamp } from '@svc/platform';

/**
 * The datastore tools as an investigation runs them, against a datastore a test started: the real
 * catalog and datastore client under the default outbound policy (the service's own PostgreSQL and
 * Redis refused), an endpoint the test describes (`defaults`, read when a run starts, so it may name
 * a port known only once the server is up) and may vary per run, a window of the last ten minutes.
 */
export function datastoreTools(integrationId: string, defaults: () => DatastoreEndpoint, limits?: { statementTimeoutMs?: number; lockTimeoutMs?: number }) {
  const outbound = new OutboundClient(new AppConfig());
  const datastores = new DatastoreClient(outbound, { limits });
  const catalog = new ToolCatalog(undefined, { outbound, datastores });
  const endpoint = (overrides: Partial<DatastoreEndpoint> = {}): DatastoreEndpoint => ({ ...defaults(), ...overrides });
  const context = (overrides: Partial<DatastoreEndpoint> = {}, signal = new AbortController().signal): ToolContext => {
    const connection: DataSourceConnection = { integrationId, type: defaults().kind, baseUrl: '', headers: {}, endpoint: endpoint(overrides) };
    return { connection, window: { from: Timestamp.now().plusSeconds(-600), until: Timestamp.now() }, signal };
  };
  const run = (tool: string, args: Record<string, unknown> = {}, overrides: Partial<DatastoreEndpoint> = {}) => catalog.run(tool, args, context(overrides));
  return { catalog, datastores, endpoint, context, run };
}
