import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CONVERSATIONS_QUEUE } from '@svc/conversations';
import { Client } from '../support/api';
import { signedInMember, useBootstrappedApi } from '../support/factories';
import { jobFinished } from '../support/queue-jobs';
import { until } from '../support/until';
import { startWorker, TestWorker } from '../support/worker';

const ORG = { 'x-svc-organization': 'acme' };
const ELSEWHERE = { 'x-svc-organization': 'elsewhere' };
const ENDED = ['needs_input', 'partial', 'concluded', 'cancelled', 'failed'];
const TURN_KEYS = ['answer', 'concludedAt', 'createdAt', 'error', 'investigationId', 'status', 'stoppedBy', 'turn'];

/**
 * Conversations through the real API and the real worker process: opening, messages and their
 * turns (each an investigation), the one-turn-at-a-time order, the thread of questions and
 * answers, the turn listing and its cursors, every shape and limit rule, roles and tenancy.
 */
describe('conversations API', () => {
  const ctx = useBootstrappedApi();
  let worker: TestWorker | undefined;
  let incidentId: string;
  let otherIncidentId: string;
  let otherConversationId: string;

  async function incident(client: Client, name: string, headers: Record<string, string>, startsAt: string): Promise<string> {
    const g = await client.post('/api/v1/integrations', { type: 'generic', name: `Alerts ${name}` }, { headers });
    const res = await new Client(ctx.api.baseUrl).request('POST', `/webhooks/v1/integrations/${g.body.id}/alert-events`, {
      body: { alerts: [{ labels: { alertname: name, service: 'api' }, startsAt }] },
      headers: { 'x-svc-token': g.body.webhookSecret },
      origin: false,
    });
    expect(res.status).toBe(202);
    return res.body.incidentIds[0];
  }

  const open = async (body: Record<string, unknown>, headers = ORG) => ctx.admin.post('/api/v1/conversations', body, { headers });
  const turnsOf = async (id: string, query = '', headers = ORG) => ctx.admin.get(`/api/v1/conversations/${id}/turns${query}`, { headers });
  /** Every turn of the conversation, once each has ended. */
  const turnsEnded = (id: string, count: number) =>
    until(
      async () => {
        const res = await turnsOf(id, '?limit=200');
        expect(res.status).toBe(200);
        return res.body.turns.length === count && res.body.turns.every((t: { status: string }) => ENDED.includes(t.status)) ? res.body.turns : undefined;
      },
      60_000,
      `the ${count} turn(s) of conversation ${id} to end`,
    );
  /** The conversation once it has `count` messages. */
  const messagesReach = (id: string, count: number) =>
    until(
      async () => {
        const res = await ctx.admin.get(`/api/v1/conversations/${id}`);
        return res.body.messages.length >= count ? res.body : undefined;
      },
      60_000,
      `conversation ${id} to reach ${count} messages`,
    );

  beforeAll(async () => {
    incidentId = await incident(ctx.admin, 'ApiErrors', ORG, '2026-11-22T02:00:00Z');
    expect((await ctx.admin.post('/api/v1/organizations', { id: 'elsewhere', displayName: 'Elsewhere' })).status).toBe(201);
    otherIncidentId = await incident(ctx.admin, 'DiskFull', ELSEWHERE, '2026-11-22T02:00:00Z');
    otherConversationId = (await open({ subject: 'Theirs', message: 'What happened?' }, ELSEWHERE)).body.id;
  });
  // Tests run in a random order: a worker one test started must not pick up the turns another
  // test expects to stay queued.
  afterEach(async () => {
    await worker?.close();
    worker = undefined;
  });

  it('opens a conversation without a message: no turn, not queued, audited', async () => {
    const res = await open({ subject: 'Checkout is slow' });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(['createdAt', 'createdBy', 'id', 'lastActivityAt', 'queued', 'source', 'subject']);
    expect(res.body).toMatchObject({ subject: 'Checkout is slow', source: 'web', queued: false });
    expect(res.body.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
    const read = await ctx.admin.get(`/api/v1/conversations/${res.body.id}`);
    expect(read.body).toMatchObject({ id: res.body.id, messages: [] });
    const audit = await ctx.admin.get('/api/v1/audit-events?limit=200');
    expect(audit.body.events.some((e: { action: string; targetId: string }) => e.action === 'conversation.open' && e.targetId === res.body.id)).toBe(true);
  });

  it('opens with a first message: the message, its queued turn (an investigation of the message), queued true', async () => {
    const res = await open({ subject: 'Errors', message: 'Why do the API errors spike?' });
    expect(res.status).toBe(201);
    expect(res.body.queued).toBe(true);
    expect(res.body.message).toEqual({
      sequence: 1,
      role: 'user',
      text: 'Why do the API errors spike?',
      createdAt: expect.any(String),
      authorId: expect.any(String),
      authorName: 'Ada Admin',
      investigationId: res.body.turn.investigationId,
    });
    expect(res.body.turn).toEqual({ investigationId: expect.any(String), turn: 1, status: 'queued', createdAt: expect.any(String) });
    const investigation = await ctx.admin.get(`/api/v1/investigations/${res.body.turn.investigationId}`);
    expect(investigation.body).toMatchObject({ subject: 'Why do the API errors spike?', incidentId: null, status: 'queued' });
    // Without a window or an incident, the turn reads the last hour.
    expect(Date.parse(investigation.body.windowUntil) - Date.parse(investigation.body.windowFrom)).toBe(3_600_000);
    const report = await ctx.admin.get(`/api/v1/investigations/${res.body.turn.investigationId}/report`);
    expect(report.text).toContain('- Incident: none (a conversation turn)');
    const openapi = await ctx.admin.get('/api/v1/openapi.json');
    for (const path of [
      '/api/v1/conversations',
      '/api/v1/conversations/{conversation}',
      '/api/v1/conversations/{conversation}/messages',
      '/api/v1/conversations/{conversation}/turns',
    ])
      expect(openapi.body.paths[path], path).toBeDefined();
  });

  it("takes a turn's window from the message, normalized to UTC microseconds, else from the incident", async () => {
    const res = await open({
      subject: 'Window',
      message: 'What happened then?',
      windowFrom: '2026-11-22T03:00:00.1234567+01:00',
      windowUntil: '2026-11-22T02:30:00-00:30',
    });
    expect(res.status).toBe(201);
    expect(res.body.message).toMatchObject({ windowFrom: '2026-11-22T02:00:00.123456Z', windowUntil: '2026-11-22T03:00:00.000000Z' });
    const turn = await ctx.admin.get(`/api/v1/investigations/${res.body.turn.investigationId}`);
    expect(turn.body).toMatchObject({ windowFrom: '2026-11-22T02:00:00.123456Z', windowUntil: '2026-11-22T03:00:00.000000Z' });

    const withIncident = await open({ subject: 'Incident', incidentId, message: 'What caused it?' });
    expect(withIncident.status).toBe(201);
    expect(withIncident.body.incidentId).toBe(incidentId);
    expect(withIncident.body.message.windowFrom).toBeUndefined();
    const incidentTurn = await ctx.admin.get(`/api/v1/investigations/${withIncident.body.turn.investigationId}`);
    expect(incidentTurn.body).toMatchObject({ incidentId, windowFrom: '2026-11-22T01:00:00.000000Z' });
  });

  it('refuses every shape and limit violation with 400 naming the field, and unknown or foreign incidents with 404', async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{}, /subject/],
      [{ subject: '' }, /subject/],
      [{ subject: 'x'.repeat(513) }, /subject/],
      [{ subject: null }, /subject/],
      [{ subject: 's', message: '' }, /message/],
      [{ subject: 's', message: 'x'.repeat(8193) }, /message/],
      [{ subject: 's', message: null }, /message/],
      [{ subject: 's', windowFrom: '2026-11-22T01:00:00Z' }, /windowFrom/],
      [{ subject: 's', windowUntil: '2026-11-22T01:00:00Z' }, /windowUntil/],
      [{ subject: 's', message: 'm', windowFrom: '2026-11-22T02:00:00Z', windowUntil: '2026-11-22T02:00:00Z' }, /windowFrom must be before windowUntil/],
      [{ subject: 's', message: 'm', windowFrom: '2026-11-22T03:00:00Z', windowUntil: '2026-11-22T02:00:00Z' }, /windowFrom must be before windowUntil/],
      [{ subject: 's', message: 'm', windowUntil: new Date(Date.now() + 3_600_000).toISOString() }, /windowUntil must not be later/],
      [{ subject: 's', message: 'm', windowFrom: 'yesterday' }, /windowFrom/],
      [{ subject: 's', message: 'm', windowUntil: '2026-11-22T02:00:00' }, /windowUntil/],
      [{ subject: 's', incidentId: 'nope' }, /incidentId/],
      [{ subject: 's', incidentId: null }, /incidentId/],
      [{ subject: 's', extra: 1 }, /extra/],
    ];
    for (const [body, field] of cases) {
      const res = await open(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error, JSON.stringify(body)).toMatch(field);
    }
    expect((await open({ subject: 'x'.repeat(512), message: 'y'.repeat(8192) })).status).toBe(201);
    const unknown = await open({ subject: 's', incidentId: '0190a000-0000-7000-8000-000000000000' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: 'Incident not found' });
    expect((await open({ subject: 's', incidentId: otherIncidentId })).status).toBe(404);

    const { body: conversation } = await open({ subject: 'Messages' });
    const post = (body: unknown) => ctx.admin.post(`/api/v1/conversations/${conversation.id}/messages`, body);
    for (const body of [
      {},
      { message: '' },
      { message: 'x'.repeat(8193) },
      { message: 'm', windowFrom: 'x' },
      { message: 'm', subject: 's' },
      { message: null },
    ]) {
      expect((await post(body)).status, JSON.stringify(body)).toBe(400);
    }
    expect((await post({ message: 'm', windowFrom: '2026-11-22T02:00:00Z', windowUntil: '2026-11-22T01:00:00Z' })).body.error).toMatch(
      /windowFrom must be before/,
    );
    expect((await post({ message: 'm', windowUntil: new Date(Date.now() + 60_000).toISOString() })).status).toBe(400);
    const ok = await post({ message: 'x'.repeat(8192), windowFrom: '2026-11-22T01:00:00+02:00' });
    expect(ok.status).toBe(201);
    expect(Object.keys(ok.body).sort()).toEqual(['message', 'queued', 'turn']);
    expect(ok.body.message).toMatchObject({ sequence: 1, windowFrom: '2026-11-21T23:00:00.000000Z', windowUntil: expect.any(String) });
    expect(Date.parse(ok.body.message.windowUntil)).toBeLessThanOrEqual(Date.now());
    expect((await ctx.admin.post('/api/v1/conversations/0190a000-0000-7000-8000-000000000000/messages', { message: 'm' })).status).toBe(404);
    expect((await ctx.admin.post('/api/v1/conversations/nope/messages', { message: 'm' })).status).toBe(400);
  });

  it('runs one turn at a time in message order, durably: a message during a turn waits, and the thread reads as questions and answers', async () => {
    // No worker runs yet: the first turn stays queued, so the second message arrives while it is pending.
    const opened = await open({ subject: 'Order', message: 'What happened to incident number one?' });
    const second = await ctx.admin.post(`/api/v1/conversations/${opened.body.id}/messages`, { message: 'And what about number two?' });
    expect(second.status).toBe(201);
    expect(second.body).toMatchObject({ queued: true, message: { sequence: 2, role: 'user' }, turn: { turn: 2, status: 'queued' } });
    const jobs = await ctx.api.dataSource.query(`SELECT payload->>'investigationId' AS id FROM outbox_messages WHERE job_name = 'investigation.run'`);
    const queuedJobs = jobs.map((j: { id: string }) => j.id);
    expect(queuedJobs).toContain(opened.body.turn.investigationId);
    expect(queuedJobs).not.toContain(second.body.turn.investigationId);

    worker = await startWorker();
    const turns = await turnsEnded(opened.body.id, 2);
    expect(turns.map((t: { turn: number }) => t.turn)).toEqual([1, 2]);
    for (const t of turns) expect(TURN_KEYS).toEqual(expect.arrayContaining(Object.keys(t)));
    const [first, next] = await Promise.all(turns.map((t: { investigationId: string }) => ctx.admin.get(`/api/v1/investigations/${t.investigationId}`)));
    // The second turn started only after the first had ended.
    expect(Date.parse(next.body.startedAt)).toBeGreaterThanOrEqual(Date.parse(first.body.concludedAt));
    expect(turns[0]).toMatchObject({ answer: first.body.summary, concludedAt: first.body.concludedAt });

    const thread = await messagesReach(opened.body.id, 4);
    expect(thread.messages.map((m: { sequence: number; role: string; investigationId: string }) => [m.sequence, m.role, m.investigationId])).toEqual([
      [1, 'user', turns[0].investigationId],
      [2, 'user', turns[1].investigationId],
      [3, 'assistant', turns[0].investigationId],
      [4, 'assistant', turns[1].investigationId],
    ]);
    expect(thread.messages[2].text).toBe(first.body.summary);
    expect(thread.lastActivityAt >= thread.createdAt).toBe(true);

    // A worker restart between messages: the next turn is picked up by the new worker.
    await worker.close();
    const third = await ctx.admin.post(`/api/v1/conversations/${opened.body.id}/messages`, { message: 'Anything else?' });
    expect(third.body.message.sequence).toBe(5);
    worker = await startWorker();
    await turnsEnded(opened.body.id, 3);
    const after = await messagesReach(opened.body.id, 6);
    expect(after.messages[5]).toMatchObject({ sequence: 6, role: 'assistant', investigationId: third.body.turn.investigationId });
    await until(() => jobFinished(CONVERSATIONS_QUEUE, third.body.turn.investigationId), 30_000, 'the turn-ended job');
  }, 180_000);

  it('a turn cancelled while it waits is answered as cancelled, and the next one still runs', async () => {
    const opened = await open({ subject: 'Cancel', message: 'First question' });
    const second = await ctx.admin.post(`/api/v1/conversations/${opened.body.id}/messages`, { message: 'Second question' });
    const third = await ctx.admin.post(`/api/v1/conversations/${opened.body.id}/messages`, { message: 'Third question' });
    expect((await ctx.admin.post(`/api/v1/investigations/${second.body.turn.investigationId}/cancel`)).status).toBe(200);
    worker = await startWorker();
    const turns = await turnsEnded(opened.body.id, 3);
    expect(turns.map((t: { status: string }) => t.status)).toEqual([
      expect.not.stringMatching(/cancelled/),
      'cancelled',
      expect.not.stringMatching(/cancelled/),
    ]);
    const thread = await messagesReach(opened.body.id, 6);
    expect(thread.messages.slice(3).map((m: { role: string; investigationId: string }) => [m.role, m.investigationId])).toEqual([
      ['assistant', opened.body.turn.investigationId],
      ['assistant', second.body.turn.investigationId],
      ['assistant', third.body.turn.investigationId],
    ]);
    expect(thread.messages[4].text).toMatch(/cancelled/);
  }, 120_000);

  it('lists turns by number with the required header, and cursors bound to the Organization, conversation and ordering', async () => {
    const { body: conversation } = await open({ subject: 'Paging', message: 'one' });
    for (const text of ['two', 'three']) await ctx.admin.post(`/api/v1/conversations/${conversation.id}/messages`, { message: text });
    const { body: other } = await open({ subject: 'Other', message: 'one' });
    await ctx.admin.post(`/api/v1/conversations/${other.id}/messages`, { message: 'two' });

    expect((await ctx.admin.get(`/api/v1/conversations/${conversation.id}/turns`)).status).toBe(400);
    const all = await turnsOf(conversation.id);
    expect(all.status).toBe(200);
    expect(Object.keys(all.body).sort()).toEqual(['next', 'turns']);
    expect(all.body.turns.map((t: { turn: number }) => t.turn)).toEqual([1, 2, 3]);
    expect(all.body.next).toBeNull();

    const first = await turnsOf(conversation.id, '?limit=2');
    expect(first.body.turns.map((t: { turn: number }) => t.turn)).toEqual([1, 2]);
    expect(first.body.next.length).toBeLessThanOrEqual(512);
    const rest = await turnsOf(conversation.id, `?limit=2&cursor=${encodeURIComponent(first.body.next)}`);
    expect(rest.body.turns.map((t: { investigationId: string }) => t.investigationId)).toEqual([all.body.turns[2].investigationId]);
    expect(rest.body.next).toBeNull();
    // Bound to the conversation and the Organization: the same cursor elsewhere is refused.
    expect((await turnsOf(other.id, `?limit=2&cursor=${encodeURIComponent(first.body.next)}`)).status).toBe(400);
    const otherFirst = await turnsOf(other.id, '?limit=1');
    expect((await turnsOf(conversation.id, `?cursor=${encodeURIComponent(otherFirst.body.next)}`)).status).toBe(400);
    const tampered = `${first.body.next.slice(0, -2)}${first.body.next.endsWith('A') ? 'B' : 'A'}A`;
    expect((await turnsOf(conversation.id, `?cursor=${encodeURIComponent(tampered)}`)).status).toBe(400);
    const investigationsCursor = (await ctx.admin.get('/api/v1/investigations?limit=1')).body.next;
    expect((await turnsOf(conversation.id, `?cursor=${encodeURIComponent(investigationsCursor)}`)).status).toBe(400);
    for (const query of ['?limit=0', '?limit=201', '?limit=x', '?cursor=', `?cursor=${'a'.repeat(513)}`, '?status=queued']) {
      expect((await turnsOf(conversation.id, query)).status, query).toBe(400);
    }

    const alias = await ctx.admin.get(`/api/v1/organizations/acme/conversations/${conversation.id}/turns?limit=2`, { headers: ORG });
    expect(alias.status).toBe(200);
    expect(Object.keys(alias.body).sort()).toEqual(['items', 'next']);
    expect(alias.body.items.map((t: { turn: number }) => t.turn)).toEqual([1, 2]);
    expect((await ctx.admin.get(`/api/v1/organizations/acme/conversations/${conversation.id}/turns`)).status).toBe(400);
    expect((await ctx.admin.get(`/api/v1/organizations/acme/conversations/${conversation.id}/turns`, { headers: ELSEWHERE })).status).toBe(400);
  });

  it('lists conversations newest first, filtered by incident and source, through both addressing forms', async () => {
    const { body: about } = await open({ subject: 'About the incident', incidentId });
    const { body: latest } = await open({ subject: 'Latest' });
    const all = await ctx.admin.get('/api/v1/conversations');
    expect(all.status).toBe(200);
    expect(Object.keys(all.body).sort()).toEqual(['items', 'next']);
    expect(all.body.items[0].id).toBe(latest.id);
    expect(all.body.items[0].messages).toBeUndefined();
    const byIncident = await ctx.admin.get(`/api/v1/conversations?incidentId=${incidentId}`);
    expect(byIncident.body.items.map((c: { id: string }) => c.id)).toContain(about.id);
    expect(byIncident.body.items.every((c: { incidentId: string }) => c.incidentId === incidentId)).toBe(true);
    expect((await ctx.admin.get('/api/v1/conversations?source=chat')).body).toEqual({ items: [], next: null });
    expect((await ctx.admin.get('/api/v1/conversations?source=web&limit=200')).body.items).toHaveLength(all.body.items.length);
    const page = await ctx.admin.get('/api/v1/conversations?limit=1');
    const second = await ctx.admin.get(`/api/v1/conversations?limit=1&cursor=${encodeURIComponent(page.body.next)}`);
    expect(second.body.items[0].id).toBe(all.body.items[1].id);
    expect((await ctx.admin.get(`/api/v1/conversations?limit=1&source=web&cursor=${encodeURIComponent(page.body.next)}`)).status).toBe(400);
    for (const query of ['?source=slack', '?incidentId=nope', '?limit=0', '?other=1'])
      expect((await ctx.admin.get(`/api/v1/conversations${query}`)).status).toBe(400);
    const alias = await ctx.admin.get('/api/v1/organizations/acme/conversations');
    expect(alias.body.items.map((c: { id: string }) => c.id)).toEqual(all.body.items.map((c: { id: string }) => c.id));
    const aliasRead = await ctx.admin.get(`/api/v1/organizations/acme/conversations/${about.id}`);
    expect(aliasRead.body).toMatchObject({ id: about.id, incidentId, messages: [] });
    const aliasPost = await ctx.admin.post(`/api/v1/organizations/acme/conversations/${about.id}/messages`, { message: 'Through the alias' });
    expect(aliasPost.status).toBe(201);
  });

  it('Viewers read but do not write; Editors write; writes are audited', async () => {
    const { body: conversation } = await open({ subject: 'Roles', message: 'First' });
    const { client: viewer } = await signedInMember(ctx.api, 'acme', 'viewer');
    expect((await viewer.get(`/api/v1/conversations/${conversation.id}`)).status).toBe(200);
    expect((await viewer.get('/api/v1/conversations')).status).toBe(200);
    expect((await viewer.get(`/api/v1/conversations/${conversation.id}/turns`, { headers: ORG })).status).toBe(200);
    const refused = await viewer.post('/api/v1/conversations', { subject: 'No' });
    expect(refused.status).toBe(403);
    expect(refused.body.requires).toBe('conversations:write');
    expect((await viewer.post(`/api/v1/conversations/${conversation.id}/messages`, { message: 'No' })).status).toBe(403);
    const { client: editor, userId } = await signedInMember(ctx.api, 'acme', 'editor');
    const posted = await editor.post(`/api/v1/conversations/${conversation.id}/messages`, { message: 'From an editor' });
    expect(posted.status).toBe(201);
    expect(posted.body.message.authorId).toBe(userId);
    const opened = await editor.post('/api/v1/conversations', { subject: 'Editor' });
    expect(opened.body.createdBy).toBe(userId);
    const audit = await ctx.admin.get('/api/v1/audit-events?limit=200');
    expect(
      audit.body.events.some(
        (e: { action: string; targetId: string; actorId: string }) =>
          e.action === 'conversation.message' && e.targetId === conversation.id && e.actorId === userId,
      ),
    ).toBe(true);
  });

  it("another Organization's conversations are 404 on every route and both addressing forms", async () => {
    const { body: ours } = await open({ subject: 'Ours', message: 'Hello' });
    for (const [headers, id] of [
      [ELSEWHERE, ours.id],
      [ORG, otherConversationId],
    ] as const) {
      expect((await ctx.admin.get(`/api/v1/conversations/${id}`, { headers })).status).toBe(404);
      expect((await ctx.admin.get(`/api/v1/conversations/${id}/turns`, { headers })).status).toBe(404);
      expect((await ctx.admin.post(`/api/v1/conversations/${id}/messages`, { message: 'm' }, { headers })).status).toBe(404);
      const org = headers['x-svc-organization'];
      expect((await ctx.admin.get(`/api/v1/organizations/${org}/conversations/${id}`)).status).toBe(404);
      expect((await ctx.admin.get(`/api/v1/organizations/${org}/conversations/${id}/turns`, { headers })).status).toBe(404);
      expect((await ctx.admin.post(`/api/v1/organizations/${org}/conversations/${id}/messages`, { message: 'm' })).status).toBe(404);
    }
    const theirs = await ctx.admin.get('/api/v1/conversations', { headers: ELSEWHERE });
    expect(theirs.body.items.map((c: { id: string }) => c.id)).toEqual([otherConversationId]);
    expect((await ctx.admin.get('/api/v1/organizations/elsewhere/conversations')).body.items.map((c: { id: string }) => c.id)).toEqual([otherConversationId]);
    // The other Organization's messages were not touched by the refused posts.
    const read = await ctx.admin.get(`/api/v1/conversations/${otherConversationId}`, { headers: ELSEWHERE });
    expect(read.body.messages.filter((m: { role: string }) => m.role === 'user')).toHaveLength(1);
  });
});
