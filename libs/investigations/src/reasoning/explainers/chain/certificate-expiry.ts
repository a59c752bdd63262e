import { Timestamp } from '@svc/platform';
import type { RecordedRun } from '../../reasoner';
import { pointsOf, seriesOf } from '../../series-reading';
import type { ExplainerContext } from '../context';
import { quote } from '../labels';

const SECOND = 1_000_000n;

/** When the certificate the blackbox exporter probed at `instance` expires (`probe_ssl_earliest_cert_expiry`), with the run that read it. */
export async function certificateExpiry(ctx: ExplainerContext, instance: string, who: string): Promise<{ run: RecordedRun; expiresAt: Timestamp | null }> {
  const run = await ctx.read(`probe_ssl_earliest_cert_expiry{instance=${quote(instance)}}`, `Did the certificate of ${who} expire?`, -20, 2, 60);
  const expiry = seriesOf(run)
    .flatMap(pointsOf)
    .map((p) => p.v)
    .find((v) => v > 0);
  return { run, expiresAt: expiry !== undefined ? Timestamp.fromEpochMicros(BigInt(Math.round(expiry)) * SECOND) : null };
}
