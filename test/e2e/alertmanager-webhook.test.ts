import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useBootstrappedApi } from '../support/factories';
import { MonitoringProcess } from '../support/monitoring-stack';
import { until } from '../support/until';

/** A real Prometheus Alertmanager delivers to the service with http_config.authorization (Bearer). */
describe('a real Alertmanager sending to the service', () => {
  const ctx = useBootstrappedApi();
  let alertmanager: MonitoringProcess;
  let integrationId: string;

  beforeAll(async () => {
    const created = await ctx.admin.post('/api/v1/integrations', { type: 'alertmanager', name: 'Real Alertmanager' });
    integrationId = created.body.id;
    const url = `${ctx.api.baseUrl}/webhooks/v1/integrations/${integrationId}/alert-events`;
    alertmanager = await MonitoringProcess.alertmanager(MonitoringProcess.webhookConfig(url, created.body.webhookSecret, ['alertname', 'service']));
  }, 60_000);
  afterAll(() => alertmanager?.stop());

  const push = (alerts: unknown[]) =>
    fetch(`${alertmanager.url}/api/v2/alerts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(alerts) });

  it('alerts pushed into Alertmanager become one incident here, and their resolution resolves it', async () => {
    const startsAt = new Date(Date.now() - 60_000).toISOString();
    const alerts = ['pod-a', 'pod-b'].map((pod) => ({
      labels: { alertname: 'CheckoutErrors', service: 'checkout', pod, severity: 'page' },
      annotations: { summary: 'Checkout error rate above 5%' },
      startsAt,
      generatorURL: 'http://prometheus.example:9090/graph?g0.expr=rate(errors_total[5m])',
    }));
    expect((await push(alerts)).status).toBe(200);

    const incident = await until(async () => {
      const res = await ctx.admin.get('/api/v1/incidents?status=open');
      const found = res.body.items.find((i: { integrationId: string; alertCount: number }) => i.integrationId === integrationId && i.alertCount === 2);
      return found as { id: string; title: string; groupKey: string } | undefined;
    });
    expect(incident.title).toBe('Checkout error rate above 5%');
    expect(incident.groupKey).toContain('alertname="CheckoutErrors"');
    const events = await ctx.admin.get(`/api/v1/incidents/${incident.id}/alert-events`);
    expect(events.body.items).toHaveLength(2);
    expect(events.body.items[0]).toMatchObject({
      status: 'firing',
      fingerprint: expect.stringMatching(/^[0-9a-f]{16}$/),
      generatorUrl: expect.stringContaining('prometheus.example'),
    });
    const deliveries = await ctx.admin.get(`/api/v1/webhook-deliveries?integrationId=${integrationId}`);
    const first = await ctx.admin.get(`/api/v1/webhook-deliveries/${deliveries.body.items.at(-1).id}`);
    expect(first.body.headers['user-agent']).toMatch(/Alertmanager/);
    expect(first.body.headers.authorization).toBeUndefined();

    const endsAt = new Date().toISOString();
    expect((await push(alerts.map((a) => ({ ...a, endsAt })))).status).toBe(200);
    const resolved = await until(async () => {
      const res = await ctx.admin.get(`/api/v1/incidents/${incident.id}`);
      return res.body.status === 'resolved' ? res.body : undefined;
    });
    expect(resolved.resolvedAt).toMatch(/Z$/);
  }, 60_000);
});
