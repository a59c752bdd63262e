/**
 * Values read from the database in this process, each served for at most `maxAgeMs` after it was
 * read. The bound is the whole contract: a change made anywhere (another process, another path)
 * is seen here within `maxAgeMs`, with no notification needed. `forget` makes a change made in
 * this process visible here at once. Past `maxEntries` it starts over.
 */
export class RecentReads<V> {
  private readonly entries = new Map<string, { value: V; readAt: number }>();

  constructor(
    private readonly maxAgeMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (performance.now() - entry.readAt < this.maxAgeMs) return entry.value;
    this.entries.delete(key);
    return undefined;
  }

  /** Remembers a value read at `readAt` (performance.now() taken before the read was sent). */
  set(key: string, value: V, readAt: number): void {
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(key, { value, readAt });
  }

  forget(predicate: (value: V) => boolean): void {
    for (const [key, entry] of this.entries) if (predicate(entry.value)) this.entries.delete(key);
  }
}
