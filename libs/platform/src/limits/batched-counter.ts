import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';

/** A key's count as this process knows it: the shared total last read, what it admitted since, and when the window ends. */
interface KeyState {
  known: number;
  /** Admitted here, not yet sent to Redis. */
  pending: number;
  /** Admitted here and being added to Redis by the flush in flight (not in `known` until it answers). */
  flushing: number;
  endsAt: number;
}

/**
 * A per-key limit counted in Redis without a round trip per use: the first use of a key in a
 * window is counted in Redis (which says the shared total and when the window ends); later uses are
 * counted here and added to Redis in one command per key at most every `flushMs`, each flush
 * reading the shared total back. A use is refused when the shared total last read plus what this
 * process admitted since reaches the limit, so one process alone counts exactly, and several
 * processes together may admit at most what each admitted in one flush interval beyond it.
 */
export class BatchedCounter {
  private readonly keys = new Map<string, KeyState>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly limiter: RateLimiterRedis,
    private readonly points: number,
    private readonly flushMs = 50,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one use of `key`: null when admitted, else the seconds to wait. */
  async consume(key: string): Promise<number | null> {
    const at = this.now();
    const state = this.keys.get(key);
    if (state && state.endsAt > at) {
      if (state.known + state.flushing + state.pending >= this.points) return (state.endsAt - at) / 1000;
      state.pending += 1;
      this.schedule();
      return null;
    }
    // A new window for this key here: counted in Redis, which says where the shared count stands.
    try {
      const counted = await this.limiter.consume(key, 1);
      this.keys.set(key, { known: counted.consumedPoints, pending: 0, flushing: 0, endsAt: this.now() + counted.msBeforeNext });
      return null;
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      this.keys.set(key, { known: rejection.consumedPoints, pending: 0, flushing: 0, endsAt: this.now() + rejection.msBeforeNext });
      return rejection.msBeforeNext / 1000;
    }
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => void this.flush(), this.flushMs);
    this.timer.unref();
  }

  /** Adds what each key admitted here since the last flush to its shared count, and reads the total back. */
  async flush(): Promise<void> {
    this.timer = null;
    const at = this.now();
    const work: Promise<void>[] = [];
    for (const [key, state] of this.keys) {
      if (state.endsAt <= at && state.pending === 0) {
        this.keys.delete(key);
        continue;
      }
      if (state.pending === 0 || state.flushing > 0) continue;
      // Still counted while in flight: until Redis answers, `known` does not hold them.
      const points = state.pending;
      state.pending = 0;
      state.flushing = points;
      work.push(
        this.limiter
          .consume(key, points)
          .then(
            (counted) => ({ consumed: counted.consumedPoints, msBeforeNext: counted.msBeforeNext }),
            (rejection: unknown) => {
              if (rejection instanceof RateLimiterRes) return { consumed: rejection.consumedPoints, msBeforeNext: rejection.msBeforeNext };
              // Redis unreachable and no insurance: keep the uses to add next time.
              state.pending += points;
              return null;
            },
          )
          .then((result) => {
            state.flushing = 0;
            if (result) {
              state.known = result.consumed;
              state.endsAt = this.now() + result.msBeforeNext;
            }
            if (state.pending > 0) this.schedule();
          }),
      );
    }
    await Promise.all(work);
  }

  /** Stops the flush timer (what is pending is not written). */
  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
