import { describe, expect, it } from 'vitest';
import { accepted, fixture, Json, onlyChange, plain, RECEIVED_AT, rejected } from './fixtures/fixtures';
import { parseGitLabEvent } from './gitlab';
import { ChangeParseResult } from './normalized-change';

function parse(event: string, body: unknown): ChangeParseResult {
  return parseGitLabEvent(event, body, RECEIVED_AT);
}

function ignoredReason(result: ChangeParseResult): string | undefined {
  const parsed = accepted(result);
  expect(parsed.changes).toEqual([]);
  return parsed.ignored;
}

describe('parseGitLabEvent: Deployment Hook', () => {
  it('reads a successful deployment', () => {
    const parsed = accepted(parse('Deployment Hook', fixture('gitlab-deployment-success.json')));
    expect(parsed.source).toBe('gitlab');
    expect(parsed.repairs).toBeUndefined();
    expect(parsed.changes.map(plain)).toEqual([
      {
        externalId: 'gitlab:deployment:15:success',
        occurredAt: '2021-04-28T19:50:00.000000Z',
        service: 'test-deployment-webhooks',
        environment: 'staging',
        kind: 'deploy',
        summary: 'Deployed 279484c0 of root/test-deployment-webhooks to staging',
        author: 'root',
        versionBefore: null,
        versionAfter: '279484c0',
        // http links are kept: self-managed GitLab is often served over http.
        links: [
          { href: 'http://10.126.0.2:3000/root/test-deployment-webhooks/-/jobs/796', text: 'Job' },
          { href: 'http://10.126.0.2:3000/root/test-deployment-webhooks/-/commit/279484c09fbe69ededfced8c1bb6e6d24616b468', text: 'Commit' },
          { href: 'https://staging.example.com', text: 'Environment' },
        ],
        details: { status: 'success', deployable_id: 796, environment_tier: 'staging', commit_title: 'Add new file' },
      },
    ]);
  });

  it('reads a failed deployment under its own id', () => {
    const body = fixture('gitlab-deployment-success.json');
    body.status = 'failed';
    const change = onlyChange(parse('Deployment Hook', body));
    expect(change.externalId).toBe('gitlab:deployment:15:failed');
    expect(change.summary).toBe('Deployment of 279484c0 of root/test-deployment-webhooks to staging failed');
  });

  it('takes the sha from commit_url without short_sha, and tolerates a deployment made by API', () => {
    const body = fixture('gitlab-deployment-success.json');
    delete body.short_sha;
    body.deployable_url = null;
    delete body.environment_external_url;
    const change = onlyChange(parse('Deployment Hook', body));
    expect(change.versionAfter).toBe('279484c09fbe69ededfced8c1bb6e6d24616b468');
    expect(change.summary).toBe('Deployed 279484c0 of root/test-deployment-webhooks to staging');
    expect(change.links.map((link) => link.text)).toEqual(['Commit']);
  });

  it.each(['running', 'canceled', 'blocked', 'created'])('ignores a deployment that is %s', (status) => {
    const body = fixture('gitlab-deployment-success.json');
    body.status = status;
    expect(ignoredReason(parse('Deployment Hook', body))).toBe(`GitLab deployment ${status}: the deployment has not finished`);
  });

  it.each<[string, (body: Json) => void, string]>([
    ['status', (body) => delete body.status, 'status is required and must be a string'],
    ['deployment_id', (body) => delete body.deployment_id, 'deployment_id is required and must be a number or a string'],
    ['project', (body) => (body.project = null), 'project is required and must be a JSON object'],
    ['status_changed_at', (body) => (body.status_changed_at = '28.04.2021 21:50'), 'status_changed_at must be an RFC 3339 date-time'],
  ])('refuses a deployment with a bad %s', (_, spoil, error) => {
    const body = fixture('gitlab-deployment-success.json');
    spoil(body);
    expect(rejected(parse('Deployment Hook', body))).toBe(error);
  });
});

