import { count, firstOf } from '../series-name';
import { ToolFailure } from '../tool-failure';
import type { ToolDefinition } from '../tool.types';
import { readPrometheus } from './prometheus-api';

export type PrometheusMetadataArguments = { metric?: string; metrics?: string[]; limit?: number };

/** The types a scrape target may declare for a metric family (`# TYPE`), as Prometheus reports them. */
export const METRIC_TYPES = ['counter', 'gauge', 'histogram', 'gaugehistogram', 'summary', 'info', 'stateset', 'unknown'] as const;
export type MetricType = (typeof METRIC_TYPES)[number];

/** What the tool answers for one metric. */
export interface MetricMetadata {
  /** The name asked for (or, listing everything, the family's). */
  metric: string;
  /** The family whose metadata it is, when the name is one of its series (`http_request_duration_seconds` for `..._bucket`). */
  family?: string;
  /** Every type its targets declare (two when targets disagree). */
  types: string[];
  help: string | null;
  unit: string | null;
}

/** Names asked for in one run. */
export const MAX_METADATA_METRICS = 100;
const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 1000;
/** Distinct metadata of one metric that Prometheus returns (targets that declare it differently). */
const ENTRIES_PER_METRIC = 4;
const MAX_HELP = 200;

/**
 * The suffixes of a family's series, with the types whose series carry them: a counter is exposed as
 * `<family>_total` in OpenMetrics, a histogram as `_bucket`, `_sum` and `_count`, and so on.
 */
const SERIES_SUFFIXES: ReadonlyArray<readonly [string, ReadonlyArray<string>]> = [
  ['_total', ['counter']],
  ['_bucket', ['histogram', 'gaugehistogram']],
  ['_sum', ['histogram', 'summary']],
  ['_count', ['histogram', 'summary']],
  ['_created', ['counter', 'histogram', 'summary']],
  ['_gsum', ['gaugehistogram']],
  ['_gcount', ['gaugehistogram']],
  ['_info', ['info']],
];

type RawEntry = { type?: unknown; help?: unknown; unit?: unknown };
type RawMetadata = Record<string, RawEntry[]>;

/** A metric's entries in the answer (its own property only: the answer is parsed JSON). */
const entriesOf = (all: RawMetadata, name: string): RawEntry[] => (Object.hasOwn(all, name) && Array.isArray(all[name]) ? all[name] : []);

const cut = (text: string): string => (text.length > MAX_HELP ? `${text.slice(0, MAX_HELP - 1)}…` : text);

function describeEntries(metric: string, entries: RawEntry[], family?: string): MetricMetadata {
  const kept = entries.slice(0, ENTRIES_PER_METRIC);
  const types = [...new Set(kept.map((e) => String(e.type ?? 'unknown')))];
  const help = kept.map((e) => (typeof e.help === 'string' ? e.help : '')).find(Boolean);
  const unit = kept.map((e) => (typeof e.unit === 'string' ? e.unit : '')).find(Boolean);
  return { metric, ...(family ? { family } : {}), types, help: help ? cut(help) : null, unit: unit || null };
}

/**
 * The metadata of a series name: its own, or its family's when the name is one of the family's
 * series and the family's type has such series (`foo_total` of a counter `foo`, `foo_bucket` of a
 * histogram `foo`).
 */
function metadataOf(name: string, all: RawMetadata): MetricMetadata | null {
  if (entriesOf(all, name).length) return describeEntries(name, entriesOf(all, name));
  for (const [suffix, types] of SERIES_SUFFIXES) {
    if (!name.endsWith(suffix) || name.length === suffix.length) continue;
    const family = name.slice(0, -suffix.length);
    const entries = entriesOf(all, family);
    if (entries.length && entries.every((e) => types.includes(String(e.type)))) return describeEntries(name, entries, family);
  }
  return null;
}

const named = (m: MetricMetadata): string => `${m.metric} (${m.types.join(' or ')})`;

