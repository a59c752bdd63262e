import { describe, expect, it } from 'vitest';
import { parseAlertmanagerPayload } from './alertmanager';
import { fingerprintOf } from './fingerprint';
import { accepted, fixture, Json, rejected } from '../../../../test/support/payload-fixtures';

/** The firing fixture with its first alert changed by `change`. */
function withFirstAlert(change: (alert: Json) => void): Json {
  const body = fixture('alertmanager-firing.json');
  change(body.alerts[0]);
  return body;
}

describe('parseAlertmanagerPayload', () => {
  it('reads a firing group of two alerts', () => {
    const delivery = accepted(parseAlertmanagerPayload(fixture('alertmanager-firing.json')));
    expect(delivery.groupKey).toBe('{}/{severity=~"warning|critical"}:{alertname="KubePodCrashLooping", service="checkout"}');
    expect(delivery.alerts).toHaveLength(2);
    const [first, second] = delivery.alerts;
    expect(first.status).toBe('firing');
    expect(first.fingerprint).toBe('5c1a9e3b7f2d4a61');
    expect(first.labels).toEqual({
      alertname: 'KubePodCrashLooping',
      container: 'checkout',
      namespace: 'shop',
      pod: 'checkout-7d9c6b5f4-x2k8p',
      prometheus: 'monitoring/k8s',
      service: 'checkout',
      severity: 'warning',
    });
    expect(first.annotations.summary).toBe('Pod is crash looping.');
    expect(first.annotations.description).toBe('Pod shop/checkout-7d9c6b5f4-x2k8p (checkout) is in waiting state (reason: "CrashLoopBackOff").');
    expect(first.startsAt.toJSON()).toBe('2026-03-14T09:26:53.631000Z');
    expect(first.endsAt).toBeNull();
    expect(first.generatorUrl).toMatch(/^http:\/\/prometheus\.example\.org:9090\/graph\?g0\.expr=/);
    expect(second.fingerprint).toBe('e08d9f4c31b27a5d');
    // Nanoseconds and an offset: kept to the microsecond, in UTC.
    expect(second.startsAt.toJSON()).toBe('2026-03-14T08:27:23.631537Z');
    expect(second.endsAt).toBeNull();
  });

  it('reads a resolved alert with its endsAt', () => {
    const delivery = accepted(parseAlertmanagerPayload(fixture('alertmanager-resolved.json')));
    expect(delivery.groupKey).toBe('{}/{severity="critical"}:{alertname="ProbeFailure"}');
    expect(delivery.alerts).toHaveLength(1);
    const [alert] = delivery.alerts;
    expect(alert.status).toBe('resolved');
    expect(alert.fingerprint).toBe('1a30ba71cca2921f');
    expect(alert.startsAt.toJSON()).toBe('2026-03-14T08:02:45.828000Z');
    expect(alert.endsAt?.toJSON()).toBe('2026-03-14T08:41:15.828000Z');
  });

  describe('endsAt', () => {
    it('is null for the zero time, in any spelling, whatever the status', () => {
      for (const zero of ['0001-01-01T00:00:00Z', '0001-01-01T00:00:00.000000000Z', '0001-01-01T00:00:00+00:00']) {
        for (const status of ['firing', 'resolved']) {
          const body = withFirstAlert((alert) => Object.assign(alert, { status, endsAt: zero }));
          expect(accepted(parseAlertmanagerPayload(body)).alerts[0].endsAt, `${status} ${zero}`).toBeNull();
        }
      }
    });

    it('is null for a firing alert whose endsAt is the Unix epoch placeholder', () => {
      const body = withFirstAlert((alert) => (alert.endsAt = '1970-01-01T00:00:00Z'));
      expect(accepted(parseAlertmanagerPayload(body)).alerts[0].endsAt).toBeNull();
    });

    it('is null for a resolved alert without one (the receiver uses the receipt time)', () => {
      for (const endsAt of [undefined, null]) {
        const body = fixture('alertmanager-resolved.json');
        body.alerts[0].endsAt = endsAt;
        const [alert] = accepted(parseAlertmanagerPayload(body)).alerts;
        expect(alert.status).toBe('resolved');
        expect(alert.endsAt).toBeNull();
      }
    });

    it('keeps a real endsAt of a firing alert', () => {
      const body = withFirstAlert((alert) => (alert.endsAt = '2026-03-14T10:26:53Z'));
      expect(accepted(parseAlertmanagerPayload(body)).alerts[0].endsAt?.toJSON()).toBe('2026-03-14T10:26:53.000000Z');
    });

    it('must be an RFC 3339 date-time when present', () => {
      expect(rejected(parseAlertmanagerPayload(withFirstAlert((alert) => (alert.endsAt = 'soon'))))).toBe('alerts[0].endsAt must be an RFC 3339 date-time');
      expect(rejected(parseAlertmanagerPayload(withFirstAlert((alert) => (alert.endsAt = 1773480000))))).toBe(
        'alerts[0].endsAt must be an RFC 3339 date-time string',
      );
      expect(rejected(parseAlertmanagerPayload(withFirstAlert((alert) => (alert.endsAt = '2026-03-14'))))).toBe(
        'alerts[0].endsAt must be an RFC 3339 date-time',
      );
    });
  });

  describe('startsAt', () => {
    it('is required and must be an RFC 3339 date-time', () => {
      const missing = fixture('alertmanager-firing.json');
      delete missing.alerts[1].startsAt;
      expect(rejected(parseAlertmanagerPayload(missing))).toBe('alerts[1].startsAt is required and must be an RFC 3339 date-time');
      const bad = fixture('alertmanager-firing.json');
      bad.alerts[1].startsAt = 'yesterday';
      expect(rejected(parseAlertmanagerPayload(bad))).toBe('alerts[1].startsAt must be an RFC 3339 date-time');
      for (const value of ['2026-03-14T09:26:53', '2026-02-30T09:26:53Z', '14/03/2026 09:26', 'x'.repeat(100_000)]) {
        expect(rejected(parseAlertmanagerPayload(withFirstAlert((alert) => (alert.startsAt = value))))).toBe(
          'alerts[0].startsAt must be an RFC 3339 date-time',
        );
      }
      expect(rejected(parseAlertmanagerPayload(withFirstAlert((alert) => (alert.startsAt = {}))))).toBe(
        'alerts[0].startsAt must be an RFC 3339 date-time string',
      );
    });

    it('may not be the zero time', () => {
      expect(rejected(parseAlertmanagerPayload(withFirstAlert((alert) => (alert.startsAt = '0001-01-01T00:00:00Z'))))).toBe(
        'alerts[0].startsAt must be a real date-time, not the zero time or a time before 1970',
      );
    });
  });

  describe('fingerprint', () => {
    it("uses the alert's own fingerprint when it is a non-empty string, else the hash of its labels", () => {
      for (const value of [undefined, null, '']) {
        const body = withFirstAlert((alert) => (alert.fingerprint = value));
        const [alert] = accepted(parseAlertmanagerPayload(body)).alerts;
        expect(alert.fingerprint).toBe(fingerprintOf(body.alerts[0].labels));
        expect(alert.fingerprint).toMatch(/^[0-9a-f]{64}$/);
      }
    });

    it('must be a string', () => {
      expect(rejected(parseAlertmanagerPayload(withFirstAlert((alert) => (alert.fingerprint = 123))))).toBe('alerts[0].fingerprint must be a string');
    });
  });

  describe('version', () => {
    it('must be "4"', () => {
      const missing = fixture('alertmanager-firing.json');
      delete missing.version;
      expect(rejected(parseAlertmanagerPayload(missing))).toBe('version is required and must be "4" (Alertmanager webhook version 4)');
      for (const [version, shown] of [
        ['3', '"3"'],
        ['5', '"5"'],
        [4, 'a number'],
        ['', '""'],
        [['4'], 'an array'],
      ] as const) {
        const body = fixture('alertmanager-firing.json');
        body.version = version;
        expect(rejected(parseAlertmanagerPayload(body))).toBe(`version must be "4" (Alertmanager webhook version 4), not ${shown}`);
      }
    });
  });

  describe('alerts', () => {
    it('must be a non-empty array of objects', () => {
      const body = fixture('alertmanager-firing.json');
      delete body.alerts;
      expect(rejected(parseAlertmanagerPayload(body))).toBe('alerts is required and must be an array of alerts');
      body.alerts = {};
      expect(rejected(parseAlertmanagerPayload(body))).toBe('alerts must be an array of alerts');
      body.alerts = [];
      expect(rejected(parseAlertmanagerPayload(body))).toBe('alerts must contain at least one alert');
      const second = fixture('alertmanager-firing.json');
      second.alerts[1] = 'alert';
      expect(rejected(parseAlertmanagerPayload(second))).toBe('alerts[1] must be a JSON object');
    });

    it('each has status firing or resolved', () => {
      expect(rejected(parseAlertmanagerPayload(withFirstAlert((alert) => delete alert.status)))).toBe(
        'alerts[0].status is required and must be "firing" or "resolved"',
      );
      expect(rejected(parseAlertmanagerPayload(withFirstAlert((alert) => (alert.status = 'pending'))))).toBe('alerts[0].status must be "firing" or "resolved"');
      expect(rejected(parseAlertmanagerPayload(withFirstAlert((alert) => (alert.status = 'FIRING'))))).toBe('alerts[0].status must be "firing" or "resolved"');
    });
  });

  describe('labels and annotations', () => {
    it('labels are a required, non-empty object of strings, kept exactly', () => {
      expect(rejected(parseAlertmanagerPayload(withFirstAlert((alert) => delete alert.labels)))).toBe(
        'alerts[0].labels is required and must be an object of string values',
      );
      expect(rejected(parseAlertmanagerPayload(withFirstAlert((alert) => (alert.labels = ['a']))))).toBe('alerts[0].labels must be an object of string values');
      expect(rejected(parseAlertmanagerPayload(withFirstAlert((alert) => (alert.labels = {}))))).toBe('alerts[0].labels must contain at least one label');
      expect(rejected(parseAlertmanagerPayload(withFirstAlert((alert) => (alert.labels.severity = 3))))).toBe('alerts[0].labels.severity must be a string');
      expect(rejected(parseAlertmanagerPayload(withFirstAlert((alert) => (alert.labels['app.kubernetes.io/name'] = null))))).toBe(
        'alerts[0].labels["app.kubernetes.io/name"] must be a string',
      );
      expect(rejected(parseAlertmanagerPayload(withFirstAlert((alert) => (alert.labels.ok = true))))).toBe('alerts[0].labels.ok must be a string');
      expect(rejected(parseAlertmanagerPayload(withFirstAlert((alert) => (alert.labels.nested = { a: 'b' }))))).toBe(
        'alerts[0].labels.nested must be a string',
      );

      const spaced = withFirstAlert((alert) => (alert.labels = { ' alertname ': '  Padded\t', empty: '' }));
      expect(accepted(parseAlertmanagerPayload(spaced)).alerts[0].labels).toEqual({ ' alertname ': '  Padded\t', empty: '' });
    });

    it('annotations are optional (absent or null is empty) but must be an object of strings', () => {
      for (const annotations of [undefined, null, {}]) {
        expect(accepted(parseAlertmanagerPayload(withFirstAlert((alert) => (alert.annotations = annotations)))).alerts[0].annotations).toEqual({});
      }
      expect(rejected(parseAlertmanagerPayload(withFirstAlert((alert) => (alert.annotations = 'text'))))).toBe(
        'alerts[0].annotations must be an object of string values',
      );
      expect(rejected(parseAlertmanagerPayload(withFirstAlert((alert) => (alert.annotations.value = 0.93))))).toBe(
        'alerts[0].annotations.value must be a string',
      );
    });

    it('replaces NUL and unpaired surrogates in values by U+FFFD, noting it; refuses them in names', () => {
      const repaired = accepted(
        parseAlertmanagerPayload(
          withFirstAlert((alert) => {
            alert.labels.pod = 'a\u0000b';
            alert.annotations.summary = 'x\ud800';
          }),
        ),
      );
      expect(repaired.alerts[0].labels.pod).toBe('a\ufffdb');
      expect(repaired.alerts[0].annotations.summary).toBe('x\ufffd');
      expect(repaired.repairs).toEqual([
        'alerts[0].labels.pod: NUL or lone surrogates replaced by U+FFFD',
        'alerts[0].annotations.summary: NUL or lone surrogates replaced by U+FFFD',
      ]);
      expect(rejected(parseAlertmanagerPayload(withFirstAlert((alert) => (alert.labels['\udc00x'] = 'v'))))).toBe(
        'alerts[0].labels must not contain a label name that is not valid Unicode text or contains NUL characters',
      );
      const clean = accepted(parseAlertmanagerPayload(withFirstAlert((alert) => (alert.labels.pod = '💾 ok'))));
      expect(clean.alerts[0].labels.pod).toBe('💾 ok');
      expect(clean.repairs).toBeUndefined();
    });

    it('keeps a label named __proto__ as an ordinary label', () => {
      const body = JSON.parse(
        '{"version":"4","alerts":[{"status":"firing","labels":{"__proto__":"x","alertname":"A"},"annotations":{"__proto__":"y"},"startsAt":"2026-03-14T09:26:53Z"}]}',
      );
      const [alert] = accepted(parseAlertmanagerPayload(body)).alerts;
      expect(Object.keys(alert.labels)).toEqual(['__proto__', 'alertname']);
      expect(Object.getOwnPropertyDescriptor(alert.labels, '__proto__')?.value).toBe('x');
      expect(Object.getPrototypeOf(alert.labels)).toBe(Object.prototype);
      expect(Object.getOwnPropertyDescriptor(alert.annotations, '__proto__')?.value).toBe('y');
    });
  });

  describe('generatorURL', () => {
    it('keeps http(s) URLs and drops empty or non-web ones', () => {
      expect(
        accepted(parseAlertmanagerPayload(withFirstAlert((alert) => (alert.generatorURL = 'https://p.example/graph?g0.expr=up')))).alerts[0].generatorUrl,
      ).toBe('https://p.example/graph?g0.expr=up');
      for (const url of [undefined, null, '', 'javascript:alert(1)', '/graph?g0.expr=up', 'prometheus:9090/graph', 'http://']) {
        expect(accepted(parseAlertmanagerPayload(withFirstAlert((alert) => (alert.generatorURL = url)))).alerts[0].generatorUrl, String(url)).toBeNull();
      }
    });

    it('must be a string', () => {
      expect(rejected(parseAlertmanagerPayload(withFirstAlert((alert) => (alert.generatorURL = ['http://x']))))).toBe(
        'alerts[0].generatorURL must be a string',
      );
    });
  });

  describe('group properties', () => {
    it('ignores unknown properties at the top and in alerts', () => {
      const body = fixture('alertmanager-firing.json');
      body.addedInV9 = { anything: [1, 2] };
      body.alerts[0].newField = 42;
      body.alerts[1].labels_extra = null;
      expect(accepted(parseAlertmanagerPayload(body)).alerts).toHaveLength(2);
    });

    it('rejects wrong types of the properties it knows, even unused ones', () => {
      const cases: [string, unknown, string][] = [
        ['truncatedAlerts', '0', 'truncatedAlerts must be a non-negative integer'],
        ['truncatedAlerts', -1, 'truncatedAlerts must be a non-negative integer'],
        ['truncatedAlerts', 1.5, 'truncatedAlerts must be a non-negative integer'],
        ['receiver', 7, 'receiver must be a string'],
        ['status', false, 'status must be a string'],
        ['externalURL', {}, 'externalURL must be a string'],
        ['groupLabels', 'alertname', 'groupLabels must be an object of string values'],
        ['commonLabels', { severity: 2 }, 'commonLabels.severity must be a string'],
        ['commonAnnotations', [], 'commonAnnotations must be an object of string values'],
        ['groupKey', 17, 'groupKey must be a string'],
      ];
      for (const [key, value, message] of cases) {
        const body = fixture('alertmanager-firing.json');
        body[key] = value;
        expect(rejected(parseAlertmanagerPayload(body)), key).toBe(message);
      }
    });

    it('accepts truncatedAlerts above zero and reads an empty or absent groupKey as null', () => {
      const body = fixture('alertmanager-firing.json');
      body.truncatedAlerts = 12;
      body.groupKey = '';
      expect(accepted(parseAlertmanagerPayload(body)).groupKey).toBeNull();
      delete body.groupKey;
      expect(accepted(parseAlertmanagerPayload(body)).groupKey).toBeNull();
    });

    it('needs a JSON object body', () => {
      for (const body of [null, undefined, [], 'x', 42, true]) {
        expect(rejected(parseAlertmanagerPayload(body))).toBe('body must be a JSON object');
      }
    });
  });
});
