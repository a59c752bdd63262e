import { MAX_METADATA_METRICS, METRIC_TYPES, MetricMetadata, MetricType } from '../../tools/prometheus/prometheus-metadata.tool';
import type { InvestigationSession, RecordedRun, SourceBrief } from '../reasoner';
import { unreadSource } from '../source-failure';

export const METADATA_TOOL = 'prometheus.metadata';

/** What the scrape targets declared of the metrics asked about, and the reads that show it. */
export interface DeclaredTypes {
  /**
   * The type each metric's targets declared, by the name asked for (a series name answered with
   * its family's type). A metric whose targets disagree, or declare `unknown`, has none: its name
   * and its shape decide.
   */
  readonly types: ReadonlyMap<string, MetricType>;
  /** The metadata runs that declared any of them: cited with the reads of the measures they typed. */
  readonly runs: readonly RecordedRun[];
}

export const NO_DECLARED_TYPES: DeclaredTypes = { types: new Map(), runs: [] };

/**
 * The declared types of `metrics`, from one read at most, made only when `kept` runs remain after
 * it; never fails: a read that failed or was not made gives none.
 */
export type DeclaredTypesReader = (metrics: readonly string[], kept: number) => Promise<DeclaredTypes>;

/** The declared types a metadata run shows (none for a failed run: a failed read is no evidence of anything). */
export function declaredTypesIn(runs: readonly RecordedRun[]): DeclaredTypes {
  const types = new Map<string, MetricType>();
  const declaring: RecordedRun[] = [];
  for (const run of runs) {
    if (run.tool !== METADATA_TOOL || run.outcome !== 'succeeded') continue;
    const metrics = (run.output as { metrics?: unknown } | null)?.metrics;
    if (!Array.isArray(metrics)) continue;
    const before = types.size;
    for (const m of metrics as Array<Partial<MetricMetadata>>) {
      const [type, ...others] = Array.isArray(m.types) ? m.types : [];
      if (typeof m.metric !== 'string' || others.length || !(METRIC_TYPES as readonly unknown[]).includes(type) || type === 'unknown') continue;
      types.set(m.metric, type as MetricType);
    }
    if (types.size > before) declaring.push(run);
  }
  return { types, runs: declaring };
}

/**
 * Reads the declared types of the metrics about to be read, in one `prometheus.metadata` run per
 * investigation: an earlier metadata read of the source is used instead of a second one (whatever
 * names it asked for), and none is made when the session does not offer the tool, when the
 * source's last read showed it cannot be read, or when the run would take one of the `kept` runs
 * the caller needs after it. Backfilled and remote-written data have no metadata, and a relay may
 * not offer the read: then, as when the read fails, there are no declared types, and names and
 * shapes decide as before.
 */
export function declaredTypesReader(session: InvestigationSession, source: SourceBrief): DeclaredTypesReader {
  return async (metrics, kept) => {
    const earlier = session.runs.filter((r) => r.tool === METADATA_TOOL && r.integrationId === source.integrationId);
    if (earlier.length) return declaredTypesIn(earlier);
    const names = [...new Set(metrics)].slice(0, MAX_METADATA_METRICS);
    if (!names.length || !session.tools.some((t) => t.name === METADATA_TOOL)) return NO_DECLARED_TYPES;
    if (unreadSource(session.runs, source) || session.runs.length + 1 + kept > session.budgets.toolRuns) return NO_DECLARED_TYPES;
    const run = await session.runTool({
      tool: METADATA_TOOL,
      integrationId: source.integrationId,
      arguments: { metrics: names },
      purpose: 'Which of the metrics about to be read their targets declare counters (read as rates) and which gauges (read as levels)',
    });
    return declaredTypesIn([run]);
  };
}
