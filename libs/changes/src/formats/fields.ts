import { createHash } from 'node:crypto';
import {
  capText,
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
import { CHANGE_LIMITS, ChangeKind, ChangeLink, ChangeParseResult, NormalizedChange, ParsedChanges } from './normalized-change';

/**
 * What the six change-event parsers share: field readers that fail with a sentence naming the
 * field path, the repairs that keep a change instead of refusing it (values cut to their limit,
 * bad characters replaced, links dropped, details bounded), and the derived ids. Readers throw
 * ChangeFormatError; `runParser` turns that into `{ok: false, error}`, so nothing escapes.
 */

/** The format a change came in, and the prefix of its externalId. */
export type ChangeFormat = ParsedChanges['source'];

/** What a format parser returns: changes, or none and why. `runParser` adds the source and the repairs. */
export interface ParsedBody {
  changes: NormalizedChange[];
  ignored?: string;
}

/** A refused body; the message is the ChangeParseResult error. Internal to the parsers. */
export class ChangeFormatError extends Error {}

export function fail(message: string): never {
  throw new ChangeFormatError(message);
}

const MAX_ERROR_LENGTH = 1024;
/** Repair sentences kept in one result; a body with thousands of bad values gets a count instead. */
const MAX_REPAIRS = 50;

/** Runs a parser body, turning any failure (an unexpected one too) into `{ok: false}`. */
export function runParser(source: ChangeFormat, parse: (repairs: string[]) => ParsedBody): ChangeParseResult {
  const repairs: string[] = [];
  try {
    const { changes, ignored } = parse(repairs);
    const parsed: ParsedChanges = { source, changes };
    if (ignored !== undefined) parsed.ignored = ignored;
    if (repairs.length > 0) parsed.repairs = boundRepairs(repairs);
    return { ok: true, parsed };
  } catch (error) {
    if (error instanceof ChangeFormatError) return { ok: false, error: capText(error.message, MAX_ERROR_LENGTH) };
    return { ok: false, error: `body could not be read as a ${source} change event` };
  }
}

function boundRepairs(repairs: string[]): string[] {
  if (repairs.length <= MAX_REPAIRS) return repairs;
  return [...repairs.slice(0, MAX_REPAIRS - 1), `and ${repairs.length - MAX_REPAIRS + 1} more repairs`];
}

/** An authentic event that holds no change. */
export function ignore(reason: string): ParsedBody {
  return { changes: [], ignored: reason };
}

/** A sender's value shown in a message: safe text, at most 100 characters. */
export function shown(text: string): string {
  return capText(replaceUnsafeText(text), 100);
}

// ---------------------------------------------------------------------------------------------
// Paths and objects
// ---------------------------------------------------------------------------------------------

/** The JSON helpers the alert payload parsers share too, from `@svc/platform`; re-exported for the format parsers. */
export { childPath, indexPath, isObject };
export type { JsonObject };

export function readObject(value: unknown, path: string): JsonObject {
  if (!isObject(value)) fail(`${path || 'body'} must be a JSON object`);
  return value;
}

export function readRequiredObject(object: JsonObject, key: string, path: string): JsonObject {
  const value = object[key];
  if (!isObject(value)) fail(`${childPath(path, key)} is required and must be a JSON object`);
  return value;
}

export function readOptionalObject(object: JsonObject, key: string, path: string): JsonObject | undefined {
  const value = object[key];
  if (isAbsent(value)) return undefined;
  if (!isObject(value)) fail(`${childPath(path, key)} must be a JSON object`);
  return value;
}

/** Lenient navigation for fields read "if present": the object at `key`, or undefined for anything else. */
export function objectAt(object: JsonObject | undefined, key: string): JsonObject | undefined {
  const value = object?.[key];
  return isObject(value) ? value : undefined;
}

// ---------------------------------------------------------------------------------------------
// Strings, ids and times
// ---------------------------------------------------------------------------------------------

/** A required string; the empty string counts as missing. Returned as sent (normalizeChange repairs it). */
export function readRequiredString(object: JsonObject, key: string, path: string): string {
  const value = object[key];
  if (typeof value !== 'string' || value === '') fail(`${childPath(path, key)} is required and must be a string`);
  return value;
}

/** An optional string: null when absent, null or empty; an error for another type. */
export function readOptionalString(object: JsonObject, key: string, path: string): string | null {
  const value = object[key];
  if (isAbsent(value) || value === '') return null;
  if (typeof value !== 'string') fail(`${childPath(path, key)} must be a string`);
  return value;
}

/** Lenient: the non-empty string at `key`, or null for anything else (fields the formats use "if a string"). */
export function stringAt(object: JsonObject | undefined, key: string): string | null {
  const value = object?.[key];
  return typeof value === 'string' && value !== '' ? value : null;
}

/** A sender's id: an integer or a non-empty string, as text. */
export function readRequiredId(object: JsonObject, key: string, path: string): string {
  const value = object[key];
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  if (typeof value === 'string' && value !== '') return value;
  fail(`${childPath(path, key)} is required and must be a number or a string`);
}

const MAX_TIME_LENGTH = 64;
/**
 * RFC 3339, and the near forms senders document: a space for `T` and a zone written `+0200` or
 * ` UTC` (GitLab: `2021-04-28 21:50:00 +0200`, `2016-08-12 15:26:29 UTC`; PagerDuty:
 * `2020-07-17T08:42:58.315+0000`).
 */
const NEAR_RFC3339 = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?) ?(Z|z|UTC|[+-]\d{2}:?\d{2})$/;

