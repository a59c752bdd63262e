import { describe, expect, it } from 'vitest';
import { signedInMember, signInAdmin, useBootstrappedApi } from '../support/factories';

const POLICY = {
  sessions: { idleSeconds: 1800, absoluteSeconds: 86400 },
  apiTokensAllowed: false,
  oidcAutoProvision: 'viewer',
  investigationBudgets: { toolRuns: 10, reasonerTurns: 5, wallClockSeconds: 120, stagnationTurns: 2, contextTokens: 50000 },
};

describe('Policy', () => {
  const ctx = useBootstrappedApi();

  it('has the documented defaults before anyone sets it', async () => {
    const res = await ctx.admin.get('/api/v1/policy');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      sessions: { idleSeconds: 43200, absoluteSeconds: 604800 },
      apiTokensAllowed: true,
      oidcAutoProvision: null,
      investigationBudgets: { toolRuns: 24, reasonerTurns: 12, wallClockSeconds: 300, stagnationTurns: 3, contextTokens: 100000 },
    });
  });

  it('an Admin replaces it; the change is audited with before and after', async () => {
    const res = await ctx.admin.put('/api/v1/policy', POLICY);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(POLICY);
    expect((await ctx.admin.get('/api/v1/policy')).body).toEqual(POLICY);
    const audit = await ctx.admin.get('/api/v1/audit-events?action=policy.update');
    expect(audit.body.events).toHaveLength(1);
    expect(audit.body.events[0].detail.after).toEqual(POLICY);
    expect(audit.body.events[0].detail.before.apiTokensAllowed).toBe(true);
  });

  it("new sessions take their lifetimes from the active Organization's Policy", async () => {
    const client = await signInAdmin(ctx.api);
    const { session } = (await client.get('/api/v1/session')).body;
    expect(Date.parse(session.expiresAt) - Date.parse(session.issuedAt)).toBe(86400 * 1000);
    expect(Date.parse(session.idleExpiresAt) - Date.parse(session.lastSeenAt)).toBe(1800 * 1000);
  });

  it('refuses incomplete, unknown, out-of-bounds or inconsistent documents', async () => {
    const cases: unknown[] = [
      { ...POLICY, sessions: undefined },
      { ...POLICY, extra: true },
      { ...POLICY, sessions: { idleSeconds: 10, absoluteSeconds: 86400 } },
      { ...POLICY, investigationBudgets: { ...POLICY.investigationBudgets, toolRuns: 0 } },
      { ...POLICY, investigationBudgets: { ...POLICY.investigationBudgets, toolRuns: '10' } },
      { ...POLICY, oidcAutoProvision: 'owner' },
      { ...POLICY, sessions: { idleSeconds: 90000, absoluteSeconds: 86400 } },
    ];
    for (const body of cases) {
      const res = await ctx.admin.put('/api/v1/policy', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await ctx.admin.get('/api/v1/policy')).body).toEqual(POLICY);
  });

  it('Viewers and Editors read it; only Admins change it', async () => {
    const { client: editor } = await signedInMember(ctx.api, 'acme', 'editor');
    expect((await editor.get('/api/v1/policy')).status).toBe(200);
    const res = await editor.put('/api/v1/policy', POLICY);
    expect(res.status).toBe(403);
    expect(res.body.requires).toBe('policy:write');
  });
});
