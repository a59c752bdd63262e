import { Timestamp } from '@svc/platform';
import type { LimitationItem } from '../../conclusion.types';
import { workloadOfPod } from '../discovery/entity-model';
import type { DetectedCause, DetectionScope } from '../explainers/explainer';
import type { LogTemplate } from '../explainers/log-templates';
import { escapeRegex, namesWorkload, TROUBLE, TROUBLE_FILTER, WORKLOAD_LABELS } from '../explainers/log-templates';
import type { InvestigationSession, RecordedRun, SourceBrief } from '../reasoner';
import { MINUTE, pointsOf, seriesOf, shift, withinWindow } from '../series-reading';

/** How far back the error lines are counted, and how long after the onset. */
const BEFORE_MINUTES = 30;
const AFTER_MINUTES = 5;
/** A rise of a workload's error lines starts at most this long before the onset (or a minute after it). */
const RISE_WITHIN_MINUTES = 15;
/** At least this many minutes before a rise make its baseline. */
const BASELINE_MINUTES = 5;
/** A rise: at least this many error lines after it, at least twice the rate before, and this far above the rate before (in its Poisson deviations). */
const MIN_LINES_AFTER = 3;
const MIN_SCORE = 3;
/** The workloads whose errors rose most whose templates are read (one run each). */
const READ_AT_MOST = 2;
/** Runs it needs: the labels, the names of the workloads, the errors that began in the namespace, and the test. */
const RUNS_NEEDED = 4;
/** Runs the rises need beyond those: the error lines of every workload, a workload's templates (the test is counted above). */
const RISE_RUNS = 2;
/**
 * Runs the logs' step needs once the metrics explain nothing: the alerting workload's templates
 * (the store's labels and one read), RUNS_NEEDED for the errors that began in its namespace, and
 * RISE_RUNS for where errors rose when none began.
 */
const LOG_RUNS = 2 + RUNS_NEEDED + RISE_RUNS;

/** Runs the metrics' steps keep for the logs' step: LOG_RUNS when a log store is connected. */
export const runsKeptForLogs = (session: InvestigationSession): number => (session.sources.some((s) => s.type === 'loki') ? LOG_RUNS : 0);

/** A workload's error that began near the onset (none in the half hour before). */
interface Began {
  workload: string;
  template: LogTemplate;
  /** Its lines a minute from its first to the end of the range read. */
  rate: number;
}

/** A workload whose error lines rose near the onset. */
interface Rise {
  workload: string;
  at: Timestamp;
  before: number;
  after: number;
  linesAfter: number;
  score: number;
}

/** What the logs showed: the cause found (if any), and what they could not tell. */
export interface LogErrorsFound {
  causes: DetectedCause[];
  limitations: LimitationItem[];
}

/**
 * Where errors began in the logs, when the metrics left the alert unexplained: the error lines of
 * every workload of the alert's namespace counted per minute from half an hour before the onset
 * (one Loki metric query), the workloads whose errors rose near the onset ranked by how far above
 * their own earlier rate they rose, and the templates of the first ones read (`loki.log_patterns`
 * from the rise). A template that reports trouble, began or multiplied with the rise, and names no
 * other workload is a candidate cause on the workload that wrote it: "new errors in the logs of
 * basic from 09:21". An error that names another workload ("no instances available for
 * ts-train-service", "connection refused to inventory-db") is a caller's report of that
 * dependency, not a fault of its writer, and is passed over.
 */
