import type { Timestamp } from '@svc/platform';

/** What a number measures, for writing it as a person would. */
export type Unit = 'rps' | 'ratio' | 'seconds' | 'cores' | 'bytes' | 'count';

/** `v` to three significant digits, without float noise: 0.0123, 41.2, 1230. */
export function significant(v: number, digits = 3): string {
  return Number.isFinite(v) ? String(Number(v.toPrecision(digits))) : String(v);
}

const BYTE_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];

/** A value with its unit, as a person writes it: `41.2 req/s`, `3.4%`, `412 ms`, `1.2 s`, `0.25 cores`, `512 MiB`. */
export function quantity(v: number, unit: Unit): string {
  switch (unit) {
    case 'rps':
      return `${significant(v)} req/s`;
    case 'count':
      return significant(v);
    case 'ratio':
      return `${significant(v * 100)}%`;
    case 'seconds':
      return Math.abs(v) < 1 ? `${significant(v * 1000)} ms` : `${significant(v)} s`;
    case 'cores':
      return `${significant(v)} ${Math.abs(v) === 1 ? 'core' : 'cores'}`;
    case 'bytes': {
      let i = 0;
      let x = v;
      while (Math.abs(x) >= 1024 && i < BYTE_UNITS.length - 1) {
        x /= 1024;
        i++;
      }
      return `${significant(x)} ${BYTE_UNITS[i]}`;
    }
  }
}

/** A time of day in UTC, to the minute, with the zone named: `05:01 UTC`; the date too when it is not `day`'s. */
export function clock(t: Timestamp, day?: Timestamp): string {
  const iso = t.toISOString();
  const time = `${iso.slice(11, 16)} UTC`;
  return day && day.toISOString().slice(0, 10) === iso.slice(0, 10) ? time : `${iso.slice(0, 10)} ${time}`;
}
