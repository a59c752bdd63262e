import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { describe, expect, it } from 'vitest';
import { BatchedCounter } from './batched-counter';

/** Redis' side of the count, answered only when the test says so: a flush in flight stays in flight. */
class HeldRedis {
  total = 0;
  readonly held: Array<() => void> = [];

  consume(_key: string, points: number): Promise<RateLimiterRes> {
    return new Promise((resolve) => {
      this.held.push(() => {
        this.total += points;
        resolve(new RateLimiterRes(Math.max(0, 12 - this.total), 60_000, this.total, false));
      });
    });
  }

  /** Answers every request sent so far. */
  answer(): void {
    for (const answer of this.held.splice(0)) answer();
  }
}

describe('BatchedCounter', () => {
  it('counts the uses of a flush still in flight: one process never admits past the limit', async () => {
    const redis = new HeldRedis();
    const counter = new BatchedCounter(redis as unknown as RateLimiterRedis, 12, 1);
    const first = counter.consume('session:a');
    redis.answer();
    expect(await first).toBeNull();
    const admitted: Array<number | null> = [];
    for (let i = 0; i < 11; i++) admitted.push(await counter.consume('session:a'));
    expect(admitted.every((a) => a === null)).toBe(true);
    // The flush sends the 11 uses and waits for Redis: they still count.
    const flushing = counter.flush();
    expect(redis.held).toHaveLength(1);
    expect(await counter.consume('session:a')).toBeGreaterThan(0);
    redis.answer();
    await flushing;
    expect(redis.total).toBe(12);
    expect(await counter.consume('session:a')).toBeGreaterThan(0);
    counter.close();
  });
});
