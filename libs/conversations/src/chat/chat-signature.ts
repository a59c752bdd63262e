import { createHmac, timingSafeEqual } from 'node:crypto';

/** Requests signed longer ago than this, or this far in the future, are refused (decisions §9). */
export const SIGNATURE_MAX_AGE_SECONDS = 5 * 60;

/** `v0=` and the hex HMAC-SHA256 of `v0:{timestamp}:{raw body}` under the signing secret: the v0 request signature. */
export function chatSignature(signingSecret: string, timestamp: string, rawBody: Buffer): string {
  const mac = createHmac('sha256', signingSecret);
  mac.update(`v0:${timestamp}:`);
  mac.update(rawBody);
  return `v0=${mac.digest('hex')}`;
}

/** Whether `presented` is the signature of the request under `signingSecret`, compared in constant time. */
export function signatureMatches(signingSecret: string, timestamp: string, rawBody: Buffer, presented: string): boolean {
  const expected = Buffer.from(chatSignature(signingSecret, timestamp, rawBody), 'utf8');
  const given = Buffer.from(presented, 'utf8');
  const sameLength = given.length === expected.length;
  // Compared even when the lengths differ, so timing does not tell a short signature from a wrong one.
  return timingSafeEqual(sameLength ? given : expected, expected) && sameLength;
}

/** Whether the request timestamp (Unix seconds, digits only) is within SIGNATURE_MAX_AGE_SECONDS of now, either way. */
export function freshTimestamp(timestamp: string | undefined, nowSeconds = Math.floor(Date.now() / 1000)): timestamp is string {
  if (!timestamp || !/^\d{1,12}$/.test(timestamp)) return false;
  return Math.abs(nowSeconds - Number(timestamp)) <= SIGNATURE_MAX_AGE_SECONDS;
}
