import {
  checkOptionalNumber,
  checkOptionalString,
  checkOptionalStringMap,
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
 * Prometheus Alertmanager webhook payload, version 4
 * (https://prometheus.io/docs/alerting/latest/configuration/#webhook_config).
 * Per alert: status, labels, annotations, startsAt, endsAt (the zero time while firing),
 * generatorURL, fingerprint. Unknown properties are ignored; known ones must have their type.
 */
export function parseAlertmanagerPayload(body: unknown): ParseResult {
  return runParser((repairs) => {
    const payload = readObject(body, '');
    const version = payload.version;
    if (version === undefined || version === null) fail('version is required and must be "4" (Alertmanager webhook version 4)');
    if (version !== '4') fail(`version must be "4" (Alertmanager webhook version 4), not ${describeValue(version)}`);
    checkGroupProperties(payload);
    const groupKey = readGroupKey(payload, '');
    const alerts = readAlerts(readAlertsArray(payload, ''), '', { generatorUrlKey: 'generatorURL', repairs });
    return { groupKey, alerts };
  });
}

/** The group-level properties Alertmanager and Grafana share and this service does not use: type checks only. */
export function checkGroupProperties(payload: JsonObject): void {
  for (const key of ['status', 'receiver', 'externalURL']) checkOptionalString(payload, key, '');
  for (const key of ['groupLabels', 'commonLabels', 'commonAnnotations']) checkOptionalStringMap(payload, key, '');
  checkOptionalNumber(payload, 'truncatedAlerts', '', 'integer');
}
