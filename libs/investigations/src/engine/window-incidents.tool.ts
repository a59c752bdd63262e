import type { AlertBrief, SessionTool } from '../reasoning/reasoner';
import type { ToolResult, ToolWindow } from '../tools/tool.types';

/** An incident that opened in a turn's window, with the latest phase of each of its alerts. */
export interface WindowIncident {
  id: string;
  title: string;
  status: string;
  labels: Record<string, string>;
  openedAt: string;
  resolvedAt: string | null;
  alerts: AlertBrief[];
}

/** The Organization's incidents that opened in the window: read from the service's data, for questions without an incident. */
export const WINDOW_INCIDENTS_TOOL: SessionTool = {
  name: 'incidents.in_window',
  description:
    "The Organization's incidents that opened in the window, newest first, each with its alerts (labels, annotations, status, start and end). Read it to say which alerts fired and which incidents opened.",
  integrationType: null,
  argumentsSchema: { type: 'object', properties: {}, additionalProperties: false },
};

export function runWindowIncidentsTool(incidents: WindowIncident[], window: ToolWindow): ToolResult {
  const alerts = incidents.flatMap((i) => i.alerts);
  const names = [...new Set(alerts.map((a) => a.labels.alertname ?? 'Alert'))];
  return {
    outcome: 'succeeded',
    summary:
      incidents.length === 0
        ? 'No incident opened in the window'
        : `${incidents.length} incident(s) opened in the window with ${alerts.length} alert(s) (${names.slice(0, 5).join(', ')}${names.length > 5 ? ', …' : ''})`,
    output: incidents.map((i) => ({
      id: i.id,
      title: i.title,
      status: i.status,
      labels: i.labels,
      openedAt: i.openedAt,
      resolvedAt: i.resolvedAt,
      alerts: i.alerts.map((a) => ({
        fingerprint: a.fingerprint,
        status: a.status,
        labels: a.labels,
        annotations: a.annotations,
        startsAt: a.startsAt.toISOString(),
        endsAt: a.endsAt?.toISOString() ?? null,
      })),
    })),
    truncated: false,
    sources: ['incidents opened in the window'],
    window,
  };
}
