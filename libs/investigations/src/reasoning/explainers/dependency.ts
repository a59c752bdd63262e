import { Timestamp } from '@svc/platform';
import { jumpOf, pointsOf, round, SeriesOut, seriesOf } from '../series-reading';
import { slowPeer } from './chain/slow-peer';
import { whyPeerFails } from './chain/why-peer-fails';
import type { ExplainerContext } from './context';
import type { DetectedCause, Explainer } from './explainer';
import { CLIENT_COUNTERS, failedCall, OUTCOME_LABELS, outcomeOf, PEER_LABELS, peerOf, quote } from './labels';

/** A caller's failure ratio to a peer at this level (and five times its usual) is a failure of the calls. */
const PEER_FAILURE_RATIO = 0.1;

/**
 * The alerting service's calls to its peers (client-side counters and histograms labelled with
 * the peer): a peer whose calls began to fail, or to answer slowly, near the onset; then why.
 * A latency alert asks about slow peers first, an error alert about failing ones.
 */
export const dependencyExplainer: Explainer = {
  name: 'dependency',
  appliesTo: (scope) => !!scope.job,
  async explain(ctx) {
    const job = ctx.scope.job!;
    const first = ctx.scope.latency ? () => slowPeer(ctx, job, 0) : () => failingPeer(ctx, job);
    const second = ctx.scope.latency ? () => failingPeer(ctx, job) : () => slowPeer(ctx, job, 0);
    return (await first()) ?? (ctx.canRead(3) ? await second() : null);
  },
};

/** The peer whose share of failed calls from `job` jumped near the onset and stayed up; then why it failed. */
async function failingPeer(ctx: ExplainerContext, job: string): Promise<DetectedCause | null> {
  const run = await ctx.read(
    `sum by (${[...PEER_LABELS, ...OUTCOME_LABELS].join(', ')}) (rate({__name__=~"${CLIENT_COUNTERS}", job=${quote(job)}}[1m]))`,
    `Did ${job}'s calls to a dependency begin to fail near the onset?`,
  );
  // Per peer and time: calls and failed calls.
  const byPeer = new Map<string, { total: Map<string, number>; failed: Map<string, number>; outcomes: Map<string, number> }>();
  for (const s of seriesOf(run)) {
    const peer = peerOf(s.metric);
    if (!peer) continue;
    const entry = byPeer.get(peer) ?? { total: new Map(), failed: new Map(), outcomes: new Map() };
    byPeer.set(peer, entry);
    const failed = failedCall(s.metric);
    for (const p of pointsOf(s)) {
      const key = p.t.toISOString();
      entry.total.set(key, (entry.total.get(key) ?? 0) + p.v);
      if (failed) {
        entry.failed.set(key, (entry.failed.get(key) ?? 0) + p.v);
        entry.outcomes.set(outcomeOf(s.metric), (entry.outcomes.get(outcomeOf(s.metric)) ?? 0) + p.v);
      }
    }
  }
  let best: { peer: string; at: Timestamp; usual: number; reached: number; outcome: string } | null = null;
  for (const [peer, { total, failed, outcomes }] of byPeer) {
    const times = [...total.keys()].sort();
    const ratios = times.map((t) => ({ t, v: (total.get(t) ?? 0) > 0 ? (failed.get(t) ?? 0) / total.get(t)! : 0 }));
    const series: SeriesOut = { metric: {}, values: ratios.map((r) => [r.t, r.v]) };
    const jump = jumpOf(series, 5, PEER_FAILURE_RATIO);
    if (!jump || !ctx.near(jump.at)) continue;
    // Held: most samples from the jump on stay failing.
    const after = ratios.filter((r) => !Timestamp.parse(r.t)!.isBefore(jump.at));
    if (after.filter((r) => r.v >= PEER_FAILURE_RATIO).length < after.length / 2) continue;
    const outcome = [...outcomes.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 'failed';
    if (!best || jump.reached > best.reached) best = { peer, ...jump, outcome };
  }
  if (!best) return null;
  const failing = `${job}'s calls to ${best.peer} began to fail (${best.outcome}) at ${best.at.toISOString()}: ${round(best.usual * 100)}% to ${round(best.reached * 100)}% of them`;
  return whyPeerFails(ctx, best.peer, best.at, failing, run, job);
}
