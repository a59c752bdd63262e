import { Timestamp } from '@svc/platform';
import { parseAlertmanagerPayload } from './alertmanager';
import { parseGenericPayload } from './generic';
import { parseGrafanaPayload } from './grafana';
import { ParseResult, PayloadFormat } from './normalized-alert';

/**
 * Turns a webhook body (already JSON-parsed; anything at all) into normalized alerts. Never throws:
 * a payload that breaks a rule gives `{ok: false, error}` with one sentence naming the field,
 * meant for a 400 response.
 *
 * @param receivedAt the receipt time, the default `startsAt` of generic alerts.
 */
export function parsePayload(format: PayloadFormat, body: unknown, receivedAt: Timestamp = Timestamp.now()): ParseResult {
  try {
    switch (format) {
      case 'alertmanager':
        return parseAlertmanagerPayload(body);
      case 'grafana':
        return parseGrafanaPayload(body);
      case 'generic':
        return parseGenericPayload(body, receivedAt);
      default:
        return { ok: false, error: 'the integration has an unknown payload format' };
    }
  } catch {
    return { ok: false, error: 'body could not be read as an alert payload' };
  }
}
