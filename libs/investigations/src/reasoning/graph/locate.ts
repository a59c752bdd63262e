import type { Timestamp } from '@svc/platform';
import { entityOf } from '../discovery/entity';
import { prometheusReader } from '../discovery/related-series';
import type { InvestigationSession, RecordedRun, SourceBrief } from '../reasoner';
import { MINUTE, shift } from '../series-reading';
import { CallGraph, discoverCalls, readCallGraph } from './call-graph';
import { dependenciesOf, dependentsOf, LostTime, whereTimeIsLost } from './lost-time';

export interface LocatedDelay {
  /** Where the calls lose their time; null when no call does (or no latency of calls was read). */
  lost: LostTime | null;
  /** Everything the alerting services call, directly or not, and the nodes their pods run on: where else a cause may lie. */
  dependencies: string[];
  /** Everything that calls the alerting services, directly or not: their slowness and failures are the alert's consequences. */
  dependents: string[];
  /** The latencies of the calls, when a metric times both sides of them. */
  graph: CallGraph | null;
  /** Every run the location read: the discovery of call metrics, then the graph. */
  runs: RecordedRun[];
}

/** Reads the location makes: the call metrics, then the graph. */
const LOCATION_READS = 2;

/** Whether the session's run budget allows the location, with `reserved` runs kept for what follows. */
export const canLocateLostTime = (session: InvestigationSession, reserved: number): boolean =>
  session.runs.length + LOCATION_READS + reserved <= session.budgets.toolRuns;

/** What the graph leaves unexplained about a loss: what delays the calls between the ends. */
export const lostTimeUnexplained = (lost: LostTime): string =>
  `what delays the calls between ${lost.callee}'s callers and it (no series here shows its network or proxy)`;

/**
 * Places the alerting services among their relations: what they call, directly or not (the
 * pairs of caller and callee that any series shows, the peers their client metrics name), the
 * nodes their pods run on, and where the calls they depend on lose their time after the onset
 * (see whereTimeIsLost), when a metric times both sides of the calls; and what calls them, directly
 * or not. Null when the alerts name no service or nothing shows what it depends on or what calls it.
 */
export async function locateLostTime(
  session: InvestigationSession,
  source: SourceBrief,
  alerts: ReadonlyArray<Record<string, string>>,
  onset: Timestamp,
): Promise<LocatedDelay | null> {
  const entity = entityOf(alerts);
  if (!entity) return null;
  const read = prometheusReader(session, source);
  const topology = await discoverCalls(read, shift(onset, MINUTE).toISOString(), entity);
  const graph = topology.latencies.length ? await readCallGraph(read, topology.latencies, onset, session.window.until) : null;
  const pairs = [...topology.pairs, ...(graph?.edges ?? [])];
  // What calls what is kept for later investigations and for the incident's changes: a dependency's change is a candidate too.
  await session.noteCalls(topology.run, pairs);
  const called = dependenciesOf(pairs, entity.names);
  const dependencies = [...called, ...topology.nodes.filter((n) => !called.includes(n))];
  const dependents = dependentsOf(pairs, entity.names).filter((s) => !called.includes(s));
  if (!graph && !dependencies.length && !dependents.length) return null;
  return {
    lost: graph ? whereTimeIsLost(graph, entity.names, onset) : null,
    dependencies,
    dependents,
    graph,
    runs: [topology.run, ...(graph?.runs ?? [])],
  };
}
