import { describe, expect, it } from 'vitest';
import { Client } from '../support/api';
import { signedInMember, signInAdmin, useBootstrappedApi } from '../support/factories';

const org = { headers: { 'x-svc-organization': 'acme' } };

describe('sessions', () => {
  const ctx = useBootstrappedApi();

  /** Another browser session of a user. */
  async function signIn(email: string, password: string): Promise<Client> {
    const client = new Client(ctx.api.baseUrl);
    expect((await client.post('/api/v1/auth/local/sign-in', { email, password })).status).toBe(200);
    return client;
  }

  it("lists the caller's live sessions, newest first, marking the current one", async () => {
    // A user of this test alone: its first session, then two more, the second of them ended.
    const { email, password } = await signedInMember(ctx.api, 'acme', 'viewer', ctx.admin);
    const second = await signIn(email, password);
    const third = await signIn(email, password);
    await second.delete('/api/v1/session');
    const res = await third.get('/api/v1/sessions');
    expect(res.status).toBe(200);
    expect(res.body.next).toBeNull();
    const ids = res.body.sessions.map((s: { id: string }) => s.id);
    const thirdId = (await third.get('/api/v1/session')).body.session.id;
    expect(ids[0]).toBe(thirdId);
    expect(ids).toHaveLength(2);
    expect(res.body.sessions[0]).toEqual({
      id: thirdId,
      userId: expect.any(String),
      issuedAt: expect.stringMatching(/Z$/),
      expiresAt: expect.stringMatching(/Z$/),
      lastSeenAt: expect.stringMatching(/Z$/),
      userAgent: expect.any(String),
      address: expect.stringContaining('127.0.0.1'),
      current: true,
    });
    expect(res.body.sessions[1].current).toBe(false);
  });

  it('pages with cursors bound to the user', async () => {
    // A user with two sessions, so that there is a second page.
    const { client: user, email, password } = await signedInMember(ctx.api, 'acme', 'viewer', ctx.admin);
    await signIn(email, password);
    const page = await user.get('/api/v1/sessions?limit=1');
    expect(page.body.sessions).toHaveLength(1);
    expect(page.body.next).not.toBeNull();
    const next = await user.get(`/api/v1/sessions?limit=1&cursor=${encodeURIComponent(page.body.next)}`);
    expect(next.status).toBe(200);
    expect(next.body.sessions).toHaveLength(1);
    expect(next.body.sessions[0].id).not.toBe(page.body.sessions[0].id);
    expect(next.body.next).toBeNull();
    const { client: other } = await signedInMember(ctx.api, 'acme', 'viewer', ctx.admin);
    expect((await other.get(`/api/v1/sessions?limit=1&cursor=${encodeURIComponent(page.body.next)}`)).status).toBe(400);
  });

  it("ends one of one's own sessions; the header is required", async () => {
    const other = await signInAdmin(ctx.api);
    const id = (await other.get('/api/v1/session')).body.session.id;
    expect((await ctx.admin.delete(`/api/v1/sessions/${id}`)).status).toBe(400);
    expect((await ctx.admin.delete(`/api/v1/sessions/${id}`, org)).status).toBe(204);
    expect((await other.get('/api/v1/session')).body.reason).toBe('session_revoked');
  });

  it("an Admin ends a member's session; a non-Admin may not; outsiders' sessions are 404", async () => {
    const { client: member } = await signedInMember(ctx.api, 'acme', 'editor');
    const memberSession = (await member.get('/api/v1/session')).body.session.id;
    const { client: peer } = await signedInMember(ctx.api, 'acme', 'editor');
    const refused = await peer.delete(`/api/v1/sessions/${memberSession}`, org);
    expect(refused.status).toBe(403);
    expect(refused.body.requires).toBe('sessions:revoke-others');
    expect((await ctx.admin.delete(`/api/v1/sessions/${memberSession}`, org)).status).toBe(204);
    expect((await member.get('/api/v1/session')).body.reason).toBe('session_revoked');

    await ctx.admin.post('/api/v1/organizations', { id: 'other-org', displayName: 'Other' });
    const outsider = new Client(ctx.api.baseUrl);
    await ctx.admin.post(
      '/api/v1/local-users',
      { email: 'outsider@example.com', name: 'O', password: 'a long enough password', role: 'viewer' },
      { headers: { 'x-svc-organization': 'other-org' } },
    );
    await outsider.post('/api/v1/auth/local/sign-in', { email: 'outsider@example.com', password: 'a long enough password' });
    const outsiderSession = (await outsider.get('/api/v1/session')).body.session.id;
    expect((await peer.delete(`/api/v1/sessions/${outsiderSession}`, org)).status).toBe(404);
    expect((await ctx.admin.delete('/api/v1/sessions/0190a000-0000-7000-8000-000000000000', org)).status).toBe(404);
    const audit = await ctx.admin.get('/api/v1/audit-events?action=session.revoke');
    expect(audit.body.events.map((e: { targetId: string }) => e.targetId)).toContain(memberSession);
  });
});
