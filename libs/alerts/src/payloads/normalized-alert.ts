import type { AdmittedAlert } from '@svc/incidents';
import {
  childPath,
  indexPath,
  isAbsent,
  isObject,
  isUnsafeText,
  type JsonObject,
  longerThan,
  replaceUnsafeText,
  Timestamp,
  truncateWithMarker,
} from '@svc/platform';
import { fingerprintOf } from './fingerprint';

/**
 * What every inbound alert payload format (Alertmanager, Grafana, generic) is turned into: the
 * alert phase that admission takes (its fields are documented there). The parsers are pure: no
 * framework, no I/O, never throw (see parse-payload.ts).
 */
export type NormalizedAlert = AdmittedAlert;

export interface ParsedDelivery {
  /** Alertmanager's / Grafana's `groupKey`, the generic format's optional `groupKey`; null when absent or empty. */
  groupKey: string | null;
  /** At least 1, at most `ALERT_PAYLOAD_LIMITS.maxAlerts`. */
  alerts: NormalizedAlert[];
  /**
   * What was changed to keep the alerts instead of refusing them (decisions §4, §8): label and
   * annotation values with NUL or lone surrogates replaced, values over their limit truncated.
   * One sentence each, naming the field; absent when nothing was changed.
   */
  repairs?: string[];
}

/** `error` is one sentence naming the field path, safe to return in a 400 body (at most 1024 chars). */
export type ParseResult = { ok: true; delivery: ParsedDelivery } | { ok: false; error: string };

export type PayloadFormat = 'alertmanager' | 'grafana' | 'generic';

export const PAYLOAD_FORMATS: readonly PayloadFormat[] = ['alertmanager', 'grafana', 'generic'];

/** Lengths are counted in Unicode code points (what PostgreSQL counts), not UTF-16 units. */
export const ALERT_PAYLOAD_LIMITS = {
  maxAlerts: 1000,
  maxLabels: 256,
  maxLabelNameLength: 256,
  maxLabelValueLength: 4096,
  maxAnnotations: 256,
  maxAnnotationNameLength: 256,
  maxAnnotationValueLength: 32768,
  maxGeneratorUrlLength: 2048,
  maxFingerprintLength: 256,
  maxGroupKeyLength: 4096,
} as const;

// ---------------------------------------------------------------------------------------------
// Shared field readers used by the three format parsers. They throw PayloadError, which
// `runParser` turns into `{ok: false, error}`; nothing escapes to the caller.
// ---------------------------------------------------------------------------------------------

/** A rejected payload; the message is the ParseResult error. Internal to the parsers. */
export class PayloadError extends Error {}

export function fail(message: string): never {
  throw new PayloadError(message);
}

/** Runs a parser body, turning any failure (including an unexpected one) into `{ok: false}`; the body notes repairs in the array it is given. */
export function runParser(parse: (repairs: string[]) => ParsedDelivery): ParseResult {
  const repairs: string[] = [];
  try {
    const delivery = parse(repairs);
    return { ok: true, delivery: repairs.length > 0 ? { ...delivery, repairs } : delivery };
  } catch (error) {
    if (error instanceof PayloadError) return { ok: false, error: error.message };
    return { ok: false, error: 'body could not be read as an alert payload' };
  }
}

/** The JSON helpers the change-event parsers share too, from `@svc/platform`; re-exported for the format parsers. */
export { childPath, indexPath, isObject };
export type { JsonObject };

/** The name of an object for messages: the top level of a single generic alert is the body itself. */
function objectName(path: string): string {
  return path || 'body';
}

