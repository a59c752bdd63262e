import type { Timestamp } from '@svc/platform';
import { declaredTypesReader } from '../discovery/declared-types';
import { Entity, entityOf, entityPattern } from '../discovery/entity';
import { Placements } from '../discovery/entity-model';
import { discoverMeasures, Measure, prometheusReader, sampleClause, sampleSelectors, Subject } from '../discovery/related-series';
import { CallGraph, CallPair, discoverCalls, readCallGraph, serviceNamed } from '../graph/call-graph';
import { aboutLatency } from '../explainers/labels';
import { LostTime, whereTimeIsLost } from '../graph/lost-time';
import { RankedChange, rankChanges, readsNeeded } from '../ranking/ranked-changes';
import type { InvestigationSession, RecordedRun, SourceBrief } from '../reasoner';
import { MINUTE, seriesOf, shift } from '../series-reading';
import { Candidates, candidatesOf, siblingsIn, siblingsQueries } from './candidates';
import { CPU_OF_LIMIT, hotWorkloads, MEMORY_OF_LIMIT } from './resources';
import { Anomaly, anomalyOf, Suspect, suspectsOf } from './suspects';

/** Where the alerting entity sits: what it calls and what calls it, where its pods run, and where the calls lose time. */
export interface Placement {
  entity: Entity;
  pairs: CallPair[];
  /** The latencies of the calls, when a metric times both sides of them. */
  graph: CallGraph | null;
  /** The callee whose callers wait far longer than it takes to answer them, after the onset (see whereTimeIsLost). */
  lost: LostTime | null;
  candidates: Candidates;
  /** The read of the calls and placements, then the graph's. */
  runs: RecordedRun[];
}

/** What changed on the candidates near the onset, and the suspects it leaves. */
export interface Localized {
  placement: Placement;
  changes: RankedChange[];
  anomalies: Anomaly[];
  suspects: Suspect[];
  discoveryRuns: RecordedRun[];
  rankingRuns: RecordedRun[];
}

/** Reads the placement makes: the calls and placements, then the graph. */
const PLACEMENT_READS = 2;
/** Reads of the candidates' measures at most, after their two discovery reads. */
const MEASURE_READS = 5;
/**
 * Runs a reasoner may spend after the ranking: the changes reported on the candidates, the tests
 * of the first two suspects, and the read of the symptom. The read of the declared types never
 * takes one of them.
 */
const AFTER_RANKING = 4;

/** Whether the session's run budget allows the placement, with `reserved` runs kept for what follows. */
export const canPlace = (session: InvestigationSession, reserved: number): boolean =>
  session.runs.length + PLACEMENT_READS + reserved <= session.budgets.toolRuns;
/** Whether the session's run budget allows ranking the candidates' changes (two discovery reads and one of measures), with `reserved` runs kept. */
export const canRankSuspects = (session: InvestigationSession, reserved: number): boolean => session.runs.length + 3 + reserved <= session.budgets.toolRuns;

