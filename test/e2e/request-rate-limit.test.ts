import { describe, expect, it } from 'vitest';
import { Client } from '../support/api';
import { signInAdmin, useBootstrappedApi } from '../support/factories';

describe('requests per minute per session or token (decisions §12)', () => {
  const ctx = useBootstrappedApi({ env: { SVC_RATE_LIMIT_PER_MINUTE: '12' } });

  it('past the limit a session gets 429 with Retry-After; another session is unaffected', async () => {
    const client = await signInAdmin(ctx.api);
    const statuses: number[] = [];
    for (let i = 0; i < 13; i++) statuses.push((await client.get('/api/v1/permissions')).status);
    expect(statuses.slice(0, 12).every((s) => s === 200)).toBe(true);
    const limited = await client.get('/api/v1/permissions');
    expect(statuses[12]).toBe(429);
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ error: 'Too many requests; slow down' });
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    const other = await signInAdmin(ctx.api);
    expect((await other.get('/api/v1/permissions')).status).toBe(200);
  });

  it('an API token has a budget of its own', async () => {
    const admin = await signInAdmin(ctx.api);
    const minted = await admin.post('/api/v1/api-tokens', { name: 'busy', role: 'viewer', expiresAt: new Date(Date.now() + 86400_000).toISOString() });
    const token = new Client(ctx.api.baseUrl);
    const headers = { authorization: `Bearer ${minted.body.token}` };
    for (let i = 0; i < 12; i++) expect((await token.get('/api/v1/permissions', { headers })).status).toBe(200);
    expect((await token.get('/api/v1/permissions', { headers })).status).toBe(429);
  });

  it('public routes are not counted against anyone', async () => {
    for (let i = 0; i < 20; i++) expect((await new Client(ctx.api.baseUrl).get('/api/v1/meta')).status).toBe(200);
  });
});