export const prometheusMetadataTool: ToolDefinition<PrometheusMetadataArguments> = {
  name: 'prometheus.metadata',
  integrationType: 'prometheus',
  description:
    'The type (counter, gauge, histogram, summary, info, stateset, unknown), help and unit that the scrape targets declare for metrics (Prometheus /api/v1/metadata). ' +
    'Use it before reading a metric whose name does not say whether it is a counter (read with rate) or a gauge (read as a level): a counter without _total, a gauge named ..._total. ' +
    'A series name (..._bucket, ..._total) is answered with its family. Only scraped metrics have metadata: backfilled or remote-written ones have none.',
  argumentsSchema: {
    type: 'object',
    properties: {
      metric: { type: 'string', pattern: '^[a-zA-Z_:][a-zA-Z0-9_:]*$', maxLength: 256, description: 'One metric name' },
      metrics: {
        type: 'array',
        minItems: 1,
        maxItems: MAX_METADATA_METRICS,
        uniqueItems: true,
        items: { type: 'string', pattern: '^[a-zA-Z_:][a-zA-Z0-9_:]*$', maxLength: 256 },
        description: `Several metric names (at most ${MAX_METADATA_METRICS}); without metric or metrics, every metric's metadata (up to limit)`,
      },
      limit: { type: 'integer', minimum: 1, maximum: MAX_LIMIT, description: `Metrics returned at most (default ${DEFAULT_LIMIT})` },
    },
    additionalProperties: false,
  },
  async run(args, context) {
    if (args.metric !== undefined && args.metrics !== undefined)
      throw new ToolFailure('Invalid arguments: give metric (one name) or metrics (a list), not both');
    const asked = args.metric !== undefined ? [args.metric] : args.metrics;
    const limit = args.limit ?? DEFAULT_LIMIT;
    // One request: a single name that is no family's series is asked for by name; a list (or such a
    // name) is matched against every metric's metadata, since the API takes one name only.
    const single = asked?.length === 1 && !SERIES_SUFFIXES.some(([suffix]) => asked[0].endsWith(suffix)) ? asked[0] : undefined;
    const query: Array<[string, string]> = [
      ...(single ? [['metric', single] as [string, string]] : []),
      ...(asked ? [] : [['limit', String(limit)] as [string, string]]),
      ['limit_per_metric', String(ENTRIES_PER_METRIC)],
    ];
    const { data, warnings, source } = await readPrometheus<RawMetadata>(context, 'api/v1/metadata', query);
    const all: RawMetadata = data && typeof data === 'object' && !Array.isArray(data) ? data : {};
    let found: MetricMetadata[];
    let missing: string[] = [];
    if (asked) {
      const answers = asked.map((name) => [name, metadataOf(name, all)] as const);
      found = answers.flatMap(([, m]) => (m ? [m] : []));
      missing = answers.filter(([, m]) => !m).map(([name]) => name);
    } else {
      found = Object.keys(all)
        .sort()
        .flatMap((name) => (entriesOf(all, name).length ? [describeEntries(name, entriesOf(all, name))] : []));
    }
    const total = found.length;
    const metrics = found.slice(0, limit);
    const which = asked ? `${total} of ${count(asked.length, 'metric')} asked` : count(total, 'metric');
    let summary = total
      ? `Metadata of ${which}: ${firstOf(metrics.map(named), 10)}.`
      : `No metadata${asked ? ` for ${firstOf(asked, 10)}` : ''}: no scrape target declares ${asked?.length === 1 ? 'it' : asked ? 'them' : 'any metric'} (backfilled and remote-written metrics have none).`;
    if (total && missing.length) summary += ` None for ${firstOf(missing, 10)}.`;
    if (total > metrics.length) summary += ` The first ${metrics.length} by the limit.`;
    // Prometheus stops at the limit: there may be more.
    if (!asked && total === limit) summary += ` At most ${limit} by the limit.`;
    if (warnings.length) summary += ` Prometheus warned: ${warnings.join('; ')}.`;
    return {
      outcome: 'succeeded',
      summary,
      output: { count: total, metrics, ...(asked ? { missing } : {}), ...(warnings.length ? { warnings } : {}) },
      truncated: false,
      sources: [source],
    };
  },
};