/** Parses RFC 3339 or a near form (see NEAR_RFC3339); null when it is neither or not a calendar date. */
export function parseInstant(text: string): Timestamp | null {
  if (text.length > MAX_TIME_LENGTH) return null;
  const match = NEAR_RFC3339.exec(text);
  if (!match) return null;
  const [, date, time, zone] = match;
  const offset = zone === 'UTC' || zone === 'z' ? 'Z' : zone.length === 5 ? `${zone.slice(0, 3)}:${zone.slice(3)}` : zone;
  return Timestamp.parse(`${date}T${time}${offset}`);
}

/**
 * An optional date-time (see parseInstant): null when absent or empty, and for the placeholders
 * senders write for "no time" (Go's zero time `0001-01-01T00:00:00Z`, anything before 1970);
 * an error when present but not readable.
 */
export function readInstant(object: JsonObject, key: string, path: string): Timestamp | null {
  const value = object[key];
  if (isAbsent(value) || value === '') return null;
  const at = childPath(path, key);
  if (typeof value !== 'string') fail(`${at} must be an RFC 3339 date-time string`);
  const instant = parseInstant(value);
  if (!instant) fail(`${at} must be an RFC 3339 date-time`);
  return instant.epochMicros < 0n ? null : instant;
}

/** The first line of a message, without surrounding blanks. */
export function firstLine(text: string): string {
  return text.trim().split(/\r?\n/, 1)[0].trim();
}

/** A commit sha shortened for a summary (`f95f852`); other revisions (a chart version, `main@sha1:…`) whole. */
export function shortSha(revision: string, length = 7): string {
  return /^[0-9a-f]{40}([0-9a-f]{24})?$/i.test(revision) ? revision.slice(0, length) : revision;
}

/** `value` without its null and undefined properties, for details built from optional fields. */
export function compact(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined && v !== null));
}

// ---------------------------------------------------------------------------------------------
// Links
// ---------------------------------------------------------------------------------------------

/** A link as sent, before normalizeChange keeps or drops it. */
export interface LinkDraft {
  href: string;
  text: string | null;
}

/** `links`: an optional array of `{href, text?}` objects or URL strings (the generic and PagerDuty formats). */
export function readLinks(object: JsonObject, key: string, path: string): LinkDraft[] {
  const value = object[key];
  const at = childPath(path, key);
  if (isAbsent(value)) return [];
  if (!Array.isArray(value)) fail(`${at} must be an array of links`);
  const links: LinkDraft[] = [];
  for (let index = 0; index < value.length; index++) links.push(readLink(value[index], indexPath(at, index)));
  return links;
}

