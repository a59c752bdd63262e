import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

// How the webhook routes read a request: the secret or signature it presents, the headers
// recorded with it, its body as text.

/** Headers never recorded with a delivery: secrets, and signatures made with one. */
const CREDENTIAL_HEADERS = new Set([
  'authorization',
  'x-svc-token',
  'cookie',
  'proxy-authorization',
  'x-gitlab-token',
  'x-hub-signature',
  'x-hub-signature-256',
  'x-signature',
]);

/** The webhook secret the request presents: `X-Svc-Token`, else `Authorization: Bearer`. */
export function presentedSecret(req: IncomingMessage): string | undefined {
  const token = req.headers['x-svc-token'];
  if (typeof token === 'string' && token.length > 0) return token;
  return /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
}

/** A signature of the body made with the webhook secret: GitHub's `X-Hub-Signature-256`, Flux's `X-Signature` (both `sha256=<hex>`). */
export function presentedSignature(req: IncomingMessage): Buffer | undefined {
  for (const header of ['x-hub-signature-256', 'x-signature']) {
    const value = req.headers[header];
    const hex = typeof value === 'string' ? /^sha256=([0-9a-f]{64})$/i.exec(value.trim())?.[1] : undefined;
    if (hex) return Buffer.from(hex, 'hex');
  }
  return undefined;
}

/** Whether `signature` is the HMAC-SHA256 of `body` with `secret`, compared in constant time. */
export function signedWith(signature: Buffer, body: Buffer, secret: string): boolean {
  const expected = createHmac('sha256', secret).update(body).digest();
  return expected.length === signature.length && timingSafeEqual(expected, signature);
}

export function recordableHeaders(req: IncomingMessage): Record<string, string> {
  return Object.fromEntries(
    Object.entries(req.headers)
      .filter(([name]) => !CREDENTIAL_HEADERS.has(name))
      .map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : String(value)]),
  );
}

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * A body as text that PostgreSQL can store (NUL replaced by U+FFFD, invalid UTF-8 decoded with
 * replacement), and why it is refused when it is: not UTF-8, or a raw NUL (a control character
 * JSON never allows, inside a string or out). NUL written as the escape `\u0000` is JSON and is
 * left to the parser.
 */
export function readText(raw: Buffer): { recordable: string; problem?: string } {
  let text: string;
  try {
    text = STRICT_UTF8.decode(raw);
  } catch {
    return { recordable: raw.toString('utf8').replaceAll('\u0000', '\ufffd'), problem: 'Malformed body: not valid UTF-8' };
  }
  if (text.includes('\u0000')) return { recordable: text.replaceAll('\u0000', '\ufffd'), problem: 'Malformed JSON body: a raw NUL character' };
  return { recordable: text };
}
