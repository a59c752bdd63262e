import type { DatastoreKind } from '@svc/datastores';

/** The alert payload formats, and `changes`: change events in any of their formats (deploys, configuration, flags). */
export type WebhookFormat = 'alertmanager' | 'grafana' | 'generic' | 'changes';

/** The path below /webhooks/v1/integrations/{integration}/ that an integration's webhook receives on. */
export function webhookPath(format: WebhookFormat): 'alert-events' | 'change-events' {
  return format === 'changes' ? 'change-events' : 'alert-events';
}

/** JSON Schema (draft 2020-12 subset) of an integration's config or credentials. */
export type JsonSchema = Record<string, unknown>;

export type IntegrationTypeId =
  'alertmanager' | 'grafana' | 'generic' | 'prometheus' | 'chat' | 'changes' | 'postgresql' | 'mysql' | 'redis' | 'rabbitmq' | 'loki' | 'kubernetes';

export interface IntegrationType {
  id: IntegrationTypeId;
  displayName: string;
  /** What the integration can do: receive alert webhooks, answer queries, … */
  capabilities: string[];
  /** What its webhook receives: alerts in one of the alert payload formats, or change events (`changes`); null for none. */
  webhookFormat: WebhookFormat | null;
  /** How it is connected: `manual` (create it with its config) or `oauth` (connect flow). */
  connect: 'manual' | 'oauth';
  configSchema: JsonSchema;
  credentialsSchema: JsonSchema | null;
  /** Its senders may sign the body with the webhook secret (HMAC) instead of presenting it: the secret is kept sealed as well as hashed. */
  signedWebhook?: boolean;
  /** Created only with credentials (and they cannot be removed). */
  credentialsRequired?: boolean;
  /** A datastore read over its own protocol (config.host and config.port), not over HTTP. */
  datastore?: DatastoreKind;
}

const httpUrl = { type: 'string', format: 'uri', pattern: '^https?://', maxLength: 2048 };
const relayId = {
  type: 'string',
  pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$',
  description: "The relay that reaches the system, instead of baseUrl: the relay's configuration holds the system's URL and credentials",
};
const groupingLabels = {
  type: 'array',
  items: { type: 'string', minLength: 1, maxLength: 256 },
  minItems: 1,
  maxItems: 16,
  uniqueItems: true,
  description: 'Labels whose values group alerts into one incident when the sender gives no group key (default: alertname, service)',
};
const httpCredentials: JsonSchema = {
  oneOf: [
    { type: 'object', properties: { bearerToken: { type: 'string', minLength: 1, maxLength: 8192 } }, required: ['bearerToken'], additionalProperties: false },
    {
      type: 'object',
      properties: { username: { type: 'string', minLength: 1, maxLength: 1024 }, password: { type: 'string', minLength: 1, maxLength: 8192 } },
      required: ['username', 'password'],
      additionalProperties: false,
    },
  ],
};

/**
 * A Loki tenant (sent as X-Scope-OrgID): what Loki allows in a tenant id (alphanumerics and
 * `!-_.*'()`, at most 150 bytes), or several joined by `|` for a multi-tenant query.
 */
const lokiTenant = {
  type: 'string',
  minLength: 1,
  maxLength: 1024,
  pattern: "^[A-Za-z0-9!_.*'()-]{1,150}(\\|[A-Za-z0-9!_.*'()-]{1,150})*$",
  description: 'The tenant to read (sent as X-Scope-OrgID), e.g. "team-a" or "team-a|team-b"; leave it out for a Loki without multi-tenancy',
};

/** A namespace name as the API server accepts it (an RFC 1123 label). */
const namespaceName = { type: 'string', pattern: '^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$', maxLength: 63 };

/**
 * A ServiceAccount's bearer token and the cluster's CA (PEM, the ServiceAccount token Secret's
 * `ca.crt`), sealed like every type's credentials. Without a CA, the API server's certificate must
 * be signed by a CA the service already trusts.
 */
const kubernetesCredentials: JsonSchema = {
  type: 'object',
  properties: {
    bearerToken: { type: 'string', minLength: 1, maxLength: 16384, description: 'A ServiceAccount token (kubectl create token <name>)' },
    certificateAuthority: {
      type: 'string',
      minLength: 1,
      maxLength: 65536,
      pattern: '-----BEGIN CERTIFICATE-----',
      description: "The API server's CA certificate(s), PEM",
    },
  },
  required: ['bearerToken'],
  additionalProperties: false,
};

