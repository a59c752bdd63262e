import {
  ApiClient,
  candidates as candidateTexts,
  citedRuns,
  DerivedAlert,
  deriveAlerts,
  InvestigationRead,
  investigatePage,
  RunOptions,
  stageOpenMetrics,
  StagedData,
} from '../harness';
import { LokiEntry, LokiStandIn } from '../../test/support/loki-stand-in';
import { Rule } from '../scenarios';
import { BEFORE_SECONDS, Dataset, Day, Fault, FaultKind } from './dataset';
import { LogsDataset } from './logs';
import { families, writeOpenMetrics } from './openmetrics';

/** The data was recorded once a minute; rules are evaluated as often. */
export const SCRAPE_SECONDS = 60;

const P90 = 'http_server_request_duration_seconds{quantile="0.9"}';

/**
 * The one alerting rule of the suite, as an SRE would write it over the recorded symptoms: a
 * service's slowest pod answers at p90 more than twice as slowly as its own average of the hour
 * before (ten minutes back, so that the rise itself is not in it; minutes without requests, whose
 * quantile is NaN, left out of the average), and slower than 100 ms, at two evaluations in a row
 * (`for: 1m` at one evaluation a minute). It says nothing of any fault; every service is held to it alike.
 */
export const RULE: Rule = {
  alert: 'ServiceLatencyHigh',
  expr:
    `max by (namespace, service) (${P90})` +
    ` > 2 * max by (namespace, service) (avg_over_time((${P90} >= 0)[1h:1m] offset 10m))` +
    ` and max by (namespace, service) (${P90}) > 0.1`,
  forSeconds: 60,
  labels: { severity: 'warning' },
  annotations: {
    summary: 'Service {{ $labels.service }} is slow',
    description: 'The p90 latency of {{ $labels.service }} in {{ $labels.namespace }} is {{ $value }} s, more than twice its level of the hour before.',
  },
};

/** An alert that starts pending this long after an injection at the latest is the fault's page. */
export const PAGE_WITHIN_SECONDS = 10 * 60;

/** The rule's alerts over one day's data, in recorded time. */
export async function dayAlerts(dataset: Dataset, day: Day): Promise<DerivedAlert[]> {
  const times = day.pods.flatMap((p) => [p.t[0], p.t[p.t.length - 1]]);
  const from = Math.min(...times);
  const to = Math.max(...times);
  // Served so that the day ends a minute before now (Prometheus serves no future).
  const shift = Math.floor(Date.now() / 1000 / SCRAPE_SECONDS) * SCRAPE_SECONDS - SCRAPE_SECONDS - to;
  const staged = await stage(dataset, day, from, to, shift, `nezha-${day.day}`);
  try {
    // Evaluations at whole minutes, as the rule manager aligns them.
    const start = Math.ceil((from + shift) / SCRAPE_SECONDS) * SCRAPE_SECONDS;
    const alerts = await deriveAlerts(staged.prometheus.url, RULE, start, to + shift, SCRAPE_SECONDS);
    return alerts.map((a) => moved(a, -shift));
  } finally {
    await staged.stop();
  }
}

async function stage(dataset: Dataset, day: Day, from: number, to: number, shift: number, name: string): Promise<StagedData & { series: number }> {
  let series = 0;
  const staged = await stageOpenMetrics(
    name,
    async (file) => {
      series = await writeOpenMetrics(file, families(dataset, day, from, to, shift));
    },
    [RULE],
    SCRAPE_SECONDS,
  );
  return { ...staged, series };
}

function moved(a: DerivedAlert, by: number): DerivedAlert {
  return { ...a, activeAt: a.activeAt + by, firedAt: a.firedAt + by, resolvedAt: a.resolvedAt === null ? null : a.resolvedAt + by };
}

/** The fault's page: the first alert that began pending at or after the injection, within PAGE_WITHIN_SECONDS. */
export function pageOf(fault: Fault, alerts: DerivedAlert[]): DerivedAlert | undefined {
  return alerts
    .filter((a) => a.activeAt >= fault.at && a.activeAt <= fault.at + PAGE_WITHIN_SECONDS)
    .sort((a, b) => a.firedAt - b.firedAt || a.activeAt - b.activeAt)[0];
}

/** The service a customer reaches (TrainTicket's UI), which a page raised by hand names. */
export const ENTRY_SERVICE = 'ts-ui-dashboard';

/** A page raised by hand for a fault the rule never paged for comes this long after the injection. */
export const HAND_PAGE_AFTER_SECONDS = 5 * 60;

