import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Response } from 'express';
import { InvalidInputError } from '@svc/platform';

/** `__Host-` prefix: the browser only accepts it Secure, on Path=/ and without Domain. */
export const OIDC_STATE_COOKIE = '__Host-svc_oidc';
/** How long a started sign-in may take at the provider. */
export const OIDC_STATE_TTL_SECONDS = 600;
export const RETURN_TO_MAX_LENGTH = 2048;

/** What the browser carries from /start to /callback, signed so that it cannot be altered. */
export interface OidcFlowState {
  state: string;
  nonce: string;
  codeVerifier: string;
  returnTo: string;
  /** Unix seconds after which the cookie is refused, whatever the browser kept. */
  expiresAt: number;
}

const B64URL = /^[A-Za-z0-9_-]+$/;

function mac(key: Buffer, payload: string): Buffer {
  return createHmac('sha256', key).update(`oidc-state.v1.${payload}`).digest();
}

/** `base64url(JSON).base64url(HMAC-SHA256)`, keyed with `SecretKeys.derive('oidc-state')`. */
export function encodeFlowState(key: Buffer, flow: OidcFlowState): string {
  const payload = Buffer.from(JSON.stringify(flow), 'utf8').toString('base64url');
  return `${payload}.${mac(key, payload).toString('base64url')}`;
}

/**
 * The flow state of a cookie value, or null when it is absent, malformed, not signed by this
 * deployment (constant-time comparison) or expired.
 */
export function decodeFlowState(key: Buffer, value: string | undefined, nowSeconds = Math.floor(Date.now() / 1000)): OidcFlowState | null {
  if (!value || value.length > 8192) return null;
  const [payload, signature, ...rest] = value.split('.');
  if (rest.length > 0 || !payload || !signature || !B64URL.test(payload) || !B64URL.test(signature)) return null;
  const expected = mac(key, payload);
  const presented = Buffer.from(signature, 'base64url');
  if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  const flow = parsed as Partial<OidcFlowState> | null;
  if (!flow || typeof flow !== 'object') return null;
  if (typeof flow.state !== 'string' || typeof flow.nonce !== 'string' || typeof flow.codeVerifier !== 'string') return null;
  if (typeof flow.returnTo !== 'string' || !isSafeReturnTo(flow.returnTo)) return null;
  if (typeof flow.expiresAt !== 'number' || flow.expiresAt <= nowSeconds) return null;
  return flow as OidcFlowState;
}

/** Equal strings, compared in constant time. */
export function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}

const PLACEHOLDER_ORIGIN = 'https://return-to.invalid';

/**
 * A same-origin relative path: starts with one `/` (not `//`), printable ASCII only (no spaces,
 * no control characters, which browsers strip and so could turn `/\t/x` into `//x`), no
 * backslash, at most 2048 characters, and still on the same origin once resolved.
 */
export function isSafeReturnTo(value: string): boolean {
  if (value.length === 0 || value.length > RETURN_TO_MAX_LENGTH) return false;
  if (!/^\/(?![/\\])[\x21-\x7E]*$/.test(value) || value.includes('\\')) return false;
  try {
    const resolved = new URL(value, PLACEHOLDER_ORIGIN);
    return resolved.origin === PLACEHOLDER_ORIGIN && !resolved.pathname.startsWith('//');
  } catch {
    return false;
  }
}

/** The start route's query: `returnTo` only, a safe relative path, `/` when absent. */
export function parseStartQuery(query: Record<string, unknown>): string {
  const unknown = Object.keys(query).filter((k) => k !== 'returnTo');
  if (unknown.length > 0) throw new InvalidInputError(`Unknown query parameter: ${unknown.slice(0, 5).join(', ')}`);
  const returnTo = query.returnTo;
  if (returnTo === undefined) return '/';
  if (typeof returnTo !== 'string' || !isSafeReturnTo(returnTo)) {
    throw new InvalidInputError(
      `Invalid input: returnTo must be a relative path on this site (starting with a single /, printable ASCII, no backslash, at most ${RETURN_TO_MAX_LENGTH} characters)`,
    );
  }
  return returnTo;
}

/** HttpOnly; Secure; Path=/; SameSite=Lax (sent on the provider's top-level redirect back); 10 minutes. */
export function setFlowStateCookie(res: Response, value: string): void {
  res.cookie(OIDC_STATE_COOKIE, value, {
    httpOnly: true,
    secure: true,
    sameSite: 'lax',
    path: '/',
    maxAge: OIDC_STATE_TTL_SECONDS * 1000,
  });
}

export function clearFlowStateCookie(res: Response): void {
  res.clearCookie(OIDC_STATE_COOKIE, { httpOnly: true, secure: true, sameSite: 'lax', path: '/' });
}
