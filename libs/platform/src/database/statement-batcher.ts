export interface StatementBatcherOptions<T> {
  /** The most items one statement takes. */
  maxItems: number;
  /** The most statements running at once; items added meanwhile wait and go together in the next. */
  concurrency?: number;
  /** An item's weight (its bytes) and the most one statement takes; an item heavier than that goes alone. */
  weight?: (item: T) => number;
  maxWeight?: number;
}

interface Waiting<T, R> {
  item: T;
  resolve: (result: R) => void;
  reject: (error: unknown) => void;
}

/**
 * Turns many small statements into a few large ones, as a database's group commit does: items
 * added in the same turn of the event loop, or while `concurrency` statements are already running,
 * go to the database together in one call of `run`, which answers each item in order. The batch
 * is as large as the load makes it: one item alone waits for nothing but the end of its turn.
 * When `run` fails, every item of its batch fails with that error.
 */
export class StatementBatcher<T, R> {
  private readonly waiting: Waiting<T, R>[] = [];
  private running = 0;
  private scheduled = false;
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

  private schedule(): void {
    if (this.scheduled || this.running >= this.concurrency || this.waiting.length === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.flush();
    });
  }

  private flush(): void {
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
        });
    }
  }

  private take(): Waiting<T, R>[] {
    const { maxItems, weight, maxWeight = Infinity } = this.options;
    let count = 0;
    let total = 0;
    while (count < this.waiting.length && count < maxItems) {
      const w = weight ? weight(this.waiting[count].item) : 0;
      if (count > 0 && total + w > maxWeight) break;
      total += w;
      count += 1;
    }
    return this.waiting.splice(0, count);
  }
}
