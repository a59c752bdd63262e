import { Timestamp } from '@svc/platform';
import { fail, ParseResult, readAlert, readAlerts, readAlertsArray, readGroupKey, readObject, runParser } from './normalized-alert';

/**
 * This service's own documented format (docs/alert-payloads.md), for any sender:
 * `{alerts: [{status?, labels, annotations?, startsAt?, endsAt?, generatorUrl?, fingerprint?}], groupKey?}`,
 * or one such alert object at the top level (optionally with `groupKey`). `status` defaults to
 * firing and `startsAt` to `receivedAt`.
 */
export function parseGenericPayload(body: unknown, receivedAt: Timestamp): ParseResult {
  return runParser((repairs) => {
    const payload = readObject(body, '');
    const options = { generatorUrlKey: 'generatorUrl', defaults: { status: 'firing', startsAt: receivedAt }, repairs } as const;
    const groupKey = readGroupKey(payload, '');
    if (payload.alerts !== undefined) {
      return { groupKey, alerts: readAlerts(readAlertsArray(payload, ''), '', options) };
    }
    if (payload.labels === undefined) fail('alerts is required and must be an array of alerts (or send a single alert object with labels)');
    return { groupKey, alerts: [readAlert(payload, '', options)] };
  });
}