export async function logErrorCandidates(session: InvestigationSession, scope: DetectionScope, onset: Timestamp): Promise<LogErrorsFound> {
  const found: LogErrorsFound = { causes: [], limitations: [] };
  const loki = session.sources.find((s) => s.type === 'loki');
  if (!loki || session.runs.length + RUNS_NEEDED > session.budgets.toolRuns) return found;
  const labels = await labelsOf(session, loki);
  const names = labels.outcome === 'succeeded' ? ((labels.output as { labels?: unknown } | null)?.labels ?? []) : [];
  const has = (l: string) => Array.isArray(names) && names.includes(l);
  const label = WORKLOAD_LABELS.find(has) ?? (has('pod') ? 'pod' : null);
  if (!label) return found;
  const namespace = scope.namespace && has('namespace') ? `namespace=${JSON.stringify(scope.namespace)}` : '';
  const selector = `{${namespace || `${label}=~".+"`}}`;
  const window = session.window;
  const clamp = (t: Timestamp) => withinWindow(t, window);
  const start = clamp(shift(onset, -BigInt(BEFORE_MINUTES) * MINUTE));
  const end = clamp(shift(onset, BigInt(AFTER_MINUTES) * MINUTE));
  // The names of the workloads, to tell an error about another one from an error of its own.
  const listed = await session.runTool({
    tool: 'loki.label_values',
    integrationId: loki.integrationId,
    arguments: { label, query: selector, start: start.toISOString(), end: end.toISOString() },
    purpose: `Which workloads write logs${scope.namespace ? ` in ${scope.namespace}` : ''}, to tell their errors apart`,
  });
  const values = listed.outcome === 'succeeded' ? ((listed.output as { values?: unknown } | null)?.values ?? []) : [];
  const known = (Array.isArray(values) ? values.map(String) : []).map((v) => (label === 'pod' ? workloadOfPod(v) : v));

  // The errors that began near the onset, every workload's mined apart: one that no workload wrote
  // in the quarter hour before says more than a rise of errors written all along. They are split
  // where a cause may begin (RISE_WITHIN_MINUTES before the onset), and kept if they began after.
  const from = clamp(shift(onset, -BigInt(RISE_WITHIN_MINUTES) * MINUTE));
  const began = await session.runTool({
    tool: 'loki.log_patterns',
    integrationId: loki.integrationId,
    arguments: { selector, filter: TROUBLE_FILTER, by: label, onset: from.toISOString(), start: start.toISOString(), end: end.toISOString() },
    purpose: `Which errors began near the onset${scope.namespace ? ` in ${scope.namespace}` : ''}, and in whose logs`,
  });
  const fresh = beganNearOnset(began, label, from, onset, end);
  const workloadsOf = (extra: string[]) => [...new Set([...known, ...extra])];
  const everyone = workloadsOf(fresh.map((b) => b.workload));
  const naming = (b: Began) => everyone.filter((w) => w !== b.workload && namesAny(`${b.template.template} ${b.template.example ?? ''}`, [w]));
  const own = fresh.filter((b) => !naming(b).length);
  if (own.length) {
    const [first] = own;
    const reports = [...new Set(fresh.filter((b) => naming(b).includes(first.workload)).map((b) => b.workload))];
    const ranked =
      `, ${round(first.rate)} a minute since` +
      (own.length > 1
        ? `; of the ${own.length} errors that began near the onset in a workload's own logs, the one written fastest`
        : "; the only error that began near the onset in a workload's own logs") +
      (reports.length ? `. ${reports.join(', ')} began reporting errors that name ${first.workload} too` : '');
    found.causes.push(beganCause(first, began, [labels.ordinal, listed.ordinal], ranked));
    return found;
  }
  if (session.runs.length + RISE_RUNS + 1 > session.budgets.toolRuns) return found;

  const sweep = await session.runTool({
    tool: 'loki.query_range',
    integrationId: loki.integrationId,
    arguments: {
      query: `sum by (${label}) (count_over_time(${selector} ${TROUBLE_FILTER} [1m]))`,
      start: start.toISOString(),
      end: end.toISOString(),
      step: 60,
    },
    purpose: `Which workloads${scope.namespace ? ` of ${scope.namespace}` : ''} began writing errors near the onset`,
  });
  const rises = risesOf(sweep, label, start, end, onset);
  if (!rises.length) return found;
  const workloads = workloadsOf(rises.map((r) => r.workload));
  // The workloads read before the one found, and those among them whose errors report another workload.
  const passedOver: string[] = [];
  const reports: string[] = [];
  for (const rise of rises.slice(0, READ_AT_MOST)) {
    // The test of the candidate needs a run of its own.
    if (session.runs.length + 2 > session.budgets.toolRuns) break;
    const streams = label === 'pod' ? `pod=~${JSON.stringify(`${escapeRegex(rise.workload)}-.*`)}` : `${label}=${JSON.stringify(rise.workload)}`;
    const run = await session.runTool({
      tool: 'loki.log_patterns',
      integrationId: loki.integrationId,
      arguments: {
        selector: `{${[namespace, streams].filter(Boolean).join(', ')}}`,
        filter: TROUBLE_FILTER,
        onset: clamp(rise.at).toISOString(),
        start: start.toISOString(),
        end: end.toISOString(),
      },
      purpose: `What ${rise.workload} began to report at ${rise.at.toISOString()}`,
    });
    if (run.outcome !== 'succeeded') {
      passedOver.push(`${rise.workload} (its templates could not be read)`);
      continue;
    }
    const templates = (run.output as { templates?: LogTemplate[] } | null)?.templates ?? [];
    const others = workloads.filter((w) => w !== rise.workload);
    const rising = templates.filter((t) => (t.status === 'new' || t.status === 'more') && TROUBLE.test(t.template));
    const mine = rising.find((t) => !namesAny(`${t.template} ${t.example ?? ''}`, others));
    if (!mine) {
      const about = rising.flatMap((t) => others.filter((w) => namesAny(`${t.template} ${t.example ?? ''}`, [w])));
      const named = about.length ? `${rise.workload} (its errors name ${[...new Set(about)].join(', ')})` : null;
      if (named) reports.push(named);
      passedOver.push(named ?? `${rise.workload} (no error of its own rose)`);
      continue;
    }
    // Ranked first, or after workloads whose errors name others.
    const above = passedOver.length ? `, after ${passedOver.join('; ')}` : ', more than any other workload';
    found.causes.push(cause(rise, mine, run, [labels.ordinal, listed.ordinal, began.ordinal, sweep.ordinal], above));
    break;
  }
  if (!found.causes.length && reports.length)
    found.limitations.push({
      type: 'missing_telemetry',
      statement: `Errors rose near the onset in the logs of ${reports.join('; ')}: reports of a dependency, not a fault of their own`,
      runRefs: [sweep.ordinal],
      messageSequences: [],
    });
  return found;
}

