import { createHash, randomBytes } from 'node:crypto';

const BOOTSTRAP_PREFIX = 'rbt_';
const CREDENTIAL_PREFIX = 'rly_';
export const BOOTSTRAP_TOKEN_FORMAT = /^rbt_[A-Za-z0-9_-]{43}$/;
export const RELAY_CREDENTIAL_FORMAT = /^rly_[A-Za-z0-9_-]{43}$/;

export function mintBootstrapToken(): string {
  return `${BOOTSTRAP_PREFIX}${randomBytes(32).toString('base64url')}`;
}

export function mintRelayCredential(): string {
  return `${CREDENTIAL_PREFIX}${randomBytes(32).toString('base64url')}`;
}

/** What is stored of a bootstrap token or a registration credential. */
export function hashRelaySecret(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
