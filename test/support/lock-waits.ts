import { DataSource } from 'typeorm';
import { until } from './until';

/**
 * Waits until a statement of the test's database waits for a lock: one whose text matches
 * `statementLike` (ILIKE), any statement when none is given. Asked on a connection of its own, not
 * the lock holder's, whose transaction would keep seeing one snapshot of pg_stat_activity.
 */
export async function untilWaitingForLock(
  dataSource: DataSource,
  statementLike = '%',
  timeoutMs?: number,
  what = 'a statement waiting for a lock',
): Promise<void> {
  await until(
    async () =>
      (
        (await dataSource.query(`SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query ILIKE $1`, [
          statementLike,
        ])) as unknown[]
      ).length > 0,
    timeoutMs,
    what,
  );
}
