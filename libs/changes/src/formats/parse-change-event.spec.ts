import { describe, expect, it } from 'vitest';
import { accepted, fixture, Json, RECEIVED_AT, rejected } from './fixtures/fixtures';
import { ChangeParseResult } from './normalized-change';
import { parseChangeEvent } from './parse-change-event';

function parse(headers: Record<string, string>, body: unknown): ChangeParseResult {
  return parseChangeEvent(headers, body, RECEIVED_AT);
}

describe('parseChangeEvent: recognition', () => {
  it.each<[string, Record<string, string>, string, string]>([
    ['GitHub by its event header', { 'x-github-event': 'deployment_status' }, 'github-deployment-status-success.json', 'github'],
    ['GitLab by its event header', { 'x-gitlab-event': 'Deployment Hook' }, 'gitlab-deployment-success.json', 'gitlab'],
    ['Flux by involvedObject and reportingController', {}, 'flux-kustomization-applied.json', 'flux'],
    ['Argo CD by its argocd object', {}, 'argocd-sync-succeeded.json', 'argocd'],
    ['PagerDuty by its payload object', {}, 'pagerduty-change.json', 'pagerduty'],
    ['the generic format otherwise', {}, 'generic-single.json', 'generic'],
    ['a generic batch', { 'content-type': 'application/json' }, 'generic-batch.json', 'generic'],
  ])('recognises %s', (_, headers, name, source) => {
    const parsed = accepted(parse(headers, fixture(name)));
    expect(parsed.source).toBe(source);
    expect(parsed.changes.length).toBeGreaterThan(0);
    expect(parsed.changes.every((change) => change.externalId.startsWith(`${source}:`))).toBe(true);
  });

  it('reads the ignored events of each sender', () => {
    expect(accepted(parse({ 'x-github-event': 'ping' }, fixture('github-ping.json'))).ignored).toBe('GitHub ping: the webhook is connected');
    expect(accepted(parse({ 'x-github-event': 'push' }, fixture('github-push-other-branch.json'))).ignored).toBe(
      'GitHub push to refs/heads/retry-payments, not the default branch master',
    );
    expect(accepted(parse({ 'x-gitlab-event': 'Pipeline Hook' }, fixture('gitlab-pipeline-success.json'))).changes[0].externalId).toBe(
      'gitlab:pipeline:31:success',
    );
  });

  it('lets a header win over the shape of the body', () => {
    const pagerDutyShaped = fixture('pagerduty-change.json');
    expect(accepted(parse({ 'x-github-event': 'issues' }, pagerDutyShaped))).toEqual({
      source: 'github',
      changes: [],
      ignored: 'GitHub issues events are not changes',
    });
    expect(accepted(parse({ 'x-gitlab-event': 'Note Hook' }, pagerDutyShaped)).source).toBe('gitlab');
    // GitHub is looked for first.
    expect(accepted(parse({ 'x-gitlab-event': 'Push Hook', 'x-github-event': 'ping' }, {})).source).toBe('github');
  });

  it('reads a sender body without its header as the generic format', () => {
    expect(rejected(parse({}, fixture('github-deployment-status-success.json')))).toBe('summary is required and must be a string');
  });

  it('needs both involvedObject and reportingController for Flux', () => {
    const body: Json = { involvedObject: { kind: 'Kustomization', name: 'webapp' }, summary: 'Applied webapp' };
    expect(accepted(parse({}, body)).source).toBe('generic');
    expect(rejected(parse({}, { ...body, reportingController: 'kustomize-controller' }))).toBe('severity is required and must be a string');
  });

  it('prefers Flux, then Argo CD, then PagerDuty when a body has several shapes', () => {
    const flux = fixture('flux-kustomization-applied.json');
    const argocd = fixture('argocd-sync-succeeded.json');
    const pagerduty = fixture('pagerduty-change.json');
    expect(accepted(parse({}, { ...flux, ...argocd, ...pagerduty })).source).toBe('flux');
    expect(accepted(parse({}, { ...argocd, ...pagerduty })).source).toBe('argocd');
    expect(accepted(parse({}, { ...pagerduty, argocd: 'x' })).source).toBe('pagerduty');
  });
});

describe('parseChangeEvent: never throws', () => {
  it.each<[string, unknown]>([
    ['null', null],
    ['a number', 42],
    ['a string', 'deploy'],
    ['an array', [{ summary: 's' }]],
  ])('refuses a body that is %s', (_, body) => {
    expect(rejected(parse({}, body))).toBe('body must be a JSON object');
  });

  it('turns a failure inside a parser into a refusal', () => {
    const hostile = Object.defineProperty({}, 'summary', {
      enumerable: true,
      get() {
        throw new Error('boom');
      },
    });
    expect(rejected(parse({}, hostile))).toBe('body could not be read as a generic change event');
  });

  it('turns unusable headers into a refusal', () => {
    expect(rejected(parse(null as unknown as Record<string, string>, { summary: 's' }))).toBe('body could not be read as a change event');
  });
});
