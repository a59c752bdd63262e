import { Timestamp } from '@svc/platform';
import { ToolFailure } from './tool-failure';

/** An RFC 3339 argument, or the fallback when the argument was left out. */
export function argumentTime(value: string | undefined, fallback: Timestamp, field: string): Timestamp {
  if (value === undefined) return fallback;
  const parsed = Timestamp.parse(value);
  if (!parsed) throw new ToolFailure(`Invalid arguments: ${field} must be an RFC 3339 timestamp such as 2026-01-02T03:04:05Z`);
  return parsed;
}

/** The `start`/`end` arguments of a tool that reads a time range (the investigation's window by default). */
export const RANGE_ARGUMENTS = {
  start: { type: 'string', format: 'date-time', description: "RFC 3339 (default: the start of the investigation's window)" },
  end: { type: 'string', format: 'date-time', description: "RFC 3339 (default: the end of the investigation's window)" },
} as const;

/** The range a tool reads: its `start`/`end` arguments, or the window; start must not be after end. */
export function argumentRange(args: { start?: string; end?: string }, window: { from: Timestamp; until: Timestamp }): { start: Timestamp; end: Timestamp } {
  const start = argumentTime(args.start, window.from, 'start');
  const end = argumentTime(args.end, window.until, 'end');
  if (start.isAfter(end)) throw new ToolFailure(`Invalid arguments: start (${start.toISOString()}) must not be after end (${end.toISOString()})`);
  return { start, end };
}

/** Prometheus sample times are float seconds (millisecond precision). */
export function fromUnixSeconds(seconds: number): string {
  return Timestamp.fromEpochMicros(BigInt(Math.round(seconds * 1000)) * 1000n).toISOString();
}

const GO_ZERO_TIME = /^0001-01-01T00:00:00/;

/** An RFC 3339 time from an API answer in UTC with microseconds; Go's zero time (never) is null. */
export function normalizeTime(value: unknown): string | null {
  if (typeof value !== 'string' || !value || GO_ZERO_TIME.test(value)) return null;
  return Timestamp.parse(value)?.toISOString() ?? value;
}
