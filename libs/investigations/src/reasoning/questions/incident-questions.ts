import { distance } from 'fastest-levenshtein';
import { Timestamp } from '@svc/platform';
import type { Conclusion, FindingItem, LimitationItem, StoppedBy } from '../../conclusion.types';
import { failedOutcome } from '../discovery/meaning';
import { detectionScopeOf, EXPORTER_JOBS, podMatchersOf, quote, REQUEST_RATES, routeOf, SERVER_HISTOGRAMS } from '../explainers/labels';
import type { InvestigationSession, RecordedRun, SourceBrief } from '../reasoner';
import { MINUTE, pointsOf, SeriesOut, seriesOf, shift } from '../series-reading';
import { names } from '../built-in-question';
import { clock, quantity, Unit } from './format';
import type { Signal, TypedQuestion } from './parse';
import { parseQuestion } from './parse';

/** What the answer is about: a label value that names a service or job. */
interface Subject {
  label: string;
  value: string;
}

/** The range read when the question names none. */
const DEFAULT_RANGE_MINUTES = 60;
const STEP_SECONDS = 60;
/** A route whose value after is at least this multiple of before (and the difference counts) moved. */
const MOVED = 1.5;
/** Labels that give a request's route, by convention. */
const ROUTE_LABELS = ['route', 'http_route', 'handler', 'path', 'uri'];
/** Labels that give a request's outcome, by convention. */
const OUTCOME_LABELS = ['code', 'status', 'status_code', 'http_status_code', 'http_response_status_code', 'response_code'];
const MAX_ROWS = 12;

/** One signal read: what it is, the run, and the statement that answers with it. */
interface Reading {
  signal: Signal;
  statement: string;
  run: RecordedRun;
  table?: string;
}

const SIGNAL_NAMES: Record<Signal, string> = { rate: 'request rate', errors: 'error ratio', latency: 'latency', cpu: 'CPU use', memory: 'memory use' };

const mean = (values: number[]): number | null => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : null);

/**
 * Answers the common questions of an incident's conversation from the data, without a model:
 * the request rate, errors, latency, CPU or memory of a service over a range (compared before
 * and after the incident began, or a version started; split by route when asked), and which pods,
 * nodes and versions run it. Each answer reads what it needs (recorded, cited runs), writes its
 * numbers as people do (three significant digits, units, times in UTC), and says what the data
 * cannot answer. A subject named in the question is matched against the sources' label values; a
 * reference ("it", "those pods") or no subject at all means the incident's service.
 */
export class IncidentQuestions {
  private readonly findings: FindingItem[] = [];
  private readonly limitations: LimitationItem[] = [];
  private readonly lines: string[] = [];

  constructor(private readonly asked: TypedQuestion) {}

  async answer(session: InvestigationSession): Promise<Conclusion> {
    session.beginTurn();
    const source = session.sources.find((s) => s.type === 'prometheus');
    if (!source) {
      this.limitations.push({
        type: 'missing_telemetry',
        statement: 'No Prometheus integration is connected, so the question cannot be answered from metrics',
        runRefs: [],
        messageSequences: [],
      });
      return this.conclusion(session, null);
    }
    const subjects = await this.subjects(session, source);
    if ('ask' in subjects) return subjects.ask;
    if (!subjects.found.length) this.limit('scope', "The question names no service, and the incident's alerts name none to answer it for", []);
    const until = session.window.until;
    const from = shift(until, -BigInt(this.asked.rangeMinutes ?? DEFAULT_RANGE_MINUTES) * MINUTE);
    for (const subject of subjects.found.slice(0, 2)) {
      session.beginTurn();
      if (this.asked.kind === 'which') await this.listing(session, source, subject, until);
      else await this.signals(session, source, subject, from, until);
    }
    return this.conclusion(session, null);
  }

  async concludeEarly(session: InvestigationSession, stoppedBy: StoppedBy): Promise<Conclusion> {
    return this.conclusion(session, stoppedBy);
  }