/** Code points in `text`. */
function lengthOf(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

export function readObject(value: unknown, path: string): JsonObject {
  if (!isObject(value)) fail(`${objectName(path)} must be a JSON object`);
  return value;
}

/** An optional string: undefined when absent or null, an error when another type, too long or not valid text. */
export function readOptionalString(object: JsonObject, key: string, path: string, maxLength?: number): string | undefined {
  const value = object[key];
  const at = childPath(path, key);
  if (isAbsent(value)) return undefined;
  if (typeof value !== 'string') fail(`${at} must be a string`);
  if (maxLength !== undefined && longerThan(value, maxLength)) fail(`${at} must be at most ${maxLength} characters`);
  if (isUnsafeText(value)) fail(`${at} must be valid Unicode text without NUL characters`);
  return value;
}

export function readGroupKey(object: JsonObject, path: string): string | null {
  return readOptionalString(object, 'groupKey', path, ALERT_PAYLOAD_LIMITS.maxGroupKeyLength) || null;
}

export function readStatus(object: JsonObject, path: string, fallback?: 'firing'): 'firing' | 'resolved' {
  const value = object.status;
  const at = childPath(path, 'status');
  if (isAbsent(value)) {
    if (fallback) return fallback;
    fail(`${at} is required and must be "firing" or "resolved"`);
  }
  if (value !== 'firing' && value !== 'resolved') fail(`${at} must be "firing" or "resolved"`);
  return value;
}

interface StringMapRules {
  kind: 'label' | 'annotation';
  required: boolean;
  maxEntries: number;
  maxNameLength: number;
  maxValueLength: number;
}

const LABEL_RULES: StringMapRules = {
  kind: 'label',
  required: true,
  maxEntries: ALERT_PAYLOAD_LIMITS.maxLabels,
  maxNameLength: ALERT_PAYLOAD_LIMITS.maxLabelNameLength,
  maxValueLength: ALERT_PAYLOAD_LIMITS.maxLabelValueLength,
};

const ANNOTATION_RULES: StringMapRules = {
  kind: 'annotation',
  required: false,
  maxEntries: ALERT_PAYLOAD_LIMITS.maxAnnotations,
  maxNameLength: ALERT_PAYLOAD_LIMITS.maxAnnotationNameLength,
  maxValueLength: ALERT_PAYLOAD_LIMITS.maxAnnotationValueLength,
};

/**
 * A label or annotation map. Senders do not retry 4xx, so a value that PostgreSQL cannot store or
 * that is over its limit is repaired (U+FFFD, truncation) and noted in `repairs` rather than
 * refusing the delivery; names and shapes are still refused.
 */
function readStringMap(object: JsonObject, key: string, path: string, rules: StringMapRules, repairs: string[]): Record<string, string> {
  const value = object[key];
  const at = childPath(path, key);
  if (isAbsent(value)) {
    if (rules.required) fail(`${at} is required and must be an object of string values`);
    return {};
  }
  if (!isObject(value)) fail(`${at} must be an object of string values`);
  const names = Object.keys(value);
  if (rules.required && names.length === 0) fail(`${at} must contain at least one ${rules.kind}`);
  if (names.length > rules.maxEntries) fail(`${at} must contain at most ${rules.maxEntries} ${rules.kind}s`);
  const aKind = `${rules.kind === 'annotation' ? 'an' : 'a'} ${rules.kind}`;
  const entries: [string, string][] = [];
  for (const name of names) {
    if (name.length === 0) fail(`${at} must not contain an empty ${rules.kind} name`);
    if (longerThan(name, rules.maxNameLength)) fail(`${at} must not contain ${aKind} name longer than ${rules.maxNameLength} characters`);
    if (isUnsafeText(name)) fail(`${at} must not contain ${aKind} name that is not valid Unicode text or contains NUL characters`);
    const entry = value[name];
    const entryAt = childPath(at, name);
    if (typeof entry !== 'string') fail(`${entryAt} must be a string`);
    let kept = entry;
    if (isUnsafeText(kept)) {
      kept = replaceUnsafeText(kept);
      repairs.push(`${entryAt}: NUL or lone surrogates replaced by U+FFFD`);
    }
    if (longerThan(kept, rules.maxValueLength)) {
      repairs.push(`${entryAt}: truncated from ${lengthOf(kept)} to ${rules.maxValueLength} characters`);
      kept = truncateWithMarker(kept, rules.maxValueLength);
    }
    entries.push([name, kept]);
  }
  // fromEntries defines own properties, so a label named "__proto__" stays a plain label.
  return Object.fromEntries(entries);
}

export function readLabels(object: JsonObject, path: string, repairs: string[] = []): Record<string, string> {
  return readStringMap(object, 'labels', path, LABEL_RULES, repairs);
}

export function readAnnotations(object: JsonObject, path: string, repairs: string[] = []): Record<string, string> {
  return readStringMap(object, 'annotations', path, ANNOTATION_RULES, repairs);
}

/** A known top-level map we do not use (groupLabels, commonLabels, …): checked for type only. */
export function checkOptionalStringMap(object: JsonObject, key: string, path: string): void {
  const value = object[key];
  if (isAbsent(value)) return;
  const at = childPath(path, key);
  if (!isObject(value)) fail(`${at} must be an object of string values`);
  for (const name of Object.keys(value)) {
    if (typeof value[name] !== 'string') fail(`${childPath(at, name)} must be a string`);
  }
}

export function checkOptionalString(object: JsonObject, key: string, path: string): void {
  const value = object[key];
  if (!isAbsent(value) && typeof value !== 'string') fail(`${childPath(path, key)} must be a string`);
}

export function checkOptionalNumber(object: JsonObject, key: string, path: string, integer: 'integer' | 'number'): void {
  const value = object[key];
  if (isAbsent(value)) return;
  const at = childPath(path, key);
  if (integer === 'integer') {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) fail(`${at} must be a non-negative integer`);
  } else if (typeof value !== 'number' || !Number.isFinite(value)) {
    fail(`${at} must be a number`);
  }
}

export function checkOptionalObject(object: JsonObject, key: string, path: string): void {
  const value = object[key];
  if (!isAbsent(value) && !isObject(value)) fail(`${childPath(path, key)} must be an object`);
}

const RFC3339_MAX_LENGTH = 64;

