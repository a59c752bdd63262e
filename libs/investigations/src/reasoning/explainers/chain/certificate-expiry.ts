import { Timestamp } from '@svc/platform';
import type { RecordedRun } from '../../reasoner';
import { MINUTE, pointsOf, seriesOf, shift } from '../../series-reading';
import type { ExplainerContext } from '../context';
import type { DetectedCause } from '../explainer';
import { quote } from '../labels';

const SECOND = 1_000_000n;

/**
 * Whether the certificate the blackbox exporter probed at `instance` (`probe_ssl_earliest_cert_expiry`)
 * expired near the onset and by a minute after `by` (when what it broke began): `expiredAt` then,
 * else null; with the run that read it either way.
 */
export async function expiredCertificate(
  ctx: ExplainerContext,
  instance: string,
  who: string,
  by: Timestamp,
): Promise<{ run: RecordedRun; expiredAt: Timestamp | null }> {
  const run = await ctx.read(`probe_ssl_earliest_cert_expiry{instance=${quote(instance)}}`, `Did the certificate of ${who} expire?`, -20, 2, 60);
  const expiry = seriesOf(run)
    .flatMap(pointsOf)
    .map((p) => p.v)
    .find((v) => v > 0);
  const expiredAt = expiry !== undefined ? Timestamp.fromEpochMicros(BigInt(Math.round(expiry)) * SECOND) : null;
  return { run, expiredAt: ctx.near(expiredAt) && !expiredAt.isAfter(shift(by, MINUTE)) ? expiredAt : null };
}

/**
 * The expired certificate of `who` (probed at `target`) as the cause, in place of `base`: `then`
 * says what followed (its probe failing, calls failing), read by `runs` besides the certificate's.
 */
export function certificateCause(
  base: DetectedCause,
  c: { who: string; target: string; expiredAt: Timestamp; run: RecordedRun; then: string; runs: number[]; unexplained: string[]; followed: string },
): DetectedCause {
  const at = c.expiredAt.toISOString();
  return {
    ...base,
    id: 'h-certificate',
    statement: `The TLS certificate of ${c.who === c.target ? c.target : `${c.who} (${c.target})`} expired at ${at} and caused the alert's condition`,
    at: c.expiredAt,
    run: c.run,
    mechanism: `The certificate probed at ${c.target} (probe_ssl_earliest_cert_expiry) expired at ${at}; ${c.then}`,
    mechanismRuns: [c.run.ordinal, ...c.runs],
    unexplained: c.unexplained,
    action: {
      title: `Renew the TLS certificate of ${c.who}`,
      rationale: `It expired at ${at}, and ${c.followed} from then on`,
      verification: `probe_ssl_earliest_cert_expiry for ${c.target} is in the future, probe_success is 1 and the alert resolves`,
    },
  };
}
