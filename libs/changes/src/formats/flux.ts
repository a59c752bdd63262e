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
 * Only the kinds that apply something to the cluster bring changes (APPLYING_KINDS: Kustomization
 * and HelmRelease); events of the others are ignored, the sources' (GitRepository NewArtifact,
 * OCIRepository, HelmChart…) first among them: fetching an artifact changes nothing running. An
 * `info` event of an applying kind carrying `metadata.revision` reports a revision applied
 * (ReconciliationSucceeded, Progressing, UpgradeSucceeded…) and is a `deploy` change. `error`
 * events report failed reconciliations, and info events without a revision report no new state:
 * both are ignored. The externalId names the object and the revision: one rollout of a revision
 * is one change, however many events Flux sends for it (`Progressing` with the change set, then
 * `ReconciliationSucceeded`, and the repeats of either); the first event's details are kept.
 */
export function parseFluxEvent(body: unknown, receivedAt: Timestamp): ChangeParseResult {
  return runParser('flux', (repairs) => {
    const root = readObject(body, '');
    const object = readRequiredObject(root, 'involvedObject', '');
    const kind = readRequiredString(object, 'kind', 'involvedObject');
    const name = readRequiredString(object, 'name', 'involvedObject');
    const namespace = readOptionalString(object, 'namespace', 'involvedObject');
    const severity = readRequiredString(root, 'severity', '');
    if (!APPLYING_KINDS.includes(kind)) return ignore(notApplyingReason(kind));
    if (severity === 'error') return ignore('Flux error events report failed reconciliations, not changes');
    if (severity !== 'info') return ignore(`Flux ${shown(severity)} events are not changes`);

    const metadata = readOptionalObject(root, 'metadata', '') ?? {};
    const revision = revisionOf(metadata);
    const reason = readOptionalString(root, 'reason', '');
    if (!revision) return ignore(`Flux event ${shown(reason ?? 'without a reason')} for ${shown(kind)} ${shown(name)} has no revision: not a change`);

    const objectName = namespace ? `${namespace}/${name}` : name;
    const message = firstLine(readOptionalString(root, 'message', '') ?? '');
    const draft = {
      id: `${kind}/${objectName}:${revision}`,
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

/** The Flux kinds whose events report something applied to the cluster. */
const APPLYING_KINDS = ['Kustomization', 'HelmRelease'];
/** source-controller's kinds: their events report an artifact fetched, which nothing has applied yet. */
const SOURCE_KINDS = ['GitRepository', 'OCIRepository', 'HelmRepository', 'HelmChart', 'Bucket'];

function notApplyingReason(kind: string): string {
  if (SOURCE_KINDS.includes(kind)) return `Flux ${kind} events report fetched sources, not applied changes`;
  return `Flux ${shown(kind)} events are not applied changes: only Kustomization and HelmRelease events are`;
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
