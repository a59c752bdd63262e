import { ToolFailure } from '../tool-failure';
import type { ToolWindow } from '../tool.types';
import { formatNanos, nanosOf, parseNanos, timestampOf } from './nanos';

/** The `start`/`end` arguments of the Loki tools: RFC 3339, to the nanosecond, within the investigation's window. */
export const LOKI_RANGE_ARGUMENTS = {
  start: {
    type: 'string',
    format: 'date-time',
    description: "RFC 3339, up to nanoseconds (default: the start of the investigation's window; must lie within it)",
  },
  end: {
    type: 'string',
    format: 'date-time',
    description: "RFC 3339, up to nanoseconds, exclusive (default: the end of the investigation's window; must lie within it)",
  },
} as const;

export interface NanoRange {
  start: bigint;
  end: bigint;
  /** The range as a run's window (microseconds, widened to hold it). */
  window: ToolWindow;
}

/**
 * The range a Loki tool reads: its arguments or the investigation's window, start before end, and
 * within the window: the tools read the incident's logs, not any time an argument names, so a read
 * stays as bounded as the window is.
 */
export function lokiRange(args: { start?: string; end?: string }, window: ToolWindow): NanoRange {
  const from = nanosOf(window.from);
  const until = nanosOf(window.until);
  const read = (value: string | undefined, fallback: bigint, field: string) => {
    if (value === undefined) return fallback;
    const parsed = parseNanos(value);
    if (parsed === null) throw new ToolFailure(`Invalid arguments: ${field} must be an RFC 3339 timestamp such as 2026-01-02T03:04:05Z`);
    return parsed;
  };
  const start = read(args.start, from, 'start');
  const end = read(args.end, until, 'end');
  if (start >= end) throw new ToolFailure(`Invalid arguments: start (${formatNanos(start)}) must be before end (${formatNanos(end)})`);
  if (start < from || end > until)
    throw new ToolFailure(
      `Invalid arguments: start and end must lie within the investigation's window, ${window.from.toISOString()} to ${window.until.toISOString()}`,
    );
  return { start, end, window: { from: timestampOf(start), until: timestampOf(end, true) } };
}
