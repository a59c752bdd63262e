import { Timestamp } from '@svc/platform';
import {
  ChangeDraft,
  compact,
  firstLine,
  ignore,
  JsonObject,
  linkTo,
  normalizeChange,
  objectAt,
  ParsedBody,
  readInstant,
  readObject,
  readOptionalString,
  readRequiredId,
  readRequiredObject,
  readRequiredString,
  runParser,
  shortSha,
  shown,
  stringAt,
} from './fields';
import { ChangeParseResult } from './normalized-change';

/**
 * GitHub repository webhooks (the event name in `X-GitHub-Event`): a finished deployment
 * (`deployment_status` success, failure or error), a published release, and a push to the
 * default branch are changes; `ping` and every other event are acknowledged and ignored.
 */
export function parseGitHubEvent(event: string, body: unknown, receivedAt: Timestamp): ChangeParseResult {
  return runParser('github', (repairs) => {
    const read = (draft: ChangeDraft): ParsedBody => ({ changes: [normalizeChange('github', draft, '', repairs)] });
    switch (event) {
      case 'ping':
        return ignore('GitHub ping: the webhook is connected');
      case 'deployment_status':
        return readDeploymentStatus(readObject(body, ''), receivedAt, read);
      case 'release':
        return readRelease(readObject(body, ''), receivedAt, read);
      case 'push':
        return readPush(readObject(body, ''), receivedAt, read);
      default:
        return ignore(`GitHub ${shown(event)} events are not changes`);
    }
  });
}

type Read = (draft: ChangeDraft) => ParsedBody;

const FAILED_DEPLOYMENT_STATES = ['failure', 'error'];

/** `deployment_status`: success, failure and error finish a deployment; the other states are on the way. */
function readDeploymentStatus(root: JsonObject, receivedAt: Timestamp, read: Read): ParsedBody {
  const status = readRequiredObject(root, 'deployment_status', '');
  const deployment = readRequiredObject(root, 'deployment', '');
  const repository = readRequiredObject(root, 'repository', '');
  const state = readRequiredString(status, 'state', 'deployment_status');
  const failed = FAILED_DEPLOYMENT_STATES.includes(state);
  if (state !== 'success' && !failed) return ignore(`GitHub deployment_status ${shown(state)}: the deployment has not finished`);

  const sha = readRequiredString(deployment, 'sha', 'deployment');
  const repo = repositoryName(repository);
  const environment = readOptionalString(status, 'environment', 'deployment_status') ?? readOptionalString(deployment, 'environment', 'deployment');
  const target = `${shortSha(sha)} of ${repo}${environment ? ` to ${environment}` : ''}`;
  return read({
    id: `deployment_status:${readRequiredId(status, 'id', 'deployment_status')}`,
    occurredAt: readInstant(status, 'created_at', 'deployment_status') ?? readInstant(status, 'updated_at', 'deployment_status') ?? receivedAt,
    service: stringAt(objectAt(deployment, 'payload'), 'service') ?? readRequiredString(repository, 'name', 'repository'),
    environment,
    kind: 'deploy',
    summary: failed ? `Deployment of ${target} failed` : `Deployed ${target}`,
    author: stringAt(objectAt(status, 'creator'), 'login') ?? stringAt(objectAt(deployment, 'creator'), 'login'),
    versionBefore: null,
    versionAfter: sha,
    links: [
      ...linkTo(stringAt(status, 'log_url') ?? stringAt(status, 'target_url'), 'Deployment log'),
      ...linkTo(stringAt(status, 'environment_url'), 'Environment'),
      ...linkTo(commitUrl(repository, sha), 'Commit'),
    ],
    details: compact({
      state,
      description: stringAt(status, 'description'),
      deployment_id: deployment.id,
      ref: stringAt(deployment, 'ref'),
      task: stringAt(deployment, 'task'),
    }),
  });
}

const RELEASE_ACTIONS = ['published', 'released'];

/**
 * `release`: published (GitHub also sends `released` for the same release, which gets the same
 * externalId and so counts once); drafts, edits and deletions are not changes.
 */
function readRelease(root: JsonObject, receivedAt: Timestamp, read: Read): ParsedBody {
  const action = readRequiredString(root, 'action', '');
  if (!RELEASE_ACTIONS.includes(action)) return ignore(`GitHub release ${shown(action)}: only published releases are changes`);
  const release = readRequiredObject(root, 'release', '');
  const repository = readRequiredObject(root, 'repository', '');
  const tag = readRequiredString(release, 'tag_name', 'release');
  const name = stringAt(release, 'name');
  return read({
    id: `release:${readRequiredId(release, 'id', 'release')}`,
    occurredAt: readInstant(release, 'published_at', 'release') ?? receivedAt,
    service: readRequiredString(repository, 'name', 'repository'),
    environment: null,
    kind: 'release',
    summary: `Released ${tag} of ${repositoryName(repository)}${name && name !== tag ? `: ${name}` : ''}`,
    author: stringAt(objectAt(release, 'author'), 'login'),
    versionBefore: null,
    versionAfter: tag,
    links: linkTo(stringAt(release, 'html_url'), 'Release'),
    details: compact({ action, prerelease: release.prerelease, target_commitish: stringAt(release, 'target_commitish') }),
  });
}

const NO_COMMIT = /^0+$/;

/** `push`: commits landing on the default branch; other branches, tags and deletions are not changes. */
function readPush(root: JsonObject, receivedAt: Timestamp, read: Read): ParsedBody {
  const ref = readRequiredString(root, 'ref', '');
  const repository = readRequiredObject(root, 'repository', '');
  const defaultBranch = readRequiredString(repository, 'default_branch', 'repository');
  if (ref !== `refs/heads/${defaultBranch}`) return ignore(`GitHub push to ${shown(ref)}, not the default branch ${shown(defaultBranch)}`);
  if (root.deleted === true) return ignore(`GitHub push deleted ${shown(ref)}`);

  const after = readRequiredString(root, 'after', '');
  const before = readOptionalString(root, 'before', '');
  const head = objectAt(root, 'head_commit');
  const count = Array.isArray(root.commits) ? root.commits.length : 0;
  const message = firstLine(stringAt(head, 'message') ?? '');
  const pushed = `Pushed ${count === 1 ? '1 commit' : `${count} commits`} to ${repositoryName(repository)} ${defaultBranch}`;
  return read({
    id: `push:${after}`,
    occurredAt: (head && readInstant(head, 'timestamp', 'head_commit')) ?? receivedAt,
    service: readRequiredString(repository, 'name', 'repository'),
    environment: null,
    kind: 'code',
    summary: message ? `${pushed}: ${message}` : pushed,
    author: stringAt(objectAt(head, 'author'), 'username') ?? stringAt(objectAt(root, 'pusher'), 'name'),
    versionBefore: before && !NO_COMMIT.test(before) ? before : null,
    versionAfter: after,
    links: linkTo(stringAt(root, 'compare'), 'Compare'),
    details: compact({ ref, commits: count, forced: root.forced }),
  });
}

/** `owner/name` for summaries; `name` when the payload has no full name. */
function repositoryName(repository: JsonObject): string {
  return stringAt(repository, 'full_name') ?? readRequiredString(repository, 'name', 'repository');
}

/** The commit's page (`deployment.url` is an API URL, not for people). */
function commitUrl(repository: JsonObject, sha: string): string | null {
  const base = stringAt(repository, 'html_url');
  return base ? `${base}/commit/${sha}` : null;
}
