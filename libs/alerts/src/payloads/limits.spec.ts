import { describe, expect, it } from 'vitest';
import { Timestamp } from '@svc/platform';
import { ALERT_PAYLOAD_LIMITS, ParseResult, PayloadFormat } from './normalized-alert';
import { parsePayload } from './parse-payload';

type Json = any;

const RECEIVED_AT = Timestamp.parse('2026-03-14T09:30:00Z')!;

/** A valid body of `format` holding `alerts` (each completed with the fields its format requires). */
function bodyOf(format: PayloadFormat, alerts: Json[], top: Json = {}): Json {
  const complete = alerts.map((alert) => ({ status: 'firing', startsAt: '2026-03-14T09:00:00Z', ...alert }));
  if (format === 'alertmanager') return { version: '4', status: 'firing', receiver: 'svc', groupKey: '{}:{}', alerts: complete, ...top };
  if (format === 'grafana') return { version: '1', status: 'firing', receiver: 'svc', orgId: 1, alerts: complete, ...top };
  return { alerts: complete, ...top };
}

function urlKey(format: PayloadFormat): string {
  return format === 'generic' ? 'generatorUrl' : 'generatorURL';
}

function parse(format: PayloadFormat, body: Json): ParseResult {
  return parsePayload(format, body, RECEIVED_AT);
}

function error(result: ParseResult): string | null {
  return result.ok ? null : result.error;
}

function labelsOf(count: number): Record<string, string> {
  return Object.fromEntries(Array.from({ length: count }, (_, i) => [`label_${i}`, `value-${i}`]));
}

const FORMATS: PayloadFormat[] = ['alertmanager', 'grafana', 'generic'];