/** The labels of the log streams: the run an explainer made already, or a new one. */
async function labelsOf(session: InvestigationSession, loki: SourceBrief): Promise<RecordedRun> {
  const made = session.runs.find(
    (r) => r.tool === 'loki.labels' && r.integrationId === loki.integrationId && r.outcome === 'succeeded' && !(r.arguments as { query?: string }).query,
  );
  return (
    made ??
    session.runTool({
      tool: 'loki.labels',
      integrationId: loki.integrationId,
      arguments: {},
      purpose: 'Which labels the log streams carry, to tell the workloads apart',
    })
  );
}

/**
 * The workloads whose error lines rose near the onset, the largest rise first. Each workload's
 * minute counts are split where the rise began (from RISE_WITHIN_MINUTES before the onset to a
 * minute after it) so that the rate after the split stands furthest above the rate before, in
 * Poisson deviations of the rate before.
 */
function risesOf(run: RecordedRun, label: string, start: Timestamp, end: Timestamp, onset: Timestamp): Rise[] {
  const minutes = Number((end.epochMicros - start.epochMicros) / MINUTE);
  const counts = new Map<string, number[]>();
  for (const s of seriesOf(run)) {
    const value = s.metric?.[label];
    if (!value) continue;
    const workload = label === 'pod' ? workloadOfPod(value) : value;
    const row = counts.get(workload) ?? new Array<number>(minutes).fill(0);
    for (const p of pointsOf(s)) {
      // count_over_time at t counts the minute that ends at t.
      const i = Number((p.t.epochMicros - start.epochMicros) / MINUTE) - 1;
      if (i >= 0 && i < minutes) row[i] += p.v;
    }
    counts.set(workload, row);
  }
  const onsetIndex = Number((onset.epochMicros - start.epochMicros) / MINUTE);
  const rises: Rise[] = [];
  for (const [workload, row] of counts) {
    let best: Rise | null = null;
    for (let m = Math.max(BASELINE_MINUTES, onsetIndex - RISE_WITHIN_MINUTES); m <= Math.min(minutes - 1, onsetIndex + 1); m++) {
      const beforeRows = row.slice(0, m);
      const afterRows = row.slice(m);
      const linesAfter = afterRows.reduce((a, b) => a + b, 0);
      const before = beforeRows.reduce((a, b) => a + b, 0) / beforeRows.length;
      const after = linesAfter / afterRows.length;
      if (linesAfter < MIN_LINES_AFTER || after <= 2 * before) continue;
      const score = ((after - before) * Math.sqrt(afterRows.length)) / Math.sqrt(before + 0.5);
      if (score >= MIN_SCORE && (!best || score > best.score)) best = { workload, at: shift(start, BigInt(m) * MINUTE), before, after, linesAfter, score };
    }
    if (best) rises.push(best);
  }
  return rises.sort((a, b) => b.score - a.score);
}

