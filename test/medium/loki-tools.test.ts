import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DataSourceConnection, ToolCatalog, ToolContext, ToolResult } from '@svc/investigations/tools';
import { Timestamp } from '@svc/platform';
import { shopLogs } from '../support/loki-scenario';
import { LokiStandIn } from '../support/loki-stand-in';

type Output = Record<string, any>;
const out = (result: ToolResult) => result.output as Output;

const END = new Date(Math.floor(Date.now() / 60_000) * 60_000);
const ONSET = new Date(END.getTime() - 20 * 60_000);
const WINDOW = { from: Timestamp.fromDate(new Date(END.getTime() - 3_600_000)), until: Timestamp.fromDate(END) };
const iso = (d: Date) => d.toISOString();

/**
 * The Loki tools through the ToolCatalog (schema, checks, timeout, output cap) against the Loki
 * stand-in serving an hour of a shop's logs in tenant "shop": checkout serves carts and warns of a
 * slow query all along, and from just after the onset cannot reach inventory-db.
 */
describe('Loki tools', () => {
  const catalog = new ToolCatalog();
  let loki: LokiStandIn;

  const connection = (headers: Record<string, string> = { 'x-scope-orgid': 'shop' }): DataSourceConnection => ({
    integrationId: '0190a0b0-0000-7000-8000-0000000000a1',
    type: 'loki',
    baseUrl: loki.url,
    headers,
  });
  const context = (conn = connection()): ToolContext => ({ connection: conn, window: WINDOW, signal: new AbortController().signal });
  const run = (tool: string, args: Record<string, unknown>, conn?: DataSourceConnection) => catalog.run(tool, args, context(conn));

  beforeAll(async () => {
    loki = await LokiStandIn.start({ tenants: { shop: shopLogs(ONSET, END), other: [] }, maxEntriesLimitPerQuery: 1000 });
  });
  afterAll(() => loki?.close());
  beforeEach(() => {
    loki.patterns = false;
    loki.requests.length = 0;
  });

  it('lists label names and values within the window, for the tenant, and refuses a range outside the window', async () => {
    const labels = await run('loki.labels', {});
    expect(labels.outcome, labels.error).toBe('succeeded');
    expect(out(labels).labels).toEqual(['app', 'namespace', 'pod']);
    expect(labels.summary).toBe(`3 labels on the streams between ${out(labels).start} and ${out(labels).end}: app, namespace, pod.`);
    expect(loki.requests[0].headers['x-scope-orgid']).toBe('shop');
    expect(loki.requests[0].params.get('start')).toBe(`${WINDOW.from.epochMicros}000`);

    const apps = await run('loki.label_values', { label: 'app', query: '{namespace="shop"}' });
    expect(out(apps).values).toEqual(['checkout', 'inventory']);
    const none = await run('loki.label_values', { label: 'app', query: '{namespace="shop"}' }, connection({ 'x-scope-orgid': 'other' }));
    expect(out(none).values).toEqual([]);
    expect(none.summary).toMatch(/^Label app has no values on the streams matching \{namespace="shop"\}/);

    const outside = await run('loki.labels', { start: '2020-01-01T00:00:00Z' });
    expect(outside.outcome).toBe('failed');
    expect(outside.error).toMatch(/^Invalid arguments: start and end must lie within the investigation's window/);
  });

  it('reads lines newest first, keeps a bounded excerpt, and says how to page: the pages together are every line, in order', async () => {
    const query = '{namespace="shop", app="checkout"}';
    const first = await run('loki.query_range', { query, limit: 300 });
    expect(first.outcome, first.error).toBe('succeeded');
    const o = out(first);
    expect(o).toMatchObject({ resultType: 'streams', direction: 'backward', limit: 300, returned: 300, kept: 100, more: true });
    expect(o.lines).toHaveLength(100);
    expect(o.next.end).toBe(incremented(o.lines[99].at));
    expect(first.summary).toContain('The run keeps the first 100 of the 300 lines Loki returned.');
    expect(first.summary).toContain('Loki stopped at the limit (300 lines): the range holds more.');
    expect(first.summary).toContain(`Next page: the same query with start=${o.next.start} and end=${o.next.end}`);
    expect(o.stats).toMatchObject({ linesProcessed: expect.any(Number) });

    // Following `next` until nothing more: every line of the stream in the window, newest first, each once.
    const seen: string[] = [];
    let page: Output = o;
    for (let pages = 0; pages < 20; pages++) {
      for (const line of page.lines as Array<{ at: string; line: string }>) if (seen.at(-1) !== `${line.at} ${line.line}`) seen.push(`${line.at} ${line.line}`);
      if (!page.more) break;
      page = out(await run('loki.query_range', { query, limit: 100, start: page.next.start, end: page.next.end }));
    }
    const expected = shopLogs(ONSET, END)
      .filter((e) => e.labels.app === 'checkout')
      .sort((a, b) => (a.at < b.at ? 1 : -1))
      .map((e) => `${nanosText(e.at as bigint)} ${e.line}`);
    expect(seen).toEqual(expected);
  });

  it('cuts a line longer than the bound with the marker, and says so', async () => {
    const at = BigInt(END.getTime() - 30_000) * 1_000_000n;
    loki.push([{ at, labels: { namespace: 'jobs', app: 'batch' }, line: `stack trace ${'x'.repeat(5000)}` }], 'shop');
    const result = await run('loki.query_range', { query: '{app="batch"}' });
    expect(out(result).lines[0].line).toHaveLength(1000);
    expect(out(result).lines[0].line.endsWith('…[truncated]')).toBe(true);
    expect(result.summary).toContain('1 line longer than 1000 characters was cut, ending with …[truncated].');
    expect(out(result).more).toBe(false);
  });

  it('answers a metric query as series over time: the errors per minute begin at the onset', async () => {
    const result = await run('loki.query_range', {
      query: 'sum by (app) (count_over_time({namespace="shop"} |= "connection refused" [1m]))',
      step: 60,
    });
    expect(result.outcome, result.error).toBe('succeeded');
    const [series, ...others] = out(result).series;
    expect(others).toEqual([]);
    expect(series.metric).toEqual({ app: 'checkout' });
    expect(Date.parse(series.values[0][0])).toBeGreaterThan(ONSET.getTime());
    expect(Date.parse(series.values[0][0])).toBeLessThanOrEqual(ONSET.getTime() + 60_000);
    expect(series.values.slice(1, -1).every(([, v]: [string, string]) => v === '4')).toBe(true);
    expect(result.summary).toMatch(/^1 series between .* at a 60 s step\. \{app="checkout"\}: 20 points, first \d, last 4, min \d, max 4/);
  });

  it('refuses a query that does not parse, or selects every stream, before any request, saying where', async () => {
    const cases: Array<[string, Record<string, unknown>, RegExp]> = [
      [
        'loki.query_range',
        { query: '{app="checkout"' },
        /^Invalid arguments: query does not parse as LogQL: syntax error at line 1, col 16: the query ends too early$/,
      ],
      ['loki.query_range', { query: '{app="checkout"} |= ' }, /^Invalid arguments: query does not parse as LogQL: syntax error at line 1, col 21/],
      [
        'loki.query_range',
        { query: 'sum(rate({app=~".*"}[1m]))' },
        /^Invalid arguments: query: the stream selector needs at least one matcher that requires a non-empty value/,
      ],
      ['loki.query_range', { query: '{app="checkout"}', limit: 5000 }, /^Invalid arguments: arguments\.limit must be <= 1000$/],
      ['loki.log_patterns', { selector: '{app="checkout"} |= "x"', onset: iso(ONSET) }, /^Invalid arguments: selector must be a stream selector only/],
      ['loki.log_patterns', { selector: '{app="checkout"}', filter: '| json', onset: iso(ONSET) }, /^Invalid arguments: filter must be line filters only/],
      ['loki.labels', { query: 'count_over_time({app="x"}[1m])' }, /^Invalid arguments: query must be a stream selector only/],
    ];
    for (const [tool, args, error] of cases) {
      expect(catalog.validate(tool, args), JSON.stringify(args)).toMatch(error);
      const result = await run(tool, args);
      expect(result.outcome).toBe('failed');
      expect(result.error).toMatch(error);
    }
    expect(loki.requests).toEqual([]);
  });

  it("fails a query Loki refuses with Loki's own message, and a tenant-less read with what to set", async () => {
    const overLimit = await run('loki.query_range', { query: '{app="checkout"} |= "refused" | logfmt' });
    expect(overLimit.outcome).toBe('failed');
    expect(overLimit.error).toBe('Loki answered HTTP 400 at /loki/api/v1/query_range');
    const noTenant = await run('loki.labels', {}, connection({}));
    expect(noTenant.error).toBe(
      "Loki answered HTTP 401 at /loki/api/v1/labels: Loki is multi-tenant and the request named no tenant: set the integration's tenant (X-Scope-OrgID)",
    );
    const small = await LokiStandIn.start({ entries: shopLogs(ONSET, END), maxEntriesLimitPerQuery: 200 });
    try {
      const refused = await run('loki.query_range', { query: '{app="checkout"}', limit: 300 }, { ...connection({}), baseUrl: small.url });
      expect(refused.error).toBe(
        'Loki answered HTTP 400 at /loki/api/v1/query_range: max entries limit per query exceeded, limit > max_entries_limit_per_query (300 > 200)',
      );
    } finally {
      await small.close();
    }
  });

  it('mines templates client-side when Loki offers no patterns: the error that began at the onset is new, the warning present all along is not', async () => {
    const result = await run('loki.log_patterns', { selector: '{namespace="shop", app="checkout"}', onset: iso(ONSET) });
    expect(result.outcome, result.error).toBe('succeeded');
    const o = out(result);
    expect(o.minedBy).toBe('client');
    expect(o.patternsEndpoint).toBe('Loki answered HTTP 404 at /loki/api/v1/patterns: its pattern ingester is not enabled');
    expect(o.before).toMatchObject({ lines: 120 + 40, complete: true });
    expect(o.after).toMatchObject({ lines: 60 + 20 + 80, complete: true });
    const [first, ...rest] = o.templates;
    expect(first).toMatchObject({
      template: 'level=error msg="error connecting to inventory-db:<port>: connection refused" attempt=<num>',
      status: 'new',
      firstSeen: nanosText(BigInt(ONSET.getTime() + 10_000) * 1_000_000n + 789n),
      before: 0,
      after: 80,
      afterPerMinute: 4,
      example: 'level=error msg="error connecting to inventory-db:5432: connection refused" attempt=0',
    });
    expect(first.perMinuteAroundOnset.slice(0, 10)).toEqual(Array(10).fill(0));
    expect(first.perMinuteAroundOnset.slice(11)).toEqual(Array(10).fill(4));
    const warning = rest.find((t: Output) => t.template.startsWith('level=warn'));
    expect(warning).toMatchObject({ template: 'level=warn msg="slow query" table=orders rows=<num> took=<duration>', status: 'steady', before: 40, after: 20 });
    expect(rest.every((t: Output) => t.status !== 'new')).toBe(true);
    expect(result.summary).toContain(
      'New since the onset: `level=error msg="error connecting to inventory-db:<port>: connection refused" attempt=<num>` from ' +
        `${nanosText(BigInt(ONSET.getTime() + 10_000) * 1_000_000n).slice(11, 19)} (4/min after, none in the 40 min before).`,
    );
    expect(loki.requestsTo('/loki/api/v1/query_range').map((r) => r.params.get('direction'))).toEqual(['backward', 'forward']);
  });

  it('reads at most the line budget on each side, the latest before the onset, and says how much it read', async () => {
    const busy = await LokiStandIn.start({
      entries: Array.from({ length: 5000 }, (_, i) => ({
        at: BigInt(ONSET.getTime() - 1_000_000 + i * 400) * 1_000_000n,
        labels: { app: 'busy' },
        line: `request ${i} served`,
      })),
    });
    try {
      const result = await run('loki.log_patterns', { selector: '{app="busy"}', onset: iso(ONSET) }, { ...connection({}), baseUrl: busy.url });
      const o = out(result);
      expect(o.before).toMatchObject({ lines: 2000, complete: false });
      expect(Date.parse(o.before.from)).toBe(ONSET.getTime() - 2000 * 400);
      expect(o.after).toMatchObject({ lines: 2000, complete: false });
      expect(busy.requestsTo('/loki/api/v1/query_range').map((r) => r.params.get('limit'))).toEqual(['1000', '1000', '2', '1000', '1000', '2']);
      expect(result.summary).toContain('4000 lines of {app="busy"}');
      expect(result.summary).toContain('2000 from the 13 min before the onset read (the latest, up to the line budget), 2000 after it.');
    } finally {
      await busy.close();
    }
  });

  it("uses Loki's own patterns when it offers them, with the first line of each new one; a line filter mines client-side", async () => {
    loki.patterns = true;
    const result = await run('loki.log_patterns', { selector: '{namespace="shop", app="checkout"}', onset: iso(ONSET) });
    expect(result.outcome, result.error).toBe('succeeded');
    const o = out(result);
    expect(o.minedBy).toBe('loki');
    expect(o.patternsEndpoint).toBeUndefined();
    expect(o.templates[0]).toMatchObject({
      template: 'level=error msg="error connecting to <_> connection refused" <_>',
      status: 'new',
      before: 0,
      after: 80,
      example: 'level=error msg="error connecting to inventory-db:5432: connection refused" attempt=0',
    });
    expect(o.templates.find((t: Output) => t.template.startsWith('level=warn'))).toMatchObject({ status: 'steady', before: 40, after: 20 });
    expect(result.summary).toMatch(/^Loki's own patterns of \{namespace="shop", app="checkout"\} between .*: 3 templates\. New since the onset: `level=error/);
    const patternsRead = loki.requestsTo('/loki/api/v1/patterns');
    expect(patternsRead).toHaveLength(1);
    expect(patternsRead[0].params.get('step')).toBe('60s');
    expect(loki.requestsTo('/loki/api/v1/query_range')[0].params.get('query')).toBe(
      '{namespace="shop", app="checkout"} |> "level=error msg=\\"error connecting to <_> connection refused\\" <_>"',
    );

    loki.requests.length = 0;
    const filtered = await run('loki.log_patterns', { selector: '{namespace="shop"}', filter: '|~ "level=(error|warn)"', onset: iso(ONSET) });
    expect(out(filtered).minedBy).toBe('client');
    expect(out(filtered).templates.map((t: Output) => t.status)).toEqual(['new', 'steady']);
    expect(loki.requestsTo('/loki/api/v1/patterns')).toEqual([]);
  });

  it("mines the values of a label apart with `by`: each template is one workload's, listed with it, whatever Loki offers", async () => {
    loki.patterns = true;
    const result = await run('loki.log_patterns', { selector: '{namespace="shop"}', by: 'app', onset: iso(ONSET) });
    expect(result.outcome, result.error).toBe('succeeded');
    const o = out(result);
    expect(o.minedBy).toBe('client');
    expect(o.by).toBe('app');
    expect(loki.requestsTo('/loki/api/v1/patterns')).toEqual([]);
    expect(o.templates[0]).toMatchObject({ status: 'new', labels: { app: 'checkout' }, after: 80 });
    expect(o.templates.find((t: Output) => t.template.includes('stock level checked'))).toMatchObject({ labels: { app: 'inventory' }, status: 'steady' });
    expect(o.templates.every((t: Output) => ['checkout', 'inventory'].includes(t.labels?.app))).toBe(true);
    expect(result.summary).toContain('connection refused" attempt=<num>` of app="checkout" from ');

    const invalid = await run('loki.log_patterns', { selector: '{namespace="shop"}', by: 'app name', onset: iso(ONSET) });
    expect(invalid.outcome).toBe('failed');
  });
});

/** A nanosecond time as the tools write it (nine fractional digits). */
function nanosText(at: bigint): string {
  const ms = Number(at / 1_000_000n);
  return `${new Date(ms).toISOString().slice(0, 19)}.${(at % 1_000_000_000n).toString().padStart(9, '0')}Z`;
}

/** One nanosecond later than an RFC 3339 time with nine fractional digits. */
function incremented(text: string): string {
  const whole = BigInt(Date.parse(`${text.slice(0, 19)}Z`)) * 1_000_000n + BigInt(text.slice(20, 29));
  return nanosText(whole + 1n);
}
