import { Timestamp } from '@svc/platform';
import type { RecordedRun } from '../../reasoner';
import { anyOf, earliest, firstSampleAt, MINUTE, pointsOf, round, SeriesOut, seriesOf, shift } from '../../series-reading';
import type { ExplainerContext } from '../context';
import { certificateExpiry } from './certificate-expiry';
import type { DetectedCause } from '../explainer';
import { mentionedBy, quote } from '../labels';
import { connectionsSaturated, SATURATED_SHARE } from './connections-saturated';
import { nodeTrouble } from './node-trouble';

/**
 * Why calls to a peer fail: is it down (its exporter's `up`, an `*_up` of its exporter, a
 * blackbox probe), and then why (its certificate expired, its pods' node not ready); are its
 * connections exhausted. The caller's failures are the mechanism's evidence.
 */
export async function whyPeerFails(
  ctx: ExplainerContext,
  peer: string,
  at: Timestamp,
  failing: string,
  callsRun: RecordedRun,
  caller: string,
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
  if (!ctx.canRead(1)) return base;
  const down = await ctx.read(
    '{__name__=~"up|[a-z0-9_]+_up|probe_success"} == 0',
    `Is ${peer} down: its exporter's up, an exporter's *_up, a blackbox probe?`,
    -20,
    2,
  );
  base.chainRuns.push(down.ordinal);
  const downSeries = seriesOf(down)
    .filter((s) => mentionedBy(s.metric, peer))
    .map((s) => ({ s, at: firstSampleAt(s) }))
    .filter((x): x is { s: SeriesOut; at: Timestamp } => ctx.near(x.at));
  const downAt = earliest(downSeries.map((x) => x.at));
  const probe = downSeries.find((x) => x.s.metric.__name__ === 'probe_success');
  if (probe && ctx.canRead(1)) {
    const { run: cert, expiresAt: expiredAt } = await certificateExpiry(ctx, probe.s.metric.instance ?? '', probe.s.metric.instance ?? peer);
    base.chainRuns.push(cert.ordinal);
    if (expiredAt && ctx.near(expiredAt) && !expiredAt.isAfter(shift(at, MINUTE))) {
      const target = probe.s.metric.instance ?? peer;
      return {
        ...base,
        id: 'h-certificate',
        statement: `The TLS certificate of ${peer} (${target}) expired at ${expiredAt.toISOString()} and caused the alert's condition`,
        at: expiredAt,
        run: cert,
        mechanism: `The certificate probed at ${target} (probe_ssl_earliest_cert_expiry) expired at ${expiredAt.toISOString()}; the probe failed from ${probe.at.toISOString()} and ${failing}`,
        mechanismRuns: [cert.ordinal, down.ordinal, callsRun.ordinal],
        unexplained: [],
        action: {
          title: `Renew the TLS certificate of ${peer}`,
          rationale: `It expired at ${expiredAt.toISOString()}, and calls to ${peer} failed from then on`,
          verification: `probe_ssl_earliest_cert_expiry for ${target} is in the future, probe_success is 1 and the alert resolves`,
        },
      };
    }
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
    if (saturated) {
      return {
        ...base,
        id: 'h-connections',
        statement: `The connections of ${peer} reached their maximum (${saturated.what}) at ${saturated.at.toISOString()} and caused the alert's condition`,
        at: saturated.at,
        run: saturated.run,
        mechanism: `${saturated.what} reached ${round(saturated.reached * 100)}% of the connection limit at ${saturated.at.toISOString()}; ${failing}`,
        mechanismRuns: [saturated.run.ordinal, callsRun.ordinal],
        chainRuns: [...base.chainRuns, saturated.run.ordinal],
        unexplained: [`what took the connections of ${peer} (the clients holding them are not in the metrics)`],
        action: {
          title: `Free connections on ${peer} (end the sessions that hold them) or raise its limit`,
          rationale: `Its connections were exhausted when ${caller}'s calls to it began to fail`,
          verification: `Connections to ${peer} fall below ${SATURATED_SHARE * 100}% of the limit and the alert resolves`,
        },
      };
    }
  }
  return base;
}
