import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** How long an OAuth install may take at the provider. */
export const CONNECT_STATE_TTL_SECONDS = 600;

/** What the `state` of an OAuth install carries: who started it, where, for which type, until when. */
export interface ConnectState {
  organizationId: string;
  sessionId: string;
  type: string;
  nonce: string;
  /** Unix seconds after which the state is refused. */
  expiresAt: number;
}

const B64URL = /^[A-Za-z0-9_-]+$/;

function mac(key: Buffer, payload: string): Buffer {
  return createHmac('sha256', key).update(`connect-state.v1.${payload}`).digest();
}

/** `base64url(JSON).base64url(HMAC-SHA256)`, keyed with `SecretKeys.derive('connect-state')`. */
export function encodeConnectState(key: Buffer, state: Omit<ConnectState, 'nonce' | 'expiresAt'>, nowSeconds = Math.floor(Date.now() / 1000)): string {
  const full: ConnectState = { ...state, nonce: randomBytes(16).toString('base64url'), expiresAt: nowSeconds + CONNECT_STATE_TTL_SECONDS };
  const payload = Buffer.from(JSON.stringify(full), 'utf8').toString('base64url');
  return `${payload}.${mac(key, payload).toString('base64url')}`;
}

/** The state, or null when it is absent, malformed, not signed by this deployment (constant-time comparison) or expired. */
export function decodeConnectState(key: Buffer, value: unknown, nowSeconds = Math.floor(Date.now() / 1000)): ConnectState | null {
  if (typeof value !== 'string' || value.length > 2048) return null;
  const [payload, signature, ...rest] = value.split('.');
  if (rest.length > 0 || !payload || !signature || !B64URL.test(payload) || !B64URL.test(signature)) return null;
  const expected = mac(key, payload);
  const presented = Buffer.from(signature, 'base64url');
  if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) return null;
  let parsed: Partial<ConnectState> | null;
  try {
    parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Partial<ConnectState> | null;
  } catch {
    return null;
  }
  if (!parsed || typeof parsed !== 'object') return null;
  const { organizationId, sessionId, type, nonce, expiresAt } = parsed;
  if (typeof organizationId !== 'string' || typeof sessionId !== 'string' || typeof type !== 'string' || typeof nonce !== 'string') return null;
  if (typeof expiresAt !== 'number' || expiresAt <= nowSeconds) return null;
  return { organizationId, sessionId, type, nonce, expiresAt };
}
