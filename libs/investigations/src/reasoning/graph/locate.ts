import type { Timestamp } from '@svc/platform';
import { entityOf } from '../discovery/entity';
import { prometheusReader } from '../discovery/related-series';
import type { InvestigationSession, RecordedRun, SourceBrief } from '../reasoner';
import { MINUTE, shift } from '../series-reading';
import { CallGraph, discoverCallLatencies, readCallGraph } from './call-graph';
import { dependenciesOf, LostTime, whereTimeIsLost } from './lost-time';

export interface LocatedDelay {
  /** Where the calls lose their time; null when no call does. */
  lost: LostTime | null;
  /** Everything the alerting services call, directly or not: where else a cause may lie. */
  dependencies: string[];
  graph: CallGraph;
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
 * Places the alerting services in the call graph that caller/callee series show: what they
 * depend on, and where the calls they depend on lose their time after the onset (see
 * whereTimeIsLost). Null when the alerts name no service or no series pairs callers and callees.
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
  const { latencies, run } = await discoverCallLatencies(read, shift(onset, MINUTE).toISOString());
  if (!latencies.length) return null;
  const graph = await readCallGraph(read, latencies, onset, session.window.until);
  if (!graph) return null;
  return { lost: whereTimeIsLost(graph, entity.names, onset), dependencies: dependenciesOf(graph, entity.names), graph, runs: [run, ...graph.runs] };
}
