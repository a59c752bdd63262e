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
  /** Reads running through `through`, by key: callers asking meanwhile share them. */
  private readonly reading = new Map<string, Promise<V>>();
  /** Moves on every `forget`: a read that began before one is not kept (it may hold what was forgotten). */
  private generation = 0;

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
    this.generation += 1;
    // A read running now may hold what is forgotten: later callers start their own.
    this.reading.clear();
    for (const [key, entry] of this.entries) if (predicate(entry.value)) this.entries.delete(key);
  }

  /**
   * The remembered value of `key`, or the one `load` reads, kept when `keep` says so. Callers
   * asking for a key while its read runs share that read: when a remembered value runs out under
   * load, the database sees one read, not one per waiting request. A read that a `forget` overtook
   * is answered but not kept.
   */
  through(key: string, load: () => Promise<V>, keep: (value: V) => boolean = () => true): Promise<V> {
    const remembered = this.get(key);
    if (remembered !== undefined) return Promise.resolve(remembered);
    const running = this.reading.get(key);
    if (running) return running;
    const readAt = this.readStartsAt();
    const generation = this.generation;
    const read = load()
      .then((value) => {
        if (generation === this.generation && keep(value)) this.set(key, value, readAt);
        return value;
      })
      .finally(() => this.reading.delete(key));
    this.reading.set(key, read);
    return read;
  }
}
