import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOOTSTRAP_CREDENTIAL, Client, PUBLIC_ORIGIN, startApi, TestApi } from '../support/api';
import { ADMIN, bootstrap, signedInMember, signInAdmin, useBootstrappedApi } from '../support/factories';
import { until } from '../support/until';

const bootstrapBody = { organization: { id: 'acme', displayName: 'Acme' }, user: ADMIN };
const bearer = (value: string) => ({ headers: { authorization: `Bearer ${value}` } });

describe('bootstrap', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(() => api?.close());

  it('refuses a wrong or missing credential with 401 credential_rejected', async () => {
    const client = new Client(api.baseUrl);
    for (const options of [bearer('wrong-credential-xxxxxxxx'), {}]) {
      const res = await client.post('/api/v1/auth/local/bootstrap', bootstrapBody, options);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: expect.any(String), reason: 'credential_rejected' });
    }
  });

  it('validates the body', async () => {
    const client = new Client(api.baseUrl);
    const res = await client.post(
      '/api/v1/auth/local/bootstrap',
      { organization: { id: 'acme', displayName: 'Acme' }, user: { ...ADMIN, password: 'short' } },
      bearer(BOOTSTRAP_CREDENTIAL),
    );
    expect(res.status).toBe(400);
    expect(res.body.error).toContain('password must be 12 to 1024 characters');
  });

  it('creates the first Organization, its Admin and a session, then refuses a second bootstrap with 409', async () => {
    const client = new Client(api.baseUrl);
    const res = await client.post('/api/v1/auth/local/bootstrap', bootstrapBody, bearer(BOOTSTRAP_CREDENTIAL));
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      user: { id: expect.stringMatching(/^[0-9a-f-]{36}$/), email: ADMIN.email, name: ADMIN.name },
      organizations: [{ id: 'acme', displayName: 'Acme', membership: { id: expect.any(String), role: 'admin' } }],
    });
    expect((await client.get('/api/v1/session')).status).toBe(200);
    const again = await new Client(api.baseUrl).post(
      '/api/v1/auth/local/bootstrap',
      { ...bootstrapBody, organization: { id: 'other', displayName: 'Other' } },
      bearer(BOOTSTRAP_CREDENTIAL),
    );
    expect(again.status).toBe(409);
  });
});

