import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryModule, DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_METADATA, AccessRule, Role } from '@svc/platform';
import { Client, startApi, TestApi } from '../support/api';
import { bootstrap, signedInMember } from '../support/factories';

interface Route {
  method: string;
  path: string;
  rule: AccessRule;
}

const PLACEHOLDER = '0190a000-0000-7000-8000-000000000000';
const ROLES: Role[] = ['viewer', 'editor', 'admin'];
const RANK: Record<Role, number> = { viewer: 0, editor: 1, admin: 2 };

/**
 * The least role of every permission, written down here from the contract (the spec's role table
 * and decisions §3), not read from the table the guard uses, so a change there shows up here.
 * Every read is Viewer. Editors merge incidents, open and cancel investigations, write
 * conversations and postmortems. Admins change integrations, members and local users, policy,
 * relays, API tokens (only Admins mint and revoke them, decisions §2; listing them is a read, so a
 * Viewer lists the Organization's tokens, never their values: docs/api.md), webhook replays and
 * chat recovery, revoke other people's sessions, and create Organizations.
 */
const EXPECTED_MINIMUM: Record<string, Role> = {
  'organizations:read': 'viewer',
  'organizations:create': 'admin',
  'members:read': 'viewer',
  'members:write': 'admin',
  'sessions:revoke-others': 'admin',
  'policy:read': 'viewer',
  'policy:write': 'admin',
  'api-tokens:read': 'viewer',
  'api-tokens:write': 'admin',
  'audit-events:read': 'viewer',
  'integrations:read': 'viewer',
  'integrations:write': 'admin',
  'webhook-deliveries:read': 'viewer',
  'webhook-deliveries:replay': 'admin',
  'changes:read': 'viewer',
  'incidents:read': 'viewer',
  'incidents:merge': 'editor',
  'investigations:read': 'viewer',
  'investigations:open': 'editor',
  'investigations:cancel': 'editor',
  'conversations:read': 'viewer',
  'conversations:write': 'editor',
  'postmortems:read': 'viewer',
  'postmortems:write': 'editor',
  'relays:read': 'viewer',
  'relays:write': 'admin',
  'chat:recover': 'admin',
};

/** Whether `role` may call a route with this rule, by the pinned table. */
function allowedByContract(rule: AccessRule, role: Role): boolean {
  if (rule.kind === 'signed-in') return true;
  if (rule.kind !== 'permission') return false;
  const minimum = EXPECTED_MINIMUM[rule.permission];
  return minimum !== undefined && RANK[role] >= RANK[minimum];
}

