import type { MetricType } from '../../tools/prometheus/prometheus-metadata.tool';
import { MAX_QUERY_CHARS } from '../../tools/prometheus/query-step';
import { MarkedQuery, quote } from '../explainers/labels';
import type { InvestigationSession, RecordedRun, SourceBrief } from '../reasoner';
import { SeriesOut, seriesOf } from '../series-reading';
import { DeclaredTypes, NO_DECLARED_TYPES } from './declared-types';
import { Entity, entityPattern } from './entity';
import { isScrapeTargetLabel, podIsTarget, withWorkload } from './entity-model';
import { Meaning, meaningOf, OUTCOME_LABELS } from './meaning';

/**
 * A metric that names the alert's entity, the label it names it by, and what it measures: the
 * unit the ranking reads (one expression per measure, aggregated by that label, by the peer the
 * series calls when it names one, and by its outcome when it has one).
 */
export interface Measure {
  metric: string;
  /** The label whose value names the entity (any label: `job`, `pod`, `destination_workload`, `service_name`...). */
  label: string;
  /** A label naming the other end of a call (a callee), when the series pairs two entities. */
  peerLabel?: string;
  /** The label giving each event's outcome, for a failure ratio. */
  outcomeLabel?: string;
  /** How many series name the subject by that label (before aggregation; what a read of it may return at most). */
  series?: number;
  /** For a summary: the quantiles read (the highest of them: 0.9 or 0.95 where the summary has them). */
  quantile?: string;
  /**
   * The series name pods (cAdvisor's, kube-state-metrics', an application's per pod): read by the
   * pods' workload (`label` is `workload`, added from the pod's name), whatever job or service
   * scraped them.
   */
  byWorkload?: boolean;
  /** A measure derived from several metrics (a container's CPU against its limit): its own PromQL over the subject. */
  derived?: { what: string; expression(subject: Pick<Subject, 'pattern' | 'within'>): string };
  meaning: Meaning;
}

/** Reads a tool of the investigation's Prometheus source; recorded as a numbered run. */
export type PrometheusReader = (tool: 'prometheus.query' | 'prometheus.query_range', args: Record<string, unknown>, purpose: string) => Promise<RecordedRun>;

/** The reader of `source` in `session`: each read a run of the session. */
export const prometheusReader =
  (session: InvestigationSession, source: SourceBrief): PrometheusReader =>
  (tool, args, purpose) =>
    session.runTool({ tool, integrationId: source.integrationId, arguments: args, purpose });

/** Labels that never name an entity: bucket bounds, quantiles, outcomes, methods. */
const NOT_NAMING = new Set([
  '__name__',
  'namespace',
  'le',
  'quantile',
  'method',
  'http_method',
  'http_request_method',
  'reason',
  'mode',
  'cpu',
  'device',
  'fstype',
  'mountpoint',
  ...OUTCOME_LABELS,
]);

/** Labels that name the other end of a call, in order of preference. */
const PEER_LABELS = [
  'destination_workload',
  'dst_deployment',
  'destination_service_name',
  'destination_service',
  'destination_app',
  'peer_service',
  'peer',
  'server_address',
  'net_peer_name',
  'upstream',
  'target',
  'client_name',
  'db_name',
  'grpc_service',
  'host',
];
/** Labels that name the calling side of a pair: the series is the entity's own outbound calls when it names the entity by one of them. */
const CALLER_LABEL = /^(source_|src_|client)|^(job|service|service_name|app|deployment|pod|container)$/;

/** Labels that name a service or workload as a whole first, then its replicas: fewer series for the same measure. */
const LABEL_PREFERENCE = [
  'source_workload',
  'destination_workload',
  'service',
  'service_name',
  'app',
  'deployment',
  'statefulset',
  'workload',
  'destination_service_name',
  'container',
  'job',
  'pod',
  'instance',
];

/** A metric whose series fell more than this share of the time is read as a gauge. */
const GAUGE_SHARE = 0.5;

/**
 * For counters by name, the share of each one's series that fell more than three times in the
 * half hour before `at` (a counter falls only when its process restarts), marked `falls="<name>"`
 * (functions drop the metric's name, so each metric is a clause of its own).
 */
function gaugeShapeClauses(metrics: string[], within?: string): string[] {
  return metrics.map((name) => {
    const selector = `${name}${within ? `{${within}}` : ''}`;
    return `label_replace(count(resets(${selector}[30m]) > 3) / count(resets(${selector}[30m])), "falls", ${quote(name)}, "", "")`;
  });
}

