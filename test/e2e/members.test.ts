import { describe, expect, it } from 'vitest';
import { Client } from '../support/api';
import { ADMIN, signedInMember, signInAdmin, useBootstrappedApi } from '../support/factories';

const PASSWORD = 'a fine long password';

describe('members and local users', () => {
  const ctx = useBootstrappedApi();

  /** A new local user of the Organization (acme unless named), signed in (their session's Organization is their oldest). */
  async function createUser(role: 'viewer' | 'editor' | 'admin', email: string, organization = 'acme') {
    const res = await ctx.admin.post(
      '/api/v1/local-users',
      { email, name: `User ${email}`, password: PASSWORD, role },
      { headers: { 'x-svc-organization': organization } },
    );
    expect(res.status).toBe(201);
    const client = new Client(ctx.api.baseUrl);
    const signIn = await client.post('/api/v1/auth/local/sign-in', { email, password: PASSWORD });
    expect(signIn.status).toBe(200);
    return { client, user: res.body as { id: string; email: string; membership: { id: string; role: string } } };
  }

  it('an Admin creates a local user with a role; the user can sign in', async () => {
    const res = await ctx.admin.post('/api/v1/local-users', { email: 'Grace@Example.com', name: 'Grace', password: PASSWORD, role: 'editor' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: expect.any(String), email: 'grace@example.com', name: 'Grace', membership: { id: expect.any(String), role: 'editor' } });
    const grace = new Client(ctx.api.baseUrl);
    expect((await grace.post('/api/v1/auth/local/sign-in', { email: 'grace@example.com', password: PASSWORD })).status).toBe(200);
    expect((await grace.get('/api/v1/permissions')).body.role).toBe('editor');
    const again = await ctx.admin.post('/api/v1/local-users', { email: 'grace@example.com', name: 'Grace 2', password: PASSWORD, role: 'viewer' });
    expect(again.status).toBe(409);
    const audit = await ctx.admin.get('/api/v1/audit-events?action=user.create');
    expect(audit.body.events[0]).toMatchObject({ targetId: res.body.id, detail: { email: 'grace@example.com', role: 'editor' } });
    expect(JSON.stringify(audit.body)).not.toContain(PASSWORD);
  });

  it('only Admins manage members', async () => {
    const { client: editor } = await signedInMember(ctx.api, 'acme', 'editor');
    const res = await editor.post('/api/v1/local-users', { email: 'x@example.com', name: 'X', password: PASSWORD, role: 'viewer' });
    expect(res.status).toBe(403);
    expect(res.body.requires).toBe('members:write');
    expect((await editor.get('/api/v1/members')).status).toBe(200);
  });

  it('lists members with their role, keyset-paginated', async () => {
    await createUser('viewer', 'listed-one@example.com');
    await createUser('editor', 'listed-two@example.com');
    const all = await ctx.admin.get('/api/v1/members?limit=200');
    expect(all.status).toBe(200);
    expect(all.body.next).toBeNull();
    const ada = all.body.items.find((m: { email: string }) => m.email === ADMIN.email);
    expect(ada).toEqual({
      id: expect.any(String),
      userId: expect.any(String),
      email: ADMIN.email,
      name: ADMIN.name,
      role: 'admin',
      local: true,
      disabled: false,
      createdAt: expect.stringMatching(/Z$/),
    });
    expect(all.body.items.map((m: { email: string }) => m.email)).toEqual(expect.arrayContaining(['listed-one@example.com', 'listed-two@example.com']));
    expect(all.body.items.find((m: { email: string }) => m.email === 'listed-two@example.com')).toMatchObject({ role: 'editor', local: true, disabled: false });
    const first = await ctx.admin.get('/api/v1/members?limit=1');
    expect(first.body.items).toHaveLength(1);
    expect(first.body.items[0].id).toBe(all.body.items[0].id);
    const second = await ctx.admin.get(`/api/v1/members?limit=1&cursor=${encodeURIComponent(first.body.next)}`);
    expect(second.body.items[0].id).toBe(all.body.items[1].id);
  });

  it('changes a role by membership id or by user id; unknown, malformed or foreign ids are 404/400', async () => {
    const { user } = await createUser('viewer', 'role@example.com');
    const byMembership = await ctx.admin.patch(`/api/v1/members/${user.membership.id}`, { role: 'editor' });
    expect(byMembership.status).toBe(200);
    expect(byMembership.body.role).toBe('editor');
    const byUser = await ctx.admin.patch(`/api/v1/members/${user.id}`, { role: 'viewer' });
    expect(byUser.body).toMatchObject({ id: user.membership.id, userId: user.id, role: 'viewer' });
    expect((await ctx.admin.patch('/api/v1/members/0190a000-0000-7000-8000-000000000000', { role: 'viewer' })).status).toBe(404);
    expect((await ctx.admin.patch('/api/v1/members/not-a-uuid', { role: 'viewer' })).status).toBe(400);
    expect((await ctx.admin.patch(`/api/v1/members/${user.id}`, { role: 'owner' })).status).toBe(400);
    expect((await ctx.admin.post('/api/v1/organizations', { id: 'elsewhere', displayName: 'Elsewhere' })).status).toBe(201);
    const foreign = await ctx.admin.patch(`/api/v1/members/${user.id}`, { role: 'admin' }, { headers: { 'x-svc-organization': 'elsewhere' } });
    expect(foreign.status).toBe(404);
  });

  it('the last Admin can be neither demoted nor removed; two Admins demoting each other at once leave one', async () => {
    const solo = await ctx.admin.post('/api/v1/organizations', { id: 'solo', displayName: 'Solo' });
    const onlyAdmin = solo.body.membership.id;
    const headers = { 'x-svc-organization': 'solo' };
    expect((await ctx.admin.patch(`/api/v1/members/${onlyAdmin}`, { role: 'editor' }, { headers })).status).toBe(409);
    expect((await ctx.admin.delete(`/api/v1/members/${onlyAdmin}`, { headers })).status).toBe(409);

    // The two Admins of an Organization of their own (the other one's only Organization, so its session's).
    const duel = await ctx.admin.post('/api/v1/organizations', { id: 'duel', displayName: 'Duel' });
    expect(duel.status).toBe(201);
    const inDuel = { 'x-svc-organization': 'duel' };
    const adaMembership = duel.body.membership.id;
    const { client: other, user } = await createUser('admin', 'second-admin@example.com', 'duel');
    const [a, b] = await Promise.all([
      ctx.admin.patch(`/api/v1/members/${user.membership.id}`, { role: 'viewer' }, { headers: inDuel }),
      other.patch(`/api/v1/members/${adaMembership}`, { role: 'viewer' }),
    ]);
    // One wins. The other is refused: 409 when it reaches the locked check, or 403 when the winner
    // has already demoted its caller by the time the guard looks at its role.
    expect([a.status, b.status].filter((s) => s === 200)).toHaveLength(1);
    expect([403, 409]).toContain(a.status === 200 ? b.status : a.status);
    const admins = (
      await new Client(ctx.api.baseUrl).request('GET', '/api/v1/members?limit=200', {
        headers: { ...inDuel, cookie: (a.status === 200 ? ctx.admin : other).cookie! },
      })
    ).body.items.filter((m: { role: string }) => m.role === 'admin');
    expect(admins).toHaveLength(1);
  });

  it('removing a member ends their sessions at once', async () => {
    const { client, user } = await createUser('editor', 'leaving@example.com');
    expect((await client.get('/api/v1/session')).status).toBe(200);
    expect((await ctx.admin.delete(`/api/v1/members/${user.id}`)).status).toBe(204);
    const after = await client.get('/api/v1/session');
    expect(after.status).toBe(401);
    expect(after.body.reason).toBe('session_revoked');
    expect((await ctx.admin.patch(`/api/v1/members/${user.id}`, { role: 'viewer' })).status).toBe(404);
  });

  it('disabling an account ends its sessions and refuses sign-in until it is enabled again', async () => {
    const { client, user } = await createUser('viewer', 'paused@example.com');
    const res = await ctx.admin.patch(`/api/v1/members/${user.id}`, { disabled: true });
    expect(res.status).toBe(200);
    expect(res.body.disabled).toBe(true);
    expect((await client.get('/api/v1/session')).body.reason).toBe('session_revoked');
    expect((await new Client(ctx.api.baseUrl).post('/api/v1/auth/local/sign-in', { email: 'paused@example.com', password: PASSWORD })).status).toBe(401);
    await ctx.admin.patch(`/api/v1/members/${user.id}`, { disabled: false });
    expect((await new Client(ctx.api.baseUrl).post('/api/v1/auth/local/sign-in', { email: 'paused@example.com', password: PASSWORD })).status).toBe(200);
    const self = (await ctx.admin.get('/api/v1/session')).body.user.id;
    expect((await ctx.admin.patch(`/api/v1/members/${self}`, { disabled: true })).status).toBe(409);
  });

  it('account-wide changes need Admin in every Organization of the account', async () => {
    const { user } = await createUser('viewer', 'shared@example.com');
    const { client: otherAdmin } = await signedInMember(ctx.api, 'acme', 'admin');
    // The user is also a member of an Organization that Ada administers and the other Admin does not.
    expect((await ctx.admin.post('/api/v1/organizations', { id: 'shared-account', displayName: 'Shared account' })).status).toBe(201);
    await ctx.api.dataSource.query(`INSERT INTO memberships (organization_id, id, user_id, role) VALUES ('shared-account', gen_random_uuid(), $1, 'viewer')`, [
      user.id,
    ]);
    const res = await otherAdmin.put(`/api/v1/local-users/${user.id}/password`, { password: 'another long password' });
    expect(res.status).toBe(403);
    expect((await otherAdmin.patch(`/api/v1/members/${user.id}`, { disabled: true })).status).toBe(403);
    expect((await ctx.admin.put(`/api/v1/local-users/${user.id}/password`, { password: 'another long password' })).status).toBe(204);
  });

  it("an Admin resets a password: that user's sessions end and only the new password works", async () => {
    const { client, user } = await createUser('editor', 'reset@example.com');
    expect((await ctx.admin.put(`/api/v1/local-users/${user.id}/password`, { password: 'short' })).status).toBe(400);
    expect((await ctx.admin.put(`/api/v1/local-users/${user.id}/password`, { password: 'the new long password' })).status).toBe(204);
    expect((await client.get('/api/v1/session')).body.reason).toBe('session_revoked');
    expect((await new Client(ctx.api.baseUrl).post('/api/v1/auth/local/sign-in', { email: 'reset@example.com', password: PASSWORD })).status).toBe(401);
    expect(
      (await new Client(ctx.api.baseUrl).post('/api/v1/auth/local/sign-in', { email: 'reset@example.com', password: 'the new long password' })).status,
    ).toBe(200);
  });

  it('a user changes their own password: other sessions end, this one stays', async () => {
    const { client, user } = await createUser('viewer', 'self@example.com');
    const elsewhere = new Client(ctx.api.baseUrl);
    await elsewhere.post('/api/v1/auth/local/sign-in', { email: user.email, password: PASSWORD });
    const wrong = await client.put('/api/v1/auth/local/password', { currentPassword: 'not it at all', newPassword: 'my brand new password' });
    expect(wrong.status).toBe(403);
    const ok = await client.put('/api/v1/auth/local/password', { currentPassword: PASSWORD, newPassword: 'my brand new password' });
    expect(ok.status).toBe(204);
    expect((await client.get('/api/v1/session')).status).toBe(200);
    expect((await elsewhere.get('/api/v1/session')).body.reason).toBe('session_revoked');
    const admin = await signInAdmin(ctx.api);
    const audit = await admin.get('/api/v1/audit-events?action=user.password_change');
    expect(audit.body.events[0]).toMatchObject({ targetId: user.id, detail: { otherSessionsEnded: 1 } });
  });
});
