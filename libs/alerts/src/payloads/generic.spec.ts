import { describe, expect, it } from 'vitest';
import { Timestamp } from '@svc/platform';
import { fingerprintOf } from './fingerprint';
import { parseGenericPayload } from './generic';
import { ParseResult } from './normalized-alert';
import { accepted, fixture, rejected } from '../../../../test/support/payload-fixtures';

const RECEIVED_AT = Timestamp.parse('2026-03-14T09:30:00.123456Z')!;

function parse(body: unknown): ParseResult {
  return parseGenericPayload(body, RECEIVED_AT);
}

describe('parseGenericPayload', () => {
  it('reads a single alert object at the top level as a one-alert delivery', () => {
    const delivery = accepted(parse(fixture('generic-single.json')));
    expect(delivery.groupKey).toBeNull();
    expect(delivery.alerts).toHaveLength(1);
    const [alert] = delivery.alerts;
    expect(alert.status).toBe('firing');
    expect(alert.labels).toEqual({ alertname: 'DiskAlmostFull', service: 'billing-db', host: 'db-3.internal', severity: 'critical' });
    expect(alert.annotations.summary).toBe('/var/lib/postgresql is 96% full on db-3.internal');
    expect(alert.startsAt.toJSON()).toBe('2026-03-14T07:15:00.000000Z');
    expect(alert.endsAt).toBeNull();
    expect(alert.generatorUrl).toBe('https://monitoring.example.org/checks/disk/db-3');
    expect(alert.fingerprint).toBe(fingerprintOf(alert.labels));
  });

  it('reads a multi-alert delivery with its groupKey, own fingerprints and defaults', () => {
    const delivery = accepted(parse(fixture('generic-multi.json')));
    expect(delivery.groupKey).toBe('nightly-batch/etl');
    expect(delivery.alerts).toHaveLength(3);
    const [failed, late, resolved] = delivery.alerts;
    expect(failed.fingerprint).toBe('etl/import-orders');
    expect(failed.startsAt.toJSON()).toBe('2026-03-14T02:00:12.500000Z');
    expect(failed.generatorUrl).toBe('https://scheduler.example.org/jobs/import-orders/runs/8841');
    // Only labels given: firing, started at receipt, fingerprint from the labels.
    expect(late).toEqual({
      fingerprint: fingerprintOf({ alertname: 'JobLate', service: 'etl', job: 'export-ledger' }),
      status: 'firing',
      labels: { alertname: 'JobLate', service: 'etl', job: 'export-ledger' },
      annotations: {},
      startsAt: RECEIVED_AT,
      endsAt: null,
      generatorUrl: null,
    });
    expect(resolved.status).toBe('resolved');
    expect(resolved.startsAt.toJSON()).toBe('2026-03-13T23:40:00.000000Z');
    expect(resolved.endsAt?.toJSON()).toBe('2026-03-14T01:05:30.000000Z');
  });

  it('takes groupKey on a single top-level alert too', () => {
    expect(accepted(parse({ groupKey: 'db', labels: { alertname: 'A' } })).groupKey).toBe('db');
    expect(accepted(parse({ groupKey: '', labels: { alertname: 'A' } })).groupKey).toBeNull();
    expect(rejected(parse({ groupKey: 1, labels: { alertname: 'A' } }))).toBe('groupKey must be a string');
    expect(rejected(parse({ groupKey: ['a'], alerts: [{ labels: { alertname: 'A' } }] }))).toBe('groupKey must be a string');
  });

  it('defaults status to firing and startsAt to the receipt time; null counts as absent', () => {
    const [alert] = accepted(
      parse({ labels: { alertname: 'A' }, status: null, startsAt: null, endsAt: null, annotations: null, generatorUrl: null, fingerprint: null }),
    ).alerts;
    expect(alert.status).toBe('firing');
    expect(alert.startsAt).toBe(RECEIVED_AT);
    expect(alert.endsAt).toBeNull();
    expect(alert.annotations).toEqual({});
    expect(alert.generatorUrl).toBeNull();
    expect(alert.fingerprint).toBe(fingerprintOf({ alertname: 'A' }));
  });

  it('treats a zero-time startsAt as absent and a zero-time endsAt as null', () => {
    const [alert] = accepted(
      parse({ labels: { alertname: 'A' }, status: 'resolved', startsAt: '0001-01-01T00:00:00Z', endsAt: '0001-01-01T00:00:00Z' }),
    ).alerts;
    expect(alert.startsAt).toBe(RECEIVED_AT);
    expect(alert.endsAt).toBeNull();
  });

  it('requires at least one label', () => {
    expect(rejected(parse({ alerts: [{ status: 'firing' }] }))).toBe('alerts[0].labels is required and must be an object of string values');
    expect(rejected(parse({ alerts: [{ labels: { alertname: 'A' } }, { labels: {} }] }))).toBe('alerts[1].labels must contain at least one label');
    expect(rejected(parse({ labels: {} }))).toBe('labels must contain at least one label');
    expect(rejected(parse({ status: 'firing', annotations: { summary: 'x' } }))).toBe(
      'alerts is required and must be an array of alerts (or send a single alert object with labels)',
    );
    expect(rejected(parse({}))).toBe('alerts is required and must be an array of alerts (or send a single alert object with labels)');
  });

  it('names fields without an alerts[] prefix for a top-level alert', () => {
    expect(rejected(parse({ labels: { alertname: 'A' }, startsAt: 'now' }))).toBe('startsAt must be an RFC 3339 date-time');
    expect(rejected(parse({ labels: { alertname: 'A' }, status: 'ok' }))).toBe('status must be "firing" or "resolved"');
    expect(rejected(parse({ labels: { alertname: 1 } }))).toBe('labels.alertname must be a string');
    expect(rejected(parse({ labels: { alertname: 'A' }, annotations: { n: 1 } }))).toBe('annotations.n must be a string');
    expect(rejected(parse({ labels: { alertname: 'A' }, endsAt: 5 }))).toBe('endsAt must be an RFC 3339 date-time string');
    expect(rejected(parse({ labels: { alertname: 'A' }, generatorUrl: 5 }))).toBe('generatorUrl must be a string');
    expect(rejected(parse({ labels: { alertname: 'A' }, fingerprint: {} }))).toBe('fingerprint must be a string');
  });

  it('validates each alert of an alerts array', () => {
    expect(rejected(parse({ alerts: 'no' }))).toBe('alerts must be an array of alerts');
    expect(rejected(parse({ alerts: null }))).toBe('alerts must be an array of alerts');
    expect(rejected(parse({ alerts: [] }))).toBe('alerts must contain at least one alert');
    expect(rejected(parse({ alerts: [{ labels: { alertname: 'A' } }, 'B'] }))).toBe('alerts[1] must be a JSON object');
    expect(rejected(parse({ alerts: [{ labels: { alertname: 'A' } }, { labels: { alertname: 'B' }, startsAt: '2026-03-14 25:00:00Z' }] }))).toBe(
      'alerts[1].startsAt must be an RFC 3339 date-time',
    );
  });

  it("uses the generic spelling generatorUrl; Alertmanager's generatorURL is an unknown property here", () => {
    const [alert] = accepted(parse({ labels: { alertname: 'A' }, generatorURL: 'https://x.example/' })).alerts;
    expect(alert.generatorUrl).toBeNull();
  });

  it('ignores unknown properties (version, receiver, per-alert extras)', () => {
    const body = fixture('generic-multi.json');
    body.version = 7;
    body.receiver = { any: 'thing' };
    body.alerts[0].severity = 'critical';
    expect(accepted(parse(body)).alerts).toHaveLength(3);
    expect(accepted(parse({ labels: { alertname: 'A' }, source: 'cron', value: 3 })).alerts).toHaveLength(1);
  });

  it('keeps a real endsAt on a firing alert, and the own fingerprint over the labels hash', () => {
    const [alert] = accepted(parse({ labels: { alertname: 'A' }, endsAt: '2026-03-14T10:00:00+01:00', fingerprint: 'mine' })).alerts;
    expect(alert.endsAt?.toJSON()).toBe('2026-03-14T09:00:00.000000Z');
    expect(alert.fingerprint).toBe('mine');
  });
});