/** An allowed call may fail on its empty body or placeholder ids, but never as refused (401/403) nor as broken (5xx). */
function allowedOutcome(status: number): boolean {
  return status < 500 && status !== 401 && status !== 403;
}

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
 * 400, 404 or 409, never in 401/403 nor 5xx; a refused one ends in exactly 401 or 403.
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

  it('every route declares its access, and every permission a route requires has a pinned minimum role', () => {
    expect(
      routes(api)
        .filter((r) => r.rule === undefined)
        .map((r) => `${r.method} ${r.path}`),
    ).toEqual([]);
    expect(table.length).toBeGreaterThanOrEqual(15);
    const unpinned = table.filter((r) => r.rule.kind === 'permission' && !(r.rule.permission in EXPECTED_MINIMUM));
    expect(unpinned.map((r) => `${r.method} ${r.path}`)).toEqual([]);
  });

  it('covers the postmortem routes: reads for Viewers, writes for Editors, review by people only', () => {
    const postmortems = table
      .filter((r) => r.path.includes('/postmortem'))
      .map(
        (r) =>
          `${r.method} ${r.path.replaceAll(PLACEHOLDER, '{incident}')} ${r.rule.kind === 'permission' ? `${r.rule.permission}${r.rule.tokens ? '' : ' people-only'}` : r.rule.kind}`,
      )
      .sort();
    expect(postmortems).toEqual([
      'GET /api/v1/incidents/{incident}/postmortem postmortems:read',
      'GET /api/v1/incidents/{incident}/postmortem/report postmortems:read',
      'GET /api/v1/incidents/{incident}/postmortem/revisions/{incident} postmortems:read',
      'PATCH /api/v1/incidents/{incident}/postmortem postmortems:write',
      'POST /api/v1/incidents/{incident}/postmortem postmortems:write',
      'POST /api/v1/incidents/{incident}/postmortem/regenerate postmortems:write',
      'POST /api/v1/incidents/{incident}/postmortem/review postmortems:write people-only',
    ]);
  });

  it('covers the chat and OAuth connect routes: recovery for Admins, connect for Admins in person', () => {
    const chat = table
      .filter((r) => r.path.includes('/chat/') || r.path.includes('/connect'))
      .map(
        (r) =>
          `${r.method} ${r.path.replaceAll(PLACEHOLDER, '{id}')} ${r.rule.kind === 'permission' ? `${r.rule.permission}${r.rule.tokens ? '' : ' people-only'}` : r.rule.kind}`,
      )
      .sort();
    expect(chat).toEqual([
      'GET /api/v1/integrations/connect/callback integrations:write people-only',
      'POST /api/v1/chat/conversations/{id}/messages/{id}/recover chat:recover',
      'POST /api/v1/integration-types/{id}/connect integrations:write people-only',
    ]);
  });

  it('GET /api/v1/permissions lists for each role exactly the permissions the contract gives it', async () => {
    for (const role of ROLES) {
      const res = await (await signIns[role]()).get('/api/v1/permissions', { headers: { 'x-svc-organization': 'acme' } });
      expect(res.status).toBe(200);
      const expected = Object.keys(EXPECTED_MINIMUM)
        .filter((p) => RANK[role] >= RANK[EXPECTED_MINIMUM[p]])
        .sort();
      expect({ role: res.body.role, permissions: [...res.body.permissions].sort() }).toEqual({ role, permissions: expected });
    }
  });

  it('anonymous callers get 401 on every protected route', async () => {
    for (const route of table) {
      const res = await call(new Client(api.baseUrl), route);
      expect(res.status, `${route.method} ${route.path}`).toBe(401);
      expect(res.body.reason, `${route.method} ${route.path}`).toBe('credential_rejected');
    }
  });

  // Three fresh sign-ins (argon2id each) per route: the time grows with the route table.
  it(
    "each role is allowed (neither 401/403 nor 5xx) exactly where the contract's minimum role says, and refused with `requires` elsewhere",
    // A fresh sign-in (argon2) per call: the whole table takes a while on a small machine.
    { timeout: 180_000 },
    async () => {
      const failures: string[] = [];
      for (const route of table) {
        for (const role of ROLES) {
          const res = await call(await signIns[role](), route);
          const allowed = allowedByContract(route.rule, role);
          const label = `${role} ${route.method} ${route.path} -> ${res.status}`;
          if (allowed && !allowedOutcome(res.status)) failures.push(`${label} (should be allowed) ${res.text}`);
          if (!allowed) {
            if (res.status !== 403) failures.push(`${label} (should be 403)`);
            else if (route.rule.kind === 'permission' && res.body.requires !== route.rule.permission) failures.push(`${label} requires=${res.body.requires}`);
          }
        }
      }
      expect(failures).toEqual([]);
    },
  );

  it('API tokens of each role are allowed where the route takes tokens and the role suffices, refused elsewhere', async () => {
    const failures: string[] = [];
    for (const route of table) {
      for (const role of ROLES) {
        const res = await new Client(api.baseUrl).request(route.method, route.path, {
          body: UNSAFE.has(route.method) ? {} : undefined,
          origin: false,
          headers: { 'x-svc-organization': 'acme', authorization: `Bearer ${tokens[role]}` },
        });
        const allowed = route.rule.kind === 'permission' && route.rule.tokens && allowedByContract(route.rule, role);
        const label = `${role} token ${route.method} ${route.path} -> ${res.status}`;
        if (allowed && !allowedOutcome(res.status)) failures.push(`${label} (should be allowed) ${res.text}`);
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
