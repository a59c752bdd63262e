import { describe, expect, it } from 'vitest';
import { Client } from '../support/api';
import { useBootstrappedApi } from '../support/factories';

/**
 * Alert webhooks are answered ahead of Nest's router (a lean route). The pipeline's rules still
 * hold for them: request id, no-store, the Error body, metrics by route template; and what is not
 * an exact match falls through to Nest's route of the same path.
 */
describe('the webhook lean route', () => {
  const ctx = useBootstrappedApi();

  it('keeps the request id, no-store, Error body and metrics of the pipeline', async () => {
    const created = await ctx.admin.post('/api/v1/integrations', { type: 'generic', name: 'Lean' });
    const path = `/webhooks/v1/integrations/${created.body.id}/alert-events`;
    const sender = new Client(ctx.api.baseUrl);
    const body = { alerts: [{ labels: { alertname: 'Lean', service: 'api' } }] };

    const wrong = await sender.request('POST', path, { body, headers: { 'x-svc-token': 'wrong', 'x-request-id': 'lean-1' }, origin: false });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ error: 'Unknown integration or wrong webhook credential', reason: 'credential_rejected' });
    expect(wrong.headers.get('x-request-id')).toBe('lean-1');
    expect(wrong.headers.get('cache-control')).toBe('no-store');
    expect(wrong.headers.get('content-type')).toContain('application/json');
    expect(wrong.headers.get('x-content-type-options')).toBe('nosniff');

    const ok = await sender.request('POST', path, { body, headers: { 'x-svc-token': created.body.webhookSecret }, origin: false });
    expect(ok.status).toBe(202);
    expect(ok.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(ok.headers.get('cache-control')).toBe('no-store');

    const form = await sender.request('POST', path, {
      rawBody: 'a=1',
      headers: { 'x-svc-token': created.body.webhookSecret, 'content-type': 'application/x-www-form-urlencoded' },
      origin: false,
    });
    expect(form.status).toBe(415);

    // A query string is not the lean route's: Nest's route refuses it like any unknown query parameter.
    const query = await sender.request('POST', `${path}?debug=1`, { body, headers: { 'x-svc-token': created.body.webhookSecret }, origin: false });
    expect(query.status).toBe(400);
    expect(query.body).toEqual({ error: 'Unknown query parameter: debug' });

    const metrics = (await sender.get('/metrics')).text;
    for (const status of [401, 202, 415]) {
      expect(metrics).toMatch(
        new RegExp(`http_requests_total\\{method="POST",route="/webhooks/v1/integrations/:integration/alert-events",status="${status}"\\} 1\\b`),
      );
    }
  });
});
