import { Timestamp } from '@svc/platform';
import {
  compact,
  firstLine,
  ignore,
  JsonObject,
  normalizeChange,
  readInstant,
  readObject,
  readOptionalObject,
  readOptionalString,
  readRequiredObject,
  readRequiredString,
  runParser,
  shown,
} from './fields';
import { ChangeParseResult } from './normalized-change';

/**
 * Flux notification-controller events, as its `generic` and `generic-hmac` providers post them:
 * `{involvedObject: {kind, namespace, name}, severity, timestamp, message, reason, metadata?, reportingController}`.
 * An `info` event carrying `metadata.revision` reports a revision applied (a Kustomization or
 * HelmRelease reconciled: ReconciliationSucceeded, Progressing, UpgradeSucceeded…) and is a
 * `deploy` change. `error` events report failed reconciliations, and info events without a
 * revision report no new state: both are ignored. The externalId names the object, the revision and
 * the reason, so Flux repeating an event for the same revision counts once.
 */
export function parseFluxEvent(body: unknown, receivedAt: Timestamp): ChangeParseResult {
  return runParser('flux', (repairs) => {
    const root = readObject(body, '');
    const object = readRequiredObject(root, 'involvedObject', '');
    const kind = readRequiredString(object, 'kind', 'involvedObject');
    const name = readRequiredString(object, 'name', 'involvedObject');
    const namespace = readOptionalString(object, 'namespace', 'involvedObject');
    const severity = readRequiredString(root, 'severity', '');
    if (severity === 'error') return ignore('Flux error events report failed reconciliations, not changes');
    if (severity !== 'info') return ignore(`Flux ${shown(severity)} events are not changes`);

    const metadata = readOptionalObject(root, 'metadata', '') ?? {};
    const revision = revisionOf(metadata);
    const reason = readOptionalString(root, 'reason', '');
    if (!revision) return ignore(`Flux event ${shown(reason ?? 'without a reason')} for ${shown(kind)} ${shown(name)} has no revision: not a change`);

    const objectName = namespace ? `${namespace}/${name}` : name;
    const message = firstLine(readOptionalString(root, 'message', '') ?? '');
    const draft = {
      id: `${kind}/${objectName}:${revision}:${reason ?? ''}`,
      occurredAt: readInstant(root, 'timestamp', '') ?? receivedAt,
      service: name,
      environment: namespace,
      kind: 'deploy' as const,
      summary: `${kind} ${objectName}: ${message || `applied ${revision}`}`,
      author: null,
      versionBefore: null,
      versionAfter: revision,
      links: [],
      details: compact({ reason, metadata }),
    };
    return { changes: [normalizeChange('flux', draft, '', repairs)] };
  });
}

/**
 * `metadata.revision` (notification-controller strips the `<group>/` prefix of the controllers'
 * keys); the prefixed `kustomize.toolkit.fluxcd.io/revision` form is read too. Kept whole:
 * `main@sha1:731f7ead…`, a chart version.
 */
function revisionOf(metadata: JsonObject): string | null {
  const key = Object.hasOwn(metadata, 'revision') ? 'revision' : Object.keys(metadata).find((name) => name.endsWith('/revision'));
  const value = key === undefined ? undefined : metadata[key];
  return typeof value === 'string' && value !== '' ? value : null;
}
