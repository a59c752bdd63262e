import type { DatastoreClient, DatastoreEndpoint, DatastoreKind } from '@svc/datastores';
import type { OutboundClient, Timestamp } from '@svc/platform';

/** The integration types whose data the investigation tools read. */
export type DataSourceType = 'prometheus' | 'alertmanager' | 'rabbitmq' | 'loki' | 'kubernetes' | DatastoreKind;

/**
 * Where a tool reads from: an integration's HTTP API, with its credentials already turned into
 * headers, or a datastore's endpoint with its credentials.
 */
export interface DataSourceConnection {
  integrationId: string;
  type: DataSourceType;
  /** The HTTP API (empty for a datastore). */
  baseUrl: string;
  /** A datastore's address and sign-in (never echoed into results). */
  endpoint?: DatastoreEndpoint;
  /** Sent with every request (authorization and the like); never echoed into results. */
  headers: Record<string, string>;
  /** The CA (PEM) a Kubernetes API server's certificate is checked against, when the integration has one. */
  ca?: string;
  /** The only namespaces a Kubernetes integration's tools read; undefined for every one. */
  namespaces?: string[];
  /** Set when the integration is reached through a relay (baseUrl and headers are then the relay's, not here). */
  relayId?: string | null;
  /** The integration's Organization: required to read through a relay. */
  organizationId?: string;
}

/** A read through a relay, as the tools need it (implemented by the relays library's job service). */
export interface RelayReader {
  read(request: {
    organizationId: string;
    relayId: string;
    integrationId: string;
    integrationType: string;
    path: string;
    query: ReadonlyArray<readonly [string, string]>;
    signal: AbortSignal;
    maxBytes: number;
    timeoutMs: number;
  }): Promise<{ status: number; body: Buffer; complete: boolean }>;
}

/** A half-open time range [from, until]. */
export interface ToolWindow {
  from: Timestamp;
  until: Timestamp;
}

export interface ToolContext {
  connection: DataSourceConnection;
  /** The investigation's window: the default range of every tool that reads one. */
  window: ToolWindow;
  /** Cancellation and the catalog's timeout: a tool passes it to every request it makes. */
  signal: AbortSignal;
  /** The client every request to the integration goes through (under the outbound policy); the catalog sets it. */
  outbound?: OutboundClient;
  /** How reads of relay-bound integrations are made; the catalog sets it. */
  relay?: RelayReader;
  /** How datastores are read (under the outbound policy); the catalog sets it. */
  datastores?: DatastoreClient;
  /** The catalog's per-run timeout, which a relay is given for its own request. */
  timeoutMs?: number;
}

export interface ToolResult {
  outcome: 'succeeded' | 'failed';
  /** One or two sentences about what came back, computed over the whole answer (before any cut). */
  summary: string;
  /** JSON; at most the catalog's output cap once serialized. */
  output: unknown;
  /** True when the catalog cut the output to fit its cap; the output's `truncation` says what it kept. */
  truncated: boolean;
  /** What was read: URL path and query of each request, never the origin or credentials. */
  sources: string[];
  /** Why a failed run failed (at most 4096 characters). */
  error?: string;
  /** The time range actually read, for tools that read one. */
  window?: ToolWindow;
}

/** What a reasoner is shown of a tool: the same for the built-in reasoner and a language model. */
export interface ToolDescriptor {
  /** Lowercase letters, digits, `_` and `.` only, e.g. `prometheus.query_range`. */
  name: string;
  /** For a language model: what the tool does and when to use it. */
  description: string;
  integrationType: DataSourceType;
  /** JSON Schema of the arguments object (`additionalProperties: false`). */
  argumentsSchema: Record<string, unknown>;
}

export interface ToolDefinition<A = Record<string, unknown>> extends ToolDescriptor {
  /**
   * What the schema cannot say (a query that must parse in the system's language): null when the
   * arguments, already valid against `argumentsSchema`, are fine, else one sentence naming the
   * problem. A call it refuses is refused before any request, as a schema violation is.
   */
  check?(args: A): string | null;
  /**
   * Runs with arguments the catalog has already validated against `argumentsSchema`.
   * Throws ToolFailure (or anything else) for problems; the catalog turns every throw into a failed result.
   */
  run(args: A, context: ToolContext): Promise<ToolResult>;
}
