import { createHash } from 'node:crypto';

/** The stored form of a webhook secret: its SHA-256 (the secret itself is shown once, at creation or rotation). */
export function hashWebhookSecret(secret: string): Buffer {
  return createHash('sha256').update(secret).digest();
}

/** What a sealed webhook secret is bound to (CredentialCipher's additional data): its integration, apart from its credentials. */
export function webhookSecretBinding(integrationId: string): string {
  return `${integrationId}:webhook-secret`;
}
