import type { LimitationItem } from '../conclusion.types';
import type { RecordedRun, SourceBrief } from './reasoner';

/**
 * Errors of a run that say the source itself could not be read (unreachable, refused by the
 * outbound policy, an HTTP error of the server or of its authentication, an answer that is not its
 * API, an offline relay), as opposed to the query's own errors (Prometheus' `bad_data`, an answer
 * too large, invalid arguments): after one of these, every read of the source would fail alike.
 */
const UNREADABLE =
  /^(Could not reach |Refused: |\S+ answered HTTP (5\d\d|401|403|404|407)\b|The answer at \S+ is not (JSON|Prometheus's API envelope)|.*\brelay\b.*\b(offline|not connected|unavailable|gone)\b)/i;

/** Whether a failed run shows that its source could not be read at all (see UNREADABLE). */
export function sourceUnreadable(run: RecordedRun | undefined): boolean {
  return !!run && run.outcome === 'failed' && UNREADABLE.test(run.error ?? '');
}

/** A source that could not be read, and the runs that show it. */
export interface UnreadSource {
  source: SourceBrief;
  error: string;
  runs: number[];
}

/** The last run of `source` in `runs`, when it shows the source could not be read: the source, its error and its failed runs. */
export function unreadSource(runs: readonly RecordedRun[], source: SourceBrief): UnreadSource | null {
  const own = runs.filter((r) => r.integrationId === source.integrationId);
  const last = own[own.length - 1];
  if (!sourceUnreadable(last)) return null;
  return { source, error: last.error ?? 'failed', runs: own.filter((r) => r.outcome === 'failed').map((r) => r.ordinal) };
}

/** The limitation of a source that could not be read: nothing is concluded from it, and no absence is claimed. */
export function unreadLimitation(unread: UnreadSource): LimitationItem {
  return {
    type: 'tool_failure',
    statement: `${unread.source.name} (${unread.source.type}) could not be read: ${unread.error}. Nothing was concluded from it: neither what changed near the onset nor what did not`,
    runRefs: unread.runs,
    messageSequences: [],
  };
}
