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

  it('shares one read among the callers that ask while it runs, and keeps what it read', async () => {
    const reads = new RecentReads<string>(new TestClock(), 500);
    let loads = 0;
    let finish: (value: string) => void = () => undefined;
    const load = () => {
      loads += 1;
      return new Promise<string>((resolve) => (finish = resolve));
    };
    const asked = [reads.through('k', load), reads.through('k', load), reads.through('k', load)];
    finish('v');
    expect(await Promise.all(asked)).toEqual(['v', 'v', 'v']);
    expect(await reads.through('k', load)).toBe('v');
    expect(loads).toBe(1);
  });

  it('does not keep a read that a forget overtook, and starts a new read for callers after the forget', async () => {
    const reads = new RecentReads<string>(new TestClock(), 500);
    const finishers: ((value: string) => void)[] = [];
    const load = () => new Promise<string>((resolve) => finishers.push(resolve));
    const before = reads.through('k', load);
    reads.forget(() => true);
    const after = reads.through('k', load);
    expect(finishers).toHaveLength(2);
    finishers[0]('old');
    finishers[1]('new');
    expect(await before).toBe('old');
    expect(await after).toBe('new');
    expect(reads.get('k')).toBe('new');
  });

  it('answers but does not keep what `keep` refuses, and lets a failed read fail every caller', async () => {
    const reads = new RecentReads<string | null>(new TestClock(), 500);
    expect(
      await reads.through(
        'gone',
        () => Promise.resolve(null),
        (v) => v !== null,
      ),
    ).toBeNull();
    expect(reads.get('gone')).toBeUndefined();
    const failing = () => Promise.reject(new Error('no database'));
    await expect(Promise.all([reads.through('k', failing), reads.through('k', failing)])).rejects.toThrow('no database');
    expect(await reads.through('k', () => Promise.resolve('back'))).toBe('back');
  });
});
