import type { Conclusion, FindingItem, LimitationItem, StoppedBy } from '../conclusion.types';
import type { Timestamp } from '@svc/platform';
import { clock, quantity, significant, Unit } from './questions/format';
import type { InvestigationSession, RecordedRun, SourceBrief } from './reasoner';
import { pointsOf, seriesOf } from './series-reading';

/** Words of a question that name nothing by themselves: what is left names a service, job or alert. */
const COMMON_WORDS = new Set(
  (
    'a about after all also am an and any anything are around as at be been before being between both but by can could day days did do does doing done down during each ' +
    'else ever every everything for from get got had has have having hello hey hi hour hours how i if in into is it its just know last let like look made make many may me ' +
    'meant mean minute minutes more most much my no not now of off ok okay on once one only or other our out over past please right same see seen seems should show since ' +
    'so some something status tell than thanks that the their them then there these they this those through to today too up us very want was we were what whats when where ' +
    'which while who why will with would yes yesterday you your week weeks morning night ago recently recent currently current going happen happened happening ' +
    'alert alerts alerting fire fired firing incident incidents service services job jobs app application system systems production prod cluster ' +
    'error errors latency latencies rate rates traffic request requests saturation saturated cpu memory restart restarts restarted crash crashed crashing ' +
    'slow slower failing fail failed failure failures issue issues problem problems wrong broken outage spike spikes high higher low lower increase increased ' +
    'drop dropped cause caused causes causing root reason because explain healthy health check checked doing fine ok'
  ).split(' '),
);
const ASKS_FOR_CAUSE = /\b(why|cause[sd]?|causing|root|reason|because|explain)\b/i;
const MAX_TARGETS = 3;
const MAX_LISTED = 10;

interface WindowIncidentOut {
  id: string;
  title: string;
  status: string;
  openedAt: string;
  alerts: Array<{ status: string; labels: Record<string, string> }>;
}

