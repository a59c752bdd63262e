import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { fingerprintOf } from './fingerprint';

describe('fingerprintOf', () => {
  it('is the full SHA-256 hex of the JSON of the [name, value] pairs sorted by name', () => {
    const fingerprint = fingerprintOf({ service: 'checkout', alertname: 'HighErrorRate' });
    expect(fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(fingerprint).toBe(createHash('sha256').update('[["alertname","HighErrorRate"],["service","checkout"]]').digest('hex'));
    // Pinned: stored fingerprints must keep matching across releases.
    expect(fingerprint).toBe('34750bb4c1106563700b8dff3acccaf59cb980314d38693dac8d49ee4f1ce4de');
  });

  it('does not depend on the order the labels were written in', () => {
    const a = fingerprintOf({ alertname: 'DiskFull', host: 'db-3', service: 'billing', severity: 'critical' });
    const b = fingerprintOf({ severity: 'critical', service: 'billing', host: 'db-3', alertname: 'DiskFull' });
    expect(a).toBe(b);
    expect(fingerprintOf(JSON.parse('{"b":"2","a":"1"}') as Record<string, string>)).toBe(fingerprintOf({ a: '1', b: '2' }));
  });

  it('differs when a label name, a value or the set of labels differs', () => {
    const base = fingerprintOf({ alertname: 'DiskFull', host: 'db-3' });
    expect(fingerprintOf({ alertname: 'DiskFull', host: 'db-4' })).not.toBe(base);
    expect(fingerprintOf({ alertname: 'DiskFull', hostname: 'db-3' })).not.toBe(base);
    expect(fingerprintOf({ alertname: 'DiskFull' })).not.toBe(base);
    expect(fingerprintOf({ alertname: 'DiskFull', host: 'db-3', env: '' })).not.toBe(base);
    expect(fingerprintOf({ alertname: 'diskfull', host: 'db-3' })).not.toBe(base);
  });

  it('is unambiguous where naive concatenation would collide', () => {
    expect(fingerprintOf({ a: 'b,c' })).not.toBe(fingerprintOf({ a: 'b', c: '' }));
    expect(fingerprintOf({ ab: 'c' })).not.toBe(fingerprintOf({ a: 'bc' }));
    expect(fingerprintOf({ a: 'b=c' })).not.toBe(fingerprintOf({ 'a=b': 'c' }));
    expect(fingerprintOf({ a: '"],["b' })).not.toBe(fingerprintOf({ a: '', b: '' }));
  });

  it('handles non-ASCII text and does not modify its input', () => {
    const labels = { zone: 'zürich-1', alertname: '磁盘已满 💾' };
    const copy = { ...labels };
    expect(fingerprintOf(labels)).toMatch(/^[0-9a-f]{64}$/);
    expect(fingerprintOf(labels)).toBe(fingerprintOf({ alertname: '磁盘已满 💾', zone: 'zürich-1' }));
    expect(labels).toEqual(copy);
    expect(Object.keys(labels)).toEqual(['zone', 'alertname']);
  });
});
