import { useSyncExternalStore } from 'react';

/**
 * One clock for the whole console: every instant shown goes through `formatTime` in the zone the
 * person chose (UTC, or the browser's own zone), remembered in this browser, with the zone named.
 */
export type ZoneSetting = 'UTC' | 'local';

const KEY = 'svc.timeZone';
const listeners = new Set<() => void>();

function stored(): ZoneSetting {
  try {
    return localStorage.getItem(KEY) === 'local' ? 'local' : 'UTC';
  } catch {
    return 'UTC';
  }
}

let setting: ZoneSetting = stored();

export function setTimeZone(value: ZoneSetting): void {
  setting = value;
  try {
    localStorage.setItem(KEY, value);
  } catch {
    // A browser that keeps nothing still shows the chosen zone until the page is left.
  }
  for (const listener of listeners) listener();
}

/** The chosen zone; a component that calls it shows times again when the choice changes. */
export function useTimeZone(): ZoneSetting {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => setting,
  );
}

/** The IANA name of the browser's own zone ("Europe/Berlin"). */
export const localZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;

const timeZone = (): string => (setting === 'UTC' ? 'UTC' : localZone());

/** The chosen zone as a person reads it: "UTC", or "Europe/Berlin". */
export const zoneLabel = (): string => timeZone();

const formats = new Map<string, Intl.DateTimeFormat>();
function format(kind: 'full' | 'minute' | 'clock' | 'input'): Intl.DateTimeFormat {
  const zone = timeZone();
  const key = `${kind}|${zone}`;
  let found = formats.get(key);
  if (!found) {
    const date = { year: 'numeric', month: 'short', day: 'numeric' } as const;
    const options: Record<typeof kind, Intl.DateTimeFormatOptions> = {
      full: { ...date, hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23', timeZoneName: 'short' },
      minute: { ...date, hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZoneName: 'short' },
      clock: { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' },
      input: { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' },
    };
    found = new Intl.DateTimeFormat(kind === 'input' ? 'en-CA' : undefined, { ...options[kind], timeZone: zone });
    formats.set(key, found);
  }
  return found;
}

/** An RFC 3339 instant from the API as a Date (fractions beyond milliseconds dropped); null when it is not one. */
export function instantOf(value: string | null | undefined): Date | null {
  if (!value) return null;
  const date = new Date(value.replace(/(\.\d{3})\d+/, '$1'));
  return Number.isNaN(date.getTime()) ? null : date;
}

/** An instant in the chosen zone, the zone named: "Nov 26, 2026, 05:00:57 UTC"; "—" when there is none. */
export function formatTime(value: string | null | undefined, precision: 'second' | 'minute' = 'second'): string {
  const date = instantOf(value);
  return date ? format(precision === 'second' ? 'full' : 'minute').format(date) : '—';
}

/** The time of day in the chosen zone ("05:00"), for axes and tables whose heading names the zone. */
export function formatClock(date: Date): string {
  return format('clock').format(date);
}

/** A span as a person says it: "45 s", "12 min", "3 h 5 min", "2 d 4 h". */
export function formatDuration(ms: number): string {
  const seconds = Math.round(Math.abs(ms) / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
  const days = Math.floor(hours / 24);
  return hours % 24 ? `${days} d ${hours % 24} h` : `${days} d`;
}

/** Where `value` lies from `reference`: "12 min before the first alert", "at the first alert". */
export function formatRelative(value: string, reference: string, what: string): string {
  const a = instantOf(value);
  const b = instantOf(reference);
  if (!a || !b) return '';
  const ms = a.getTime() - b.getTime();
  if (Math.abs(ms) < 30_000) return `at ${what}`;
  return `${formatDuration(ms)} ${ms < 0 ? 'before' : 'after'} ${what}`;
}

const ISO_INSTANT = /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})/g;

/** Text with every RFC 3339 instant it quotes written in the chosen zone. */
export function withLocalTimes(text: string): string {
  return text.replace(ISO_INSTANT, (found) => (instantOf(found) ? formatTime(found) : found));
}

/** A `datetime-local` input's value ("2026-11-26T05:00"), read in the chosen zone, as an RFC 3339 instant. */
export function fromInput(value: string): string | undefined {
  if (!value) return undefined;
  if (setting === 'UTC') return new Date(`${value}:00Z`).toISOString();
  return new Date(value).toISOString();
}

/** An instant as a `datetime-local` input's value in the chosen zone. */
export function toInput(value: string | undefined): string {
  const date = instantOf(value);
  if (!date) return '';
  const parts = Object.fromEntries(
    format('input')
      .formatToParts(date)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour === '24' ? '00' : parts.hour}:${parts.minute}`;
}
