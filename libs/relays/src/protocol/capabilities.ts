/**
 * What a relay can be asked to do: one capability per kind of read of an integration's HTTP API,
 * or per named read of a datastore (its path is the read's name, its one query parameter
 * `arguments` the read's arguments as JSON). A capability names the paths it may read; the relay
 * checks a job's path against this table and against its own configuration before it connects to
 * anything, and the control plane sends a job only for a capability the relay advertised for that
 * integration.
 */
export interface CapabilityDefinition {
  capabilityId: string;
  capabilityVersion: number;
  integrationType: 'prometheus' | 'alertmanager' | 'rabbitmq' | 'loki' | 'kubernetes' | RelayDatastoreType;
  /** Paths (relative to the system's base URL, no leading slash) this capability reads. */
  paths: RegExp;
}

/** The datastores a relay reads next to them, with the named reads of each (the datastores library's, by the same names). */
export const RELAY_DATASTORE_READS = {
  postgresql: ['activity', 'locks', 'connections', 'statements', 'replication', 'maintenance', 'sizes', 'verify'],
  mysql: ['processlist', 'lock_waits', 'connections', 'statements', 'replication', 'verify'],
  redis: ['info', 'slowlog', 'latency', 'clients', 'verify'],
} as const;

export type RelayDatastoreType = keyof typeof RELAY_DATASTORE_READS;

export const isRelayDatastore = (type: string): type is RelayDatastoreType => Object.hasOwn(RELAY_DATASTORE_READS, type);

/** One capability per datastore read, named as its tool is (`postgresql.locks`); `verify` reads what the account may do. */
const DATASTORE_CAPABILITIES: CapabilityDefinition[] = Object.entries(RELAY_DATASTORE_READS).flatMap(([type, reads]) =>
  reads.map((read) => ({
    capabilityId: `${type}.${read}`,
    capabilityVersion: 1,
    integrationType: type as RelayDatastoreType,
    paths: new RegExp(`^${read}$`),
  })),
);

