import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { Dataset, Day, EDGE_BUCKETS, EdgeLatency, Recorded } from './dataset';

/**
 * The recorded metrics as the exporters of a Kubernetes cluster would expose them (the mapping is
 * in eval/nezha/README.md): cAdvisor's container series, kube-state-metrics' CPU limits, the
 * services' request latency summaries and request counters, kube-prometheus's node recording
 * rules, and the load generator's latency. Per-second rates the data records (CPU millicores,
 * network bytes, requests) become the counters whose rate they are, integrated between samples.
 * Values recorded as NaN are written as NaN, as a summary exposes a quantile of no observations.
 * The calls between services the traces show are written as the OpenTelemetry Collector's
 * `servicegraph` connector exposes them (`traces_service_graph_*`).
 */
type Labels = Record<string, string>;

interface Family {
  name: string;
  series: Array<{ labels: Labels; samples: Array<[number, number]> }>;
}

const quantiles = [
  ['0.9', 'P90'],
  ['0.95', 'P95'],
  ['0.99', 'P99'],
] as const;

/** The samples of `r` within [from, to], shifted by `shift` seconds, through `value`. */
function samples<C extends string>(r: Recorded<C>, from: number, to: number, shift: number, value: (i: number) => number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  r.t.forEach((t, i) => {
    if (t >= from && t <= to) out.push([t + shift, value(i)]);
  });
  return out;
}

/** A counter whose rate between samples is the recorded per-second rate (the later sample's), from zero at the day's first sample. */
function integrated<C extends string>(r: Recorded<C>, column: C, scale: number, from: number, to: number, shift: number): Array<[number, number]> {
  const totals: number[] = [];
  // A rate recorded as NaN adds nothing, and that scrape has no sample.
  r.t.forEach((t, i) => totals.push(i === 0 ? 0 : totals[i - 1] + (Number.isNaN(r.values[column][i]) ? 0 : r.values[column][i] * scale * (t - r.t[i - 1]))));
  return samples(r, from, to, shift, (i) => (Number.isNaN(r.values[column][i]) ? NaN : totals[i])).filter(([, v]) => !Number.isNaN(v));
}

/**
 * The times at which the service-graph counters are written: the start of each run of consecutive
 * traced minutes (the totals before it) and the end of each traced minute.
 */
function graphTimes(traced: number[]): number[] {
  const out: number[] = [];
  traced.forEach((t, i) => {
    if (i === 0 || traced[i - 1] !== t - 60) out.push(t);
    out.push(t + 60);
  });
  return out;
}

/** The `le` label of a bucket bound. */
const le = (bound: number): string => (bound === Infinity ? '+Inf' : String(bound));

/**
 * The service-graph families of a day's edges: per edge, counters cumulative over the day's traced
 * minutes (so monotonic across the separate trace windows), sampled at graphTimes within [from, to].
 */
function serviceGraph(day: Day, from: number, to: number, shift: number, add: (name: string, labels: Labels, s: Array<[number, number]>) => void): void {
  const times = graphTimes(day.traced);
  for (const e of day.edges) {
    const labels = { job: 'otel-collector', client: e.client, server: e.server };
    // The index in e.t of each minute, and the running totals at each of `times`.
    const at = new Map(e.t.map((t, i) => [t, i]));
    const written = (perMinute: (i: number) => number): Array<[number, number]> => {
      let total = 0;
      const out: Array<[number, number]> = [];
      for (const t of times) {
        // The end of a minute with calls adds them; a window's start (its previous minute untraced) repeats the total before it.
        const i = at.get(t - 60);
        if (i !== undefined) total += perMinute(i);
        if (t >= from && t <= to) out.push([t + shift, Number(total.toPrecision(12))]);
      }
      return out;
    };
    add(
      'traces_service_graph_request_total',
      labels,
      written((i) => e.calls[i]),
    );
    for (const [side, latency] of [
      ['client', e.clientSeconds],
      ['server', e.serverSeconds],
    ] as Array<[string, EdgeLatency]>) {
      const name = `traces_service_graph_request_${side}_seconds`;
      EDGE_BUCKETS.forEach((bound, b) =>
        add(
          `${name}_bucket`,
          { ...labels, le: le(bound) },
          written((i) => latency.buckets.slice(0, b + 1).reduce((n, counts) => n + counts[i], 0)),
        ),
      );
      add(
        `${name}_sum`,
        labels,
        written((i) => latency.sum[i]),
      );
      add(
        `${name}_count`,
        labels,
        written((i) => e.calls[i]),
      );
    }
  }
}

