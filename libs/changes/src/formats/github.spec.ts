import { describe, expect, it } from 'vitest';
import { accepted, fixture, Json, onlyChange, plain, RECEIVED_AT, rejected } from './fixtures/fixtures';
import { parseGitHubEvent } from './github';
import { ChangeParseResult } from './normalized-change';

function parse(event: string, body: unknown): ChangeParseResult {
  return parseGitHubEvent(event, body, RECEIVED_AT);
}

function ignoredReason(result: ChangeParseResult): string | undefined {
  const parsed = accepted(result);
  expect(parsed.changes).toEqual([]);
  return parsed.ignored;
}

describe('parseGitHubEvent: deployment_status', () => {
  it('reads a successful deployment', () => {
    const parsed = accepted(parse('deployment_status', fixture('github-deployment-status-success.json')));
    expect(parsed.source).toBe('github');
    expect(parsed.ignored).toBeUndefined();
    expect(parsed.repairs).toBeUndefined();
    expect(parsed.changes.map(plain)).toEqual([
      {
        externalId: 'github:deployment_status:209916254',
        occurredAt: '2019-05-15T15:20:55.000000Z',
        service: 'Hello-World',
        environment: 'production',
        kind: 'deploy',
        summary: 'Deployed f95f852 of Codertocat/Hello-World to production',
        author: 'Codertocat',
        versionBefore: null,
        versionAfter: 'f95f852bd8fca8fcc58a9a2d6c842781e32a215e',
        links: [
          { href: 'https://github.com/Codertocat/Hello-World/actions/runs/9012345678', text: 'Deployment log' },
          { href: 'https://hello-world.example.com', text: 'Environment' },
          { href: 'https://github.com/Codertocat/Hello-World/commit/f95f852bd8fca8fcc58a9a2d6c842781e32a215e', text: 'Commit' },
        ],
        details: { state: 'success', description: 'Deployed by GitHub Actions', deployment_id: 145988746, ref: 'master', task: 'deploy' },
      },
    ]);
  });

  it.each(['failure', 'error'])('reads a %s as a failed deployment', (state) => {
    const body = fixture('github-deployment-status-success.json');
    body.deployment_status.state = state;
    const change = onlyChange(parse('deployment_status', body));
    expect(change.kind).toBe('deploy');
    expect(change.summary).toBe('Deployment of f95f852 of Codertocat/Hello-World to production failed');
    expect(change.details.state).toBe(state);
    expect(change.externalId).toBe('github:deployment_status:209916254');
  });

  it.each(['pending', 'queued', 'in_progress', 'inactive'])('ignores a deployment that is %s', (state) => {
    const body = fixture('github-deployment-status-success.json');
    body.deployment_status.state = state;
    expect(ignoredReason(parse('deployment_status', body))).toBe(`GitHub deployment_status ${state}: the deployment has not finished`);
  });

  it('takes the service from deployment.payload, and the other fallbacks', () => {
    const body = fixture('github-deployment-status-success.json');
    body.deployment.payload = { service: 'hello-api' };
    delete body.deployment_status.created_at;
    body.deployment_status.updated_at = '2019-05-15T15:21:00Z';
    body.deployment_status.creator = null;
    delete body.deployment_status.environment;
    body.deployment.environment = 'staging';
    body.deployment_status.target_url = '';
    delete body.deployment_status.log_url;
    body.deployment_status.environment_url = null;
    const change = onlyChange(parse('deployment_status', body));
    expect(change.service).toBe('hello-api');
    expect(change.occurredAt.toJSON()).toBe('2019-05-15T15:21:00.000000Z');
    expect(change.author).toBe('deploy-bot');
    expect(change.environment).toBe('staging');
    expect(change.links.map((link) => link.text)).toEqual(['Commit']);
  });

  it('ignores a deployment.payload given as a string', () => {
    const body = fixture('github-deployment-status-success.json');
    body.deployment.payload = '{"service":"x"}';
    expect(onlyChange(parse('deployment_status', body)).service).toBe('Hello-World');
  });

  it.each<[string, (body: Json) => void, string]>([
    ['deployment_status', (body) => delete body.deployment_status, 'deployment_status is required and must be a JSON object'],
    ['deployment', (body) => (body.deployment = 'x'), 'deployment is required and must be a JSON object'],
    ['state', (body) => delete body.deployment_status.state, 'deployment_status.state is required and must be a string'],
    ['sha', (body) => delete body.deployment.sha, 'deployment.sha is required and must be a string'],
    ['id', (body) => (body.deployment_status.id = 1.5), 'deployment_status.id is required and must be a number or a string'],
    ['created_at', (body) => (body.deployment_status.created_at = 'May 15'), 'deployment_status.created_at must be an RFC 3339 date-time'],
  ])('refuses a deployment_status with a bad %s', (_, spoil, error) => {
    const body = fixture('github-deployment-status-success.json');
    spoil(body);
    expect(rejected(parse('deployment_status', body))).toBe(error);
  });
});

