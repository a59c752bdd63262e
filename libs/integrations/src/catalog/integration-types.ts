/** JSON Schema (draft 2020-12 subset) of an integration's config or credentials. */
export type JsonSchema = Record<string, unknown>;

export type IntegrationTypeId = 'alertmanager' | 'grafana' | 'generic' | 'prometheus';

export interface IntegrationType {
  id: IntegrationTypeId;
  displayName: string;
  /** What the integration can do: receive alert webhooks, answer queries, … */
  capabilities: string[];
  /** Alert payload format of its webhook, when it receives one. */
  webhookFormat: 'alertmanager' | 'grafana' | 'generic' | null;
  /** How it is connected: `manual` (create it with its config) or `oauth` (connect flow). */
  connect: 'manual' | 'oauth';
  configSchema: JsonSchema;
  credentialsSchema: JsonSchema | null;
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
];

export function integrationType(id: string): IntegrationType | undefined {
  return INTEGRATION_TYPES.find((t) => t.id === id);
}
