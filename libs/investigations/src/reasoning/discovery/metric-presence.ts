import type { LimitationItem } from '../../conclusion.types';
import type { InvestigationSession, RecordedRun, SourceBrief } from '../reasoner';

/**
 * Which of the metrics the checks read have series in the investigation window, from one read of
 * the metric names that match any of them: a check whose metrics are not collected is left out
 * instead of spending a run on an empty answer, and the runs it would have spent go to the
 * checks that can see something. Where the read failed or was cut, every metric counts as present.
 */
export class MetricPresence {
  private constructor(
    /** The run that listed the names, or null when none was made. */
    readonly run: RecordedRun | null,
    private readonly names: readonly string[] | null,
  ) {}

  /** Nothing known: every metric counts as present (no run made). */
  static readonly UNKNOWN = new MetricPresence(null, null);

  /** Lists which metric names matching `patterns` (PromQL regular expressions of names) have series in the session's window: one run. */
  static async read(session: InvestigationSession, source: SourceBrief, patterns: readonly string[]): Promise<MetricPresence> {
    const run = await session.runTool({
      tool: 'prometheus.label_values',
      integrationId: source.integrationId,
      arguments: { label: '__name__', match: [`{__name__=~${JSON.stringify([...new Set(patterns)].join('|'))}}`] },
      purpose: 'Which of the metrics the checks read are collected in the window',
    });
    const values = run.outcome === 'succeeded' && !run.truncated ? (run.output as { values?: unknown } | null)?.values : null;
    return new MetricPresence(run, Array.isArray(values) ? values.map(String) : null);
  }

  /** Whether any of the metrics (PromQL regular expressions of names, anchored as PromQL anchors them) has series; true when not known. */
  has(patterns: readonly string[]): boolean {
    if (!this.names) return true;
    const pattern = new RegExp(`^(?:${patterns.join('|')})$`);
    return this.names.some((name) => pattern.test(name));
  }

  /** The limitation of the checks left out for want of series (`checks`: what each would have looked for), or null when none was. */
  notLookedFor(checks: readonly string[]): LimitationItem | null {
    if (!checks.length || !this.run) return null;
    return {
      type: 'missing_telemetry',
      statement: `Not looked for, as none of the metrics they read has series in the window: ${checks.join(', ')}`,
      runRefs: [this.run.ordinal],
      messageSequences: [],
    };
  }
}
