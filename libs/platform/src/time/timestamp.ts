import { performance } from 'node:perf_hooks';

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|z|[+-]\d{2}:\d{2})$/;
const POSTGRES = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?([+-]\d{2})(?::?(\d{2}))?(?::?(\d{2}))?$/;

/**
 * An instant with microsecond precision: what PostgreSQL's timestamptz holds and what the contract
 * serializes (`2026-11-22T02:13:21.123456Z`). A JavaScript Date keeps only milliseconds, so the
 * database driver hands these out instead (see timestamp-type-parser.ts) and takes them back
 * through `toPostgres`.
 */
export class Timestamp {
  private constructor(readonly epochMicros: bigint) {}

  static fromEpochMicros(micros: bigint): Timestamp {
    return new Timestamp(micros);
  }

  static fromDate(date: Date): Timestamp {
    return new Timestamp(BigInt(date.getTime()) * 1000n);
  }

  static now(): Timestamp {
    return new Timestamp(BigInt(Math.round((performance.timeOrigin + performance.now()) * 1000)));
  }

  /** Parses RFC 3339 with any offset; returns null for anything else (callers turn that into a 400). */
  static parse(text: string): Timestamp | null {
    const m = RFC3339.exec(text);
    if (!m) return null;
    const [, y, mo, d, h, mi, s, frac = '', zone] = m;
    const offsetMinutes = zone.toUpperCase() === 'Z' ? 0 : (zone[0] === '-' ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6)));
    return Timestamp.fromParts(y, mo, d, h, mi, s, frac, offsetMinutes);
  }

  /** Parses PostgreSQL's text output for timestamptz (`2026-11-22 02:13:21.123456+00`). */
  static fromPostgres(text: string): Timestamp {
    const m = POSTGRES.exec(text);
    if (!m) throw new Error(`Unexpected timestamptz text: ${text}`);
    const [, y, mo, d, h, mi, s, frac = '', oh, om = '0', os = '0'] = m;
    const sign = oh[0] === '-' ? -1 : 1;
    const offsetSeconds = sign * (Math.abs(Number(oh)) * 3600 + Number(om) * 60 + Number(os));
    const ts = Timestamp.fromParts(y, mo, d, h, mi, s, frac, 0);
    if (!ts) throw new Error(`Unexpected timestamptz text: ${text}`);
    return new Timestamp(ts.epochMicros - BigInt(offsetSeconds) * 1_000_000n);
  }

  private static fromParts(y: string, mo: string, d: string, h: string, mi: string, s: string, frac: string, offsetMinutes: number): Timestamp | null {
    const month = Number(mo),
      day = Number(d),
      hour = Number(h),
      minute = Number(mi),
      second = Number(s);
    if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) return null;
    // Date.UTC reads years 0-99 as 1900-1999; setUTCFullYear takes the year as written.
    const date = new Date(0);
    date.setUTCFullYear(Number(y), month - 1, day);
    date.setUTCHours(hour, minute, Math.min(second, 59), 0);
    const millis = date.getTime();
    if (Number.isNaN(millis) || date.getUTCDate() !== day) return null;
    const micros = BigInt((frac + '000000').slice(0, 6));
    return new Timestamp(BigInt(millis) * 1000n + micros - BigInt(offsetMinutes) * 60_000_000n);
  }

  plusSeconds(seconds: number): Timestamp {
    return new Timestamp(this.epochMicros + BigInt(Math.round(seconds * 1_000_000)));
  }

  isBefore(other: Timestamp): boolean {
    return this.epochMicros < other.epochMicros;
  }

  isAfter(other: Timestamp): boolean {
    return this.epochMicros > other.epochMicros;
  }

  /** Seconds from this instant to `later` (negative when `later` is earlier). */
  secondsUntil(later: Timestamp): number {
    return Number(later.epochMicros - this.epochMicros) / 1_000_000;
  }

  toDate(): Date {
    return new Date(Number(this.epochMicros / 1000n));
  }

  toISOString(): string {
    const millis = this.epochMicros / 1000n - (this.epochMicros < 0n && this.epochMicros % 1000n !== 0n ? 1n : 0n);
    const micros = ((this.epochMicros % 1_000_000n) + 1_000_000n) % 1_000_000n;
    const base = new Date(Number(millis)).toISOString().slice(0, 19);
    return `${base}.${micros.toString().padStart(6, '0')}Z`;
  }

  toJSON(): string {
    return this.toISOString();
  }

  toString(): string {
    return this.toISOString();
  }

  /** Used by node-postgres when a Timestamp is a query parameter. */
  toPostgres(): string {
    return this.toISOString();
  }
}
