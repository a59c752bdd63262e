import { beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../support/api';
import { useBootstrappedApi } from '../support/factories';

/**
 * Poison messages on /webhooks/v1 (decisions §4, §8). Senders do not retry 4xx and retry 5xx
 * forever, so a body that can never be admitted is 400 and recorded, and what can be repaired in
 * label and annotation values is repaired (U+FFFD, truncation with the marker) and recorded.
 */
describe('webhook input hygiene', () => {
  const ctx = useBootstrappedApi();
  let sender: Client;
  let integration: { id: string; secret: string };

  beforeAll(async () => {
    const created = await ctx.admin.post('/api/v1/integrations', { type: 'generic', name: 'Hygiene' });
    integration = { id: created.body.id, secret: created.body.webhookSecret };
    sender = new Client(ctx.api.baseUrl);
  });

  function send(rawBody: string | Buffer) {
    return sender.request('POST', `/webhooks/v1/integrations/${integration.id}/alert-events`, {
      rawBody,
      headers: { 'x-svc-token': integration.secret, 'content-type': 'application/json' },
      origin: false,
    });
  }

  async function latestDelivery() {
    const list = await ctx.admin.get(`/api/v1/webhook-deliveries?integrationId=${integration.id}&limit=1`);
    return (await ctx.admin.get(`/api/v1/webhook-deliveries/${list.body.items[0].id}`)).body;
  }

  it('answers 400 to a raw NUL byte and records the delivery', async () => {
    const res = await send(Buffer.from('{"alerts":[{"labels":{"alertname":"a\u0000b"}}]}', 'utf8'));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Malformed JSON body: a raw NUL character' });
    const delivery = await latestDelivery();
    expect(delivery).toMatchObject({ statusCode: 400, accepted: 0, error: 'Malformed JSON body: a raw NUL character' });
    expect(delivery.body).toContain('a\ufffdb');
  });

  it('answers 400 to a body that is not UTF-8 and records the delivery', async () => {
    const res = await send(Buffer.concat([Buffer.from('{"alerts":[{"labels":{"alertname":"'), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from('"}}]}')]));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Malformed body: not valid UTF-8' });
    expect(await latestDelivery()).toMatchObject({ statusCode: 400, accepted: 0, error: 'Malformed body: not valid UTF-8' });
  });

  it('answers 400 to a body nested deeper than 64 levels and records it', async () => {
    const res = await send(`{"alerts":[{"labels":{"alertname":"Deep"},"extra":${'['.repeat(2000)}${']'.repeat(2000)}}]}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/nested deeper than 64 levels/);
    expect(await latestDelivery()).toMatchObject({ statusCode: 400 });
  });

  it('replaces NUL and lone surrogates in label and annotation values, keeps the alert and records the repair', async () => {
    const res = await send('{"alerts":[{"labels":{"alertname":"Nul","service":"a\\u0000b"},"annotations":{"summary":"half \\ud800 pair"}}]}');
    expect(res.status).toBe(202);
    expect(res.body.accepted).toBe(1);
    const [event] = (await ctx.api.dataSource.query('SELECT labels, annotations FROM alert_events WHERE delivery_id = $1', [res.body.deliveryId])) as {
      labels: Record<string, string>;
      annotations: Record<string, string>;
    }[];
    expect(event.labels.service).toBe('a\ufffdb');
    expect(event.annotations.summary).toBe('half \ufffd pair');
    const delivery = await ctx.admin.get(`/api/v1/webhook-deliveries/${res.body.deliveryId}`);
    expect(delivery.body).toMatchObject({ statusCode: 202, accepted: 1 });
    expect(delivery.body.error).toContain('alerts[0].labels.service: NUL or lone surrogates replaced by U+FFFD');
    expect(delivery.body.error).toContain('alerts[0].annotations.summary: NUL or lone surrogates replaced by U+FFFD');
  });

  it('truncates an over-long annotation with the marker instead of refusing the delivery', async () => {
    const long = 'x'.repeat(40_000);
    const res = await send(JSON.stringify({ alerts: [{ labels: { alertname: 'Long', service: 'api' }, annotations: { description: long } }] }));
    expect(res.status).toBe(202);
    const [event] = (await ctx.api.dataSource.query('SELECT annotations FROM alert_events WHERE delivery_id = $1', [res.body.deliveryId])) as {
      annotations: Record<string, string>;
    }[];
    expect(event.annotations.description).toHaveLength(32768);
    expect(event.annotations.description.endsWith('x…[truncated]')).toBe(true);
    const delivery = await ctx.admin.get(`/api/v1/webhook-deliveries/${res.body.deliveryId}`);
    expect(delivery.body.error).toContain('alerts[0].annotations.description: truncated from 40000 to 32768 characters');
  });
});