/** The services a datastore serves, so that investigations of them read it even when no metric links the two. */
const services = {
  type: 'array',
  items: { type: 'string', minLength: 1, maxLength: 256 },
  maxItems: 64,
  uniqueItems: true,
  description: 'The services this datastore serves (as their alerts name them in a service, app or job label)',
};
const tls = {
  type: 'string',
  enum: ['disable', 'require', 'verify-full'],
  description:
    'disable: plain text; require: encrypted, certificate not checked; verify-full (default): encrypted, certificate and host name checked against the trusted authorities',
};
const datastoreHost = {
  type: 'string',
  minLength: 1,
  maxLength: 253,
  pattern: '^(\\[[0-9A-Fa-f:.]+\\]|[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?|[0-9A-Fa-f:.]+)$',
  description: 'Host name or IP address (checked by the outbound policy at every connection)',
};
const port = { type: 'integer', minimum: 1, maximum: 65535 };
const relayDatastore = {
  ...relayId,
  description:
    "The relay that reads the datastore, instead of host: the relay's configuration holds its address and sign-in (credentials are then not stored here)",
};
/** A datastore is reached directly (host) or through a relay (relayId): exactly one. */
const DIRECT_OR_RELAYED = [
  { properties: { host: datastoreHost }, required: ['host'] },
  { properties: { relayId }, required: ['relayId'] },
];
const signIn: JsonSchema = {
  type: 'object',
  properties: { username: { type: 'string', minLength: 1, maxLength: 256 }, password: { type: 'string', minLength: 1, maxLength: 8192 } },
  required: ['username'],
  additionalProperties: false,
};

