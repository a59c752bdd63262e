import { createHash } from 'node:crypto';

/**
 * The fallback fingerprint of an alert whose payload carries none: the SHA-256 (64 lowercase hex
 * characters) of the JSON array of its `[name, value]` label pairs sorted by name (UTF-16 code
 * unit order). JSON quoting makes the serialization unambiguous (`{a: "b,c"}` and `{a: "b", c: ""}`
 * cannot collide), and sorting makes it independent of the order the sender wrote the labels in.
 *
 * Fingerprints are stored and compared across deliveries: this serialization must never change.
 */
export function fingerprintOf(labels: Readonly<Record<string, string>>): string {
  const pairs = Object.keys(labels)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((name) => [name, labels[name]]);
  return createHash('sha256').update(JSON.stringify(pairs), 'utf8').digest('hex');
}
