import { describe, expect, it } from 'vitest';
import { Timestamp } from '@svc/platform';
import { parseAlertmanagerPayload } from './alertmanager';
import { parseGenericPayload } from './generic';
import { parseGrafanaPayload } from './grafana';
import { PAYLOAD_FORMATS, ParseResult, PayloadFormat } from './normalized-alert';
import { parsePayload } from './parse-payload';
import { fixture, Json } from '../../../../test/support/payload-fixtures';

const RECEIVED_AT = Timestamp.parse('2026-03-14T09:30:00Z')!;

function expectWellFormedError(result: ParseResult, label: string): void {
  expect(result.ok, label).toBe(false);
  if (!result.ok) {
    expect(typeof result.error, label).toBe('string');
    expect(result.error.length, label).toBeGreaterThan(0);
    expect(result.error.length, label).toBeLessThanOrEqual(1024);
  }
}

describe('parsePayload', () => {
  it('dispatches to the parser of each format', () => {
    const cases: [PayloadFormat, string, ParseResult][] = [
      ['alertmanager', 'alertmanager-firing.json', parseAlertmanagerPayload(fixture('alertmanager-firing.json'))],
      ['alertmanager', 'alertmanager-resolved.json', parseAlertmanagerPayload(fixture('alertmanager-resolved.json'))],
      ['grafana', 'grafana-firing.json', parseGrafanaPayload(fixture('grafana-firing.json'))],
      ['grafana', 'grafana-resolved.json', parseGrafanaPayload(fixture('grafana-resolved.json'))],
      ['generic', 'generic-single.json', parseGenericPayload(fixture('generic-single.json'), RECEIVED_AT)],
      ['generic', 'generic-multi.json', parseGenericPayload(fixture('generic-multi.json'), RECEIVED_AT)],
    ];
    for (const [format, name, direct] of cases) {
      const result = parsePayload(format, fixture(name), RECEIVED_AT);
      expect(result.ok, name).toBe(true);
      expect(result, name).toEqual(direct);
    }
  });

  it('keeps each format to its own shape', () => {
    expect(parsePayload('alertmanager', fixture('grafana-firing.json'))).toEqual({
      ok: false,
      error: 'version must be "4" (Alertmanager webhook version 4), not "1"',
    });
    expect(parsePayload('grafana', fixture('alertmanager-firing.json'))).toEqual({
      ok: false,
      error: 'version must be "1" (Grafana alerting webhook) when present, not "4"',
    });
    expect(parsePayload('alertmanager', fixture('generic-single.json'))).toEqual({
      ok: false,
      error: 'version is required and must be "4" (Alertmanager webhook version 4)',
    });
    // Alertmanager's payload is a valid generic payload: its unknown properties are ignored.
    expect(parsePayload('generic', fixture('alertmanager-firing.json')).ok).toBe(true);
  });

  it('defaults the receipt time to now', () => {
    const before = Timestamp.now();
    const result = parsePayload('generic', { labels: { alertname: 'A' } });
    const after = Timestamp.now();
    expect(result.ok).toBe(true);
    if (result.ok) {
      const { startsAt } = result.delivery.alerts[0];
      expect(startsAt.isBefore(before)).toBe(false);
      expect(startsAt.isAfter(after)).toBe(false);
    }
  });

  it('returns an error for an unknown format', () => {
    expect(parsePayload('opsgenie' as PayloadFormat, fixture('generic-single.json'))).toEqual({
      ok: false,
      error: 'the integration has an unknown payload format',
    });
  });

  it('returns errors for junk bodies in every format and never throws', () => {
    const junk: unknown[] = [
      null,
      undefined,
      [],
      [{}],
      'x',
      '',
      42,
      0,
      true,
      false,
      { alerts: 'no' },
      { alerts: {} },
      { alerts: [null] },
      { alerts: [[]] },
      { alerts: [42] },
      {},
    ];
    for (const format of PAYLOAD_FORMATS) {
      for (const body of junk) {
        expectWellFormedError(parsePayload(format, body, RECEIVED_AT), `${format} ${JSON.stringify(body)}`);
      }
    }
    expect(parsePayload('generic', null)).toEqual({ ok: false, error: 'body must be a JSON object' });
    expect(parsePayload('generic', [])).toEqual({ ok: false, error: 'body must be a JSON object' });
    expect(parsePayload('generic', 'x')).toEqual({ ok: false, error: 'body must be a JSON object' });
    expect(parsePayload('generic', 42)).toEqual({ ok: false, error: 'body must be a JSON object' });
    expect(parsePayload('generic', { alerts: 'no' })).toEqual({ ok: false, error: 'alerts must be an array of alerts' });
    expect(parsePayload('alertmanager', { version: '4', alerts: 'no' })).toEqual({ ok: false, error: 'alerts must be an array of alerts' });
    expect(parsePayload('grafana', { alerts: 'no' })).toEqual({ ok: false, error: 'alerts must be an array of alerts' });
  });

  it('reports the holes of a sparse alerts array', () => {
    const alerts: unknown[] = [{ labels: { alertname: 'A' } }];
    alerts[2] = { labels: { alertname: 'B' } };
    expect(parsePayload('generic', { alerts }, RECEIVED_AT)).toEqual({ ok: false, error: 'alerts[1] must be a JSON object' });
  });

  it('never throws, even for bodies no JSON parser produces', () => {
    const hostile = new Proxy(
      {},
      {
        get() {
          throw new Error('boom');
        },
        ownKeys() {
          throw new Error('boom');
        },
      },
    );
    const throwingLabels = { alerts: [{ status: 'firing', startsAt: '2026-03-14T09:00:00Z', labels: hostile }], version: '4' };
    const cyclic: Json = { version: '4', alerts: [] };
    cyclic.alerts.push(cyclic);
    for (const format of PAYLOAD_FORMATS) {
      for (const body of [hostile, throwingLabels, cyclic, Symbol('s'), () => 1, 10n, new Date(), new Map()]) {
        expect(() => parsePayload(format, body, RECEIVED_AT)).not.toThrow();
        expectWellFormedError(parsePayload(format, body, RECEIVED_AT), format);
      }
    }
    expect(parsePayload('alertmanager', hostile)).toEqual({ ok: false, error: 'body could not be read as an alert payload' });
  });

  it('never throws on randomly mutated real payloads', () => {
    let seed = 20260314;
    const random = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)];
    const junkValues: unknown[] = [
      null,
      0,
      -1,
      1.5,
      '',
      'x',
      '0001-01-01T00:00:00Z',
      '2026-03-14T09:00:00Z',
      'firing',
      'resolved',
      [],
      {},
      [1],
      { a: 1 },
      true,
      '\u0000',
    ];
    const mutate = (value: Json, depth: number): Json => {
      if (depth > 4 || value === null || typeof value !== 'object') return random() < 0.2 ? pick(junkValues) : value;
      const keys = Object.keys(value);
      if (keys.length === 0) return value;
      const key = pick(keys);
      const roll = random();
      if (roll < 0.2) delete value[key];
      else if (roll < 0.4) value[key] = pick(junkValues);
      else value[key] = mutate(value[key], depth + 1);
      return value;
    };
    const sources: [PayloadFormat, string][] = [
      ['alertmanager', 'alertmanager-firing.json'],
      ['alertmanager', 'alertmanager-resolved.json'],
      ['grafana', 'grafana-firing.json'],
      ['grafana', 'grafana-resolved.json'],
      ['generic', 'generic-single.json'],
      ['generic', 'generic-multi.json'],
    ];
    let rejectedCount = 0;
    for (let i = 0; i < 3000; i++) {
      const [sourceFormat, name] = pick(sources);
      const format = random() < 0.8 ? sourceFormat : pick([...PAYLOAD_FORMATS]);
      let body = fixture(name);
      for (let m = 1 + Math.floor(random() * 3); m > 0; m--) body = mutate(body, 0);
      let result: ParseResult | undefined;
      expect(() => (result = parsePayload(format, body, RECEIVED_AT))).not.toThrow();
      if (result && !result.ok) {
        rejectedCount++;
        expect(result.error.length).toBeGreaterThan(0);
        expect(result.error.length).toBeLessThanOrEqual(1024);
      } else if (result?.ok) {
        expect(result.delivery.alerts.length).toBeGreaterThan(0);
        for (const alert of result.delivery.alerts) {
          expect(alert.startsAt).toBeInstanceOf(Timestamp);
          expect(['firing', 'resolved']).toContain(alert.status);
          expect(alert.fingerprint.length).toBeGreaterThan(0);
        }
      }
    }
    expect(rejectedCount).toBeGreaterThan(0);
  });
});