/** The words of a question that may name something: not common words, not numbers or times. */
export function namesIn(question: string): string[] {
  const words = question
    .toLowerCase()
    .split(/[^a-z0-9_.:-]+/)
    .map((w) => w.replace(/^[.:-]+|[.:-]+$/g, '').replace(/'s$/, ''))
    .filter((w) => w.length >= 3 && !/^[\d:.-]+$/.test(w) && !COMMON_WORDS.has(w));
  return [...new Set(words)];
}

/** Whether a label value is what a word of the question names: equal, or one of its parts. */
export function names(word: string, value: string): boolean {
  const v = value.toLowerCase();
  return v === word || v.split(/[-_.:/]+/).includes(word) || v.replace(/[-_.:/]+/g, '') === word.replace(/[-_.:/]+/g, '');
}

const listed = (values: string[]) => (values.length ? `${values.slice(0, MAX_LISTED).join(', ')}${values.length > MAX_LISTED ? ', …' : ''}` : 'none');
const valuesOf = (run: RecordedRun | undefined): string[] =>
  run?.outcome === 'succeeded' ? ((run.output as { values?: unknown[] } | null)?.values ?? []).map(String) : [];

/** What one metric of a service showed, and the run that read it. */
interface Reading {
  statement: string;
  run: RecordedRun;
}

/**
 * The built-in reasoner's answer to a question without an incident: which alerts fired and which
 * incidents opened in the window, and, for the services or jobs the question names (matched
 * against Prometheus label values), their request rate, errors, latency, CPU use and
 * restarts. When the question names something none of the sources knows, it asks the person
 * which of the services, jobs or alerts it found they mean (the turn ends `needs_input`).
 */
export class BuiltInQuestion {
  private readonly limitations: LimitationItem[] = [];
  private readonly findings: FindingItem[] = [];
  private incidentsRun: RecordedRun | undefined;

  async answer(session: InvestigationSession): Promise<Conclusion> {
    const question = this.questionText(session);
    session.beginTurn();
    this.incidentsRun = await session.runTool({
      tool: 'incidents.in_window',
      integrationId: null,
      arguments: {},
      purpose: 'Which alerts fired and which incidents opened in the window',
    });
    const incidents = this.incidentsRun.outcome === 'succeeded' ? ((this.incidentsRun.output as WindowIncidentOut[] | null) ?? []) : [];
    const alertNames = [...new Set(incidents.flatMap((i) => i.alerts.map((a) => a.labels.alertname)).filter((n): n is string => !!n))];
    const prometheus = session.sources.find((s) => s.type === 'prometheus');
    const words = namesIn(question);

    let jobs: string[] = [];
    let services: string[] = [];
    const catalogRuns: number[] = [this.incidentsRun.ordinal];
    if (prometheus && words.length) {
      session.beginTurn();
      const jobRun = await this.labelValues(session, prometheus, 'job');
      const serviceRun = await this.labelValues(session, prometheus, 'service');
      jobs = valuesOf(jobRun);
      services = valuesOf(serviceRun);
      catalogRuns.push(jobRun.ordinal, serviceRun.ordinal);
    }
    const targets = [
      ...jobs.filter((j) => words.some((w) => names(w, j))).map((value) => ({ label: 'job', value })),
      ...services.filter((s) => words.some((w) => names(w, s))).map((value) => ({ label: 'service', value })),
    ];
    const matchedAlerts = alertNames.filter((a) => words.some((w) => names(w, a)));
    const resolved = (w: string) => targets.some((t) => names(w, t.value)) || matchedAlerts.some((a) => names(w, a));
    const unresolved = words.filter((w) => !resolved(w));

    if (words.length > 0 && targets.length === 0 && matchedAlerts.length === 0) {
      const ask =
        `I could not find ${unresolved.map((w) => `"${w}"`).join(', ')} among the Organization's sources. Which of these do you mean? ` +
        `Services: ${listed(services)}. Jobs: ${listed(jobs)}. Alerts in the window: ${listed(alertNames)}.` +
        (prometheus ? '' : ' (No Prometheus integration is connected, so services and jobs cannot be listed.)');
      return {
        question: ask,
        conclusionStatus: 'inconclusive',
        summary: ask,
        impact: { summary: 'Not assessed: the question names nothing the sources know', runRefs: catalogRuns },
        findings: [],
        hypotheses: [],
        actions: [],
        limitations: [
          { type: 'scope', statement: `Nothing named ${unresolved.join(', ')} was found in the sources`, runRefs: catalogRuns, messageSequences: [] },
        ],
      };
    }
    if (unresolved.length)
      this.limitations.push({
        type: 'scope',
        statement: `Nothing named ${unresolved.join(', ')} was found in the sources; the answer covers ${listed([...targets.map((t) => t.value), ...matchedAlerts])}`,
        runRefs: catalogRuns,
        messageSequences: [],
      });
    const readings: Reading[] = [];
    for (const target of targets.slice(0, MAX_TARGETS)) {
      session.beginTurn();
      readings.push(...(await this.signals(session, prometheus!, target)));
    }
    if (targets.length > MAX_TARGETS)
      this.limitations.push({
        type: 'scope',
        statement: `Only the first ${MAX_TARGETS} of ${targets.length} matching services and jobs were read`,
        runRefs: catalogRuns,
        messageSequences: [],
      });
    return this.conclusion(session, question, incidents, readings, null);
  }

  async concludeEarly(session: InvestigationSession, stoppedBy: StoppedBy): Promise<Conclusion> {
    return this.conclusion(session, this.questionText(session), [], [], stoppedBy);
  }

  /** The question and, when the previous turn asked the person something, the question before it. */
  private questionText(session: InvestigationSession): string {
    const conversation = session.conversation;
    if (!conversation) return session.subject;
    const earlier = conversation.turns[conversation.turns.length - 1];
    if (earlier?.status !== 'needs_input') return session.subject;
    const asked = [...conversation.messages].reverse().find((m) => m.role === 'user');
    return asked ? `${session.subject}\n${ASKS_FOR_CAUSE.test(asked.text) ? 'why' : ''}` : session.subject;
  }

  private labelValues(session: InvestigationSession, source: SourceBrief, label: string): Promise<RecordedRun> {
    return session.runTool({
      tool: 'prometheus.label_values',
      integrationId: source.integrationId,
      arguments: { label },
      purpose: `Which values of ${label} exist, to match the names in the question`,
    });
  }

  /** Rate, errors, latency, saturation and restarts of one service or job, from the metrics it has. */
  private async signals(session: InvestigationSession, source: SourceBrief, target: { label: string; value: string }): Promise<Reading[]> {
    const selector = `${target.label}=${JSON.stringify(target.value)}`;
    const who = `${target.label} ${target.value}`;
    const metricsRun = await session.runTool({
      tool: 'prometheus.label_values',
      integrationId: source.integrationId,
      arguments: { label: '__name__', match: [`{${selector}}`] },
      purpose: `Which metrics ${who} has`,
    });
    const metrics = valuesOf(metricsRun);
    const pick = (pattern: RegExp) => metrics.find((m) => pattern.test(m));
    const requests = pick(/_requests_total$/);
    const errors = pick(/_errors_total$/);
    const latency = pick(/_duration_seconds_bucket$/);
    const queries: Array<{ signal: string; query: string | null; missing: string; unit: Unit | 'errors' | 'count' }> = [
      { signal: 'request rate', unit: 'rps', query: requests ? `sum(rate(${requests}{${selector}}[5m]))` : null, missing: 'no *_requests_total metric' },
      {
        signal: 'error rate',
        unit: 'errors',
        query: errors ? `sum(rate(${errors}{${selector}}[5m]))` : requests ? `sum(rate(${requests}{${selector}, code=~"5.."}[5m]))` : null,
        missing: 'no *_errors_total or *_requests_total metric',
      },
      {
        signal: 'p99 latency',
        unit: 'seconds',
        query: latency ? `histogram_quantile(0.99, sum by (le) (rate(${latency}{${selector}}[5m])))` : null,
        missing: 'no *_duration_seconds_bucket histogram',
      },
      {
        signal: 'CPU use',
        unit: 'cores',
        query: metrics.includes('process_cpu_seconds_total') ? `sum(rate(process_cpu_seconds_total{${selector}}[5m]))` : null,
        missing: 'no process_cpu_seconds_total metric',
      },
      {
        signal: 'restarts',
        unit: 'count',
        query: metrics.includes('process_start_time_seconds') ? `sum(changes(process_start_time_seconds{${selector}}[5m]))` : null,
        missing: 'no process_start_time_seconds metric',
      },
    ];
    const readings: Reading[] = [];
    const missing: string[] = [];
    for (const q of queries) {
      if (!q.query) {
        missing.push(`${q.signal} (${q.missing})`);
        continue;
      }
      const run = await session.runTool({
        tool: 'prometheus.query_range',
        integrationId: source.integrationId,
        arguments: { query: q.query },
        purpose: `The ${q.signal} of ${who} over the window`,
      });
      if (run.outcome === 'succeeded') readings.push({ statement: `${who}, ${q.signal}: ${described(run, q.unit, session.window.until)}`, run });
    }
    if (missing.length)
      this.limitations.push({
        type: 'missing_telemetry',
        statement: `For ${who} there is ${missing.join('; ')}`,
        runRefs: [metricsRun.ordinal],
        messageSequences: [],
      });
    return readings;
  }

  private conclusion(
    session: InvestigationSession,
    question: string,
    incidents: WindowIncidentOut[],
    readings: Reading[],
    stoppedBy: StoppedBy | null,
  ): Conclusion {
    const window = `${session.window.from.toISOString()} to ${session.window.until.toISOString()}`;
    const alertRefs = this.incidentsRun ? [this.incidentsRun.ordinal] : [];
    const evidence = (runs: number[]) => runs.map((n) => ({ investigationId: session.investigationId, toolRunOrdinal: n }));
    const fired = [...new Set(incidents.flatMap((i) => i.alerts.map((a) => a.labels.alertname ?? 'Alert')))];
    const findings: FindingItem[] = [...this.findings];
    if (this.incidentsRun?.outcome === 'succeeded') {
      findings.push({
        kind: 'context',
        statement: incidents.length
          ? `${incidents.length} incident(s) opened from ${window}: ${listed(incidents.map((i) => `${i.title} (${i.status})`))}; alerts that fired: ${listed(fired)}`
          : `No incident opened and no alert fired from ${window}`,
        mechanism: '',
        runRefs: alertRefs,
        evidenceRefs: evidence(alertRefs),
      });
    }
    for (const r of readings)
      findings.push({ kind: 'context', statement: r.statement, mechanism: '', runRefs: [r.run.ordinal], evidenceRefs: evidence([r.run.ordinal]) });
    const limitations = [...this.limitations];
    if (stoppedBy)
      limitations.push({
        type: 'budget',
        statement: `The answer stopped at its ${stoppedBy.replace('_', ' ')} budget before every signal was read`,
        runRefs: [],
        messageSequences: [],
      });
    for (const run of session.runs.filter((r) => r.outcome === 'failed' && !limitations.some((l) => l.runRefs.includes(r.ordinal))))
      limitations.push({ type: 'tool_failure', statement: `${run.tool} failed: ${run.error ?? 'no detail'}`, runRefs: [run.ordinal], messageSequences: [] });
    const asksCause = ASKS_FOR_CAUSE.test(question);
    if (asksCause)
      limitations.push({
        type: 'scope',
        statement: 'Without an incident the built-in reasoner reports what happened in the window but does not test causes',
        runRefs: [],
        messageSequences: [],
      });
    const summary = [
      incidents.length
        ? `From ${window}, ${incidents.length} incident(s) opened and these alerts fired: ${listed(fired)}.`
        : `From ${window}, no incident opened.`,
      ...readings.map((r) => `${r.statement} [#${r.run.ordinal}]`),
    ]
      .join(' ')
      .slice(0, 4096);
    return {
      conclusionStatus: asksCause ? 'inconclusive' : 'answer_only',
      summary,
      impact: { summary: incidents.length ? `${incidents.length} incident(s) in the window` : 'No incident in the window', runRefs: alertRefs },
      findings,
      hypotheses: [],
      actions: [],
      limitations,
    };
  }
}

/** A range read as people say it: the mean and the last value over the range, with their unit, and its times in UTC. */
function described(run: RecordedRun, unit: Unit | 'errors' | 'count', day: Timestamp): string {
  const points = seriesOf(run)
    .flatMap(pointsOf)
    .filter((p) => Number.isFinite(p.v));
  const out = run.output as { start?: string; end?: string } | null;
  if (!points.length) return `no data${out?.start ? ` from ${out.start.slice(11, 16)} UTC` : ''}`;
  const write = (v: number): string => (unit === 'errors' ? `${significant(v)} errors/s` : unit === 'count' ? significant(v) : quantity(v, unit));
  const sorted = [...points].sort((a, b) => (a.t.isAfter(b.t) ? 1 : -1));
  const mean = points.reduce((a, p) => a + p.v, 0) / points.length;
  const last = sorted[sorted.length - 1];
  return `${write(mean)} on average from ${clock(sorted[0].t, day)} to ${clock(last.t, day)}, ${write(last.v)} at the end, at most ${write(Math.max(...points.map((p) => p.v)))}`;
}