/** Kinds the ranking reads, most telling first (a run holds few measures; the first ones read). */
const KIND_ORDER: Array<Meaning['kind']> = ['errors', 'latency', 'availability', 'saturation', 'restarts', 'throughput'];

/** How many label names are asked about in one discovery query. */
const MAX_LABELS = 40;

/** Selectors of the series that share one of the alert's own identifying labels (not its name or severity). */
export function sampleSelectors(alertLabels: Record<string, string>): string[] {
  return Object.entries(alertLabels)
    .filter(([k, v]) => v && !['alertname', 'severity', 'priority', 'team', 'prometheus', 'receiver'].includes(k))
    .map(([k, v]) => `{${k}=${quote(v)}}`)
    .slice(0, 6);
}

/** The mark of a sample read together with another query (see sampleOf). */
const SAMPLE = new MarkedQuery('sample', 'one-per-metric', 'vector(0)');

/** One series of each metric among those `selectors` select. */
const sampleQuery = (selectors: string[]): string => `topk by (__name__) (1, ${selectors.join(' or ')})`;

/** The sample of a subject as a clause of another instant query at the same time, its series marked (see discoverMeasures' `sampled`). */
export const sampleClause = (subject: Pick<Subject, 'sample'>): string | null =>
  subject.sample.length ? new MarkedQuery(SAMPLE.label, SAMPLE.mark, sampleQuery(subject.sample)).query : null;

export interface Discovery {
  measures: Measure[];
  runs: RecordedRun[];
}

/**
 * Asked, once the metrics that name the subject are known, for the types their targets declared
 * (see declared-types.ts): given the measures as their names and shapes type them, and the
 * metrics whose type could change how they are read. No types: the measures stay as they are.
 */
export type TypesAsker = (untyped: { measures: Measure[]; metrics: string[] }) => Promise<DeclaredTypes>;

/**
 * What the discovery looks for: series whose label values match `pattern` (an entity's names, or
 * any value), `within` extra matchers (a namespace), sampled among the series `sample` selects.
 */
export interface Subject {
  /** How the subject is named in run purposes. */
  name: string;
  pattern: string;
  within?: string;
  sample: string[];
}

/** The subject of an entity: the series naming it, sampled among those sharing a label with the alert. */
export function entitySubject(entity: Entity, alertLabels: Record<string, string>): Subject {
  return { name: entity.name, pattern: entityPattern(entity), sample: sampleSelectors(alertLabels) };
}

/** The subject of a whole namespace: every named thing in it (its services, workloads, pods). */
export function namespaceSubject(namespace: string): Subject {
  const within = `namespace=${quote(namespace)}`;
  return { name: `namespace ${namespace}`, pattern: '.+', within, sample: [`{${within}}`] };
}

/** How directly a label names things: its place in LABEL_PREFERENCE, the others after. */
function preference(label: string): number {
  const i = LABEL_PREFERENCE.indexOf(label);
  return i < 0 ? LABEL_PREFERENCE.length : i;
}

/**
 * Finds the measures of a subject at `at` (ISO time): first a sample of one series per metric
 * among the series the subject's sample selects (their label names: which labels exist to name
 * things), then, for every such label name, the metrics with a series whose value of that label
 * matches the subject. Two reads, whatever the exporters are called; and, given `declaredTypes`,
 * the types the targets declared for the metrics found (read as a rate or as a level by them).
 */