/**
 * The page of a fault the rule never paged for, as if a person, told by a customer that the site
 * is slow, had raised it: the rule's alert with its labels for the entry service, firing from
 * HAND_PAGE_AFTER_SECONDS after the injection. The rule's condition does not hold then (that is
 * why it never paged); the investigation starts from the customer's word.
 */
export function handPage(fault: Fault, namespace: string): DerivedAlert {
  const at = fault.at + HAND_PAGE_AFTER_SECONDS;
  return {
    rule: RULE,
    labels: { namespace, service: ENTRY_SERVICE, ...RULE.labels, alertname: RULE.alert },
    annotations: {
      summary: `Service ${ENTRY_SERVICE} is slow`,
      description: `Raised by hand: a customer reports that ${ENTRY_SERVICE} in ${namespace} answers slowly.`,
    },
    activeAt: at,
    firedAt: at,
    resolvedAt: null,
  };
}

/** A fault's replay, scored as the Nezha paper scores root cause localisation: the service. */
export interface FaultResult {
  fault: Fault;
  /** The rule paged for the fault; without a page, one was raised by hand for the entry service (handPage). */
  paged: boolean;
  investigationId: string | null;
  status: string;
  conclusionStatus: string | null;
  /** The services of the page and its group, as delivered. */
  alerted: string[];
  /** The distinct services the conclusion names as candidates, in order (`candidates` of eval/harness.ts). */
  candidates: string[];
  top1: boolean;
  top3: boolean;
  /** Every citation names a run of the investigation. */
  citationsExist: boolean;
  /** `verified_cause` with a first cause that does not name the faulty service. */
  falseVerified: boolean;
  seconds: number;
  cause: string;
  error: string | null;
  /** The investigation's tool runs: tool, outcome and arguments. */
  runs: Array<{ tool: string; outcome: string; arguments: Record<string, unknown> }>;
}

/** The services named in `text`, in order of first mention (names are matched whole: ts-travel-service is not ts-travel2-service). */
export function servicesNamed(text: string, services: string[]): string[] {
  const found: Array<[number, string]> = [];
  for (const s of services) {
    const m = new RegExp(`(?<![a-z0-9-])${s.replace(/-/g, '\\-')}(?![a-z0-9])`, 'i').exec(text);
    if (m) found.push([m.index, s]);
  }
  return found.sort((a, b) => a[0] - b[0]).map(([, s]) => s);
}

/**
 * Scores an ended investigation: top-1 when the first `cause` finding names the faulty service,
 * top-3 when it is among the first three distinct services named by the conclusion's candidates
 * (`candidates` of eval/harness.ts: cause findings, then hypotheses neither refuted nor confirmed).
 */
export function scoreFault(fault: Fault, services: string[], investigation: InvestigationRead, seconds: number, alerted: string[], paged = true): FaultResult {
  const findings = investigation.findings ?? [];
  const causes = findings.filter((f) => f.kind === 'cause');
  // The candidates as the generated suites list them (eval/harness.ts), each read for the services it names.
  const candidates: string[] = [];
  for (const text of candidateTexts(investigation)) for (const s of servicesNamed(text, services)) if (!candidates.includes(s)) candidates.push(s);
  const first = causes[0] ? servicesNamed(`${causes[0].statement} ${causes[0].mechanism}`, services) : [];
  const top1 = first.includes(fault.service);
  const ordinals = new Set((investigation.runs ?? []).map((r) => r.ordinal));
  const refs = citedRuns(investigation);
  return {
    fault,
    paged,
    investigationId: investigation.id ?? null,
    status: investigation.status,
    conclusionStatus: investigation.conclusionStatus ?? null,
    alerted,
    candidates,
    top1,
    top3: candidates.slice(0, 3).includes(fault.service),
    citationsExist: refs.length > 0 && refs.every((r) => ordinals.has(r)),
    falseVerified: investigation.conclusionStatus === 'verified_cause' && !top1,
    seconds,
    cause: causes[0]?.statement ?? '',
    error: investigation.error ?? null,
    runs: (investigation.runs ?? []).map(({ tool, outcome, arguments: args }) => ({ tool, outcome, arguments: args })),
  };
}

/** A result for a fault whose replay failed (a harness error): not investigated, scored as a miss. */
export function notInvestigated(fault: Fault, paged: boolean, error: string | null, seconds = 0): FaultResult {
  return {
    fault,
    paged,
    investigationId: null,
    status: 'harness error',
    conclusionStatus: null,
    alerted: [],
    candidates: [],
    top1: false,
    top3: false,
    citationsExist: false,
    falseVerified: false,
    seconds,
    cause: '',
    error,
    runs: [],
  };
}

