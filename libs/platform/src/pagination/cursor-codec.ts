import { Injectable } from '@nestjs/common';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { SecretKeys } from '../database/secret-keys';
import { InvalidInputError } from '../http/domain-error';

/** What a cursor is bound to: a cursor minted for one of these is refused by any other. */
export interface CursorBinding {
  /** The Organization (or, for per-user collections, `user:<id>`). */
  scope: string;
  /** The collection, e.g. `sessions` or `conversation:<id>/turns`. */
  collection: string;
  /** The ordering's name, including filters that shape the listing. */
  ordering: string;
}

type KeyValue = string | number | boolean | null;

/**
 * Opaque, tamper-proof cursors: base64url(JSON of the keyset position) + "." + HMAC-SHA256 over
 * the binding and the position. Only the position travels; the binding is recomputed from the
 * request, so a cursor replayed against another Organization, collection or ordering fails its MAC.
 */
@Injectable()
export class CursorCodec {
  private readonly key: Buffer;

  constructor(keys: SecretKeys) {
    this.key = keys.derive('cursor');
  }

  encode(binding: CursorBinding, position: KeyValue[]): string {
    const payload = Buffer.from(JSON.stringify(position)).toString('base64url');
    return `${payload}.${this.mac(binding, payload)}`;
  }

  decode(binding: CursorBinding, cursor: string): KeyValue[] {
    const invalid = () => new InvalidInputError('Invalid cursor: pass the `next` value of this listing unchanged');
    const dot = cursor.indexOf('.');
    if (dot <= 0 || cursor.length > 512) throw invalid();
    const payload = cursor.slice(0, dot);
    const given = Buffer.from(cursor.slice(dot + 1), 'base64url');
    const expected = Buffer.from(this.mac(binding, payload), 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid();
    try {
      const position = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as unknown;
      if (!Array.isArray(position)) throw invalid();
      return position as KeyValue[];
    } catch {
      throw invalid();
    }
  }

  private mac(binding: CursorBinding, payload: string): string {
    return createHmac('sha256', this.key)
      .update(JSON.stringify([binding.scope, binding.collection, binding.ordering, payload]))
      .digest('base64url');
  }
}
