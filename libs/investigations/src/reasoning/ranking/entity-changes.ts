import type { Timestamp } from '@svc/platform';
import { Entity, entityOf } from '../discovery/entity';
import { mentions } from '../explainers/labels';
import { discoverMeasures, entitySubject, Measure, namespaceSubject, prometheusReader } from '../discovery/related-series';
import type { InvestigationSession, RecordedRun, SourceBrief } from '../reasoner';
import { MINUTE, shift } from '../series-reading';
import { RankedChange, rankChanges } from './ranked-changes';

/** Reads the ranking makes at most, after its two discovery reads: on the entity, and over its namespace. */
const RANKING_READS = 2;
const NAMESPACE_READS = 5;
const NAMESPACE_LOOKBACK_MINUTES = 30n;
/** The ranking runs only with its discovery reads, one ranking read and this many runs to spare. */
const SPARE_RUNS = 1;

export interface EntityChanges {
  entity: Entity;
  /** Ranked strongest first, the earliest first among changes of about the same strength (byStrengthThenTime). */
  changes: RankedChange[];
  discoveryRuns: RecordedRun[];
  rankingRuns: RecordedRun[];
}

/** Where the entity sits among the services that call each other (see locateLostTime). */
export interface Relations {
  /** What it calls, directly or not, and the nodes its pods run on. */
  dependencies: string[];
  /** What calls it, directly or not. */
  dependents: string[];
}

/** Labels that name a node (kube-prometheus' on node-exporter and cAdvisor series, and a common relabelling). */
const NODE_LABELS = new Set(['node', 'kubernetes_node']);

/** Whether the session's run budget allows a ranking, with `reserved` runs kept for what follows. */
export const canRankChanges = (session: InvestigationSession, reserved = SPARE_RUNS): boolean => session.runs.length + 3 + reserved <= session.budgets.toolRuns;

/**
 * A client-side measure that names no peer: how long (or how often in vain) something waited on
 * its dependencies, whichever they are. It shows that something downstream changed, not that the
 * waiting side did.
 */
const waitsOnOthers = (m: Measure): boolean =>
  !m.peerLabel && /(^|_)client(_|$)/.test(m.metric) && (m.meaning.kind === 'latency' || m.meaning.kind === 'errors');

/**
 * The changes near the onset on the series that name the alerts' entity, ranked (see
 * rankChanges): the condition's own measures on the entity (its failures and latency as a
 * server, a fall of its traffic) are the symptom and are left out; its calls to peers, its
 * saturation, availability and restarts, and a surge of its traffic can be causes. When nothing
 * on the entity changed and the alerts share a namespace, every service and workload of the
 * namespace is ranked the same way (a cause elsewhere, on something the entity depends on
 * without a metric saying so); there the alerting entities' own failures and latency, and those
 * of callers' calls to them, are still the symptom, and any other's can be the cause. With its
 * `relations`, the first pass reads the entity and its dependencies (what it calls, directly or
 * not, and the nodes its pods run on) together: a change on something it depends on can be its
 * cause, read as the entity's own measures are, and a node's failures too; and the failures and
 * latency of its dependents (what calls it, directly or not) are consequences: they wait on it.
 * Null when the alerts name no entity.
 */
export async function rankEntityChanges(
  session: InvestigationSession,
  source: SourceBrief,
  alerts: ReadonlyArray<Record<string, string>>,
  onset: Timestamp,
  reserved = SPARE_RUNS,
  relations: Relations = { dependencies: [], dependents: [] },
): Promise<EntityChanges | null> {
  const { dependencies, dependents } = relations;
  const entity = entityOf(alerts);
  if (!entity) return null;
  const read = prometheusReader(session, source);
  const at = shift(onset, MINUTE).toISOString();
  const result: EntityChanges = { entity, changes: [], discoveryRuns: [], rankingRuns: [] };
  // The alerting entities' own requests: their series, or callers' calls to them (what they serve).
  const alerting = (c: RankedChange): boolean => {
    const served = c.measure.peerLabel ? c.labels[c.measure.peerLabel] : c.labels[c.measure.label];
    return entity.names.some((n) => mentions(served ?? '', n));
  };
  // What calls them, directly or not, waits on them: its own requests suffer with theirs.
  const dependent = (c: RankedChange): boolean => !c.measure.peerLabel && dependents.some((d) => mentions(c.labels[c.measure.label] ?? '', d));
  const symptom = (c: RankedChange): boolean =>
    (alerting(c) || dependent(c)) &&
    (c.measure.meaning.kind === 'errors' || c.measure.meaning.kind === 'latency' || (c.measure.meaning.kind === 'throughput' && c.change.direction === 'down'));
  const first = dependencies.length
    ? { ...entitySubject({ ...entity, names: [...entity.names, ...dependencies] }, alerts[0] ?? {}), name: `${entity.name} and what it depends on` }
    : entitySubject(entity, alerts[0] ?? {});
  const subjects = [first, ...(entity.namespace ? [namespaceSubject(entity.namespace)] : [])];
  for (const [i, subject] of subjects.entries()) {
    if (i > 0 && (result.changes.length || !canRankChanges(session, reserved))) break;
    const discovery = await discoverMeasures(read, subject, at);
    result.discoveryRuns.push(...discovery.runs);
    if (!discovery.measures.length) continue;
    // A namespace has more series per measure: more reads, over a shorter lookback (fewer samples per series).
    const reads = Math.max(1, Math.min(i ? NAMESPACE_READS : RANKING_READS, session.budgets.toolRuns - session.runs.length - reserved));
    const { changes, runs } = await rankChanges(read, discovery.measures, subject, onset, {
      reads,
      lookbackMinutes: i ? NAMESPACE_LOOKBACK_MINUTES : undefined,
      // On the entity itself its own failures and latency are the symptom: not read at all; a
      // node's (named by its node label: the nodes its pods run on) are not the entity's own.
      canCause: (m) =>
        (i > 0 || !!m.peerLabel || NODE_LABELS.has(m.label) || (m.meaning.kind !== 'errors' && m.meaning.kind !== 'latency')) && !waitsOnOthers(m),
      isSymptom: symptom,
    });
    result.rankingRuns.push(...runs);
    result.changes.push(...changes);
  }
  return result;
}