describe.each(FORMATS)('limits (%s)', (format) => {
  it('accepts 1000 alerts and rejects 1001', () => {
    const alerts = (count: number) => Array.from({ length: count }, (_, i) => ({ labels: { alertname: 'Flood', n: String(i) } }));
    const result = parse(format, bodyOf(format, alerts(ALERT_PAYLOAD_LIMITS.maxAlerts)));
    expect(result.ok && result.delivery.alerts.length).toBe(1000);
    expect(error(parse(format, bodyOf(format, alerts(1001))))).toBe('alerts must contain at most 1000 alerts');
  });

  it('accepts 256 labels per alert and rejects 257', () => {
    expect(error(parse(format, bodyOf(format, [{ labels: labelsOf(256) }])))).toBeNull();
    expect(error(parse(format, bodyOf(format, [{ labels: labelsOf(257) }])))).toBe('alerts[0].labels must contain at most 256 labels');
  });

  it('accepts label names of 1-256 characters', () => {
    expect(error(parse(format, bodyOf(format, [{ labels: { a: 'x' } }])))).toBeNull();
    expect(error(parse(format, bodyOf(format, [{ labels: { ['n'.repeat(256)]: 'x' } }])))).toBeNull();
    expect(error(parse(format, bodyOf(format, [{ labels: { ['n'.repeat(257)]: 'x' } }])))).toBe(
      'alerts[0].labels must not contain a label name longer than 256 characters',
    );
    expect(error(parse(format, bodyOf(format, [{ labels: { '': 'x', alertname: 'A' } }])))).toBe('alerts[0].labels must not contain an empty label name');
  });

  it('keeps label values up to 4096 characters and truncates longer ones with the marker', () => {
    const at = parse(format, bodyOf(format, [{ labels: { alertname: 'v'.repeat(4096) } }]));
    expect(at.ok && at.delivery.alerts[0].labels.alertname).toBe('v'.repeat(4096));
    expect(at.ok && at.delivery.repairs).toBeUndefined();
    const over = parse(format, bodyOf(format, [{ labels: { alertname: 'v'.repeat(4097) } }]));
    expect(over.ok && [...over.delivery.alerts[0].labels.alertname].length).toBe(4096);
    expect(over.ok && over.delivery.alerts[0].labels.alertname.endsWith('v…[truncated]')).toBe(true);
    expect(over.ok && over.delivery.repairs).toEqual(['alerts[0].labels.alertname: truncated from 4097 to 4096 characters']);
  });

  it('counts characters as code points, not UTF-16 units', () => {
    // 4096 emoji are 8192 UTF-16 units.
    expect(error(parse(format, bodyOf(format, [{ labels: { alertname: '💾'.repeat(4096) } }])))).toBeNull();
    const over = parse(format, bodyOf(format, [{ labels: { alertname: '💾'.repeat(4097) } }]));
    expect(over.ok && [...over.delivery.alerts[0].labels.alertname].length).toBe(4096);
    expect(error(parse(format, bodyOf(format, [{ labels: { ['é'.repeat(256)]: 'x' } }])))).toBeNull();
  });

  it('keeps annotation values up to 32768 characters and truncates longer ones with the marker', () => {
    expect(error(parse(format, bodyOf(format, [{ labels: { alertname: 'A' }, annotations: { description: 'd'.repeat(32768) } }])))).toBeNull();
    const over = parse(format, bodyOf(format, [{ labels: { alertname: 'A' }, annotations: { description: 'd'.repeat(40000) } }]));
    expect(over.ok && over.delivery.alerts[0].annotations.description).toBe(`${'d'.repeat(32768 - 12)}…[truncated]`);
    expect(over.ok && over.delivery.repairs).toEqual(['alerts[0].annotations.description: truncated from 40000 to 32768 characters']);
  });

  it('accepts 256 annotations with names up to 256 characters', () => {
    expect(error(parse(format, bodyOf(format, [{ labels: { alertname: 'A' }, annotations: labelsOf(256) }])))).toBeNull();
    expect(error(parse(format, bodyOf(format, [{ labels: { alertname: 'A' }, annotations: labelsOf(257) }])))).toBe(
      'alerts[0].annotations must contain at most 256 annotations',
    );
    expect(error(parse(format, bodyOf(format, [{ labels: { alertname: 'A' }, annotations: { ['n'.repeat(256)]: '' } }])))).toBeNull();
    expect(error(parse(format, bodyOf(format, [{ labels: { alertname: 'A' }, annotations: { ['n'.repeat(257)]: '' } }])))).toBe(
      'alerts[0].annotations must not contain an annotation name longer than 256 characters',
    );
  });

  it('accepts a generator URL up to 2048 characters', () => {
    const url = (length: number) => `https://prometheus.example.org/graph?g0.expr=${'x'.repeat(length - 45)}`;
    expect(url(2048)).toHaveLength(2048);
    const result = parse(format, bodyOf(format, [{ labels: { alertname: 'A' }, [urlKey(format)]: url(2048) }]));
    expect(result.ok && result.delivery.alerts[0].generatorUrl).toBe(url(2048));
    expect(error(parse(format, bodyOf(format, [{ labels: { alertname: 'A' }, [urlKey(format)]: url(2049) }])))).toBe(
      `alerts[0].${urlKey(format)} must be at most 2048 characters`,
    );
  });

  it('accepts a fingerprint up to 256 characters', () => {
    const result = parse(format, bodyOf(format, [{ labels: { alertname: 'A' }, fingerprint: 'f'.repeat(256) }]));
    expect(result.ok && result.delivery.alerts[0].fingerprint).toBe('f'.repeat(256));
    expect(error(parse(format, bodyOf(format, [{ labels: { alertname: 'A' }, fingerprint: 'f'.repeat(257) }])))).toBe(
      'alerts[0].fingerprint must be at most 256 characters',
    );
  });

  it('accepts a groupKey up to 4096 characters', () => {
    const result = parse(format, bodyOf(format, [{ labels: { alertname: 'A' } }], { groupKey: 'g'.repeat(4096) }));
    expect(result.ok && result.delivery.groupKey).toBe('g'.repeat(4096));
    expect(error(parse(format, bodyOf(format, [{ labels: { alertname: 'A' } }], { groupKey: 'g'.repeat(4097) })))).toBe(
      'groupKey must be at most 4096 characters',
    );
  });

  it('keeps error messages within the error body limit of 1024 characters', () => {
    const oddName = '"\u0001'.repeat(2000);
    const message = error(parse(format, bodyOf(format, [{ labels: { alertname: 'A', [oddName.slice(0, 200)]: 1 } }])));
    expect(message).toMatch(/^alerts\[0\]\.labels\["/);
    expect(message!.length).toBeLessThanOrEqual(1024);
  });
});
