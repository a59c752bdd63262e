import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useBootstrappedApi } from '../support/factories';
import { MonitoringProcess } from '../support/monitoring-stack';
import { freePort } from '../support/ports';
import { TestExporter } from '../support/test-exporter';
import { until } from '../support/until';
import { startWorker, TestWorker } from '../support/worker';

/**
 * The whole path with real software: a service's new version makes its errors rise; a real
 * Prometheus scrapes it and fires an alerting rule through a real Alertmanager into the service;
 * an investigation of the incident, worked by the worker with the built-in reasoner, concludes
 * from the metrics that the errors began with the new version, citing the runs that show it.
 */
describe('investigating an incident caused by a new version', () => {
  const ctx = useBootstrappedApi();
  let worker: TestWorker;
  let exporter: TestExporter;
  let prometheus: MonitoringProcess;
  let alertmanager: MonitoringProcess;
  let prometheusIntegration: string;
  let incidentId: string;

  /** Waits until Prometheus holds at least `count` scrapes of the exporter running `version`. */
  const scrapesOf = (version: string, count: number) =>
    until(
      async () => {
        const query = `count_over_time(app_build_info{version="${version}"}[5m])`;
        const body = (await fetch(`${prometheus.url}/api/v1/query?query=${encodeURIComponent(query)}`).then((r) => r.json())) as {
          data: { result: Array<{ value: [number, string] }> };
        };
        return Number(body.data.result[0]?.value[1] ?? 0) >= count ? true : undefined;
      },
      60_000,
      `${count} scrapes of version ${version}`,
    );

  beforeAll(async () => {
    worker = await startWorker();
    exporter = await TestExporter.start();
    const am = await ctx.admin.post('/api/v1/integrations', { type: 'alertmanager', name: 'Alertmanager' });
    alertmanager = await MonitoringProcess.alertmanager(
      MonitoringProcess.webhookConfig(`${ctx.api.baseUrl}/webhooks/v1/integrations/${am.body.id}/alert-events`, am.body.webhookSecret, ['alertname', 'job']),
    );
    await ctx.admin.patch(`/api/v1/integrations/${am.body.id}`, { config: { baseUrl: alertmanager.url } });
    const port = await freePort();
    prometheus = await MonitoringProcess.prometheus(
      [
        'global:',
        '  scrape_interval: 1s',
        '  evaluation_interval: 1s',
        'rule_files:',
        '  - rules.yml',
        'alerting:',
        '  alertmanagers:',
        `    - static_configs: [{ targets: ['${new URL(alertmanager.url).host}'] }]`,
        'scrape_configs:',
        '  - job_name: checkout',
        `    static_configs: [{ targets: ['127.0.0.1:${exporter.port}'] }]`,
        '',
      ].join('\n'),
      port,
      {
        'rules.yml': [
          'groups:',
          '  - name: checkout',
          '    rules:',
          '      - alert: HighErrorRate',
          '        expr: rate(app_http_errors_total[10s]) > 1',
          '        labels: { severity: page }',
          '        annotations: { summary: "Checkout is failing requests" }',
          '',
        ].join('\n'),
      },
    );
    const created = await ctx.admin.post('/api/v1/integrations', { type: 'prometheus', name: 'Prometheus', config: { baseUrl: prometheus.url } });
    prometheusIntegration = created.body.id;
    const verified = await ctx.admin.post(`/api/v1/integrations/${prometheusIntegration}/verify`);
    expect(verified.status).toBe(200);
    expect(verified.body.lastVerification).toMatchObject({ outcome: 'succeeded' });

    // The old version runs cleanly for a while (Prometheus holds 15 scrapes of it), then the new one fails requests.
    await scrapesOf('1.0.0', 15);
    exporter.release('1.1.0', 8);
    const incident = await until(
      async () => {
        const res = await ctx.admin.get('/api/v1/incidents?status=open');
        return res.body.items.find((i: { labels: Record<string, string> }) => i.labels.alertname === 'HighErrorRate');
      },
      60_000,
      'the HighErrorRate incident',
    );
    incidentId = incident.id;
    // Some minutes of errors, compressed: the investigation sees the condition hold after the onset.
    await scrapesOf('1.1.0', 5);
  }, 120_000);

  afterAll(async () => {
    await worker?.close();
    await Promise.all([prometheus?.stop(), alertmanager?.stop(), exporter?.stop()]);
  });

  it('concludes that the errors began with the new version, citing the runs that show it', async () => {
    const opened = await ctx.admin.post('/api/v1/investigations', { incidentId });
    expect(opened.status).toBe(201);
    expect(opened.body).toMatchObject({ status: 'queued', incidentId, humanConfirmationRequired: false });
    const id = opened.body.id;

    const done = await until(
      async () => {
        const res = await ctx.admin.get(`/api/v1/investigations/${id}`);
        return ['concluded', 'partial', 'failed'].includes(res.body.status) ? res.body : undefined;
      },
      60_000,
      'the investigation to end',
    );
    expect(done.error).toBeNull();
    expect(done.status).toBe('concluded');
    expect(done.conclusionStatus).toBe('verified_cause');
    expect(done.reasoner).toBe('built-in');
    expect(done.usage).toEqual({ inputTokens: 0, outputTokens: 0 });
    expect(done.summary).toContain('1.1.0');
    const cause = done.findings.find((f: { kind: string }) => f.kind === 'cause');
    expect(cause.statement).toContain('version="1.1.0"');

    // Ordinals are 1..n without gaps, and every citation names one of them.
    const ordinals = done.runs.map((r: { ordinal: number }) => r.ordinal);
    expect(ordinals).toEqual(Array.from({ length: ordinals.length }, (_, i) => i + 1));
    for (const ref of [...cause.runRefs, ...cause.evidenceRefs.map((e: { toolRunOrdinal: number }) => e.toolRunOrdinal)]) expect(ordinals).toContain(ref);
    // The cited runs read this Prometheus: the rule's expression and the build info.
    const cited = done.runs.filter((r: { ordinal: number }) => cause.runRefs.includes(r.ordinal));
    expect(cited.some((r: { arguments: { query?: string } }) => r.arguments.query === 'rate(app_http_errors_total[10s]) > 1')).toBe(true);
    expect(cited.some((r: { arguments: { query?: string } }) => r.arguments.query?.includes('_build_info'))).toBe(true);
    // Verified, not only supported: a cited run tied the condition to the instances running 1.1.0.
    expect(
      cited.some(
        (r: { arguments: { query?: string } }) =>
          r.arguments.query === `(rate(app_http_errors_total[10s]) > 1) and on(instance) app_build_info{job="checkout", version="1.1.0"}`,
      ),
    ).toBe(true);
    expect(done.limitations).toEqual([]);
    expect(cited.every((r: { integrationId: string | null; outcome: string }) => r.outcome === 'succeeded')).toBe(true);
    const test = done.hypotheses.find((h: { id: string }) => h.id === cause.hypothesisId);
    expect(test.status).toBe('supported');
    expect(done.actions.length).toBeGreaterThan(0);
    expect(done.humanConfirmationRequired).toBe(true);

    const sources = await ctx.admin.get(`/api/v1/investigations/${id}/sources`, { headers: { 'x-svc-organization': 'acme' } });
    expect(sources.status).toBe(200);
    expect(sources.body.sources.map((s: { rank: number }) => s.rank)).toEqual([1, 2]);
    expect(sources.body.sources[1]).toMatchObject({ integrationId: prometheusIntegration, reason: expect.stringContaining('Prometheus') });

    const activity = await ctx.admin.get(`/api/v1/investigations/${id}/activity?limit=200`);
    const types = activity.body.items.map((e: { type: string }) => e.type);
    expect(types[0]).toBe('started');
    expect(types.at(-1)).toBe('concluded');
    expect(types).toContain('hypothesis.updated');
    expect(activity.body.items.map((e: { sequence: number }) => e.sequence)).toEqual(types.map((_: string, i: number) => i + 1));
    expect(types.filter((t: string) => t === 'tool.completed')).toHaveLength(ordinals.length);

    const report = await ctx.admin.get(`/api/v1/investigations/${id}/report`);
    expect(report.status).toBe(200);
    expect(report.headers.get('content-type')).toContain('text/markdown');
    expect(report.text).toContain('## Findings');
    expect(report.text).toContain('1.1.0');
  }, 90_000);

  it('answers follow-up questions about the incident in a conversation as asked: what changed, and whether it still holds', async () => {
    const turnEnded = (conversationId: string, turn: number) =>
      until(
        async () => {
          const res = await ctx.admin.get(`/api/v1/conversations/${conversationId}/turns?limit=200`, { headers: { 'x-svc-organization': 'acme' } });
          const found = res.body.turns.find((t: { turn: number }) => t.turn === turn);
          return found && ['concluded', 'partial', 'failed', 'needs_input'].includes(found.status) ? found : undefined;
        },
        60_000,
        `turn ${turn} to end`,
      );
    const opened = await ctx.admin.post('/api/v1/conversations', { subject: 'Checkout errors', incidentId, message: 'What changed in the last 5 minutes?' });
    expect(opened.status).toBe(201);
    const changed = await turnEnded(opened.body.id, 1);
    expect(changed.status).toBe('concluded');
    expect(changed.answer).toMatch(
      /^The last change before the first alert: checkout 1\.0\.0 → 1\.1\.0 \(a new version\), at (\d{4}-\d\d-\d\d )?\d\d:\d\d UTC \(.* the first alert, at .*\); 1 change from .* \[#1\]/,
    );
    const read = (await ctx.admin.get(`/api/v1/investigations/${changed.investigationId}`)).body;
    expect(read.conclusionStatus).toBe('answer_only');
    expect(read.findings).toEqual([expect.objectContaining({ kind: 'context', runRefs: [1] })]);
    expect(read.runs[0]).toMatchObject({ ordinal: 1, tool: 'prometheus.query_range', outcome: 'succeeded' });

    await ctx.admin.post(`/api/v1/conversations/${opened.body.id}/messages`, { message: 'Is it still happening?' });
    const still = await turnEnded(opened.body.id, 2);
    expect(still.status).toBe('concluded');
    expect(still.answer).toMatch(
      /^The condition of HighErrorRate \(the incident's alert\) has held since (\d{4}-\d\d-\d\d )?\d\d:\d\d UTC, and still holds at (\d{4}-\d\d-\d\d )?\d\d:\d\d UTC \[#1, #2\]$/,
    );
  }, 90_000);
});
