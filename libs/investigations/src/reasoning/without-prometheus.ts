import { Timestamp } from '@svc/platform';
import type { Conclusion, FindingItem, HypothesisItem, LimitationItem } from '../conclusion.types';
import { verificationGaps } from '../conclusion-verification';
import type { DetectedCause } from './explainers/explainer';
import { alertServicesOf } from './explainers/datastores-serving';
import { detectionScopeOf } from './explainers/labels';
import { DATASTORE_EXPLAINERS, explainCauses, ExplainedCauses } from './explainers/registry';
import type { InvestigationSession, RecordedRun, SourceBrief } from './reasoner';
import { minutesBetween } from './series-reading';

/** The integrations read with their own tools: datastores and the broker. */
const DATASTORE_TYPES: readonly string[] = ['postgresql', 'mysql', 'redis', 'rabbitmq'];
const PRODUCTS: Record<string, string> = { postgresql: 'PostgreSQL', mysql: 'MySQL', redis: 'Redis', rabbitmq: 'RabbitMQ' };

/** What the datastores serving the alert showed, read without Prometheus. */
export interface DatastoresRead {
  onset: Timestamp;
  /** The Organization's datastore and broker sources. */
  stores: SourceBrief[];
  /** The services the alert names (to say which none of the stores serves). */
  services: string[];
  explained: ExplainedCauses;
  /** The runs the explainers made (each on a datastore). */
  runs: RecordedRun[];
  hypotheses: HypothesisItem[];
}

/**
 * Without a Prometheus to read, the datastores and brokers that serve the alert (those naming its
 * services, or its labels naming them: see datastoresServing) are read with their own tools: the
 * explainers that read no metric, with the onset at the alert's start. Each cause they find is a
 * hypothesis supported by the runs that showed it. Null when the Organization has no datastore or
 * broker integration (nothing is read, nothing changes).
 */
export async function readDatastoresWithoutPrometheus(
  session: InvestigationSession,
  onset: Timestamp,
  earlier: readonly HypothesisItem[],
): Promise<DatastoresRead | null> {
  const stores = session.sources.filter((s) => DATASTORE_TYPES.includes(s.type));
  if (!stores.length) return null;
  // The alert that started the incident first: its labels name the datastore.
  const alerts = [...session.alerts].sort((a, b) => (a.startsAt.isBefore(b.startsAt) ? -1 : a.startsAt.isAfter(b.startsAt) ? 1 : 0));
  const scope = detectionScopeOf(
    alerts.map((a) => a.labels),
    onset,
    false,
  );
  session.beginTurn();
  const before = session.runs.length;
  const explained = await explainCauses(session, null, scope, DATASTORE_EXPLAINERS);
  const runs = session.runs.slice(before);
  const hypotheses = unique(explained.causes).map((d): HypothesisItem => ({
    id: d.id,
    statement: d.statement,
    status: 'supported',
    test: `Was it there before the alert began (${onset.toISOString()}), as the datastore itself dates it?`,
    runRefs: [...new Set([d.run.ordinal, ...d.mechanismRuns, ...d.chainRuns])],
  }));
  if (hypotheses.length) await session.updateHypotheses([...earlier, ...hypotheses]);
  return { onset, stores, services: alertServicesOf(scope), explained, runs, hypotheses };
}

const unique = (causes: DetectedCause[]): DetectedCause[] => causes.filter((d, i) => causes.findIndex((o) => o.id === d.id) === i);

/** `tool (#n)`, the runs of a datastore as a list. */
const named = (runs: RecordedRun[]): string => runs.map((r) => `${r.tool} (#${r.ordinal})`).join(', ');

/**
 * The conclusion of an investigation without Prometheus, with what the datastores showed: each
 * cause a `cause` finding (a `supported_explanation` at most: without the alert's condition to read,
 * only the alert's start dates it, and every datastore cause leaves why it happened unexplained),
 * and for each datastore read that showed no cause, a `context` finding saying what was read and
 * what it showed. A failed read is never taken for a healthy datastore: it is a `tool_failure`
 * limitation, and the datastore is named as not read. The summary lists what was read.
 */
