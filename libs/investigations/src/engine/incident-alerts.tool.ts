import type { AlertBrief, SessionTool } from '../reasoning/reasoner';
import type { ToolResult, ToolWindow } from '../tools/tool.types';

/** The incident's own alert events: read from the service's data, not from an integration. */
export const INCIDENT_ALERTS_TOOL: SessionTool = {
  name: 'incident.alert_events',
  description:
    "The alerts of the incident under investigation: each alert's labels, annotations (summary, description, runbook), status, and when it started and resolved. Read it first: the alert names and labels say which rule fired and for which service.",
  integrationType: null,
  argumentsSchema: {
    type: 'object',
    properties: { status: { type: 'string', enum: ['firing', 'resolved'], description: 'Only alerts in this state' } },
    additionalProperties: false,
  },
};

export function runIncidentAlertsTool(alerts: AlertBrief[], args: Record<string, unknown>, window: ToolWindow): ToolResult {
  const status = args.status === 'firing' || args.status === 'resolved' ? args.status : undefined;
  const picked = alerts.filter((a) => !status || a.status === status);
  const firing = picked.filter((a) => a.status === 'firing').length;
  const first = picked.reduce<AlertBrief | undefined>((earliest, a) => (!earliest || earliest.startsAt.isAfter(a.startsAt) ? a : earliest), undefined);
  const names = [...new Set(picked.map((a) => a.labels.alertname ?? 'Alert'))];
  return {
    outcome: 'succeeded',
    summary:
      picked.length === 0
        ? 'No alerts'
        : `${picked.length} alert(s) (${names.slice(0, 5).join(', ')}): ${firing} firing, ${picked.length - firing} resolved; first started at ${first!.startsAt.toISOString()}`,
    output: picked.map((a) => ({
      fingerprint: a.fingerprint,
      status: a.status,
      labels: a.labels,
      annotations: a.annotations,
      startsAt: a.startsAt.toISOString(),
      endsAt: a.endsAt?.toISOString() ?? null,
      generatorUrl: a.generatorUrl,
    })),
    truncated: false,
    sources: ['incident alert events'],
    window,
  };
}
