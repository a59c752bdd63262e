import { Timestamp } from '@svc/platform';
import { MINUTE, pointsOf, SeriesOut, seriesOf } from '../../series-reading';
import type { RecordedRun } from '../../reasoner';
import type { ExplainerContext } from '../context';
import { certificateCause, expiredCertificate } from './certificate-expiry';
import type { DetectedCause } from '../explainer';
import { MarkedQuery, mentions } from '../labels';

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

/** Every blackbox probe's success, marked, to be read in the same query as a service's calls by peer. */
export const PROBES = new MarkedQuery('probe', 'blackbox', 'max by (instance, job, module) (probe_success)');

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
    .filter((s) => PROBES.holds(s.metric) && !Object.entries(s.metric).some(([k, v]) => k !== PROBES.label && mentions(v, who)))
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
  const { run: cert, expiredAt } = await expiredCertificate(ctx, target, target, failing.at);
  cause.chainRuns.push(cert.ordinal);
  if (!expiredAt) return cause;
  return certificateCause(cause, {
    who: target,
    target,
    expiredAt,
    run: cert,
    then: failed,
    runs: [run.ordinal],
    unexplained: [unlinked],
    followed: 'its probe failed',
  });
}
