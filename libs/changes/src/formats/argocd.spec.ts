import { describe, expect, it } from 'vitest';
import { parseArgoCdNotification } from './argocd';
import { contentHash } from './fields';
import { accepted, fixture, Json, onlyChange, plain, RECEIVED_AT, rejected } from './fixtures/fixtures';
import { ChangeParseResult } from './normalized-change';

function parse(body: unknown): ChangeParseResult {
  return parseArgoCdNotification(body, RECEIVED_AT);
}

/** The documented template's output with some values changed. */
function rendered(values: Json): Json {
  const body = fixture('argocd-sync-succeeded.json');
  return { argocd: { ...body.argocd, ...values } };
}

describe('parseArgoCdNotification', () => {
  it('reads a succeeded sync', () => {
    const parsed = accepted(parse(fixture('argocd-sync-succeeded.json')));
    expect(parsed.source).toBe('argocd');
    expect(parsed.repairs).toBeUndefined();
    expect(parsed.changes.map(plain)).toEqual([
      {
        externalId: 'argocd:checkout:53e28ff20cc530b9ada2173fbbd64d48338583ba:2024-05-21T10:14:37.000000Z',
        occurredAt: '2024-05-21T10:14:37.000000Z',
        service: 'checkout',
        environment: 'checkout-prod',
        kind: 'deploy',
        summary: 'Synced checkout to 53e28ff',
        author: 'automated',
        versionBefore: '9b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c',
        versionAfter: '53e28ff20cc530b9ada2173fbbd64d48338583ba',
        links: [{ href: 'https://argocd.example.com/applications/argocd/checkout', text: 'Argo CD' }],
        details: {
          phase: 'Succeeded',
          project: 'shop',
          health: 'Healthy',
          message: 'successfully synced (all tasks run)',
          repoURL: 'https://github.com/acme/deploy-config.git',
        },
      },
    ]);
  });

  it('treats "" and "<no value>" as absent', () => {
    const change = onlyChange(parse(rendered({ finishedAt: '<no value>', namespace: '', previousRevision: '<no value>', url: '', phase: '<no value>' })));
    expect(change.occurredAt.toJSON()).toBe('2024-05-21T10:14:02.000000Z');
    expect(change.externalId).toBe('argocd:checkout:53e28ff20cc530b9ada2173fbbd64d48338583ba:2024-05-21T10:14:02.000000Z');
    expect(change.environment).toBeNull();
    expect(change.versionBefore).toBeNull();
    expect(change.links).toEqual([]);
    expect(change.details.phase).toBe('Succeeded');
  });

  it('derives the id when the template gives no revision or no time', () => {
    const change = onlyChange(parse(rendered({ revision: '<no value>', startedAt: '', finishedAt: '' })));
    expect(change.summary).toBe('Synced checkout');
    expect(change.occurredAt).toBe(RECEIVED_AT);
    expect(change.externalId).toBe(`argocd:sha256:${contentHash(change)}`);
  });

  it.each(['Failed', 'Error'])('reads a %s sync as a failed deploy', (phase) => {
    const change = onlyChange(parse(rendered({ phase, message: 'one or more objects failed to apply' })));
    expect(change.kind).toBe('deploy');
    expect(change.summary).toBe('Sync of checkout to 53e28ff failed');
    expect(change.details).toMatchObject({ phase, message: 'one or more objects failed to apply' });
  });

  it('ignores a sync still running', () => {
    const parsed = accepted(parse(rendered({ phase: 'Running', finishedAt: '<no value>' })));
    expect(parsed).toEqual({ source: 'argocd', changes: [], ignored: 'Argo CD sync of checkout is Running: not finished' });
  });

  it('keeps a revision that is not a commit whole in the summary', () => {
    expect(onlyChange(parse(rendered({ revision: '4.12.0' }))).summary).toBe('Synced checkout to 4.12.0');
  });

  it('reads initiatedBy as a user name or as the object Argo CD keeps', () => {
    expect(onlyChange(parse(rendered({ initiatedBy: 'alice' }))).author).toBe('alice');
    expect(onlyChange(parse(rendered({ initiatedBy: { username: 'bob' } }))).author).toBe('bob');
    expect(onlyChange(parse(rendered({ initiatedBy: { automated: true } }))).author).toBe('automated');
    expect(onlyChange(parse(rendered({ initiatedBy: '<no value>' }))).author).toBeNull();
  });

  it.each<[string, Json, string]>([
    ['no app', { argocd: { revision: 'abc' } }, 'argocd.app is required and must be a string'],
    ['an app rendered empty', { argocd: { app: '<no value>' } }, 'argocd.app is required and must be a string'],
    ['argocd that is not an object', { argocd: 'checkout' }, 'argocd is required and must be a JSON object'],
    ['an unparseable finishedAt', { argocd: { app: 'checkout', finishedAt: 'just now' } }, 'argocd.finishedAt must be an RFC 3339 date-time'],
    ['a revision that is a list', { argocd: { app: 'checkout', revision: ['a', 'b'] } }, 'argocd.revision must be a string'],
  ])('refuses %s', (_, body, error) => {
    expect(rejected(parse(body))).toBe(error);
  });
});
