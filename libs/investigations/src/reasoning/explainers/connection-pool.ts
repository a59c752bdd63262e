import { pointsOf, seriesOf } from '../series-reading';
import { SATURATED_SHARE } from './chain/connections-saturated';
import type { Explainer } from './explainer';
import { quote } from './labels';

/** Labels that name a pool, by convention: HikariCP's, OpenTelemetry's (older and newer), Go database/sql's database. */
const POOL_LABELS = ['pool', 'pool_name', 'db_client_connection_pool_name', 'db_name'];

/**
 * The share of its maximum that each of `job`'s connection pools has in use, in the common
 * conventions: HikariCP through Micrometer (`hikaricp_connections_active / _max`), OpenTelemetry's
 * database client metrics (`db_client_connections_usage{state="used"} / db_client_connections_max`,
 * and their newer names `db_client_connection_count` / `db_client_connection_max`, by `service_name`),
 * and Go's database/sql statistics (`go_sql_stats_connections_in_use / _max_open`).
 */
export function poolUsage(job: string): string {
  const j = quote(job);
  return [
    `max by (job, pool) (hikaricp_connections_active{job=${j}} / hikaricp_connections_max{job=${j}})`,
    `max by (service_name, pool_name) (db_client_connections_usage{service_name=${j}, state="used"} / ignoring(state) db_client_connections_max{service_name=${j}})`,
    `max by (service_name, db_client_connection_pool_name) (db_client_connection_count{service_name=${j}, db_client_connection_state="used"} / ignoring(db_client_connection_state) db_client_connection_max{service_name=${j}})`,
    `max by (job, db_name) (go_sql_stats_connections_in_use{job=${j}} / go_sql_stats_connections_max_open{job=${j}})`,
  ].join(' or ');
}

/** The alerting service's own connection pool at its maximum (HikariCP, OpenTelemetry, Go database/sql). */
export const connectionPoolExplainer: Explainer = {
  name: 'connection pool',
  reads: ['hikaricp_connections_active', 'db_client_connections_usage', 'db_client_connection_count', 'go_sql_stats_connections_in_use'],
  appliesTo: (scope) => !!scope.job,
  async explain(ctx) {
    const job = ctx.scope.job!;
    const run = await ctx.read(poolUsage(job), `Was the connection pool of ${job} exhausted?`);
    const ratio = seriesOf(run).find((s) => pointsOf(s).some((p) => p.v >= SATURATED_SHARE));
    const at = ratio ? (pointsOf(ratio).find((p) => p.v >= SATURATED_SHARE)?.t ?? null) : null;
    if (!ratio || !ctx.near(at) || pointsOf(ratio)[0].v >= SATURATED_SHARE) return null;
    const pool = POOL_LABELS.map((l) => ratio.metric[l]).find((v) => !!v) ?? 'its pool';
    return {
      id: 'h-pool',
      statement: `The connection pool ${pool} of ${job} was exhausted from ${at.toISOString()} and caused the alert's condition`,
      at,
      run,
      mechanism: `Connections in use of ${pool} reached ${SATURATED_SHARE * 100}% or more of its maximum at ${at.toISOString()}`,
      mechanismRuns: [run.ordinal],
      chainRuns: [],
      unexplained: [`what held the connections of ${pool} (slow queries or a leak are not in the metrics)`],
      action: {
        title: `Find what holds the connections of ${pool}, or enlarge it`,
        rationale: 'The pool was exhausted just before the condition began',
        verification: `The connections in use of ${pool} stay below its maximum and the alert resolves`,
      },
    };
  },
};
