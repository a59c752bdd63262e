import { describe, expect, it } from 'vitest';
import { Timestamp } from '@svc/platform';
import { contentHash } from './fields';
import { accepted, fixture, Json, onlyChange, plain, RECEIVED_AT, rejected } from './fixtures/fixtures';
import { ChangeParseResult } from './normalized-change';
import { parsePagerDutyChange } from './pagerduty';

function parse(body: unknown, receivedAt: Timestamp = RECEIVED_AT): ChangeParseResult {
  return parsePagerDutyChange(body, receivedAt);
}

describe('parsePagerDutyChange', () => {
  it('reads a change event, mapping custom_details to the normalized fields', () => {
    const parsed = accepted(parse(fixture('pagerduty-change.json')));
    expect(parsed.source).toBe('pagerduty');
    expect(parsed.repairs).toBeUndefined();
    const [change] = parsed.changes;
    expect(plain(change)).toEqual({
      externalId: `pagerduty:sha256:${contentHash(change)}`,
      occurredAt: '2020-07-17T08:42:58.315000Z',
      service: 'snapshot-api',
      environment: 'production',
      kind: 'deploy',
      summary: 'Build Success: Increase snapshot create timeout to 30 seconds',
      author: 'jdoe',
      versionBefore: '2.3.0',
      versionAfter: '2.4.0',
      links: [{ href: 'https://acme.pagerduty.dev/build/2', text: 'View more details in Acme!' }],
      details: {
        build_state: 'passed',
        build_number: '2',
        run_time: '1236s',
        service: 'snapshot-api',
        environment: 'production',
        kind: 'deploy',
        author: 'jdoe',
        previous_version: '2.3.0',
        version: '2.4.0',
      },
    });
  });

  it('falls back to the source for the service, other for the kind and the receipt time', () => {
    const change = onlyChange(parse({ routing_key: 'k', payload: { summary: 'Secret rotated', source: 'vault-prod' } }));
    expect(plain(change)).toEqual({
      externalId: `pagerduty:sha256:${contentHash(change)}`,
      occurredAt: RECEIVED_AT.toJSON(),
      service: 'vault-prod',
      environment: null,
      kind: 'other',
      summary: 'Secret rotated',
      author: null,
      versionBefore: null,
      versionAfter: null,
      links: [],
      details: {},
    });
  });

  it('reads the alternative custom_details names and ignores a kind it does not know', () => {
    const custom_details = { kind: 'hotfix', user: 'ops-bot', version_before: '7', version_after: '8', service: 42 };
    const change = onlyChange(parse({ payload: { summary: 's', source: 'jenkins', custom_details } }));
    expect(change.kind).toBe('other');
    expect(change.author).toBe('ops-bot');
    expect(change.versionBefore).toBe('7');
    expect(change.versionAfter).toBe('8');
    expect(change.service).toBe('jenkins');
  });

  it('ignores routing_key: the same change under another key gets the same id', () => {
    const body = fixture('pagerduty-change.json');
    const first = onlyChange(parse(body));
    const retry = onlyChange(parse({ ...body, routing_key: 'another' }, RECEIVED_AT.plusSeconds(60)));
    expect(retry.externalId).toBe(first.externalId);
    body.payload.summary = 'Build Success: Increase snapshot create timeout to 45 seconds';
    expect(onlyChange(parse(body)).externalId).not.toBe(first.externalId);
  });

  it.each<[string, Json, string]>([
    ['a missing summary', { payload: { source: 'ci' } }, 'payload.summary is required and must be a string'],
    ['a summary that is not a string', { payload: { summary: ['a'] } }, 'payload.summary is required and must be a string'],
    ['a payload that is not an object', { payload: 'deployed' }, 'payload is required and must be a JSON object'],
    ['an unparseable timestamp', { payload: { summary: 's', timestamp: '17/07/2020' } }, 'payload.timestamp must be an RFC 3339 date-time'],
    ['a source that is not a string', { payload: { summary: 's', source: 1 } }, 'payload.source must be a string'],
    ['custom_details that are not an object', { payload: { summary: 's', custom_details: 'x' } }, 'payload.custom_details must be a JSON object'],
    ['a link without href', { payload: { summary: 's' }, links: [{ text: 'CI' }] }, 'links[0].href is required and must be a string'],
  ])('refuses %s', (_, body, error) => {
    expect(rejected(parse(body))).toBe(error);
  });

  it('repairs an over-long summary and drops a link that is not http', () => {
    const parsed = accepted(
      parse({ payload: { summary: 'é'.repeat(1500) }, links: [{ href: 'mailto:ops@example.com' }, { href: 'https://ci.example.com/9' }] }),
    );
    expect([...parsed.changes[0].summary]).toHaveLength(1024);
    expect(parsed.changes[0].links).toEqual([{ href: 'https://ci.example.com/9', text: null }]);
    expect(parsed.repairs).toEqual(['summary: truncated from 1500 to 1024 characters', 'links[0]: dropped, not an http or https URL']);
  });
});
