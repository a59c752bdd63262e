import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Timestamp } from '@svc/platform';
import { ChangeDraft, contentHash, fail, firstLine, normalizeChange, parseInstant, readInstant, runParser, shortSha } from './fields';
import { RECEIVED_AT } from './fixtures/fixtures';

function draft(fields: Partial<ChangeDraft> = {}): ChangeDraft {
  return {
    id: null,
    occurredAt: RECEIVED_AT,
    service: 'checkout',
    environment: 'production',
    kind: 'deploy',
    summary: 'Deployed 1.2.3',
    author: null,
    versionBefore: null,
    versionAfter: '1.2.3',
    links: [],
    details: {},
    ...fields,
  };
}

describe('parseInstant', () => {
  it('reads RFC 3339 and the near forms GitLab and PagerDuty write', () => {
    expect(parseInstant('2026-03-14T09:12:00Z')?.toJSON()).toBe('2026-03-14T09:12:00.000000Z');
    expect(parseInstant('2026-03-14T10:12:00.5+01:00')?.toJSON()).toBe('2026-03-14T09:12:00.500000Z');
    expect(parseInstant('2020-07-17T08:42:58.315+0000')?.toJSON()).toBe('2020-07-17T08:42:58.315000Z');
    expect(parseInstant('2021-04-28 21:50:00 +0200')?.toJSON()).toBe('2021-04-28T19:50:00.000000Z');
    expect(parseInstant('2016-08-12 15:26:29 UTC')?.toJSON()).toBe('2016-08-12T15:26:29.000000Z');
  });

  it('rejects text that is not a date-time or not a calendar date', () => {
    for (const bad of [
      'yesterday',
      '2021-04-28',
      '2021-04-28 21:50:00',
      '2021-02-30T00:00:00Z',
      '2021-04-28T21:50:00 CEST',
      `2021-04-28T21:50:00${'0'.repeat(80)}Z`,
    ]) {
      expect(parseInstant(bad), bad).toBeNull();
    }
  });
});

describe('readInstant', () => {
  it('treats absent, empty and placeholder times as absent and refuses unreadable ones', () => {
    expect(readInstant({}, 'at', 'x')).toBeNull();
    expect(readInstant({ at: '' }, 'at', 'x')).toBeNull();
    expect(readInstant({ at: '0001-01-01T00:00:00Z' }, 'at', 'x')).toBeNull();
    expect(() => readInstant({ at: 'soon' }, 'at', 'x')).toThrow('x.at must be an RFC 3339 date-time');
    expect(() => readInstant({ at: 5 }, 'at', 'x')).toThrow('x.at must be an RFC 3339 date-time string');
  });
});

describe('text helpers', () => {
  it('takes the first line of a message and shortens only commit shas', () => {
    expect(firstLine('\n  Merge pull request #42\n\nRetry on 503')).toBe('Merge pull request #42');
    expect(shortSha('f95f852bd8fca8fcc58a9a2d6c842781e32a215e')).toBe('f95f852');
    expect(shortSha('f95f852bd8fca8fcc58a9a2d6c842781e32a215e', 8)).toBe('f95f852b');
    expect(shortSha('1.4.2')).toBe('1.4.2');
    expect(shortSha('main@sha1:07a684d59d1bc9a58e0c0d07ed480812b2b9a29e')).toBe('main@sha1:07a684d59d1bc9a58e0c0d07ed480812b2b9a29e');
  });
});

describe('contentHash', () => {
  it('is the SHA-256 of the JSON array of the normalized fields', () => {
    const change = {
      occurredAt: Timestamp.parse('2026-03-14T09:00:00Z')!,
      service: 'api',
      environment: null,
      kind: 'config' as const,
      summary: 'Pool to 40',
      versionBefore: null,
      versionAfter: '40',
    };
    const expected = createHash('sha256').update('["2026-03-14T09:00:00.000000Z","api",null,"config","Pool to 40",null,"40"]').digest('hex');
    expect(contentHash(change)).toBe(expected);
    expect(contentHash({ ...change, versionBefore: '40', versionAfter: null })).not.toBe(expected);
  });
});