/** A fault's page and the data up to it, staged in a Prometheus and shifted to the present; with the alerts firing with the page. */
export interface StagedFault {
  staged: StagedData & { series: number };
  page: DerivedAlert;
  others: DerivedAlert[];
  /** The services of the alerts firing when the page fired. */
  alerted: string[];
  /** The rule paged; otherwise `page` was raised by hand (handPage). */
  paged: boolean;
  /** Seconds from the injection to the page, in recorded time. */
  after: number;
  /** The recorded time staged first (Unix seconds). */
  from: number;
  /** Seconds added to each recorded time: the page fires now. */
  shift: number;
}

/**
 * Stages a fault (see replayFault): the recorded data from BEFORE_SECONDS before the injection up
 * to the moment its page fired (the rule's, or for a fault it never paged for, the one raised by
 * hand HAND_PAGE_AFTER_SECONDS after the injection), shifted so that this moment is now.
 */
export async function stageFault(dataset: Dataset, fault: Fault, alerts: DerivedAlert[]): Promise<StagedFault> {
  const day = dataset.days.find((d) => d.day === fault.day)!;
  const paged = pageOf(fault, alerts);
  const page = paged ?? handPage(fault, dataset.namespace);
  const from = fault.at - BEFORE_SECONDS;
  const shift = Math.floor(Date.now() / 1000) - page.firedAt;
  const staged = await stage(dataset, day, from, page.firedAt, shift, fault.id);
  // The page's group as Alertmanager sends it when the page fires: the alerts firing then. Episodes
  // that resolved before were notified (and their incidents opened) at their own time, for earlier faults.
  const firing = alerts.filter((a) => a !== page && a.firedAt <= page.firedAt && (a.resolvedAt === null || a.resolvedAt > page.firedAt));
  return {
    staged,
    page: moved(page, shift),
    others: firing.map((a) => moved(a, shift)),
    alerted: [...new Set([page, ...firing].map((a) => a.labels.service))],
    paged: !!paged,
    after: page.firedAt - fault.at,
    from,
    shift,
  };
}

const NS_PER_SECOND = 1_000_000_000n;

/**
 * The day's log lines of a staged fault as a Loki holds them, shifted as its metrics are: from the
 * first staged time to the page (none from after it), each stream labelled as Grafana Alloy's and
 * Promtail's Kubernetes discovery labels a pod's container: namespace, pod, container, the pod's
 * `app` label (TrainTicket labels each Deployment's pods with its name) and `service_name`, which
 * Loki 3 derives from it.
 */
export function faultLogs(logs: LogsDataset, dataset: Dataset, fault: Fault, staged: Pick<StagedFault, 'from' | 'shift' | 'page'>): LokiEntry[] {
  const from = BigInt(staged.from) * NS_PER_SECOND;
  const shift = BigInt(staged.shift) * NS_PER_SECOND;
  // The page is already shifted to now.
  const until = BigInt(staged.page.firedAt) * NS_PER_SECOND - shift;
  const entries: LokiEntry[] = [];
  for (const s of logs.streams.filter((st) => st.day === fault.day)) {
    const labels = { namespace: dataset.namespace, pod: s.pod, container: s.container, app: s.service, service_name: s.service };
    s.ns.forEach((at, i) => {
      if (at >= from && at <= until) entries.push({ at: at + shift, labels, line: s.text[i] });
    });
  }
  return entries;
}

/**
 * Replays one fault: its data staged (stageFault) in a real Prometheus, the page's group delivered
 * as Alertmanager would, the incident investigated and scored. A fault the rule never paged for is
 * investigated from the page raised by hand for the entry service.
 */
export async function replayFault(
  api: ApiClient,
  dataset: Dataset,
  fault: Fault,
  alerts: DerivedAlert[],
  options: RunOptions & { logs?: LogsDataset },
): Promise<FaultResult> {
  const log = options.log ?? (() => undefined);
  const day = dataset.days.find((d) => d.day === fault.day)!;
  const stagedFault = await stageFault(dataset, fault, alerts);
  const { staged, page, others, alerted, paged, after } = stagedFault;
  const entries = options.logs ? faultLogs(options.logs, dataset, fault, stagedFault) : [];
  const loki = options.logs ? await LokiStandIn.start({ entries }) : null;
  try {
    log(
      `${fault.id}: ${staged.series} series${loki ? `, ${entries.length} log lines` : ''}; ${RULE.alert} for ${page.labels.service} ${paged ? 'fired' : 'raised by hand (never paged)'} ${Math.round(after / 60)} min after the injection; firing then: ${alerted.join(', ')}`,
    );
    const integrations = [...(options.integrations ?? []), ...(loki ? [{ type: 'loki', name: `Loki (${fault.id})`, config: { baseUrl: loki.url } }] : [])];
    const { ended, seconds } = await investigatePage(api, fault.id, staged.prometheus.url, page, others, { ...options, integrations });
    const services = [...new Set(day.pods.map((p) => p.service))];
    return scoreFault(fault, services, ended, seconds, alerted, paged);
  } finally {
    await staged.stop();
    await loki?.close();
  }
}

