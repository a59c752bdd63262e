import { count, firstOf } from '../series-name';
import { normalizeTime } from '../tool-time';
import type { ToolDefinition } from '../tool.types';
import { readPrometheus } from './prometheus-api';

export type PrometheusAlertRulesArguments = { state?: 'firing' | 'pending' | 'inactive'; name?: string };

type RawAlert = { labels?: Record<string, string>; annotations?: Record<string, string>; state?: string; activeAt?: string; value?: string };
type RawRule = {
  name?: string;
  query?: string;
  duration?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  alerts?: RawAlert[];
  health?: string;
  lastError?: string;
  state?: string;
  lastEvaluation?: string;
  type?: string;
};
type RulesData = { groups?: Array<{ name?: string; file?: string; rules?: RawRule[] }> };

export const prometheusAlertRulesTool: ToolDefinition<PrometheusAlertRulesArguments> = {
  name: 'prometheus.alert_rules',
  integrationType: 'prometheus',
  description:
    "Lists the alerting rules Prometheus evaluates (Prometheus /api/v1/rules?type=alert): each rule's PromQL expression, `for` duration, labels, " +
    'annotations, state (firing, pending, inactive), evaluation health and its active alerts with their values. ' +
    'Use it to learn exactly what condition an alert checks (then query that expression), and which other alerts fire or are pending now.',
  argumentsSchema: {
    type: 'object',
    properties: {
      state: { type: 'string', enum: ['firing', 'pending', 'inactive'], description: 'Only rules in this state' },
      name: { type: 'string', minLength: 1, maxLength: 1024, description: 'Only the rule with this alert name, e.g. "HighErrorRate"' },
    },
    additionalProperties: false,
  },
  async run(args, context) {
    const { data, source } = await readPrometheus<RulesData>(context, 'api/v1/rules', [['type', 'alert']]);
    const all = (data.groups ?? []).flatMap((group) =>
      (group.rules ?? []).filter((rule) => rule.type === undefined || rule.type === 'alerting').map((rule) => ({ group, rule })),
    );
    const rules = all
      .filter(({ rule }) => (!args.state || rule.state === args.state) && (!args.name || rule.name === args.name))
      .map(({ group, rule }) => ({
        group: group.name ?? '',
        file: group.file ?? '',
        name: rule.name ?? '',
        query: rule.query ?? '',
        forSeconds: rule.duration ?? 0,
        labels: rule.labels ?? {},
        annotations: rule.annotations ?? {},
        state: rule.state ?? 'unknown',
        health: rule.health ?? 'unknown',
        lastError: rule.lastError || null,
        lastEvaluation: normalizeTime(rule.lastEvaluation),
        alerts: (rule.alerts ?? []).map((alert) => ({
          labels: alert.labels ?? {},
          annotations: alert.annotations ?? {},
          state: alert.state ?? 'unknown',
          activeAt: normalizeTime(alert.activeAt),
          value: alert.value ?? null,
        })),
      }));
    const inState = (state: string) => rules.filter((rule) => rule.state === state);
    const firing = inState('firing').map((rule) => `${rule.name}: ${count(rule.alerts.filter((a) => a.state === 'firing').length, 'alert')}`);
    const pending = inState('pending').map((rule) => rule.name);
    const broken = rules.filter((rule) => rule.health !== 'ok' && rule.health !== 'unknown').map((rule) => `${rule.name} (${rule.lastError ?? rule.health})`);
    const filtered = args.state || args.name ? ` (of ${all.length})` : '';
    let summary =
      `${count(rules.length, 'alerting rule')}${filtered}: ${firing.length} firing${firing.length ? ` (${firstOf(firing, 5)})` : ''}, ` +
      `${pending.length} pending${pending.length ? ` (${firstOf(pending, 5)})` : ''}, ${inState('inactive').length} inactive.`;
    if (broken.length) summary += ` ${count(broken.length, 'rule')} failed to evaluate: ${firstOf(broken, 3)}.`;
    return { outcome: 'succeeded', summary, output: { count: rules.length, rules }, truncated: false, sources: [source] };
  },
};