export async function discoverMeasures(
  read: PrometheusReader,
  subject: Subject,
  at: string,
  sampled?: RecordedRun,
  declaredTypes?: TypesAsker,
): Promise<Discovery> {
  const selectors = subject.sample;
  if (!selectors.length) return { measures: [], runs: [] };
  // The sample may have been read with another query (SAMPLE's series in it, marked).
  const sample =
    sampled && seriesOf(sampled).some((s) => SAMPLE.holds(s.metric))
      ? sampled
      : await read(
          'prometheus.query',
          { query: sampleQuery(selectors), time: at },
          `Which metrics and labels exist around ${subject.name}: one series of each metric there`,
        );
  const examples = new Map<string, Record<string, string>>();
  for (const s of seriesOf(sample)) {
    if (sample === sampled && !SAMPLE.holds(s.metric)) continue;
    const { [SAMPLE.label]: _mark, ...metric } = s.metric;
    if (metric.__name__) examples.set(metric.__name__, metric);
  }
  const labelNames = [...new Set([...examples.values()].flatMap((m) => Object.keys(m)))].filter((l) => !NOT_NAMING.has(l)).slice(0, MAX_LABELS);
  if (!labelNames.length) return { measures: [], runs: [sample] };
  const within = subject.within ? `, ${subject.within}` : '';
  const clause = (l: string): string => `label_replace(count by (__name__) ({${l}=~${quote(subject.pattern)}${within}}), "via", ${quote(l)}, "", "")`;
  let clauses = labelNames.map(clause);
  if (clauses.join(' or ').length > MAX_QUERY_CHARS) {
    // As many labels as one query holds, those that name things most directly first.
    const preferred = [...labelNames].sort((a, b) => preference(a) - preference(b));
    clauses = [];
    for (const l of preferred) if ([...clauses, clause(l)].join(' or ').length <= MAX_QUERY_CHARS) clauses.push(clause(l));
  }
  // Counters by their name that go up and down like gauges (a cloud exporter's per-period `_sum`):
  // the share of their series that fell more than a few times in half an hour, in the same read.
  const counterLike = [...examples.keys()].filter((m) => /_(total|count|sum)$/.test(m) && !examples.has(m.replace(/_(total|count|sum)$/, '_bucket')));
  const shapes: string[] = [];
  for (const clause of gaugeShapeClauses(counterLike, subject.within))
    if ([...clauses, ...shapes, clause].join(' or ').length <= MAX_QUERY_CHARS) shapes.push(clause);
  const query = [...clauses, ...shapes].join(' or ');
  const naming = await read('prometheus.query', { query, time: at }, `Which metrics name ${subject.name}, and by which label`);
  const gauges = new Set(
    seriesOf(naming)
      .filter((s) => s.metric.falls && Number(s.value?.[1]) > GAUGE_SHARE)
      .map((s) => s.metric.falls),
  );
  // A histogram is read through its buckets: its sum and count say nothing more.
  const throughBuckets = (metric: string): boolean => /_(sum|count)$/.test(metric) && examples.has(metric.replace(/_(sum|count)$/, '_bucket'));
  const found = seriesOf(naming).filter((s) => s.metric.__name__ && s.metric.via && !throughBuckets(s.metric.__name__));
  const untyped = measuresOf(found, examples, gauges, NO_DECLARED_TYPES);
  if (!declaredTypes || !found.length) return { measures: untyped, runs: [sample, naming] };
  // Whether the metrics about to be read are counters, as their targets declared them: those a
  // measure could be read from whichever way their type falls, the kinds read first first.
  const all = (type: MetricType): DeclaredTypes => ({ types: new Map(found.map((s) => [s.metric.__name__, type])), runs: [] });
  const either = [...measuresOf(found, examples, gauges, all('counter')), ...measuresOf(found, examples, gauges, all('gauge'))];
  const metrics = [...new Set(either.sort((a, b) => KIND_ORDER.indexOf(a.meaning.kind) - KIND_ORDER.indexOf(b.meaning.kind)).map((m) => m.metric))];
  const declared = metrics.length ? await declaredTypes({ measures: untyped, metrics }) : NO_DECLARED_TYPES;
  if (!declared.types.size) return { measures: untyped, runs: [sample, naming] };
  return { measures: measuresOf(found, examples, gauges, declared), runs: [sample, naming, ...declared.runs] };
}

/**
 * The measures of the metrics the naming read found (`found`: metric and label pairs, with their
 * series counts), typed by what their targets declared; where nothing is declared (or `unknown`),
 * by the name, corrected by the shape (`gauges`: counters by name whose series keep falling).
 */
