import { Timestamp } from '@svc/platform';
import type { LimitationItem } from '../../conclusion.types';
import { MetricPresence } from '../discovery/metric-presence';
import type { InvestigationSession, RecordedRun, SourceBrief } from '../reasoner';
import { firstSampleAt, MINUTE, SeriesOut, shift } from '../series-reading';
import type { DetectionScope } from './explainer';

/** Runs kept for testing the hypotheses once the explainers are done. */
export const RESERVED_RUNS = 5;

const SECOND = 1_000_000n;

/** Points per series of a zoomed query: fine enough to date a change to a few seconds around the onset. */
const ZOOM_POINTS = 400;

/** Arguments of a range query from `from` to `until` (clamped to the window) at about ZOOM_POINTS points. */
export function zoom(session: InvestigationSession, from: Timestamp, until: Timestamp): { start: string; end: string; step: number } {
  const start = from.isAfter(session.window.from) ? from : session.window.from;
  const end = until.isAfter(session.window.until) ? session.window.until : until;
  const seconds = Number((end.epochMicros - start.epochMicros) / SECOND);
  return { start: start.toISOString(), end: end.toISOString(), step: Math.max(1, Math.ceil(seconds / ZOOM_POINTS)) };
}

/** What the read of builds before the onset said of new versions: whether one started, the run that read them, and whether any build series was seen. */
export interface VersionsSeen {
  newOne: boolean;
  run: number;
  seen: boolean;
}

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
  /** Checks an explainer left out for want of series, beside the explainers left out whole (one reading several families). */
  readonly notLookedFor: string[] = [];
  /** What the read of builds said of new versions, once made (the question of why a process saturated cites it). */
  versions: VersionsSeen | null = null;

  constructor(
    readonly session: InvestigationSession,
    readonly source: SourceBrief | null,
    readonly scope: DetectionScope,
    /** Which metrics have series in the window (an explainer reading several families asks per family). */
    readonly presence: MetricPresence = MetricPresence.UNKNOWN,
    /** Runs kept for what follows the explainers (see ExplainOptions.reserved). */
    private readonly reserved = RESERVED_RUNS,
  ) {}

  /** Notes what `source`'s reads showed that is not a cause (see `seen`). */
  saw(source: SourceBrief, what: string): void {
    this.seen.set(source.integrationId, [...(this.seen.get(source.integrationId) ?? []), what]);
  }

  /** The alerting workload as statements name it. */
  get who(): string {
    return this.scope.workload ?? 'the alerting pods';
  }

  /** Whether `extra` more runs leave the runs reserved for what follows (testing the hypotheses, reading the logs). */
  canRead(extra = 0): boolean {
    return this.session.runs.length + this.reserved + extra < this.session.budgets.toolRuns;
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

  /**
   * A range query from `from` to `until` at about 400 points (see zoom), for dating a change to a
   * few seconds; made for `hypothesisId` when it tests one.
   */
  readFine(query: string, purpose: string, from: Timestamp, until: Timestamp, hypothesisId?: string): Promise<RecordedRun> {
    if (!this.source) throw new Error('No Prometheus source to read the metrics from');
    return this.session.runTool({
      tool: 'prometheus.query_range',
      integrationId: this.source.integrationId,
      ...(hypothesisId ? { hypothesisId } : {}),
      arguments: { query, ...zoom(this.session, from, until) },
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

  /** The matcher of the alerts' one scrape job (`job="..."`), '' when they name none or several. */
  get jobMatcher(): string {
    return this.scope.scrapeJob ? `job=${JSON.stringify(this.scope.scrapeJob)}` : '';
  }

  /** A change on the alerting service read in the quarter hour before the onset: from the window's start to two minutes after the onset. */
  changedNear(at: Timestamp): boolean {
    return at.epochMicros <= this.scope.onset.epochMicros + 2n * MINUTE && at.epochMicros >= this.session.window.from.epochMicros;
  }

  /** Near enough the onset to have started it: from the window's start to a minute after the onset. */
  near(at: Timestamp | null): at is Timestamp {
    return !!at && !at.isAfter(shift(this.scope.onset, MINUTE)) && !at.isBefore(this.session.window.from);
  }
}