/** The metric names a PromQL expression reads (those followed by a selector or a range). */
export function metricsOf(expression: string): string[] {
  const names = [...expression.matchAll(/([a-zA-Z_:][a-zA-Z0-9_:]*)\s*(\{|\[)/g)].map((m) => m[1]);
  return [...new Set(names.filter((n) => !/^(by|without|on|ignoring|group_left|group_right|offset|bool)$/.test(n)))];
}

/**
 * Places the alerting entity in one read: the calls between services that any series shows (pairs
 * of caller and callee labels, peers named by client metrics of any convention), the nodes its
 * pods run on, where each pod of its namespace runs and what owns it, and the entities its metric
 * family or job lists; then, when a metric times both sides of the calls, the graph of their
 * latencies and where they lose time after the onset. The candidates follow (see candidatesOf).
 * Null when the alerts name no entity.
 */
export async function placeEntity(
  session: InvestigationSession,
  source: SourceBrief,
  alerts: ReadonlyArray<Record<string, string>>,
  onset: Timestamp,
  expression: string | null,
): Promise<Placement | null> {
  const entity = entityOf(alerts);
  if (!entity) return null;
  const read = prometheusReader(session, source);
  const siblings = siblingsQueries(alerts[0] ?? {}, expression ? metricsOf(expression) : [], entity.namespace);
  // One series of each metric around the alert, for the discovery of the candidates' measures, read here too.
  const sample = sampleClause({ sample: sampleSelectors(alerts[0] ?? {}) });
  const extra = [...siblings.map((q) => q.query), ...(entity.namespace ? [Placements.query(entity.namespace)] : []), ...(sample ? [sample] : [])];
  const topology = await discoverCalls(read, shift(onset, MINUTE).toISOString(), entity, extra);
  const graph = topology.latencies.length ? await readCallGraph(read, topology.latencies, onset, session.window.until) : null;
  const pairs = [...topology.pairs, ...(graph?.edges ?? [])].map((p) => ({ caller: p.caller, callee: p.callee }));
  // What calls what is kept for later investigations and for the incident's changes: a dependency's change is a candidate too.
  await session.noteCalls(topology.run, pairs);
  const placements = Placements.of(seriesOf(topology.run));
  const candidates = candidatesOf(entity, pairs, topology.nodes, placements, siblingsIn(seriesOf(topology.run), siblings));
  return {
    entity,
    pairs,
    graph,
    // An entry point nothing traces, slow, waits on what the graph's entries call.
    lost: graph ? whereTimeIsLost(graph, entity.names, onset, { fromEntries: !!expression && aboutLatency(expression) }) : null,
    candidates,
    runs: [topology.run, ...(graph?.runs ?? [])],
  };
}

/**
 * The order the measures are read in, the budget reading the first: the calls to peers of the
 * alert's own kind, then its kind on the candidates themselves, then the containers against their
 * limits, then the other kind, then the rest (availability, saturation, restarts, traffic).
 */
function inReadingOrder(measures: Measure[], latency: boolean): Measure[] {
  const first = latency ? 'latency' : 'errors';
  const second = latency ? 'errors' : 'latency';
  const rank = (m: Measure): number => {
    if (m.peerLabel && m.meaning.kind === first) return 0;
    if (m.meaning.kind === first) return 1;
    if (m.derived) return latency ? 2 : 4;
    if (m.peerLabel && m.meaning.kind === second) return 3;
    if (m.meaning.kind === second) return 5;
    return 6;
  };
  return measures
    .map((m, i) => ({ m, i }))
    .sort((a, b) => rank(a.m) - rank(b.m) || a.i - b.i)
    .map((x) => x.m);
}

/**
 * A client-side measure that names no peer: how long (or how often in vain) something waited on
 * its dependencies, whichever they are. It shows that something downstream changed, not where.
 */
const waitsOnOthers = (m: Measure): boolean =>
  !m.peerLabel && /(^|_)client(_|$)/.test(m.metric) && (m.meaning.kind === 'latency' || m.meaning.kind === 'errors');

/**
 * What changed near the onset on every candidate, and the suspects it leaves: the series that name
 * the candidates are discovered by label value (whatever the exporters call them) and read by what
 * they measure, a pod's series by its workload; containers' CPU and memory are read against their
 * limits; each change is dated and scored against the series' own history and weighed by how well
 * its start matches the alert's episode; then the call graph is walked downstream (see suspectsOf).
 */
export async function rankSuspects(
  session: InvestigationSession,
  source: SourceBrief,
  placement: Placement,
  alerts: ReadonlyArray<Record<string, string>>,
  onset: Timestamp,
  reserved: number,
  latency = false,
): Promise<Localized> {
  const { entity, candidates } = placement;
  const read = prometheusReader(session, source);
  const subject: Subject = {
    name: candidates.names.length > 1 ? `${entity.name} and what it depends on` : entity.name,
    pattern: entityPattern({ ...entity, names: candidates.names }),
    sample: sampleSelectors(alerts[0] ?? {}),
  };
  // Containers' CPU and memory against their limits first, where cAdvisor's series name the candidates' pods.
  // Read per workload: about one series a candidate.
  const derivedOf = (discovered: Measure[]): Measure[] =>
    [CPU_OF_LIMIT, MEMORY_OF_LIMIT]
      .filter((d) => discovered.some((m) => m.metric === d.metric && m.byWorkload))
      .map((d) => ({ ...d, series: candidates.names.length }));
  // Where nothing shows what the alerting entity calls, every workload of its namespace that ran into its CPU limit.
  const hotOf = (derived: Measure[]): Measure[] =>
    derived.length && entity.namespace && !candidates.dependencies.length ? [hotWorkloads(entity.namespace)] : [];
  const toRead = (discovered: Measure[], derived: Measure[], hot: Measure[]): Measure[] =>
    inReadingOrder([...hot, ...derived, ...discovered.filter((m) => !waitsOnOthers(m))], latency);
  const readsOf = (discovered: Measure[]): number => {
    const derived = derivedOf(discovered);
    return readsNeeded(toRead(discovered, derived, hotOf(derived)));
  };
  // Whether the measures are counters, as their targets declared them: one read at most, made only
  // when it takes none of the reads the ranking needs nor any run of what follows it.
  const declaredTypes = declaredTypesReader(session, source);
  const discovery = await discoverMeasures(read, subject, shift(onset, MINUTE).toISOString(), placement.runs[0], ({ measures, metrics }) =>
    declaredTypes(metrics, Math.min(MEASURE_READS, readsOf(measures)) + Math.max(reserved, AFTER_RANKING)),
  );
  const result: Localized = { placement, changes: [], anomalies: [], suspects: [], discoveryRuns: discovery.runs, rankingRuns: [] };
  if (!discovery.measures.length) return result;
  const derived = derivedOf(discovery.measures);
  const hot = hotOf(derived);
  const measures = toRead(discovery.measures, derived, hot);
  const reads = Math.max(1, Math.min(MEASURE_READS, session.budgets.toolRuns - session.runs.length - reserved));
  const { changes, runs } = await rankChanges(read, measures, subject, onset, { reads, isSymptom: () => false });
  result.rankingRuns = runs;
  result.changes = changes;
  const at = onset.epochMicros;
  result.anomalies = changes.map((c) => {
    const a = anomalyOf(c, at);
    return { ...a, entity: serviceNamed(a.entity), caller: a.caller && serviceNamed(a.caller) };
  });
  // The hot workloads of the namespace that are no candidate yet are siblings of the alerting entity.
  const relations = new Map(candidates.relations);
  for (const a of result.anomalies)
    if (hot.length && a.change.measure.derived === hot[0].derived && !relations.has(a.entity)) relations.set(a.entity, 'sibling');
  result.suspects = suspectsOf({
    anomalies: result.anomalies,
    relations,
    pairs: placement.pairs,
    alerting: entity.names,
    nodeOf: (e) => (candidates.relations.get(e) === 'node' ? [e] : candidates.placements.nodesOf(e)),
  });
  return result;
}
