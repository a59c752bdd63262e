import { Timestamp } from '@svc/platform';

/**
 * Loki's times are nanoseconds (log lines carry them as decimal strings); the service's Timestamp
 * keeps microseconds. Paging by the last line seen needs the nanosecond, so the Loki tools keep
 * times as bigint nanoseconds and write them as RFC 3339 with nine fractional digits.
 */
const FRACTION = /\.(\d{1,9})(?=Z|z|[+-]\d{2}:\d{2}$)/;

/** RFC 3339 (any offset, up to nine fractional digits) as Unix nanoseconds; null when it is not one. */
export function parseNanos(text: string): bigint | null {
  const whole = Timestamp.parse(text.replace(FRACTION, ''));
  if (!whole) return null;
  const fraction = FRACTION.exec(text)?.[1] ?? '';
  return whole.epochMicros * 1000n + BigInt(fraction.padEnd(9, '0'));
}

export function nanosOf(timestamp: Timestamp): bigint {
  return timestamp.epochMicros * 1000n;
}

/** RFC 3339 UTC with nine fractional digits: `2026-11-22T10:02:03.123456789Z`. */
export function formatNanos(nanos: bigint): string {
  const micros = nanos / 1000n - (nanos < 0n && nanos % 1000n !== 0n ? 1n : 0n);
  const rest = ((nanos % 1000n) + 1000n) % 1000n;
  return Timestamp.fromEpochMicros(micros)
    .toISOString()
    .replace(/Z$/, `${rest.toString().padStart(3, '0')}Z`);
}

/** The Timestamp of a nanosecond instant: rounded down, or up with `ceil` (for the end of a range read). */
export function timestampOf(nanos: bigint, ceil = false): Timestamp {
  const micros = nanos / 1000n;
  return Timestamp.fromEpochMicros(ceil && nanos % 1000n !== 0n ? micros + 1n : micros);
}

/** A log line's time as Loki sends it (a decimal string of nanoseconds); null when it is not one. */
export function lineNanos(value: unknown): bigint | null {
  return typeof value === 'string' && /^\d{1,20}$/.test(value) ? BigInt(value) : null;
}

export const NANOS_PER_SECOND = 1_000_000_000n;
export const NANOS_PER_MINUTE = 60n * NANOS_PER_SECOND;
