import { Timestamp } from '@svc/platform';
import type { RecordedRun } from '../../reasoner';
import { anyOf, earliest, firstSampleAt, pointsOf, SeriesOut, seriesOf } from '../../series-reading';
import type { ExplainerContext } from '../context';
import { certificateCause, expiredCertificate } from './certificate-expiry';
import type { DetectedCause } from '../explainer';
import { mentionedBy, quote } from '../labels';
import { connectionsCause, connectionsSaturated, openedBy } from './connections-saturated';
import { nodeTrouble } from './node-trouble';

/** What is down near the onset (every exporter's `up`, an exporter's `*_up`, a blackbox probe): one read for any number of peers. */
export function readDown(ctx: ExplainerContext, peers: string[]): Promise<RecordedRun> {
  return ctx.read(
    '{__name__=~"up|[a-z0-9_]+_up|probe_success"} == 0',
    `${peers.length === 1 ? `Is ${peers[0]}` : `Are ${peers.join(', ')}`} down: its exporter's up, an exporter's *_up, a blackbox probe?`,
    -20,
    2,
  );
}

/**
 * Why calls to a peer fail: is it down (its exporter's `up`, an `*_up` of its exporter, a
 * blackbox probe; `read` when readDown read it already), and then why (its certificate expired,
 * its pods' node not ready); are its connections exhausted. The caller's failures are the
 * mechanism's evidence.
 */
export async function whyPeerFails(
  ctx: ExplainerContext,
  peer: string,
  at: Timestamp,
  failing: string,
  callsRun: RecordedRun,
  caller: string,
  read?: RecordedRun,
): Promise<DetectedCause> {
  const base: DetectedCause = {
    id: 'h-dependency',
    statement: `${peer}, which ${caller} calls, failed from ${at.toISOString()} and caused the alert's condition`,
    at,
    run: callsRun,
    mechanism: failing,
    mechanismRuns: [callsRun.ordinal],
    chainRuns: [],
    unexplained: [`why calls to ${peer} failed (it was not seen down, out of connections or with an expired certificate)`],
    action: {
      title: `Restore ${peer} for ${caller}`,
      rationale: `${caller}'s calls to ${peer} failed from just before the condition began`,
      verification: `${caller}'s calls to ${peer} succeed again and the alert resolves`,
    },
  };
  if (!read && !ctx.canRead(1)) return base;
  const down = read ?? (await readDown(ctx, [peer]));
  base.chainRuns.push(down.ordinal);
  const downSeries = seriesOf(down)
    .filter((s) => mentionedBy(s.metric, peer))
    .map((s) => ({ s, at: firstSampleAt(s) }))
    .filter((x): x is { s: SeriesOut; at: Timestamp } => ctx.near(x.at));
  const downAt = earliest(downSeries.map((x) => x.at));
  const probe = downSeries.find((x) => x.s.metric.__name__ === 'probe_success');
  if (probe && ctx.canRead(1)) {
    const target = probe.s.metric.instance ?? peer;
    const { run: cert, expiredAt } = await expiredCertificate(ctx, probe.s.metric.instance ?? '', target, at);
    base.chainRuns.push(cert.ordinal);
    if (expiredAt)
      return certificateCause(base, {
        who: peer,
        target,
        expiredAt,
        run: cert,
        then: `the probe failed from ${probe.at.toISOString()} and ${failing}`,
        runs: [down.ordinal, callsRun.ordinal],
        unexplained: [],
        followed: `calls to ${peer} failed`,
      });
  }
  if (downAt) {
    const shown = downSeries.find((x) => x.at.epochMicros === downAt.epochMicros)!.s.metric;
    const what = `${shown.__name__ ?? 'up'}${shown.instance ? ` of ${shown.instance}` : ''}`;
    // The series itself, from well before: up (1) until it went down, or down all along (then not what changed).
    const history = ctx.canRead(2)
      ? await ctx.read(
          `${shown.__name__ ?? 'up'}{${Object.entries(shown)
            .filter(([k]) => k !== '__name__')
            .map(([k, v]) => `${k}=${quote(v)}`)
            .join(', ')}}`,
          `Was ${peer} up before ${downAt.toISOString()}?`,
          -40,
          2,
        )
      : undefined;
    if (history) base.chainRuns.push(history.ordinal);
    const wasUp = seriesOf(history)
      .flatMap(pointsOf)
      .some((p) => p.v > 0 && p.t.isBefore(downAt));
    if (history?.outcome === 'succeeded' && !wasUp) {
      ctx.limitations.push({
        type: 'scope',
        statement: `${what} was already 0 before the window read (${peer} had been down for a while), so it going down is not what changed at the onset`,
        runRefs: [history.ordinal],
        messageSequences: [],
      });
      return base;
    }
    const cause: DetectedCause = {
      ...base,
      statement: `${peer}, which ${caller} calls, went down at ${downAt.toISOString()} and caused the alert's condition`,
      at: downAt,
      run: down,
      mechanism: `${what} went from 1 to 0 at ${downAt.toISOString()}; ${failing}`,
      mechanismRuns: [...(history && wasUp ? [history.ordinal] : [down.ordinal]), callsRun.ordinal],
      unexplained: [`why ${peer} went down`],
    };
    // A peer's pods that stopped answering: was their node lost?
    const pods = [...new Set(downSeries.map((x) => x.s.metric.pod).filter((p): p is string => !!p))];
    if (pods.length && ctx.canRead(2)) {
      const node = await nodeTrouble(ctx, `pod=~${anyOf(pods)}`, `the pods of ${peer}`);
      if (node) {
        cause.chainRuns.push(...node.runs);
        return {
          ...cause,
          id: 'h-node',
          statement: `Node ${node.node} ${node.condition} from ${node.at.toISOString()}, which took down ${peer} (called by ${caller}), caused the alert's condition`,
          at: node.at,
          run: node.run,
          mechanism: `${node.node} reported ${node.condition} from ${node.at.toISOString()}; ${peer}'s pods on it (${pods.join(', ')}) stopped answering from ${downAt.toISOString()}; ${failing}`,
          mechanismRuns: [node.run.ordinal, down.ordinal, callsRun.ordinal],
          unexplained: [`why ${node.node} became ${node.condition}`],
          action: {
            title: `Recover or drain node ${node.node}`,
            rationale: `${peer}'s pods on it stopped answering when it became ${node.condition}`,
            verification: `kube_node_status_condition{node="${node.node}", condition="Ready", status="true"} is 1, ${peer} answers and the alert resolves`,
          },
        };
      }
    }
    return cause;
  }
  if (ctx.canRead(1)) {
    const saturated = await connectionsSaturated(ctx, peer, `Are the connections of ${peer} exhausted?`);
    if (saturated)
      return openedBy(
        ctx,
        connectionsCause(saturated, {
          name: peer,
          then: failing,
          runs: [callsRun.ordinal],
          chainRuns: [...base.chainRuns, saturated.run.ordinal],
          unexplained: [],
          rationale: `Its connections were exhausted when ${caller}'s calls to it began to fail`,
        }),
        saturated,
        peer,
      );
  }
  return base;
}