describe('normalizeChange', () => {
  it('prefixes the sender id with the format', () => {
    expect(normalizeChange('github', draft({ id: 'deployment_status:42' }), '', []).externalId).toBe('github:deployment_status:42');
  });

  it('derives the id from the content when the sender gives none', () => {
    const change = normalizeChange('pagerduty', draft(), '', []);
    expect(change.externalId).toBe(`pagerduty:sha256:${contentHash(change)}`);
    expect(normalizeChange('pagerduty', draft(), '', []).externalId).toBe(change.externalId);
    expect(normalizeChange('pagerduty', draft({ occurredAt: RECEIVED_AT.plusSeconds(1) }), '', []).externalId).not.toBe(change.externalId);
  });

  it('replaces an id too long for externalId by its hash', () => {
    const repairs: string[] = [];
    const id = 'x'.repeat(600);
    const change = normalizeChange('generic', draft({ id }), '', repairs);
    expect(change.externalId).toBe(`generic:sha256:${createHash('sha256').update(id).digest('hex')}`);
    expect(repairs).toEqual(['id: longer than 512 characters or not valid text; replaced by its SHA-256']);
    expect(normalizeChange('generic', draft({ id: 'x'.repeat(504) }), '', []).externalId).toBe(`generic:${'x'.repeat(504)}`);
  });

  it('replaces NUL and lone surrogates and cuts names and versions to their limits', () => {
    const repairs: string[] = [];
    const change = normalizeChange(
      'generic',
      draft({ service: 'api\u0000v2', author: 'a'.repeat(300), versionAfter: `v${'9'.repeat(299)}`, environment: 'prod\ud800' }),
      'changes[2]',
      repairs,
    );
    expect(change.service).toBe('api\ufffdv2');
    expect(change.environment).toBe('prod\ufffd');
    expect(change.author).toBe(`${'a'.repeat(244)}…[truncated]`);
    expect(change.versionAfter).toHaveLength(256);
    expect(repairs).toEqual([
      'changes[2].service: NUL or lone surrogates replaced by U+FFFD',
      'changes[2].environment: NUL or lone surrogates replaced by U+FFFD',
      'changes[2].author: truncated from 300 to 256 characters',
      'changes[2].versionAfter: truncated from 300 to 256 characters',
    ]);
  });

  it('keeps http and https links once each and drops the others', () => {
    const repairs: string[] = [];
    const links = [
      { href: 'https://ci.example.com/1', text: 'Run' },
      { href: 'javascript:alert(1)', text: 'x' },
      { href: 'ftp://files.example.com/a', text: null },
      { href: 'https://', text: null },
      { href: `https://example.com/${'a'.repeat(2100)}`, text: null },
      { href: 'https://ci.example.com/1', text: 'Run again' },
      { href: 'HTTP://ci.example.com/2', text: 't'.repeat(300) },
    ];
    const change = normalizeChange('generic', draft({ links }), '', repairs);
    expect(change.links).toEqual([
      { href: 'https://ci.example.com/1', text: 'Run' },
      { href: 'HTTP://ci.example.com/2', text: `${'t'.repeat(244)}…[truncated]` },
    ]);
    expect(repairs).toEqual([
      'links[1]: dropped, not an http or https URL',
      'links[2]: dropped, not an http or https URL',
      'links[3]: dropped, not an http or https URL',
      'links[4]: dropped, longer than 2048 characters',
      'links[6].text: truncated from 300 to 256 characters',
    ]);
  });

  it('replaces unsafe text inside details, keys included', () => {
    const repairs: string[] = [];
    const change = normalizeChange('generic', draft({ details: { 'a\u0000': ['x\ud800', { y: 1 }] } }), '', repairs);
    expect(change.details).toEqual({ 'a\ufffd': ['x\ufffd', { y: 1 }] });
    expect(repairs).toEqual(['details: NUL or lone surrogates replaced by U+FFFD']);
  });

  it('cuts the key names kept of oversized details', () => {
    const repairs: string[] = [];
    const details = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`${i}`.padEnd(1000, 'k'), i]));
    const change = normalizeChange('generic', draft({ details }), '', repairs);
    const keys = change.details.keys as string[];
    expect(keys).toHaveLength(50);
    expect(keys[0]).toBe(`0${'k'.repeat(51)}…[truncated]`);
    expect(Buffer.byteLength(JSON.stringify(change.details))).toBeLessThan(16384);
    expect(repairs).toEqual(['details: 60351 bytes serialized, over 16384; replaced by its first 50 key names']);
  });

  it('keeps details of exactly 16384 bytes and bounds one byte more', () => {
    const sized = (bytes: number) => ({ k: 'v'.repeat(bytes - '{"k":""}'.length) });
    expect(normalizeChange('generic', draft({ details: sized(16384) }), '', []).details).toEqual(sized(16384));
    expect(normalizeChange('generic', draft({ details: sized(16385) }), '', []).details).toEqual({ truncated: true, keys: ['k'] });
  });
});

describe('runParser', () => {
  it('caps an error at 1024 characters', () => {
    const result = runParser('generic', () => fail(`x${'y'.repeat(2000)}`));
    expect(result.ok).toBe(false);
    expect(!result.ok && [...result.error].length).toBe(1024);
  });

  it('turns an unexpected failure into a refusal naming the format', () => {
    const result = runParser('flux', () => {
      throw new TypeError('boom');
    });
    expect(result).toEqual({ ok: false, error: 'body could not be read as a flux change event' });
  });

  it('keeps at most 50 repair sentences', () => {
    const result = runParser('generic', (repairs) => {
      for (let i = 0; i < 120; i++) repairs.push(`r${i}`);
      return { changes: [] };
    });
    const repairs = result.ok ? result.parsed.repairs : [];
    expect(repairs).toHaveLength(50);
    expect(repairs?.[48]).toBe('r48');
    expect(repairs?.[49]).toBe('and 71 more repairs');
  });
});
