import { hkdfSync, randomBytes } from 'node:crypto';

/**
 * Keys derived from SVC_SECRET_KEY, one per purpose, so that a cursor signature can never be
 * replayed as, say, an encryption key.
 */
export class SecretKeys {
  constructor(private readonly root: Buffer) {}

  static generateRoot(): string {
    return randomBytes(32).toString('base64url');
  }

  derive(purpose: 'cursor' | 'credentials' | 'oidc-state' | 'webhook' | 'connect-state'): Buffer {
    return Buffer.from(hkdfSync('sha256', this.root, Buffer.alloc(0), `svc:${purpose}`, 32));
  }
}
