/**
 * What the webhook payload parsers (alert payloads in `@svc/alerts`, change events in
 * `@svc/changes`) share to read untyped JSON: the object test, the absent test, and the field
 * paths their messages name (`alerts[2].labels`, `payload.summary`).
 */

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const SHOWN_KEY_LENGTH = 64;

/**
 * `alerts[2]` + `labels` → `alerts[2].labels`, `payload` + `summary` → `payload.summary`; odd or
 * long keys are quoted and shortened.
 */
export function childPath(parent: string, key: string): string {
  if (IDENTIFIER.test(key) && key.length <= SHOWN_KEY_LENGTH) return parent ? `${parent}.${key}` : key;
  const shortened = key.length > SHOWN_KEY_LENGTH ? `${key.slice(0, SHOWN_KEY_LENGTH)}…` : key;
  return `${parent}[${JSON.stringify(shortened)}]`;
}

export function indexPath(parent: string, index: number): string {
  return `${parent}[${index}]`;
}

/**
 * JSON null counts as absent for optional fields (Grafana sends `"values": null`, change senders
 * write `"environment_url": null`).
 */
export function isAbsent(value: unknown): value is undefined | null {
  return value === undefined || value === null;
}