describe('stored credentials', () => {
  const ctx = useBootstrappedApi();

  it('stores only the hash of the password and of the session value', async () => {
    await signInAdmin(ctx.api);
    const users = await ctx.api.dataSource.query('SELECT password_hash FROM users');
    expect(users).toHaveLength(1);
    expect(users[0].password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
    const sessions = await ctx.api.dataSource.query('SELECT token_hash FROM sessions');
    expect(sessions).toHaveLength(2);
    for (const s of sessions) expect((s.token_hash as Buffer).length).toBe(32);
  });
});

describe('sign-in and sessions', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startApi();
    await bootstrap(api);
  });
  afterAll(() => api?.close());

  it('sets the session cookie with every attribute of the contract', async () => {
    const client = new Client(api.baseUrl);
    const res = await client.post('/api/v1/auth/local/sign-in', { email: ADMIN.email, password: ADMIN.password });
    expect(res.status).toBe(200);
    expect(res.body.user).toEqual({ id: expect.any(String), email: ADMIN.email, name: ADMIN.name });
    expect(res.body.organizations).toEqual([{ id: 'acme', displayName: 'Acme', membership: { id: expect.any(String), role: 'admin' } }]);
    const cookie = res.cookies.find((c) => c.startsWith('__Host-svc_session='))!;
    const [pair, ...attributes] = cookie.split(';').map((p) => p.trim());
    expect(pair).toMatch(/^__Host-svc_session=[A-Za-z0-9_-]{43}$/);
    const lower = attributes.map((a) => a.toLowerCase());
    expect(lower).toContain('httponly');
    expect(lower).toContain('secure');
    expect(lower).toContain('path=/');
    expect(lower).toContain('samesite=lax');
    expect(lower.some((a) => a.startsWith('domain'))).toBe(false);
  });

  it('issues a new session value on every sign-in', async () => {
    const a = await signInAdmin(api);
    const b = new Client(api.baseUrl);
    await b.post('/api/v1/auth/local/sign-in', { email: 'ADA@example.com ', password: ADMIN.password });
    expect(a.cookie).toBeDefined();
    expect(b.cookie).toBeDefined();
    expect(a.cookie).not.toBe(b.cookie);
  });

  it('answers an unknown user and a wrong password identically', async () => {
    const client = new Client(api.baseUrl);
    const unknown = await client.post('/api/v1/auth/local/sign-in', { email: 'nobody@example.com', password: ADMIN.password });
    const wrong = await client.post('/api/v1/auth/local/sign-in', { email: ADMIN.email, password: 'not the password at all' });
    expect(unknown.status).toBe(401);
    expect(wrong.status).toBe(401);
    expect(unknown.body).toEqual(wrong.body);
    expect(wrong.body).toEqual({ error: expect.any(String), reason: 'credential_rejected' });
    expect(unknown.cookies).toEqual([]);
  });

  it('GET /api/v1/session shows the session, user, active Organization and role', async () => {
    const client = await signInAdmin(api);
    const res = await client.get('/api/v1/session');
    expect(res.status).toBe(200);
    expect(res.body.user.email).toBe(ADMIN.email);
    expect(res.body.organization).toEqual({ id: 'acme', displayName: 'Acme', membership: { id: expect.any(String), role: 'admin' } });
    expect(Date.parse(res.body.session.expiresAt) - Date.parse(res.body.session.issuedAt)).toBe(7 * 24 * 3600 * 1000);
  });

  it('without a cookie, or with an unknown one, answers 401 credential_rejected', async () => {
    const none = await new Client(api.baseUrl).get('/api/v1/session');
    expect(none.status).toBe(401);
    expect(none.body.reason).toBe('credential_rejected');
    const forged = await new Client(api.baseUrl).get('/api/v1/session', { headers: { cookie: `__Host-svc_session=${'A'.repeat(43)}` } });
    expect(forged.status).toBe(401);
    expect(forged.body.reason).toBe('credential_rejected');
  });

  it('sign-out revokes the session: its cookie then gets 401 session_revoked', async () => {
    const client = await signInAdmin(api);
    const cookie = client.cookie!;
    const out = await client.delete('/api/v1/session');
    expect(out.status).toBe(204);
    expect(out.cookies.some((c) => c.startsWith('__Host-svc_session=;'))).toBe(true);
    const after = await client.get('/api/v1/session', { headers: { cookie } });
    expect(after.status).toBe(401);
    expect(after.body).toEqual({ error: expect.any(String), reason: 'session_revoked' });
  });

  // These tests move a session's clock in the database. A process serves a live session it read
  // for at most SESSION_REREAD_MS, so the change is seen within that bound: poll for it.
  const answerWithin = (client: Client, status: number) =>
    until(
      async () => {
        const res = await client.get('/api/v1/session');
        return res.status === status ? res : undefined;
      },
      5_000,
      `GET /api/v1/session answering ${status}`,
    );

  it('a session past its idle or absolute lifetime gets 401 session_expired', async () => {
    const idle = await signInAdmin(api);
    const idleId = (await idle.get('/api/v1/session')).body.session.id;
    await api.dataSource.query(`UPDATE sessions SET last_seen_at = now() - interval '12 hours 1 second' WHERE id = $1`, [idleId]);
    const idleRes = await answerWithin(idle, 401);
    expect(idleRes.body.reason).toBe('session_expired');

    const absolute = await signInAdmin(api);
    const absoluteId = (await absolute.get('/api/v1/session')).body.session.id;
    await api.dataSource.query(`UPDATE sessions SET expires_at = now() - interval '1 second' WHERE id = $1`, [absoluteId]);
    const absoluteRes = await answerWithin(absolute, 401);
    expect(absoluteRes.body.reason).toBe('session_expired');
  });

  it('keeps a used session alive: activity moves lastSeenAt and the idle expiry', async () => {
    const client = await signInAdmin(api);
    const id = (await client.get('/api/v1/session')).body.session.id;
    await api.dataSource.query(`UPDATE sessions SET last_seen_at = now() - interval '11 hours' WHERE id = $1`, [id]);
    const [backdated] = await api.dataSource.query(
      `SELECT last_seen_at + idle_timeout_seconds * interval '1 second' AS "idleExpiresAt" FROM sessions WHERE id = $1`,
      [id],
    );
    // Once the process has re-read the session, a request writes lastSeenAt again.
    await until(
      async () => {
        const res = await client.get('/api/v1/session');
        expect(res.status).toBe(200);
        const [{ recent }] = await api.dataSource.query(`SELECT last_seen_at > now() - interval '1 minute' AS recent FROM sessions WHERE id = $1`, [id]);
        return recent ? res : undefined;
      },
      5_000,
      'last_seen_at written again',
    );
    const res = await client.get('/api/v1/session');
    expect(res.status).toBe(200);
    // The idle expiry moved past the one the backdated session had, and follows lastSeenAt by the idle lifetime (12 h).
    const { lastSeenAt, idleExpiresAt } = res.body.session;
    expect(Date.parse(idleExpiresAt)).toBeGreaterThan(new Date(backdated.idleExpiresAt).getTime());
    expect(Date.parse(idleExpiresAt) - Date.parse(lastSeenAt)).toBe(12 * 3600_000);
    // Moved for real: two more hours idle would have ended the backdated session (13 h), not the used one.
    await api.dataSource.query(`UPDATE sessions SET last_seen_at = last_seen_at - interval '2 hours' WHERE id = $1`, [id]);
    expect((await client.get('/api/v1/session')).status).toBe(200);
  });
});

