import { Timestamp } from '@svc/platform';
import type { LimitationItem } from '../../conclusion.types';
import type { InvestigationSession, RecordedRun, SourceBrief } from '../reasoner';
import { firstSampleAt, MINUTE, SeriesOut, shift } from '../series-reading';
import type { DetectionScope } from './explainer';

/** Runs kept for testing the hypotheses once the explainers are done. */
const RESERVED_RUNS = 5;

const SECOND = 1_000_000n;

/**
 * What every explainer shares: the session whose runs it records, the Prometheus source it reads
 * (none when the Organization has none: then only the explainers that read datastores run), the
 * alert's scope, and what the explainers tell the reasoner besides causes (limitations, pods whose
 * liveness probes passed, what a datastore showed that was no cause).
 */
export class ExplainerContext {
  readonly limitations: LimitationItem[] = [];
  /** Pods whose liveness probes were read and passed near the onset, with the run that read them. */
  readonly livenessPassed = new Map<string, number>();
  /**
   * What a datastore's reads showed that was not stated as a cause (not dated near the onset, or
   * not enough to be one), by integration id: said with what was read when no cause is found there.
   */
  readonly seen = new Map<string, string[]>();

  constructor(
    readonly session: InvestigationSession,
    readonly source: SourceBrief | null,
    readonly scope: DetectionScope,
  ) {}

  /** Notes what `source`'s reads showed that is not a cause (see `seen`). */
  saw(source: SourceBrief, what: string): void {
    this.seen.set(source.integrationId, [...(this.seen.get(source.integrationId) ?? []), what]);
  }

  /** The alerting workload as statements name it. */
  get who(): string {
    return this.scope.workload ?? 'the alerting pods';
  }

  /** Whether `extra` more runs leave the runs reserved for testing the hypotheses. */
  canRead(extra = 0): boolean {
    return this.session.runs.length + RESERVED_RUNS + extra < this.session.budgets.toolRuns;
  }

  /** A range query from `fromMinutes` to `untilMinutes` around the onset, within the investigation window. */
  read(query: string, purpose: string, fromMinutes = -20, untilMinutes = 2, step?: number): Promise<RecordedRun> {
    // Only the explainers that read metrics call this, and they run only with a Prometheus source.
    if (!this.source) throw new Error('No Prometheus source to read the metrics from');
    const source = this.source;
    const onset = this.scope.onset;
    const window = this.session.window;
    const wanted = shift(onset, BigInt(fromMinutes) * MINUTE);
    const start = wanted.isAfter(window.from) ? wanted : window.from;
    const until = shift(onset, BigInt(untilMinutes) * MINUTE);
    const end = until.isAfter(window.until) ? window.until : until;
    const seconds = Number((end.epochMicros - start.epochMicros) / SECOND);
    return this.session.runTool({
      tool: 'prometheus.query_range',
      integrationId: source.integrationId,
      arguments: { query, start: start.toISOString(), end: end.toISOString(), step: step ?? Math.max(15, Math.ceil(seconds / 100)) },
      purpose,
    });
  }

  /** When a series began within a range read: its first sample, or null when it was there from the range's start (it began earlier: not a change). */
  began(s: SeriesOut, run: RecordedRun): Timestamp | null {
    const at = firstSampleAt(s);
    const out = run.output as { start?: string; stepSeconds?: number } | null;
    const start = out?.start ? Timestamp.parse(out.start) : null;
    if (!at || !start) return at;
    return at.epochMicros - start.epochMicros > BigInt(Math.round((out?.stepSeconds ?? 0) * 1_000_000)) ? at : null;
  }

  /** Near enough the onset to have started it: from the window's start to a minute after the onset. */
  near(at: Timestamp | null): at is Timestamp {
    return !!at && !at.isAfter(shift(this.scope.onset, MINUTE)) && !at.isBefore(this.session.window.from);
  }
}