function readLink(value: unknown, path: string): LinkDraft {
  if (typeof value === 'string') return { href: value, text: null };
  if (!isObject(value)) fail(`${path} must be a URL string or an object with href`);
  return { href: readRequiredString(value, 'href', path), text: readOptionalString(value, 'text', path) };
}

/** A link built by a parser from a sender's URL field; none when the field is absent. */
export function linkTo(href: string | null, text: string): LinkDraft[] {
  return href ? [{ href, text }] : [];
}

function isWebUrl(href: string): boolean {
  if (!/^https?:\/\//i.test(href) || isUnsafeText(href)) return false;
  try {
    new URL(href);
    return true;
  } catch {
    return false;
  }
}

/** Keeps the absolute http(s) links (they end up in front of people), each href once, at most maxLinks. */
function finishLinks(drafts: LinkDraft[], path: string, repairs: string[]): ChangeLink[] {
  const links: ChangeLink[] = [];
  for (const [index, draft] of drafts.entries()) {
    const at = indexPath(path, index);
    if (longerThan(draft.href, CHANGE_LIMITS.maxHrefLength)) {
      repairs.push(`${at}: dropped, longer than ${CHANGE_LIMITS.maxHrefLength} characters`);
    } else if (!isWebUrl(draft.href)) {
      repairs.push(`${at}: dropped, not an http or https URL`);
    } else if (!links.some((link) => link.href === draft.href)) {
      const text = draft.text === null ? null : cleanText(draft.text, CHANGE_LIMITS.maxLinkTextLength, childPath(at, 'text'), repairs);
      links.push({ href: draft.href, text });
    }
  }
  if (links.length <= CHANGE_LIMITS.maxLinks) return links;
  repairs.push(`${path}: ${links.length} links, kept the first ${CHANGE_LIMITS.maxLinks}`);
  return links.slice(0, CHANGE_LIMITS.maxLinks);
}

// ---------------------------------------------------------------------------------------------
// Repairs of values
// ---------------------------------------------------------------------------------------------

function lengthOf(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/** `text` with NUL and lone surrogates replaced and cut to `max` code points, each repair noted under `field`. */
function cleanText(text: string, max: number, field: string, repairs: string[]): string {
  let kept = text;
  if (isUnsafeText(kept)) {
    kept = replaceUnsafeText(kept);
    repairs.push(`${field}: NUL or lone surrogates replaced by U+FFFD`);
  }
  if (longerThan(kept, max)) {
    repairs.push(`${field}: truncated from ${lengthOf(kept)} to ${max} characters`);
    kept = truncateWithMarker(kept, max);
  }
  return kept;
}

function cleanOptional(text: string | null, max: number, field: string, repairs: string[]): string | null {
  return text === null ? null : cleanText(text, max, field, repairs);
}

/** A JSON value with every string (keys too) made storable: NUL and lone surrogates replaced. */
function scrubJson(value: unknown, found: { unsafe: boolean }): unknown {
  if (typeof value === 'string') {
    if (!isUnsafeText(value)) return value;
    found.unsafe = true;
    return replaceUnsafeText(value);
  }
  if (Array.isArray(value)) return value.map((item) => scrubJson(item, found));
  if (!isObject(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [scrubJson(key, found) as string, scrubJson(item, found)]));
}

const DETAILS_KEYS_KEPT = 50;
/** 50 names of at most 64 code points (4 bytes each at most) stay well under maxDetailsBytes. */
const DETAILS_KEY_LENGTH = 64;

/** Details made storable and bounded: over maxDetailsBytes serialized, only the first 50 key names (cut to 64 characters) are kept. */
function boundDetails(details: Record<string, unknown>, field: string, repairs: string[]): Record<string, unknown> {
  const found = { unsafe: false };
  const scrubbed = scrubJson(details, found) as Record<string, unknown>;
  if (found.unsafe) repairs.push(`${field}: NUL or lone surrogates replaced by U+FFFD`);
  const bytes = Buffer.byteLength(JSON.stringify(scrubbed), 'utf8');
  if (bytes <= CHANGE_LIMITS.maxDetailsBytes) return scrubbed;
  repairs.push(`${field}: ${bytes} bytes serialized, over ${CHANGE_LIMITS.maxDetailsBytes}; replaced by its first ${DETAILS_KEYS_KEPT} key names`);
  const keys = Object.keys(scrubbed)
    .slice(0, DETAILS_KEYS_KEPT)
    .map((key) => capText(key, DETAILS_KEY_LENGTH));
  return { truncated: true, keys };
}

// ---------------------------------------------------------------------------------------------
// The normalized change
// ---------------------------------------------------------------------------------------------

/** A change as a parser reads it, before its values are repaired and its externalId settled. */
export interface ChangeDraft {
  /** The sender's id after the format prefix (`deployment_status:123`); null to derive one from the content. */
  id: string | null;
  occurredAt: Timestamp;
  service: string | null;
  environment: string | null;
  kind: ChangeKind;
  summary: string;
  author: string | null;
  versionBefore: string | null;
  versionAfter: string | null;
  links: LinkDraft[];
  details: Record<string, unknown>;
}

/**
 * The normalized change of a draft: every value repaired to its limit (repairs noted as
 * `<label>.<field>: …`, the label being `changes[3]` in a batch and empty otherwise) and the
 * externalId settled (see externalIdOf).
 */
export function normalizeChange(format: ChangeFormat, draft: ChangeDraft, label: string, repairs: string[]): NormalizedChange {
  const field = (name: string) => childPath(label, name);
  const name = (text: string | null, key: string) => cleanOptional(text, CHANGE_LIMITS.maxNameLength, field(key), repairs);
  const version = (text: string | null, key: string) => cleanOptional(text, CHANGE_LIMITS.maxVersionLength, field(key), repairs);
  const change: Omit<NormalizedChange, 'externalId'> = {
    occurredAt: draft.occurredAt,
    service: name(draft.service, 'service'),
    environment: name(draft.environment, 'environment'),
    kind: draft.kind,
    summary: cleanText(draft.summary, CHANGE_LIMITS.maxSummaryLength, field('summary'), repairs),
    author: name(draft.author, 'author'),
    versionBefore: version(draft.versionBefore, 'versionBefore'),
    versionAfter: version(draft.versionAfter, 'versionAfter'),
    links: finishLinks(draft.links, field('links'), repairs),
    details: boundDetails(draft.details, field('details'), repairs),
  };
  return { externalId: externalIdOf(format, draft.id, change, field('id'), repairs), ...change };
}

/**
 * `<format>:<id>` when the sender gives an id. Otherwise `<format>:sha256:<hex>` over the content
 * (contentHash), so an identical retry gets the same id. A sender's id that would make the
 * externalId longer than maxExternalIdLength, or that is not storable text, is replaced by
 * `<format>:sha256:<hex of the id>`: still one id per sender id.
 */
function externalIdOf(format: ChangeFormat, id: string | null, change: Omit<NormalizedChange, 'externalId'>, field: string, repairs: string[]): string {
  if (id === null) return `${format}:sha256:${contentHash(change)}`;
  const externalId = `${format}:${id}`;
  if (!longerThan(externalId, CHANGE_LIMITS.maxExternalIdLength) && !isUnsafeText(externalId)) return externalId;
  repairs.push(`${field}: longer than ${CHANGE_LIMITS.maxExternalIdLength} characters or not valid text; replaced by its SHA-256`);
  return `${format}:sha256:${sha256(id)}`;
}

/**
 * The SHA-256 (lowercase hex) of the JSON array `[occurredAt, service, environment, kind, summary,
 * versionBefore, versionAfter]` of a normalized change (occurredAt as its ISO text). Derived
 * externalIds are compared across deliveries: this serialization must never change.
 */
export function contentHash(
  change: Pick<NormalizedChange, 'occurredAt' | 'service' | 'environment' | 'kind' | 'summary' | 'versionBefore' | 'versionAfter'>,
): string {
  const { occurredAt, service, environment, kind, summary, versionBefore, versionAfter } = change;
  return sha256(JSON.stringify([occurredAt.toISOString(), service, environment, kind, summary, versionBefore, versionAfter]));
}

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