  /**
   * The subjects the question names, matched against the values of `job` and `service`; with
   * none named (or a reference to what was named before), those of the earlier messages, else the
   * incident's service. Names none of the sources know, with nothing to fall back on, are asked about.
   */
  private async subjects(session: InvestigationSession, source: SourceBrief): Promise<{ found: Subject[] } | { ask: Conclusion }> {
    const incidentSubject = ((): Subject | null => {
      const job = detectionScopeOf(
        session.alerts.map((a) => a.labels),
        session.window.until,
        false,
      ).job;
      return job ? { label: 'job', value: job } : null;
    })();
    const earlier = (session.conversation?.messages ?? []).filter((m) => m.role === 'user').map((m) => parseQuestion(m.text).words);
    const words = this.asked.words;
    if (!words.length && !earlier.some((w) => w.length)) return { found: incidentSubject ? [incidentSubject] : [] };
    const catalog: Subject[] = [];
    const runs: number[] = [];
    for (const label of ['job', 'service']) {
      const run = await session.runTool({
        tool: 'prometheus.label_values',
        integrationId: source.integrationId,
        arguments: { label },
        purpose: `Which values of ${label} exist, to match the names in the question`,
      });
      runs.push(run.ordinal);
      const values = run.outcome === 'succeeded' ? ((run.output as { values?: unknown[] } | null)?.values ?? []).map(String) : [];
      catalog.push(...values.map((value) => ({ label, value })));
    }
    const match = (ws: string[]): Subject[] => {
      const found = catalog.filter((s) => ws.some((w) => names(w, s.value)));
      // A service named by both labels is one subject: its job.
      return found.filter((s, i) => found.findIndex((o) => o.value === s.value) === i);
    };
    const named = match(words);
    const unresolved = words.filter((w) => !catalog.some((s) => names(w, s.value)));
    if (named.length) {
      if (unresolved.length) this.limit('scope', `Nothing named ${unresolved.join(', ')} was found in the sources`, runs);
      return { found: named };
    }
    // A reference, or no name at all: what the conversation named last, else the incident's service.
    const before =
      [...earlier]
        .reverse()
        .map(match)
        .find((s) => s.length) ?? [];
    if (!words.length || this.asked.refers) return { found: before.length ? before : incidentSubject ? [incidentSubject] : [] };
    // The candidates, the closest to the names asked about first (a typo finds its service), exporters left out.
    const closeness = (value: string): number => Math.min(...unresolved.map((w) => distance(w, value.toLowerCase()) / Math.max(w.length, value.length)));
    const services = [...new Set(catalog.map((s) => s.value))]
      .filter((v) => !EXPORTER_JOBS.test(v))
      .sort((a, b) => closeness(a) - closeness(b))
      .slice(0, 10);
    const ask = `I could not find ${unresolved.map((w) => `"${w}"`).join(', ')} among the services and jobs the sources know. Which of these do you mean: ${services.join(', ') || 'none is listed'}?`;
    return {
      ask: {
        question: ask,
        conclusionStatus: 'inconclusive',
        summary: ask,
        impact: { summary: 'Not assessed: the question names nothing the sources know', runRefs: runs },
        findings: [],
        hypotheses: [],
        actions: [],
        limitations: [{ type: 'scope', statement: `Nothing named ${unresolved.join(', ')} was found in the sources`, runRefs: runs, messageSequences: [] }],
      },
    };
  }

