import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryModule, DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_METADATA, AccessRule, minimumRole, Role, roleAtLeast } from '@svc/platform';
import { Client, startApi, TestApi } from '../support/api';
import { bootstrap, signedInMember } from '../support/factories';

interface Route { method: string; path: string; rule: AccessRule }

const PLACEHOLDER = '0190a000-0000-7000-8000-000000000000';
const ROLES: Role[] = ['viewer', 'editor', 'admin'];

function routes(api: TestApi): Route[] {
  const discovery = api.app.get(DiscoveryService);
  const scanner = api.app.get(MetadataScanner);
  const reflector = api.app.get(Reflector);
  const out: Route[] = [];
  for (const wrapper of discovery.getControllers()) {
    const type = wrapper.metatype as Function & { prototype: Record<string, Function> };
    const base = String(Reflect.getMetadata(PATH_METADATA, type) ?? '');
    for (const name of scanner.getAllMethodNames(type.prototype)) {
      const handler = type.prototype[name];
      const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
      if (method === undefined) continue;
      const sub = String(Reflect.getMetadata(PATH_METADATA, handler) ?? '');
      const path = `/${[base, sub].join('/').split('/').filter(Boolean).join('/')}`.replace(/:[A-Za-z]+/g, PLACEHOLDER);
      out.push({ method: RequestMethod[method], path, rule: reflector.getAllAndOverride<AccessRule>(ACCESS_METADATA, [handler, type]) });
    }
  }
  return out;
}

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Every route against every kind of caller, at run time: the guard must do what the route
 * declares. Requests carry an empty body and placeholder ids, so an allowed call ends in a 2xx,
 * 400, 404 or 409, never in 401/403; a refused one ends in exactly 401 or 403.
 */
describe('route × role matrix', () => {
  let api: TestApi;
  let table: Route[];
  const signIns: Record<Role, () => Promise<Client>> = {} as never;
  const tokens: Record<Role, string> = {} as never;

  beforeAll(async () => {
    api = await startApi({ extra: { imports: [DiscoveryModule] } });
    await bootstrap(api);
    for (const role of ROLES) {
      const { email, password } = await signedInMember(api, 'acme', role);
      // A fresh session for every call: some routes (sign-out) end the session they run in.
      signIns[role] = async () => {
        const client = new Client(api.baseUrl);
        const res = await client.post('/api/v1/auth/local/sign-in', { email, password });
        if (res.status !== 200) throw new Error(`sign-in failed: ${res.status}`);
        return client;
      };
    }
    table = routes(api).filter((r) => r.rule.kind !== 'public');
    const admin = await signIns.admin();
    for (const role of ROLES) {
      const res = await admin.post('/api/v1/api-tokens', { name: `${role} matrix`, role, expiresAt: new Date(Date.now() + 86400_000).toISOString() });
      tokens[role] = res.body.token;
    }
  });
  afterAll(() => api?.close());

  const call = (client: Client, route: Route, origin?: false) =>
    client.request(route.method, route.path, { body: UNSAFE.has(route.method) ? {} : undefined, headers: { 'x-svc-organization': 'acme' }, origin });

  it('covers every protected route', () => {
    expect(table.length).toBeGreaterThanOrEqual(15);
  });

  it('anonymous callers get 401 on every protected route', async () => {
    for (const route of table) {
      const res = await call(new Client(api.baseUrl), route);
      expect(res.status, `${route.method} ${route.path}`).toBe(401);
      expect(res.body.reason, `${route.method} ${route.path}`).toBe('credential_rejected');
    }
  });

  it('each role is allowed exactly where its declaration says, and refused with `requires` elsewhere', async () => {
    const failures: string[] = [];
    for (const route of table) {
      for (const role of ROLES) {
        const res = await call(await signIns[role](), route);
        const allowed = route.rule.kind === 'signed-in' || (route.rule.kind === 'permission' && roleAtLeast(role, minimumRole(route.rule.permission)));
        const label = `${role} ${route.method} ${route.path} -> ${res.status}`;
        if (allowed && [401, 403].includes(res.status)) failures.push(`${label} (should be allowed) ${res.text}`);
        if (!allowed) {
          if (res.status !== 403) failures.push(`${label} (should be 403)`);
          else if (route.rule.kind === 'permission' && res.body.requires !== route.rule.permission) failures.push(`${label} requires=${res.body.requires}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('API tokens of each role are allowed where the route takes tokens and the role suffices, refused elsewhere', async () => {
    const failures: string[] = [];
    for (const route of table) {
      for (const role of ROLES) {
        const res = await new Client(api.baseUrl).request(route.method, route.path, {
          body: UNSAFE.has(route.method) ? {} : undefined, origin: false,
          headers: { 'x-svc-organization': 'acme', authorization: `Bearer ${tokens[role]}` },
        });
        const allowed = route.rule.kind === 'permission' && route.rule.tokens && roleAtLeast(role, minimumRole(route.rule.permission));
        const label = `${role} token ${route.method} ${route.path} -> ${res.status}`;
        if (allowed && [401, 403].includes(res.status)) failures.push(`${label} (should be allowed) ${res.text}`);
        if (!allowed && res.status !== 403) failures.push(`${label} (should be 403)`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('every unsafe route refuses a cookie-authenticated call without Origin', async () => {
    for (const route of table.filter((r) => UNSAFE.has(r.method))) {
      const res = await call(await signIns.admin(), route, false);
      expect(res.status, `${route.method} ${route.path}`).toBe(403);
      expect(res.body.error, `${route.method} ${route.path}`).toMatch(/Origin/);
    }
  });
});
