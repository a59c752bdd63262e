import { Injectable } from '@nestjs/common';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { SecretKeys } from './secret-keys';

const VERSION = 1;

/**
 * Encrypts stored credentials with AES-256-GCM under a key derived from SVC_SECRET_KEY.
 * Layout: version (1 byte) | IV (12) | tag (16) | ciphertext. The record's id is bound as
 * associated data, so a ciphertext copied onto another record does not decrypt.
 */
@Injectable()
export class CredentialCipher {
  private readonly key: Buffer;

  constructor(keys: SecretKeys) {
    this.key = keys.derive('credentials');
  }

  encrypt(plaintext: unknown, boundTo: string): Buffer {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(boundTo));
    const body = Buffer.concat([cipher.update(JSON.stringify(plaintext), 'utf8'), cipher.final()]);
    return Buffer.concat([Buffer.from([VERSION]), iv, cipher.getAuthTag(), body]);
  }

  decrypt<T>(sealed: Buffer, boundTo: string): T {
    if (sealed[0] !== VERSION) throw new Error('Unknown credential encryption version');
    const decipher = createDecipheriv('aes-256-gcm', this.key, sealed.subarray(1, 13));
    decipher.setAAD(Buffer.from(boundTo));
    decipher.setAuthTag(sealed.subarray(13, 29));
    return JSON.parse(Buffer.concat([decipher.update(sealed.subarray(29)), decipher.final()]).toString('utf8')) as T;
  }
}
