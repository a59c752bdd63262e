import { createHash } from 'node:crypto';

/** The stored form of a webhook secret: its SHA-256 (the secret itself is shown once, at creation or rotation). */
export function hashWebhookSecret(secret: string): Buffer {
  return createHash('sha256').update(secret).digest();
}
