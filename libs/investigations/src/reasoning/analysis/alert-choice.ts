import { Timestamp } from '@svc/platform';
import type { AlertBrief, InvestigationSession, RecordedRun, SourceBrief } from '../reasoner';
import { MINUTE, sampleTimes, stepMicros } from '../series-reading';
import type { Analysis } from './state';

/** Severity labels from the most to the least urgent: the tie-breaker between alerts. */
const SEVERITY = ['critical', 'error', 'high', 'warning', 'medium', 'info', 'low', 'none'];
const severityRank = (labels: Record<string, string>): number => {
  const i = SEVERITY.indexOf((labels.severity ?? '').toLowerCase());
  return i < 0 ? SEVERITY.length : i;
};

/** An alert whose condition held this long before another alert's began is chronic, not what started the incident. */
const CHRONIC_LEAD = 60n * MINUTE;

/** The alert chosen: its name, its alerts, and the runs that read its rule and its condition's history (when there was a choice). */
export interface ChosenAlert {
  alertname: string | undefined;
  alerts: AlertBrief[];
  rules?: RecordedRun;
  range?: RecordedRun;
}

/**
 * Which alert to investigate when the incident holds several: the one that started it. Each
 * alert's rule expression is read over the window; an alert whose condition already held when
 * the window began (chronic) or that held in separate episodes (flapping) is left for last, and
 * among the rest the earliest condition wins (the more severe on a tie). The others are named in
 * a limitation and ruled out with the run that showed their history.
 */
export async function chooseAlert(analysis: Analysis, session: InvestigationSession, source: SourceBrief): Promise<ChosenAlert> {
  const names = [...new Set(session.alerts.map((a) => a.labels.alertname).filter((n): n is string => !!n))];
  const alertsOf = (name: string | undefined): AlertBrief[] => (name ? session.alerts.filter((a) => a.labels.alertname === name) : session.alerts);
  if (names.length <= 1) return { alertname: names[0] ?? session.incident!.labels.alertname, alerts: session.alerts };
  // A turn of its own only when there is a choice to read: with one alert nothing is read here.
  session.beginTurn();
  const rules = await session.runTool({
    tool: 'prometheus.alert_rules',
    integrationId: source.integrationId,
    arguments: {},
    purpose: `The conditions of the incident's alerts (${names.join(', ')}), to find the one that started it`,
  });
  const ruleList = rules.outcome === 'succeeded' ? ((rules.output as { rules?: Array<{ name?: string; query?: string }> } | null)?.rules ?? []) : [];
  const histories: Array<{ name: string; run?: RecordedRun; onset: Timestamp | null; chronic: boolean; episodes: number }> = [];
  for (const name of names.slice(0, 4)) {
    const query = ruleList.find((r) => r.name === name)?.query;
    if (!query) {
      histories.push({ name, onset: null, chronic: false, episodes: 0 });
      continue;
    }
    const run = await session.runTool({
      tool: 'prometheus.query_range',
      integrationId: source.integrationId,
      arguments: { query },
      purpose: `Since when, and how steadily, has ${name}'s condition held?`,
    });
    const step = stepMicros(run, 60);
    const times = sampleTimes(run);
    const episodes = times.filter((t, i) => i === 0 || t - times[i - 1] > 2n * step).length;
    const chronic = times.length > 0 && times[0] - session.window.from.epochMicros <= 2n * step;
    histories.push({ name, run, onset: times.length ? Timestamp.fromEpochMicros(times[0]) : null, chronic, episodes });
  }
  // A condition that had held for an hour or more when another alert's began is chronic beside it.
  for (const h of histories) {
    if (h.onset && h.episodes <= 1 && histories.some((g) => g.onset && g.onset.epochMicros - h.onset!.epochMicros >= CHRONIC_LEAD)) h.chronic = true;
  }
  const severity = (name: string): number => Math.min(...alertsOf(name).map((a) => severityRank(a.labels)));
  const steady = (h: (typeof histories)[number]): boolean => !!h.onset && !h.chronic && h.episodes <= 1;
  const order = [...histories].sort(
    (a, b) =>
      Number(steady(b)) - Number(steady(a)) ||
      (a.onset && b.onset && steady(a) ? Number(a.onset.epochMicros - b.onset.epochMicros) : 0) ||
      severity(a.name) - severity(b.name),
  );
  const chosen = order[0];
  for (const h of order.slice(1)) {
    const labels = alertsOf(h.name)[0]?.labels ?? {};
    const why = h.chronic
      ? `its condition had held since ${h.onset!.toISOString()}, an hour or more before ${chosen.name}'s began: a chronic condition`
      : h.episodes > 1
        ? `its condition came and went ${h.episodes} times in the window: a flapping alert`
        : h.onset && chosen.onset
          ? `its condition began at ${h.onset.toISOString()}, after ${chosen.name}'s`
          : 'its condition could not be read';
    analysis.others.push({ alertname: h.name, labels, why, run: h.run });
  }
  analysis.limitations.push({
    type: 'scope',
    statement: `The incident holds ${names.length} alerts; ${chosen.name} was investigated, as the one that started it. Not investigated: ${analysis.others.map((o) => `${o.alertname} (${o.why})`).join('; ')}`,
    runRefs: [rules.ordinal, ...histories.flatMap((h) => (h.run ? [h.run.ordinal] : []))],
    messageSequences: [],
  });
  return { alertname: chosen.name, alerts: alertsOf(chosen.name), rules, range: chosen.run };
}
