import { beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../support/api';
import { signedInMember, useBootstrappedApi } from '../support/factories';
import { untilWaitingForLock } from '../support/lock-waits';

interface Alert {
  status: 'firing' | 'resolved';
  labels: Record<string, string>;
  startsAt: string;
  endsAt?: string;
  fingerprint?: string;
  annotations?: Record<string, string>;
}

const T0 = '2026-11-22T02:00:00.000000Z';
const T1 = '2026-11-22T02:10:00.000000Z';

function alertmanager(groupKey: string, alerts: Alert[]) {
  return {
    version: '4',
    groupKey,
    truncatedAlerts: 0,
    status: alerts.some((a) => a.status === 'firing') ? 'firing' : 'resolved',
    receiver: 'svc',
    groupLabels: { alertname: 'HighErrorRate' },
    commonLabels: {},
    commonAnnotations: {},
    externalURL: 'http://alertmanager.example:9093',
    alerts: alerts.map((a) => ({ annotations: {}, endsAt: '0001-01-01T00:00:00Z', generatorURL: 'http://prometheus.example:9090/graph', ...a })),
  };
}

describe('alert webhook admission', () => {
  const ctx = useBootstrappedApi();
  let sender: Client;
  let generic: { id: string; secret: string };
  let am: { id: string; secret: string };

  const post = (integration: { id: string; secret: string }, body: unknown, headers: Record<string, string> = {}) =>
    sender.request('POST', `/webhooks/v1/integrations/${integration.id}/alert-events`, {
      body,
      headers: { 'x-svc-token': integration.secret, ...headers },
      origin: false,
    });

  /**
   * `post` for bursts: a 503 (the service under pressure, here a database connection not free
   * within its wait; decisions §8) is an answer a sender must expect and re-send, as Alertmanager
   * does. A 503 admitted nothing, so the re-sent delivery is judged as if it were the first.
   */
  const postAdmitted = async (integration: { id: string; secret: string }, body: unknown) => {
    for (let attempt = 1; ; attempt++) {
      const res = await post(integration, body);
      if (res.status !== 503 || attempt === 10) return res;
    }
  };

  beforeAll(async () => {
    sender = new Client(ctx.api.baseUrl);
    const g = await ctx.admin.post('/api/v1/integrations', { type: 'generic', name: 'Generic' });
    generic = { id: g.body.id, secret: g.body.webhookSecret };
    const a = await ctx.admin.post('/api/v1/integrations', { type: 'alertmanager', name: 'Alertmanager' });
    am = { id: a.body.id, secret: a.body.webhookSecret };
  });

  it('every credential failure is the same 401, for unknown, disabled and wrong alike', async () => {
    const body = { alerts: [{ labels: { alertname: 'X' } }] };
    const disabled = await ctx.admin.post('/api/v1/integrations', { type: 'generic', name: 'Off' });
    await ctx.admin.post(`/api/v1/integrations/${disabled.body.id}/disable`);
    const answers = [
      await post({ id: generic.id, secret: 'whsec_wrong' }, body),
      await post({ id: generic.id, secret: '' }, body),
      await post({ id: '0190a000-0000-7000-8000-000000000000', secret: generic.secret }, body),
      await post({ id: 'not-a-uuid', secret: generic.secret }, body),
      await post({ id: disabled.body.id, secret: disabled.body.webhookSecret }, body),
    ];
    for (const res of answers) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: 'Unknown integration or wrong webhook credential', reason: 'credential_rejected' });
    }
  });

  it('accepts X-Svc-Token or Authorization: Bearer, answering 202 once committed and grouped', async () => {
    const res = await post(generic, { alerts: [{ labels: { alertname: 'DiskFull', service: 'db' }, annotations: { summary: 'Disk is full' }, startsAt: T0 }] });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ deliveryId: expect.any(String), accepted: 1, duplicates: 0, incidentIds: [expect.any(String)] });
    const incident = await ctx.admin.get(`/api/v1/incidents/${res.body.incidentIds[0]}`);
    expect(incident.body).toMatchObject({
      status: 'open',
      title: 'Disk is full',
      integrationId: generic.id,
      labels: { alertname: 'DiskFull', service: 'db' },
      openedAt: T0,
      alertCount: 1,
    });
    const bearer = await sender.request('POST', `/webhooks/v1/integrations/${generic.id}/alert-events`, {
      body: { alerts: [{ labels: { alertname: 'DiskFull', service: 'db', host: 'b' }, startsAt: T0 }] },
      headers: { authorization: `Bearer ${generic.secret}` },
      origin: false,
    });
    expect(bearer.status).toBe(202);
    expect(bearer.body.incidentIds).toEqual(res.body.incidentIds);
  });

  it('an exact retry of accepted phases is 200 with the same shape and no duplicate event', async () => {
    const body = { alerts: [{ labels: { alertname: 'Retry', service: 'api' }, startsAt: T0 }] };
    const first = await post(generic, body);
    const retry = await post(generic, body);
    expect(first.status).toBe(202);
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual({ deliveryId: expect.any(String), accepted: 0, duplicates: 1, incidentIds: first.body.incidentIds });
    const events = await ctx.admin.get(`/api/v1/incidents/${first.body.incidentIds[0]}/alert-events`);
    expect(events.body.items).toHaveLength(1);
  });

  it('groups an Alertmanager group into one incident and resolves it when every alert resolves', async () => {
    const key = '{}:{alertname="HighErrorRate"}';
    const a = { labels: { alertname: 'HighErrorRate', pod: 'a' }, fingerprint: 'aaaa' };
    const b = { labels: { alertname: 'HighErrorRate', pod: 'b' }, fingerprint: 'bbbb' };
    const firing = await post(
      am,
      alertmanager(key, [
        { ...a, status: 'firing', startsAt: T0 },
        { ...b, status: 'firing', startsAt: T0 },
      ]),
    );
    expect(firing.status).toBe(202);
    expect(firing.body.accepted).toBe(2);
    const id = firing.body.incidentIds[0];
    expect(firing.body.incidentIds).toEqual([id]);
    expect((await ctx.admin.get(`/api/v1/incidents/${id}`)).body).toMatchObject({ status: 'open', alertCount: 2, groupKey: key });

    await post(
      am,
      alertmanager(key, [
        { ...a, status: 'resolved', startsAt: T0, endsAt: T1 },
        { ...b, status: 'firing', startsAt: T0 },
      ]),
    );
    expect((await ctx.admin.get(`/api/v1/incidents/${id}`)).body.status).toBe('open');

    const resolved = await post(
      am,
      alertmanager(key, [
        { ...a, status: 'resolved', startsAt: T0, endsAt: T1 },
        { ...b, status: 'resolved', startsAt: T0, endsAt: T1 },
      ]),
    );
    expect(resolved.body).toMatchObject({ accepted: 1, duplicates: 1, incidentIds: [id] });
    expect((await ctx.admin.get(`/api/v1/incidents/${id}`)).body).toMatchObject({ status: 'resolved', resolvedAt: T1 });

    const again = await post(am, alertmanager(key, [{ ...a, status: 'firing', startsAt: '2026-11-22T03:00:00Z' }]));
    expect(again.status).toBe(202);
    expect(again.body.incidentIds[0]).not.toBe(id);
    expect((await ctx.admin.get(`/api/v1/incidents/${again.body.incidentIds[0]}`)).body.status).toBe('open');
  });

  it('concurrent deliveries for one group never open two incidents', async () => {
    const results = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        postAdmitted(generic, { alerts: [{ labels: { alertname: 'Storm', service: 'edge', instance: `i-${i}` }, startsAt: T0 }] }),
      ),
    );
    expect(results.every((r) => r.status === 202)).toBe(true);
    expect(new Set(results.map((r) => r.body.incidentIds[0])).size).toBe(1);
    const incident = await ctx.admin.get(`/api/v1/incidents/${results[0].body.incidentIds[0]}`);
    expect(incident.body.alertCount).toBe(24);
    const open = await ctx.api.dataSource.query(
      `SELECT count(*)::int AS n FROM incidents WHERE group_key = '{alertname="Storm",service="edge"}' AND status = 'open'`,
    );
    expect(open[0].n).toBe(1);
  });

  it('deliveries admitted together keep their own outcomes, across groups and Organizations', async () => {
    await ctx.admin.post('/api/v1/organizations', { id: 'batch-other', displayName: 'Other' });
    const foreignIntegration = await ctx.admin.post(
      '/api/v1/integrations',
      { type: 'generic', name: 'Foreign' },
      { headers: { 'x-svc-organization': 'batch-other' } },
    );
    const foreign = { id: foreignIntegration.body.id, secret: foreignIntegration.body.webhookSecret };
    const alert = (name: string, status: 'firing' | 'resolved', extra: Partial<Alert> = {}) => ({
      alerts: [
        { status, labels: { alertname: 'Batch', service: 'pay', instance: name }, startsAt: T0, ...(status === 'resolved' ? { endsAt: T1 } : {}), ...extra },
      ],
    });
    // `keep` stays firing throughout, so the incident stays open whatever order the burst lands in.
    const opened = await postAdmitted(generic, { alerts: ['a', 'b', 'keep'].map((name) => alert(name, 'firing').alerts[0]) });
    const incidentId = opened.body.incidentIds[0];

    const burst = [
      postAdmitted(generic, alert('a', 'resolved')),
      postAdmitted(generic, alert('b', 'resolved')),
      postAdmitted(generic, alert('a', 'firing')), // an exact retry: 200
      postAdmitted(generic, alert('c', 'firing')),
      postAdmitted(generic, alert('c', 'firing')), // the same phase twice in flight: one 202, one 200
      ...Array.from({ length: 12 }, (_, i) => postAdmitted(generic, { alerts: [{ labels: { alertname: 'Spread', service: `s-${i}` }, startsAt: T0 }] })),
      ...Array.from({ length: 6 }, (_, i) =>
        postAdmitted(foreign, { alerts: [{ labels: { alertname: 'Batch', service: 'pay', instance: `f-${i}` }, startsAt: T0 }] }),
      ),
    ];
    const answers = await Promise.all(burst);
    expect(
      answers
        .map((r) => r.status)
        .slice(0, 5)
        .filter((s) => s === 202),
    ).toHaveLength(3);
    expect(answers[2]).toMatchObject({ status: 200, body: { accepted: 0, duplicates: 1, incidentIds: [incidentId] } });
    expect([answers[3].status, answers[4].status].sort()).toEqual([200, 202]);
    expect(answers.slice(0, 5).every((r) => r.body.incidentIds[0] === incidentId)).toBe(true);
    expect(answers.slice(5).map((r) => [r.status, r.body.accepted])).toEqual(answers.slice(5).map(() => [202, 1]));
    expect(new Set(answers.slice(5, 17).map((r) => r.body.incidentIds[0])).size).toBe(12);
    const foreignIncidents = new Set(answers.slice(17).map((r) => r.body.incidentIds[0]));
    expect(foreignIncidents.size).toBe(1);
    expect(foreignIncidents.has(incidentId)).toBe(false);

    // a, b resolved, c and keep firing.
    expect((await ctx.admin.get(`/api/v1/incidents/${incidentId}`)).body).toMatchObject({ status: 'open', alertCount: 4 });
    const db = ctx.api.dataSource;
    const [state] = await db.query('SELECT firing_count FROM incidents WHERE id = $1', [incidentId]);
    expect(state.firing_count).toBe(2);
    const foreignIncident = await ctx.admin.get(`/api/v1/incidents/${[...foreignIncidents][0]}`, { headers: { 'x-svc-organization': 'batch-other' } });
    expect(foreignIncident.body).toMatchObject({ status: 'open', alertCount: 6, integrationId: foreign.id });
    expect((await ctx.admin.get(`/api/v1/incidents/${[...foreignIncidents][0]}`)).status).toBe(404);

    // Every answer is its delivery's record; several were committed in one transaction.
    const ids = answers.map((r) => r.body.deliveryId);
    const rows = (await db.query('SELECT id, status_code, accepted, duplicates, xmin::text AS tx FROM webhook_deliveries WHERE id = ANY($1)', [ids])) as {
      id: string;
      status_code: number;
      accepted: number;
      duplicates: number;
      tx: string;
    }[];
    expect(rows).toHaveLength(answers.length);
    for (const answer of answers) {
      expect(rows.find((r) => r.id === answer.body.deliveryId)).toMatchObject({
        status_code: answer.status,
        accepted: answer.body.accepted,
        duplicates: answer.body.duplicates,
      });
    }
    expect(new Set(rows.map((r) => r.tx)).size).toBeLessThan(rows.length);
    const [{ n }] = await db.query('SELECT count(*)::int AS n FROM alert_events WHERE delivery_id = ANY($1)', [ids]);
    expect(n).toBe(answers.reduce((sum, r) => sum + r.body.accepted, 0));
  });

  it('a late resolution admitted alongside others goes to the incident that saw its alert', async () => {
    const fired = await postAdmitted(generic, { alerts: [{ labels: { alertname: 'Late', service: 'q' }, startsAt: T0 }] });
    const resolved = await postAdmitted(generic, { alerts: [{ status: 'resolved', labels: { alertname: 'Late', service: 'q' }, startsAt: T0, endsAt: T1 }] });
    const incidentId = fired.body.incidentIds[0];
    expect(resolved.body.incidentIds).toEqual([incidentId]);
    expect((await ctx.admin.get(`/api/v1/incidents/${incidentId}`)).body.status).toBe('resolved');

    const answers = await Promise.all([
      // Resolved again later (a sender's late repeat): the resolved incident takes it, nothing new opens.
      postAdmitted(generic, { alerts: [{ status: 'resolved', labels: { alertname: 'Late', service: 'q' }, startsAt: T0, endsAt: '2026-11-22T02:20:00Z' }] }),
      // Never seen firing: a new incident, resolved at once.
      postAdmitted(generic, { alerts: [{ status: 'resolved', labels: { alertname: 'Ghost', service: 'q' }, startsAt: T0, endsAt: T1 }] }),
      ...Array.from({ length: 10 }, (_, i) => postAdmitted(generic, { alerts: [{ labels: { alertname: 'Alongside', service: `q-${i}` }, startsAt: T0 }] })),
    ]);
    expect(answers.every((r) => r.status === 202 && r.body.accepted === 1)).toBe(true);
    expect(answers[0].body.incidentIds).toEqual([incidentId]);
    const ghost = await ctx.admin.get(`/api/v1/incidents/${answers[1].body.incidentIds[0]}`);
    expect(ghost.body).toMatchObject({ status: 'resolved', alertCount: 1, title: 'Ghost (q)' });
    expect((await ctx.admin.get(`/api/v1/incidents/${incidentId}`)).body).toMatchObject({ status: 'resolved', alertCount: 1 });
    for (const r of answers.slice(2)) expect((await ctx.admin.get(`/api/v1/incidents/${r.body.incidentIds[0]}`)).body.status).toBe('open');
  });

  it('a delivery admitted one by one, waiting for a lock, does not hold up the deliveries after it', async () => {
    const first = await postAdmitted(generic, { alerts: [{ labels: { alertname: 'HeldUp', service: 'held' }, startsAt: T0 }] });
    expect(first.status).toBe(202);
    const holder = ctx.api.dataSource.createQueryRunner();
    await holder.connect();
    try {
      await holder.startTransaction();
      await holder.query('SELECT 1 FROM incidents WHERE id = $1 FOR UPDATE', [first.body.incidentIds[0]]);
      // A resolution nothing saw firing sends its batch one by one; its other alert then waits for the held incident.
      const waiting = post(generic, {
        alerts: [
          { status: 'resolved', labels: { alertname: 'HeldUp', service: 'aaa-never-seen' }, startsAt: T0, endsAt: T1 },
          { labels: { alertname: 'HeldUp', service: 'held', replica: '2' }, startsAt: T0 },
        ],
      });
      await untilWaitingForLock(ctx.api.dataSource);
      const later = await post(generic, { alerts: [{ labels: { alertname: 'HeldUp', service: 'later' }, startsAt: T0 }] });
      expect(later.status).toBe(202);
      await holder.commitTransaction();
      const held = await waiting;
      expect(held.status).toBe(202);
      expect(held.body.incidentIds).toContain(first.body.incidentIds[0]);
    } finally {
      if (holder.isTransactionActive) await holder.rollbackTransaction();
      await holder.release();
    }
  });

  it('refuses non-JSON with 415, malformed JSON and invalid payloads with a useful 400, and records them', async () => {
    const form = await sender.request('POST', `/webhooks/v1/integrations/${generic.id}/alert-events`, {
      rawBody: 'a=b',
      headers: { 'x-svc-token': generic.secret, 'content-type': 'application/x-www-form-urlencoded' },
      origin: false,
    });
    expect(form.status).toBe(415);
    const malformed = await sender.request('POST', `/webhooks/v1/integrations/${generic.id}/alert-events`, {
      rawBody: '{"alerts": [',
      headers: { 'x-svc-token': generic.secret, 'content-type': 'application/json' },
      origin: false,
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({ error: 'Malformed JSON body' });
    const invalid = await post(am, { version: '3', alerts: [] });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error).toMatch(/version/);
    // Each refusal is a delivery record of its own.
    for (const [res, integration] of [
      [form, generic],
      [malformed, generic],
      [invalid, am],
    ] as const) {
      const recorded = (await ctx.admin.get(`/api/v1/webhook-deliveries?integrationId=${integration.id}&limit=200`)).body.items;
      expect(recorded.some((d: { id: string; statusCode: number }) => d.statusCode === res.status)).toBe(true);
    }
  });

  it('refuses a body over 1 MiB with 413 before reading it', async () => {
    const big = JSON.stringify({ alerts: [{ labels: { alertname: 'Big' }, annotations: { x: 'y'.repeat(1024 * 1024) } }] });
    const res = await sender.request('POST', `/webhooks/v1/integrations/${generic.id}/alert-events`, {
      rawBody: big,
      headers: { 'x-svc-token': generic.secret, 'content-type': 'application/json' },
      origin: false,
    });
    expect(res.status).toBe(413);
    const unauthenticated = await sender.request('POST', `/webhooks/v1/integrations/${generic.id}/alert-events`, {
      rawBody: big,
      headers: { 'content-type': 'application/json' },
      origin: false,
    });
    expect(unauthenticated.status).toBe(401);
  });

  it('records each delivery with its headers minus credentials and its body', async () => {
    const res = await post(generic, { alerts: [{ labels: { alertname: 'Recorded', service: 's' }, startsAt: T0 }] }, { 'x-sender': 'test-suite' });
    const delivery = await ctx.admin.get(`/api/v1/webhook-deliveries/${res.body.deliveryId}`);
    expect(delivery.status).toBe(200);
    expect(delivery.body).toMatchObject({
      id: res.body.deliveryId,
      integrationId: generic.id,
      statusCode: 202,
      accepted: 1,
      duplicates: 0,
      incidentIds: res.body.incidentIds,
    });
    expect(delivery.body.headers['x-sender']).toBe('test-suite');
    expect(delivery.body.headers['x-svc-token']).toBeUndefined();
    expect(JSON.stringify(delivery.body)).not.toContain(generic.secret);
    expect(JSON.parse(delivery.body.body).alerts[0].labels.alertname).toBe('Recorded');
  });

  it('incidents and deliveries are tenant-scoped and readable by Viewers, through both addressing forms', async () => {
    expect((await post(generic, { alerts: [{ labels: { alertname: 'Scoped', service: 'viewer' }, startsAt: T0 }] })).status).toBe(202);
    const { client: viewer } = await signedInMember(ctx.api, 'acme', 'viewer');
    const list = await viewer.get('/api/v1/incidents?status=open&limit=200');
    expect(list.status).toBe(200);
    expect(list.body.items.length).toBeGreaterThan(0);
    expect(list.body.items.every((i: { status: string }) => i.status === 'open')).toBe(true);
    expect((await viewer.get('/api/v1/organizations/acme/incidents')).body.items.length).toBeGreaterThan(0);
    await ctx.admin.post('/api/v1/organizations', { id: 'elsewhere', displayName: 'Elsewhere' });
    const headers = { 'x-svc-organization': 'elsewhere' };
    expect((await ctx.admin.get('/api/v1/incidents', { headers })).body.items).toEqual([]);
    expect((await ctx.admin.get(`/api/v1/incidents/${list.body.items[0].id}`, { headers })).status).toBe(404);
    expect((await ctx.admin.get('/api/v1/webhook-deliveries', { headers })).body.items).toEqual([]);
  });
});
