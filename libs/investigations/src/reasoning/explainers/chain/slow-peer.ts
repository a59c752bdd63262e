import { jumpOf, round, SeriesOut, seriesOf } from '../../series-reading';
import type { ExplainerContext } from '../context';
import type { DetectedCause } from '../explainer';
import { CLIENT_HISTOGRAMS, PEER_LABELS, peerOf, quote } from '../labels';

/** A peer's p99 at this many times its usual level is a slowdown. */
const PEER_SLOWDOWN = 3;

/**
 * A peer that answers slowly: client-side p99 by peer jumped near the onset. When the peer is a
 * service with client metrics of its own, its own slow peer is asked about in turn (a chain of
 * calls), up to two hops.
 */
export async function slowPeer(ctx: ExplainerContext, job: string, hop: number, chain: string[] = []): Promise<DetectedCause | null> {
  const run = await ctx.read(
    `histogram_quantile(0.99, sum by (le, ${PEER_LABELS.join(', ')}) (rate({__name__=~"${CLIENT_HISTOGRAMS}", job=${quote(job)}}[1m])))`,
    `Did a dependency of ${job} begin to answer slowly near the onset?`,
  );
  const slow = seriesOf(run)
    .map((s) => ({ s, peer: peerOf(s.metric), jump: jumpOf(s, PEER_SLOWDOWN, 0.005) }))
    .filter((x): x is { s: SeriesOut; peer: string; jump: NonNullable<ReturnType<typeof jumpOf>> } => !!x.peer && !!x.jump && ctx.near(x.jump.at))
    .sort((a, b) => b.jump.reached / Math.max(b.jump.usual, 1e-9) - a.jump.reached / Math.max(a.jump.usual, 1e-9))[0];
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
