import { describe, expect, it } from 'vitest';
import { loadConfig } from '@svc/platform';
import { Client, HttpResult } from '../support/api';
import { useBootstrappedApi } from '../support/factories';
import { until } from '../support/until';

const PASSWORD = 'the right password';

/** Creates a known account, fails its sign-in once with the given X-Forwarded-For, and returns the audit event's sourceAddress. */
async function failedSignInAddress(ctx: ReturnType<typeof useBootstrappedApi>, email: string, forwardedFor: string): Promise<string> {
  expect((await ctx.admin.post('/api/v1/local-users', { email, name: 'Someone', password: PASSWORD, role: 'viewer' })).status).toBe(201);
  const res = await new Client(ctx.api.baseUrl).post(
    '/api/v1/auth/local/sign-in',
    { email, password: 'wrong' },
    { headers: { 'x-forwarded-for': forwardedFor } },
  );
  expect(res.status).toBe(401);
  const event = await until(
    async () => {
      const events = await ctx.admin.get('/api/v1/audit-events?action=session.sign_in&outcome=failed&limit=200');
      return events.body.events.find((e: { detail: { email: string } }) => e.detail.email === email);
    },
    10_000,
    `the failed sign-in of ${email} audited`,
  );
  return event.sourceAddress;
}

describe('X-Forwarded-For from a peer that is not a trusted proxy', () => {
  const ctx = useBootstrappedApi({ env: { SVC_TRUSTED_PROXIES: 'none' } });

  it('a forged X-Forwarded-For does not change the audit source address', async () => {
    expect(await failedSignInAddress(ctx, 'forged@example.com', '198.51.100.77')).toBe('127.0.0.1');
  });
});

// An API of its own: the test spends the peer's sign-in failures, which the other tests need.
describe('X-Forwarded-For from a peer that is not a trusted proxy, against the sign-in limit', () => {
  const ctx = useBootstrappedApi({ env: { SVC_TRUSTED_PROXIES: 'none' } });

  it("a forged X-Forwarded-For does not rotate past the per-address sign-in limit: the peer's failures count", async () => {
    const attempt = (i: number): Promise<HttpResult> =>
      new Client(ctx.api.baseUrl).post(
        '/api/v1/auth/local/sign-in',
        { email: `rotating${i}@example.com`, password: 'whatever it is' },
        { headers: { 'x-forwarded-for': `203.0.113.${i + 1}` } },
      );
    // Ten failures from the one peer, each claiming another address; the eleventh attempt is refused.
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await attempt(i)).status);
    expect(statuses).toEqual([...Array(10).fill(401), 429]);
  });
});

describe('X-Forwarded-For through a trusted proxy (SVC_TRUSTED_PROXIES=127.0.0.1)', () => {
  const ctx = useBootstrappedApi({ env: { SVC_TRUSTED_PROXIES: '127.0.0.1' } });

  it("the header's last address not in the list is the source address", async () => {
    // 10.1.2.3 is private but not listed, so it is the client (a private peer is not trusted by itself).
    expect(await failedSignInAddress(ctx, 'proxied@example.com', '198.51.100.4, 10.1.2.3')).toBe('10.1.2.3');
    expect(await failedSignInAddress(ctx, 'single@example.com', '198.51.100.5')).toBe('198.51.100.5');
  });

  it('a value that is not an IP address falls back to the peer address', async () => {
    expect(await failedSignInAddress(ctx, 'garbage@example.com', 'not-an-address')).toBe('127.0.0.1');
    expect(await failedSignInAddress(ctx, 'garbage2@example.com', '198.51.100.6, 999.1.1.1')).toBe('127.0.0.1');
    // Entries left of a bad one were written by the client, and are not needed.
    expect(await failedSignInAddress(ctx, 'garbage3@example.com', 'junk, 198.51.100.7')).toBe('198.51.100.7');
  });
});

describe('SVC_TRUSTED_PROXIES at boot', () => {
  it('accepts addresses, CIDRs, the named ranges and none, and refuses anything else naming the variable', () => {
    for (const value of ['127.0.0.1', '172.30.0.0/24, ::1', 'loopback,uniquelocal', 'none', '']) {
      expect(() => loadConfig({ SVC_TRUSTED_PROXIES: value })).not.toThrow();
    }
    for (const value of ['10.0.0.0/33', 'nginx', '127.0.0.1/x', 'none,127.0.0.1']) {
      expect(() => loadConfig({ SVC_TRUSTED_PROXIES: value })).toThrow(/SVC_TRUSTED_PROXIES/);
    }
  });
});
