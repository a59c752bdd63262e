import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { chatSignature, freshTimestamp, signatureMatches } from './chat-signature';
import { questionOf } from './chat.service';

const SECRET = 'signing-secret-0123456789';
const BODY = Buffer.from('{"type":"event_callback","event_id":"Ev1"}');

describe('chat request signatures (v0)', () => {
  it('is v0= and the hex HMAC-SHA256 of v0:{timestamp}:{raw body}', () => {
    const expected = createHmac('sha256', SECRET).update(`v0:1700000000:${BODY.toString()}`).digest('hex');
    expect(chatSignature(SECRET, '1700000000', BODY)).toBe(`v0=${expected}`);
  });

  it('matches only the same secret, timestamp and bytes', () => {
    const signature = chatSignature(SECRET, '1700000000', BODY);
    expect(signatureMatches(SECRET, '1700000000', BODY, signature)).toBe(true);
    expect(signatureMatches('another-secret-0123456789', '1700000000', BODY, signature)).toBe(false);
    expect(signatureMatches(SECRET, '1700000001', BODY, signature)).toBe(false);
    expect(signatureMatches(SECRET, '1700000000', Buffer.from(`${BODY.toString()} `), signature)).toBe(false);
    expect(signatureMatches(SECRET, '1700000000', BODY, signature.slice(0, -1))).toBe(false);
    expect(signatureMatches(SECRET, '1700000000', BODY, `${signature}0`)).toBe(false);
    expect(signatureMatches(SECRET, '1700000000', BODY, '')).toBe(false);
  });

  it('accepts timestamps within five minutes either way, and only Unix seconds', () => {
    const now = 1_700_000_000;
    expect(freshTimestamp(String(now - 300), now)).toBe(true);
    expect(freshTimestamp(String(now + 300), now)).toBe(true);
    expect(freshTimestamp(String(now - 301), now)).toBe(false);
    expect(freshTimestamp(String(now + 301), now)).toBe(false);
    for (const bad of [undefined, '', '1700000000.5', '-1', ' 1700000000', '17e8']) expect(freshTimestamp(bad, now)).toBe(false);
  });
});

describe('the question of a chat message', () => {
  it('drops the leading mentions of the app, keeps the rest, and never ends empty', () => {
    expect(questionOf('<@UBOT> why is checkout so slow?')).toBe('why is checkout so slow?');
    expect(questionOf('<@UBOT|svc> <@U2>  is <@U3> on call?')).toBe('is <@U3> on call?');
    expect(questionOf('<@UBOT>')).toBe('<@UBOT>');
    expect(questionOf('x'.repeat(9000))).toHaveLength(8192);
  });
});
