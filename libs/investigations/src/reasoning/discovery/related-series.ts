import { MAX_QUERY_CHARS } from '../../tools/prometheus/query-step';
import { quote } from '../explainers/labels';
import type { InvestigationSession, RecordedRun, SourceBrief } from '../reasoner';
import { seriesOf } from '../series-reading';
import { Entity, entityPattern } from './entity';
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

/** Kinds the ranking reads, most telling first (a run holds few measures; the first ones read). */
const KIND_ORDER: Array<Meaning['kind']> = ['errors', 'latency', 'availability', 'saturation', 'restarts', 'throughput'];

/** How many label names are asked about in one discovery query. */
const MAX_LABELS = 40;

/** Selectors of the series that share one of the alert's own identifying labels (not its name or severity). */
function sampleSelectors(alertLabels: Record<string, string>): string[] {
  return Object.entries(alertLabels)
    .filter(([k, v]) => v && !['alertname', 'severity', 'priority', 'team', 'prometheus', 'receiver'].includes(k))
    .map(([k, v]) => `{${k}=${quote(v)}}`)
    .slice(0, 6);
}

export interface Discovery {
  measures: Measure[];
  runs: RecordedRun[];
}

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
 * matches the subject. Two reads, whatever the exporters are called.
 */
export async function discoverMeasures(read: PrometheusReader, subject: Subject, at: string): Promise<Discovery> {
  const selectors = subject.sample;
  if (!selectors.length) return { measures: [], runs: [] };
  const sample = await read(
    'prometheus.query',
    { query: `topk by (__name__) (1, ${selectors.join(' or ')})`, time: at },
    `Which metrics and labels exist around ${subject.name}: one series of each metric there`,
  );
  const examples = new Map<string, Record<string, string>>();
  for (const s of seriesOf(sample)) if (s.metric.__name__) examples.set(s.metric.__name__, s.metric);
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
  const naming = await read('prometheus.query', { query: clauses.join(' or '), time: at }, `Which metrics name ${subject.name}, and by which label`);
  const measures: Measure[] = [];
  for (const s of seriesOf(naming)) {
    const metric = s.metric.__name__;
    const label = s.metric.via;
    if (!metric || !label) continue;
    const meaning = meaningOf({ __name__: metric, ...(examples.get(metric) ?? {}) });
    if (!KIND_ORDER.includes(meaning.kind)) continue;
    // A histogram is read through its buckets: its sum and count say nothing more.
    if (/_(sum|count)$/.test(metric) && examples.has(metric.replace(/_(sum|count)$/, '_bucket'))) continue;
    const example = examples.get(metric) ?? {};
    const peerLabel = CALLER_LABEL.test(label) ? PEER_LABELS.find((p) => p !== label && example[p] !== undefined) : undefined;
    const outcomeLabel = meaning.counter && !meaning.distribution ? OUTCOME_LABELS.find((o) => example[o] !== undefined) : undefined;
    // A summary is read at its 0.9 or 0.95 quantile where it has one, else at the quantile the sample shows.
    const quantile = meaning.distribution === 'summary' && example.quantile !== undefined ? `0.9|0.95|${example.quantile}` : undefined;
    const series = Number(s.value?.[1] ?? 1);
    measures.push({
      metric,
      label,
      peerLabel,
      outcomeLabel,
      quantile,
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
  const kept = [...chosen.values()].sort(
    (a, b) =>
      KIND_ORDER.indexOf(a.meaning.kind) - KIND_ORDER.indexOf(b.meaning.kind) ||
      Number(!!b.peerLabel) - Number(!!a.peerLabel) ||
      (a.metric < b.metric ? -1 : 1),
  );
  return { measures: kept, runs: [sample, naming] };
}

/** The PromQL of a measure over a subject: a rate, a failure ratio's parts, a p90, or a gauge, by the naming label (and peer, and outcome). */
export function measureExpression(m: Measure, subject: Pick<Subject, 'pattern' | 'within'>): string {
  const matchers = [
    `${m.label}=~${quote(subject.pattern)}`,
    ...(subject.within ? [subject.within] : []),
    ...(m.quantile ? [`quantile=~${quote(m.quantile.replace(/\./g, '\\.'))}`] : []),
  ];
  const selector = `${m.metric}{${matchers.join(', ')}}`;
  const by = [m.label, ...(m.peerLabel ? [m.peerLabel] : [])];
  if (m.meaning.distribution === 'histogram') return `histogram_quantile(0.9, sum by (le, ${by.join(', ')}) (rate(${selector}[2m])))`;
  if (m.meaning.counter) return `sum by (${[...by, ...(m.outcomeLabel ? [m.outcomeLabel] : [])].join(', ')}) (rate(${selector}[2m]))`;
  return `${m.meaning.kind === 'availability' || m.meaning.worse === 'down' ? 'min' : 'max'} by (${by.join(', ')}) (${selector})`;
}