  /** The signals asked of `subject` from `from` to `until`, compared before and after a split when asked. */
  private async signals(session: InvestigationSession, source: SourceBrief, subject: Subject, from: Timestamp, until: Timestamp): Promise<void> {
    const selector = `${subject.label}=${quote(subject.value)}`;
    const listed = await session.runTool({
      tool: 'prometheus.label_values',
      integrationId: source.integrationId,
      arguments: { label: '__name__', match: [`{${selector}}`], start: from.toISOString(), end: until.toISOString() },
      purpose: `Which metrics ${subject.value} has`,
    });
    const metrics = listed.outcome === 'succeeded' ? ((listed.output as { values?: unknown[] } | null)?.values ?? []).map(String) : [];
    const counter = REQUEST_RATES.find((m) => metrics.includes(m));
    const histogram = SERVER_HISTOGRAMS.split('|').find((m) => metrics.includes(m));
    const split = await this.splitAt(session, source, subject, from, until);
    const byRoute = this.asked.byRoute ? `, ${ROUTE_LABELS.join(', ')}` : '';
    const range = { start: from.toISOString(), end: until.toISOString(), step: STEP_SECONDS };
    const read = (query: string, purpose: string): Promise<RecordedRun> =>
      session.runTool({ tool: 'prometheus.query_range', integrationId: source.integrationId, arguments: { query, ...range }, purpose });
    const percentile = this.asked.percentile ?? 0.99;
    const p = `p${Math.round(percentile * 1000) / 10}`;
    for (const signal of this.asked.signals) {
      let run: RecordedRun;
      let values: Array<{ labels: Record<string, string>; points: Array<{ t: Timestamp; v: number }> }>;
      let unit: Unit;
      if ((signal === 'rate' || signal === 'errors') && !counter) {
        this.cannot(`no request counter (${REQUEST_RATES.join(', ')}) names ${subject.value}, so its ${SIGNAL_NAMES[signal]} is unknown`, listed);
        continue;
      }
      if (signal === 'latency' && !histogram) {
        this.cannot(`no latency histogram (${SERVER_HISTOGRAMS.split('|').join(', ')}) names ${subject.value}, so its latency is unknown`, listed);
        continue;
      }
      if (signal === 'rate') {
        run = await read(`sum by (${subject.label}${byRoute}) (rate(${counter}{${selector}}[5m]))`, `The request rate of ${subject.value}`);
        values = seriesOf(run).map((s) => ({ labels: s.metric, points: pointsOf(s) }));
        unit = 'rps';
      } else if (signal === 'errors') {
        run = await read(
          `sum by (${[...OUTCOME_LABELS].join(', ')}${byRoute}) (rate(${counter}{${selector}}[5m]))`,
          `The requests of ${subject.value} by outcome`,
        );
        values = failureRatios(seriesOf(run), this.asked.byRoute);
        unit = 'ratio';
      } else if (signal === 'latency') {
        run = await read(
          `histogram_quantile(${percentile}, sum by (le${byRoute}) (rate(${histogram}{${selector}}[5m])))`,
          `The ${p} latency of ${subject.value}`,
        );
        values = seriesOf(run).map((s) => ({ labels: s.metric, points: pointsOf(s).filter((x) => Number.isFinite(x.v)) }));
        unit = 'seconds';
      } else {
        const pods = podMatchersOf([{ ...(session.alerts[0]?.labels.namespace ? { namespace: session.alerts[0].labels.namespace } : {}), job: subject.value }]);
        const query =
          signal === 'cpu'
            ? `sum(rate(process_cpu_seconds_total{${selector}}[5m]))${pods ? ` or sum(rate(container_cpu_usage_seconds_total{${pods}, container!=""}[5m]))` : ''}`
            : `sum(process_resident_memory_bytes{${selector}})${pods ? ` or sum(container_memory_working_set_bytes{${pods}, container!=""})` : ''}`;
        run = await read(query, `The ${SIGNAL_NAMES[signal]} of ${subject.value}`);
        values = seriesOf(run).map((s) => ({ labels: s.metric, points: pointsOf(s) }));
        unit = signal === 'cpu' ? 'cores' : 'bytes';
      }
      const reading = this.describe(signal, subject, values, unit, split, signal === 'latency' ? p : '', run, from, until);
      if (reading) this.record(session, reading);
    }
  }

