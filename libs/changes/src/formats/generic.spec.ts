import { describe, expect, it } from 'vitest';
import { Timestamp } from '@svc/platform';
import { contentHash } from './fields';
import { accepted, fixture, Json, onlyChange, plain, RECEIVED_AT, rejected } from './fixtures/fixtures';
import { parseGenericChanges } from './generic';
import { ChangeParseResult } from './normalized-change';

function parse(body: unknown, receivedAt: Timestamp = RECEIVED_AT): ChangeParseResult {
  return parseGenericChanges(body, receivedAt);
}

describe('parseGenericChanges', () => {
  it('reads a single change object with every field', () => {
    const parsed = accepted(parse(fixture('generic-single.json')));
    expect(parsed.source).toBe('generic');
    expect(parsed.ignored).toBeUndefined();
    expect(parsed.repairs).toBeUndefined();
    expect(parsed.changes.map(plain)).toEqual([
      {
        externalId: 'generic:feature-flag/new-checkout/2026-03-14T09:12:00Z',
        occurredAt: '2026-03-14T09:12:00.000000Z',
        service: 'checkout',
        environment: 'production',
        kind: 'feature_flag',
        summary: 'Enabled the new-checkout flag for 50% of users',
        author: 'maria',
        versionBefore: '25%',
        versionAfter: '50%',
        links: [
          { href: 'https://flags.example.com/flags/new-checkout', text: 'Flag' },
          { href: 'https://flags.example.com/flags/new-checkout/history', text: null },
        ],
        details: { flag: 'new-checkout', rollout: 50 },
      },
    ]);
  });

  it('reads {changes: [...]} with snake_case versions, numeric ids and defaults', () => {
    const [terraform, pool, migration] = accepted(parse(fixture('generic-batch.json'))).changes;
    expect(plain(terraform)).toEqual({
      externalId: 'generic:tf-run-8841',
      occurredAt: '2026-03-14T02:00:12.500000Z',
      service: 'orders-db',
      environment: 'production',
      kind: 'infrastructure',
      summary: 'Resized the orders database to db.r6g.2xlarge',
      author: 'terraform-cloud',
      versionBefore: 'db.r6g.xlarge',
      versionAfter: 'db.r6g.2xlarge',
      links: [{ href: 'https://app.terraform.io/app/acme/workspaces/prod-db/runs/run-8841', text: null }],
      details: {},
    });
    // No id and no timestamp: received now, id derived from the content.
    expect(pool.occurredAt).toBe(RECEIVED_AT);
    expect(pool.kind).toBe('config');
    expect(pool.environment).toBeNull();
    expect(pool.externalId).toBe(`generic:sha256:${contentHash(pool)}`);
    expect(pool.externalId).toMatch(/^generic:sha256:[0-9a-f]{64}$/);
    expect(migration.externalId).toBe('generic:20260314');
    expect(migration.occurredAt.toJSON()).toBe('2026-03-14T01:05:00.000000Z');
    expect(migration.details).toEqual({ migration: '20260314_add_customer_index', durationSeconds: 42 });
  });

  it('defaults kind to other and treats null and empty strings as absent', () => {
    const change = onlyChange(
      parse({ summary: 'Rotated the TLS certificate', id: null, kind: null, service: '', timestamp: null, links: null, details: null }),
    );
    expect(change.kind).toBe('other');
    expect(change.service).toBeNull();
    expect(change.occurredAt).toBe(RECEIVED_AT);
    expect(change.links).toEqual([]);
    expect(change.details).toEqual({});
    expect(change.externalId).toMatch(/^generic:sha256:/);
  });

  it('prefers camelCase versions over snake_case ones', () => {
    const change = onlyChange(parse({ summary: 's', versionAfter: '2.0.0', version_after: '1.9.9', version_before: '1.0.0' }));
    expect(change.versionAfter).toBe('2.0.0');
    expect(change.versionBefore).toBe('1.0.0');
  });

  it('accepts 100 changes and refuses 101', () => {
    const changes = (count: number) => Array.from({ length: count }, (_, i) => ({ summary: `change ${i}` }));
    expect(accepted(parse({ changes: changes(100) })).changes).toHaveLength(100);
    expect(rejected(parse({ changes: changes(101) }))).toBe('changes must contain at most 100 changes');
  });

  it.each<[string, Json, string]>([
    ['a body that is not an object', 'deployed', 'body must be a JSON object'],
    ['an array body', [{ summary: 's' }], 'body must be a JSON object'],
    ['a missing summary', { service: 'api' }, 'summary is required and must be a string'],
    ['an empty summary', { summary: '' }, 'summary is required and must be a string'],
    ['a summary that is not a string', { summary: 42 }, 'summary is required and must be a string'],
    [
      'a missing summary in a batch',
      { changes: [{ summary: 'a' }, { summary: 'b' }, { summary: 'c' }, { kind: 'deploy' }] },
      'changes[3].summary is required and must be a string',
    ],
    ['changes that is not an array', { changes: { summary: 's' } }, 'changes must be an array of changes'],
    ['empty changes', { changes: [] }, 'changes must contain at least one change'],
    ['a change that is not an object', { changes: [{ summary: 's' }, 'x'] }, 'changes[1] must be a JSON object'],
    ['an unparseable timestamp', { summary: 's', timestamp: '14/03/2026 09:12' }, 'timestamp must be an RFC 3339 date-time'],
    ['a timestamp that is a number', { summary: 's', timestamp: 1773479520 }, 'timestamp must be an RFC 3339 date-time string'],
    ['an impossible date', { changes: [{ summary: 's', timestamp: '2026-02-30T00:00:00Z' }] }, 'changes[0].timestamp must be an RFC 3339 date-time'],
    ['a service that is not a string', { summary: 's', service: ['api'] }, 'service must be a string'],
    ['an id that is an object', { summary: 's', id: { n: 1 } }, 'id must be a string or an integer'],
    ['details that are not an object', { summary: 's', details: ['a'] }, 'details must be a JSON object'],
    ['links that are not an array', { summary: 's', links: 'https://example.com' }, 'links must be an array of links'],
    ['a link without href', { summary: 's', links: [{ text: 'Runbook' }] }, 'links[0].href is required and must be a string'],
    ['a link that is a number', { summary: 's', links: ['https://example.com', 7] }, 'links[1] must be a URL string or an object with href'],
  ])('refuses %s', (_, body, error) => {
    expect(rejected(parse(body))).toBe(error);
  });

  it('refuses an unknown kind with a message listing the kinds', () => {
    expect(rejected(parse({ summary: 's', kind: 'rollout' }))).toBe(
      'kind must be one of deploy, config, feature_flag, migration, infrastructure, release, code, other',
    );
    expect(rejected(parse({ changes: [{ summary: 's', kind: 'DEPLOY' }] }))).toBe(
      'changes[0].kind must be one of deploy, config, feature_flag, migration, infrastructure, release, code, other',
    );
  });

  it('repairs an over-long summary, naming the change in a batch', () => {
    const single = accepted(parse({ summary: 's'.repeat(5000) }));
    expect(single.changes[0].summary).toBe(`${'s'.repeat(1012)}…[truncated]`);
    expect(single.repairs).toEqual(['summary: truncated from 5000 to 1024 characters']);
    const batch = accepted(parse({ changes: [{ summary: 'ok' }, { summary: 'x'.repeat(2000) }] }));
    expect(batch.repairs).toEqual(['changes[1].summary: truncated from 2000 to 1024 characters']);
  });

  it('drops a javascript: link and keeps at most 20 links', () => {
    const links = ['javascript:alert(1)', ...Array.from({ length: 25 }, (_, i) => `https://ci.example.com/runs/${i}`)];
    const parsed = accepted(parse({ summary: 's', links }));
    expect(parsed.changes[0].links).toHaveLength(20);
    expect(parsed.changes[0].links[0]).toEqual({ href: 'https://ci.example.com/runs/0', text: null });
    expect(parsed.changes[0].links[19].href).toBe('https://ci.example.com/runs/19');
    expect(parsed.repairs).toEqual(['links[0]: dropped, not an http or https URL', 'links: 25 links, kept the first 20']);
  });

  it('replaces oversized details by their first 50 key names', () => {
    const details = Object.fromEntries(Array.from({ length: 80 }, (_, i) => [`key${i}`, 'v'.repeat(300)]));
    const parsed = accepted(parse({ summary: 's', details }));
    expect(parsed.changes[0].details).toEqual({ truncated: true, keys: Array.from({ length: 50 }, (_, i) => `key${i}`) });
    expect(parsed.repairs).toEqual(['details: 24871 bytes serialized, over 16384; replaced by its first 50 key names']);
  });

  it('derives the same id for an identical retry and another for different content', () => {
    const body = { summary: 'Raised the pool to 40', service: 'orders-api', timestamp: '2026-03-14T09:00:00Z' };
    const first = onlyChange(parse(body));
    const retry = onlyChange(parse({ ...body }, RECEIVED_AT.plusSeconds(30)));
    expect(retry.externalId).toBe(first.externalId);
    expect(onlyChange(parse({ ...body, summary: 'Raised the pool to 50' })).externalId).not.toBe(first.externalId);
    expect(onlyChange(parse({ ...body, environment: 'staging' })).externalId).not.toBe(first.externalId);
    expect(onlyChange(parse({ ...body, versionAfter: '40' })).externalId).not.toBe(first.externalId);
  });
});
