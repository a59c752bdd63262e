import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, startApi, TestApi } from '../support/api';
import { ADMIN, bootstrap, signedInMember, signInAdmin } from '../support/factories';
import { until } from '../support/until';

interface Event {
  id: string;
  occurredAt: string;
  actorKind: string;
  actorId: string | null;
  actorName: string | null;
  action: string;
  targetKind: string | null;
  targetId: string | null;
  outcome: string;
  sourceAddress: string | null;
  requestId: string | null;
  detail: Record<string, unknown>;
}

describe('audit trail', () => {
  let api: TestApi;
  let admin: Client;
  let adminId: string;
  let viewer: Client;

  beforeAll(async () => {
    api = await startApi();
    const boot = await bootstrap(api);
    admin = boot.admin;
    adminId = boot.user.id;
    await new Client(api.baseUrl).post('/api/v1/auth/local/sign-in', { email: ADMIN.email, password: 'wrong password entirely' });
    await new Client(api.baseUrl).post('/api/v1/auth/local/sign-in', { email: 'ghost@example.com', password: 'wrong password entirely' });
    // A failed sign-in is recorded just after its answer.
    await until(
      async () => (await admin.get('/api/v1/audit-events?action=session.sign_in&outcome=failed')).body.events.length === 1,
      10_000,
      'the failed sign-in audited',
    );
    await admin.post('/api/v1/organizations', { id: 'acme-eu', displayName: 'Acme EU' });
    await admin.post('/api/v1/organizations', { id: 'acme-eu', displayName: 'Taken' });
    ({ client: viewer } = await signedInMember(api, 'acme', 'viewer'));
    await viewer.post('/api/v1/organizations', { id: 'by-viewer', displayName: 'x' });
    const leaving = await signInAdmin(api);
    await leaving.delete('/api/v1/session');
  });
  afterAll(() => api?.close());

  async function allEvents(client: Client, query = ''): Promise<Event[]> {
    const res = await client.get(`/api/v1/audit-events${query}`);
    expect(res.status).toBe(200);
    return res.body.events;
  }

  it("records bootstrap, sign-ins, failures, sign-out, creation and denials with the contract's fields", async () => {
    const events = await allEvents(admin, '?limit=200');
    const actions = events.map((e) => `${e.action}:${e.outcome}`);
    expect(actions).toEqual(
      expect.arrayContaining([
        'deployment.bootstrap:allowed',
        'session.sign_in:allowed',
        'session.sign_in:failed',
        'session.sign_out:allowed',
        'access.denied:denied',
      ]),
    );
    const bootstrapEvent = events.find((e) => e.action === 'deployment.bootstrap')!;
    expect(bootstrapEvent).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      occurredAt: expect.stringMatching(/\.\d{6}Z$/),
      actorKind: 'user',
      actorId: adminId,
      actorName: ADMIN.name,
      action: 'deployment.bootstrap',
      targetKind: 'organization',
      targetId: 'acme',
      outcome: 'allowed',
      sourceAddress: expect.stringContaining('127.0.0.1'),
      requestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      detail: expect.objectContaining({ email: ADMIN.email }),
    });
    const denied = events.find((e) => e.action === 'access.denied')!;
    expect(denied).toMatchObject({
      outcome: 'denied',
      targetKind: 'permission',
      targetId: 'organizations:create',
      actorKind: 'user',
      detail: { method: 'POST', role: 'viewer' },
    });
    const failed = events.find((e) => e.action === 'session.sign_in' && e.outcome === 'failed')!;
    expect(failed).toMatchObject({ actorKind: 'anonymous', targetKind: 'user', targetId: adminId });
  });

  it("records an Organization's creation in that Organization, and nothing for the refused duplicate", async () => {
    const eu = await allEvents(admin, '?limit=200');
    expect(eu.filter((e) => e.action === 'organization.create')).toHaveLength(0);
    const res = await admin.get('/api/v1/audit-events?action=organization.create', { headers: { 'x-svc-organization': 'acme-eu' } });
    expect(res.body.events).toHaveLength(1);
    expect(res.body.events[0]).toMatchObject({ targetId: 'acme-eu', detail: { displayName: 'Acme EU' } });
  });

  it('never holds a password, session value or credential', async () => {
    const text = JSON.stringify(await allEvents(admin, '?limit=200'));
    expect(text).not.toContain(ADMIN.password);
    expect(text).not.toContain('wrong password entirely');
    expect(text).not.toContain(admin.cookie!.split('=')[1]);
  });

  it('is readable by a Viewer, and only within the Organization', async () => {
    const events = await allEvents(viewer);
    expect(events.length).toBeGreaterThan(0);
    const other = await viewer.get('/api/v1/audit-events', { headers: { 'x-svc-organization': 'acme-eu' } });
    expect(other.status).toBe(403);
    expect(other.body.reason).toBe('credential_rejected');
  });

  it('answers {items, next} on the alias path', async () => {
    const res = await admin.get('/api/v1/organizations/acme/audit-events?limit=2');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['items', 'next']);
    expect(res.body.items).toHaveLength(2);
  });

  it('pages newest first with cursors bound to the filters', async () => {
    const all = await allEvents(admin, '?limit=200');
    const seen: Event[] = [];
    let next: string | null = null;
    do {
      const res: { body: { events: Event[]; next: string | null } } = await admin.get(
        `/api/v1/audit-events?limit=3${next ? `&cursor=${encodeURIComponent(next)}` : ''}`,
      );
      seen.push(...res.body.events);
      next = res.body.next;
    } while (next);
    expect(seen.map((e) => e.id)).toEqual(all.map((e) => e.id));
    expect([...seen].sort((a, b) => (a.occurredAt < b.occurredAt ? 1 : -1)).map((e) => e.occurredAt)).toEqual(seen.map((e) => e.occurredAt));
    const first = await admin.get('/api/v1/audit-events?limit=1&action=session.sign_in');
    const replayed = await admin.get(`/api/v1/audit-events?limit=1&action=access.denied&cursor=${encodeURIComponent(first.body.next)}`);
    expect(replayed.status).toBe(400);
  });

  it('filters by action, actor, target, outcome and time range', async () => {
    expect((await allEvents(admin, '?action=session.sign_in&outcome=failed')).every((e) => e.action === 'session.sign_in' && e.outcome === 'failed')).toBe(
      true,
    );
    expect((await allEvents(admin, `?actorId=${adminId}`)).every((e) => e.actorId === adminId)).toBe(true);
    expect(await allEvents(admin, '?targetKind=permission&targetId=organizations:create')).toHaveLength(1);
    const all = await allEvents(admin, '?limit=200');
    const middle = all[Math.floor(all.length / 2)].occurredAt;
    const later = await allEvents(admin, `?limit=200&from=${encodeURIComponent(middle)}`);
    expect(later.every((e) => e.occurredAt >= middle)).toBe(true);
    const earlier = await allEvents(admin, `?limit=200&until=${encodeURIComponent(middle)}`);
    expect(later.length + earlier.length).toBe(all.length);
    const offset = await allEvents(admin, `?limit=200&from=${encodeURIComponent(middle.replace('Z', '+00:00'))}`);
    expect(offset.length).toBe(later.length);
  });

  it('refuses malformed filters', async () => {
    for (const query of ['?from=yesterday', '?outcome=maybe', '?limit=0', '?limit=201', '?sort=asc']) {
      const res = await admin.get(`/api/v1/audit-events${query}`);
      expect(res.status, query).toBe(400);
    }
  });

  it('is append-only: the database refuses UPDATE, DELETE and TRUNCATE', async () => {
    await expect(api.dataSource.query(`UPDATE audit_events SET action = 'rewritten'`)).rejects.toThrow(/append-only/);
    await expect(api.dataSource.query('DELETE FROM audit_events')).rejects.toThrow(/append-only/);
    await expect(api.dataSource.query('TRUNCATE audit_events')).rejects.toThrow(/append-only/);
  });

  it('exports every matching event as NDJSON, oldest first', async () => {
    const all = await allEvents(admin, '?limit=200');
    const res = await admin.get('/api/v1/audit-events/export?format=ndjson');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/x-ndjson');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="audit-events-acme-.*\.ndjson"$/);
    const lines = res.text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Event);
    expect(lines.map((e) => e.id)).toEqual([...all].reverse().map((e) => e.id));
    const filtered = await admin.get('/api/v1/audit-events/export?action=access.denied');
    expect(filtered.text.trim().split('\n')).toHaveLength(1);
  });

  it('exports CSV with a header, quoting and formula neutralization', async () => {
    const res = await admin.get('/api/v1/audit-events/export?format=csv');
    expect(res.headers.get('content-type')).toContain('text/csv');
    const rows = res.text.trimEnd().split('\r\n');
    expect(rows[0]).toBe('id,occurredAt,actorKind,actorId,actorName,action,targetKind,targetId,outcome,sourceAddress,requestId,detail');
    expect(rows.length - 1).toBe((await allEvents(admin, '?limit=200')).length);
    expect(rows.some((r) => r.includes('"{""email"":""ada@example.com""'))).toBe(true);
  });
});
