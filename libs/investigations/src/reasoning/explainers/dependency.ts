import { Timestamp } from '@svc/platform';
import { jumpOf, pointsOf, round, SeriesOut, seriesOf } from '../series-reading';
import { connectionsCause, DATABASE_CONNECTIONS, openedBy, saturatedDatabase } from './chain/connections-saturated';
import { failedProbe, PROBES } from './chain/failed-probe';
import { slowPeer } from './chain/slow-peer';
import { serviceNamed } from '../graph/call-graph';
import { readDown, whyPeerFails } from './chain/why-peer-fails';
import type { RecordedRun } from '../reasoner';
import type { ExplainerContext } from './context';
import type { DetectedCause, Explainer } from './explainer';
import { CLIENT_COUNTERS, CLIENT_HISTOGRAMS, failedCall, meshCallsOf, OUTCOME_LABELS, outcomeOf, PEER_LABELS, peerOf, quote } from './labels';

/** A caller's failure ratio to a peer at this level (and five times its usual) is a failure of the calls. */
const PEER_FAILURE_RATIO = 0.1;

/**
 * The alerting service's calls to its peers (client-side counters and histograms labelled with
 * the peer, its mesh's counters): a peer whose calls began to fail, or to answer slowly, near the
 * onset; then why. A latency alert asks about slow peers first, an error alert about failing ones;
 * when an error alert's service shows no calls by peer at all, what the same read holds of what it
 * may call stands in for them: a blackbox probe of something else that began to fail, or the one
 * database whose connections ran out.
 */
export const dependencyExplainer: Explainer = {
  name: 'dependency',
  // Calls by peer (client and mesh counters, client histograms), and what stands in for them: probes, databases' connections, a datastore's latency.
  reads: [
    CLIENT_COUNTERS,
    CLIENT_HISTOGRAMS,
    'istio_requests_total',
    'response_total',
    'probe_success',
    'pg_stat_activity_count',
    'mysql_global_status_threads_connected',
    'redis_commands_duration_seconds_total',
  ],
  appliesTo: (scope) => !!scope.job,
  async explain(ctx) {
    const job = ctx.scope.job!;
    if (ctx.scope.latency) return (await slowPeer(ctx, job, 0)) ?? (ctx.canRead(3) ? (await failingPeer(ctx, job)).cause : null);
    const failing = await failingPeer(ctx, job);
    if (failing.cause)
      return failing.cause.id === 'h-dependency' && ctx.canRead(3) ? slowerThanFailing(failing.cause, await slowPeer(ctx, job, 0)) : failing.cause;
    const unseen = !failing.callsSeen ? await withoutCallsByPeer(ctx, job, failing.run) : null;
    return unseen ?? (ctx.canRead(3) ? await slowPeer(ctx, job, 0) : null);
  },
};

/** A peer whose calls answer this many times slower than before is slow first, whatever share of them fails. */
const MUCH_SLOWER = 10;

/**
 * A failing peer whose own cause is not found, that also answers many times slower than before:
 * the calls that fail are the slow ones timing out, so its slowness is the trouble, named as such,
 * with the failures as its consequence.
 */
function slowerThanFailing(failing: DetectedCause, slow: DetectedCause | null): DetectedCause {
  if (!slow?.peer || !failing.peer || (slow.slowdown ?? 0) < MUCH_SLOWER) return failing;
  const same = (a: string, b: string): boolean => serviceNamed(a) === serviceNamed(b);
  if (!same(slow.peer, failing.peer)) return failing;
  return {
    ...slow,
    statement: slow.statement.replace(
      " and caused the alert's condition",
      `, ${Math.round(slow.slowdown!)} times slower than before, and the calls to it failed with it, which caused the alert's condition`,
    ),
    mechanism: `${slow.mechanism}; ${failing.mechanism}`,
    mechanismRuns: [...new Set([...slow.mechanismRuns, ...failing.mechanismRuns])],
    chainRuns: [...new Set([...slow.chainRuns, ...failing.chainRuns])],
  };
}

/**
 * When an error alert's service shows no calls by peer, what the same read shows of what it may
 * call: a blackbox probe of something else that began to fail (see failedProbe), or the one
 * database whose connections ran out near the onset. That the service calls it is not in the
 * metrics, so neither is verified.
 */
async function withoutCallsByPeer(ctx: ExplainerContext, job: string, run: RecordedRun): Promise<DetectedCause | null> {
  const probed = await failedProbe(ctx, job, run);
  if (probed) return probed;
  const saturated = saturatedDatabase(ctx, run);
  if (!saturated) return null;
  const cause = connectionsCause(saturated, {
    name: saturated.what,
    runs: [],
    chainRuns: [],
    unexplained: [`whether ${job}'s failing requests use ${saturated.what} (its calls by peer are not in the metrics)`],
    rationale: 'Its connections ran out just before the condition began',
  });
  return openedBy(ctx, cause, saturated, saturated.what);
}

/** Calls a peer answered at under this share of their usual rate have stopped reaching it. */
const STOPPED_SHARE = 0.1;
/** Calls per second below which a stop is not told from quiet. */
const STOPPED_MIN_RPS = 0.2;