const KINDS: Array<[FaultKind, string]> = [
  ['cpu', 'CPU contention'],
  ['network', 'network delay'],
  ['code', 'code fault (return value, exception)'],
];

const pct = (k: number, n: number): string => (n ? `${((100 * k) / n).toFixed(1)}` : '-');

/**
 * The results as Markdown: the paper's reference figures, per fault, then per kind of fault (CPU,
 * network, code; the resource faults together) each split by whether the rule paged for it or a
 * page was raised by hand (never paged), and the totals of all faults.
 */
export function report(results: FaultResult[], withoutLogs = false): string {
  const lines = [
    `Nezha TrainTicket (rca_data/2023-01-29, 2023-01-30), service-level localisation, ${withoutLogs ? 'metrics only (--without-logs)' : "with the pods' logs in a Loki"}.`,
    'Reference, Nezha paper (FSE 2023) on TrainTicket: Nezha top-1 86.7 % with logs and traces, 42.2 % without logs; MicroRCA top-1 20.0 %.',
    `A fault the rule never paged for is investigated from a page raised by hand for ${ENTRY_SERVICE}, ${HAND_PAGE_AFTER_SECONDS / 60} min after the injection ("never paged").`,
    '',
    '| fault | kind | paged | alert fired for (group) | status | conclusion | candidates | top-1 | top-3 | citations exist | false verified | seconds | first cause |',
    '|---|---|---|---|---|---|---|---|---|---|---|---:|---|',
  ];
  const yes = (b: boolean): string => (b ? 'yes' : 'no');
  for (const r of results)
    lines.push(
      `| ${r.fault.id} | ${r.fault.type} | ${r.paged ? 'yes' : 'no (by hand)'} | ${r.alerted.join(', ') || '-'} | ${r.status} | ${r.conclusionStatus ?? '-'} | ${r.candidates.slice(0, 3).join(', ') || '-'} | ${yes(r.top1)} | ${yes(r.top3)} | ${yes(r.citationsExist)} | ${yes(r.falseVerified)} | ${r.seconds.toFixed(1)} | ${(r.error ?? r.cause).replace(/\|/g, '\\|').slice(0, 200) || '-'} |`,
    );
  lines.push(
    '',
    '| kind | paged | faults | top-1 | top-1 % | top-3 | top-3 % | false verified | citations exist | harness errors | mean seconds |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  );
  const row = (label: string, split: string, rs: FaultResult[]): void => {
    const investigated = rs.filter((r) => r.investigationId !== null);
    const mean = investigated.length ? investigated.reduce((s, r) => s + r.seconds, 0) / investigated.length : 0;
    const top1 = rs.filter((r) => r.top1).length;
    const top3 = rs.filter((r) => r.top3).length;
    lines.push(
      `| ${label} | ${split} | ${rs.length} | ${top1}/${rs.length} | ${pct(top1, rs.length)} | ${top3}/${rs.length} | ${pct(top3, rs.length)} | ${rs.filter((r) => r.falseVerified).length} | ${investigated.filter((r) => r.citationsExist).length}/${investigated.length} | ${rs.filter((r) => r.status === 'harness error').length} | ${mean.toFixed(1)} |`,
    );
  };
  const split = (label: string, rs: FaultResult[]): void => {
    for (const paged of [true, false])
      row(
        label,
        paged ? 'paged' : 'never paged',
        rs.filter((r) => r.paged === paged),
      );
    row(label, 'all', rs);
  };
  for (const [kind, label] of KINDS)
    split(
      label,
      results.filter((r) => r.fault.kind === kind),
    );
  split(
    'resource faults (CPU, network)',
    results.filter((r) => r.fault.kind !== 'code'),
  );
  split('all faults', results);
  const n = results.length;
  const top1 = results.filter((r) => r.top1).length;
  const top3 = results.filter((r) => r.top3).length;
  lines.push(
    '',
    `All faults: top-1 ${top1}/${n} (${pct(top1, n)} %), top-3 ${top3}/${n} (${pct(top3, n)} %); ` +
      `paged ${results.filter((r) => r.paged).length}, never paged ${results.filter((r) => !r.paged).length}.`,
  );
  return lines.join('\n');
}
