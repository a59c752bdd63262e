import { describe, expect, it } from 'vitest';
import { TestClock } from '../../../../test/support/clock';
import { RecentReads } from './recent-reads';

describe('RecentReads', () => {
  it('serves a value until its clock has moved by the bound since the read began, then not', () => {
    const clock = new TestClock();
    const reads = new RecentReads<string>(clock, 500);
    const readAt = reads.readStartsAt();
    clock.advance(200);
    reads.set('k', 'v', readAt);
    clock.advance(299);
    expect(reads.get('k')).toBe('v');
    clock.advance(1);
    expect(reads.get('k')).toBeUndefined();
  });

  it('forgets what the predicate names, at once', () => {
    const clock = new TestClock();
    const reads = new RecentReads<{ id: string }>(clock, 500);
    reads.set('a', { id: 'a' }, reads.readStartsAt());
    reads.set('b', { id: 'b' }, reads.readStartsAt());
    reads.forget((v) => v.id === 'a');
    expect(reads.get('a')).toBeUndefined();
    expect(reads.get('b')).toEqual({ id: 'b' });
  });
});
