import { describe, expect, it } from 'vitest';
import { missingReads } from './kubernetes-access';

const READS = [
  { group: '', resource: 'pods', verbs: ['get', 'list'] },
  { group: '', resource: 'pods/log', verbs: ['get'] },
  { group: 'apps', resource: 'replicasets', verbs: ['list'] },
];

/** Rules as RBAC matches them: wildcards, a parent's `/*` for its subresources, and rules limited to named objects. */
describe('missingReads', () => {
  it('grants through wildcards of group, resource and verb', () => {
    expect(missingReads([{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }], READS)).toEqual([]);
    expect(missingReads([{ apiGroups: ['', 'apps'], resources: ['*'], verbs: ['get', 'list'] }], READS)).toEqual([]);
  });

  it('does not take a resource for its subresources, but takes pods/* for pods/log', () => {
    expect(missingReads([{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }], READS)).toEqual(['get pods/log', 'list replicasets.apps']);
    expect(missingReads([{ apiGroups: [''], resources: ['pods', 'pods/*'], verbs: ['get', 'list'] }], READS)).toEqual(['list replicasets.apps']);
  });

  it('does not count a rule limited to named objects, nor a verb or group it does not name', () => {
    expect(
      missingReads(
        [
          { apiGroups: [''], resources: ['pods', 'pods/log'], verbs: ['get', 'list'], resourceNames: ['web-1'] },
          { apiGroups: ['extensions'], resources: ['replicasets'], verbs: ['list'] },
          { apiGroups: [''], resources: ['pods'], verbs: ['watch'] },
        ],
        READS,
      ),
    ).toEqual(['get pods', 'list pods', 'get pods/log', 'list replicasets.apps']);
  });
});
