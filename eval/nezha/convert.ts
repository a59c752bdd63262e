import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';
import {
  AFTER_SECONDS,
  BEFORE_SECONDS,
  DATA_FILE,
  Dataset,
  Day,
  Edge,
  EDGE_BUCKETS,
  encodeTimes,
  Fault,
  FRONTEND_COLUMNS,
  FrontendColumn,
  kindOf,
  NODE_COLUMNS,
  NodeColumn,
  Pod,
  POD_COLUMNS,
  PodColumn,
  serviceOf,
} from './dataset';
import { Source } from './source';

/**
 * Converts the TrainTicket days of the Nezha dataset (github.com/IntelligentDDS/Nezha,
 * rca_data/2023-01-29 and rca_data/2023-01-30) into eval/nezha/trainticket.json.br: the fault
 * lists, and the recorded metrics of every pod, node and the load generator within two hours
 * before to thirty minutes after each injection, and the calls between services the traces show,
 * per minute, as the service-graph metrics derive them. Logs are not used.
 *
 *   npm run build && node dist/eval/nezha/convert.js <Nezha checkout or bare git directory> [out]
 */
const DAYS = ['2023-01-29', '2023-01-30'];
const NAMESPACE = 'train-ticket';

/** A CSV without quoted fields (as Nezha writes them): the header's columns, one record per row. */
function parseCsv(text: string): Array<Record<string, string>> {
  const [header, ...rows] = text.trim().split('\n');
  const columns = header.trim().split(',');
  return rows.map((row) => {
    const cells = row.trim().split(',');
    if (cells.length !== columns.length) throw new Error(`a row of ${cells.length} cells under ${columns.length} columns: ${row}`);
    return Object.fromEntries(columns.map((c, i) => [c, cells[i]]));
  });
}

/** `2023-01-29 08:41:09.043078357 +0000 UTC m=+0.11` or `2023-01-29 08:43:04`, as UTC Unix seconds. */
function utcSeconds(text: string): number {
  const m = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)/.exec(text);
  if (!m) throw new Error(`not a time: ${text}`);
  return Date.parse(`${m[1]}T${m[2]}Z`) / 1000;
}

/** Six significant digits: more than the recorded quantities carry, and it compresses. */
const round = (v: number): number => (v === 0 ? 0 : Number(v.toPrecision(6)));

interface Row {
  t: number;
  cells: Record<string, string>;
}

/** Reads a metric CSV, checking that its TimeStamp column is its Time string read as UTC. */
function readRows(source: Source, file: string): Row[] {
  return parseCsv(source.read(file)).map((cells) => {
    const t = Number(cells.TimeStamp);
    if (t !== utcSeconds(cells.Time)) throw new Error(`${file}: TimeStamp ${t} is not Time ${cells.Time} in UTC`);
    return { t, cells };
  });
}

function recorded<C extends string>(rows: Row[], columns: Record<C, string>): { t: number[]; values: Record<C, number[]> } {
  const values = Object.fromEntries(Object.keys(columns).map((c) => [c, [] as number[]])) as Record<C, number[]>;
  for (const r of rows) for (const [c, name] of Object.entries(columns) as Array<[C, string]>) values[c].push(round(Number(r.cells[name])));
  return { t: rows.map((r) => r.t), values };
}

/** A limit implied by usage / usage-rate, when it is the same (to 1 %) at every sample with use. */
function impliedLimit(rows: Row[], usage: string, rate: string, scale: number): number | null {
  const ratios = rows.filter((r) => Number(r.cells[rate]) > 0).map((r) => (Number(r.cells[usage]) / Number(r.cells[rate])) * 100);
  if (!ratios.length) return null;
  const sorted = [...ratios].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  if (ratios.some((v) => Math.abs(v - median) > median * 0.01)) return null;
  return Math.round(median) * scale;
}

/** A span of a trace CSV; durations in microseconds. */
interface Span {
  trace: string;
  id: string;
  parent: string;
  pod: string;
  start: number;
  micros: number;
}

