import type { Timestamp } from '@svc/platform';
import { entityOf } from '../discovery/entity';
import type { PrometheusReader } from '../discovery/related-series';
import type { InvestigationSession, RecordedRun, SourceBrief } from '../reasoner';
import { MINUTE, shift } from '../series-reading';
import { CallGraph, discoverCallLatencies, readCallGraph } from './call-graph';
import { LostTime, whereTimeIsLost } from './lost-time';

export interface LocatedDelay {
  lost: LostTime;
  graph: CallGraph;
  /** Every run the location read: the discovery of call metrics, then the graph. */
  runs: RecordedRun[];
}

/** Reads the location makes: the call metrics, then the graph. */
export const LOCATION_READS = 2;

/**
 * Places the alerting services in the call graph that caller/callee series show, and finds where
 * the calls they depend on lose their time after the onset (see whereTimeIsLost). Null when the
 * alerts name no service, no series pairs callers and callees, or no call loses time.
 */
export async function locateLostTime(
  session: InvestigationSession,
  source: SourceBrief,
  alerts: ReadonlyArray<Record<string, string>>,
  onset: Timestamp,
): Promise<LocatedDelay | null> {
  const entity = entityOf(alerts);
  if (!entity) return null;
  const read: PrometheusReader = (tool, args, purpose) => session.runTool({ tool, integrationId: source.integrationId, arguments: args, purpose });
  const { latencies, run } = await discoverCallLatencies(read, shift(onset, MINUTE).toISOString());
  if (!latencies.length) return null;
  const graph = await readCallGraph(read, latencies, onset, session.window.until);
  if (!graph) return null;
  const lost = whereTimeIsLost(graph, entity.names, onset);
  return lost ? { lost, graph, runs: [run, ...graph.runs] } : null;
}