describe('parseGitHubEvent: release', () => {
  it('reads a published release', () => {
    const change = onlyChange(parse('release', fixture('github-release-published.json')));
    expect(plain(change)).toEqual({
      externalId: 'github:release:17372790',
      occurredAt: '2019-05-15T15:20:53.000000Z',
      service: 'Hello-World',
      environment: null,
      kind: 'release',
      summary: 'Released v1.4.0 of Codertocat/Hello-World: Faster checkout',
      author: 'Codertocat',
      versionBefore: null,
      versionAfter: 'v1.4.0',
      links: [{ href: 'https://github.com/Codertocat/Hello-World/releases/tag/v1.4.0', text: 'Release' }],
      details: { action: 'published', prerelease: false, target_commitish: 'master' },
    });
  });

  it('gives the released action of the same release the same id', () => {
    const body = fixture('github-release-published.json');
    body.action = 'released';
    body.release.name = '';
    const change = onlyChange(parse('release', body));
    expect(change.externalId).toBe('github:release:17372790');
    expect(change.summary).toBe('Released v1.4.0 of Codertocat/Hello-World');
  });

  it.each(['created', 'edited', 'deleted', 'prereleased', 'unpublished'])('ignores a release %s', (action) => {
    const body = fixture('github-release-published.json');
    body.action = action;
    expect(ignoredReason(parse('release', body))).toBe(`GitHub release ${action}: only published releases are changes`);
  });

  it('refuses a published release without its tag', () => {
    const body = fixture('github-release-published.json');
    delete body.release.tag_name;
    expect(rejected(parse('release', body))).toBe('release.tag_name is required and must be a string');
  });
});

describe('parseGitHubEvent: push', () => {
  it('reads a push to the default branch', () => {
    const change = onlyChange(parse('push', fixture('github-push-default-branch.json')));
    expect(plain(change)).toEqual({
      externalId: 'github:push:0d1a26e67d8f5eaf1f6ba5c57fc3c7d91ac0fd1c',
      occurredAt: '2019-05-15T20:21:02.000000Z',
      service: 'Hello-World',
      environment: null,
      kind: 'code',
      summary: 'Pushed 2 commits to Codertocat/Hello-World master: Merge pull request #42 from Codertocat/retry-payments',
      author: 'Codertocat',
      versionBefore: '6113728f27ae82c7b1a177c8d03f9e96e0adf246',
      versionAfter: '0d1a26e67d8f5eaf1f6ba5c57fc3c7d91ac0fd1c',
      links: [{ href: 'https://github.com/Codertocat/Hello-World/compare/6113728f27ae...0d1a26e67d8f', text: 'Compare' }],
      details: { ref: 'refs/heads/master', commits: 2, forced: false },
    });
  });

  it('falls back to the pusher and the receipt time without a head commit', () => {
    const body = fixture('github-push-default-branch.json');
    body.head_commit = null;
    body.commits = [];
    body.before = '0000000000000000000000000000000000000000';
    const change = onlyChange(parse('push', body));
    expect(change.summary).toBe('Pushed 0 commits to Codertocat/Hello-World master');
    expect(change.author).toBe('Codertocat');
    expect(change.occurredAt).toBe(RECEIVED_AT);
    expect(change.versionBefore).toBeNull();
  });

  it('leaves a blank commit message out of the summary', () => {
    const body = fixture('github-push-default-branch.json');
    body.head_commit.message = '\n\n';
    expect(onlyChange(parse('push', body)).summary).toBe('Pushed 2 commits to Codertocat/Hello-World master');
  });

  it('ignores a push to another branch or a tag, and the deletion of the default branch', () => {
    expect(ignoredReason(parse('push', fixture('github-push-other-branch.json')))).toBe(
      'GitHub push to refs/heads/retry-payments, not the default branch master',
    );
    const tag = fixture('github-push-default-branch.json');
    tag.ref = 'refs/tags/v1.4.0';
    expect(ignoredReason(parse('push', tag))).toBe('GitHub push to refs/tags/v1.4.0, not the default branch master');
    const deleted = fixture('github-push-default-branch.json');
    deleted.deleted = true;
    expect(ignoredReason(parse('push', deleted))).toBe('GitHub push deleted refs/heads/master');
  });

  it('refuses a push without after or the default branch', () => {
    const noAfter = fixture('github-push-default-branch.json');
    delete noAfter.after;
    expect(rejected(parse('push', noAfter))).toBe('after is required and must be a string');
    const noDefault = fixture('github-push-default-branch.json');
    delete noDefault.repository.default_branch;
    expect(rejected(parse('push', noDefault))).toBe('repository.default_branch is required and must be a string');
  });
});

describe('parseGitHubEvent: other events', () => {
  it('acknowledges a ping', () => {
    const parsed = accepted(parse('ping', fixture('github-ping.json')));
    expect(parsed).toEqual({ source: 'github', changes: [], ignored: 'GitHub ping: the webhook is connected' });
  });

  it('ignores events that are not changes, whatever their body', () => {
    expect(ignoredReason(parse('issues', { action: 'opened' }))).toBe('GitHub issues events are not changes');
    expect(ignoredReason(parse('workflow_run', null))).toBe('GitHub workflow_run events are not changes');
    expect(ignoredReason(parse(`x${'e'.repeat(300)}`, {}))).toBe(`GitHub x${'e'.repeat(87)}…[truncated] events are not changes`);
  });

  it('refuses a recognised event whose body is not an object', () => {
    expect(rejected(parse('push', ['refs/heads/master']))).toBe('body must be a JSON object');
  });
});
