import { afterEach, describe, expect, it, vi } from 'vitest';
import { StatementBatcher } from './statement-batcher';

/** A batcher whose statements finish when the test says, recording the batches it was given. */
function controlled(options: ConstructorParameters<typeof StatementBatcher<string, string>>[1]) {
  const batches: string[][] = [];
  const finishers: ((error?: Error) => void)[] = [];
  const batcher = new StatementBatcher<string, string>(
    (items) =>
      new Promise((resolve, reject) => {
        batches.push(items);
        finishers.push((error) => (error ? reject(error) : resolve(items.map((i) => i.toUpperCase()))));
      }),
    options,
  );
  /** Lets the batcher's scheduled turn run (a statement that just ended schedules the next one). */
  const settle = async () => {
    for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
  };
  return { batcher, batches, finishers, settle };
}

describe('StatementBatcher', () => {
  it('sends the items of one turn together, and those added while it runs together in the next, each answered in order', async () => {
    const { batcher, batches, finishers, settle } = controlled({ maxItems: 10 });
    const first = ['a', 'b', 'c'].map((i) => batcher.add(i));
    await settle();
    expect(batches).toEqual([['a', 'b', 'c']]);
    const second = ['d', 'e'].map((i) => batcher.add(i));
    await settle();
    // One statement at a time: d and e wait for it.
    expect(batches).toHaveLength(1);
    finishers[0]();
    expect(await Promise.all(first)).toEqual(['A', 'B', 'C']);
    await settle();
    expect(batches[1]).toEqual(['d', 'e']);
    finishers[1]();
    expect(await Promise.all(second)).toEqual(['D', 'E']);
  });

  it('keeps each statement within its item count and weight; an item heavier than the weight goes alone', async () => {
    const { batcher, batches, finishers, settle } = controlled({ maxItems: 2, maxWeight: 5, weight: (i) => i.length, concurrency: 10 });
    const answers = ['a', 'b', 'c', 'dddddddd', 'ee', 'fff'].map((i) => batcher.add(i));
    await settle();
    expect(batches).toEqual([['a', 'b'], ['c'], ['dddddddd'], ['ee', 'fff']]);
    for (const finish of finishers) finish();
    expect(await Promise.all(answers)).toEqual(['A', 'B', 'C', 'DDDDDDDD', 'EE', 'FFF']);
  });

  it('fails every item of a statement that fails, and goes on with the next', async () => {
    const { batcher, finishers, settle } = controlled({ maxItems: 10 });
    const failed = ['a', 'b'].map((i) => batcher.add(i).catch((error: Error) => error.message));
    await settle();
    finishers[0](new Error('deadlock detected'));
    expect(await Promise.all(failed)).toEqual(['deadlock detected', 'deadlock detected']);
    const later = batcher.add('c');
    await settle();
    finishers[1]();
    expect(await later).toBe('C');
  });

  describe('with delayMs', () => {
    afterEach(() => vi.useRealTimers());

    it('holds items of several turns for one statement until the delay ends; a full batch goes at once', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      const { batcher, batches, finishers, settle } = controlled({ maxItems: 3, delayMs: 50 });
      const first = batcher.add('a');
      await settle();
      const second = batcher.add('b');
      await settle();
      expect(batches).toEqual([]);
      vi.advanceTimersByTime(50);
      await settle();
      expect(batches).toEqual([['a', 'b']]);
      finishers[0]();
      expect(await Promise.all([first, second])).toEqual(['A', 'B']);
      // Three items fill a statement: they go without waiting for the delay.
      const full = ['c', 'd', 'e'].map((i) => batcher.add(i));
      await settle();
      expect(batches[1]).toEqual(['c', 'd', 'e']);
      finishers[1]();
      expect(await Promise.all(full)).toEqual(['C', 'D', 'E']);
    });

    it('flush() sends what waits at once, then every item at the end of its turn, and resolves when all are written', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      const { batcher, batches, finishers, settle } = controlled({ maxItems: 10, delayMs: 60_000 });
      const waiting = batcher.add('a');
      await settle();
      expect(batches).toEqual([]);
      let flushed = false;
      const flushing = batcher.flush().then(() => (flushed = true));
      await settle();
      expect(batches).toEqual([['a']]);
      expect(flushed).toBe(false);
      const later = batcher.add('b');
      finishers[0]();
      await settle();
      // b went at the end of its turn, not after the minute.
      expect(batches[1]).toEqual(['b']);
      expect(flushed).toBe(false);
      finishers[1]();
      await flushing;
      expect(await Promise.all([waiting, later])).toEqual(['A', 'B']);
    });
  });
});