/** Per peer and time: calls and failed calls, the outcomes of the failed ones, and whether only the peer's side counted them. */
interface PeerCalls {
  total: Map<string, number>;
  failed: Map<string, number>;
  outcomes: Map<string, number>;
  peerSideOnly: boolean;
}

/**
 * The peer whose share of failed calls from `job` jumped near the onset and stayed up, from the
 * client's counters or its service mesh's; then why it failed. Calls that only the peer's own
 * proxy counted (a mesh without client-side reports) are not counted at all once the peer is down:
 * there, calls that stopped reaching the peer name it when the peer is seen down.
 */
async function failingPeer(ctx: ExplainerContext, job: string): Promise<{ cause: DetectedCause | null; callsSeen: boolean; run: RecordedRun }> {
  const run = await ctx.read(
    `sum by (${[...PEER_LABELS, ...OUTCOME_LABELS].join(', ')}) (rate({__name__=~"${CLIENT_COUNTERS}", job=${quote(job)}}[1m])) or ${meshCallsOf(job)} or ${PROBES.query} or ${DATABASE_CONNECTIONS.query}`,
    `Did ${job}'s calls to a dependency begin to fail near the onset?`,
  );
  const byPeer = new Map<string, PeerCalls>();
  const series = seriesOf(run);
  // A call counted by both proxies is read from the caller's side.
  const callerSide = new Set(series.filter((s) => s.metric.reporter !== 'destination').map((s) => peerOf(s.metric)));
  for (const s of series) {
    const peer = peerOf(s.metric);
    if (!peer || (s.metric.reporter === 'destination' && callerSide.has(peer))) continue;
    const entry = byPeer.get(peer) ?? { total: new Map(), failed: new Map(), outcomes: new Map(), peerSideOnly: true };
    byPeer.set(peer, entry);
    if (s.metric.reporter !== 'destination') entry.peerSideOnly = false;
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
  // The peers the job's own calls name (not the probes and datastores read with them) are what it calls: kept for later investigations.
  const called = new Set(series.filter((s) => !PROBES.holds(s.metric) && !DATABASE_CONNECTIONS.holds(s.metric)).map((s) => peerOf(s.metric)));
  await ctx.session.noteCalls(
    run,
    [...byPeer.keys()].filter((peer) => called.has(peer)).map((peer) => ({ caller: job, callee: peer })),
  );
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
  if (best) {
    const failing = `${job}'s calls to ${best.peer} began to fail (${best.outcome}) at ${best.at.toISOString()}: ${round(best.usual * 100)}% to ${round(best.reached * 100)}% of them`;
    const cause = await whyPeerFails(ctx, best.peer, best.at, failing, run, job);
    return { cause: { ...cause, peer: cause.peer ?? best.peer }, callsSeen: true, run };
  }
  const instants = [...new Set(series.flatMap((s) => pointsOf(s).map((p) => p.t.toISOString())))].sort();
  const stopped = [...byPeer]
    .filter(([, calls]) => calls.peerSideOnly)
    .map(([peer, calls]) => ({ peer, stop: stopOf(instants, calls.total) }))
    .filter((x): x is { peer: string; stop: { at: Timestamp; usual: number } } => !!x.stop && ctx.near(x.stop.at))
    .sort((a, b) => b.stop.usual - a.stop.usual);
  // One read of what is down serves every peer whose calls stopped.
  const down =
    stopped.length && ctx.canRead(1)
      ? await readDown(
          ctx,
          stopped.map((x) => x.peer),
        )
      : undefined;
  for (const { peer, stop } of down ? stopped : []) {
    const failing = `${job}'s calls stopped reaching ${peer} at ${stop.at.toISOString()} (its proxy counted ${round(stop.usual)} per second before, none after)`;
    const cause = await whyPeerFails(ctx, peer, stop.at, failing, run, job, down);
    // Only the peer seen down (or why) tells a peer that stopped answering from a caller that stopped calling.
    if (cause.id !== 'h-dependency' || cause.mechanismRuns.length > 1) return { cause: { ...cause, peer: cause.peer ?? peer }, callsSeen: true, run };
  }
  return { cause: null, callsSeen: byPeer.size > 0, run };
}

/**
 * When calls counted at `instants` stopped: the first instant after which every count is under
 * STOPPED_SHARE of the usual rate (the median of the first quarter, at least STOPPED_MIN_RPS), a
 * missing count being none; null when they never stopped, or only in the last two instants.
 */
function stopOf(instants: string[], total: Map<string, number>): { at: Timestamp; usual: number } | null {
  const counts = instants.map((t) => total.get(t) ?? 0);
  const first = counts.slice(0, Math.max(1, Math.floor(counts.length / 4))).sort((a, b) => a - b);
  const usual = first[Math.floor(first.length / 2)];
  if (!(usual >= STOPPED_MIN_RPS)) return null;
  let i = counts.length;
  while (i > 0 && counts[i - 1] < usual * STOPPED_SHARE) i--;
  if (i === 0 || counts.length - i < 3) return null;
  return { at: Timestamp.parse(instants[i])!, usual };
}