/**
 * An RFC 3339 date-time. `'unknown'` for the placeholders senders use for "no time": Go's zero time
 * `0001-01-01T00:00:00Z` (what Alertmanager and Grafana send as a firing alert's endsAt) and
 * anything at or before the Unix epoch (`1970-01-01T00:00:00Z`, the other common placeholder).
 * Years before 1970 are all treated so, which also keeps clear of Timestamp's handling of years
 * 0000-0099 (JavaScript's Date.UTC maps them to 1900-1999).
 */
export function readInstant(object: JsonObject, key: string, path: string): Timestamp | 'unknown' | undefined {
  const value = object[key];
  if (isAbsent(value)) return undefined;
  const at = childPath(path, key);
  if (typeof value !== 'string') fail(`${at} must be an RFC 3339 date-time string`);
  const instant = value.length <= RFC3339_MAX_LENGTH ? Timestamp.parse(value) : null;
  if (!instant) fail(`${at} must be an RFC 3339 date-time`);
  if (Number(value.slice(0, 4)) < 1970 || instant.epochMicros <= 0n) return 'unknown';
  return instant;
}

/** Kept only when it is an absolute http(s) URL: it ends up as a link in front of people. */
export function readGeneratorUrl(object: JsonObject, key: 'generatorURL' | 'generatorUrl', path: string): string | null {
  const value = readOptionalString(object, key, path, ALERT_PAYLOAD_LIMITS.maxGeneratorUrlLength);
  if (!value) return null;
  if (!/^https?:\/\//i.test(value)) return null;
  try {
    new URL(value);
  } catch {
    return null;
  }
  return value;
}

export function readFingerprint(object: JsonObject, path: string): string | undefined {
  return readOptionalString(object, 'fingerprint', path, ALERT_PAYLOAD_LIMITS.maxFingerprintLength) || undefined;
}

/** `alerts`: a non-empty array of at most maxAlerts items. */
/** A short, safe rendering of an unexpected value for a message (`"3"`, `a number`). */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 16 ? `${value.slice(0, 16)}…` : value);
  if (value === null) return 'null';
  const type = Array.isArray(value) ? 'array' : typeof value;
  return `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`;
}

export function readAlertsArray(object: JsonObject, path: string): unknown[] {
  const value = object.alerts;
  const at = childPath(path, 'alerts');
  if (value === undefined) fail(`${at} is required and must be an array of alerts`);
  if (!Array.isArray(value)) fail(`${at} must be an array of alerts`);
  if (value.length === 0) fail(`${at} must contain at least one alert`);
  if (value.length > ALERT_PAYLOAD_LIMITS.maxAlerts) fail(`${at} must contain at most ${ALERT_PAYLOAD_LIMITS.maxAlerts} alerts`);
  return value;
}

export interface AlertReadOptions {
  generatorUrlKey: 'generatorURL' | 'generatorUrl';
  /** Generic format: status defaults to firing and startsAt to the receipt time. */
  defaults?: { status: 'firing'; startsAt: Timestamp };
  /** Type checks of a format's own per-alert properties that are not normalized (Grafana's values, …). */
  checkExtras?: (alert: JsonObject, path: string) => void;
  /** Where label and annotation repairs are noted (see ParsedDelivery.repairs). */
  repairs?: string[];
}

/** The per-alert rules all three formats share. `path` is `alerts[i]`, or '' for a top-level generic alert. */
export function readAlert(value: unknown, path: string, options: AlertReadOptions): NormalizedAlert {
  const alert = readObject(value, path);
  options.checkExtras?.(alert, path);
  const status = readStatus(alert, path, options.defaults?.status);
  const labels = readLabels(alert, path, options.repairs);
  const annotations = readAnnotations(alert, path, options.repairs);

  const startsAtPath = childPath(path, 'startsAt');
  const startsAtRead = readInstant(alert, 'startsAt', path);
  let startsAt: Timestamp;
  if (startsAtRead instanceof Timestamp) startsAt = startsAtRead;
  else if (options.defaults) startsAt = options.defaults.startsAt;
  else if (startsAtRead === 'unknown') fail(`${startsAtPath} must be a real date-time, not the zero time or a time before 1970`);
  else fail(`${startsAtPath} is required and must be an RFC 3339 date-time`);

  const endsAtRead = readInstant(alert, 'endsAt', path);
  const endsAt = endsAtRead instanceof Timestamp ? endsAtRead : null;

  const generatorUrl = readGeneratorUrl(alert, options.generatorUrlKey, path);
  const fingerprint = readFingerprint(alert, path) ?? fingerprintOf(labels);
  return { fingerprint, status, labels, annotations, startsAt, endsAt, generatorUrl };
}

export function readAlerts(values: unknown[], path: string, options: AlertReadOptions): NormalizedAlert[] {
  const alertsPath = childPath(path, 'alerts');
  // An index loop, not map: map would skip the holes of a sparse array instead of reporting them.
  const alerts: NormalizedAlert[] = [];
  for (let index = 0; index < values.length; index++) alerts.push(readAlert(values[index], indexPath(alertsPath, index), options));
  return alerts;
}
