import { Timestamp } from '@svc/platform';
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
  /** When they began to rise to it (the rise that ran into the maximum), the cause's time. */
  at: Timestamp;
  /** When they reached SATURATED_SHARE of it. */
  full: Timestamp;
  reached: number;
  what: string;
}

/** The rise that ran into the maximum began where the share was last this far from its usual level towards what it reached. */
const RISE_SHARE = 0.25;

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

/** Where the rise that ran into the maximum at `full` began: walked back from it while the share stayed above its usual level by RISE_SHARE of the way. */
function riseStart(s: SeriesOut, full: Timestamp): Timestamp {
  const points = pointsOf(s);
  const i = points.findIndex((p) => !p.t.isBefore(full));
  const usual = [...points.slice(0, Math.max(1, Math.floor(points.length / 4)))].map((p) => p.v).sort((a, b) => a - b);
  const level = usual[Math.floor(usual.length / 2)];
  const floor = level + RISE_SHARE * (points[i].v - level);
  let start = i;
  while (start > 0 && points[start - 1].v > floor) start -= 1;
  return points[start].t;
}

function described(run: RecordedRun, pick: { s: SeriesOut; at: Timestamp }, name: string): SaturatedConnections {
  const m = pick.s.metric;
  const what = m.pool ? `pool ${m.pool} of ${m.job ?? m.instance}` : `${m.server ?? m.instance ?? name}`;
  return { run, at: riseStart(pick.s, pick.at), full: pick.at, reached: Math.max(...pointsOf(pick.s).map((p) => p.v)), what };
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
  const at = saturated.full.toISOString();
  const rose = saturated.at.isBefore(saturated.full) ? ` (rising from ${saturated.at.toISOString()})` : '';
  const reached = `${saturated.what} reached ${round(saturated.reached * 100)}% of its connection limit at ${at}${rose}`;
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

/** A Job that started this long before the connections began to rise (or up to this after) may have opened them. */
const OPENER_BEFORE_MICROS = 5n * 60_000_000n;
const OPENER_AFTER_MICROS = 2n * 60_000_000n;

/**
 * What took the connections, when kube-state-metrics shows it: a Job (of a CronJob, or alone) that
 * started just before the connections began to rise and was still running. The connections are not
 * counted per client in the metrics, so that the Job's sessions are them is left unexplained: a
 * supported explanation, never verified. The cause unchanged when no such Job is found.
 */
export async function openedBy(ctx: ExplainerContext, cause: DetectedCause, saturated: SaturatedConnections, name: string): Promise<DetectedCause> {
  if (!ctx.canRead(1)) return cause;
  const run = await ctx.read(
    'max by (namespace, job_name) (kube_job_status_start_time) * on (namespace, job_name) group_left (owner_kind, owner_name) max by (namespace, job_name, owner_kind, owner_name) (kube_job_owner) and on (namespace, job_name) (kube_job_status_active > 0)',
    `Did a Job start just before the connections of ${name} began to rise?`,
  );
  const rising = saturated.at.epochMicros;
  const jobs = seriesOf(run)
    .map((s) => {
      const started = pointsOf(s).at(-1)?.v;
      return { s, started: started === undefined ? null : BigInt(Math.round(started * 1_000_000)) };
    })
    .filter(
      (x): x is { s: SeriesOut; started: bigint } =>
        x.started !== null && x.started >= rising - OPENER_BEFORE_MICROS && x.started <= rising + OPENER_AFTER_MICROS,
    )
    .sort((a, b) => Number(b.started - a.started));
  const job = jobs[0];
  if (!job) return { ...cause, chainRuns: [...cause.chainRuns, run.ordinal] };
  const m = job.s.metric;
  const owner = m.owner_kind && m.owner_kind !== '<none>' && m.owner_name ? `${m.owner_kind} ${m.owner_name}` : null;
  const who = `the Job ${m.job_name}${owner ? ` of ${owner}` : ''}${m.namespace ? ` in ${m.namespace}` : ''}`;
  const started = Timestamp.fromEpochMicros(job.started).toISOString();
  return {
    ...cause,
    statement: `${who.charAt(0).toUpperCase()}${who.slice(1)}, started at ${started}, took the connections of ${name} until they reached their maximum at ${saturated.full.toISOString()}, and caused the alert's condition`,
    mechanism: `${who} started at ${started}, as the connections of ${name} began to rise (${saturated.at.toISOString()}); ${cause.mechanism}`,
    chainRuns: [...cause.chainRuns, run.ordinal],
    unexplained: [
      `whether the sessions of ${who} are those connections (the metrics do not count connections per client)`,
      ...cause.unexplained.filter((u) => !u.startsWith('what took the connections')),
    ],
    action: {
      title: `Stop ${who} (or cap its connections), then free the connections of ${name}`,
      rationale: `It started as the connections of ${name} began to rise to their maximum`,
      verification: `Connections to ${name} fall below ${SATURATED_SHARE * 100}% of the limit and the alert resolves`,
    },
  };
}
