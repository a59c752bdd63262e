/** How large one batch may be. */
export interface BatchLimits<T> {
  /** The most items one batch takes. */
  maxItems: number;
  /** An item's weight (its bytes) and the most one batch takes; an item heavier than that goes alone. */
  weight?: (item: T) => number;
  maxWeight?: number;
}

/** How many of `items`, from `from` on, one batch within `limits` takes (at least one, when any are left). */
export function batchLength<T>(items: readonly T[], limits: BatchLimits<T>, from = 0): number {
  const { maxItems, weight, maxWeight = Infinity } = limits;
  let count = 0;
  let total = 0;
  while (from + count < items.length && count < maxItems) {
    const w = weight ? weight(items[from + count]) : 0;
    if (count > 0 && total + w > maxWeight) break;
    total += w;
    count += 1;
  }
  return count;
}

/** `items` in order, cut into batches within `limits`. */
export function batchesOf<T>(items: readonly T[], limits: BatchLimits<T>): T[][] {
  const batches: T[][] = [];
  for (let at = 0; at < items.length;) {
    const length = batchLength(items, limits, at);
    batches.push(items.slice(at, at + length));
    at += length;
  }
  return batches;
}

export interface StatementBatcherOptions<T> extends BatchLimits<T> {
  /** The most statements running at once; items added meanwhile wait and go together in the next. */
  concurrency?: number;
  /**
   * How long items wait for more before their statement runs, in ms (default 0: the end of their
   * turn). For writes nobody waits on: fewer, larger statements. A full batch goes at once.
   */
  delayMs?: number;
}

interface Waiting<T, R> {
  item: T;
  resolve: (result: R) => void;
  reject: (error: unknown) => void;
}

/**
 * Turns many small statements into a few large ones, as a database's group commit does: items
 * added in the same turn of the event loop (or within `delayMs`), or while `concurrency`
 * statements are already running, go to the database together in one call of `run`, which
 * answers each item in order. The batch is as large as the load makes it: one item alone waits
 * for nothing but the end of its turn (or `delayMs`). When `run` fails, every item of its batch
 * fails with that error.
 */
export class StatementBatcher<T, R> {
  private readonly waiting: Waiting<T, R>[] = [];
  private running = 0;
  /** A turn (or a timer, with delayMs) is set to send what waits. */
  private scheduled?: { timer?: NodeJS.Timeout };
  /** Set by flush(): items no longer wait for delayMs. */
  private hurried = false;
  /** Called whenever a statement ends (flush() waits on it). */
  private readonly ended = new Set<() => void>();
  private readonly concurrency: number;

  constructor(
    private readonly run: (items: T[]) => Promise<R[]>,
    private readonly options: StatementBatcherOptions<T>,
  ) {
    this.concurrency = options.concurrency ?? 1;
  }

  add(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      this.schedule();
    });
  }

  /**
   * Sends what waits now and, from then on, every item at the end of its turn (for a shutdown);
   * resolves once nothing waits and no statement runs.
   */
  async flush(): Promise<void> {
    this.hurried = true;
    if (this.scheduled?.timer) {
      clearTimeout(this.scheduled.timer);
      this.scheduled = undefined;
    }
    this.send();
    while (this.running > 0 || this.waiting.length > 0) {
      await new Promise<void>((resolve) => this.ended.add(resolve));
    }
  }

  private schedule(): void {
    if (this.running >= this.concurrency || this.waiting.length === 0) return;
    const delayMs = this.hurried ? 0 : (this.options.delayMs ?? 0);
    if (delayMs > 0 && this.waiting.length >= this.options.maxItems) {
      // A full batch does not wait for the timer.
      clearTimeout(this.scheduled?.timer);
      this.scheduled = undefined;
      this.send();
      return;
    }
    if (this.scheduled) return;
    const scheduled: { timer?: NodeJS.Timeout } = {};
    this.scheduled = scheduled;
    const go = () => {
      if (this.scheduled !== scheduled) return;
      this.scheduled = undefined;
      this.send();
    };
    if (delayMs > 0) scheduled.timer = setTimeout(go, delayMs);
    else setImmediate(go);
  }

  private send(): void {
    while (this.running < this.concurrency && this.waiting.length > 0) {
      const batch = this.take();
      this.running += 1;
      void this.run(batch.map((w) => w.item))
        .then(
          (results) => {
            if (results.length !== batch.length) throw new Error(`a batch of ${batch.length} answered ${results.length} results`);
            batch.forEach((w, i) => w.resolve(results[i]));
          },
          (error: unknown) => {
            for (const w of batch) w.reject(error);
          },
        )
        .catch((error: unknown) => {
          for (const w of batch) w.reject(error);
        })
        .finally(() => {
          this.running -= 1;
          this.schedule();
          for (const resolve of this.ended) resolve();
          this.ended.clear();
        });
    }
  }

  private take(): Waiting<T, R>[] {
    const { maxItems, weight, maxWeight } = this.options;
    return this.waiting.splice(0, batchLength(this.waiting, { maxItems, maxWeight, weight: weight && ((w) => weight(w.item)) }));
  }
}
