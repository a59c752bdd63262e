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
        externalId: 'flux:Kustomization/apps/webapp:main@sha1:07a684d59d1bc9a58e0c0d07ed480812b2b9a29e',
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

  it('gives every event of one revision of an object the same id (one rollout is one change), and another revision another', () => {
    const first = onlyChange(parse(event({})));
    const repeated = onlyChange(parse(event({ timestamp: '2024-07-12T09:06:37Z', message: 'Reconciliation finished in 1.2s, next run in 10m0s' })));
    expect(repeated.externalId).toBe(first.externalId);
    expect(onlyChange(parse(event({ reason: 'ReconciliationSucceeded' }))).externalId).toBe(first.externalId);
    expect(onlyChange(parse(event({ metadata: { revision: 'main@sha1:1111111111111111111111111111111111111111' } }))).externalId).toBe(
      'flux:Kustomization/apps/webapp:main@sha1:1111111111111111111111111111111111111111',
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
    expect(change.externalId).toBe('flux:HelmRelease/monitoring/grafana:8.3.2');
    expect(change.versionAfter).toBe('8.3.2');
    expect(change.summary).toBe('HelmRelease monitoring/grafana: Helm upgrade succeeded for release monitoring/grafana.v4 with chart grafana@8.3.2');
  });

  it('reads a HelmRelease UpgradeSucceeded event as a deploy', () => {
    const parsed = accepted(
      parse({
        involvedObject: { kind: 'HelmRelease', namespace: 'podinfo', name: 'podinfo', apiVersion: 'helm.toolkit.fluxcd.io/v2' },
        severity: 'info',
        timestamp: '2024-07-12T11:30:00Z',
        message: 'Helm upgrade succeeded for release podinfo/podinfo.v3 with chart podinfo@6.7.0',
        reason: 'UpgradeSucceeded',
        metadata: { revision: '6.7.0' },
        reportingController: 'helm-controller',
      }),
    );
    expect(parsed.ignored).toBeUndefined();
    expect(parsed.changes.map(plain)).toEqual([
      {
        externalId: 'flux:HelmRelease/podinfo/podinfo:6.7.0',
        occurredAt: '2024-07-12T11:30:00.000000Z',
        service: 'podinfo',
        environment: 'podinfo',
        kind: 'deploy',
        summary: 'HelmRelease podinfo/podinfo: Helm upgrade succeeded for release podinfo/podinfo.v3 with chart podinfo@6.7.0',
        author: null,
        versionBefore: null,
        versionAfter: '6.7.0',
        links: [],
        details: { reason: 'UpgradeSucceeded', metadata: { revision: '6.7.0' } },
      },
    ]);
  });

  it('ignores a GitRepository NewArtifact event: a source fetched, nothing applied', () => {
    const newArtifact = {
      involvedObject: { kind: 'GitRepository', namespace: 'flux-system', name: 'flux-system', apiVersion: 'source.toolkit.fluxcd.io/v1' },
      severity: 'info',
      timestamp: '2024-07-12T08:56:30Z',
      message: "stored artifact for commit 'Merge pull request #42 from acme/retry-payments'",
      reason: 'NewArtifact',
      metadata: { revision: 'main@sha1:07a684d59d1bc9a58e0c0d07ed480812b2b9a29e' },
      reportingController: 'source-controller',
    };
    expect(accepted(parse(newArtifact))).toEqual({
      source: 'flux',
      changes: [],
      ignored: 'Flux GitRepository events report fetched sources, not applied changes',
    });
    // Whatever its severity.
    expect(accepted(parse({ ...newArtifact, severity: 'error', reason: 'GitOperationFailed' })).ignored).toBe(
      'Flux GitRepository events report fetched sources, not applied changes',
    );
  });

  it.each<[string, string]>([
    ['OCIRepository', 'oci://ghcr.io/acme/manifests@sha256:6c2b1f0e'],
    ['HelmChart', '6.7.0'],
    ['HelmRepository', 'sha256:5f1e2d3c'],
    ['Bucket', 'sha256:0a1b2c3d'],
  ])('ignores a %s event with a revision', (kind, revision) => {
    const parsed = accepted(
      parse(event({ involvedObject: { kind, namespace: 'flux-system', name: 'podinfo' }, reason: 'NewArtifact', metadata: { revision } })),
    );
    expect(parsed.changes).toEqual([]);
    expect(parsed.ignored).toBe(`Flux ${kind} events report fetched sources, not applied changes`);
  });

  it('ignores the events of kinds that apply nothing, naming the kind', () => {
    const automation = event({
      involvedObject: { kind: 'ImageUpdateAutomation', namespace: 'flux-system', name: 'podinfo' },
      reason: 'Succeeded',
      metadata: { revision: 'main@sha1:1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d' },
    });
    expect(accepted(parse(automation)).ignored).toBe(
      'Flux ImageUpdateAutomation events are not applied changes: only Kustomization and HelmRelease events are',
    );
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