export const CAPABILITIES: readonly CapabilityDefinition[] = [
  { capabilityId: 'prometheus.query', capabilityVersion: 1, integrationType: 'prometheus', paths: /^api\/v1\/query$/ },
  { capabilityId: 'prometheus.query_range', capabilityVersion: 1, integrationType: 'prometheus', paths: /^api\/v1\/query_range$/ },
  { capabilityId: 'prometheus.series', capabilityVersion: 1, integrationType: 'prometheus', paths: /^api\/v1\/series$/ },
  { capabilityId: 'prometheus.label_values', capabilityVersion: 1, integrationType: 'prometheus', paths: /^api\/v1\/label\/[^/]+\/values$/ },
  { capabilityId: 'prometheus.metadata', capabilityVersion: 1, integrationType: 'prometheus', paths: /^api\/v1\/metadata$/ },
  { capabilityId: 'prometheus.targets', capabilityVersion: 1, integrationType: 'prometheus', paths: /^api\/v1\/targets$/ },
  { capabilityId: 'prometheus.alert_rules', capabilityVersion: 1, integrationType: 'prometheus', paths: /^api\/v1\/rules$/ },
  { capabilityId: 'prometheus.status', capabilityVersion: 1, integrationType: 'prometheus', paths: /^api\/v1\/status\/buildinfo$/ },
  { capabilityId: 'alertmanager.alerts', capabilityVersion: 1, integrationType: 'alertmanager', paths: /^api\/v2\/alerts$/ },
  { capabilityId: 'alertmanager.silences', capabilityVersion: 1, integrationType: 'alertmanager', paths: /^api\/v2\/silences$/ },
  { capabilityId: 'alertmanager.status', capabilityVersion: 1, integrationType: 'alertmanager', paths: /^api\/v2\/status$/ },
  { capabilityId: 'rabbitmq.overview', capabilityVersion: 1, integrationType: 'rabbitmq', paths: /^api\/(overview|nodes|whoami)$/ },
  { capabilityId: 'rabbitmq.queues', capabilityVersion: 1, integrationType: 'rabbitmq', paths: /^api\/queues$/ },
  { capabilityId: 'rabbitmq.connections', capabilityVersion: 1, integrationType: 'rabbitmq', paths: /^api\/connections$/ },
  // loki.labels is also what verify reads; loki.log_patterns reads Loki's own patterns (the tool mines lines through loki.query_range without it).
  { capabilityId: 'loki.labels', capabilityVersion: 1, integrationType: 'loki', paths: /^loki\/api\/v1\/(labels|label\/[^/]+\/values)$/ },
  { capabilityId: 'loki.query_range', capabilityVersion: 1, integrationType: 'loki', paths: /^loki\/api\/v1\/query_range$/ },
  { capabilityId: 'loki.patterns', capabilityVersion: 1, integrationType: 'loki', paths: /^loki\/api\/v1\/patterns$/ },
  // Kubernetes: GETs of the API paths the tools read, in a namespace (a DNS label) and of an object (a DNS subdomain name),
  // and kubernetes.access, verify's SelfSubjectRulesReview, which the relay POSTs itself with the job's `namespace` only.
  {
    capabilityId: 'kubernetes.access',
    capabilityVersion: 1,
    integrationType: 'kubernetes',
    paths: /^apis\/authorization\.k8s\.io\/v1\/selfsubjectrulesreviews$/,
  },
  {
    capabilityId: 'kubernetes.events',
    capabilityVersion: 1,
    integrationType: 'kubernetes',
    paths: /^(api\/v1|apis\/events\.k8s\.io\/v1)\/(namespaces\/[a-z0-9-]{1,63}\/)?events$/,
  },
  {
    capabilityId: 'kubernetes.pods',
    capabilityVersion: 1,
    integrationType: 'kubernetes',
    paths: /^api\/v1\/(pods|namespaces\/[a-z0-9-]{1,63}\/pods(\/[a-z0-9][-a-z0-9.]{0,252})?)$/,
  },
  {
    capabilityId: 'kubernetes.logs',
    capabilityVersion: 1,
    integrationType: 'kubernetes',
    paths: /^api\/v1\/namespaces\/[a-z0-9-]{1,63}\/pods\/[a-z0-9][-a-z0-9.]{0,252}\/log$/,
  },
  {
    capabilityId: 'kubernetes.workloads',
    capabilityVersion: 1,
    integrationType: 'kubernetes',
    paths: /^apis\/apps\/v1\/namespaces\/[a-z0-9-]{1,63}\/(deployments|statefulsets|daemonsets|replicasets|controllerrevisions)(\/[a-z0-9][-a-z0-9.]{0,252})?$/,
  },
  { capabilityId: 'kubernetes.nodes', capabilityVersion: 1, integrationType: 'kubernetes', paths: /^api\/v1\/nodes(\/[a-z0-9][-a-z0-9.]{0,252})?$/ },
  ...DATASTORE_CAPABILITIES,
];

/** The namespace a Kubernetes API path reads in, or null for a path that spans namespaces or reads none (nodes, reviews). */
export function kubernetesNamespaceOf(path: string): string | null {
  return /\/namespaces\/([a-z0-9-]{1,63})\//.exec(path)?.[1] ?? null;
}

export function capabilityDefinition(capabilityId: string, capabilityVersion?: number): CapabilityDefinition | undefined {
  return CAPABILITIES.find((c) => c.capabilityId === capabilityId && (capabilityVersion === undefined || c.capabilityVersion === capabilityVersion));
}

/** The capability that reads `path` of an integration of this type, if any. */
export function capabilityForPath(integrationType: string, path: string): CapabilityDefinition | undefined {
  return CAPABILITIES.find((c) => c.integrationType === integrationType && c.paths.test(path));
}
