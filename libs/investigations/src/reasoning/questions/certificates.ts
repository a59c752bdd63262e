import { Timestamp } from '@svc/platform';
import { escape, quote } from '../explainers/labels';
import type { InvestigationSession, SourceBrief } from '../reasoner';
import { seriesOf } from '../series-reading';
import type { AnswerWriter } from './answer';
import { clock } from './format';
import type { Subject } from './signal-reads';

const MAX_LISTED = 5;

/**
 * When the TLS certificates that `subject` serves expire, or expired ("when did the partner-bank
 * cert expire?", "is the cert expired?"): blackbox-exporter's `probe_ssl_earliest_cert_expiry` of
 * the probes whose target names it, read at the end of the window, the earliest first, with how
 * long ago or how long from then.
 */
export async function answerCertificates(
  session: InvestigationSession,
  source: SourceBrief,
  answer: AnswerWriter,
  subject: Subject,
  until: Timestamp,
): Promise<void> {
  const read = (selector: string, purpose: string) =>
    session.runTool({
      tool: 'prometheus.query',
      integrationId: source.integrationId,
      arguments: { query: `min by (instance) (probe_ssl_earliest_cert_expiry${selector})`, time: until.toISOString() },
      purpose,
    });
  const named = await read(`{instance=~${quote(`.*${escape(subject.value)}.*`)}}`, `When the TLS certificates ${subject.value} serves expire`);
  // No probe names the subject (a question about "the cert" of the incident's service): every probed certificate, the earliest first.
  const run = seriesOf(named).length ? named : await read('', 'When the TLS certificates the probes read expire');
  const expiries = seriesOf(run)
    .map((s) => ({ target: s.metric.instance ?? subject.value, at: Number(s.value?.[1]) }))
    .filter((e) => Number.isFinite(e.at))
    .sort((a, b) => a.at - b.at);
  if (!expiries.length) {
    answer.cannot(
      `no probe of ${subject.value} reads its TLS certificate (blackbox-exporter's probe_ssl_earliest_cert_expiry), so when it expires is unknown`,
      run,
    );
    return;
  }
  const now = Number(until.epochMicros / 1_000_000n);
  const said = expiries.slice(0, MAX_LISTED).map((e) => {
    const at = Timestamp.fromEpochMicros(BigInt(Math.round(e.at)) * 1_000_000n);
    return `The TLS certificate of ${e.target} ${e.at <= now ? `expired at ${clock(at, until)}, before ${clock(until, until)}` : `expires at ${clock(at, until)}`}`;
  });
  answer.record(session, said.join('; '), run);
}