/** The families of one day's data within [from, to] (recorded times), shifted by `shift` seconds. */
export function families(dataset: Dataset, day: Day, from: number, to: number, shift: number): Family[] {
  const byName = new Map<string, Family>();
  const add = (name: string, labels: Labels, s: Array<[number, number]>): void => {
    if (!s.length) return;
    const family = byName.get(name) ?? { name, series: [] };
    byName.set(name, family);
    family.series.push({ labels, samples: s });
  };
  const namespace = dataset.namespace;
  for (const p of day.pods) {
    const cadvisor = { job: 'kubelet', metrics_path: '/metrics/cadvisor', node: p.node, namespace, pod: p.pod };
    const container = { ...cadvisor, container: p.service };
    add('container_cpu_usage_seconds_total', container, integrated(p, 'cpuMillicores', 1 / 1000, from, to, shift));
    add(
      'container_memory_working_set_bytes',
      container,
      samples(p, from, to, shift, (i) => p.values.memoryMebibytes[i] * 1024 * 1024),
    );
    if (p.memoryLimitBytes !== null)
      add(
        'container_spec_memory_limit_bytes',
        container,
        samples(p, from, to, shift, () => p.memoryLimitBytes!),
      );
    const network = { ...cadvisor, interface: 'eth0' };
    add('container_network_receive_bytes_total', network, integrated(p, 'receiveBytesPerSecond', 1, from, to, shift));
    add('container_network_transmit_bytes_total', network, integrated(p, 'transmitBytesPerSecond', 1, from, to, shift));
    if (p.cpuLimitCores !== null)
      add(
        'kube_pod_container_resource_limits',
        { job: 'kube-state-metrics', namespace, pod: p.pod, container: p.service, node: p.node, resource: 'cpu', unit: 'core' },
        samples(p, from, to, shift, () => p.cpuLimitCores!),
      );
    const app = { job: p.service, namespace, service: p.service, pod: p.pod, container: p.service };
    for (const [q, suffix] of quantiles) {
      add(
        'http_server_request_duration_seconds',
        { ...app, quantile: q },
        samples(p, from, to, shift, (i) => p.values[`server${suffix}`][i]),
      );
      add(
        'http_client_request_duration_seconds',
        { ...app, quantile: q },
        samples(p, from, to, shift, (i) => p.values[`client${suffix}`][i]),
      );
    }
    add('http_server_requests_total', app, integrated(p, 'requestsPerSecond', 1, from, to, shift));
  }
  for (const n of day.nodes) {
    const labels = { job: 'node-exporter', instance: n.node, node: n.node };
    add(
      'instance:node_cpu_utilisation:rate1m',
      labels,
      samples(n, from, to, shift, (i) => n.values.cpuPercent[i] / 100),
    );
    add(
      'instance:node_memory_utilisation:ratio',
      labels,
      samples(n, from, to, shift, (i) => n.values.memoryPercent[i] / 100),
    );
    add(
      'instance:node_network_receive_bytes_excluding_lo:rate1m',
      labels,
      samples(n, from, to, shift, (i) => n.values.receiveBytesPerSecond[i]),
    );
  }
  const f = day.frontend;
  for (const [q, key] of [
    ['0.5', 'p50'],
    ['0.9', 'p90'],
    ['0.95', 'p95'],
    ['0.99', 'p99'],
  ] as const)
    add(
      'loadgenerator_request_duration_seconds',
      { job: 'load-generator', namespace, quantile: q },
      samples(f, from, to, shift, (i) => f.values[key][i]),
    );
  serviceGraph(day, from, to, shift, add);
  return [...byName.values()];
}

/** Writes families as OpenMetrics text for `promtool tsdb create-blocks-from openmetrics`. */
export async function writeOpenMetrics(path: string, list: Family[]): Promise<number> {
  const out = createWriteStream(path);
  let series = 0;
  for (const family of list) {
    if (!out.write(`# TYPE ${family.name} unknown\n`)) await once(out, 'drain');
    for (const s of family.series) {
      series++;
      const selector = `${family.name}{${Object.entries(s.labels)
        .map(([k, v]) => `${k}="${v}"`)
        .join(',')}}`;
      if (!out.write(`${s.samples.map(([t, v]) => `${selector} ${String(v)} ${t}`).join('\n')}\n`)) await once(out, 'drain');
    }
  }
  out.end('# EOF\n');
  await once(out, 'finish');
  return series;
}
