import { Timestamp } from '@svc/platform';
import { MINUTE, pointsOf, SeriesOut, seriesOf, shift } from '../../series-reading';
import type { RecordedRun } from '../../reasoner';
import type { ExplainerContext } from '../context';
import { certificateExpiry } from './certificate-expiry';
import type { DetectedCause } from '../explainer';
import { mentions } from '../labels';

/** A probe that began to fail longer than this before the onset did not start it. */
const PROBE_LEAD = 10n * MINUTE;

/**
 * When a probe's success went from 1 to 0 for good: the first failing sample after its last
 * success, when it succeeded before and failed at the last two samples or more; else null.
 */
function failedFrom(series: SeriesOut): Timestamp | null {
  const points = pointsOf(series);
  let last = points.length - 1;
  while (last >= 0 && points[last].v === 0) last--;
  if (last < 0 || points.length - 1 - last < 2) return null;
  return points[last + 1].t;
}

/** The label that marks the probes' series in a read of calls by peer (see PROBES). */
const PROBE_MARK = 'blackbox';

/** Every blackbox probe's success, marked, to be read in the same query as a service's calls by peer. */
export const PROBES = `label_replace(max by (instance, job, module) (probe_success), "probe", "${PROBE_MARK}", "", "")`;

/**
 * When a service's calls by peer are not in the metrics (no client-side or mesh counters): a
 * blackbox probe of something else, read with them (`run`, see PROBES), that began to fail just
 * before the onset (`probe_success` from 1 to 0, held), and whether its TLS certificate expired
 * then (`probe_ssl_earliest_cert_expiry`). That the service calls what the probe checks is not in
 * the metrics, so the cause is never verified. Probes of the service itself show its symptom, not
 * a cause, and are left out.
 */
export async function failedProbe(ctx: ExplainerContext, who: string, run: RecordedRun): Promise<DetectedCause | null> {
  const failing = seriesOf(run)
    .filter((s) => s.metric.probe === PROBE_MARK && !Object.entries(s.metric).some(([k, v]) => k !== 'probe' && mentions(v, who)))
    .map((s) => ({ s, at: failedFrom(s) }))
    .filter((x): x is { s: SeriesOut; at: Timestamp } => ctx.near(x.at) && ctx.scope.onset.epochMicros - x.at.epochMicros <= PROBE_LEAD)
    .sort((a, b) => (a.at.isAfter(b.at) ? 1 : -1))[0];
  if (!failing) return null;
  const target = failing.s.metric.instance ?? 'a probed target';
  const failed = `the blackbox probe of ${target}${failing.s.metric.module ? ` (${failing.s.metric.module})` : ''} failed from ${failing.at.toISOString()}, having succeeded before`;
  const unlinked = `whether ${who}'s failing requests call ${target} (its calls by peer are not in the metrics)`;
  const cause: DetectedCause = {
    id: 'h-probe',
    statement: `${target}, whose probe began to fail at ${failing.at.toISOString()}, caused the alert's condition`,
    at: failing.at,
    run,
    mechanism: failed.charAt(0).toUpperCase() + failed.slice(1),
    mechanismRuns: [run.ordinal],
    chainRuns: [],
    unexplained: [`why ${target} stopped answering its probe`, unlinked],
    action: {
      title: `Restore ${target}`,
      rationale: `Its probe began to fail just before the condition`,
      verification: `probe_success for ${target} is 1 again and the alert resolves`,
    },
  };
  if (!ctx.canRead(1)) return cause;
  const { run: cert, expiresAt: expiredAt } = await certificateExpiry(ctx, target, target);
  cause.chainRuns.push(cert.ordinal);
  if (!expiredAt || !ctx.near(expiredAt) || expiredAt.isAfter(shift(failing.at, MINUTE))) return cause;
  return {
    ...cause,
    id: 'h-certificate',
    statement: `The TLS certificate of ${target} expired at ${expiredAt.toISOString()} and caused the alert's condition`,
    at: expiredAt,
    run: cert,
    mechanism: `The certificate probed at ${target} (probe_ssl_earliest_cert_expiry) expired at ${expiredAt.toISOString()}; ${failed}`,
    mechanismRuns: [cert.ordinal, run.ordinal],
    unexplained: [unlinked],
    action: {
      title: `Renew the TLS certificate of ${target}`,
      rationale: `It expired at ${expiredAt.toISOString()}, and its probe failed from then on`,
      verification: `probe_ssl_earliest_cert_expiry for ${target} is in the future, probe_success is 1 and the alert resolves`,
    },
  };
}
