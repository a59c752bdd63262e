import { Controller, Get, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryModule, DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_METADATA, AccessRule } from '@svc/platform';
import { Client, startApi, TestApi } from '../support/api';

function joinPath(...parts: (string | string[] | undefined)[]): string {
  const segments = parts
    .flatMap((p) => (Array.isArray(p) ? p[0] : p) ?? '')
    .join('/')
    .split('/')
    .filter(Boolean);
  return `/${segments.join('/')}`;
}

function describeRule(rule: AccessRule | undefined): string {
  if (!rule) return 'UNDECLARED';
  if (rule.kind === 'signed-in') return 'signed-in (people only, no API tokens)';
  if (rule.kind !== 'permission') return rule.kind;
  return `permission ${rule.permission}${rule.organizationHeader === 'required' ? ' (X-Svc-Organization required)' : ''}${rule.tokens ? '' : ' (people only, no API tokens)'}`;
}

/** Every route of the API with its declared access and whether unsafe cookie calls need Origin. */
function routeTable(api: TestApi): { line: string; rule: AccessRule | undefined }[] {
  const discovery = api.app.get(DiscoveryService);
  const scanner = api.app.get(MetadataScanner);
  const reflector = api.app.get(Reflector);
  const rows: { line: string; rule: AccessRule | undefined }[] = [];
  for (const wrapper of discovery.getControllers()) {
    const type = wrapper.metatype as Function & { prototype: Record<string, Function> };
    if (!type || type.name === 'ProbeWithoutDeclaration') continue;
    const base = Reflect.getMetadata(PATH_METADATA, type) as string | string[] | undefined;
    for (const name of scanner.getAllMethodNames(type.prototype)) {
      const handler = type.prototype[name];
      const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
      if (method === undefined) continue;
      const path = joinPath(base, Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined);
      const rule = reflector.getAllAndOverride<AccessRule | undefined>(ACCESS_METADATA, [handler, type]);
      const verb = RequestMethod[method];
      const origin = rule && rule.kind !== 'public' && !['GET', 'HEAD', 'OPTIONS'].includes(verb) ? ' [Origin required with cookie]' : '';
      rows.push({ line: `${verb.padEnd(6)} ${path} -> ${describeRule(rule)}${origin}`, rule });
    }
  }
  return rows.sort((a, b) => a.line.localeCompare(b.line));
}

@Controller('api/v1/probe-without-declaration')
class ProbeWithoutDeclaration {
  @Get()
  get() {
    return { leaked: true };
  }
}

describe('route access declarations', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startApi({ extra: { imports: [DiscoveryModule], controllers: [ProbeWithoutDeclaration] } });
  });
  afterAll(() => api?.close());

  it('every route declares who may call it', () => {
    const undeclared = routeTable(api)
      .filter((r) => !r.rule)
      .map((r) => r.line);
    expect(undeclared).toEqual([]);
  });

  it('the table of routes and their access matches the reviewed snapshot (a change here is a permission change)', async () => {
    const table = routeTable(api)
      .map((r) => r.line)
      .join('\n');
    await expect(`${table}\n`).toMatchFileSnapshot('./__snapshots__/route-access.txt');
  });

  it('a route that declares nothing is refused at run time, even to nobody in particular', async () => {
    const res = await new Client(api.baseUrl).get('/api/v1/probe-without-declaration');
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'This route declares no access rule' });
  });
});
