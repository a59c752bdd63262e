import { pointsOf, seriesOf } from '../series-reading';
import { SATURATED_SHARE } from './chain/connections-saturated';
import type { Explainer } from './explainer';
import { quote } from './labels';

/** The alerting service's own connection pool (HikariCP) at its maximum. */
export const connectionPoolExplainer: Explainer = {
  name: 'connection pool',
  appliesTo: (scope) => !!scope.job,
  async explain(ctx) {
    const job = ctx.scope.job!;
    const run = await ctx.read(
      `max by (job, pool) (hikaricp_connections_active{job=${quote(job)}} / hikaricp_connections_max{job=${quote(job)}})`,
      `Was the connection pool of ${job} exhausted?`,
    );
    const ratio = seriesOf(run).find((s) => pointsOf(s).some((p) => p.v >= SATURATED_SHARE));
    const at = ratio ? (pointsOf(ratio).find((p) => p.v >= SATURATED_SHARE)?.t ?? null) : null;
    if (!ratio || !ctx.near(at) || pointsOf(ratio)[0].v >= SATURATED_SHARE) return null;
    const pool = ratio.metric.pool ?? 'its pool';
    return {
      id: 'h-pool',
      statement: `The connection pool ${pool} of ${job} was exhausted from ${at.toISOString()} and caused the alert's condition`,
      at,
      run,
      mechanism: `Active connections of ${pool} reached ${SATURATED_SHARE * 100}% or more of its maximum at ${at.toISOString()}`,
      mechanismRuns: [run.ordinal],
      chainRuns: [],
      unexplained: [`what held the connections of ${pool} (slow queries or a leak are not in the metrics)`],
      action: {
        title: `Find what holds the connections of ${pool}, or enlarge it`,
        rationale: 'The pool was exhausted just before the condition began',
        verification: `hikaricp_connections_active of ${pool} stays below its maximum and the alert resolves`,
      },
    };
  },
};