function measuresOf(found: SeriesOut[], examples: Map<string, Record<string, string>>, gauges: Set<string>, declared: DeclaredTypes): Measure[] {
  const measures: Measure[] = [];
  for (const s of found) {
    const metric = s.metric.__name__;
    const label = s.metric.via;
    const type = declared.types.get(metric);
    const named = meaningOf({ __name__: metric, ...(examples.get(metric) ?? {}) }, type);
    // The declared type decides; without one, the shape: a series that keeps falling is not a
    // counter, whatever its name says.
    const meaning = !type && gauges.has(metric) ? { ...named, counter: false } : named;
    if (!KIND_ORDER.includes(meaning.kind)) continue;
    const example = examples.get(metric) ?? {};
    const peerLabel = CALLER_LABEL.test(label) ? PEER_LABELS.find((p) => p !== label && example[p] !== undefined) : undefined;
    const outcomeLabel = meaning.counter && !meaning.distribution ? OUTCOME_LABELS.find((o) => example[o] !== undefined) : undefined;
    // A summary is read at its 0.9 or 0.95 quantile where it has one, else at the quantile the sample shows.
    const quantile = meaning.distribution === 'summary' && example.quantile !== undefined ? `0.9|0.95|${example.quantile}` : undefined;
    const series = Number(s.value?.[1] ?? 1);
    // A pod's series are its workload's, read by pod; a scrape target's job or service (the
    // kubelet's, kube-state-metrics') never names what they are about.
    const byWorkload =
      !peerLabel && example.pod !== undefined && !podIsTarget(example) && (label === 'pod' || label === 'container' || isScrapeTargetLabel(example, label));
    if (!byWorkload && isScrapeTargetLabel(example, label)) continue;
    measures.push({
      metric,
      label: byWorkload ? 'pod' : label,
      peerLabel,
      outcomeLabel,
      quantile,
      byWorkload: byWorkload || undefined,
      series: Number.isFinite(series) ? series : 1,
      meaning: outcomeLabel ? { ...meaning, kind: 'errors' } : meaning,
    });
  }
  // One measure per metric and side of a call (the entity's own series, or its calls to peers): the
  // label that names the entity most directly, so that a metric is not read once per label.
  const chosen = new Map<string, Measure>();
  for (const m of measures) {
    const key = `${m.metric}|${m.peerLabel ? 'calls' : 'own'}`;
    const held = chosen.get(key);
    if (!held || preference(m.label) < preference(held.label) || (preference(m.label) === preference(held.label) && m.label < held.label)) chosen.set(key, m);
  }
  return [...chosen.values()].sort(
    (a, b) =>
      KIND_ORDER.indexOf(a.meaning.kind) - KIND_ORDER.indexOf(b.meaning.kind) ||
      Number(!!b.peerLabel) - Number(!!a.peerLabel) ||
      (a.metric < b.metric ? -1 : 1),
  );
}

/** The label that names the entity in a measure's read: the workload added from pods, else the naming label. */
export const groupLabel = (m: Measure): string => (m.byWorkload ? 'workload' : m.label);

/**
 * The PromQL of a measure over a subject: a rate, a failure ratio's parts, a p90, or a gauge, by
 * the naming label (and peer, and outcome). A measure read by workload is aggregated over each
 * workload's pods: requests and calls summed, a resource's use taken from its busiest pod.
 */
export function measureExpression(m: Measure, subject: Pick<Subject, 'pattern' | 'within'>): string {
  if (m.derived) return m.derived.expression(subject);
  const matchers = [
    `${m.label}=~${quote(subject.pattern)}`,
    ...(subject.within ? [subject.within] : []),
    ...(m.quantile ? [`quantile=~${quote(m.quantile.replace(/\./g, '\\.'))}`] : []),
  ];
  const selector = `${m.metric}{${matchers.join(', ')}}`;
  if (m.byWorkload) {
    if (m.meaning.distribution === 'histogram') return `histogram_quantile(0.9, sum by (le, workload) (${withWorkload(`rate(${selector}[2m])`)}))`;
    if (m.meaning.counter && (m.meaning.kind === 'saturation' || m.meaning.kind === 'restarts'))
      return `max by (workload) (${withWorkload(`sum by (namespace, pod) (rate(${selector}[2m]))`)})`;
    if (m.meaning.counter) return `sum by (${['workload', ...(m.outcomeLabel ? [m.outcomeLabel] : [])].join(', ')}) (${withWorkload(`rate(${selector}[2m])`)})`;
    const gauge = m.meaning.kind === 'availability' || m.meaning.worse === 'down' ? 'min' : 'max';
    // A latency is the slowest series of a pod; a resource's use is the sum of the pod's containers.
    const perPod = m.meaning.kind === 'latency' ? 'max' : 'sum';
    return `${gauge} by (workload) (${withWorkload(`${perPod} by (namespace, pod) (${selector})`)})`;
  }
  const by = [m.label, ...(m.peerLabel ? [m.peerLabel] : [])];
  if (m.meaning.distribution === 'histogram') return `histogram_quantile(0.9, sum by (le, ${by.join(', ')}) (rate(${selector}[2m])))`;
  if (m.meaning.counter) return `sum by (${[...by, ...(m.outcomeLabel ? [m.outcomeLabel] : [])].join(', ')}) (rate(${selector}[2m]))`;
  return `${m.meaning.kind === 'availability' || m.meaning.worse === 'down' ? 'min' : 'max'} by (${by.join(', ')}) (${selector})`;
}
