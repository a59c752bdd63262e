import { describe, expect, it } from 'vitest';
import { fixture, Json, onlyChange, plain, RECEIVED_AT, rejected, accepted } from './fixtures/fixtures';
import { parseFluxEvent } from './flux';
import { ChangeParseResult } from './normalized-change';

function parse(body: unknown): ChangeParseResult {
  return parseFluxEvent(body, RECEIVED_AT);
}

/** The fixture event with some fields changed. */
function event(fields: Json): Json {
  return { ...fixture('flux-kustomization-applied.json'), ...fields };
}

describe('parseFluxEvent', () => {
  it('reads an applied revision as a deploy', () => {
    const parsed = accepted(parse(fixture('flux-kustomization-applied.json')));
    expect(parsed.source).toBe('flux');
    expect(parsed.repairs).toBeUndefined();
    expect(parsed.changes.map(plain)).toEqual([
      {
        externalId: 'flux:Kustomization/apps/webapp:main@sha1:07a684d59d1bc9a58e0c0d07ed480812b2b9a29e:Progressing',
        occurredAt: '2024-07-12T08:56:37.000000Z',
        service: 'webapp',
        environment: 'apps',
        kind: 'deploy',
        summary: 'Kustomization apps/webapp: Deployment/apps/webapp configured',
        author: null,
        versionBefore: null,
        versionAfter: 'main@sha1:07a684d59d1bc9a58e0c0d07ed480812b2b9a29e',
        links: [],
        details: {
          reason: 'Progressing',
          metadata: { revision: 'main@sha1:07a684d59d1bc9a58e0c0d07ed480812b2b9a29e', commit_status: 'update' },
        },
      },
    ]);
  });

  it('gives Flux repeating an event for the same revision the same id, and a new reason another', () => {
    const first = onlyChange(parse(event({})));
    const repeated = onlyChange(parse(event({ timestamp: '2024-07-12T09:06:37Z', message: 'Reconciliation finished in 1.2s, next run in 10m0s' })));
    expect(repeated.externalId).toBe(first.externalId);
    expect(onlyChange(parse(event({ reason: 'ReconciliationSucceeded' }))).externalId).toBe(
      'flux:Kustomization/apps/webapp:main@sha1:07a684d59d1bc9a58e0c0d07ed480812b2b9a29e:ReconciliationSucceeded',
    );
  });

  it('reads a HelmRelease upgrade and the group-prefixed revision key', () => {
    const change = onlyChange(
      parse({
        involvedObject: { kind: 'HelmRelease', namespace: 'monitoring', name: 'grafana', apiVersion: 'helm.toolkit.fluxcd.io/v2' },
        severity: 'info',
        timestamp: '2024-07-12T10:00:00Z',
        message: 'Helm upgrade succeeded for release monitoring/grafana.v4 with chart grafana@8.3.2',
        reason: 'UpgradeSucceeded',
        metadata: { 'helm.toolkit.fluxcd.io/revision': '8.3.2' },
        reportingController: 'helm-controller',
      }),
    );
    expect(change.externalId).toBe('flux:HelmRelease/monitoring/grafana:8.3.2:UpgradeSucceeded');
    expect(change.versionAfter).toBe('8.3.2');
    expect(change.summary).toBe('HelmRelease monitoring/grafana: Helm upgrade succeeded for release monitoring/grafana.v4 with chart grafana@8.3.2');
  });

  it('summarizes an event without a message by its revision', () => {
    expect(onlyChange(parse(event({ message: '' }))).summary).toBe('Kustomization apps/webapp: applied main@sha1:07a684d59d1bc9a58e0c0d07ed480812b2b9a29e');
  });

  it('ignores error events and info events without a revision', () => {
    expect(accepted(parse(event({ severity: 'error', reason: 'ValidationFailed' })))).toEqual({
      source: 'flux',
      changes: [],
      ignored: 'Flux error events report failed reconciliations, not changes',
    });
    expect(accepted(parse(event({ metadata: { commit_status: 'update' } }))).ignored).toBe(
      'Flux event Progressing for Kustomization webapp has no revision: not a change',
    );
    expect(accepted(parse(event({ metadata: undefined, reason: undefined }))).ignored).toBe(
      'Flux event without a reason for Kustomization webapp has no revision: not a change',
    );
    expect(accepted(parse(event({ severity: 'trace' }))).ignored).toBe('Flux trace events are not changes');
  });

  it.each<[string, Json, string]>([
    [
      'an involvedObject without kind',
      event({ involvedObject: { name: 'webapp', namespace: 'apps' } }),
      'involvedObject.kind is required and must be a string',
    ],
    ['an involvedObject without name', event({ involvedObject: { kind: 'Kustomization' } }), 'involvedObject.name is required and must be a string'],
    ['a missing severity', event({ severity: undefined }), 'severity is required and must be a string'],
    ['an unparseable timestamp', event({ timestamp: 1720774597 }), 'timestamp must be an RFC 3339 date-time string'],
    ['metadata that is not an object', event({ metadata: 'main@sha1:07a6' }), 'metadata must be a JSON object'],
  ])('refuses %s', (_, body, error) => {
    expect(rejected(parse(body))).toBe(error);
  });
});
