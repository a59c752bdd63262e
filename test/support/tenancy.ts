import { DataSource } from 'typeorm';

/** Every row of an Organization in the given tables, as JSON, in a stable order: what a test compares before and after. */
export async function organizationRows(dataSource: DataSource, organizationId: string, tables: string[]): Promise<Record<string, unknown[]>> {
  const result: Record<string, unknown[]> = {};
  for (const table of tables) {
    const rows = (await dataSource.query(`SELECT to_jsonb(t) AS row FROM ${table} t WHERE organization_id = $1 ORDER BY to_jsonb(t)::text`, [
      organizationId,
    ])) as { row: unknown }[];
    result[table] = rows.map((r) => r.row);
  }
  return result;
}

/**
 * Whether another connection can lock the Organization's rows of a table at once: false while a
 * transaction holds a lock on any of them.
 */
export async function lockable(dataSource: DataSource, table: string, organizationId: string): Promise<boolean> {
  try {
    await dataSource.transaction(async (manager) => {
      await manager.query(`SELECT 1 FROM ${table} WHERE organization_id = $1 FOR UPDATE NOWAIT`, [organizationId]);
    });
    return true;
  } catch (error) {
    if (/could not obtain lock/.test((error as Error).message)) return false;
    throw error;
  }
}