describe('parseGitLabEvent: Pipeline Hook', () => {
  it('reads a successful pipeline on the default branch that deploys', () => {
    const change = onlyChange(parse('Pipeline Hook', fixture('gitlab-pipeline-success.json')));
    expect(plain(change)).toEqual({
      externalId: 'gitlab:pipeline:31:success',
      occurredAt: '2016-08-12T15:26:29.000000Z',
      service: 'Gitlab Test',
      environment: null,
      kind: 'deploy',
      summary: 'Pipeline #31 of gitlab-org/gitlab-test succeeded on master at bcbb5ec3',
      author: 'root',
      versionBefore: 'd1b2e8a0c7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2',
      versionAfter: 'bcbb5ec396a2c0f828686f14fac9b80b780504f2',
      links: [{ href: 'http://example.com/gitlab-org/gitlab-test/-/pipelines/31', text: 'Pipeline' }],
      details: { status: 'success', ref: 'master', source: 'push', duration: 63, environments: ['production'] },
    });
  });

  it('reads a pipeline without environments as code, and a failed one', () => {
    const body = fixture('gitlab-pipeline-success.json');
    body.builds.forEach((build: Json) => (build.environment = null));
    body.object_attributes.status = 'failed';
    body.object_attributes.before_sha = '0000000000000000000000000000000000000000';
    delete body.object_attributes.url;
    const change = onlyChange(parse('Pipeline Hook', body));
    expect(change.kind).toBe('code');
    expect(change.externalId).toBe('gitlab:pipeline:31:failed');
    expect(change.summary).toBe('Pipeline #31 of gitlab-org/gitlab-test failed on master at bcbb5ec3');
    expect(change.versionBefore).toBeNull();
    expect(change.links).toEqual([{ href: 'http://example.com/gitlab-org/gitlab-test/-/pipelines/31', text: 'Pipeline' }]);
    expect(change.details.environments).toBeUndefined();
  });

  it('ignores pipelines that have not finished, other branches and tags', () => {
    const running = fixture('gitlab-pipeline-success.json');
    running.object_attributes.status = 'running';
    expect(ignoredReason(parse('Pipeline Hook', running))).toBe('GitLab pipeline running: the pipeline has not finished');
    const branch = fixture('gitlab-pipeline-success.json');
    branch.object_attributes.ref = 'feature/rates';
    expect(ignoredReason(parse('Pipeline Hook', branch))).toBe('GitLab pipeline on feature/rates, not the default branch master');
    const tag = fixture('gitlab-pipeline-success.json');
    tag.object_attributes.tag = true;
    tag.object_attributes.ref = 'v2.0.0';
    expect(ignoredReason(parse('Pipeline Hook', tag))).toBe('GitLab pipeline for tag v2.0.0, not the default branch master');
  });

  it.each<[string, (body: Json) => void, string]>([
    ['object_attributes', (body) => delete body.object_attributes, 'object_attributes is required and must be a JSON object'],
    ['sha', (body) => (body.object_attributes.sha = 7), 'object_attributes.sha is required and must be a string'],
    ['default_branch', (body) => delete body.project.default_branch, 'project.default_branch is required and must be a string'],
    ['finished_at', (body) => (body.object_attributes.finished_at = 'later'), 'object_attributes.finished_at must be an RFC 3339 date-time'],
  ])('refuses a pipeline with a bad %s', (_, spoil, error) => {
    const body = fixture('gitlab-pipeline-success.json');
    spoil(body);
    expect(rejected(parse('Pipeline Hook', body))).toBe(error);
  });
});

describe('parseGitLabEvent: other events', () => {
  it('ignores events that are not changes', () => {
    expect(ignoredReason(parse('Push Hook', { object_kind: 'push' }))).toBe('GitLab Push Hook events are not changes');
    expect(ignoredReason(parse('Job Hook', { object_kind: 'build' }))).toBe('GitLab Job Hook events are not changes');
  });
});
