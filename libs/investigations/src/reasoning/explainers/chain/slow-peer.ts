import { jumpOf, round, SeriesOut, seriesOf } from '../../series-reading';
import type { RecordedRun } from '../../reasoner';
import type { ExplainerContext } from '../context';
import type { DetectedCause } from '../explainer';
import { CLIENT_HISTOGRAMS, MarkedQuery, PEER_LABELS, peerOf, quote } from '../labels';

/** A peer's p99 at this many times its usual level is a slowdown. */
const PEER_SLOWDOWN = 3;

/** Redis' mean time per command (redis_exporter), by server, marked, to be read in the same query as a service's calls by peer. */
const DATASTORE_LATENCY = new MarkedQuery(
  'datastore',
  'latency',
  'sum by (instance, addr) (rate(redis_commands_duration_seconds_total[1m])) / sum by (instance, addr) (rate(redis_commands_total[1m]))',
);

/** A datastore's name as its exporter labels it: the address it watches, else its instance. */
const datastoreOf = (metric: Record<string, string>): string | undefined => metric.addr ?? metric.instance;

/** A datastore that answered slowly, seen from its own exporter only: the service's calls to it are not in the metrics. */
function slowDatastore(job: string, slow: { peer: string; jump: NonNullable<ReturnType<typeof jumpOf>> }, run: RecordedRun): DetectedCause {
  const at = slow.jump.at.toISOString();
  return {
    id: 'h-slow-dependency',
    peer: slow.peer,
    slowdown: slow.jump.reached / Math.max(slow.jump.usual, 1e-9),
    statement: `${slow.peer} answered slowly from ${at} and caused the alert's condition`,
    at: slow.jump.at,
    run,
    mechanism: `${slow.peer}'s mean time per command rose from ${round(slow.jump.usual)} s to ${round(slow.jump.reached)} s at ${at}`,
    mechanismRuns: [run.ordinal],
    chainRuns: [],
    unexplained: [
      `why ${slow.peer} answered slowly (its own saturation is not in the metrics)`,
      `whether ${job} waits on ${slow.peer} (its calls by peer are not in the metrics)`,
    ],
    action: {
      title: `Find why ${slow.peer} slowed down (slow commands, memory, CPU), or shed or time out calls to it`,
      rationale: `${slow.peer} slowed just before the condition began`,
      verification: `The time per command of ${slow.peer} returns to about ${round(slow.jump.usual)} s and the alert resolves`,
    },
  };
}

/**
 * A peer that answers slowly: client-side p99 by peer jumped near the onset. When the peer is a
 * service with client metrics of its own, its own slow peer is asked about in turn (a chain of
 * calls), up to two hops.
 */
export async function slowPeer(ctx: ExplainerContext, job: string, hop: number, chain: string[] = []): Promise<DetectedCause | null> {
  const p99 = (selector: string): string =>
    `histogram_quantile(0.99, sum by (le, ${PEER_LABELS.join(', ')}) (rate({__name__=~"${CLIENT_HISTOGRAMS}", ${selector}}[1m])))`;
  const run = await ctx.read(
    // OpenTelemetry names the service by service_name (its job is "<namespace>/<name>"); the
    // alerting service's datastores by their own exporters, in case its calls are not in the metrics.
    [p99(`job=${quote(job)}`), p99(`service_name=${quote(job)}`), ...(chain.length === 0 ? [DATASTORE_LATENCY.query] : [])].join(' or '),
    `Did a dependency of ${job} begin to answer slowly near the onset?`,
  );
  const jumps = seriesOf(run)
    .map((s) => ({ s, peer: DATASTORE_LATENCY.holds(s.metric) ? datastoreOf(s.metric) : peerOf(s.metric), jump: jumpOf(s, PEER_SLOWDOWN, 0.005) }))
    .filter((x): x is { s: SeriesOut; peer: string; jump: NonNullable<ReturnType<typeof jumpOf>> } => !!x.peer && !!x.jump && ctx.near(x.jump.at))
    .sort((a, b) => b.jump.reached / Math.max(b.jump.usual, 1e-9) - a.jump.reached / Math.max(a.jump.usual, 1e-9));
  const called = jumps.filter((x) => !DATASTORE_LATENCY.holds(x.s.metric));
  // A datastore's own latency stands in only when the service shows no calls by peer, and one datastore slowed.
  const calls = seriesOf(run).some((s) => !DATASTORE_LATENCY.holds(s.metric));
  const datastores = jumps.filter((x) => DATASTORE_LATENCY.holds(x.s.metric));
  if (!called.length && !calls && datastores.length === 1) return slowDatastore(job, datastores[0], run);
  const slow = called[0];
  if (!slow) return null;
  const step = `${job}'s calls to ${slow.peer} slowed at ${slow.jump.at.toISOString()} (p99 ${round(slow.jump.usual)} s to ${round(slow.jump.reached)} s)`;
  const path = [...chain, step];
  if (hop < 2 && ctx.canRead(2)) {
    const deeper = await slowPeer(ctx, slow.peer, hop + 1, path);
    if (deeper) {
      deeper.mechanismRuns.push(run.ordinal);
      return deeper;
    }
  }
  return {
    id: 'h-slow-dependency',
    peer: slow.peer,
    slowdown: slow.jump.reached / Math.max(slow.jump.usual, 1e-9),
    statement: `${slow.peer} answered slowly from ${slow.jump.at.toISOString()}${chain.length ? ` (called through ${[job].join(', ')})` : ''} and caused the alert's condition`,
    at: slow.jump.at,
    run,
    mechanism: path.join('; '),
    mechanismRuns: [run.ordinal],
    chainRuns: [],
    unexplained: [`why ${slow.peer} answered slowly (its own saturation or dependencies are not in the metrics)`],
    action: {
      title: `Find why ${slow.peer} slowed down, or shed or time out calls to it`,
      rationale: `Calls to ${slow.peer} slowed just before the condition began`,
      verification: `The p99 of calls to ${slow.peer} returns to ${round(slow.jump.usual)} s and the alert resolves`,
    },
  };
}
