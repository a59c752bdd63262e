import { getJson } from '../http-json';
import { count, firstOf } from '../series-name';
import { normalizeTime } from '../tool-time';
import type { ToolDefinition } from '../tool.types';

export type AlertmanagerAlertsArguments = { filter?: string[]; active?: boolean; silenced?: boolean; inhibited?: boolean; receiver?: string };

type RawAlert = {
  fingerprint?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  startsAt?: string;
  endsAt?: string;
  updatedAt?: string;
  generatorURL?: string;
  receivers?: Array<{ name?: string }>;
  status?: { state?: string; silencedBy?: string[]; inhibitedBy?: string[] };
};

export const alertmanagerAlertsTool: ToolDefinition<AlertmanagerAlertsArguments> = {
  name: 'alertmanager.alerts',
  integrationType: 'alertmanager',
  description:
    'Lists the alerts Alertmanager currently holds (Alertmanager API v2 /api/v2/alerts) with labels, annotations, start time, state ' +
    '(active, suppressed, unprocessed) and the silences or alerts that suppress them. ' +
    'Use it to see what else is alerting now, e.g. related alerts on the same service, cluster or instance, and whether something is silenced. ' +
    'Filter with Alertmanager matchers such as alertname="HighLatency" or service=~"checkout|cart".',
  argumentsSchema: {
    type: 'object',
    properties: {
      filter: {
        type: 'array',
        minItems: 1,
        maxItems: 16,
        items: { type: 'string', minLength: 1, maxLength: 4096 },
        description: 'Matchers an alert must all satisfy, e.g. ["alertname=\\"DiskFull\\"", "severity=~\\"page|critical\\""]',
      },
      active: { type: 'boolean', description: 'Include active alerts (default true)' },
      silenced: { type: 'boolean', description: 'Include silenced alerts (default true)' },
      inhibited: { type: 'boolean', description: 'Include inhibited alerts (default true)' },
      receiver: { type: 'string', minLength: 1, maxLength: 1024, description: 'Only alerts routed to receivers matching this regular expression' },
    },
    additionalProperties: false,
  },
  async run(args, context) {
    const query: Array<readonly [string, string]> = (args.filter ?? []).map((matcher) => ['filter', matcher] as const);
    for (const flag of ['active', 'silenced', 'inhibited'] as const) if (args[flag] !== undefined) query.push([flag, String(args[flag])]);
    if (args.receiver) query.push(['receiver', args.receiver]);
    const { body, source } = await getJson(context, 'api/v2/alerts', query);
    const alerts = (Array.isArray(body) ? (body as RawAlert[]) : []).map((alert) => ({
      fingerprint: alert.fingerprint ?? null,
      labels: alert.labels ?? {},
      annotations: alert.annotations ?? {},
      state: alert.status?.state ?? 'unknown',
      silencedBy: alert.status?.silencedBy ?? [],
      inhibitedBy: alert.status?.inhibitedBy ?? [],
      startsAt: normalizeTime(alert.startsAt),
      endsAt: normalizeTime(alert.endsAt),
      updatedAt: normalizeTime(alert.updatedAt),
      receivers: (alert.receivers ?? []).map((receiver) => receiver.name ?? ''),
      generatorURL: alert.generatorURL || null,
    }));
    const states = ['active', 'suppressed', 'unprocessed']
      .map((state) => [state, alerts.filter((a) => a.state === state).length] as const)
      .filter(([, n]) => n > 0);
    const byName = new Map<string, number>();
    for (const alert of alerts) byName.set(alert.labels.alertname ?? '(no alertname)', (byName.get(alert.labels.alertname ?? '(no alertname)') ?? 0) + 1);
    const names = [...byName].sort((a, b) => b[1] - a[1]).map(([name, n]) => `${name} (${n})`);
    const summary = alerts.length
      ? `${count(alerts.length, 'alert')}: ${states.map(([s, n]) => `${n} ${s}`).join(', ')}. By alertname: ${firstOf(names, 8)}.`
      : 'No alerts matched.';
    return { outcome: 'succeeded', summary, output: { count: alerts.length, alerts }, truncated: false, sources: [source] };
  },
};
