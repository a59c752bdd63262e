import { Timestamp } from '@svc/platform';
import {
  ChangeDraft,
  compact,
  ignore,
  isObject,
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
 * GitLab project and group webhooks (the event name in `X-Gitlab-Event`): a finished deployment
 * (`Deployment Hook`) and a finished pipeline on the default branch (`Pipeline Hook`) are changes;
 * other statuses, branches and events are acknowledged and ignored. GitLab writes times as
 * `2021-04-28 21:50:00 +0200` or `2016-08-12 15:26:29 UTC` (see parseInstant).
 */
export function parseGitLabEvent(event: string, body: unknown, receivedAt: Timestamp): ChangeParseResult {
  return runParser('gitlab', (repairs) => {
    const read = (draft: ChangeDraft): ParsedBody => ({ changes: [normalizeChange('gitlab', draft, '', repairs)] });
    switch (event) {
      case 'Deployment Hook':
        return readDeployment(readObject(body, ''), receivedAt, read);
      case 'Pipeline Hook':
        return readPipeline(readObject(body, ''), receivedAt, read);
      default:
        return ignore(`GitLab ${shown(event)} events are not changes`);
    }
  });
}

type Read = (draft: ChangeDraft) => ParsedBody;

const FINISHED = ['success', 'failed'];

/** `Deployment Hook`: success and failed finish a deployment; running, canceled, blocked… do not. */
function readDeployment(root: JsonObject, receivedAt: Timestamp, read: Read): ParsedBody {
  const status = readRequiredString(root, 'status', '');
  if (!FINISHED.includes(status)) return ignore(`GitLab deployment ${shown(status)}: the deployment has not finished`);
  const project = readRequiredObject(root, 'project', '');
  const environment = readOptionalString(root, 'environment', '');
  const commitUrl = readOptionalString(root, 'commit_url', '');
  const sha = readOptionalString(root, 'short_sha', '') ?? commitUrl?.match(/\/commit\/([0-9a-f]{7,64})$/i)?.[1] ?? null;
  const target = `${sha ? `${shortSha(sha, 8)} of ` : ''}${projectName(project)}${environment ? ` to ${environment}` : ''}`;
  return read({
    id: `deployment:${readRequiredId(root, 'deployment_id', '')}:${status}`,
    occurredAt: readInstant(root, 'status_changed_at', '') ?? receivedAt,
    service: readRequiredString(project, 'name', 'project'),
    environment,
    kind: 'deploy',
    summary: status === 'failed' ? `Deployment of ${target} failed` : `Deployed ${target}`,
    author: stringAt(objectAt(root, 'user'), 'username'),
    versionBefore: null,
    versionAfter: sha,
    links: [
      ...linkTo(stringAt(root, 'deployable_url'), 'Job'),
      ...linkTo(commitUrl, 'Commit'),
      ...linkTo(stringAt(root, 'environment_external_url'), 'Environment'),
    ],
    details: compact({
      status,
      deployable_id: root.deployable_id,
      environment_tier: stringAt(root, 'environment_tier'),
      commit_title: stringAt(root, 'commit_title'),
    }),
  });
}

const NO_COMMIT = /^0+$/;

/**
 * `Pipeline Hook`: a pipeline that succeeded or failed on the project's default branch. It is a
 * `deploy` when one of its jobs has an environment (names in details.environments), else `code`.
 */
function readPipeline(root: JsonObject, receivedAt: Timestamp, read: Read): ParsedBody {
  const pipeline = readRequiredObject(root, 'object_attributes', '');
  const project = readRequiredObject(root, 'project', '');
  const status = readRequiredString(pipeline, 'status', 'object_attributes');
  if (!FINISHED.includes(status)) return ignore(`GitLab pipeline ${shown(status)}: the pipeline has not finished`);
  const ref = readRequiredString(pipeline, 'ref', 'object_attributes');
  const defaultBranch = readRequiredString(project, 'default_branch', 'project');
  if (pipeline.tag === true) return ignore(`GitLab pipeline for tag ${shown(ref)}, not the default branch ${shown(defaultBranch)}`);
  if (ref !== defaultBranch) return ignore(`GitLab pipeline on ${shown(ref)}, not the default branch ${shown(defaultBranch)}`);

  const id = readRequiredId(pipeline, 'id', 'object_attributes');
  const sha = readRequiredString(pipeline, 'sha', 'object_attributes');
  const before = readOptionalString(pipeline, 'before_sha', 'object_attributes');
  const deploys = deployJobs(root.builds);
  const outcome = status === 'failed' ? 'failed' : 'succeeded';
  return read({
    id: `pipeline:${id}:${status}`,
    occurredAt: readInstant(pipeline, 'finished_at', 'object_attributes') ?? receivedAt,
    service: readRequiredString(project, 'name', 'project'),
    environment: null,
    kind: deploys.length > 0 ? 'deploy' : 'code',
    summary: `Pipeline #${id} of ${projectName(project)} ${outcome} on ${ref} at ${shortSha(sha, 8)}`,
    author: stringAt(objectAt(root, 'user'), 'username'),
    versionBefore: before && !NO_COMMIT.test(before) ? before : null,
    versionAfter: sha,
    links: linkTo(stringAt(pipeline, 'url') ?? pipelineUrl(project, id), 'Pipeline'),
    details: compact({
      status,
      ref,
      source: stringAt(pipeline, 'source'),
      duration: pipeline.duration,
      environments: deploys.length > 0 ? environmentNames(deploys) : null,
    }),
  });
}

/** The pipeline's jobs that deploy: those with a non-null `environment`. */
function deployJobs(builds: unknown): JsonObject[] {
  if (!Array.isArray(builds)) return [];
  return builds.filter(isObject).filter((build) => build.environment !== null && build.environment !== undefined);
}

/** The names of the environments `jobs` deploy to, each once. */
function environmentNames(jobs: JsonObject[]): string[] {
  return [...new Set(jobs.map((job) => stringAt(objectAt(job, 'environment'), 'name')).filter((name) => name !== null))];
}

function projectName(project: JsonObject): string {
  return stringAt(project, 'path_with_namespace') ?? readRequiredString(project, 'name', 'project');
}

function pipelineUrl(project: JsonObject, id: string): string | null {
  const base = stringAt(project, 'web_url');
  return base ? `${base}/-/pipelines/${id}` : null;
}
