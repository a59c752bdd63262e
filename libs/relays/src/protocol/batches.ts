import type { JobMessage, JobResultMessage } from './relay-protocol';

/** The most jobs, or results, one batch message carries. */
export const ITEMS_PER_BATCH = 100;
/**
 * The most answer bytes (or characters of a job's path and query) one batch message carries, well
 * under either side's 32 MiB message limit; one item larger than that goes alone.
 */
export const BYTES_PER_BATCH = 4 * 1024 * 1024;

/** The items in order, cut into batches of at most ITEMS_PER_BATCH and BYTES_PER_BATCH. */
function batches<T>(items: T[], bytes: (item: T) => number): T[][] {
  const cut: T[][] = [];
  let current: T[] = [];
  let size = 0;
  for (const item of items) {
    const weight = bytes(item);
    if (current.length > 0 && (current.length >= ITEMS_PER_BATCH || size + weight > BYTES_PER_BATCH)) {
      cut.push(current);
      current = [];
      size = 0;
    }
    current.push(item);
    size += weight;
  }
  if (current.length > 0) cut.push(current);
  return cut;
}

/** Jobs as JobBatch messages' contents. */
export function jobBatches(jobs: JobMessage[]): JobMessage[][] {
  return batches(jobs, (job) => job.path.length + job.query.reduce((sum, q) => sum + q.name.length + q.value.length, 0));
}

/** Results as ResultBatch messages' contents. */
export function resultBatches(results: JobResultMessage[]): JobResultMessage[][] {
  return batches(results, (result) => result.body?.length ?? 0);
}
