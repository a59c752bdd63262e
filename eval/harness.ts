import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { MonitoringProcess } from '../test/support/monitoring-stack';
import { until } from '../test/support/until';
import type { HeldCondition } from './datastore-scenarios';
import { ReportedChange, Rule, Scenario } from './scenarios';
import { conventionOf, suiteOf } from './suites';

const run = promisify(execFile);

/** The Prometheus scrape and rule evaluation interval of the generated data (kube-prometheus's). */
export const INTERVAL_SECONDS = 30;

/** The service's HTTP API as the harness uses it: the tests' Client fits, and so does the runner's. */
export interface ApiClient {
  get(path: string): Promise<{ status: number; body: unknown }>;
  post(path: string, body?: unknown): Promise<{ status: number; body: unknown }>;
}

/** A scenario's data served by a real Prometheus with the scenario's alerting rules. */
export interface StagedPrometheus {
  prometheus: MonitoringProcess;
  start: number;
  end: number;
  series: number;
  stop(): Promise<void>;
}

function rulesFile(rules: Rule[], interval: number): string {
  const lines = ['groups:', '  - name: shop', `    interval: ${interval}s`, '    rules:'];
  for (const r of rules) {
    lines.push(`      - alert: ${r.alert}`, `        expr: ${JSON.stringify(r.expr)}`, `        for: ${r.forSeconds}s`);
    lines.push(`        labels: ${JSON.stringify(r.labels ?? {})}`, `        annotations: ${JSON.stringify(r.annotations ?? {})}`);
  }
  return `${lines.join('\n')}\n`;
}

/** A Prometheus serving backfilled data, with alerting rules loaded. */
export interface StagedData {
  prometheus: MonitoringProcess;
  stop(): Promise<void>;
}

/** A live target the staged Prometheus scrapes besides serving the backfilled data (every second). */
export interface ScrapeTarget {
  job: string;
  /** host:port of its /metrics. */
  address: string;
}

/**
 * Backfills the OpenMetrics text `write` puts in its file into a TSDB with
 * `promtool tsdb create-blocks-from openmetrics` and starts Prometheus on it, evaluating `rules`
 * every `interval` seconds and scraping `targets` (none by default). Backfilled series have no
 * metadata (what type their target declared): only a scraped target's metrics do.
 */