describe('Origin check', () => {
  const ctx = useBootstrappedApi();

  it('refuses a cookie-authenticated unsafe request without Origin, or with another one, with 403', async () => {
    const missing = await ctx.admin.post('/api/v1/organizations', { id: 'no-origin', displayName: 'x' }, { origin: false });
    expect(missing.status).toBe(403);
    expect(missing.body).toEqual({ error: expect.stringMatching(/Origin/) });
    const foreign = await ctx.admin.post('/api/v1/organizations', { id: 'foreign', displayName: 'x' }, { origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    const signOut = await ctx.admin.delete('/api/v1/session', { origin: false });
    expect(signOut.status).toBe(403);
    const ok = await ctx.admin.post('/api/v1/organizations', { id: 'with-origin', displayName: 'x' }, { origin: PUBLIC_ORIGIN });
    expect(ok.status).toBe(201);
  });

  it('lets safe methods through without Origin', async () => {
    expect((await ctx.admin.get('/api/v1/organizations', { origin: false })).status).toBe(200);
  });

  it('refuses sign-in from another Origin (login CSRF) but allows it without one', async () => {
    const client = new Client(ctx.api.baseUrl);
    const foreign = await client.post('/api/v1/auth/local/sign-in', { email: ADMIN.email, password: ADMIN.password }, { origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(foreign.cookies).toEqual([]);
    const absent = await client.post('/api/v1/auth/local/sign-in', { email: ADMIN.email, password: ADMIN.password }, { origin: false });
    expect(absent.status).toBe(200);
  });

  it('refuses a bearer credential on product routes (no API tokens are issued yet)', async () => {
    const res = await new Client(ctx.api.baseUrl).get('/api/v1/organizations', bearer(BOOTSTRAP_CREDENTIAL));
    expect(res.status).toBe(401);
    expect(res.body.reason).toBe('credential_rejected');
  });
});

describe('Organizations, roles and the resolved Organization', () => {
  const ctx = useBootstrappedApi();

  it('an Admin creates an Organization and becomes its Admin; a taken id is 409', async () => {
    // An Admin of acme alone, so that the listing holds exactly acme and what this Admin creates.
    const { client: admin } = await signedInMember(ctx.api, 'acme', 'admin', ctx.admin);
    const res = await admin.post('/api/v1/organizations', { id: 'acme-eu', displayName: 'Acme Europe' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: 'acme-eu', displayName: 'Acme Europe', membership: { id: expect.any(String), role: 'admin' } });
    expect((await admin.post('/api/v1/organizations', { id: 'acme-eu', displayName: 'Again' })).status).toBe(409);
    const list = await admin.get('/api/v1/organizations');
    expect(list.body.organizations.map((o: { id: string }) => o.id)).toEqual(['acme', 'acme-eu']);
  });

  it('resolves the Organization from the header, else from the session', async () => {
    const { client: viewer, userId } = await signedInMember(ctx.api, 'acme', 'viewer', ctx.admin);
    // The viewer of acme is also an Editor of a second Organization, joined after acme.
    expect((await ctx.admin.post('/api/v1/organizations', { id: 'acme-apac', displayName: 'Acme Asia-Pacific' })).status).toBe(201);
    await ctx.api.dataSource.query(`INSERT INTO memberships (organization_id, id, user_id, role) VALUES ('acme-apac', gen_random_uuid(), $1, 'editor')`, [
      userId,
    ]);
    const bySession = await viewer.get('/api/v1/permissions');
    expect(bySession.status).toBe(200);
    expect(bySession.body.role).toBe('viewer');
    expect(bySession.body.permissions).toContain('incidents:read');
    expect(bySession.body.permissions).not.toContain('investigations:open');
    const byHeader = await viewer.get('/api/v1/permissions', { headers: { 'x-svc-organization': 'acme-apac' } });
    expect(byHeader.body.role).toBe('editor');
    expect(byHeader.body.permissions).toContain('investigations:open');
    expect(byHeader.body.permissions).not.toContain('integrations:write');
  });

  it('an Organization the caller does not belong to, or that does not exist, is 403 credential_rejected', async () => {
    const { client: outsider } = await signedInMember(ctx.api, 'acme', 'editor');
    await ctx.admin.post('/api/v1/organizations', { id: 'secret-org', displayName: 'Secret' });
    for (const org of ['secret-org', 'does-not-exist']) {
      const res = await outsider.get('/api/v1/permissions', { headers: { 'x-svc-organization': org } });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: expect.any(String), reason: 'credential_rejected' });
    }
  });

  it('an invalid header is 400', async () => {
    const res = await ctx.admin.get('/api/v1/permissions', { headers: { 'x-svc-organization': 'Not_Valid' } });
    expect(res.status).toBe(400);
  });

  it('a role below the minimum is 403 with requires naming the permission', async () => {
    const { client: editor } = await signedInMember(ctx.api, 'acme', 'editor');
    const res = await editor.post('/api/v1/organizations', { id: 'by-editor', displayName: 'x' });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: expect.any(String), requires: 'organizations:create' });
  });

  it("lists only the caller's own Organizations", async () => {
    const { client: member } = await signedInMember(ctx.api, 'acme', 'viewer');
    const res = await member.get('/api/v1/organizations');
    expect(res.body).toEqual({ organizations: [{ id: 'acme', displayName: 'Acme', membership: { id: expect.any(String), role: 'viewer' } }], next: null });
  });
});
