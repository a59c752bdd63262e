/**
 * What a person scanning a list of incidents needs of each: the alert that names it, its service
 * and namespace, and the highest severity among its alerts.
 *
 * The naming alert is the most severe, newest alert that is not chronic. An alert is chronic beside
 * the others when it had begun an hour or more before the latest of them began (the rule the
 * built-in reasoner applies to alert conditions): a warning that has fired all week names no
 * incident that a rollout started this morning.
 */
export interface IncidentTriage {
  headline: string;
  severity: string | null;
  service: string | null;
  namespace: string | null;
}

/** The latest phase of one of an incident's alerts. */
export interface TriageAlert {
  labels: Record<string, string>;
  annotations: Record<string, string>;
  /** Milliseconds since the epoch. */
  startsAt: number;
}

const CHRONIC_LEAD_MS = 60 * 60_000;

/** Severity label values, most severe first, as Prometheus rules, PagerDuty and Opsgenie write them. */
const SEVERITY_RANK: Record<string, number> = {
  emergency: 9,
  fatal: 9,
  critical: 8,
  p1: 8,
  sev1: 8,
  page: 7,
  high: 6,
  p2: 6,
  sev2: 6,
  error: 5,
  major: 5,
  warning: 4,
  warn: 4,
  medium: 4,
  p3: 4,
  sev3: 4,
  minor: 3,
  low: 3,
  p4: 3,
  info: 2,
  informational: 2,
  notice: 2,
  p5: 2,
  none: 1,
};

/** The labels that name a workload, in the order people name services by. */
export const SERVICE_LABELS = ['service', 'app_kubernetes_io_name', 'app', 'job', 'deployment', 'statefulset', 'daemonset', 'container', 'workload'];
const NAMESPACE_LABELS = ['namespace', 'exported_namespace', 'kubernetes_namespace'];

const severityOf = (alert: TriageAlert): string | null => alert.labels.severity ?? alert.labels.priority ?? null;
const rank = (severity: string | null): number => (severity ? (SEVERITY_RANK[severity.toLowerCase()] ?? 0) : -1);
const firstLabel = (labels: Record<string, string>, names: string[]): string | null => names.map((n) => labels[n]).find((v) => v) ?? null;

/** The incident's triage from its alerts' latest phases; `fallback` (its stored title) when it has none. */
export function triageOf(alerts: TriageAlert[], fallback: string): IncidentTriage {
  if (alerts.length === 0) return { headline: fallback, severity: null, service: null, namespace: null };
  const latestStart = Math.max(...alerts.map((a) => a.startsAt));
  const chronic = (a: TriageAlert) => latestStart - a.startsAt >= CHRONIC_LEAD_MS;
  const [naming] = [...alerts].sort((a, b) => Number(chronic(a)) - Number(chronic(b)) || rank(severityOf(b)) - rank(severityOf(a)) || b.startsAt - a.startsAt);
  const severities = alerts.map(severityOf).filter((s): s is string => s !== null);
  const severity = severities.sort((a, b) => rank(b) - rank(a))[0] ?? null;
  const service = firstLabel(naming.labels, SERVICE_LABELS) ?? alerts.map((a) => firstLabel(a.labels, SERVICE_LABELS)).find((v) => v) ?? null;
  const namespace = firstLabel(naming.labels, NAMESPACE_LABELS) ?? alerts.map((a) => firstLabel(a.labels, NAMESPACE_LABELS)).find((v) => v) ?? null;
  const name = naming.labels.alertname ?? 'Alert';
  const headline = naming.annotations.summary ?? naming.annotations.title ?? (service ? `${name} (${service})` : name);
  return { headline: headline.slice(0, 1024), severity, service, namespace };
}
