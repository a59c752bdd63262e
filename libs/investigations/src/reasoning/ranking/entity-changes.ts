import type { Timestamp } from '@svc/platform';
import { Entity, entityOf, entityPattern } from '../discovery/entity';
import { discoverMeasures, PrometheusReader } from '../discovery/related-series';
import type { InvestigationSession, RecordedRun, SourceBrief } from '../reasoner';
import { MINUTE, shift } from '../series-reading';
import { RankedChange, rankChanges } from './ranked-changes';

/** Reads the ranking makes at most, after its two discovery reads. */
const RANKING_READS = 2;
/** The ranking runs only with its discovery reads, one ranking read and this many runs to spare. */
const SPARE_RUNS = 1;

export interface EntityChanges {
  entity: Entity;
  /** Ranked earliest strong change first. */
  changes: RankedChange[];
  discoveryRuns: RecordedRun[];
  rankingRuns: RecordedRun[];
}

/** Whether the session's run budget allows a ranking, with `reserved` runs kept for what follows. */
export const canRankChanges = (session: InvestigationSession, reserved = SPARE_RUNS): boolean => session.runs.length + 3 + reserved <= session.budgets.toolRuns;

/**
 * The changes near the onset on the series that name the alerts' entity, ranked (see
 * rankChanges): the condition's own measures on the entity (its failures and latency as a
 * server, a fall of its traffic) are the symptom and are left out; its calls to peers, its
 * saturation, availability and restarts, and a surge of its traffic can be causes. Null when the
 * alerts name no entity or no series names it.
 */
export async function rankEntityChanges(
  session: InvestigationSession,
  source: SourceBrief,
  alerts: ReadonlyArray<Record<string, string>>,
  onset: Timestamp,
  reserved = SPARE_RUNS,
): Promise<EntityChanges | null> {
  const entity = entityOf(alerts);
  if (!entity) return null;
  const read: PrometheusReader = (tool, args, purpose) => session.runTool({ tool, integrationId: source.integrationId, arguments: args, purpose });
  const discovery = await discoverMeasures(read, entity, alerts[0] ?? {}, shift(onset, MINUTE).toISOString());
  if (!discovery.measures.length) return { entity, changes: [], discoveryRuns: discovery.runs, rankingRuns: [] };
  const reads = Math.max(1, Math.min(RANKING_READS, session.budgets.toolRuns - session.runs.length - reserved));
  const { changes, runs } = await rankChanges(read, discovery.measures, entityPattern(entity), onset, {
    reads,
    canCause: (m) => !!m.peerLabel || (m.meaning.kind !== 'errors' && m.meaning.kind !== 'latency'),
    isSymptom: (c) => !c.measure.peerLabel && c.measure.meaning.kind === 'throughput' && c.change.direction === 'down',
  });
  return { entity, changes, discoveryRuns: discovery.runs, rankingRuns: runs };
}
