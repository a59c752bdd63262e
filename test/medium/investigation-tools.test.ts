import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Timestamp } from '@svc/platform';
import { DataSourceConnection, ToolCatalog, ToolContext, ToolResult } from '@svc/investigations/tools';
import { MonitoringProcess } from '../support/monitoring-stack';
import { freePort } from '../support/ports';
import { until } from '../support/until';

/** A loopback HTTP server whose handler the test chooses; records the headers of every request. */
async function localServer(handle: (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void) {
  const seen: Array<{ url: string; headers: IncomingHttpHeaders }> = [];
  const server: Server = createServer((req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers });
    handle(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

type Output = Record<string, any>;
const out = (result: ToolResult) => result.output as Output;

describe('investigation tools against a real Prometheus and Alertmanager', () => {
  const catalog = new ToolCatalog();
  const startedAt = Timestamp.now().plusSeconds(-5);
  let prometheus: MonitoringProcess;
  let alertmanager: MonitoringProcess;
  let deadPort: number;
  let rulesDir: string;
  let silenceId: string;

  const connection = (type: 'prometheus' | 'alertmanager', baseUrl: string, headers: Record<string, string> = {}): DataSourceConnection => ({
    integrationId: '0190a0b0-0000-7000-8000-000000000001',
    type,
    baseUrl,
    headers,
  });
  const context = (conn: DataSourceConnection, signal = new AbortController().signal): ToolContext => ({
    connection: conn,
    window: { from: startedAt, until: Timestamp.now() },
    signal,
  });
  const prom = () => context(connection('prometheus', prometheus.url));
  const am = () => context(connection('alertmanager', `${alertmanager.url}/`));

  beforeAll(async () => {
    const [promPort, dead] = await Promise.all([freePort(), freePort()]);
    deadPort = dead;
    rulesDir = mkdtempSync(join(tmpdir(), 'svc-tool-rules-'));
    writeFileSync(
      join(rulesDir, 'rules.yml'),
      [
        'groups:',
        '  - name: svc-tools',
        '    rules:',
        '      - alert: ScrapeTargetDown',
        '        expr: up == 0',
        '        labels: { severity: page }',
        '        annotations: { summary: "{{ $labels.instance }} cannot be scraped" }',
        '      - alert: NeverFires',
        '        expr: vector(1) > 2',
        '        for: 5m',
        '',
      ].join('\n'),
    );
    const promConfig = [
      'global:',
      '  scrape_interval: 1s',
      '  evaluation_interval: 1s',
      'rule_files:',
      `  - ${join(rulesDir, 'rules.yml')}`,
      'scrape_configs:',
      '  - job_name: prometheus',
      `    static_configs: [{ targets: ['127.0.0.1:${promPort}'] }]`,
      '  - job_name: unreachable',
      `    static_configs: [{ targets: ['127.0.0.1:${deadPort}'] }]`,
      '',
    ].join('\n');
    [prometheus, alertmanager] = await Promise.all([MonitoringProcess.prometheus(promConfig, promPort), MonitoringProcess.alertmanager()]);

    const now = Date.now();
    const alerts = [
      {
        labels: { alertname: 'DiskFull', service: 'checkout', instance: 'db-1' },
        annotations: { summary: 'Disk 97% full' },
        startsAt: new Date(now - 120_000).toISOString(),
      },
      {
        labels: { alertname: 'HighLatency', service: 'checkout', instance: 'web-1' },
        annotations: { summary: 'p99 above 2 s' },
        startsAt: new Date(now - 60_000).toISOString(),
      },
    ];
    const posted = await fetch(`${alertmanager.url}/api/v2/alerts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(alerts),
    });
    expect(posted.status).toBe(200);
    const silence = async (matchers: unknown[], comment: string) => {
      const res = await fetch(`${alertmanager.url}/api/v2/silences`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ matchers, startsAt: new Date(now).toISOString(), endsAt: new Date(now + 3_600_000).toISOString(), createdBy: 'alice', comment }),
      });
      expect(res.status).toBe(200);
      return ((await res.json()) as { silenceID: string }).silenceID;
    };
    silenceId = await silence([{ name: 'alertname', value: 'DiskFull', isRegex: false, isEqual: true }], 'disk being expanded');
    const expired = await silence([{ name: 'service', value: 'cart|search', isRegex: true, isEqual: true }], 'old maintenance');
    expect((await fetch(`${alertmanager.url}/api/v2/silence/${expired}`, { method: 'DELETE' })).status).toBe(200);

    // Enough scrapes and rule evaluations to read: both targets scraped, the down one firing its alert.
    await until(async () => {
      const res = await fetch(`${prometheus.url}/api/v1/query?query=${encodeURIComponent('count_over_time(up[1m]) >= 5')}`);
      const body = (await res.json()) as { data: { result: unknown[] } };
      return body.data.result.length === 2 ? true : undefined;
    });
    await until(async () => {
      const res = await fetch(`${prometheus.url}/api/v1/alerts`);
      const body = (await res.json()) as { data: { alerts: Array<{ state: string }> } };
      return body.data.alerts.some((a) => a.state === 'firing') ? true : undefined;
    });
  }, 60_000);

  afterAll(async () => {
    await Promise.all([prometheus?.stop(), alertmanager?.stop()]);
    if (rulesDir) rmSync(rulesDir, { recursive: true, force: true });
  });

  describe('the catalog', () => {
    it('lists each tool once with a closed JSON-Schema object, filtered by integration type', () => {
      const names = catalog.list().map((t) => t.name);
      expect(names).toEqual([
        'prometheus.query',
        'prometheus.query_range',
        'prometheus.series',
        'prometheus.label_values',
        'prometheus.metadata',
        'prometheus.alert_rules',
        'prometheus.targets',
        'alertmanager.alerts',
        'alertmanager.silences',
        'postgresql.activity',
        'postgresql.locks',
        'postgresql.connections',
        'postgresql.statements',
        'postgresql.replication',
        'postgresql.maintenance',
        'postgresql.sizes',
        'mysql.processlist',
        'mysql.lock_waits',
        'mysql.connections',
        'mysql.statements',
        'mysql.replication',
        'redis.info',
        'redis.slowlog',
        'redis.latency',
        'redis.clients',
        'rabbitmq.overview',
        'rabbitmq.queues',
        'rabbitmq.connections',
        'loki.labels',
        'loki.label_values',
        'loki.query_range',
        'loki.log_patterns',
        'kubernetes.events',
        'kubernetes.pod_status',
        'kubernetes.container_logs',
        'kubernetes.rollout_history',
        'kubernetes.node',
      ]);
      expect(catalog.list('alertmanager').map((t) => t.name)).toEqual(['alertmanager.alerts', 'alertmanager.silences']);
      for (const tool of catalog.list()) {
        expect(tool.name).toMatch(/^[a-z_.]+$/);
        expect(tool.description.length).toBeGreaterThan(80);
        expect(tool.argumentsSchema).toMatchObject({ type: 'object', additionalProperties: false });
        expect(tool).not.toHaveProperty('run');
      }
      expect(catalog.get('prometheus.query_range')?.argumentsSchema).toMatchObject({ required: ['query'] });
    });

    it('refuses invalid arguments before any request, with a message naming the problem', async () => {
      const cases: Array<[string, unknown, RegExp]> = [
        ['prometheus.query', {}, /arguments must have required property 'query'/],
        ['prometheus.query', { query: 'up', limit: 3 }, /arguments has unknown property limit/],
        ['prometheus.query', { query: 'up', time: 'yesterday' }, /arguments\.time must be an RFC 3339 timestamp/],
        ['prometheus.query_range', { query: 'up', step: 0 }, /arguments\.step must be > 0/],
        [
          'prometheus.query_range',
          { query: 'up', start: '2026-01-02T00:00:00Z', end: '2026-01-01T00:00:00Z' },
          /start \(2026-01-02T00:00:00\.000000Z\) must be before end/,
        ],
        ['prometheus.label_values', { label: 'bad-label' }, /arguments\.label must match pattern/],
        ['prometheus.targets', { health: 'sick' }, /arguments\.health must be one of "up", "down", "unknown"/],
        ['prometheus.series', { match: [] }, /arguments\.match must NOT have fewer than 1 items/],
        ['alertmanager.alerts', { active: 'yes' }, /arguments\.active must be boolean/],
        ['prometheus.nope', {}, /Unknown tool prometheus\.nope/],
      ];
      for (const [tool, args, message] of cases) {
        const conn = tool.startsWith('alertmanager') ? am() : prom();
        const result = await catalog.run(tool, args, conn);
        expect(result, tool).toMatchObject({ outcome: 'failed', truncated: false, output: null });
        expect(result.error).toMatch(message);
        expect(result.summary).toContain(`${tool} failed`);
      }
      expect(catalog.validate('prometheus.query', { query: 'up' })).toBeNull();
      const wrongType = await catalog.run('alertmanager.alerts', {}, prom());
      expect(wrongType.error).toMatch(/alertmanager\.alerts reads Alertmanager integrations; integration .* is Prometheus/);
    });
  });

  describe('Prometheus', () => {
    it('prometheus.query: the value of up for each target at the window end', async () => {
      const result = await catalog.run('prometheus.query', { query: 'up' }, prom());
      expect(result.outcome).toBe('succeeded');
      const series = out(result).series as Array<{ metric: Record<string, string>; value: [string, string] }>;
      const byJob = Object.fromEntries(series.map((s) => [s.metric.job, s.value[1]]));
      expect(byJob).toEqual({ prometheus: '1', unreachable: '0' });
      expect(series[0].value[0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
      expect(result.summary).toMatch(/^2 series at .*up\{instance="127\.0\.0\.1:\d+",job="prometheus"\} = 1/);
      expect(result.summary).toContain('job="unreachable"} = 0');
      expect(result.sources).toHaveLength(1);
      expect(result.sources[0]).toMatch(/^\/api\/v1\/query\?query=up&time=/);
      expect(result.window?.until.toISOString()).toBe(out(result).time);
    });

    it('prometheus.query: a scalar, and an explicit time', async () => {
      const at = new Date(Date.now() - 2000).toISOString(); // Prometheus keeps milliseconds
      const result = await catalog.run('prometheus.query', { query: 'scalar(vector(42))', time: at }, prom());
      expect(out(result)).toEqual({ resultType: 'scalar', time: Timestamp.parse(at)!.toISOString(), value: [Timestamp.parse(at)!.toISOString(), '42'] });
      expect(result.summary).toBe(`Scalar 42 at ${Timestamp.parse(at)!.toISOString()}.`);
    });

    it('prometheus.query_range: up over the window, with first/last/min/max per series in the summary', async () => {
      const ctx = prom();
      const result = await catalog.run('prometheus.query_range', { query: 'up{job="prometheus"}' }, ctx);
      expect(result.outcome).toBe('succeeded');
      const output = out(result);
      expect(output.series).toHaveLength(1);
      const values = output.series[0].values as Array<[string, string]>;
      expect(values.length).toBeGreaterThanOrEqual(3);
      expect(values.length).toBeLessThanOrEqual(250);
      expect(new Set(values.map((v) => v[1]))).toEqual(new Set(['1']));
      expect(output.stepSeconds).toBe(1);
      expect(output.start).toBe(ctx.window.from.toISOString());
      expect(output.end).toBe(ctx.window.until.toISOString());
      expect(result.window?.from.toISOString()).toBe(ctx.window.from.toISOString());
      expect(result.summary).toMatch(
        new RegExp(
          `^1 series from ${ctx.window.from.toISOString().replace(/\./g, '\\.')} to .* at a 1 s step\\. up\\{instance="127\\.0\\.0\\.1:\\d+",job="prometheus"\\}: ${values.length} points, first 1, last 1, min 1, max 1 at `,
        ),
      );
      expect(result.sources[0]).toMatch(/^\/api\/v1\/query_range\?query=up%7Bjob%3D%22prometheus%22%7D&start=.*&end=.*&step=1$/);
    });

    it('prometheus.query_range: a default step that keeps 250 points or fewer, and a too-fine step raised to fit 11,000 points', async () => {
      const end = Timestamp.now();
      const start = end.plusSeconds(-6 * 3600);
      const wide = await catalog.run('prometheus.query_range', { query: 'vector(1)', start: start.toISOString(), end: end.toISOString() }, prom());
      expect(out(wide).stepSeconds).toBe(120);
      expect(out(wide).series[0].values).toHaveLength(181);

      const fine = await catalog.run('prometheus.query_range', { query: 'vector(1)', start: start.toISOString(), end: end.toISOString(), step: 0.5 }, prom());
      expect(fine.outcome).toBe('succeeded');
      expect(out(fine).stepSeconds).toBeCloseTo(21600 / 11000, 2);
      expect(fine.summary).toContain('The step was raised from 0.5 s to 1.964 s (Prometheus allows at most 11000 points per series)');
      expect(fine.truncated).toBe(true); // 11,000 points do not fit 64 KiB
      expect(Buffer.byteLength(JSON.stringify(fine.output))).toBeLessThanOrEqual(64 * 1024);
    });

    it('prometheus.series and prometheus.label_values: what exists over the window', async () => {
      const series = await catalog.run('prometheus.series', { match: ['up'] }, prom());
      expect(series.outcome).toBe('succeeded');
      expect((out(series).series as Array<Record<string, string>>).map((s) => s.job).sort()).toEqual(['prometheus', 'unreachable']);
      expect(out(series).count).toBe(2);
      expect(series.summary).toMatch(/^2 series between .* by metric: up \(2\)\.$/);
      expect(series.sources[0]).toMatch(/^\/api\/v1\/series\?match%5B%5D=up&start=/);

      const jobs = await catalog.run('prometheus.label_values', { label: 'job' }, prom());
      expect(out(jobs).values).toEqual(['prometheus', 'unreachable']);
      expect(jobs.summary).toMatch(/^2 values of job between .*: prometheus, unreachable\.$/);
      const onlyUp = await catalog.run('prometheus.label_values', { label: 'job', match: ['up{job="prometheus"}'] }, prom());
      expect(onlyUp.outcome).toBe('succeeded');
      expect(out(onlyUp).values).toEqual(['prometheus']);
      const names = await catalog.run('prometheus.label_values', { label: '__name__', match: ['{job="prometheus"}'] }, prom());
      expect(out(names).values).toContain('prometheus_build_info');
    });

    it('prometheus.alert_rules: expressions and states of the alerting rules, with the firing alert', async () => {
      const result = await catalog.run('prometheus.alert_rules', {}, prom());
      expect(result.outcome).toBe('succeeded');
      const rules = out(result).rules as Output[];
      const down = rules.find((r) => r.name === 'ScrapeTargetDown')!;
      expect(down).toMatchObject({ group: 'svc-tools', query: 'up == 0', state: 'firing', health: 'ok', labels: { severity: 'page' }, lastError: null });
      expect(down.alerts).toEqual([
        expect.objectContaining({
          state: 'firing',
          value: expect.stringMatching(/^0(e\+00)?$/),
          labels: expect.objectContaining({ job: 'unreachable', instance: `127.0.0.1:${deadPort}` }),
          annotations: { summary: `127.0.0.1:${deadPort} cannot be scraped` },
        }),
      ]);
      expect(down.alerts[0].activeAt).toMatch(/Z$/);
      expect(rules.find((r) => r.name === 'NeverFires')).toMatchObject({ state: 'inactive', forSeconds: 300, query: 'vector(1) > 2', alerts: [] });
      expect(result.summary).toBe('2 alerting rules: 1 firing (ScrapeTargetDown: 1 alert), 0 pending, 1 inactive.');
      expect(result.sources).toEqual(['/api/v1/rules?type=alert']);

      const inactive = await catalog.run('prometheus.alert_rules', { state: 'inactive' }, prom());
      expect((out(inactive).rules as Output[]).map((r) => r.name)).toEqual(['NeverFires']);
    });

    it('prometheus.targets: health, last error and last scrape of each target', async () => {
      const result = await catalog.run('prometheus.targets', {}, prom());
      const targets = out(result).targets as Output[];
      const down = targets.find((t) => t.job === 'unreachable')!;
      expect(down).toMatchObject({ instance: `127.0.0.1:${deadPort}`, health: 'down' });
      expect(down.lastError).toMatch(/connection refused/);
      const up = targets.find((t) => t.job === 'prometheus')!;
      expect(up).toMatchObject({ health: 'up', lastError: null, scrapeInterval: '1s' });
      const lastScrape = Timestamp.parse(up.lastScrape)!;
      expect(lastScrape.isAfter(startedAt)).toBe(true);
      expect(up.lastScrape).toBe(lastScrape.toISOString());
      expect(result.summary).toMatch(
        new RegExp(`^2 active targets: 1 up, 1 down\\. Down: unreachable 127\\.0\\.0\\.1:${deadPort} \\(.*connection refused\\)\\.$`),
      );

      const onlyDown = await catalog.run('prometheus.targets', { health: 'down' }, prom());
      expect(out(onlyDown).targets).toHaveLength(1);
      expect(onlyDown.summary).toMatch(/^1 active target \(of 2\): 1 down/);
    });

    it("bad PromQL: a failed run carrying Prometheus's own message and the URL that was read", async () => {
      const result = await catalog.run('prometheus.query_range', { query: 'sum(rate(up[5m]' }, prom());
      expect(result).toMatchObject({ outcome: 'failed', output: null, truncated: false });
      expect(result.error).toMatch(/^Prometheus answered HTTP 400 at \/api\/v1\/query_range: \(bad_data\) .*parse error: unclosed left parenthesis$/);
      expect(result.summary).toMatch(/^prometheus\.query_range failed: Prometheus answered HTTP 400/);
      expect(result.sources[0]).toMatch(/^\/api\/v1\/query_range\?query=sum/);
    });

    it('cuts a large answer to the output cap, keeping valid JSON that says what it kept', async () => {
      const small = new ToolCatalog(undefined, { outputCapBytes: 4096 });
      const ctx = prom();
      // Prometheus scrapes itself meanwhile and its series come and go: the cut read is compared with
      // full reads made just before and after it that agree.
      const read = async () => {
        const before = await catalog.run('prometheus.series', { match: ['{job="prometheus"}'] }, ctx);
        const cut = await small.run('prometheus.series', { match: ['{job="prometheus"}'] }, ctx);
        const after = await catalog.run('prometheus.series', { match: ['{job="prometheus"}'] }, ctx);
        return JSON.stringify(out(before)) === JSON.stringify(out(after)) ? { full: before, result: cut } : undefined;
      };
      let stable = await read();
      for (let attempt = 1; !stable && attempt < 10; attempt++) stable = await read();
      const { full, result } = stable!;
      const total = out(full).count as number;
      expect(total).toBeGreaterThan(100);
      expect(result.outcome).toBe('succeeded');
      expect(result.truncated).toBe(true);
      const text = JSON.stringify(result.output);
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(4096);
      const output = JSON.parse(text) as Output;
      expect(output.count).toBe(total);
      expect(output.series.length).toBeGreaterThan(0);
      expect(output.series.length).toBeLessThan(total);
      expect(output.series).toEqual((out(full).series as unknown[]).slice(0, output.series.length));
      expect(output.truncation).toEqual([{ path: 'series', kept: output.series.length, of: total, unit: 'items' }]);
      expect(result.summary).toContain(`${total} series between`);
      expect(result.summary).toContain(`Output cut to 4096 bytes: kept ${output.series.length} of ${total} items at series.`);

      // Two constant series over an hour at a 5 s step: 2 × 721 points, thinned evenly to fit.
      const end = Timestamp.parse('2026-01-01T01:00:00Z')!;
      const twoSeries = 'label_replace(vector(1), "copy", "a", "", "") or label_replace(vector(2), "copy", "b", "", "")';
      const range = await small.run(
        'prometheus.query_range',
        { query: twoSeries, start: end.plusSeconds(-3600).toISOString(), end: end.toISOString(), step: 5 },
        prom(),
      );
      expect(range.truncated).toBe(true);
      expect(Buffer.byteLength(JSON.stringify(range.output))).toBeLessThanOrEqual(4096);
      const kept = out(range).series as Array<{ metric: Record<string, string>; values: Array<[string, string]> }>;
      expect(kept.map((s) => s.metric.copy)).toEqual(['a', 'b']);
      for (const s of kept) {
        expect(s.values.length).toBeLessThan(721);
        expect(s.values[0][0]).toBe('2026-01-01T00:00:00.000000Z');
        expect(s.values[s.values.length - 1][0]).toBe('2026-01-01T01:00:00.000000Z');
      }
      expect(out(range).truncation).toEqual([{ path: 'series[].values', kept: kept[0].values.length + kept[1].values.length, of: 1442, unit: 'items' }]);
      expect(range.summary).toMatch(/^2 series from .* \{copy="a"\}: 721 points, first 1, last 1, min 1, max 1 at .*\{copy="b"\}: 721 points, first 2, last 2/);
    });
  });

  describe('Alertmanager', () => {
    it('alertmanager.alerts: the posted alerts, their state and the silence that suppresses one', async () => {
      const result = await until(async () => {
        const r = await catalog.run('alertmanager.alerts', {}, am());
        return (out(r).alerts as Output[]).some((a) => a.state === 'suppressed') ? r : undefined;
      });
      const alerts = out(result).alerts as Output[];
      expect(alerts).toHaveLength(2);
      const disk = alerts.find((a) => a.labels.alertname === 'DiskFull')!;
      expect(disk).toMatchObject({
        state: 'suppressed',
        silencedBy: [silenceId],
        inhibitedBy: [],
        annotations: { summary: 'Disk 97% full' },
        receivers: ['default'],
      });
      expect(disk.startsAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
      expect(alerts.find((a) => a.labels.alertname === 'HighLatency')).toMatchObject({ state: 'active', silencedBy: [] });
      expect(result.summary).toMatch(
        /^2 alerts: 1 active, 1 suppressed\. By alertname: (DiskFull \(1\), HighLatency \(1\)|HighLatency \(1\), DiskFull \(1\))\.$/,
      );
      expect(result.sources).toEqual(['/api/v2/alerts']);

      const unsilenced = await catalog.run('alertmanager.alerts', { silenced: false }, am());
      expect((out(unsilenced).alerts as Output[]).map((a) => a.labels.alertname)).toEqual(['HighLatency']);
      expect(unsilenced.sources).toEqual(['/api/v2/alerts?silenced=false']);
      const filtered = await catalog.run('alertmanager.alerts', { filter: ['alertname="DiskFull"', 'service=~"check.*"'] }, am());
      expect((out(filtered).alerts as Output[]).map((a) => a.labels.instance)).toEqual(['db-1']);
    });

    it('alertmanager.silences: matchers, author and state, optionally only the active ones', async () => {
      const all = await catalog.run('alertmanager.silences', {}, am());
      const silences = out(all).silences as Output[];
      expect(silences).toHaveLength(2);
      expect(silences.find((s) => s.id === silenceId)).toMatchObject({
        state: 'active',
        matchers: ['alertname="DiskFull"'],
        createdBy: 'alice',
        comment: 'disk being expanded',
      });
      expect(silences.find((s) => s.id !== silenceId)).toMatchObject({ state: 'expired', matchers: ['service=~"cart|search"'] });
      expect(all.summary).toMatch(/^2 silences: 1 active, 1 expired\. Active: alertname="DiskFull" until \S+Z by alice\.$/);

      const active = await catalog.run('alertmanager.silences', { activeOnly: true }, am());
      expect((out(active).silences as Output[]).map((s) => s.id)).toEqual([silenceId]);
      expect(active.summary).toMatch(/^1 silence \(of 2\): 1 active/);
    });

    it('a matcher Alertmanager cannot parse: failed with its message', async () => {
      const result = await catalog.run('alertmanager.alerts', { filter: ['alertname=~"(unclosed"'] }, am());
      expect(result.outcome).toBe('failed');
      expect(result.error).toMatch(/^Alertmanager answered HTTP 400 at \/api\/v2\/alerts: error parsing regexp: missing closing \)/);
    });
  });

  describe('failures of the connection', () => {
    it('an unreachable host is a failed run naming the address', async () => {
      const result = await catalog.run('prometheus.query', { query: 'up' }, context(connection('prometheus', `http://127.0.0.1:${deadPort}`)));
      expect(result).toMatchObject({ outcome: 'failed', error: `Could not reach Prometheus at http://127.0.0.1:${deadPort}: ECONNREFUSED` });
    });

    it('a server that never answers fails at the catalog timeout', async () => {
      const silent = await localServer(() => {
        /* never answers */
      });
      try {
        const quick = new ToolCatalog(undefined, { timeoutMs: 400 });
        const result = await quick.run('alertmanager.silences', {}, context(connection('alertmanager', silent.url)));
        expect(result).toMatchObject({ outcome: 'failed', error: 'Timed out: Alertmanager gave no complete answer within 0.4 s' });
        expect(silent.seen).toHaveLength(1);
      } finally {
        await silent.close();
      }
    });

    it('cancellation through the AbortSignal abandons the in-flight read with a cancelled run', async () => {
      const controller = new AbortController();
      let abandoned = false;
      // Never answers; cancels as soon as the read has reached it.
      const silent = await localServer((_req, res) => {
        res.on('close', () => {
          abandoned = true;
        });
        controller.abort();
      });
      try {
        const result = await catalog.run('prometheus.query_range', { query: 'up' }, context(connection('prometheus', silent.url), controller.signal));
        await until(() => abandoned, 10_000, 'the read to be abandoned');
        expect(result).toMatchObject({ outcome: 'failed', error: 'Cancelled: the run was stopped before prometheus.query_range finished' });

        const before = await catalog.run('prometheus.query', { query: 'up' }, context(connection('prometheus', silent.url), controller.signal));
        expect(before.error).toBe('Cancelled before prometheus.query started');
        expect(silent.seen).toHaveLength(1);
      } finally {
        await silent.close();
      }
    });

    it("sends the connection's bearer or basic authorization and accept: application/json, and refuses redirects", async () => {
      const fake = await localServer((req, res) => {
        if (req.url?.startsWith('/prefix/api/v1/query')) {
          res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"success","data":{"resultType":"vector","result":[]}}');
        } else {
          res.writeHead(302, { location: 'http://127.0.0.1:1/elsewhere' }).end();
        }
      });
      try {
        const bearer = await catalog.run(
          'prometheus.query',
          { query: 'up' },
          context(connection('prometheus', `${fake.url}/prefix`, { authorization: 'Bearer s3cret-token', 'X-Scope-OrgID': 'tenant-a' })),
        );
        expect(bearer.outcome).toBe('succeeded');
        expect(bearer.summary).toMatch(/^No series matched at /);
        const basic = `Basic ${Buffer.from('reader:pa55').toString('base64')}`;
        await catalog.run(
          'prometheus.query',
          { query: 'up' },
          context(connection('prometheus', `${fake.url}/prefix/`, { Authorization: basic, Accept: 'text/html' })),
        );
        expect(fake.seen[0].headers).toMatchObject({ authorization: 'Bearer s3cret-token', 'x-scope-orgid': 'tenant-a', accept: 'application/json' });
        expect(fake.seen[1].headers).toMatchObject({ authorization: basic, accept: 'application/json' });
        expect(fake.seen[1].url).toMatch(/^\/prefix\/api\/v1\/query\?query=up&time=/);
        expect(bearer.sources[0]).toMatch(/^\/prefix\/api\/v1\/query\?query=up&time=/);
        expect(JSON.stringify(bearer)).not.toContain('s3cret');

        const redirected = await catalog.run(
          'alertmanager.alerts',
          {},
          context(connection('alertmanager', fake.url, { authorization: 'Bearer s3cret-token' })),
        );
        expect(redirected.outcome).toBe('failed');
        expect(redirected.error).toMatch(/^Could not reach Alertmanager at http:\/\/127\.0\.0\.1:\d+: .*redirect/);
        expect(fake.seen).toHaveLength(3);
      } finally {
        await fake.close();
      }
    });
  });
});
