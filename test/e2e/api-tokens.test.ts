import { describe, expect, it } from 'vitest';
import { auditContext } from '@svc/platform';
import { ApiTokensService } from '@svc/auth';
import { Client } from '../support/api';
import { signedInMember, useBootstrappedApi } from '../support/factories';

const inDays = (days: number) => new Date(Date.now() + days * 86400_000).toISOString();

describe('API tokens', () => {
  const ctx = useBootstrappedApi();
  const bearer = (token: string, headers: Record<string, string> = {}) => ({
    headers: { authorization: `Bearer ${token}`, ...headers },
    origin: false as const,
  });
  const anonymous = () => new Client(ctx.api.baseUrl);

  async function mint(role: string, name = `${role} token`, expiresAt = inDays(30)) {
    const res = await ctx.admin.post('/api/v1/api-tokens', { name, role, expiresAt });
    expect(res.status).toBe(201);
    return res.body as { id: string; token: string; name: string; role: string };
  }

  it('an Admin mints a token: shown once, stored hashed, listed without its value', async () => {
    // An input not in UTC (+01:00) is normalized to UTC microseconds.
    const day = inDays(30).slice(0, 10);
    const expectedExpiry = new Date(Date.parse(`${day}T00:00:00+01:00`)).toISOString().replace('.000Z', '.000000Z');
    const res = await ctx.admin.post('/api/v1/api-tokens', { name: 'exporter', role: 'viewer', expiresAt: `${day}T00:00:00+01:00` });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      name: 'exporter',
      role: 'viewer',
      createdBy: expect.any(String),
      createdAt: expect.stringMatching(/Z$/),
      expiresAt: expectedExpiry,
      lastUsedAt: null,
      revokedAt: null,
      token: expect.stringMatching(/^svc_pat_[A-Za-z0-9_-]{43}$/),
    });
    const list = await ctx.admin.get('/api/v1/api-tokens');
    expect(list.body.items[0]).toMatchObject({ id: res.body.id, name: 'exporter' });
    expect(JSON.stringify(list.body)).not.toContain(res.body.token);
    const [row] = await ctx.api.dataSource.query('SELECT token_hash FROM api_tokens WHERE id = $1', [res.body.id]);
    expect((row.token_hash as Buffer).length).toBe(32);
    const audit = await ctx.admin.get('/api/v1/audit-events?action=api_token.create');
    expect(JSON.stringify(audit.body)).not.toContain(res.body.token);
  });

  it("listing tokens is a read: a Viewer lists the Organization's tokens without their values, and mints or revokes none", async () => {
    const minted = await mint('viewer', 'listed for viewers');
    const { client: viewer } = await signedInMember(ctx.api, 'acme', 'viewer');
    const list = await viewer.get('/api/v1/api-tokens?limit=200');
    expect(list.status).toBe(200);
    expect(list.body.items.map((t: { id: string }) => t.id)).toContain(minted.id);
    expect(JSON.stringify(list.body)).not.toContain(minted.token);
    const create = await viewer.post('/api/v1/api-tokens', { name: 'x', role: 'viewer', expiresAt: inDays(1) });
    expect(create.status).toBe(403);
    expect(create.body.requires).toBe('api-tokens:write');
    const revoke = await viewer.delete(`/api/v1/api-tokens/${minted.id}`);
    expect(revoke.status).toBe(403);
    expect(revoke.body.requires).toBe('api-tokens:write');
  });

  it('a bearer token works without Origin, in its Organization, with its role', async () => {
    const { token } = await mint('editor');
    const permissions = await anonymous().get('/api/v1/permissions', bearer(token));
    expect(permissions.status).toBe(200);
    expect(permissions.body.role).toBe('editor');
    const denied = await anonymous().request('PUT', '/api/v1/policy', { ...bearer(token), body: {} });
    expect(denied.status).toBe(403);
    expect(denied.body.requires).toBe('policy:write');
    const audit = await ctx.admin.get('/api/v1/audit-events?action=access.denied');
    expect(audit.body.events[0]).toMatchObject({ actorKind: 'api_token', actorName: 'editor token' });
  });

  it('an admin token changes things without Origin, audited as the token', async () => {
    const { token, id } = await mint('admin', 'provisioner');
    const res = await anonymous().request('POST', '/api/v1/local-users', {
      ...bearer(token),
      body: { email: 'robot-made@example.com', name: 'R', password: 'a long enough password', role: 'viewer' },
    });
    expect(res.status).toBe(201);
    const audit = await ctx.admin.get('/api/v1/audit-events?action=user.create');
    expect(audit.body.events[0]).toMatchObject({ actorKind: 'api_token', actorId: id, actorName: 'provisioner' });
    const [row] = await ctx.api.dataSource.query('SELECT last_used_at FROM api_tokens WHERE id = $1', [id]);
    expect(row.last_used_at).not.toBeNull();
  });

  it('another Organization, named by header or alias path, is refused', async () => {
    const { token } = await mint('admin');
    await ctx.admin.post('/api/v1/organizations', { id: 'sibling', displayName: 'Sibling' });
    const byHeader = await anonymous().get('/api/v1/permissions', bearer(token, { 'x-svc-organization': 'sibling' }));
    expect(byHeader.status).toBe(403);
    expect(byHeader.body.reason).toBe('credential_rejected');
    expect((await anonymous().get('/api/v1/organizations/sibling/audit-events', bearer(token))).status).toBe(403);
    expect((await anonymous().get('/api/v1/organizations/acme/audit-events', bearer(token))).status).toBe(200);
  });

  it('people-only operations refuse tokens', async () => {
    const { token } = await mint('admin');
    for (const [method, path] of [
      ['GET', '/api/v1/session'],
      ['GET', '/api/v1/organizations'],
      ['POST', '/api/v1/organizations'],
      ['POST', '/api/v1/api-tokens'],
      ['GET', '/api/v1/api-tokens'],
    ]) {
      const res = await anonymous().request(method, path, { ...bearer(token), body: method === 'POST' ? {} : undefined });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.error).toMatch(/signed-in person/);
    }
  });

  it('revoked, expired, unknown or malformed tokens are 401 credential_rejected alike', async () => {
    const revoked = await mint('viewer');
    expect((await ctx.admin.delete(`/api/v1/api-tokens/${revoked.id}`)).status).toBe(204);
    expect((await ctx.admin.delete(`/api/v1/api-tokens/${revoked.id}`)).status).toBe(204);
    const expired = await mint('viewer');
    await ctx.api.dataSource.query(`UPDATE api_tokens SET expires_at = now() - interval '1 second' WHERE id = $1`, [expired.id]);
    const bodies = [];
    for (const value of [revoked.token, expired.token, `svc_pat_${'A'.repeat(43)}`, 'not-a-token']) {
      const res = await anonymous().get('/api/v1/permissions', bearer(value));
      expect(res.status, value).toBe(401);
      bodies.push(res.body);
    }
    expect(new Set(bodies.map((b) => JSON.stringify(b))).size).toBe(1);
    expect(bodies[0].reason).toBe('credential_rejected');
  });

  it('validates minting: role and expiry; only Admins mint', async () => {
    for (const body of [
      { name: 'x', role: 'owner', expiresAt: inDays(1) },
      { name: 'x', role: 'viewer', expiresAt: inDays(-1) },
      { name: 'x', role: 'viewer', expiresAt: inDays(400) },
      { name: '', role: 'viewer', expiresAt: inDays(1) },
      { name: 'x', role: 'viewer' },
    ])
      expect((await ctx.admin.post('/api/v1/api-tokens', body)).status, JSON.stringify(body)).toBe(400);
    const { client: editor } = await signedInMember(ctx.api, 'acme', 'editor');
    const res = await editor.post('/api/v1/api-tokens', { name: 'x', role: 'viewer', expiresAt: inDays(1) });
    expect(res.status).toBe(403);
    expect(res.body.requires).toBe('api-tokens:write');
  });

  // Only Admins reach minting over HTTP, so the rule is shown on the service the route calls.
  it("never mints a token with a role above its minter's", async () => {
    const tokens = ctx.api.app.get(ApiTokensService);
    const { userId } = await signedInMember(ctx.api, 'acme', 'editor');
    const context = auditContext({ address: '127.0.0.1' }, { id: userId, name: 'Minter' });
    for (const [minter, role] of [
      ['viewer', 'editor'],
      ['viewer', 'admin'],
      ['editor', 'admin'],
    ] as const) {
      await expect(tokens.mint('acme', minter, { name: 'above', role, expiresAt: inDays(1) }, context), `${minter} minting ${role}`).rejects.toMatchObject({
        message: 'A token cannot have a higher role than its minter',
      });
    }
    await expect(tokens.mint('acme', 'editor', { name: 'same', role: 'editor', expiresAt: inDays(1) }, context)).resolves.toMatchObject({ role: 'editor' });
    const listed = (await ctx.admin.get('/api/v1/api-tokens?limit=200')).body.items.map((t: { name: string }) => t.name);
    expect(listed).toContain('same');
    expect(listed).not.toContain('above');
  });

  it('Policy switches tokens off: minting is 409 and existing tokens stop working', async () => {
    const { token } = await mint('viewer');
    const policy = (await ctx.admin.get('/api/v1/policy')).body;
    await ctx.admin.put('/api/v1/policy', { ...policy, apiTokensAllowed: false });
    expect((await anonymous().get('/api/v1/permissions', bearer(token))).status).toBe(401);
    expect((await ctx.admin.post('/api/v1/api-tokens', { name: 'x', role: 'viewer', expiresAt: inDays(1) })).status).toBe(409);
    await ctx.admin.put('/api/v1/policy', { ...policy, apiTokensAllowed: true });
    expect((await anonymous().get('/api/v1/permissions', bearer(token))).status).toBe(200);
  });
});
