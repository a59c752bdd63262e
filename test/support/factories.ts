import { DataSource } from 'typeorm';
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
 * A user with a role in an Organization, signed in over HTTP. Members are written to the database
 * directly here because member administration is not part of this release's API.
 */
export async function signedInMember(api: TestApi, organizationId: string, role: Role, dataSource: DataSource = api.dataSource) {
  counter += 1;
  const email = `member${counter}-${role}@example.com`;
  const password = 'a long enough password';
  const argon2 = await import('argon2');
  const hash = await argon2.hash(password, { type: argon2.argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 });
  const { v7 } = await import('uuid');
  const userId = v7();
  await dataSource.query('INSERT INTO users (id, email, name, password_hash) VALUES ($1, $2, $3, $4)', [userId, email, `Member ${counter}`, hash]);
  await dataSource.query('INSERT INTO memberships (organization_id, id, user_id, role) VALUES ($1, $2, $3, $4)', [organizationId, v7(), userId, role]);
  const client = new Client(api.baseUrl);
  const res = await client.post('/api/v1/auth/local/sign-in', { email, password });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${res.text}`);
  return { client, userId, email, password };
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
