import type { Clock } from '../time/clock';

/**
 * Values read from the database in this process, each served for at most `maxAgeMs` after it was
 * read. The bound is the whole contract: a change made anywhere (another process, another path)
 * is seen here within `maxAgeMs`, with no notification needed. `forget` makes a change made in
 * this process visible here at once. Past `maxEntries` it starts over. Ages are measured on the
 * process's `Clock`.
 */
export class RecentReads<V> {
  private readonly entries = new Map<string, { value: V; readAt: number }>();

  constructor(
    private readonly clock: Clock,
    private readonly maxAgeMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  /** The instant to hand to `set`: taken before the read is sent, so the age counts the read itself. */
  readStartsAt(): number {
    return this.clock.monotonicMs();
  }

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (this.clock.monotonicMs() - entry.readAt < this.maxAgeMs) return entry.value;
    this.entries.delete(key);
    return undefined;
  }

  /** Remembers a value read at `readAt` (`readStartsAt()` taken before the read was sent). */
  set(key: string, value: V, readAt: number): void {
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(key, { value, readAt });
  }

  forget(predicate: (value: V) => boolean): void {
    for (const [key, entry] of this.entries) if (predicate(entry.value)) this.entries.delete(key);
  }
}
