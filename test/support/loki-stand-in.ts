import { createServer, IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parser } from '@grafana/lezer-logql';

/**
 * A Loki on 127.0.0.1 for tests (no Loki can run here): it speaks the Loki 3.x HTTP API as its
 * documentation and source give it, for the subset the tools send, over log lines held in memory.
 *
 * - `GET /loki/api/v1/labels`, `/loki/api/v1/label/<name>/values` (`start`, `end`, `query`):
 *   `{"status":"success","data":[…]}`, sorted.
 * - `GET /loki/api/v1/query_range` (`query`, `start`, `end` as nanoseconds, seconds or RFC 3339;
 *   `limit` (default 100, at most `max_entries_limit_per_query`), `direction` (default backward),
 *   `step`): a log query answers `streams` (`[["<ns>", "<line>"], …]`, the `limit` newest lines
 *   backward or oldest forward, each stream's values in that order), a metric query `matrix`
 *   (`[<seconds>, "<value>"]`, only the steps with lines); `stats` as Loki reports them.
 * - `GET /loki/api/v1/patterns` (`query`, `start`, `end`, `step`): when switched on, the lines
 *   grouped by a pattern (every token holding a digit is `<_>`), `samples` `[<seconds>, count]`
 *   per step; when off, 404 `404 page not found`, as a Loki without the pattern ingester answers.
 * - Multi-tenancy (`tenants`): a request without `X-Scope-OrgID` is 401 `no org id`; a tenant it
 *   holds no lines of reads as empty (Loki accepts any tenant id). `auth` is a gateway in front:
 *   other credentials are 401.
 * - Errors as Loki 3.x writes them: plain text, 400 for a bad query (`parse error at line 1, col
 *   N: syntax error: …`), a too-wide selector, a limit over the maximum, a bad direction or range.
 *
 * It parses LogQL with @grafana/lezer-logql and evaluates stream selectors (=, !=, =~, !~), line
 * filters (|=, !=, |~, !~, |>, !>, with `or`), and count_over_time or rate, optionally under sum,
 * sum by (…) or sum without (…). Anything else is refused with a 400 in Loki's shape.
 */

export interface LokiEntry {
  /** Nanoseconds since the epoch, or an RFC 3339 time. */
  at: bigint | string;
  labels: Record<string, string>;
  line: string;
}

export interface LokiStandInOptions {
  /** A multi-tenant Loki (`auth_enabled: true`): each tenant's lines; every request must name a tenant. */
  tenants?: Record<string, LokiEntry[]>;
  /** A single-tenant Loki (`auth_enabled: false`): its lines; X-Scope-OrgID is ignored. */
  entries?: LokiEntry[];
  /** Credentials a gateway in front of Loki requires. */
  auth?: { bearerToken: string } | { username: string; password: string };
  /** Whether /loki/api/v1/patterns answers (the pattern ingester is enabled). */
  patterns?: boolean;
  /** Loki's `max_entries_limit_per_query` (default 5000). */
  maxEntriesLimitPerQuery?: number;
}

export interface ReceivedLokiRequest {
  path: string;
  params: URLSearchParams;
  headers: IncomingHttpHeaders;
}

type Tree = ReturnType<typeof parser.parse>;
type SyntaxNode = Tree['topNode'];
interface Stored {
  at: bigint;
  labels: Record<string, string>;
  line: string;
}
type LineTest = (line: string) => boolean;
type Labels = Record<string, string>;

class LokiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const NS = 1_000_000_000n;

