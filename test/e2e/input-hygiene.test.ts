import { describe, expect, it } from 'vitest';
import { Client } from '../support/api';
import { ADMIN, useBootstrappedApi } from '../support/factories';

/** `depth` arrays, one inside the other, around a string: `depth` levels of nesting. */
function nestedArrays(depth: number): string {
  return `${'['.repeat(depth)}"x"${']'.repeat(depth)}`;
}

/**
 * Input hygiene on /api/v1 (decisions §4): NUL or a lone surrogate in any string of a body or a
 * query parameter, JSON nested deeper than 64 levels, and null for a field that cannot be null are
 * 400 with the field named in the Error body, on every route, sign-in included.
 */
describe('input hygiene on /api/v1', () => {
  const ctx = useBootstrappedApi();

  it('checks who calls before what they send: an unknown query parameter is 401 unsigned, 400 signed in', async () => {
    const anonymous = await new Client(ctx.api.baseUrl).get('/api/v1/permissions?bogus=1');
    expect(anonymous.status).toBe(401);
    const signedIn = await ctx.admin.get('/api/v1/permissions?bogus=1');
    expect(signedIn.status).toBe(400);
    expect(signedIn.body).toEqual({ error: 'Unknown query parameter: bogus' });
  });

  it('refuses NUL in a body string, naming the field', async () => {
    const res = await ctx.admin.post('/api/v1/integrations', { type: 'generic', name: 'bad\u0000name' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: expect.stringContaining('body.name') });
  });

  it('refuses a lone surrogate written as a JSON escape', async () => {
    const rawBody = '{"type":"generic","name":"half \\ud800 a pair"}';
    const res = await ctx.admin.request('POST', '/api/v1/integrations', { rawBody, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: expect.stringContaining('body.name') });
    // A whole pair is ordinary text.
    const pair = await ctx.admin.post('/api/v1/integrations', { type: 'generic', name: 'smile \ud83d\ude00' });
    expect(pair.status).toBe(201);
  });

  it('refuses NUL in a query parameter, and in audit filters of the listing and the export', async () => {
    const members = await ctx.admin.get('/api/v1/members?cursor=%00');
    expect(members.status).toBe(400);
    expect(members.body).toEqual({ error: expect.stringContaining('query.cursor') });
    for (const path of ['/api/v1/audit-events', '/api/v1/audit-events/export']) {
      const res = await ctx.admin.get(`${path}?action=user%00.create`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: expect.stringContaining('query.action') });
    }
  });

  it('refuses NUL in the sign-in email with a 400, and the account can still sign in', async () => {
    const client = new Client(ctx.api.baseUrl);
    for (let i = 0; i < 12; i++) {
      const res = await client.post('/api/v1/auth/local/sign-in', { email: `${ADMIN.email}\u0000`, password: 'guess' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: expect.stringContaining('body.email') });
    }
    // No password was checked, so nothing was counted against the account or the address.
    expect((await client.post('/api/v1/auth/local/sign-in', { email: ADMIN.email, password: ADMIN.password })).status).toBe(200);
  });

  it('accepts 64 levels of nesting and refuses 65 and 2,000, on a normal route and on sign-in', async () => {
    const headers = { 'content-type': 'application/json' };
    const at64 = await ctx.admin.request('POST', '/api/v1/integrations', { rawBody: `{"type":"generic","name":"n","config":${nestedArrays(63)}}`, headers });
    // 64 levels pass the hygiene check; config is then refused by validation for being an array.
    expect(at64.status).toBe(400);
    expect(at64.body.error).not.toMatch(/nested deeper/);
    for (const depth of [64, 1999]) {
      const rawBody = `{"type":"generic","name":"n","config":${nestedArrays(depth)}}`;
      const res = await ctx.admin.request('POST', '/api/v1/integrations', { rawBody, headers });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: expect.stringMatching(/^Invalid input: body\.config(\[0\])* is nested deeper than 64 levels$/) });
    }
    const client = new Client(ctx.api.baseUrl);
    for (const depth of [64, 1999]) {
      const rawBody = `{"email":${nestedArrays(depth)},"password":"x"}`;
      const res = await client.request('POST', '/api/v1/auth/local/sign-in', { rawBody, headers });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(/body\.email.* is nested deeper than 64 levels/);
    }
  });

  it('refuses null for a field that cannot be null: member disabled, role', async () => {
    const created = await ctx.admin.post('/api/v1/local-users', {
      email: 'nully@example.com',
      name: 'Nully',
      password: 'a fine long password',
      role: 'viewer',
    });
    expect(created.status).toBe(201);
    const path = `/api/v1/members/${created.body.membership.id}`;
    const disabled = await ctx.admin.patch(path, { disabled: null });
    expect(disabled.status).toBe(400);
    expect(disabled.body).toEqual({ error: expect.stringContaining('disabled') });
    const role = await ctx.admin.patch(path, { role: null });
    expect(role.status).toBe(400);
    expect(role.body).toEqual({ error: expect.stringContaining('role') });
    const members = await ctx.admin.get('/api/v1/members?limit=200');
    expect(members.body.items.find((m: { email: string }) => m.email === 'nully@example.com')).toMatchObject({ disabled: false, role: 'viewer' });
  });
});
