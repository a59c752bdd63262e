import { beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../support/api';
import { signedInMember, useBootstrappedApi } from '../support/factories';

const T0 = '2026-11-22T02:00:00.000000Z';
const UNKNOWN = '0190a000-0000-7000-8000-000000000000';

describe('replaying deliveries and merging incidents', () => {
  const ctx = useBootstrappedApi();
  let integration: { id: string; secret: string };
  const send = (body: unknown) =>
    new Client(ctx.api.baseUrl).request('POST', `/webhooks/v1/integrations/${integration.id}/alert-events`, {
      body,
      headers: { 'x-svc-token': integration.secret },
      origin: false,
    });
  const fire = (alertname: string, extra: Record<string, string> = {}) => send({ alerts: [{ labels: { alertname, service: 'svc', ...extra }, startsAt: T0 }] });

  beforeAll(async () => {
    const created = await ctx.admin.post('/api/v1/integrations', { type: 'generic', name: 'Replayable' });
    integration = { id: created.body.id, secret: created.body.webhookSecret };
  });

  it('replays a stored delivery as a new one: what was accepted is a duplicate, and the replay is audited', async () => {
    const original = await fire('ReplayMe');
    const replay = await ctx.admin.post(`/api/v1/webhook-deliveries/${original.body.deliveryId}/replay`);
    expect(replay.status).toBe(200);
    expect(replay.body).toMatchObject({
      replayOf: original.body.deliveryId,
      statusCode: 200,
      accepted: 0,
      duplicates: 1,
      incidentIds: original.body.incidentIds,
    });
    expect(replay.body.id).not.toBe(original.body.deliveryId);
    const audit = await ctx.admin.get(`/api/v1/audit-events?action=webhook_delivery.replay&targetId=${original.body.deliveryId}`);
    expect(audit.body.events[0].detail).toEqual({ replayDeliveryId: replay.body.id, statusCode: 200 });
  });

  it('a replay of a delivery whose alerts were never admitted admits them now', async () => {
    const original = await fire('Lost');
    // As if the alerts had been lost: the delivery stays, its alert events go.
    await ctx.api.dataSource.query('DELETE FROM alert_events WHERE delivery_id = $1', [original.body.deliveryId]);
    const replay = await ctx.admin.post(`/api/v1/webhook-deliveries/${original.body.deliveryId}/replay`);
    expect(replay.body).toMatchObject({ statusCode: 202, accepted: 1, duplicates: 0 });
  });

  it('refuses to replay what has no body, for non-Admins, and for unknown deliveries', async () => {
    const refused = await new Client(ctx.api.baseUrl).request('POST', `/webhooks/v1/integrations/${integration.id}/alert-events`, {
      rawBody: 'x',
      headers: { 'x-svc-token': integration.secret, 'content-type': 'text/plain' },
      origin: false,
    });
    expect(refused.status).toBe(415);
    const [unread] = (await ctx.admin.get(`/api/v1/webhook-deliveries?integrationId=${integration.id}`)).body.items.filter(
      (d: { statusCode: number }) => d.statusCode === 415,
    );
    expect((await ctx.admin.post(`/api/v1/webhook-deliveries/${unread.id}/replay`)).status).toBe(409);
    const { client: editor } = await signedInMember(ctx.api, 'acme', 'editor');
    const denied = await editor.post(`/api/v1/webhook-deliveries/${unread.id}/replay`);
    expect(denied.status).toBe(403);
    expect(denied.body.requires).toBe('webhook-deliveries:replay');
    expect((await ctx.admin.post('/api/v1/webhook-deliveries/0190a000-0000-7000-8000-000000000000/replay')).status).toBe(404);
  });

  it('merges incidents: alerts move to the target, the others are marked merged into it', async () => {
    const target = (await fire('MergeTarget')).body.incidentIds[0];
    const a = (await fire('MergeA')).body.incidentIds[0];
    const b = (await fire('MergeB')).body.incidentIds[0];
    const { client: editor } = await signedInMember(ctx.api, 'acme', 'editor');
    const res = await editor.post(`/api/v1/incidents/${target}/merge`, { incidentIds: [a, b] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: target, status: 'open', alertCount: 3 });
    for (const id of [a, b]) expect((await ctx.admin.get(`/api/v1/incidents/${id}`)).body).toMatchObject({ status: 'merged', mergedInto: target });
    const events = await ctx.admin.get(`/api/v1/incidents/${target}/alert-events`);
    expect(events.body.items.map((e: { labels: { alertname: string } }) => e.labels.alertname).sort()).toEqual(['MergeA', 'MergeB', 'MergeTarget']);
    expect((await editor.post(`/api/v1/incidents/${target}/merge`, { incidentIds: [a] })).status).toBe(409);
    expect((await editor.post(`/api/v1/incidents/${a}/merge`, { incidentIds: [target] })).status).toBe(409);
    const audit = await ctx.admin.get(`/api/v1/audit-events?action=incident.merge&targetId=${target}`);
    expect(audit.body.events[0].detail).toEqual({ merged: [a, b] });
  });

  it('refuses merging into itself, unknown or malformed ids, and by Viewers', async () => {
    const target = (await fire('Solo')).body.incidentIds[0];
    expect((await ctx.admin.post(`/api/v1/incidents/${target}/merge`, { incidentIds: [target] })).status).toBe(400);
    expect((await ctx.admin.post(`/api/v1/incidents/${target}/merge`, { incidentIds: [UNKNOWN] })).status).toBe(404);
    expect((await ctx.admin.post(`/api/v1/incidents/${target}/merge`, { incidentIds: [] })).status).toBe(400);
    expect((await ctx.admin.post(`/api/v1/incidents/${target}/merge`, { incidentIds: ['nope'] })).status).toBe(400);
    const { client: viewer } = await signedInMember(ctx.api, 'acme', 'viewer');
    expect((await viewer.post(`/api/v1/incidents/${target}/merge`, { incidentIds: [target] })).body.requires).toBe('incidents:merge');
  });

  it("another Organization's incidents are unknown to a merge: 404 as for an unknown id, nothing moves on either side", async () => {
    // An incident of Organization "foreign", made the way every incident is: by an alert.
    await ctx.admin.post('/api/v1/organizations', { id: 'foreign', displayName: 'F' });
    const inForeign = { headers: { 'x-svc-organization': 'foreign' } };
    const foreignHook = (await ctx.admin.post('/api/v1/integrations', { type: 'generic', name: 'Foreign' }, inForeign)).body;
    const foreignFire = await new Client(ctx.api.baseUrl).request('POST', `/webhooks/v1/integrations/${foreignHook.id}/alert-events`, {
      body: { alerts: [{ labels: { alertname: 'ForeignAlert', service: 'svc' }, startsAt: T0 }] },
      headers: { 'x-svc-token': foreignHook.webhookSecret },
      origin: false,
    });
    const foreignId: string = foreignFire.body.incidentIds[0];
    const target: string = (await fire('OwnTarget')).body.incidentIds[0];
    const own: string = (await fire('OwnOther')).body.incidentIds[0];
    const state = async () => ({
      target: (await ctx.admin.get(`/api/v1/incidents/${target}`)).body,
      targetAlerts: (await ctx.admin.get(`/api/v1/incidents/${target}/alert-events`)).body.items.map((e: { id: string }) => e.id),
      own: (await ctx.admin.get(`/api/v1/incidents/${own}`)).body,
      ownAlerts: (await ctx.admin.get(`/api/v1/incidents/${own}/alert-events`)).body.items.map((e: { id: string }) => e.id),
      foreign: (await ctx.admin.get(`/api/v1/incidents/${foreignId}`, inForeign)).body,
      foreignAlerts: (await ctx.admin.get(`/api/v1/incidents/${foreignId}/alert-events`, inForeign)).body.items.map((e: { id: string }) => e.id),
    });
    const before = await state();
    expect(before.foreign).toMatchObject({ id: foreignId, status: 'open', alertCount: 1 });
    const asUnknown = (res: { status: number; body: Record<string, unknown> }, id: string) => ({
      status: res.status,
      error: String(res.body.error).replaceAll(id, '<id>'),
    });
    const unknown = asUnknown(await ctx.admin.post(`/api/v1/incidents/${target}/merge`, { incidentIds: [UNKNOWN] }), UNKNOWN);
    expect(unknown.status).toBe(404);

    // A foreign id alone, a mix of own and foreign ids, and a foreign target: each exactly like an unknown id.
    expect(asUnknown(await ctx.admin.post(`/api/v1/incidents/${target}/merge`, { incidentIds: [foreignId] }), foreignId)).toEqual(unknown);
    expect(asUnknown(await ctx.admin.post(`/api/v1/incidents/${target}/merge`, { incidentIds: [own, foreignId] }), foreignId)).toEqual(unknown);
    expect(asUnknown(await ctx.admin.post(`/api/v1/incidents/${target}/merge`, { incidentIds: [foreignId, own] }), foreignId)).toEqual(unknown);
    expect((await ctx.admin.post(`/api/v1/incidents/${foreignId}/merge`, { incidentIds: [own] })).status).toBe(404);
    // From the foreign side, acme's incidents are as unknown.
    expect((await ctx.admin.post(`/api/v1/incidents/${foreignId}/merge`, { incidentIds: [own] }, inForeign)).status).toBe(404);

    expect(await state()).toEqual(before);
    expect(before.own).toMatchObject({ status: 'open', mergedInto: null });
    expect((await ctx.admin.get(`/api/v1/audit-events?action=incident.merge&targetId=${target}`)).body.events).toEqual([]);
    expect((await ctx.admin.get(`/api/v1/audit-events?action=incident.merge&targetId=${foreignId}`, inForeign)).body.events).toEqual([]);
  });

  it('a resolved target reopens when merged alerts still fire', async () => {
    const resolvedTarget = (await send({ alerts: [{ status: 'firing', labels: { alertname: 'WasResolved', service: 'svc' }, startsAt: T0 }] })).body
      .incidentIds[0];
    await send({ alerts: [{ status: 'resolved', labels: { alertname: 'WasResolved', service: 'svc' }, startsAt: T0, endsAt: '2026-11-22T02:05:00Z' }] });
    expect((await ctx.admin.get(`/api/v1/incidents/${resolvedTarget}`)).body.status).toBe('resolved');
    const firing = (await fire('StillFiring')).body.incidentIds[0];
    const merged = await ctx.admin.post(`/api/v1/incidents/${resolvedTarget}/merge`, { incidentIds: [firing] });
    expect(merged.body).toMatchObject({ status: 'open', resolvedAt: null });
  });
});
