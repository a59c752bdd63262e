import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DerivedAlert, deriveAlerts, stagePrometheus, StagedPrometheus } from '../../eval/harness';
import { SCENARIOS } from '../../eval/scenarios';
import { useBootstrappedApi } from '../support/factories';
import { investigationEnded } from '../support/investigations';
import { MonitoringProcess } from '../support/monitoring-stack';
import { until } from '../support/until';
import { startWorker, TestWorker } from '../support/worker';

/**
 * A postmortem from end to end on real processes: a generated incident's three hours of
 * kube-prometheus data backfilled into a real Prometheus (eval/scenarios.ts, `checkout-bad-version`),
 * its paging alert pushed into a real Alertmanager that notifies the service's webhook, an
 * investigation worked by the real worker with the built-in reasoner (no language model), the
 * alert resolved through Alertmanager, and the postmortem drafted from what the service recorded.
 */

const NEEDS = 'Needs human input.';
/** An RFC 3339 timestamp as the service writes it: UTC, six fractional digits. */
const micros = (text: string) => new Date(text).toISOString().replace(/Z$/, '000Z');

describe('a postmortem of an incident an Alertmanager reported and the built-in reasoner investigated', () => {
  const ctx = useBootstrappedApi();
  const scenario = SCENARIOS.find((s) => s.name === 'checkout-bad-version')!;
  let staged: StagedPrometheus;
  let alertmanager: MonitoringProcess;
  let worker: TestWorker;
  let page: DerivedAlert;
  let alert: { labels: Record<string, string>; annotations: Record<string, string>; startsAt: string; generatorURL: string };
  let integrationId: string;
  let incidentId: string;
  let investigation: any;
  let endsAt: string;
  let resolved: any;

  const push = async (alerts: unknown[]) => {
    const res = await fetch(`${alertmanager.url}/api/v2/alerts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(alerts),
    });
    expect(res.status).toBe(200);
  };

  beforeAll(async () => {
    worker = await startWorker();
    staged = await stagePrometheus(scenario);
    [page] = await deriveAlerts(staged.prometheus.url, scenario.rule, staged.start, staged.end);
    expect(page, `${scenario.rule.alert} fires over the scenario's data`).toBeDefined();

    const am = await ctx.admin.post('/api/v1/integrations', { type: 'alertmanager', name: 'Alertmanager' });
    integrationId = am.body.id;
    const url = `${ctx.api.baseUrl}/webhooks/v1/integrations/${integrationId}/alert-events`;
    // Grouped by namespace, as kube-prometheus's Alertmanager groups.
    alertmanager = await MonitoringProcess.alertmanager(MonitoringProcess.webhookConfig(url, am.body.webhookSecret, ['namespace']));
    const prom = await ctx.admin.post('/api/v1/integrations', { type: 'prometheus', name: 'Prometheus', config: { baseUrl: staged.prometheus.url } });
    expect((await ctx.admin.post(`/api/v1/integrations/${prom.body.id}/verify`)).body.lastVerification.outcome).toBe('succeeded');

    // The incident's life, which the tests below check: the alert fires in Alertmanager, the
    // built-in reasoner investigates the incident it opens here, and the alert resolves.
    alert = {
      labels: page.labels,
      annotations: page.annotations,
      startsAt: new Date(page.firedAt * 1000).toISOString(),
      generatorURL: `http://prometheus-k8s.monitoring.svc:9090/graph?g0.expr=${encodeURIComponent(scenario.rule.expr)}&g0.tab=1`,
    };
    // Firing until told otherwise: an end an hour away, so Alertmanager does not time it out meanwhile.
    await push([{ ...alert, endsAt: new Date(Date.now() + 3600_000).toISOString() }]);
    const incident = await until(
      async () => {
        const res = await ctx.admin.get('/api/v1/incidents?status=open');
        return res.body.items.find((i: { integrationId: string }) => i.integrationId === integrationId) as { id: string } | undefined;
      },
      30_000,
      'the incident Alertmanager reported',
    );
    incidentId = incident.id;
    const opened = await ctx.admin.post('/api/v1/investigations', { incidentId });
    expect(opened.status).toBe(201);
    investigation = await investigationEnded(ctx.admin, opened.body.id, { timeoutMs: 90_000 });
    endsAt = new Date().toISOString();
    await push([{ ...alert, endsAt }]);
    resolved = await until(
      async () => {
        const res = await ctx.admin.get(`/api/v1/incidents/${incidentId}`);
        return res.body.status === 'resolved' ? res.body : undefined;
      },
      30_000,
      'the incident to resolve',
    );
  }, 390_000);

  afterAll(async () => {
    await worker?.close();
    await alertmanager?.stop();
    await staged?.stop();
  });

  it('opens the incident from Alertmanager, concludes with the built-in reasoner, and resolves when the alert resolves in Alertmanager', async () => {
    expect(investigation).toMatchObject({ incidentId, status: 'concluded', conclusionStatus: 'verified_cause', reasoner: 'built-in' });
    expect(investigation.findings.find((f: { kind: string }) => f.kind === 'cause').statement).toContain('2.15.0');
    expect(resolved).toMatchObject({ id: incidentId, integrationId, status: 'resolved' });
    expect(resolved.resolvedAt).toBe(micros(endsAt));
    const deliveries = await ctx.admin.get(`/api/v1/webhook-deliveries?integrationId=${integrationId}`);
    expect(deliveries.body.items.length).toBeGreaterThanOrEqual(2);
  });

  it("drafts the postmortem: the alert's firing and resolution in order, the root cause citing the investigation's runs, owners and deadlines left to people", async () => {
    const res = await ctx.admin.post(`/api/v1/incidents/${incidentId}/postmortem`);
    expect(res.status).toBe(201);
    const pm = res.body;
    const alertname = scenario.rule.alert;
    const runs = new Set(investigation.runs.map((r: { ordinal: number }) => r.ordinal));

    // Timeline: the alert fires, the investigation opens and concludes, the alert resolves, the incident resolves; in time order.
    const descriptions: string[] = pm.timeline.map((t: { description: string }) => t.description);
    const index = (pattern: RegExp) => descriptions.findIndex((d) => pattern.test(d));
    const firing = index(new RegExp(`^Alert ${alertname} .* fired: checkout is failing requests$`));
    const opened = index(/^Investigation opened/);
    const concluded = index(/^Investigation concluded \(verified cause\)/);
    const resolution = index(new RegExp(`^Alert ${alertname} .* resolved$`));
    const incidentResolved = index(/^Incident resolved/);
    expect(
      [firing, opened, concluded, resolution, incidentResolved].every((i) => i >= 0),
      descriptions.join('\n'),
    ).toBe(true);
    expect(firing).toBeLessThan(opened);
    expect(opened).toBeLessThan(concluded);
    expect(concluded).toBeLessThan(resolution);
    expect(resolution).toBeLessThan(incidentResolved);
    expect(pm.timeline[firing]).toMatchObject({ at: micros(alert.startsAt), source: { kind: 'alert_event' } });
    expect(pm.timeline[resolution]).toMatchObject({ at: micros(endsAt), source: { kind: 'alert_event' } });
    expect(pm.timeline[concluded].investigationId).toBe(investigation.id);
    const ats = pm.timeline.map((t: { at: string }) => Date.parse(t.at));
    expect(ats).toEqual([...ats].sort((a, b) => a - b));

    // Root cause: the investigation's cause finding, citing its runs and the investigation.
    const cause = investigation.findings.find((f: { kind: string }) => f.kind === 'cause');
    expect(pm.rootCauses[0]).toEqual({
      statement: `${cause.statement} Mechanism: ${cause.mechanism}`,
      runRefs: cause.runRefs,
      investigationId: investigation.id,
    });
    expect(pm.rootCauses[0].runRefs.length).toBeGreaterThan(0);
    expect(pm.rootCauses[0].runRefs.every((n: number) => runs.has(n))).toBe(true);

    // Detection: the first alert and its rule, and the onset the investigation dated, before the alert fired.
    const symptom = investigation.findings.find((f: { kind: string }) => f.kind === 'symptom');
    const onset = /began to hold at (\S+)$/.exec(symptom.statement)![1];
    expect(pm.detection).toContain(`The first alert was ${alertname}`);
    expect(pm.detection).toContain(`Rule: the alerting rule ${alertname} (${alert.generatorURL}).`);
    expect(pm.detection).toMatch(
      new RegExp(`The condition began at ${onset} \\[investigation ${investigation.id}, runs? #[^\\]]+\\]; the alert fired .+ after the onset\\.`),
    );
    expect(Date.parse(onset)).toBeLessThan(Date.parse(alert.startsAt));

    // What only people know: owners and deadlines of every action item, the resolution, what went well and wrong.
    expect(pm.actionItems.length).toBeGreaterThan(0);
    for (const item of pm.actionItems) {
      expect(item).toMatchObject({ owner: NEEDS, deadline: NEEDS, investigationId: investigation.id });
      expect(item.runRefs.every((n: number) => runs.has(n))).toBe(true);
    }
    expect(pm.resolution).toBe(NEEDS);
    expect(pm.whatWentWell).toEqual([NEEDS]);
    expect(pm.whatWentWrong).toEqual([NEEDS]);
    expect(pm.impact).toContain(`Customer impact beyond these data: ${NEEDS}`);

    const report = await ctx.admin.get(`/api/v1/incidents/${incidentId}/postmortem/report`);
    expect(report.status).toBe(200);
    expect(report.text).toContain(`[investigation ${investigation.id}, run`);
  });
});
