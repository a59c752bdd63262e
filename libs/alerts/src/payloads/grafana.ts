import { checkGroupProperties } from './alertmanager';
import {
  checkOptionalNumber,
  checkOptionalObject,
  checkOptionalString,
  describeValue,
  fail,
  JsonObject,
  ParseResult,
  readAlerts,
  readAlertsArray,
  readGroupKey,
  readObject,
  runParser,
} from './normalized-alert';

/**
 * Grafana (unified) alerting webhook payload, version "1"
 * (https://grafana.com/docs/grafana/latest/alerting/configure-notifications/manage-contact-points/integrations/webhook-notifier/).
 * Alertmanager's shape plus orgId, title, state, message and, per alert, silenceURL, dashboardURL,
 * panelURL, imageURL, values and valueString (type-checked, not used).
 */
export function parseGrafanaPayload(body: unknown): ParseResult {
  return runParser((repairs) => {
    const payload = readObject(body, '');
    const version = payload.version;
    if (version !== undefined && version !== null && version !== '1')
      fail(`version must be "1" (Grafana alerting webhook) when present, not ${describeValue(version)}`);
    checkGroupProperties(payload);
    for (const key of ['title', 'state', 'message']) checkOptionalString(payload, key, '');
    checkOptionalNumber(payload, 'orgId', '', 'number');
    if (payload.alerts === undefined && ('evalMatches' in payload || 'ruleId' in payload)) {
      fail('alerts is required; this looks like a legacy Grafana alerting payload, which is not supported (use Grafana alerting webhooks)');
    }
    const groupKey = readGroupKey(payload, '');
    const alerts = readAlerts(readAlertsArray(payload, ''), '', { generatorUrlKey: 'generatorURL', checkExtras: checkGrafanaAlertProperties, repairs });
    return { groupKey, alerts };
  });
}

function checkGrafanaAlertProperties(alert: JsonObject, path: string): void {
  for (const key of ['silenceURL', 'dashboardURL', 'panelURL', 'imageURL', 'valueString']) checkOptionalString(alert, key, path);
  checkOptionalObject(alert, 'values', path);
}