function nanosOfText(value: string): bigint {
  const m = /^(.*?)(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/.exec(value);
  if (!m) throw new LokiError(400, `cannot parse "${value}" to a valid timestamp`);
  const whole = Date.parse(`${m[1]}${m[3]}`);
  if (Number.isNaN(whole)) throw new LokiError(400, `cannot parse "${value}" to a valid timestamp`);
  return BigInt(whole) * 1_000_000n + BigInt((m[2] ?? '').padEnd(9, '0'));
}

/** Loki's timestamp parameters: float seconds (with a '.'), integer seconds (10 digits or fewer) or nanoseconds, else RFC 3339. */
function timeParam(value: string | null, fallback: bigint): bigint {
  if (value === null || value === '') return fallback;
  if (value.includes('.') && /^\d+\.\d+$/.test(value)) return BigInt(Math.round(Number(value) * 1e6)) * 1000n;
  if (/^\d+$/.test(value)) return value.length <= 10 ? BigInt(value) * NS : BigInt(value);
  return nanosOfText(value);
}

const UNITS: Record<string, bigint> = { ms: 1_000_000n, s: NS, m: 60n * NS, h: 3600n * NS, d: 86400n * NS, w: 604800n * NS, y: 31536000n * NS };

/** A Prometheus-style duration (`1m`, `1h30m`) or float seconds, in nanoseconds. */
function durationNanos(text: string): bigint {
  if (/^\d+(\.\d+)?$/.test(text)) return BigInt(Math.round(Number(text) * 1e9));
  const parts = [...text.matchAll(/(\d+)(ms|s|m|h|d|w|y)/g)];
  if (!parts.length || parts.map((p) => p[0]).join('') !== text) throw new LokiError(400, `invalid parameter: cannot parse "${text}" as a duration`);
  return parts.reduce((sum, p) => sum + BigInt(p[1]) * UNITS[p[2]], 0n);
}

function unquote(text: string): string {
  if (text.startsWith('`')) return text.slice(1, -1);
  return JSON.parse(text) as string;
}

/** Go's RE2 `(?i)` prefix as JavaScript's flag. */
function regexp(source: string, anchored: boolean): RegExp {
  const insensitive = source.startsWith('(?i)');
  const body = insensitive ? source.slice(4) : source;
  try {
    return new RegExp(anchored ? `^(?:${body})$` : body, insensitive ? 'i' : '');
  } catch {
    throw new LokiError(400, `parse error : error parsing regexp: invalid regular expression: \`${source}\``);
  }
}

const text = (query: string, node: SyntaxNode) => query.slice(node.from, node.to);

function descendants(node: SyntaxNode, name: string): SyntaxNode[] {
  const found: SyntaxNode[] = [];
  const walk = (n: SyntaxNode) => {
    for (let child = n.firstChild; child; child = child.nextSibling) {
      if (child.name === name) found.push(child);
      walk(child);
    }
  };
  walk(node);
  return found;
}

function unsupported(query: string, node: SyntaxNode): LokiError {
  return new LokiError(400, `not implemented by the Loki stand-in: ${node.name} (${text(query, node)})`);
}

/** The stream selector as a test of a stream's labels; Loki's rule that one matcher must need a non-empty value. */
function selectorTest(query: string, selector: SyntaxNode): (labels: Labels) => boolean {
  const tests = descendants(selector, 'Matcher').map((m) => {
    const name = text(query, m.getChild('Identifier')!);
    const value = unquote(text(query, m.getChild('String')!));
    if (m.getChild('Eq')) return { needsValue: value !== '', test: (l: Labels) => (l[name] ?? '') === value };
    if (m.getChild('Neq')) return { needsValue: false, test: (l: Labels) => (l[name] ?? '') !== value };
    const re = regexp(value, true);
    if (m.getChild('Re')) return { needsValue: !re.test(''), test: (l: Labels) => re.test(l[name] ?? '') };
    return { needsValue: false, test: (l: Labels) => !re.test(l[name] ?? '') };
  });
  if (!tests.some((t) => t.needsValue))
    throw new LokiError(
      400,
      'parse error : queries require at least one regexp or equality matcher that does not have an empty-compatible value. For instance, app=~".*" does not meet this requirement, but app=~".+" will',
    );
  return (labels) => tests.every((t) => t.test(labels));
}

/** A `|>` pattern: literal text in order, `<_>` anything; the whole line. */
function patternTest(pattern: string): LineTest {
  const re = new RegExp(
    `^${pattern
      .split('<_>')
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('[\\s\\S]*?')}$`,
  );
  return (line) => re.test(line);
}

function lineFilterTest(query: string, pipeline: SyntaxNode | null): LineTest {
  if (!pipeline) return () => true;
  const stages = descendants(pipeline, 'PipelineStage');
  for (const stage of stages) if (!stage.getChild('LineFilters')) throw unsupported(query, stage);
  const tests = descendants(pipeline, 'LineFilter').map((filter): LineTest => {
    const op = filter.getChild('Filter')!.firstChild!.name;
    const values = [filter.getChild('String'), ...descendants(filter, 'OrFilter').map((o) => o.getChild('String'))].map((s) => {
      if (!s) throw unsupported(query, filter);
      return unquote(text(query, s));
    });
    const one = (value: string): LineTest => {
      switch (op) {
        case 'PipeExact':
        case 'Neq':
          return (line) => line.includes(value);
        case 'PipeMatch':
        case 'Nre': {
          const re = regexp(value, false);
          return (line) => re.test(line);
        }
        case 'PipePattern':
        case 'Npa':
          return patternTest(value);
        default:
          throw unsupported(query, filter);
      }
    };
    const any = values.map(one);
    const matches: LineTest = (line) => any.some((t) => t(line));
    return op === 'Neq' || op === 'Nre' || op === 'Npa' ? (line) => !matches(line) : matches;
  });
  return (line) => tests.every((t) => t(line));
}

/** The query's syntax error as Loki words one, or null. */
function syntaxError(query: string, tree: Tree): string | null {
  let at = -1;
  tree.iterate({
    enter: (node) => {
      if (at >= 0) return false;
      if (node.type.isError) at = node.from;
      return undefined;
    },
  });
  if (at < 0) return null;
  const before = query.slice(0, at).split('\n');
  const token = query.slice(at).match(/^\s*(\S+)/)?.[1];
  return `parse error at line ${before.length}, col ${before[before.length - 1].length + 1}: syntax error: unexpected ${token ?? '$end'}`;
}

interface LogQuery {
  kind: 'log';
  streams: (labels: Labels) => boolean;
  lines: LineTest;
}
interface MetricQuery {
  kind: 'metric';
  op: 'count_over_time' | 'rate';
  range: bigint;
  streams: (labels: Labels) => boolean;
  lines: LineTest;
  /** How series are grouped: by their own labels (no sum), or sum by / without the listed labels. */
  group: { mode: 'none' } | { mode: 'by' | 'without'; labels: string[] };
}

function parseQuery(query: string): LogQuery | MetricQuery {
  const tree = parser.parse(query);
  const error = query.trim() === '' ? 'parse error : syntax error: unexpected $end' : syntaxError(query, tree);
  if (error) throw new LokiError(400, error);
  const top = tree.topNode.getChild('Expr')!.firstChild!;
  if (top.name === 'LogExpr')
    return { kind: 'log', streams: selectorTest(query, top.getChild('Selector')!), lines: lineFilterTest(query, top.getChild('PipelineExpr')) };
  let node = top.firstChild!;
  let group: MetricQuery['group'] = { mode: 'none' };
  if (node.name === 'VectorAggregationExpr') {
    if (!node.getChild('VectorOp')?.getChild('Sum')) throw unsupported(query, node);
    const grouping = node.getChild('Grouping');
    if (grouping) group = { mode: grouping.getChild('By') ? 'by' : 'without', labels: descendants(grouping, 'Identifier').map((n) => text(query, n)) };
    else group = { mode: 'by', labels: [] };
    node = node.getChild('MetricExpr')!.firstChild!;
  }
  if (node.name !== 'RangeAggregationExpr') throw unsupported(query, node);
  const rangeOp = node.getChild('RangeOp')!.firstChild!.name;
  if (rangeOp !== 'CountOverTime' && rangeOp !== 'Rate') throw unsupported(query, node);
  const logRange = node.getChild('LogRangeExpr')!;
  if (logRange.getChild('OffsetExpr') || logRange.getChild('Unwrap')) throw unsupported(query, logRange);
  return {
    kind: 'metric',
    op: rangeOp === 'Rate' ? 'rate' : 'count_over_time',
    range: durationNanos(text(query, logRange.getChild('Range')!.getChild('Duration')!)),
    streams: selectorTest(query, logRange.getChild('Selector')!),
    lines: lineFilterTest(query, logRange.getChild('PipelineExpr')),
    group,
  };
}

const labelsKey = (labels: Labels) => JSON.stringify(Object.entries(labels).sort(([a], [b]) => (a < b ? -1 : 1)));
const seconds = (ns: bigint) => Number(ns) / 1e9;

export class LokiStandIn {
  readonly requests: ReceivedLokiRequest[] = [];
  /** Whether /loki/api/v1/patterns answers; switch it at any time. */
  patterns: boolean;
  private readonly data = new Map<string, Stored[]>();
  private readonly multiTenant: boolean;

  private constructor(
    private readonly server: Server,
    readonly url: string,
    private readonly options: LokiStandInOptions,
  ) {
    this.patterns = options.patterns ?? false;
    this.multiTenant = options.tenants !== undefined;
    for (const [tenant, entries] of Object.entries(options.tenants ?? { fake: options.entries ?? [] })) this.push(entries, tenant);
  }

  static async start(options: LokiStandInOptions = {}): Promise<LokiStandIn> {
    let standIn: LokiStandIn | undefined;
    const server = createServer((req, res) => standIn!.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    standIn = new LokiStandIn(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`, options);
    return standIn;
  }

  /** Adds lines (to a tenant's, in a multi-tenant Loki). */
  push(entries: LokiEntry[], tenant = 'fake'): void {
    const stored = this.data.get(tenant) ?? [];
    for (const e of entries) stored.push({ at: typeof e.at === 'bigint' ? e.at : nanosOfText(e.at), labels: e.labels, line: e.line });
    this.data.set(tenant, stored);
  }

  /** The requests made to one path. */
  requestsTo(path: string): ReceivedLokiRequest[] {
    return this.requests.filter((r) => r.path === path);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://loki');
    this.requests.push({ path: url.pathname, params: url.searchParams, headers: req.headers });
    const plain = (status: number, body: string) => {
      res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' });
      res.end(body);
    };
    const json = (data: unknown) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify({ status: 'success', data }));
    };
    try {
      if (req.method !== 'GET') return plain(405, 'Method Not Allowed\n');
      if (!this.authorized(req.headers.authorization)) return plain(401, 'Unauthorized\n');
      const path = url.pathname;
      if (path === '/loki/api/v1/patterns' && !this.patterns) return plain(404, '404 page not found\n');
      if (!/^\/loki\/api\/v1\/(labels|label\/[^/]+\/values|query_range|patterns)$/.test(path)) return plain(404, '404 page not found\n');
      const tenantHeader = req.headers['x-scope-orgid'];
      if (this.multiTenant && (typeof tenantHeader !== 'string' || tenantHeader === '')) return plain(401, 'no org id\n');
      const tenants = this.multiTenant ? (tenantHeader as string).split('|') : ['fake'];
      const lines = tenants.flatMap((t) => this.data.get(t) ?? []);
      const params = url.searchParams;
      if (path === '/loki/api/v1/query_range') return json(this.queryRange(lines, params));
      if (path === '/loki/api/v1/patterns') return json(this.patternsOf(lines, params));
      const end = timeParam(params.get('end'), BigInt(Date.now()) * 1_000_000n);
      const start = timeParam(params.get('start'), end - 6n * 3600n * NS);
      const selected = params.get('query') ? this.selectorOnly(params.get('query')!) : () => true;
      const inRange = lines.filter((l) => l.at >= start && l.at <= end && selected(l.labels));
      const name = /^\/loki\/api\/v1\/label\/([^/]+)\/values$/.exec(path)?.[1];
      const found = name
        ? inRange.map((l) => l.labels[decodeURIComponent(name)]).filter((v): v is string => v !== undefined)
        : inRange.flatMap((l) => Object.keys(l.labels));
      return json([...new Set(found)].sort());
    } catch (error) {
      if (error instanceof LokiError) return plain(error.status, error.message);
      return plain(500, String(error));
    }
  }

  private authorized(header: string | undefined): boolean {
    const auth = this.options.auth;
    if (!auth) return true;
    if ('bearerToken' in auth) return header === `Bearer ${auth.bearerToken}`;
    return header === `Basic ${Buffer.from(`${auth.username}:${auth.password}`).toString('base64')}`;
  }

  private selectorOnly(query: string): (labels: Labels) => boolean {
    const parsed = parseQuery(query);
    if (parsed.kind !== 'log') throw new LokiError(400, 'only label matchers are supported');
    return parsed.streams;
  }

  private queryRange(all: Stored[], params: URLSearchParams) {
    const query = parseQuery(params.get('query') ?? '');
    const end = timeParam(params.get('end'), BigInt(Date.now()) * 1_000_000n);
    const start = timeParam(params.get('start'), end - 3600n * NS);
    if (end < start) throw new LokiError(400, 'end timestamp must not be before or equal to start time');
    const started = process.hrtime.bigint();
    if (query.kind === 'log') {
      const limit = Number(params.get('limit') ?? '100');
      if (!Number.isInteger(limit) || limit <= 0) throw new LokiError(400, 'limit must be a positive value');
      const max = this.options.maxEntriesLimitPerQuery ?? 5000;
      if (limit > max) throw new LokiError(400, `max entries limit per query exceeded, limit > max_entries_limit_per_query (${limit} > ${max})`);
      const direction = params.get('direction') ?? 'backward';
      if (direction !== 'forward' && direction !== 'backward') throw new LokiError(400, `invalid direction '${direction}'`);
      const matched = all
        .filter((l) => l.at >= start && l.at < end && query.streams(l.labels) && query.lines(l.line))
        .sort((a, b) => (a.at === b.at ? 0 : a.at < b.at === (direction === 'forward') ? -1 : 1))
        .slice(0, limit);
      const streams = new Map<string, { stream: Labels; values: [string, string][] }>();
      for (const l of matched) {
        const key = labelsKey(l.labels);
        const s = streams.get(key) ?? { stream: l.labels, values: [] };
        s.values.push([l.at.toString(), l.line]);
        streams.set(key, s);
      }
      const result = [...streams.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, s]) => s);
      return { resultType: 'streams', result, stats: this.stats(all.length, matched, started) };
    }
    const step = params.get('step') ? durationNanos(params.get('step')!) : BigInt(Math.max(1, Math.ceil(seconds(end - start) / 250))) * NS;
    if (step <= 0n) throw new LokiError(400, 'zero or negative query resolution step widths are not accepted. Try a positive integer');
    const candidates = all.filter((l) => l.at > start - query.range && l.at <= end && query.streams(l.labels) && query.lines(l.line));
    const series = new Map<string, { metric: Labels; values: [number, string][] }>();
    for (let t = start; t <= end; t += step) {
      const counts = new Map<string, { metric: Labels; n: number }>();
      for (const l of candidates) {
        if (l.at <= t - query.range || l.at > t) continue;
        const metric =
          query.group.mode === 'none'
            ? l.labels
            : query.group.mode === 'by'
              ? Object.fromEntries(query.group.labels.filter((n) => l.labels[n] !== undefined).map((n) => [n, l.labels[n]]))
              : Object.fromEntries(Object.entries(l.labels).filter(([n]) => !(query.group as { labels: string[] }).labels.includes(n)));
        const key = labelsKey(metric);
        const c = counts.get(key) ?? { metric, n: 0 };
        c.n += 1;
        counts.set(key, c);
      }
      for (const [key, { metric, n }] of counts) {
        const s = series.get(key) ?? { metric, values: [] };
        s.values.push([seconds(t), String(query.op === 'rate' ? n / seconds(query.range) : n)]);
        series.set(key, s);
      }
    }
    const result = [...series.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, s]) => s);
    return { resultType: 'matrix', result, stats: this.stats(all.length, candidates, started) };
  }

  /** Lines grouped by a pattern: each whitespace-separated token holding a digit is `<_>` (runs of them are one). */
  private patternsOf(all: Stored[], params: URLSearchParams) {
    const selected = this.selectorOnly(params.get('query') ?? '');
    const end = timeParam(params.get('end'), BigInt(Date.now()) * 1_000_000n);
    const start = timeParam(params.get('start'), end - 3600n * NS);
    const step = params.get('step') ? durationNanos(params.get('step')!) : 10n * NS;
    const byPattern = new Map<string, Map<bigint, number>>();
    for (const l of all) {
      if (l.at < start || l.at >= end || !selected(l.labels)) continue;
      const pattern = l.line
        .split(/\s+/)
        .filter(Boolean)
        .map((token) => (/\d/.test(token) ? '<_>' : token))
        .filter((token, i, tokens) => token !== '<_>' || tokens[i - 1] !== '<_>')
        .join(' ');
      const buckets = byPattern.get(pattern) ?? new Map<bigint, number>();
      const bucket = (l.at / step) * step;
      buckets.set(bucket, (buckets.get(bucket) ?? 0) + 1);
      byPattern.set(pattern, buckets);
    }
    return [...byPattern.entries()]
      .map(([pattern, buckets]) => ({
        pattern,
        samples: [...buckets.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([at, n]) => [Number(at / NS), n]),
      }))
      .sort((a, b) => b.samples.reduce((s, x) => s + Number(x[1]), 0) - a.samples.reduce((s, x) => s + Number(x[1]), 0));
  }

  private stats(total: number, matched: Stored[], started: bigint) {
    const execTime = Number(process.hrtime.bigint() - started) / 1e9;
    const bytes = matched.reduce((sum, l) => sum + Buffer.byteLength(l.line), 0);
    return {
      summary: {
        bytesProcessedPerSecond: execTime > 0 ? Math.round(bytes / execTime) : 0,
        linesProcessedPerSecond: execTime > 0 ? Math.round(total / execTime) : 0,
        totalBytesProcessed: bytes,
        totalLinesProcessed: total,
        execTime,
        queueTime: 0,
        subqueries: 0,
        totalEntriesReturned: matched.length,
      },
      querier: { store: { totalChunksRef: 0, totalChunksDownloaded: 0, chunksDownloadTime: 0 } },
      ingester: { totalReached: 1, totalChunksMatched: 0, totalBatches: 0, totalLinesSent: matched.length },
    };
  }
}
