import { describe, expect, it } from 'vitest';
import { Timestamp } from '@svc/platform';
import { clock, quantity, significant } from './format';

describe('numbers and times as people write them', () => {
  it('keeps three significant digits, without exponents or float noise', () => {
    expect(significant(41.23456)).toBe('41.2');
    expect(significant(0.012345)).toBe('0.0123');
    expect(significant(1234.5)).toBe('1230');
    expect(significant(0.1 + 0.2)).toBe('0.3');
    expect(significant(0)).toBe('0');
  });

  it('names the unit', () => {
    expect(quantity(41.23, 'rps')).toBe('41.2 req/s');
    expect(quantity(0.0342, 'ratio')).toBe('3.42%');
    expect(quantity(0.4123, 'seconds')).toBe('412 ms');
    expect(quantity(1.234, 'seconds')).toBe('1.23 s');
    expect(quantity(0.25, 'cores')).toBe('0.25 cores');
    expect(quantity(512 * 1024 * 1024, 'bytes')).toBe('512 MiB');
  });

  it('writes times in UTC to the minute with the zone named, the date when it differs', () => {
    const t = Timestamp.parse('2026-11-26T05:00:57.000000Z')!;
    expect(clock(t)).toBe('2026-11-26 05:00 UTC');
    expect(clock(t, Timestamp.parse('2026-11-26T04:00:00Z')!)).toBe('05:00 UTC');
  });
});
