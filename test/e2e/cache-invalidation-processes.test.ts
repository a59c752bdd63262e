import { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../support/api';
import { startApiProcess } from '../support/api-process';
import { TestClock } from '../support/clock';
import { signedInMember, signInAdmin, useBootstrappedApi } from '../support/factories';
import { chatEvent, signChatEvent } from '../support/scripted-chat-provider';
import { freePort } from '../support/ports';
import { until } from '../support/until';

/** The contract's bound for an ended session, a removed member, a changed role or a revoked API token to take effect everywhere. */
const SESSION_END_BOUND_MS = 1_000;

async function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/**
 * Two real API processes (from dist) besides the test's own: what one process changes, the other
 * stops honouring. Each process caches webhook authentication, chat signing keys and recently read
 * sessions and API tokens. The test's own process reads time through a clock the test moves: a
 * session or token ended by another process is refused there once that clock has moved by the
 * contract's bound, and served from its memory until then.
 */
describe('per-process caches across API processes', () => {
  const clock = new TestClock();
  const ctx = useBootstrappedApi({ clock });
  const processes: ChildProcess[] = [];
  let first: string;
  let second: string;

  beforeAll(async () => {
    const urls: string[] = [];
    for (let i = 0; i < 2; i++) {
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      processes.push((await startApiProcess({ ...process.env, PORT: String(port), LOG_LEVEL: 'warn' }, url)).child);
      urls.push(url);
    }
    [first, second] = urls;
  }, 240_000);

  afterAll(async () => {
    await Promise.all(processes.map(stop));
  });

  const deliver = (baseUrl: string, integrationId: string, secret: string, n: number) =>
    new Client(baseUrl).request('POST', `/webhooks/v1/integrations/${integrationId}/alert-events`, {
      body: { alerts: [{ labels: { alertname: 'CacheProbe', service: 'api', n: String(n) } }] },
      headers: { 'x-svc-token': secret },
      origin: false,
    });

  const as = (baseUrl: string, cookie: string) => {
    const client = new Client(baseUrl);
    client.cookie = cookie;
    return client;
  };

  it('refuses a rotated webhook secret, a disabled and a deleted integration on the other process as soon as the change returns', async () => {
    const created = await ctx.admin.post('/api/v1/integrations', { type: 'generic', name: 'Cached webhook' });
    expect(created.status).toBe(201);
    const id: string = created.body.id;
    const admin = as(first, ctx.admin.cookie!);
    let n = 0;
    // The second process has authenticated this secret, so it is in its cache.
    for (let i = 0; i < 3; i++) expect((await deliver(second, id, created.body.webhookSecret, ++n)).status).toBe(202);

    const rotated = await admin.post(`/api/v1/integrations/${id}/rotate-webhook-secret`, {});
    expect(rotated.status).toBe(200);
    const old = await deliver(second, id, created.body.webhookSecret, ++n);
    expect(old.status).toBe(401);
    expect(old.body).toEqual({ error: 'Unknown integration or wrong webhook credential', reason: 'credential_rejected' });
    const secret: string = rotated.body.webhookSecret;
    expect((await deliver(second, id, secret, ++n)).status).toBe(202);
    expect((await deliver(second, id, secret, ++n)).status).toBe(202);

    expect((await admin.post(`/api/v1/integrations/${id}/disable`, {})).status).toBe(200);
    expect((await deliver(second, id, secret, ++n)).status).toBe(401);
    expect((await admin.post(`/api/v1/integrations/${id}/enable`, {})).status).toBe(200);
    expect((await deliver(second, id, secret, ++n)).status).toBe(202);
    expect((await deliver(second, id, secret, ++n)).status).toBe(202);

    expect((await admin.delete(`/api/v1/integrations/${id}`)).status).toBe(204);
    expect((await deliver(second, id, secret, n + 1)).status).toBe(401);

    // Exactly the seven accepted deliveries were admitted.
    const [{ count }] = await ctx.api.dataSource.query('SELECT count(*)::int AS count FROM alert_events WHERE integration_id = $1', [id]);
    expect(count).toBe(7);
  });

  it('refuses a rotated secret on the other process even while deliveries are in flight there', async () => {
    const created = await ctx.admin.post('/api/v1/integrations', { type: 'generic', name: 'Busy webhook' });
    const id: string = created.body.id;
    const admin = as(first, ctx.admin.cookie!);
    let n = 0;
    const answers: { status: number; sentAfterRotation: boolean }[] = [];
    let rotatedAt = false;
    let stop = false;
    const senders = Array.from({ length: 4 }, async () => {
      while (!stop) {
        const sentAfterRotation = rotatedAt;
        const res = await deliver(second, id, created.body.webhookSecret, ++n);
        answers.push({ status: res.status, sentAfterRotation });
      }
    });
    await until(async () => (answers.length >= 8 ? true : undefined), 30_000, 'deliveries flowing');
    expect((await admin.post(`/api/v1/integrations/${id}/rotate-webhook-secret`, {})).status).toBe(200);
    rotatedAt = true;
    await until(async () => (answers.filter((a) => a.sentAfterRotation).length >= 8 ? true : undefined), 30_000, 'deliveries after the rotation');
    stop = true;
    await Promise.all(senders);
    expect(answers.filter((a) => a.sentAfterRotation).map((a) => a.status)).toEqual(answers.filter((a) => a.sentAfterRotation).map(() => 401));
    // Every 202 is a stored delivery, and nothing was stored after the rotation committed.
    const accepted = answers.filter((a) => a.status === 202).length;
    const [{ stored }] = await ctx.api.dataSource.query(
      'SELECT count(*)::int AS stored FROM webhook_deliveries WHERE integration_id = $1 AND status_code = 202',
      [id],
    );
    expect(stored).toBe(accepted);
  });

  /**
   * Runs `work` with the integrations' change notifications switched off, as if every one were
   * still on its way: what is refused then is refused by the database, not by a dropped cache entry.
   */
  const withoutChangeNotifications = async (work: () => Promise<void>) => {
    await ctx.api.dataSource.query('ALTER TABLE integrations DISABLE TRIGGER integrations_changed');
    try {
      await work();
    } finally {
      await ctx.api.dataSource.query('ALTER TABLE integrations ENABLE TRIGGER integrations_changed');
    }
  };

  it('refuses a chat event signed with a replaced signing secret, or for a disabled or deleted chat integration, on the other process as soon as the change returns', async () => {
    const workspace = { teamId: `T${Date.now().toString(36).toUpperCase()}`, appId: 'ACACHE' };
    const created = await ctx.admin.post('/api/v1/integrations', {
      type: 'chat',
      name: 'Cached chat',
      // A host that does not resolve is accepted (verify reports it); nothing is posted here.
      config: { apiBaseUrl: 'https://chat.invalid', ...workspace },
      credentials: { signingSecret: 'first-signing-secret-0123456789', botToken: 'xoxb-cache' },
    });
    expect(created.status).toBe(201);
    const id: string = created.body.id;
    const admin = as(first, ctx.admin.cookie!);
    let n = 0;
    const send = (secret: string, event: Partial<Parameters<typeof chatEvent>[1]> = {}) => {
      const body = JSON.stringify(
        chatEvent(workspace, { text: 'cache probe', channel: 'C1', ts: `1700000000.${String((n += 1)).padStart(6, '0')}`, ...event }),
      );
      return new Client(second).request('POST', '/webhooks/v1/chat/events', { rawBody: body, headers: signChatEvent(secret, body), origin: false });
    };
    const refusal = { error: 'Unknown workspace or app, a stale or future timestamp, or a bad signature', reason: 'credential_rejected' };
    // The second process has read this integration's signing secret, so it is in its cache.
    for (let i = 0; i < 3; i++) expect((await send('first-signing-secret-0123456789')).status).toBe(200);
    await withoutChangeNotifications(async () => {
      const replaced = await admin.patch(`/api/v1/integrations/${id}`, {
        credentials: { signingSecret: 'second-signing-secret-0123456789', botToken: 'xoxb-cache' },
      });
      expect(replaced.status).toBe(200);
      const old = await send('first-signing-secret-0123456789');
      expect(old.status).toBe(401);
      expect(old.body).toEqual(refusal);
      // An event the service would ignore is refused alike: the old secret gets no answer but 401.
      expect((await send('first-signing-secret-0123456789', { bot_id: 'B1' })).status).toBe(401);
      expect((await send('second-signing-secret-0123456789')).status).toBe(200);
      expect((await send('second-signing-secret-0123456789')).status).toBe(200);
      expect((await send('second-signing-secret-0123456789', { bot_id: 'B1' })).status).toBe(200);

      expect((await admin.post(`/api/v1/integrations/${id}/disable`, {})).status).toBe(200);
      expect((await send('second-signing-secret-0123456789')).status).toBe(401);
      expect((await send('second-signing-secret-0123456789', { bot_id: 'B1' })).status).toBe(401);
      expect((await admin.post(`/api/v1/integrations/${id}/enable`, {})).status).toBe(200);
      expect((await send('second-signing-secret-0123456789')).status).toBe(200);

      // Moved to another workspace: events naming the old one are no longer its.
      const moved = await admin.patch(`/api/v1/integrations/${id}`, {
        config: { apiBaseUrl: 'https://chat.invalid', teamId: `${workspace.teamId}X`, appId: 'ACACHE' },
      });
      expect(moved.status).toBe(200);
      expect((await send('second-signing-secret-0123456789')).status).toBe(401);
      expect((await admin.patch(`/api/v1/integrations/${id}`, { config: { apiBaseUrl: 'https://chat.invalid', ...workspace } })).status).toBe(200);
      expect((await send('second-signing-secret-0123456789')).status).toBe(200);

      expect((await admin.delete(`/api/v1/integrations/${id}`)).status).toBe(204);
      const gone = await send('second-signing-secret-0123456789');
      expect(gone.status).toBe(401);
      expect(gone.body).toEqual(refusal);
    });
  });

  it('refuses a replaced chat signing secret on the other process even while events are in flight there, and records only what it acknowledged', async () => {
    const workspace = { teamId: `T${Date.now().toString(36).toUpperCase()}B`, appId: 'ABUSY' };
    const created = await ctx.admin.post('/api/v1/integrations', {
      type: 'chat',
      name: 'Busy chat',
      config: { apiBaseUrl: 'https://chat.invalid', ...workspace },
      credentials: { signingSecret: 'busy-signing-secret-0123456789', botToken: 'xoxb-busy' },
    });
    expect(created.status).toBe(201);
    const id: string = created.body.id;
    let n = 0;
    const answers: { status: number; sentAfterChange: boolean; eventId: string }[] = [];
    let changed = false;
    let halt = false;
    const senders = Array.from({ length: 4 }, async () => {
      while (!halt) {
        const sentAfterChange = changed;
        const eventId = `EvBusy${(n += 1)}`;
        const body = JSON.stringify(chatEvent(workspace, { text: 'busy', channel: 'C1', ts: `1700000000.${String(n).padStart(6, '0')}` }, eventId));
        const res = await new Client(second).request('POST', '/webhooks/v1/chat/events', {
          rawBody: body,
          headers: signChatEvent('busy-signing-secret-0123456789', body),
          origin: false,
        });
        answers.push({ status: res.status, sentAfterChange, eventId });
      }
    });
    await until(async () => (answers.length >= 8 ? true : undefined), 30_000, 'events flowing');
    await withoutChangeNotifications(async () => {
      const replaced = await as(first, ctx.admin.cookie!).patch(`/api/v1/integrations/${id}`, {
        credentials: { signingSecret: 'busy-signing-secret-replaced-0123', botToken: 'xoxb-busy' },
      });
      expect(replaced.status).toBe(200);
      changed = true;
      await until(async () => (answers.filter((a) => a.sentAfterChange).length >= 8 ? true : undefined), 30_000, 'events after the change');
      halt = true;
      await Promise.all(senders);
    });
    const after = answers.filter((a) => a.sentAfterChange);
    expect(after.map((a) => a.status)).toEqual(after.map(() => 401));
    // Every acknowledged event is recorded, and no refused one.
    const rows = await ctx.api.dataSource.query('SELECT event_id FROM chat_events WHERE integration_id = $1 ORDER BY event_id COLLATE "C"', [id]);
    expect(rows.map((r: { event_id: string }) => r.event_id)).toEqual(
      answers
        .filter((a) => a.status === 200)
        .map((a) => a.eventId)
        .sort(),
    );
    expect(answers.some((a) => a.status === 200)).toBe(true);
  });

  /** A GET on `baseUrl` with this cookie, from a client of its own (a refusal may clear a client's cookie). */
  const getAs = (baseUrl: string, cookie: string, path: string) => as(baseUrl, cookie).get(path);

  it("ends a session revoked by another process within the contract's bound", async () => {
    const victim = await signInAdmin(ctx.api);
    const cookie = victim.cookie!;
    const session = (await victim.get('/api/v1/session')).body.session.id as string;
    // Read, and remembered, by the test's process.
    expect((await getAs(ctx.api.baseUrl, cookie, '/api/v1/incidents')).status).toBe(200);

    expect((await as(first, ctx.admin.cookie!).delete(`/api/v1/sessions/${session}`, { headers: { 'x-svc-organization': 'acme' } })).status).toBe(204);
    expect((await getAs(first, cookie, '/api/v1/session')).status).toBe(401);
    // Its clock has not moved: it still serves the session from memory.
    expect((await getAs(ctx.api.baseUrl, cookie, '/api/v1/session')).status).toBe(200);
    clock.advance(SESSION_END_BOUND_MS);
    const refused = await getAs(ctx.api.baseUrl, cookie, '/api/v1/session');
    expect(refused.status).toBe(401);
    expect(refused.body.reason).toBe('session_revoked');
    expect((await getAs(ctx.api.baseUrl, cookie, '/api/v1/incidents')).status).toBe(401);
  });

  it('ends the sessions of a removed member on another process within the bound, and at once on the one that removed them', async () => {
    const member = await signedInMember(ctx.api, 'acme', 'viewer');
    const cookie = member.client.cookie!;
    expect((await getAs(ctx.api.baseUrl, cookie, '/api/v1/session')).status).toBe(200);
    expect((await getAs(first, cookie, '/api/v1/session')).status).toBe(200);

    expect((await as(first, ctx.admin.cookie!).delete(`/api/v1/members/${member.userId}`, { headers: { 'x-svc-organization': 'acme' } })).status).toBe(204);
    expect((await getAs(first, cookie, '/api/v1/session')).status).toBe(401);
    expect((await getAs(ctx.api.baseUrl, cookie, '/api/v1/session')).status).toBe(200);
    clock.advance(SESSION_END_BOUND_MS);
    expect((await getAs(ctx.api.baseUrl, cookie, '/api/v1/session')).status).toBe(401);
  });

  it("serves a member's new role on another process within the bound, and at once on the one that changed it", async () => {
    const member = await signedInMember(ctx.api, 'acme', 'editor');
    const cookie = member.client.cookie!;
    const roleOn = async (baseUrl: string) => {
      const answer = await as(baseUrl, cookie).get('/api/v1/permissions', { headers: { 'x-svc-organization': 'acme' } });
      expect(answer.status).toBe(200);
      return answer.body.role as string;
    };
    // Read, and remembered, by both processes.
    expect(await roleOn(ctx.api.baseUrl)).toBe('editor');
    expect(await roleOn(first)).toBe('editor');

    const changed = await as(first, ctx.admin.cookie!).patch(
      `/api/v1/members/${member.userId}`,
      { role: 'viewer' },
      { headers: { 'x-svc-organization': 'acme' } },
    );
    expect(changed.status).toBe(200);
    expect(await roleOn(first)).toBe('viewer');
    // The test's process has not seen its clock move: it still serves the role it read.
    expect(await roleOn(ctx.api.baseUrl)).toBe('editor');
    clock.advance(SESSION_END_BOUND_MS);
    expect(await roleOn(ctx.api.baseUrl)).toBe('viewer');
  });

  it('refuses an API token revoked by another process within the same bound', async () => {
    const minted = await ctx.admin.post('/api/v1/api-tokens', {
      name: 'Cached token',
      role: 'viewer',
      expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
    });
    expect(minted.status).toBe(201);
    const bearer = { headers: { authorization: `Bearer ${minted.body.token}` } };
    const here = new Client(ctx.api.baseUrl);
    expect((await here.get('/api/v1/incidents', bearer)).status).toBe(200);
    expect((await as(first, ctx.admin.cookie!).delete(`/api/v1/api-tokens/${minted.body.id}`)).status).toBe(204);
    expect((await new Client(first).get('/api/v1/incidents', bearer)).status).toBe(401);
    expect((await here.get('/api/v1/incidents', bearer)).status).toBe(200);
    clock.advance(SESSION_END_BOUND_MS);
    expect((await here.get('/api/v1/incidents', bearer)).status).toBe(401);
  });
});