/** The catalog: every type this release supports. */
export const INTEGRATION_TYPES: readonly IntegrationType[] = [
  {
    id: 'alertmanager',
    displayName: 'Prometheus Alertmanager',
    capabilities: ['alert-webhook', 'alerts', 'silences'],
    webhookFormat: 'alertmanager',
    connect: 'manual',
    configSchema: {
      type: 'object',
      properties: { baseUrl: { ...httpUrl, description: 'Alertmanager HTTP API, for reading alerts and silences' }, relayId, groupingLabels },
      additionalProperties: false,
    },
    credentialsSchema: httpCredentials,
  },
  {
    id: 'grafana',
    displayName: 'Grafana Alerting',
    capabilities: ['alert-webhook'],
    webhookFormat: 'grafana',
    connect: 'manual',
    configSchema: {
      type: 'object',
      properties: { baseUrl: { ...httpUrl, description: 'Grafana, for verification' }, groupingLabels },
      additionalProperties: false,
    },
    credentialsSchema: httpCredentials,
  },
  {
    id: 'generic',
    displayName: 'Generic alert webhook',
    capabilities: ['alert-webhook'],
    webhookFormat: 'generic',
    connect: 'manual',
    configSchema: { type: 'object', properties: { groupingLabels }, additionalProperties: false },
    credentialsSchema: null,
  },
  {
    id: 'changes',
    displayName: 'Change events (deploys, configuration, feature flags)',
    capabilities: ['change-webhook'],
    webhookFormat: 'changes',
    signedWebhook: true,
    connect: 'manual',
    configSchema: { type: 'object', properties: {}, additionalProperties: false },
    credentialsSchema: null,
  },
  {
    id: 'prometheus',
    displayName: 'Prometheus',
    capabilities: ['metrics-query', 'alerting-rules', 'targets'],
    webhookFormat: null,
    connect: 'manual',
    configSchema: {
      type: 'object',
      properties: { baseUrl: { ...httpUrl, description: 'Prometheus HTTP API base URL' }, relayId },
      // Reached directly (baseUrl) or through a relay (relayId): exactly one.
      oneOf: [
        { properties: { baseUrl: httpUrl }, required: ['baseUrl'] },
        { properties: { relayId }, required: ['relayId'] },
      ],
      additionalProperties: false,
    },
    credentialsSchema: httpCredentials,
  },
  {
    id: 'chat',
    displayName: 'Chat workspace',
    capabilities: ['chat-events', 'chat-replies'],
    webhookFormat: null,
    connect: 'oauth',
    credentialsRequired: true,
    configSchema: {
      type: 'object',
      properties: {
        apiBaseUrl: { ...httpUrl, description: "The provider's Web API base: replies go to {apiBaseUrl}/chat.postMessage" },
        teamId: { type: 'string', minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$', description: 'The workspace id: events whose team_id equals it' },
        appId: { type: 'string', minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$', description: "The app's id: events whose api_app_id equals it" },
      },
      required: ['apiBaseUrl', 'teamId', 'appId'],
      additionalProperties: false,
    },
    credentialsSchema: {
      type: 'object',
      properties: {
        signingSecret: { type: 'string', minLength: 8, maxLength: 1024, description: "The app's signing secret: events are signed with it (v0)" },
        botToken: { type: 'string', minLength: 1, maxLength: 8192, description: 'The bot token replies are posted with' },
      },
      required: ['signingSecret', 'botToken'],
      additionalProperties: false,
    },
  },
  {
    id: 'postgresql',
    displayName: 'PostgreSQL',
    capabilities: ['sessions', 'locks', 'connections', 'statements', 'replication', 'maintenance', 'sizes'],
    webhookFormat: null,
    connect: 'manual',
    datastore: 'postgresql',
    credentialsRequired: true,
    configSchema: {
      type: 'object',
      properties: {
        host: datastoreHost,
        port: { ...port, description: 'Default 5432' },
        database: {
          type: 'string',
          minLength: 1,
          maxLength: 63,
          description: 'The database to connect to (default postgres); tables and statements are read in it',
        },
        tls,
        services,
        relayId: relayDatastore,
      },
      oneOf: DIRECT_OR_RELAYED,
      additionalProperties: false,
    },
    credentialsSchema: signIn,
  },
  {
    id: 'mysql',
    displayName: 'MySQL or MariaDB',
    capabilities: ['connections', 'lock-waits', 'statements', 'replication'],
    webhookFormat: null,
    connect: 'manual',
    datastore: 'mysql',
    credentialsRequired: true,
    configSchema: {
      type: 'object',
      // No database: every read is server-wide, and an account may only choose a database it has a privilege on.
      properties: { host: datastoreHost, port: { ...port, description: 'Default 3306' }, tls, services, relayId: relayDatastore },
      oneOf: DIRECT_OR_RELAYED,
      additionalProperties: false,
    },
    credentialsSchema: signIn,
  },
  {
    id: 'redis',
    displayName: 'Redis',
    capabilities: ['memory', 'evictions', 'clients', 'slow-log', 'latency'],
    webhookFormat: null,
    connect: 'manual',
    datastore: 'redis',
    configSchema: {
      type: 'object',
      properties: { host: datastoreHost, port: { ...port, description: 'Default 6379' }, tls, services, relayId: relayDatastore },
      oneOf: DIRECT_OR_RELAYED,
      additionalProperties: false,
    },
    credentialsSchema: {
      type: 'object',
      properties: {
        username: {
          type: 'string',
          minLength: 1,
          maxLength: 256,
          description: "An ACL user (Redis 6 and later); without it, the password is the default user's",
        },
        password: { type: 'string', minLength: 1, maxLength: 8192 },
      },
      required: ['password'],
      additionalProperties: false,
    },
  },
  {
    id: 'rabbitmq',
    displayName: 'RabbitMQ',
    capabilities: ['queues', 'connections', 'alarms'],
    webhookFormat: null,
    connect: 'manual',
    credentialsRequired: true,
    configSchema: {
      type: 'object',
      properties: {
        baseUrl: { ...httpUrl, description: 'The management HTTP API (the management plugin), e.g. http://rabbitmq:15672' },
        relayId,
        services,
      },
      oneOf: [
        { properties: { baseUrl: httpUrl }, required: ['baseUrl'] },
        { properties: { relayId }, required: ['relayId'] },
      ],
      additionalProperties: false,
    },
    credentialsSchema: httpCredentials,
  },
  {
    id: 'loki',
    displayName: 'Grafana Loki',
    capabilities: ['log-labels', 'log-query', 'log-patterns'],
    webhookFormat: null,
    connect: 'manual',
    configSchema: {
      type: 'object',
      properties: {
        baseUrl: { ...httpUrl, description: 'Loki HTTP API base URL (the query frontend or the read path), e.g. http://loki:3100' },
        tenant: lokiTenant,
        relayId,
      },
      oneOf: [
        { properties: { baseUrl: httpUrl }, required: ['baseUrl'] },
        { properties: { relayId }, required: ['relayId'] },
      ],
      additionalProperties: false,
    },
    credentialsSchema: httpCredentials,
  },
  {
    id: 'kubernetes',
    displayName: 'Kubernetes',
    capabilities: ['events', 'pod-status', 'container-logs', 'rollout-history', 'nodes'],
    webhookFormat: null,
    connect: 'manual',
    credentialsRequired: true,
    configSchema: {
      type: 'object',
      properties: {
        server: { ...httpUrl, description: "The API server's URL, e.g. https://203.0.113.10:6443 (a kubeconfig's clusters[].cluster.server)" },
        namespaces: {
          type: 'array',
          items: namespaceName,
          minItems: 1,
          maxItems: 64,
          uniqueItems: true,
          description: 'The only namespaces the tools read (nodes are not namespaced); every namespace when left out',
        },
        relayId: {
          ...relayId,
          description: 'A relay inside the cluster that reads the API with its own ServiceAccount, instead of server and credentials',
        },
      },
      oneOf: [
        { properties: { server: httpUrl }, required: ['server'] },
        { properties: { relayId }, required: ['relayId'] },
      ],
      additionalProperties: false,
    },
    credentialsSchema: kubernetesCredentials,
  },
];

export function integrationType(id: string): IntegrationType | undefined {
  return INTEGRATION_TYPES.find((t) => t.id === id);
}
