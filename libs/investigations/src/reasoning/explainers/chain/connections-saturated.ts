import type { Timestamp } from '@svc/platform';
import type { RecordedRun } from '../../reasoner';
import { firstSampleAt, pointsOf, round, SeriesOut, seriesOf } from '../../series-reading';
import type { ExplainerContext } from '../context';
import type { DetectedCause } from '../explainer';
import { MarkedQuery, mentionedBy } from '../labels';

/** Connections at or above this share of the maximum saturate a database or pool. */
export const SATURATED_SHARE = 0.9;

/** Connections of a database or pool that reached their maximum near the onset: the run that read them, when, how far, and which. */
export interface SaturatedConnections {
  run: RecordedRun;
  at: Timestamp;
  reached: number;
  what: string;
}

/** Connections against the maximum: postgres_exporter's, mysqld_exporter's, and a client's own HikariCP pool's. */
const CONNECTIONS = [
  'sum by (job, instance, server) (pg_stat_activity_count) / on (job, instance, server) max by (job, instance, server) (pg_settings_max_connections)',
  'max by (job, instance) (mysql_global_status_threads_connected) / on (job, instance) max by (job, instance) (mysql_global_variables_max_connections)',
  'max by (job, instance, pool) (hikaricp_connections_active / hikaricp_connections_max)',
];

/** The databases' connection shares (postgres and mysqld exporters), marked, to be read in the same query as a service's calls by peer. */
export const DATABASE_CONNECTIONS = new MarkedQuery('datastore', 'connections', CONNECTIONS.slice(0, 2).join(' or '));

/** Of connection shares, those that reached SATURATED_SHARE near the onset and were under it when the read began. */
function saturatedOf(ctx: ExplainerContext, series: SeriesOut[]): Array<{ s: SeriesOut; at: Timestamp }> {
  return series
    .map((s) => ({ s, at: pointsOf(s).find((p) => p.v >= SATURATED_SHARE)?.t ?? null }))
    .filter((x): x is { s: SeriesOut; at: Timestamp } => ctx.near(x.at) && (firstSampleAt(x.s) ? pointsOf(x.s)[0].v < SATURATED_SHARE : false));
}

function described(run: RecordedRun, pick: { s: SeriesOut; at: Timestamp }, name: string): SaturatedConnections {
  const m = pick.s.metric;
  const what = m.pool ? `pool ${m.pool} of ${m.job ?? m.instance}` : `${m.server ?? m.instance ?? name}`;
  return { run, at: pick.at, reached: Math.max(...pointsOf(pick.s).map((p) => p.v)), what };
}

/**
 * Connections against the maximum (postgres_exporter's pg_stat_activity_count over
 * pg_settings_max_connections, mysqld_exporter's, a client's own HikariCP pool). The series that
 * names `name` (or the only one saturated) is the one meant.
 */
export async function connectionsSaturated(ctx: ExplainerContext, name: string, purpose: string): Promise<SaturatedConnections | null> {
  const run = await ctx.read(CONNECTIONS.join(' or '), purpose);
  const saturated = saturatedOf(ctx, seriesOf(run));
  const named = saturated.filter((x) => mentionedBy(x.s.metric, name));
  const pick = named[0] ?? (saturated.length === 1 ? saturated[0] : undefined);
  return pick ? described(run, pick, name) : null;
}

/**
 * The one database whose connections reached their maximum near the onset, among those read with
 * a service's calls by peer (`run`, see DATABASE_CONNECTIONS); null when none or several did.
 */
export function saturatedDatabase(ctx: ExplainerContext, run: RecordedRun): SaturatedConnections | null {
  const saturated = saturatedOf(
    ctx,
    seriesOf(run).filter((s) => DATABASE_CONNECTIONS.holds(s.metric)),
  );
  return saturated.length === 1 ? described(run, saturated[0], 'the database') : null;
}

/**
 * Connections of `name` that ran out as the cause: `then` says what followed (calls to it
 * failing), read by `runs` besides the connections' own; `chainRuns` are the runs read on the way.
 */
export function connectionsCause(
  saturated: SaturatedConnections,
  c: { name: string; then?: string; runs: number[]; chainRuns: number[]; unexplained: string[]; rationale: string },
): DetectedCause {
  const at = saturated.at.toISOString();
  const reached = `${saturated.what} reached ${round(saturated.reached * 100)}% of its connection limit at ${at}`;
  return {
    id: 'h-connections',
    statement: `The connections of ${c.name} reached their maximum${c.name === saturated.what ? '' : ` (${saturated.what})`} at ${at} and caused the alert's condition`,
    at: saturated.at,
    run: saturated.run,
    mechanism: c.then ? `${reached}; ${c.then}` : reached,
    mechanismRuns: [saturated.run.ordinal, ...c.runs],
    chainRuns: c.chainRuns,
    unexplained: [`what took the connections of ${c.name} (the clients holding them are not in the metrics)`, ...c.unexplained],
    action: {
      title: `Free connections on ${c.name} (end the sessions that hold them) or raise its limit`,
      rationale: c.rationale,
      verification: `Connections to ${c.name} fall below ${SATURATED_SHARE * 100}% of the limit and the alert resolves`,
    },
  };
}
