import { describe, expect, it } from 'vitest';
import { Client } from '../support/api';
import { signedInMember, useBootstrappedApi } from '../support/factories';

const POLICY = {
  sessions: { idleSeconds: 1800, absoluteSeconds: 86400 },
  apiTokensAllowed: false,
  oidcAutoProvision: 'viewer',
  investigationBudgets: { toolRuns: 10, reasonerTurns: 5, wallClockSeconds: 120, stagnationTurns: 2, contextTokens: 50000 },
};

/** Each test works on an Organization of its own, created by the bootstrap Admin, so no test sees another's Policy. */
describe('Policy', () => {
  const ctx = useBootstrappedApi();

  async function newOrganization(id: string) {
    const res = await ctx.admin.post('/api/v1/organizations', { id, displayName: id });
    expect(res.status).toBe(201);
    return { headers: { 'x-svc-organization': id } };
  }

  it('has the documented defaults before anyone sets it', async () => {
    const org = await newOrganization('untouched');
    const res = await ctx.admin.get('/api/v1/policy', org);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      sessions: { idleSeconds: 43200, absoluteSeconds: 604800 },
      apiTokensAllowed: true,
      oidcAutoProvision: null,
      investigationBudgets: { toolRuns: 24, reasonerTurns: 12, wallClockSeconds: 300, stagnationTurns: 3, contextTokens: 100000 },
      retention: { changeDays: 90 },
    });
  });

  it('an Admin replaces it; the change is audited with before and after', async () => {
    const org = await newOrganization('replaced');
    const res = await ctx.admin.put('/api/v1/policy', POLICY, org);
    expect(res.status).toBe(200);
    // A document without `retention` sets its defaults.
    const stored = { ...POLICY, retention: { changeDays: 90 } };
    expect(res.body).toEqual(stored);
    expect((await ctx.admin.get('/api/v1/policy', org)).body).toEqual(stored);
    const audit = await ctx.admin.get('/api/v1/audit-events?action=policy.update', org);
    expect(audit.body.events).toHaveLength(1);
    expect(audit.body.events[0].detail.after).toEqual(stored);
    const kept = await ctx.admin.put('/api/v1/policy', { ...POLICY, retention: { changeDays: 30 } }, org);
    expect(kept.body.retention).toEqual({ changeDays: 30 });
    expect((await ctx.admin.get('/api/v1/policy', org)).body.retention).toEqual({ changeDays: 30 });
    expect(audit.body.events[0].detail.before.apiTokensAllowed).toBe(true);
  });

  it("new sessions take their lifetimes from the active Organization's Policy", async () => {
    const org = await newOrganization('short-sessions');
    expect((await ctx.admin.put('/api/v1/policy', POLICY, org)).status).toBe(200);
    // A user whose only (so oldest, so active) Organization it is.
    const user = { email: 'short-sessions@example.com', name: 'Short', password: 'a long enough password', role: 'viewer' };
    expect((await ctx.admin.post('/api/v1/local-users', user, org)).status).toBe(201);
    const client = new Client(ctx.api.baseUrl);
    expect((await client.post('/api/v1/auth/local/sign-in', { email: user.email, password: user.password })).status).toBe(200);
    const { session, organization } = (await client.get('/api/v1/session')).body;
    expect(organization.id).toBe('short-sessions');
    expect(Date.parse(session.expiresAt) - Date.parse(session.issuedAt)).toBe(86400 * 1000);
    expect(Date.parse(session.idleExpiresAt) - Date.parse(session.lastSeenAt)).toBe(1800 * 1000);
  });

  it('refuses incomplete, unknown, out-of-bounds or inconsistent documents', async () => {
    const org = await newOrganization('refusals');
    expect((await ctx.admin.put('/api/v1/policy', POLICY, org)).status).toBe(200);
    const cases: unknown[] = [
      { ...POLICY, sessions: undefined },
      { ...POLICY, extra: true },
      { ...POLICY, sessions: { idleSeconds: 10, absoluteSeconds: 86400 } },
      { ...POLICY, investigationBudgets: { ...POLICY.investigationBudgets, toolRuns: 0 } },
      { ...POLICY, retention: { changeDays: 0 } },
      { ...POLICY, retention: { changeDays: 3651 } },
      { ...POLICY, retention: null },
      { ...POLICY, retention: {} },
      { ...POLICY, investigationBudgets: { ...POLICY.investigationBudgets, toolRuns: '10' } },
      { ...POLICY, oidcAutoProvision: 'owner' },
      { ...POLICY, sessions: { idleSeconds: 90000, absoluteSeconds: 86400 } },
    ];
    for (const body of cases) {
      const res = await ctx.admin.put('/api/v1/policy', body, org);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await ctx.admin.get('/api/v1/policy', org)).body).toEqual({ ...POLICY, retention: { changeDays: 90 } });
  });

  it('Viewers and Editors read it; only Admins change it', async () => {
    const { client: editor } = await signedInMember(ctx.api, 'acme', 'editor');
    expect((await editor.get('/api/v1/policy')).status).toBe(200);
    const res = await editor.put('/api/v1/policy', POLICY);
    expect(res.status).toBe(403);
    expect(res.body.requires).toBe('policy:write');
  });
});
