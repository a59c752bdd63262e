import { describe, expect, it } from 'vitest';
import { Timestamp } from './timestamp';

describe('Timestamp', () => {
  it('serializes with six fractional digits in UTC', () => {
    expect(Timestamp.parse('2026-11-22T02:13:21.123456Z')!.toJSON()).toBe('2026-11-22T02:13:21.123456Z');
    expect(Timestamp.parse('2026-11-22T02:13:21Z')!.toJSON()).toBe('2026-11-22T02:13:21.000000Z');
    expect(JSON.stringify({ at: Timestamp.parse('2026-11-22T02:13:21.1Z') })).toBe('{"at":"2026-11-22T02:13:21.100000Z"}');
  });

  it('normalizes any RFC 3339 offset to UTC', () => {
    expect(Timestamp.parse('2026-11-22T03:13:21.5+01:00')!.toJSON()).toBe('2026-11-22T02:13:21.500000Z');
    expect(Timestamp.parse('2026-11-21T21:43:21.000001-04:30')!.toJSON()).toBe('2026-11-22T02:13:21.000001Z');
  });

  it('drops digits beyond microseconds', () => {
    expect(Timestamp.parse('2026-11-22T02:13:21.123456789Z')!.toJSON()).toBe('2026-11-22T02:13:21.123456Z');
  });

  it('rejects text that is not RFC 3339 or not a calendar date', () => {
    for (const bad of ['2026-11-22', '2026-11-22T02:13:21', 'yesterday', '2026-02-30T00:00:00Z', '2026-13-01T00:00:00Z', '2026-11-22T24:00:00Z']) {
      expect(Timestamp.parse(bad), bad).toBeNull();
    }
  });

  it('reads PostgreSQL output with hour, minute and second offsets', () => {
    expect(Timestamp.fromPostgres('2026-11-22 02:13:21.123456+00').toJSON()).toBe('2026-11-22T02:13:21.123456Z');
    expect(Timestamp.fromPostgres('2026-11-22 05:43:21+03:30').toJSON()).toBe('2026-11-22T02:13:21.000000Z');
    expect(Timestamp.fromPostgres('1969-12-31 23:59:59.999999+00').toJSON()).toBe('1969-12-31T23:59:59.999999Z');
  });

  it('keeps years before 100 as written', () => {
    expect(Timestamp.parse('0001-01-01T00:00:00Z')!.toJSON()).toBe('0001-01-01T00:00:00.000000Z');
    expect(Timestamp.fromPostgres('0099-12-31 23:59:59+00').toJSON()).toBe('0099-12-31T23:59:59.000000Z');
  });

  it('orders and offsets instants', () => {
    const a = Timestamp.parse('2026-11-22T02:13:21.000001Z')!;
    const b = a.plusSeconds(1.5);
    expect(b.toJSON()).toBe('2026-11-22T02:13:22.500001Z');
    expect(a.isBefore(b)).toBe(true);
    expect(b.isAfter(a)).toBe(true);
    expect(a.secondsUntil(b)).toBe(1.5);
  });
});