export function concludeWithDatastores(base: Conclusion, read: DatastoresRead | null, session: InvestigationSession): Conclusion {
  if (!read) return base;
  const evidence = (runs: number[]) => runs.map((n) => ({ investigationId: session.investigationId, toolRunOrdinal: n }));
  const succeeded = new Map(session.runs.filter((r) => r.outcome === 'succeeded').map((r) => [r.ordinal, r]));
  const onset = read.onset.toISOString();
  const findings: FindingItem[] = [];
  const limitations: LimitationItem[] = [...base.limitations, ...read.explained.limitations];
  const causes = unique(read.explained.causes).map((d) => {
    const refs = [...new Set([...(base.impact.runRefs ?? []), d.run.ordinal, ...d.mechanismRuns, ...d.chainRuns])];
    const finding: FindingItem = {
      kind: 'cause',
      statement: d.statement,
      mechanism: d.mechanism,
      runRefs: refs,
      evidenceRefs: evidence(refs),
      hypothesisId: d.id,
      verification: { causeAt: d.at.toISOString(), onsetAt: onset, mechanismRunRefs: d.mechanismRuns, unexplained: d.unexplained },
    };
    return { d, refs, finding, gaps: verificationGaps(finding, succeeded) };
  });
  findings.push(...causes.map((c) => c.finding));
  const actions = causes.map((c) => ({ ...c.d.action, runRefs: c.refs }));
  if (causes.length) limitations.push(...causes[0].gaps);

  // What each datastore read showed, in the order they were read.
  const firstRun = (s: SourceBrief): number => read.runs.find((r) => r.integrationId === s.integrationId)?.ordinal ?? Number.POSITIVE_INFINITY;
  const readStores = read.stores.filter((s) => firstRun(s) !== Number.POSITIVE_INFINITY).sort((a, b) => firstRun(a) - firstRun(b));
  const said: string[] = [];
  for (const store of readStores) {
    const runs = read.runs.filter((r) => r.integrationId === store.integrationId);
    const ok = runs.filter((r) => r.outcome === 'succeeded');
    const failed = runs.filter((r) => r.outcome !== 'succeeded');
    const kind = PRODUCTS[store.type] ?? store.type;
    const found = causes.filter((c) => c.d.run.integrationId === store.integrationId);
    const notRead = failed.length ? `; ${named(failed)} failed, so that part of it is not known` : '';
    if (found.length) {
      said.push(`${store.name} (${named(runs)}): ${found.length} cause(s)${failed.length ? `, ${named(failed)} failed` : ''}`);
      continue;
    }
    if (!ok.length) {
      said.push(`${store.name}: could not be read (${named(failed)} failed)`);
      continue;
    }
    const seen = read.explained.seen.get(store.integrationId) ?? [];
    const showed = ok.map((r) => `${r.tool} (#${r.ordinal}): ${r.summary}`).join('; ');
    const statement = seen.length
      ? `${store.name} (${kind}) was read and showed no cause dated near the onset (${onset}): ${seen.join('; ')}. What was read: ${showed}${notRead}`
      : `${store.name} (${kind}) was read and showed nothing wrong near the onset (${onset}): ${showed}${notRead}`;
    findings.push({ kind: 'context', statement, mechanism: '', runRefs: ok.map((r) => r.ordinal), evidenceRefs: evidence(ok.map((r) => r.ordinal)) });
    said.push(
      `${store.name} (${named(ok)}): ${seen.length ? 'no cause dated near the onset' : 'nothing wrong'}${failed.length ? `, ${named(failed)} failed` : ''}`,
    );
  }
  if (!readStores.length)
    limitations.push({
      type: 'scope',
      statement:
        `No datastore or broker integration serves ${read.services.length ? read.services.join(', ') : "the alert's service"} or is named by the alert's labels ` +
        `(by its name, host or host:port): none of ${read.stores.map((s) => s.name).join(', ')} was read`,
      runRefs: [],
      messageSequences: [],
    });

  const reported = base.hypotheses.length ? ` ${base.hypotheses.length} change(s) were reported before it, none of which could be tested without metrics.` : '';
  const whatWasRead = readStores.length
    ? ` No Prometheus is connected, so the datastores the alert names or that serve its services were asked with their own tools: ${said.join('; ')}.`
    : ' No Prometheus is connected, and no datastore serving it was found to read.';
  const cause = causes[0];
  const summary = cause
    ? `${cause.d.statement.replace(/,? and caused the alert's condition$/, '')}: ${minutesBetween(cause.d.at, read.onset)} min before the alert began (${onset}), ` +
      `not verified as its cause: ${cause.d.unexplained.length ? `the data does not show ${cause.d.unexplained.join(', nor ')}` : "without metrics, the alert's condition was not read"}.` +
      `${causes.length > 1 ? ` ${causes.length - 1} other cause(s) were found.` : ''}${whatWasRead}`
    : `The alert began at ${onset}.${reported}${whatWasRead}`;
  return {
    ...base,
    conclusionStatus: cause ? 'supported_explanation' : base.conclusionStatus,
    summary,
    findings: [...findings, ...base.findings],
    hypotheses: [...base.hypotheses, ...read.hypotheses],
    actions: [...base.actions, ...actions],
    limitations,
    plot: base.plot && cause ? { ...base.plot, cause: { runOrdinal: cause.d.run.ordinal, at: cause.d.at.toISOString() } } : base.plot,
  };
}