/**
 * The errors of the namespace that began from `from` to a minute after the onset (status `new`:
 * none in the run's range before `from`), with at least MIN_LINES_AFTER lines, the one written
 * fastest since its first line first (an error that began long before the onset and recurs now
 * and then is not what began with it).
 */
function beganNearOnset(run: RecordedRun, label: string, from: Timestamp, onset: Timestamp, end: Timestamp): Began[] {
  if (run.outcome !== 'succeeded') return [];
  const until = shift(onset, MINUTE);
  const templates = (run.output as { templates?: LogTemplate[] } | null)?.templates ?? [];
  return templates
    .filter((t) => {
      const first = Timestamp.parse(t.firstSeen);
      return (
        t.status === 'new' &&
        t.after >= MIN_LINES_AFTER &&
        TROUBLE.test(t.template) &&
        !!t.labels?.[label] &&
        !!first &&
        !first.isBefore(from) &&
        !until.isBefore(first)
      );
    })
    .map((t) => {
      const minutes = Math.max(1, Number(end.epochMicros - Timestamp.parse(t.firstSeen)!.epochMicros) / Number(MINUTE));
      return { workload: label === 'pod' ? workloadOfPod(t.labels![label]) : t.labels![label], template: t, rate: t.after / minutes };
    })
    .sort((a, b) => b.rate - a.rate || (a.template.firstSeen < b.template.firstSeen ? -1 : 1));
}

const round = (n: number) => Math.round(n * 10) / 10;

/** The candidate: a workload's error that began near the onset, dated by its first line. */
function beganCause(b: Began, run: RecordedRun, chainRuns: number[], ranked: string): DetectedCause {
  const t = b.template;
  const at = Timestamp.parse(t.firstSeen)!;
  return errorCause(b.workload, t, at, run, chainRuns, {
    wrote: `and not in the ${RISE_WITHIN_MINUTES} min before${t.example ? `; for example: ${t.example}` : ''}${ranked}`,
    began: `at ${at.toISOString()}`,
  });
}

/** The candidate: the workload's new (or multiplied) error, dated by its first line after the rise began. */
function cause(rise: Rise, t: LogTemplate, run: RecordedRun, chainRuns: number[], ranked: string): DetectedCause {
  const first = Timestamp.parse(t.firstSeen);
  const at = first && !first.isBefore(shift(rise.at, -2n * MINUTE)) ? first : rise.at;
  const since =
    t.status === 'new'
      ? `and not in the ${BEFORE_MINUTES} min before`
      : `against ${t.beforePerMinute ?? '?'} a minute before (${t.afterPerMinute ?? '?'} a minute after)`;
  return errorCause(rise.workload, t, at, run, chainRuns, {
    wrote:
      `${since}${t.example ? `; for example: ${t.example}` : ''}. ` +
      `Its error lines rose from ${round(rise.before)} to ${round(rise.after)} a minute from ${rise.at.toISOString()}${ranked}`,
    began: `at ${at.toISOString()} (${round(rise.before)} a minute before, ${round(rise.after)} after)`,
  });
}

/**
 * A workload's error as a candidate cause: "New errors in the logs of W from …", its mechanism
 * the template written so many times from then and `said.wrote`; `said.began` dates it in the action.
 */
function errorCause(
  workload: string,
  t: LogTemplate,
  at: Timestamp,
  run: RecordedRun,
  chainRuns: number[],
  said: { wrote: string; began: string },
): DetectedCause {
  return {
    id: 'h-log-errors',
    ...(t.status === 'new' ? { newInLogs: true } : {}),
    statement: `New errors in the logs of ${workload} from ${at.toISOString()}, \`${t.template}\`, caused the alert's condition`,
    at,
    run,
    mechanism: `${workload} wrote \`${t.template}\` ${t.after} times from ${at.toISOString()}, ${said.wrote}`,
    mechanismRuns: [run.ordinal],
    chainRuns,
    unexplained: [`what made ${workload} fail from then on (a change of its code or configuration, the input it was given, a dependency)`],
    action: {
      title: `Find what ${workload} reports with \`${t.template}\``,
      rationale: `Its errors began ${said.began}, with the alert's condition`,
      verification: `${workload} stops writing it and the alert resolves`,
    },
  };
}

/** Whether `text` names any of `workloads`. */
const namesAny = (text: string, workloads: string[]): boolean => workloads.some((w) => namesWorkload(text, w));