/**
 * The calls between services in a day's traces (trace/HH_MM_trace.csv), per whole UTC minute of
 * the call's start: a span whose parent span lies in a pod of another service. The files of
 * consecutive minutes overlap by some spans, recorded identically in both, which count once.
 */
function convertTraces(source: Source, day: string, faults: Fault[], sampleTimes: number[], report: string[]): { traced: number[]; edges: Edge[] } {
  const dir = `rca_data/${day}/trace`;
  const spans = new Map<string, Span>();
  let repeated = 0;
  const cutOffsets: number[] = [];
  for (const file of source.list(dir)) {
    const m = /^(\d\d)_(\d\d)_trace\.csv$/.exec(file);
    if (!m) throw new Error(`${dir}/${file}: not a trace file`);
    let last = -Infinity;
    for (const cells of parseCsv(source.read(`${dir}/${file}`))) {
      const span: Span = {
        trace: cells.TraceID,
        id: cells.SpanID,
        parent: cells.ParentID,
        pod: cells.PodName,
        start: Number(cells.StartTimeUnixNano) / 1e9,
        micros: Number(cells.Duration),
      };
      if (!Number.isFinite(span.start) || !Number.isInteger(span.micros)) throw new Error(`${dir}/${file}: a span without times: ${JSON.stringify(cells)}`);
      last = Math.max(last, span.start);
      const key = `${span.trace}/${span.id}`;
      const seen = spans.get(key);
      if (seen) {
        if (JSON.stringify(seen) !== JSON.stringify(span)) throw new Error(`${dir}/${file}: span ${key} recorded twice, differently`);
        repeated++;
      } else spans.set(key, span);
    }
    // Where the file ends against the metrics' samples: on the same clock, it ends at one (that of its minute, or the next).
    const minute = Date.parse(`${day}T${m[1]}:${m[2]}:00Z`) / 1000;
    const sample = sampleTimes.filter((t) => t >= minute && t < minute + 120).sort((a, b) => Math.abs(a - last) - Math.abs(b - last))[0];
    if (sample !== undefined) cutOffsets.push(last - sample);
  }

  const minuteOf = (s: Span): number => Math.floor(s.start / 60) * 60;
  const traced = [...new Set([...spans.values()].map(minuteOf))].sort((a, b) => a - b);
  type Minute = { calls: number; client: { sum: number; buckets: number[] }; server: { sum: number; buckets: number[] } };
  const byEdge = new Map<string, Map<number, Minute>>();
  const observe = (side: Minute['client'], micros: number): void => {
    side.sum += micros;
    side.buckets[EDGE_BUCKETS.findIndex((le) => micros <= le * 1e6)]++;
  };
  let orphans = 0;
  let calls = 0;
  let clientShorter = 0;
  for (const span of spans.values()) {
    if (span.parent === 'root') continue;
    const parent = spans.get(`${span.trace}/${span.parent}`);
    if (!parent) {
      orphans++;
      continue;
    }
    const client = serviceOf(parent.pod);
    const server = serviceOf(span.pod);
    if (client === server) continue;
    const key = `${client} ${server}`;
    const minutes = byEdge.get(key) ?? new Map<number, Minute>();
    byEdge.set(key, minutes);
    const minute = minuteOf(span);
    const empty = (): Minute['client'] => ({ sum: 0, buckets: EDGE_BUCKETS.map(() => 0) });
    const m = minutes.get(minute) ?? { calls: 0, client: empty(), server: empty() };
    minutes.set(minute, m);
    m.calls++;
    observe(m.client, parent.micros);
    observe(m.server, span.micros);
    calls++;
    if (parent.micros < span.micros) clientShorter++;
  }
  const edges: Edge[] = [...byEdge.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([key, minutes]) => {
      const [client, server] = key.split(' ');
      const rows = [...minutes.entries()].sort(([a], [b]) => a - b).map(([, m]) => m);
      const side = (s: 'client' | 'server'): Edge['clientSeconds'] => ({
        sum: rows.map((m) => round(m[s].sum / 1e6)),
        buckets: EDGE_BUCKETS.map((_, b) => rows.map((m) => m[s].buckets[b])),
      });
      return {
        client,
        server,
        t: [...minutes.keys()].sort((a, b) => a - b),
        calls: rows.map((m) => m.calls),
        clientSeconds: side('client'),
        serverSeconds: side('server'),
      };
    });

  const windows = traced.filter((t, i) => i === 0 || traced[i - 1] !== t - 60).length;
  report.push(
    `${day} traces: ${spans.size} spans (${repeated} recorded in two files), ${orphans} without their parent, ${calls} calls on ${edges.length} edges (${clientShorter} shorter at the client than at the server), ${traced.length} minutes in ${windows} windows; files end ${Math.min(...cutOffsets).toFixed(1)} to ${Math.max(...cutOffsets).toFixed(1)} s from a metrics' sample (their minute's or the next)`,
  );
  for (const f of faults) {
    const near = traced.filter((t) => t >= f.at - 300 && t <= f.at + 300).map((t) => (t - Math.floor(f.at / 60) * 60) / 60);
    report.push(`${f.id}: traced minutes ${near.join(', ')} relative to the injection's`);
    if (!traced.includes(Math.floor(f.at / 60) * 60)) throw new Error(`${f.id}: no spans in the injection's minute`);
  }
  return { traced, edges };
}