export async function stageOpenMetrics(
  name: string,
  write: (file: string) => Promise<void>,
  rules: Rule[],
  interval = INTERVAL_SECONDS,
  targets: ScrapeTarget[] = [],
): Promise<StagedData> {
  const dir = mkdtempSync(join(tmpdir(), `svc-eval-${name}-`));
  try {
    const file = join(dir, 'data.om');
    await write(file);
    await run('promtool', ['tsdb', 'create-blocks-from', 'openmetrics', file, join(dir, 'tsdb')], { maxBuffer: 16 * 1024 * 1024 });
    rmSync(file);
    const scrapes = targets.flatMap((t) => [`  - job_name: ${t.job}`, '    scrape_interval: 1s', `    static_configs: [{ targets: ['${t.address}'] }]`]);
    const lines = ['global:', `  scrape_interval: ${interval}s`, `  evaluation_interval: ${interval}s`, 'rule_files:', '  - rules.yml'];
    const config = [...lines, ...(scrapes.length ? ['scrape_configs:', ...scrapes] : []), ''].join('\n');
    const prometheus = await MonitoringProcess.prometheus(config, undefined, { 'rules.yml': rulesFile(rules, interval) }, join(dir, 'tsdb'));
    return {
      prometheus,
      stop: async () => {
        await prometheus.stop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

/** The end of data staged at `now` (Unix seconds): the last evaluation before it. */
const dataEnd = (now: number): number => Math.floor(now / INTERVAL_SECONDS) * INTERVAL_SECONDS;

/**
 * Generates the scenario's three hours of data ending now and serves it with the scenario's rules;
 * a datastore scenario's onset follows `conditionAt`, when its condition began. `targets` are
 * scraped live besides (see stageOpenMetrics).
 */
export async function stagePrometheus(
  scenario: Scenario,
  now = Date.now() / 1000,
  conditionAt?: number,
  targets: ScrapeTarget[] = [],
): Promise<StagedPrometheus> {
  const end = dataEnd(now);
  const cluster = scenario.build(end, conditionAt);
  cluster.emit();
  const staged = await stageOpenMetrics(
    scenario.name,
    (file) => cluster.telemetry.writeOpenMetrics(file),
    [scenario.rule, ...(scenario.otherRules ?? [])],
    INTERVAL_SECONDS,
    targets,
  );
  return { ...staged, start: cluster.start, end, series: cluster.telemetry.seriesCount };
}

/** One alert as Prometheus's rule manager sends it: firing from `firedAt`, resolved at `resolvedAt`. */
export interface DerivedAlert {
  rule: Rule;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  activeAt: number;
  firedAt: number;
  resolvedAt: number | null;
}

/**
 * The alerts a rule sent over the data, as the rule manager would have: the expression evaluated
 * at every evaluation (every `interval` seconds); a label set returned at consecutive evaluations is pending from the first,
 * firing once it held for the rule's `for`, resolved at the first evaluation without it.
 */
export async function deriveAlerts(prometheusUrl: string, rule: Rule, start: number, end: number, interval = INTERVAL_SECONDS): Promise<DerivedAlert[]> {
  const params = new URLSearchParams({ query: rule.expr, start: String(start), end: String(end), step: String(interval) });
  const res = await fetch(`${prometheusUrl}/api/v1/query_range?${params}`);
  const body = (await res.json()) as {
    status: string;
    error?: string;
    data: { result: Array<{ metric: Record<string, string>; values: Array<[number, string]> }> };
  };
  if (body.status !== 'success') throw new Error(`evaluating ${rule.alert}: ${body.error}`);
  const alerts: DerivedAlert[] = [];
  for (const series of body.data.result) {
    const { __name__: _name, ...metric } = series.metric;
    const labels = { ...metric, ...rule.labels, alertname: rule.alert };
    let activeAt: number | null = null;
    let previous = -Infinity;
    let value = '';
    const close = (resolvedAt: number | null): void => {
      if (activeAt === null) return;
      const firedAt = Math.ceil((activeAt + rule.forSeconds) / interval) * interval;
      if (firedAt <= previous) alerts.push({ rule, labels, annotations: annotate(rule.annotations ?? {}, labels, value), activeAt, firedAt, resolvedAt });
    };
    for (const [t, v] of series.values) {
      if (activeAt !== null && t - previous > interval) {
        close(previous + interval);
        activeAt = null;
      }
      activeAt ??= t;
      previous = t;
      value = v;
    }
    close(previous + interval <= end ? previous + interval : null);
  }
  return alerts.sort((a, b) => a.firedAt - b.firedAt);
}

/** Alert annotation templates, the few forms the scenarios use. */
function annotate(templates: Record<string, string>, labels: Record<string, string>, value: string): Record<string, string> {
  const number = Number(value);
  return Object.fromEntries(
    Object.entries(templates).map(([k, v]) => [
      k,
      v
        .replace(/\{\{ \$labels\.(\w+) \}\}/g, (_, l: string) => labels[l] ?? '')
        .replace(/\{\{ \$value \| humanizePercentage \}\}/g, `${(number * 100).toFixed(2)}%`)
        .replace(/\{\{ \$value \}\}/g, Number.isFinite(number) ? String(Number(number.toPrecision(4))) : value),
    ]),
  );
}

const iso = (seconds: number): string => new Date(seconds * 1000).toISOString();

const fingerprint = (labels: Record<string, string>): string =>
  createHash('sha256')
    .update(
      Object.entries(labels)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([k, v]) => `${k}\u00ff${v}`)
        .join('\u00ff'),
    )
    .digest('hex')
    .slice(0, 16);

/**
 * The notifications Alertmanager sends for the group of `page` (kube-prometheus groups by
 * namespace) up to the moment `page` fires: one at each change of the group (an alert firing or
 * resolving), each listing the group's alerts in their state then, in the webhook's v4 payload.
 */
export function notifications(page: DerivedAlert, others: DerivedAlert[]): unknown[] {
  const namespace = page.labels.namespace ?? '';
  const group = [page, ...others.filter((a) => (a.labels.namespace ?? '') === namespace && a.firedAt <= page.firedAt)];
  const moments = [...new Set(group.flatMap((a) => [a.firedAt, ...(a.resolvedAt !== null && a.resolvedAt <= page.firedAt ? [a.resolvedAt] : [])]))].sort(
    (a, b) => a - b,
  );
  const groupLabels = { namespace };
  return moments.map((at) => {
    // Per alert (one fingerprint), its latest episode that fired by then; resolved ones are sent once more.
    const latest = new Map<string, DerivedAlert>();
    for (const a of group.filter((x) => x.firedAt <= at).sort((x, y) => x.firedAt - y.firedAt)) latest.set(fingerprint(a.labels), a);
    const alerts = [...latest.values()]
      .filter((a) => a.resolvedAt === null || a.resolvedAt >= at)
      .map((a) => {
        const resolved = a.resolvedAt !== null && a.resolvedAt <= at;
        return {
          status: resolved ? 'resolved' : 'firing',
          labels: a.labels,
          annotations: a.annotations,
          startsAt: iso(a.firedAt),
          endsAt: resolved ? iso(a.resolvedAt!) : '0001-01-01T00:00:00Z',
          generatorURL: `http://prometheus-k8s.monitoring.svc:9090/graph?g0.expr=${encodeURIComponent(a.rule.expr)}&g0.tab=1`,
          fingerprint: fingerprint(a.labels),
        };
      });
    const firing = alerts.filter((a) => a.status === 'firing');
    const common = (pick: (a: (typeof alerts)[number]) => Record<string, string>): Record<string, string> =>
      Object.fromEntries(Object.entries(pick(alerts[0])).filter(([k, v]) => alerts.every((a) => pick(a)[k] === v)));
    return {
      receiver: 'incident-service',
      status: firing.length ? 'firing' : 'resolved',
      alerts,
      groupLabels,
      commonLabels: common((a) => a.labels),
      commonAnnotations: common((a) => a.annotations),
      externalURL: 'http://alertmanager-main.monitoring.svc:9093',
      version: '4',
      groupKey: `{}:{namespace="${namespace}"}`,
      truncatedAlerts: 0,
    };
  });
}

/** What a scenario's run produced, scored. */
export interface ScenarioResult {
  scenario: Scenario;
  /** The Organization the scenario ran in (each has its own); absent for a result that never reached one. */
  organizationId?: string;
  investigationId: string | null;
  status: string;
  conclusionStatus: string | null;
  /** The first `cause` finding names every distinguishing value of the cause. */
  top1: boolean;
  /** One of the first three distinct candidate causes the conclusion states names it (see `candidates`). */
  top3: boolean;
  /** Every citation names a run, and a cited run read a series of the cause. */
  grounded: boolean;
  citationsExist: boolean;
  /** `verified_cause` with a wrong first cause. */
  falseConfidence: boolean;
  seconds: number;
  cause: string;
  /** The alert names in the investigated incident, in the order they arrived. */
  alerts: string[];
  error: string | null;
}

interface RunView {
  ordinal: number;
  tool: string;
  outcome: string;
  arguments: Record<string, unknown>;
  summary: string | null;
}

interface Cited {
  runRefs?: number[];
  evidenceRefs?: Array<{ toolRunOrdinal: number }>;
}

/** The parts of an investigation's single read (GET /api/v1/investigations/{id}) that are scored. */
export interface InvestigationRead {
  id: string;
  status: string;
  conclusionStatus?: string | null;
  error?: string | null;
  findings?: Array<Cited & { kind: string; statement: string; mechanism: string; hypothesisId?: string }>;
  hypotheses?: Array<Cited & { id: string; statement: string; status: string }>;
  actions?: Cited[];
  limitations?: Cited[];
  impact?: Cited | null;
  runs?: RunView[];
}

/** Whether `text` names every distinguishing value of the scenario's cause (any alternative of each, case-insensitive). */
function names(scenario: Scenario, text: string): boolean {
  const lower = text.toLowerCase();
  return scenario.truth.values.every((alternatives) => alternatives.some((v) => lower.includes(v.toLowerCase())));
}

/**
 * The candidate causes a conclusion states, in its order: each `cause` finding (statement and
 * mechanism), then each hypothesis that is neither refuted nor the one a cause finding confirms
 * (its statement), in the order the conclusion lists them; a text already listed is not repeated.
 */
export function candidates(investigation: InvestigationRead): string[] {
  const causes = (investigation.findings ?? []).filter((f) => f.kind === 'cause');
  const confirmed = new Set(causes.map((f) => f.hypothesisId).filter((id): id is string => !!id));
  const texts = [
    ...causes.map((f) => `${f.statement} ${f.mechanism}`),
    ...(investigation.hypotheses ?? []).filter((h) => h.status !== 'refuted' && !confirmed.has(h.id)).map((h) => h.statement),
  ];
  const seen = new Set<string>();
  return texts.filter((t) => {
    const key = t.trim().replace(/\s+/g, ' ').toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Every run a conclusion cites (findings, hypotheses, actions, limitations, impact), by ordinal, as often as cited. */
export function citedRuns(investigation: InvestigationRead): number[] {
  const citing: Cited[] = [
    ...(investigation.findings ?? []),
    ...(investigation.hypotheses ?? []),
    ...(investigation.actions ?? []),
    ...(investigation.limitations ?? []),
    investigation.impact ?? {},
  ];
  return citing.flatMap((c) => [...(c.runRefs ?? []), ...(c.evidenceRefs ?? []).map((e) => e.toolRunOrdinal)]);
}

/** Scores an ended investigation (its single read, with `runs`) against the scenario's ground truth. */
export function score(scenario: Scenario, investigation: InvestigationRead, seconds: number, alerts: string[]): ScenarioResult {
  const runs: RunView[] = investigation.runs ?? [];
  const ordinals = new Set(runs.map((r) => r.ordinal));
  const findings = investigation.findings ?? [];
  const citationsExist = citedRuns(investigation).every((r) => ordinals.has(r));
  const cited = new Set(findings.flatMap((f) => [...(f.runRefs ?? []), ...(f.evidenceRefs ?? []).map((e) => e.toolRunOrdinal)]));
  const readsCause = runs.some(
    (r) => cited.has(r.ordinal) && r.outcome === 'succeeded' && scenario.truth.series.test(`${r.tool} ${JSON.stringify(r.arguments)}`),
  );
  const cause = findings.find((f) => f.kind === 'cause');
  const top1 = !!cause && names(scenario, `${cause.statement} ${cause.mechanism}`);
  const top3 = candidates(investigation)
    .slice(0, 3)
    .some((text) => names(scenario, text));
  return {
    scenario,
    investigationId: investigation.id ?? null,
    status: investigation.status,
    conclusionStatus: investigation.conclusionStatus ?? null,
    top1,
    top3,
    grounded: citationsExist && readsCause,
    citationsExist,
    falseConfidence: investigation.conclusionStatus === 'verified_cause' && !top1,
    seconds,
    cause: cause?.statement ?? '',
    alerts,
    error: investigation.error ?? null,
  };
}

export interface RunOptions {
  /** The API's base URL (the webhook route is not under the client's session). */
  baseUrl: string;
  /**
   * Waits for the investigation to end and returns its single read (default: polls GET
   * /investigations/{id}); runScenario names the scenario's own Organization.
   */
  ended?: (id: string, organizationId?: string) => Promise<InvestigationRead>;
  log?: (line: string) => void;
  /** A folder to write each ended investigation's single read to, as `<name>.json` (`--dump=dir`). */
  dumpTo?: string;
  /** Changes to report to a changes integration before the investigation opens. */
  changes?: ReportedChange[];
  /** Integrations to create beside the Prometheus one (the datastore a scenario's condition is on). */
  integrations?: ExtraIntegration[];
  /** Conditions a datastore scenario holds, already made (by name); runScenario makes the others itself. */
  held?: Map<string, Promise<HeldCondition>>;
  /**
   * Work on the incident once its investigation ended, while its integrations and Prometheus still
   * serve it (a test's second look); runScenario names the scenario's own Organization.
   */
  afterwards?: (incidentId: string, organizationId?: string) => Promise<void>;
}

/** An integration as POST /api/v1/integrations takes it, created beside the Prometheus one (credentials left out when it takes none). */
export type ExtraIntegration = Omit<HeldCondition['integration'], 'credentials'> & { credentials?: Record<string, unknown> };

async function created(api: ApiClient, body: Record<string, unknown>): Promise<{ id: string; webhookSecret?: string }> {
  const res = await api.post('/api/v1/integrations', body);
  if (res.status !== 201) throw new Error(`creating the ${String(body.type)} integration answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body as { id: string; webhookSecret?: string };
}

/** What delivering a page's notifications and investigating its incident produced. */
export interface Investigated {
  ended: InvestigationRead;
  /** From opening the investigation to its end. */
  seconds: number;
  /** The alert names in the investigated incident, in the order they arrived. */
  alerts: string[];
}

/**
 * Delivers the notifications of `page` (with the `others` of its group) to a new Alertmanager
 * integration's webhook as Alertmanager would, with a new Prometheus integration for the data at
 * `prometheusUrl`, then opens an investigation of the incident through the API and awaits it. The
 * integrations are disabled at the end so the next investigation reads only its own Prometheus.
 */
export async function investigatePage(
  api: ApiClient,
  name: string,
  prometheusUrl: string,
  page: DerivedAlert,
  others: DerivedAlert[],
  options: RunOptions,
): Promise<Investigated> {
  const log = options.log ?? (() => undefined);
  const delivered = await deliverPage(api, name, prometheusUrl, page, others, options.baseUrl, options.changes, options.integrations);
  try {
    const { incidentId, alerts } = delivered;
    log(`${name}: ${page.rule.alert} fired at ${iso(page.firedAt)}; incident ${incidentId}`);

    const began = Date.now();
    const opened = await api.post('/api/v1/investigations', { incidentId });
    if (opened.status !== 201) throw new Error(`opening the investigation answered ${opened.status}: ${JSON.stringify(opened.body)}`);
    const { id } = opened.body as { id: string };
    const ended =
      (await options.ended?.(id)) ??
      (await until(
        async () => {
          const read = (await api.get(`/api/v1/investigations/${id}`)).body as InvestigationRead;
          return ['concluded', 'partial', 'failed', 'cancelled'].includes(read.status) ? read : undefined;
        },
        300_000,
        `investigation ${id} to end`,
        250,
      ));
    if (options.dumpTo) {
      mkdirSync(options.dumpTo, { recursive: true });
      writeFileSync(join(options.dumpTo, `${name}.json`), `${JSON.stringify(ended, null, 2)}\n`);
    }
    await options.afterwards?.(incidentId);
    return { ended, seconds: (Date.now() - began) / 1000, alerts };
  } finally {
    await delivered.disable();
  }
}

/** An incident opened by a page delivered as Alertmanager would, with the integrations that read it. */
export interface DeliveredPage {
  incidentId: string;
  /** The alert names the incident holds. */
  alerts: string[];
  /** Disables the integrations created for it. */
  disable(): Promise<void>;
}

/** Reports changes to a new changes integration's webhook in the generic format; returns the integration. */
async function reportChanges(api: ApiClient, name: string, changes: ReportedChange[], baseUrl: string): Promise<string> {
  const integration = await created(api, { type: 'changes', name: `Changes (${name})` });
  const body = {
    changes: changes.map(({ at, ...change }) => ({ ...change, id: `${name}/${change.id}`, timestamp: new Date(at * 1000).toISOString() })),
  };
  const res = await fetch(`${baseUrl}/webhooks/v1/integrations/${integration.id}/change-events`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-svc-token': integration.webhookSecret! },
    body: JSON.stringify(body),
  });
  if (res.status !== 202 && res.status !== 200) throw new Error(`the change webhook answered ${res.status}: ${await res.text()}`);
  return integration.id;
}

/**
 * Creates an Alertmanager and a Prometheus integration (reading `prometheusUrl`, verified), reports
 * the `changes` (when any) to a changes integration, and delivers `page` and the `others` to the
 * webhook as Alertmanager would: the incident they open.
 */
export async function deliverPage(
  api: ApiClient,
  name: string,
  prometheusUrl: string,
  page: DerivedAlert,
  others: DerivedAlert[],
  baseUrl: string,
  changes: ReportedChange[] = [],
  extra: ExtraIntegration[] = [],
): Promise<DeliveredPage> {
  const integrations: string[] = [];
  const disable = async (): Promise<void> => {
    for (const id of integrations) await api.post(`/api/v1/integrations/${id}/disable`).catch(() => undefined);
  };
  try {
    const am = await created(api, { type: 'alertmanager', name: `Alertmanager (${name})` });
    integrations.push(am.id);
    const prom = await created(api, { type: 'prometheus', name: `Prometheus (${name})`, config: { baseUrl: prometheusUrl } });
    integrations.push(prom.id);
    const verified = await api.post(`/api/v1/integrations/${prom.id}/verify`);
    if ((verified.body as { lastVerification?: { outcome?: string } }).lastVerification?.outcome !== 'succeeded')
      throw new Error(`verifying Prometheus: ${JSON.stringify(verified.body)}`);
    if (changes.length > 0) integrations.push(await reportChanges(api, name, changes, baseUrl));
    for (const body of extra) {
      const { id } = await created(api, body);
      integrations.push(id);
      const verified = await api.post(`/api/v1/integrations/${id}/verify`);
      const outcome = (verified.body as { lastVerification?: { outcome?: string; detail?: string } }).lastVerification;
      if (outcome?.outcome !== 'succeeded') throw new Error(`verifying ${body.name}: ${JSON.stringify(verified.body)}`);
    }

    let incidentId: string | undefined;
    for (const payload of notifications(page, others)) {
      const res = await fetch(`${baseUrl}/webhooks/v1/integrations/${am.id}/alert-events`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${am.webhookSecret}` },
        body: JSON.stringify(payload),
      });
      const answer = (await res.json()) as { incidentIds?: string[] };
      if (res.status !== 202 && res.status !== 200) throw new Error(`the webhook answered ${res.status}: ${JSON.stringify(answer)}`);
      incidentId = answer.incidentIds?.[0] ?? incidentId;
    }
    if (!incidentId) throw new Error('no incident was opened');
    // The alerts the investigated incident holds (earlier episodes of a flapping alert opened others).
    const events = (await api.get(`/api/v1/incidents/${incidentId}/alert-events?limit=200`)).body as { items?: Array<{ labels: Record<string, string> }> };
    const alerts = [...new Set((events.items ?? []).map((e) => e.labels.alertname))];

    return { incidentId, alerts, disable };
  } catch (error) {
    await disable();
    throw error;
  }
}

/**
 * Runs one scenario end to end: its data in a real Prometheus, its alerts delivered to a new
 * Alertmanager integration's webhook as Alertmanager would, an investigation of the incident
 * opened through the API and awaited, and scored.
 */
export async function runScenario(api: ApiClient, scenario: Scenario, options: RunOptions): Promise<ScenarioResult> {
  const log = options.log ?? (() => undefined);
  const tenant = await ownOrganization(api, scenario.name);
  const held = scenario.datastore ? await (options.held?.get(scenario.name) ?? scenario.datastore.hold()) : undefined;
  if (held && scenario.datastore) {
    // The page fires in data that reaches this far past the condition: wait for the clock to get there.
    const ready = held.at + scenario.datastore.leadSeconds;
    const wait = Math.max(0, ready - dataEnd(Date.now() / 1000));
    if (wait > 0) log(`${scenario.name}: the condition on ${held.integration.name} began; the page fires in data ${Math.ceil(wait)} s from now`);
    await new Promise((resolve) => setTimeout(resolve, (wait + (wait > 0 ? INTERVAL_SECONDS : 0)) * 1000));
  }
  const staged = await stagePrometheus(scenario, Date.now() / 1000, held?.at).catch(async (error: unknown) => {
    await held?.release();
    throw error;
  });
  try {
    log(`${scenario.name}: ${staged.series} series in ${staged.prometheus.url}`);
    const derived = await Promise.all(
      [scenario.rule, ...(scenario.otherRules ?? [])].map((r) => deriveAlerts(staged.prometheus.url, r, staged.start, staged.end)),
    );
    const [pages, ...others] = derived;
    const page = pages[0];
    if (!page) throw new Error(`${scenario.rule.alert} never fired over the data of ${scenario.name}`);
    log(`${scenario.name}: ${scenario.rule.alert} fires ${Math.round((staged.end - page.firedAt) / 60)} min before the end of the data`);
    const { ended, seconds, alerts } = await investigatePage(tenant.api, scenario.name, staged.prometheus.url, page, others.flat(), {
      ...options,
      ended: options.ended && ((id) => options.ended!(id, tenant.id)),
      afterwards: options.afterwards && ((incidentId) => options.afterwards!(incidentId, tenant.id)),
      changes: scenario.changes?.(staged.end),
      integrations: held ? [held.integration] : [],
    });
    return { ...score(scenario, ended, seconds, alerts), organizationId: tenant.id };
  } finally {
    await staged.stop();
    await held?.release();
  }
}

/** The resources an Organization's alias paths (`/api/v1/organizations/{organization}/…`) answer for. */
const ALIASED = /^\/api\/v1\/(?=(integrations|incidents|investigations|changes)(\/|\?|$))/;

/**
 * A new Organization for one scenario, and a client that addresses it: what a scenario's
 * investigation records (changes, rollouts, calls between services) is read by no other
 * scenario, as no tenant reads another's. The caller becomes its Admin.
 */
async function ownOrganization(api: ApiClient, scenario: string): Promise<{ id: string; api: ApiClient }> {
  const id = `eval-${randomBytes(6).toString('hex')}`;
  const res = await api.post('/api/v1/organizations', { id, displayName: `Evaluation: ${scenario}`.slice(0, 256) });
  if (res.status !== 201) throw new Error(`creating the scenario's Organization answered ${res.status}: ${JSON.stringify(res.body)}`);
  const aliased = (path: string) => path.replace(ALIASED, `/api/v1/organizations/${id}/`);
  return { id, api: { get: (path) => api.get(aliased(path)), post: (path, body) => api.post(aliased(path), body) } };
}

const yes = (b: boolean): string => (b ? 'yes' : 'no');

/** Totals of a set of results. */
export interface Totals {
  scenarios: number;
  top1: number;
  top3: number;
  grounded: number;
  falseConfidence: number;
  /** Ended without a harness error and not `failed`. */
  ended: number;
  meanSeconds: number;
  maxSeconds: number;
}

export function totals(results: ScenarioResult[]): Totals {
  const count = (f: (r: ScenarioResult) => boolean): number => results.filter(f).length;
  const seconds = results.map((r) => r.seconds);
  return {
    scenarios: results.length,
    top1: count((r) => r.top1),
    top3: count((r) => r.top3),
    grounded: count((r) => r.grounded),
    falseConfidence: count((r) => r.falseConfidence),
    ended: count((r) => r.status !== 'failed' && !r.error),
    meanSeconds: seconds.length ? Number((seconds.reduce((a, b) => a + b, 0) / seconds.length).toFixed(1)) : 0,
    maxSeconds: seconds.length ? Number(Math.max(...seconds).toFixed(1)) : 0,
  };
}

function groupBy(results: ScenarioResult[], key: (r: ScenarioResult) => string): Record<string, ScenarioResult[]> {
  const groups = new Map<string, ScenarioResult[]>();
  for (const r of results) groups.set(key(r), [...(groups.get(key(r)) ?? []), r]);
  return Object.fromEntries(groups);
}

/** Totals per value of `key` (a suite, a convention), in the order the values first appear. */
export function totalsBy(results: ScenarioResult[], key: (r: ScenarioResult) => string): Record<string, Totals> {
  return Object.fromEntries(Object.entries(groupBy(results, key)).map(([k, rs]) => [k, totals(rs)]));
}

const bySuite = (r: ScenarioResult): string => suiteOf(r.scenario);
const byConvention = (r: ScenarioResult): string => conventionOf(r.scenario);

function totalsTable(title: string, groups: Record<string, Totals>): string[] {
  const lines = [
    `| ${title} | scenarios | top-1 | top-3 | grounded | false confidence | ended | mean s | max s |`,
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const [k, t] of Object.entries(groups)) {
    lines.push(
      `| ${k} | ${t.scenarios} | ${t.top1}/${t.scenarios} | ${t.top3}/${t.scenarios} | ${t.grounded}/${t.scenarios} | ${t.falseConfidence}/${t.scenarios} | ${t.ended}/${t.scenarios} | ${t.meanSeconds.toFixed(1)} | ${t.maxSeconds.toFixed(1)} |`,
    );
  }
  return lines;
}

/** The results as Markdown tables: per scenario, then totals per suite, per convention in each suite, then in all. */
export function table(results: ScenarioResult[]): string {
  const lines = [
    '| scenario | suite | convention | family | red herrings | alerts in the incident | status | conclusion | top-1 | top-3 | grounded | false confidence | seconds | first cause stated |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---:|---|',
  ];
  for (const r of results) {
    const cause = (r.error ?? r.cause).replace(/\|/g, '\\|').slice(0, 240);
    lines.push(
      `| ${r.scenario.name} | ${bySuite(r)} | ${byConvention(r)}${r.scenario.missing?.length ? ` (no ${r.scenario.missing.join(', ')})` : ''} | ${r.scenario.family} | ${r.scenario.redHerrings.join('; ') || 'none'} | ${r.alerts.join(', ') || '-'} | ${r.status} | ${r.conclusionStatus ?? '-'} | ${yes(r.top1)} | ${yes(r.top3)} | ${yes(r.grounded)} | ${yes(r.falseConfidence)} | ${r.seconds.toFixed(1)} | ${cause || '-'} |`,
    );
  }
  const all = totals(results);
  const n = all.scenarios;
  lines.push('', ...totalsTable('suite', totalsBy(results, bySuite)));
  // Per convention within each suite: the holdout's stay apart from what may be tuned on.
  for (const [suite, rs] of Object.entries(groupBy(results, bySuite))) lines.push('', ...totalsTable(`${suite}: convention`, totalsBy(rs, byConvention)));
  lines.push(
    '',
    `Totals: top-1 ${all.top1}/${n}, top-3 ${all.top3}/${n}, grounded ${all.grounded}/${n}, false confidence ${all.falseConfidence}/${n}, ` +
      `ended without error ${all.ended}/${n}, mean ${all.meanSeconds.toFixed(1)} s, max ${all.maxSeconds.toFixed(1)} s per investigation.`,
  );
  return lines.join('\n');
}

/**
 * The results as JSON, for comparing runs: each scenario's scores, and the totals per suite, per
 * convention in each suite, per convention over the suites run, and in all.
 */
export function resultsJson(results: ScenarioResult[], meta: Record<string, unknown> = {}): unknown {
  return {
    ...meta,
    scenarios: results.map((r) => ({
      name: r.scenario.name,
      suite: bySuite(r),
      convention: byConvention(r),
      missing: r.scenario.missing ?? [],
      family: r.scenario.family,
      seed: r.scenario.seed,
      investigationId: r.investigationId,
      status: r.status,
      conclusionStatus: r.conclusionStatus,
      top1: r.top1,
      top3: r.top3,
      grounded: r.grounded,
      falseConfidence: r.falseConfidence,
      seconds: Number(r.seconds.toFixed(1)),
      alerts: r.alerts,
      cause: r.cause,
      error: r.error,
    })),
    totals: {
      all: totals(results),
      bySuite: totalsBy(results, bySuite),
      bySuiteAndConvention: Object.fromEntries(Object.entries(groupBy(results, bySuite)).map(([suite, rs]) => [suite, totalsBy(rs, byConvention)])),
      byConvention: totalsBy(results, byConvention),
    },
  };
}

/** What staging a scenario showed: whether its page fired, when, and which other alerts fired. */
export interface StageResult {
  scenario: Scenario;
  series: number;
  /** Minutes before the end of the data the page first fired; null when it never did. */
  pageFiredMinutesAgo: number | null;
  /** Firing episodes of the page over the data. */
  pageEpisodes: number;
  /** The other rules' alerts that fired (alert name and episodes). */
  others: Record<string, number>;
  seconds: number;
  error: string | null;
}

/**
 * Stages a scenario's Prometheus and derives its alerts as `runScenario` does, without the API and
 * worker: shows that its page fires over the data, and when.
 */
export async function stageScenario(scenario: Scenario): Promise<StageResult> {
  const started = Date.now();
  const staged = await stagePrometheus(scenario);
  try {
    const [pages, ...others] = await Promise.all(
      [scenario.rule, ...(scenario.otherRules ?? [])].map((r) => deriveAlerts(staged.prometheus.url, r, staged.start, staged.end)),
    );
    const counts: Record<string, number> = {};
    for (const a of others.flat()) counts[a.rule.alert] = (counts[a.rule.alert] ?? 0) + 1;
    return {
      scenario,
      series: staged.series,
      pageFiredMinutesAgo: pages[0] ? Math.round((staged.end - pages[0].firedAt) / 60) : null,
      pageEpisodes: pages.length,
      others: counts,
      seconds: (Date.now() - started) / 1000,
      error: null,
    };
  } finally {
    await staged.stop();
  }
}
