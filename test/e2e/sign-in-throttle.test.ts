import { describe, expect, it } from 'vitest';
import { Client } from '../support/api';
import { ADMIN, useBootstrappedApi } from '../support/factories';
import { until } from '../support/until';

describe('sign-in throttling', () => {
  const ctx = useBootstrappedApi();
  let n = 0;
  /** Each call looks like a different client behind the proxy unless an address is given. */
  const signIn = (email: string, password: string, address = `198.51.100.${++n}`) =>
    new Client(ctx.api.baseUrl).post('/api/v1/auth/local/sign-in', { email, password }, { headers: { 'x-forwarded-for': address } });

  it('after 10 failures for an account, even the right password gets 429 with Retry-After', async () => {
    await ctx.admin.post('/api/v1/local-users', { email: 'target@example.com', name: 'Target', password: 'the right password', role: 'viewer' });
    for (let i = 0; i < 10; i++) expect((await signIn('target@example.com', `wrong guess ${i}`)).status).toBe(401);
    const blocked = await signIn('Target@Example.com', 'the right password');
    expect(blocked.status).toBe(429);
    expect(blocked.body).toEqual({ error: 'Too many failed sign-in attempts; try again later' });
    // Whole seconds until the 15-minute window of the failures ends.
    const retryAfter = Number(blocked.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(900);
    expect(blocked.cookies).toEqual([]);
    expect((await signIn(ADMIN.email, ADMIN.password)).status).toBe(200);
  });

  it('after 10 failures from one address, every account from it gets 429; other addresses do not', async () => {
    for (let i = 0; i < 10; i++) expect((await signIn(`nobody${i}@example.com`, 'whatever it is', '203.0.113.7')).status).toBe(401);
    expect((await signIn(ADMIN.email, ADMIN.password, '203.0.113.7')).status).toBe(429);
    expect((await signIn(ADMIN.email, ADMIN.password, '203.0.113.8')).status).toBe(200);
  });

  it("a successful sign-in clears the account's count", async () => {
    await ctx.admin.post('/api/v1/local-users', { email: 'forgetful@example.com', name: 'F', password: 'the right password', role: 'viewer' });
    for (let i = 0; i < 9; i++) await signIn('forgetful@example.com', 'wrong');
    expect((await signIn('forgetful@example.com', 'the right password')).status).toBe(200);
    for (let i = 0; i < 9; i++) await signIn('forgetful@example.com', 'wrong');
    expect((await signIn('forgetful@example.com', 'the right password')).status).toBe(200);
  });

  it('unknown accounts are counted like known ones, and look the same when blocked', async () => {
    await ctx.admin.post('/api/v1/local-users', { email: 'known@example.com', name: 'Known', password: 'the right password', role: 'viewer' });
    for (let i = 0; i < 10; i++) await signIn('ghost@example.com', 'wrong');
    for (let i = 0; i < 10; i++) await signIn('known@example.com', 'wrong');
    const ghost = await signIn('ghost@example.com', 'wrong');
    const known = await signIn('known@example.com', 'wrong');
    expect(ghost.status).toBe(429);
    expect(known.status).toBe(429);
    expect(ghost.body).toEqual(known.body);
  });

  it("records each failed attempt on a known account in its Organizations' audit trail", async () => {
    await ctx.admin.post('/api/v1/local-users', { email: 'audited@example.com', name: 'Audited', password: 'the right password', role: 'viewer' });
    for (let i = 0; i < 3; i++) expect((await signIn('audited@example.com', `wrong ${i}`, '192.0.2.44')).status).toBe(401);
    // Each failure is recorded just after its answer (docs/api.md).
    const failures = await until(
      async () => {
        const res = await ctx.admin.get('/api/v1/audit-events?action=session.sign_in&outcome=failed&limit=200');
        const found = res.body.events.filter((e: { detail: { email: string } }) => e.detail.email === 'audited@example.com');
        return found.length === 3 && found;
      },
      10_000,
      'three failed sign-ins audited',
    );
    expect(failures.every((e: { sourceAddress: string }) => e.sourceAddress === '192.0.2.44')).toBe(true);
  });
});