function convertDay(source: Source, day: string, report: string[]): { day: Day; faults: Fault[] } {
  const dir = `rca_data/${day}`;
  const listed = JSON.parse(source.read(`${dir}/${day}-fault_list.json`)) as Record<
    string,
    Array<{ inject_time: string; inject_timestamp: string; inject_pod: string; inject_type: string }>
  >;
  const faults: Fault[] = Object.values(listed)
    .flat()
    .map((f) => {
      const at = utcSeconds(f.inject_time);
      const service = serviceOf(f.inject_pod);
      const hhmm = f.inject_time.slice(11, 16).replace(':', '');
      return {
        id: `${day}-${hhmm}-${service}`,
        day,
        at,
        listedTimestamp: Number(f.inject_timestamp),
        pod: f.inject_pod,
        service,
        type: f.inject_type,
        kind: kindOf(f.inject_type),
      };
    })
    .sort((a, b) => a.at - b.at);

  const files = source.list(`${dir}/metric`);
  const podRows = new Map<string, Row[]>();
  for (const file of files.filter((f) => f.endsWith('_metric.csv'))) {
    const rows = readRows(source, `${dir}/metric/${file}`);
    podRows.set(rows[0].cells.PodName, rows);
  }
  const frontendRows = readRows(source, `${dir}/metric/front_service.csv`);
  const first = Math.min(...[...podRows.values()].map((r) => r[0].t));
  const last = Math.max(...[...podRows.values()].map((r) => r[r.length - 1].t));

  // Which clock the fault list's two times are on: the metrics' TimeStamp is their Time in UTC.
  for (const f of faults) {
    const offset = f.listedTimestamp - f.at;
    const inRange = (t: number): boolean => t >= first && t <= last;
    report.push(
      `${f.id} ${f.type}: inject_time ${inRange(f.at) ? 'within' : 'OUTSIDE'} the metrics; inject_timestamp ${(offset / 3600).toFixed(2)} h off it, ${inRange(f.listedTimestamp) ? 'within' : 'outside'} the metrics`,
    );
    if (!inRange(f.at)) throw new Error(`${f.id}: inject_time ${f.at} is outside the metrics (${first}..${last})`);
    if (!podRows.has(f.pod)) throw new Error(`${f.id}: no metrics of ${f.pod}`);
  }

  // Kept: the samples within BEFORE_SECONDS before to AFTER_SECONDS after some injection.
  const kept = (t: number): boolean => faults.some((f) => t >= f.at - BEFORE_SECONDS && t <= f.at + AFTER_SECONDS);

  // Pods whose node columns are identical at most common minutes ran on the same node.
  const nodeKey = (r: Row): string =>
    Object.values(NODE_COLUMNS)
      .map((c) => r.cells[c])
      .join(',');
  const byMinute = (rows: Row[]): Map<number, string> => new Map(rows.map((r) => [Math.floor(r.t / 60), nodeKey(r)]));
  const groups: Array<{ pods: string[]; minutes: Map<number, string> }> = [];
  for (const pod of [...podRows.keys()].sort()) {
    const minutes = byMinute(podRows.get(pod)!);
    const group = groups.find((g) => {
      const common = [...minutes.keys()].filter((m) => g.minutes.has(m));
      return common.filter((m) => g.minutes.get(m) === minutes.get(m)).length > 0.8 * common.length;
    });
    if (group) group.pods.push(pod);
    else groups.push({ pods: [pod], minutes });
  }
  const nodeOf = new Map(groups.flatMap((g, i) => g.pods.map((p) => [p, `node-${i + 1}`] as const)));

  const pods: Pod[] = [...podRows.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([pod, rows]) => ({
      pod,
      service: serviceOf(pod),
      node: nodeOf.get(pod)!,
      cpuLimitCores: impliedLimit(rows, 'CpuUsage(m)', 'CpuUsageRate(%)', 1 / 1000),
      memoryLimitBytes: impliedLimit(rows, 'MemoryUsage(Mi)', 'MemoryUsageRate(%)', 1024 * 1024),
      ...recorded<PodColumn>(
        rows.filter((r) => kept(r.t)),
        POD_COLUMNS,
      ),
    }));
  const nodes = groups.map((g, i) => ({
    node: `node-${i + 1}`,
    ...recorded<NodeColumn>(
      podRows.get(g.pods[0])!.filter((r) => kept(r.t)),
      NODE_COLUMNS,
    ),
  }));
  const frontend = recorded<FrontendColumn>(
    frontendRows.filter((r) => kept(r.t)),
    FRONTEND_COLUMNS,
  );
  report.push(
    `${day}: ${faults.length} faults, ${pods.length} pods on ${nodes.length} nodes, metrics ${new Date(first * 1000).toISOString()} to ${new Date(last * 1000).toISOString()}`,
  );
  const { traced, edges } = convertTraces(
    source,
    day,
    faults,
    frontendRows.map((r) => r.t),
    report,
  );
  return { day: { day, pods, nodes, frontend, traced, edges }, faults };
}

