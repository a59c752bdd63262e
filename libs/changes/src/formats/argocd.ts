import { Timestamp } from '@svc/platform';
import {
  childPath,
  compact,
  fail,
  ignore,
  JsonObject,
  linkTo,
  normalizeChange,
  objectAt,
  readInstant,
  readObject,
  readRequiredObject,
  runParser,
  shortSha,
  shown,
  stringAt,
} from './fields';
import { ChangeParseResult } from './normalized-change';

/**
 * Argo CD notifications, through the webhook template we document: the body
 * `{"argocd": {"app", "project", "namespace", "revision", "phase", "startedAt", "finishedAt",
 * "initiatedBy", "repoURL", "url", "health", "message", "previousRevision"}}` with each value a
 * template expression. A Go template renders a missing value as `""` or `<no value>`: both count
 * as absent. A finished sync (phase Succeeded, or no phase) is a `deploy` change, a failed one
 * (Failed, Error) too with a summary that says so; a sync still running is ignored.
 */
export function parseArgoCdNotification(body: unknown, receivedAt: Timestamp): ChangeParseResult {
  return runParser('argocd', (repairs) => {
    const argocd = readRequiredObject(readObject(body, ''), 'argocd', '');
    const text = (key: string) => readTemplateValue(argocd, key);
    const app = text('app') ?? fail('argocd.app is required and must be a string');
    const phase = text('phase') ?? 'Succeeded';
    const failed = FAILED_PHASES.includes(phase);
    if (phase !== 'Succeeded' && !failed) return ignore(`Argo CD sync of ${shown(app)} is ${shown(phase)}: not finished`);

    const revision = text('revision');
    const occurredAt = readTemplateInstant(argocd, 'finishedAt') ?? readTemplateInstant(argocd, 'startedAt');
    const target = revision ? `${app} to ${shortSha(revision)}` : app;
    const draft = {
      id: revision && occurredAt ? `${app}:${revision}:${occurredAt.toISOString()}` : null,
      occurredAt: occurredAt ?? receivedAt,
      service: app,
      environment: text('namespace'),
      kind: 'deploy' as const,
      summary: failed ? `Sync of ${target} failed` : `Synced ${target}`,
      author: readInitiatedBy(argocd),
      versionBefore: text('previousRevision'),
      versionAfter: revision,
      links: linkTo(text('url'), 'Argo CD'),
      details: compact({ phase, project: text('project'), health: text('health'), message: text('message'), repoURL: text('repoURL') }),
    };
    return { changes: [normalizeChange('argocd', draft, '', repairs)] };
  });
}

const FAILED_PHASES = ['Failed', 'Error'];
const NO_VALUE = ['', '<no value>'];

/** A template value: null when absent or rendered empty; a string (numbers and booleans as text) otherwise. */
function readTemplateValue(argocd: JsonObject, key: string): string | null {
  const value = argocd[key];
  if (value === undefined || value === null) return null;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value !== 'string') fail(`${childPath('argocd', key)} must be a string`);
  return NO_VALUE.includes(value.trim()) ? null : value;
}

function readTemplateInstant(argocd: JsonObject, key: string): Timestamp | null {
  return readTemplateValue(argocd, key) === null ? null : readInstant(argocd, key, 'argocd');
}

/**
 * Who started the sync: `initiatedBy` rendered as the user name, or as `automated` for an
 * automated sync; also the object Argo CD keeps (`{username}` or `{automated: true}`) when the
 * template renders it as JSON.
 */
function readInitiatedBy(argocd: JsonObject): string | null {
  const by = objectAt(argocd, 'initiatedBy');
  if (!by) return readTemplateValue(argocd, 'initiatedBy');
  return stringAt(by, 'username') ?? (by.automated === true ? 'automated' : null);
}