  /**
   * Where to split the range for a comparison: when a version named in the question started
   * (its first build series or image of the subject's pods), else when the incident's first alert
   * began; null when nothing is asked to compare or the moment is outside the range.
   */
  private async splitAt(
    session: InvestigationSession,
    source: SourceBrief,
    subject: Subject,
    from: Timestamp,
    until: Timestamp,
  ): Promise<{ at: Timestamp; what: string; run: RecordedRun | null } | null> {
    if (!this.asked.compare) return null;
    const inRange = (t: Timestamp | null | undefined): t is Timestamp => !!t && t.isAfter(from) && !t.isAfter(until);
    const version = this.asked.versions[0];
    if (version) {
      const escaped = version.replace(/[.*+?^${}()|[\]\\]/g, '\\\\$&');
      const run = await session.runTool({
        tool: 'prometheus.query_range',
        integrationId: source.integrationId,
        arguments: {
          query: `max by (${subject.label}, version) ({__name__=~".+_build_info", ${subject.label}=${quote(subject.value)}, version=~"v?${escaped}"}) or max by (container, image) (kube_pod_container_info{image=~".*:v?${escaped}", container=${quote(subject.value)}})`,
          start: from.toISOString(),
          end: until.toISOString(),
          step: STEP_SECONDS,
        },
        purpose: `When did ${version} of ${subject.value} start?`,
      });
      const started = seriesOf(run)
        .map((s) => pointsOf(s)[0]?.t)
        .filter(inRange)
        .sort((a, b) => (a.isAfter(b) ? 1 : -1))[0];
      if (started) return { at: started, what: `${version} started`, run };
      this.cannot(`${version} of ${subject.value} did not start within the range read, so there is no before and after it to compare`, run);
      return null;
    }
    const first = session.alerts.map((a) => a.startsAt).sort((a, b) => (a.isAfter(b) ? 1 : -1))[0];
    return inRange(first) ? { at: first, what: 'the incident began', run: null } : null;
  }

  /** The statement (and, split by route, the table) that answers one signal. */
  private describe(
    signal: Signal,
    subject: Subject,
    series: Array<{ labels: Record<string, string>; points: Array<{ t: Timestamp; v: number }> }>,
    unit: Unit,
    split: { at: Timestamp; what: string; run: RecordedRun | null } | null,
    percentile: string,
    run: RecordedRun,
    from: Timestamp,
    until: Timestamp,
  ): Reading | null {
    const name = `${percentile ? `${percentile} ` : ''}${SIGNAL_NAMES[signal]}`;
    const withPoints = series.filter((s) => s.points.length);
    if (!withPoints.length) {
      this.cannot(
        `${run.summary.startsWith('No series') ? 'no series' : 'nothing'} for the ${name} of ${subject.value} from ${clock(from, until)} to ${clock(until, until)}`,
        run,
      );
      return null;
    }
    const range = `from ${clock(from, until)} to ${clock(until, until)}`;
    const summarise = (points: Array<{ t: Timestamp; v: number }>) => {
      const before = split ? mean(points.filter((p) => p.t.isBefore(split.at)).map((p) => p.v)) : null;
      const after = split ? mean(points.filter((p) => !p.t.isBefore(split.at)).map((p) => p.v)) : null;
      return { all: mean(points.map((p) => p.v))!, before, after };
    };
    const moved = (b: number | null, a: number | null): string =>
      b === null || a === null ? '' : a >= b * MOVED && a - b > minimum(unit) ? 'up' : b >= a * MOVED && b - a > minimum(unit) ? 'down' : 'about the same';
    if (this.asked.byRoute && withPoints.length > 1) {
      const rows = withPoints
        .map((s) => ({ route: routeOf(s.labels) ?? '(no route)', ...summarise(s.points) }))
        .sort((a, b) => (b.after ?? b.all) - (a.after ?? a.all))
        .slice(0, MAX_ROWS);
      const table = split
        ? [
            `| route | before (${clock(split.at, until)}) | after | change |`,
            '|---|---:|---:|---|',
            ...rows.map((r) => `| ${r.route} | ${fmt(r.before, unit)} | ${fmt(r.after, unit)} | ${moved(r.before, r.after) || '-'} |`),
          ].join('\n')
        : [`| route | mean | `, '|---|---:|', ...rows.map((r) => `| ${r.route} | ${quantity(r.all, unit)} |`)].join('\n');
      const changed = rows.filter((r) => moved(r.before, r.after) === 'up').map((r) => r.route);
      const asked = this.asked.routes;
      const statement = !split
        ? `The ${name} of ${subject.value} by route, ${range}: ${rows.map((r) => `${r.route} ${quantity(r.all, unit)}`).join(', ')}`
        : !changed.length
          ? `No route of ${subject.value} has a higher ${name} since ${split.what} (${clock(split.at, until)})`
          : asked.length && changed.every((r) => asked.includes(r))
            ? `Only ${changed.join(', ')} of ${subject.value} has a higher ${name} since ${split.what} (${clock(split.at, until)}); the other routes are about the same`
            : `The ${name} of ${subject.value} is higher since ${split.what} (${clock(split.at, until)}) on ${changed.join(', ')}${asked.length ? `, not only on ${asked.join(', ')}` : ''}`;
      return { signal, statement, run, table };
    }
    const whole = summarise(withPoints.flatMap((s) => s.points));
    const statement =
      split && whole.before !== null && whole.after !== null
        ? `The ${name} of ${subject.value} was ${quantity(whole.before, unit)} before ${split.what} (${clock(split.at, until)}) and ${quantity(whole.after, unit)} after${moved(whole.before, whole.after) === 'about the same' ? ': about the same' : `: ${moved(whole.before, whole.after)}`}`
        : `The ${name} of ${subject.value} averaged ${quantity(whole.all, unit)} ${range}`;
    return { signal, statement, run };
  }

