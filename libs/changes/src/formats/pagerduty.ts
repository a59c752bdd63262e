import { Timestamp } from '@svc/platform';
import {
  JsonObject,
  normalizeChange,
  readInstant,
  readLinks,
  readObject,
  readOptionalObject,
  readOptionalString,
  readRequiredObject,
  readRequiredString,
  runParser,
  stringAt,
} from './fields';
import { CHANGE_KINDS, ChangeKind, ChangeParseResult } from './normalized-change';

/**
 * PagerDuty Change Events v2 (what tools that integrate with PagerDuty send to
 * `/v2/change/enqueue`): `{routing_key?, payload: {summary, timestamp?, source?, custom_details?}, links?}`.
 * `routing_key` is ignored: the integration's own credentials authenticate the sender. The format
 * has no service, environment or version fields, so they are read from `custom_details` by the
 * names tools commonly use; the details are `custom_details`. PagerDuty gives no id: the externalId
 * is derived from the content.
 */
export function parsePagerDutyChange(body: unknown, receivedAt: Timestamp): ChangeParseResult {
  return runParser('pagerduty', (repairs) => {
    const root = readObject(body, '');
    const payload = readRequiredObject(root, 'payload', '');
    const custom = readOptionalObject(payload, 'custom_details', 'payload') ?? {};
    const draft = {
      id: null,
      occurredAt: readInstant(payload, 'timestamp', 'payload') ?? receivedAt,
      service: stringAt(custom, 'service') ?? readOptionalString(payload, 'source', 'payload'),
      environment: stringAt(custom, 'environment'),
      kind: kindOf(custom),
      summary: readRequiredString(payload, 'summary', 'payload'),
      author: stringAt(custom, 'author') ?? stringAt(custom, 'user'),
      versionBefore: stringAt(custom, 'version_before') ?? stringAt(custom, 'previous_version'),
      versionAfter: stringAt(custom, 'version_after') ?? stringAt(custom, 'version'),
      links: readLinks(root, 'links', ''),
      details: custom,
    };
    return { changes: [normalizeChange('pagerduty', draft, '', repairs)] };
  });
}

/** `custom_details.kind` when it names one of CHANGE_KINDS; `other` for anything else. */
function kindOf(custom: JsonObject): ChangeKind {
  const kind = custom.kind;
  return CHANGE_KINDS.includes(kind as ChangeKind) ? (kind as ChangeKind) : 'other';
}
