import { EntityManager } from 'typeorm';

/** Ends the investigation's runs still marked running as failed with `error` (cancelled, interrupted, stopped). */
export async function failRunningRuns(manager: EntityManager, organizationId: string, investigationId: string, error: string): Promise<void> {
  await manager.query(
    `UPDATE tool_runs SET outcome = 'failed', error = $3, finished_at = clock_timestamp()
      WHERE organization_id = $1 AND investigation_id = $2 AND outcome = 'running'`,
    [organizationId, investigationId, error],
  );
}
