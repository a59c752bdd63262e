import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

/**
 * The three payload formats as JSON Schemas, for the OpenAPI document (docs/alert-payloads.md is
 * the full description; the parsers are the rule). Unknown properties are allowed, as senders add
 * fields over time; label and annotation values over their limits are truncated, not refused, so
 * those limits are not schema limits.
 */
const stringMap = (maxProperties: number, minProperties = 0): SchemaObject => ({
  type: 'object',
  minProperties,
  maxProperties,
  additionalProperties: { type: 'string' },
});

const common: Record<string, SchemaObject> = {
  status: { type: 'string', enum: ['firing', 'resolved'] },
  labels: { ...stringMap(256, 1), description: 'At least one label; values over 4096 characters are truncated' },
  annotations: { ...stringMap(256), nullable: true, description: 'Values over 32768 characters are truncated' },
  startsAt: { type: 'string', format: 'date-time' },
  endsAt: { type: 'string', format: 'date-time', nullable: true, description: '0001-01-01T00:00:00Z (the zero time) while firing' },
  fingerprint: { type: 'string', maxLength: 256, nullable: true },
};

const groupKey: SchemaObject = { type: 'string', maxLength: 4096, nullable: true };

const alertmanagerAlert: SchemaObject = {
  type: 'object',
  required: ['labels', 'startsAt'],
  properties: { ...common, generatorURL: { type: 'string', maxLength: 2048, nullable: true } },
};

const groupProperties: Record<string, SchemaObject> = {
  status: { type: 'string', nullable: true },
  receiver: { type: 'string', nullable: true },
  externalURL: { type: 'string', nullable: true },
  groupLabels: { ...stringMap(1000), nullable: true },
  commonLabels: { ...stringMap(1000), nullable: true },
  commonAnnotations: { ...stringMap(1000), nullable: true },
  truncatedAlerts: { type: 'integer', minimum: 0, nullable: true },
};

export const ALERTMANAGER_PAYLOAD_SCHEMA: SchemaObject = {
  title: 'Alertmanager webhook payload (version 4)',
  type: 'object',
  required: ['version', 'alerts'],
  properties: {
    version: { type: 'string', enum: ['4'] },
    groupKey,
    ...groupProperties,
    alerts: { type: 'array', minItems: 1, maxItems: 1000, items: alertmanagerAlert },
  },
};

export const GRAFANA_PAYLOAD_SCHEMA: SchemaObject = {
  title: 'Grafana alerting webhook payload (version 1)',
  type: 'object',
  required: ['alerts'],
  properties: {
    version: { type: 'string', enum: ['1'], nullable: true },
    groupKey,
    ...groupProperties,
    orgId: { type: 'number', nullable: true },
    title: { type: 'string', nullable: true },
    state: { type: 'string', nullable: true },
    message: { type: 'string', nullable: true },
    alerts: {
      type: 'array',
      minItems: 1,
      maxItems: 1000,
      items: {
        ...alertmanagerAlert,
        properties: {
          ...alertmanagerAlert.properties,
          silenceURL: { type: 'string', nullable: true },
          dashboardURL: { type: 'string', nullable: true },
          panelURL: { type: 'string', nullable: true },
          imageURL: { type: 'string', nullable: true },
          valueString: { type: 'string', nullable: true },
          values: { type: 'object', nullable: true, additionalProperties: true },
        },
      },
    },
  },
};

const genericAlert: SchemaObject = {
  type: 'object',
  required: ['labels'],
  properties: {
    ...common,
    status: { ...common.status, nullable: true, description: 'Default firing' },
    startsAt: { ...common.startsAt, nullable: true, description: 'Default: when the delivery was received' },
    generatorUrl: { type: 'string', maxLength: 2048, nullable: true },
  },
};

export const GENERIC_PAYLOAD_SCHEMA: SchemaObject = {
  title: 'Generic alert payload',
  description: 'An object with an `alerts` array, or a single alert object at the top level',
  anyOf: [
    { type: 'object', required: ['alerts'], properties: { groupKey, alerts: { type: 'array', minItems: 1, maxItems: 1000, items: genericAlert } } },
    { ...genericAlert, properties: { ...genericAlert.properties, groupKey } },
  ],
};
