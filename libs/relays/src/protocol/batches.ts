import { batchesOf } from '@svc/platform';
import type { JobMessage, JobResultMessage } from './relay-protocol';

/** The most jobs, or results, one batch message carries. */
export const ITEMS_PER_BATCH = 100;
/**
 * The most answer bytes (or characters of a job's path and query) one batch message carries, well
 * under either side's 32 MiB message limit; one item larger than that goes alone.
 */
export const BYTES_PER_BATCH = 4 * 1024 * 1024;

/** Jobs as JobBatch messages' contents. */
export function jobBatches(jobs: JobMessage[]): JobMessage[][] {
  return batchesOf(jobs, {
    maxItems: ITEMS_PER_BATCH,
    maxWeight: BYTES_PER_BATCH,
    weight: (job) => job.path.length + job.query.reduce((sum, q) => sum + q.name.length + q.value.length, 0),
  });
}

/** Results as ResultBatch messages' contents. */
export function resultBatches(results: JobResultMessage[]): JobResultMessage[][] {
  return batchesOf(results, { maxItems: ITEMS_PER_BATCH, maxWeight: BYTES_PER_BATCH, weight: (result) => result.body?.length ?? 0 });
}