  /** Which pods of `subject` run where, and which version each runs, at `until`. */
  private async listing(session: InvestigationSession, source: SourceBrief, subject: Subject, until: Timestamp): Promise<void> {
    const namespace = session.alerts[0]?.labels.namespace;
    const pods = podMatchersOf([{ ...(namespace ? { namespace } : {}), job: subject.value }]);
    const run = await session.runTool({
      tool: 'prometheus.query',
      integrationId: source.integrationId,
      arguments: {
        query: `max by (namespace, pod, node) (kube_pod_info{${pods}}) or max by (namespace, pod, image) (kube_pod_container_info{${pods}, container=${quote(subject.value)}}) or max by (pod, instance, version) ({__name__=~".+_build_info", ${subject.label}=${quote(subject.value)}})`,
        time: until.toISOString(),
      },
      purpose: `Which pods of ${subject.value} run, on which nodes, and which version each runs`,
    });
    const rows = new Map<string, { node?: string; version?: string }>();
    for (const s of (run.output as { series?: Array<{ metric: Record<string, string> }> } | null)?.series ?? []) {
      const pod = s.metric.pod ?? s.metric.instance;
      if (!pod) continue;
      const row = rows.get(pod) ?? {};
      if (s.metric.node) row.node = s.metric.node;
      const version = s.metric.version ?? s.metric.image?.split(':').pop();
      if (version && !row.version) row.version = version;
      rows.set(pod, row);
    }
    const wanted = this.asked.versions;
    const matching = [...rows.entries()].filter(([, r]) => !wanted.length || wanted.some((v) => r.version?.replace(/^v/, '') === v));
    if (!rows.size) {
      this.cannot(`no kube_pod_info, kube_pod_container_info or build series names the pods of ${subject.value}, so where it runs is unknown`, run);
      return;
    }
    const versionWord = wanted.length ? ` run ${wanted.join(' or ')}` : '';
    const nodes = [...new Set(matching.map(([, r]) => r.node).filter((n): n is string => !!n))];
    const statement = !matching.length
      ? `No pod of ${subject.value}${versionWord} at ${clock(until, until)} (${rows.size} pod(s) run other versions: ${[...new Set([...rows.values()].map((r) => r.version ?? 'unknown'))].join(', ')})`
      : `${matching.length} pod(s) of ${subject.value}${versionWord} at ${clock(until, until)}${nodes.length ? `, on ${nodes.length} node(s): ${nodes.join(', ')}` : ''}`;
    const table = matching.length
      ? [
          '| pod | node | version |',
          '|---|---|---|',
          ...matching.slice(0, MAX_ROWS).map(([pod, r]) => `| ${pod} | ${r.node ?? 'unknown'} | ${r.version ?? 'unknown'} |`),
        ].join('\n')
      : undefined;
    if (matching.length && this.asked.listings.includes('nodes') && !nodes.length)
      this.cannot(`no kube_pod_info names the nodes of ${subject.value}'s pods, so their nodes are unknown`, run);
    this.record(session, { signal: 'rate', statement, run, table });
  }

