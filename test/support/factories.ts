import { afterAll, beforeAll } from 'vitest';
import type { Role } from '@svc/platform';
import { BOOTSTRAP_CREDENTIAL, Client, startApi, TestApi } from './api';

export const ADMIN = { email: 'ada@example.com', name: 'Ada Admin', password: 'correct horse battery staple' };

/** Bootstraps the deployment over HTTP; returns the signed-in admin client and the Organization. */
export async function bootstrap(api: TestApi, organization = { id: 'acme', displayName: 'Acme' }) {
  const admin = new Client(api.baseUrl);
  const res = await admin.post('/api/v1/auth/local/bootstrap', { organization, user: ADMIN }, { headers: { authorization: `Bearer ${BOOTSTRAP_CREDENTIAL}` } });
  if (res.status !== 201) throw new Error(`bootstrap failed: ${res.status} ${res.text}`);
  return { admin, organization, user: res.body.user as { id: string; email: string; name: string } };
}

let counter = 0;

/**
 * A new local user with `role` in the Organization, created over HTTP by an Admin of it (the
 * bootstrap Admin, signed in anew, unless `admin` is given), and signed in over HTTP.
 */
export async function signedInMember(api: TestApi, organizationId: string, role: Role, admin?: Client) {
  counter += 1;
  const email = `member${counter}-${role}@example.com`;
  const password = 'a long enough password';
  const creator = admin ?? (await signInAdmin(api));
  const created = await creator.post(
    '/api/v1/local-users',
    { email, name: `Member ${counter}`, password, role },
    { headers: { 'x-svc-organization': organizationId } },
  );
  if (created.status !== 201) throw new Error(`creating the member failed: ${created.status} ${created.text}`);
  const client = new Client(api.baseUrl);
  const res = await client.post('/api/v1/auth/local/sign-in', { email, password });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${res.text}`);
  return { client, userId: created.body.id as string, email, password };
}

/** A fresh API, bootstrapped, for one describe block: `ctx.api` and the signed-in `ctx.admin`. */
export function useBootstrappedApi(options?: Parameters<typeof startApi>[0]) {
  const ctx = {} as { api: TestApi; admin: Client };
  beforeAll(async () => {
    ctx.api = await startApi(options);
    ({ admin: ctx.admin } = await bootstrap(ctx.api));
  });
  afterAll(() => ctx.api?.close());
  return ctx;
}

/** A new browser session of the bootstrap Admin. */
export async function signInAdmin(api: TestApi): Promise<Client> {
  const client = new Client(api.baseUrl);
  const res = await client.post('/api/v1/auth/local/sign-in', { email: ADMIN.email, password: ADMIN.password });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${res.text}`);
  return client;
}
