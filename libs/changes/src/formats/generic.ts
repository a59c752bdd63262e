import { Timestamp } from '@svc/platform';
import {
  childPath,
  fail,
  indexPath,
  JsonObject,
  normalizeChange,
  readInstant,
  readLinks,
  readObject,
  readOptionalObject,
  readOptionalString,
  readRequiredString,
  runParser,
} from './fields';
import { CHANGE_KINDS, CHANGE_LIMITS, ChangeKind, ChangeParseResult, NormalizedChange } from './normalized-change';

/**
 * This service's own format, for any sender: one change object
 * `{id?, summary, timestamp?, service?, environment?, kind?, author?, versionBefore?, versionAfter?, links?, details?}`
 * or `{changes: [...such objects]}` (1 to maxChanges). `timestamp` defaults to the receipt time,
 * `kind` to `other`; `version_before` / `version_after` are read too. Without `id` the externalId is
 * derived from the content.
 */
export function parseGenericChanges(body: unknown, receivedAt: Timestamp): ChangeParseResult {
  return runParser('generic', (repairs) => {
    const root = readObject(body, '');
    if (root.changes === undefined) return { changes: [readChange(root, '', receivedAt, repairs)] };
    const items = readChangesArray(root.changes);
    // An index loop, not map: map would skip the holes of a sparse array instead of reporting them.
    const changes: NormalizedChange[] = [];
    for (let index = 0; index < items.length; index++) changes.push(readChange(items[index], indexPath('changes', index), receivedAt, repairs));
    return { changes };
  });
}

function readChangesArray(value: unknown): unknown[] {
  if (!Array.isArray(value)) fail('changes must be an array of changes');
  if (value.length === 0) fail('changes must contain at least one change');
  if (value.length > CHANGE_LIMITS.maxChanges) fail(`changes must contain at most ${CHANGE_LIMITS.maxChanges} changes`);
  return value;
}

/** One change object; `path` is `changes[i]`, or '' for a single change at the top level. */
function readChange(value: unknown, path: string, receivedAt: Timestamp, repairs: string[]): NormalizedChange {
  const change = readObject(value, path);
  const draft = {
    id: readId(change, path),
    occurredAt: readInstant(change, 'timestamp', path) ?? receivedAt,
    service: readOptionalString(change, 'service', path),
    environment: readOptionalString(change, 'environment', path),
    kind: readKind(change, path),
    summary: readRequiredString(change, 'summary', path),
    author: readOptionalString(change, 'author', path),
    versionBefore: readOptionalString(change, 'versionBefore', path) ?? readOptionalString(change, 'version_before', path),
    versionAfter: readOptionalString(change, 'versionAfter', path) ?? readOptionalString(change, 'version_after', path),
    links: readLinks(change, 'links', path),
    details: readOptionalObject(change, 'details', path) ?? {},
  };
  return normalizeChange('generic', draft, path, repairs);
}

/** `id`: optional, a string or an integer (the sender's own id of the change). */
function readId(change: JsonObject, path: string): string | null {
  const value = change.id;
  if (value === undefined || value === null || value === '') return null;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  if (typeof value !== 'string') fail(`${childPath(path, 'id')} must be a string or an integer`);
  return value;
}

function readKind(change: JsonObject, path: string): ChangeKind {
  const value = change.kind;
  if (value === undefined || value === null) return 'other';
  if (!CHANGE_KINDS.includes(value as ChangeKind)) fail(`${childPath(path, 'kind')} must be one of ${CHANGE_KINDS.join(', ')}`);
  return value as ChangeKind;
}