function main(): void {
  const [path, out = join(__dirname, '..', '..', '..', 'eval', 'nezha', DATA_FILE)] = process.argv.slice(2);
  if (!path) throw new Error('usage: node dist/eval/nezha/convert.js <Nezha checkout or bare git directory> [out]');
  const source = new Source(path);
  const report: string[] = [];
  const converted = DAYS.map((d) => convertDay(source, d, report));
  const licence =
    source
      .read('LICENSE')
      .split('\n')
      .find((l) => l.startsWith('Copyright')) ?? '';
  const dataset: Dataset = {
    source: { repository: 'https://github.com/IntelligentDDS/Nezha', commit: source.commit, licence: `MIT License, ${licence}` },
    namespace: NAMESPACE,
    faults: converted.flatMap((c) => c.faults),
    days: converted.map((c) => ({
      ...c.day,
      pods: c.day.pods.map((p) => ({ ...p, t: encodeTimes(p.t) })),
      nodes: c.day.nodes.map((n) => ({ ...n, t: encodeTimes(n.t) })),
      frontend: { ...c.day.frontend, t: encodeTimes(c.day.frontend.t) },
      traced: encodeTimes(c.day.traced),
      edges: c.day.edges.map((e) => ({ ...e, t: encodeTimes(e.t) })),
    })),
  };
  const compressed = brotliCompressSync(JSON.stringify(dataset), { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_LGWIN]: 24 } });
  writeFileSync(out, compressed);
  for (const line of report) console.log(line);
  console.log(`${dataset.faults.length} faults from ${source.commit}; ${out}: ${compressed.length} bytes`);
}

main();