  private record(session: InvestigationSession, reading: Reading): void {
    this.lines.push(`${reading.statement} [#${reading.run.ordinal}]${reading.table ? `\n\n${reading.table}\n` : ''}`);
    this.findings.push({
      kind: 'context',
      statement: reading.statement,
      mechanism: '',
      runRefs: [reading.run.ordinal],
      evidenceRefs: [{ investigationId: session.investigationId, toolRunOrdinal: reading.run.ordinal }],
    });
  }

  /** What the data cannot answer, said in the answer and as a limitation citing the run that showed it. */
  private cannot(statement: string, run: RecordedRun): void {
    this.lines.push(`${statement[0].toUpperCase()}${statement.slice(1)} [#${run.ordinal}].`);
    this.limit('missing_telemetry', statement[0].toUpperCase() + statement.slice(1), [run.ordinal]);
  }

  private limit(type: LimitationItem['type'], statement: string, runRefs: number[]): void {
    this.limitations.push({ type, statement, runRefs, messageSequences: [] });
  }

  private conclusion(session: InvestigationSession, stoppedBy: StoppedBy | null): Conclusion {
    const limitations = [...this.limitations];
    if (stoppedBy)
      limitations.push({
        type: 'budget',
        statement: `The answer stopped at its ${stoppedBy.replace('_', ' ')} budget before it was complete`,
        runRefs: [],
        messageSequences: [],
      });
    for (const run of session.runs.filter((r) => r.outcome === 'failed' && !limitations.some((l) => l.runRefs.includes(r.ordinal))))
      limitations.push({ type: 'tool_failure', statement: `${run.tool} failed: ${run.error ?? 'no detail'}`, runRefs: [run.ordinal], messageSequences: [] });
    const unanswered = `The question could not be answered from the sources${limitations.length ? `: ${limitations.map((l) => l.statement[0].toLowerCase() + l.statement.slice(1)).join('; ')}` : ''}.`;
    const summary = (this.lines.length ? this.lines.join('\n') : unanswered).slice(0, 4096);
    const refs = [...new Set(this.findings.flatMap((f) => f.runRefs))];
    return {
      conclusionStatus: 'answer_only',
      summary,
      impact: { summary: session.incident ? `Asked about incident "${session.incident.title}"` : 'Not assessed', runRefs: refs },
      findings: this.findings,
      hypotheses: [],
      actions: [],
      limitations,
    };
  }
}

/** The smallest difference that counts as a move, by unit: half a request a second, a point of errors, 20 ms, a twentieth of a core, 16 MiB. */
function minimum(unit: Unit): number {
  return { rps: 0.5, ratio: 0.01, seconds: 0.02, cores: 0.05, bytes: 16 * 1024 * 1024 }[unit];
}

const fmt = (v: number | null, unit: Unit): string => (v === null ? '-' : quantity(v, unit));

/** Failure ratios over time from request rates split by outcome (and by route when asked). */
function failureRatios(series: SeriesOut[], byRoute: boolean): Array<{ labels: Record<string, string>; points: Array<{ t: Timestamp; v: number }> }> {
  const groups = new Map<string, { labels: Record<string, string>; all: Map<bigint, number>; failed: Map<bigint, number> }>();
  for (const s of series) {
    const route = byRoute ? (routeOf(s.metric) ?? '') : '';
    const group = groups.get(route) ?? {
      labels: byRoute ? Object.fromEntries(ROUTE_LABELS.filter((l) => s.metric[l]).map((l) => [l, s.metric[l]])) : {},
      all: new Map(),
      failed: new Map(),
    };
    groups.set(route, group);
    const fails = failedOutcome(s.metric) === true;
    for (const p of pointsOf(s)) {
      group.all.set(p.t.epochMicros, (group.all.get(p.t.epochMicros) ?? 0) + p.v);
      if (fails) group.failed.set(p.t.epochMicros, (group.failed.get(p.t.epochMicros) ?? 0) + p.v);
    }
  }
  return [...groups.values()].map((g) => ({
    labels: g.labels,
    points: [...g.all.entries()].filter(([, v]) => v > 0).map(([t, v]) => ({ t: Timestamp.fromEpochMicros(t), v: (g.failed.get(t) ?? 0) / v })),
  }));
}
