import { ExecutionContext } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import { describe, expect, it } from 'vitest';
import {
  CurrentActor,
  CurrentAuditContext,
  CurrentOrganization,
  CurrentPrincipal,
  CurrentRequestOrigin,
  RequestContextMissingError,
} from './request-context.decorators';
import type { AuthenticatedRequest } from './request-context';

/** The function Nest runs for a parameter decorator, taken from a handler that uses it, as the router does. */
function resolverOf(decorator: () => ParameterDecorator): (data: unknown, ctx: ExecutionContext) => unknown {
  class Probe {
    handler(@decorator() _value: unknown): void {}
  }
  const args = Reflect.getMetadata(ROUTE_ARGS_METADATA, Probe, 'handler') as Record<string, { factory: (data: unknown, ctx: ExecutionContext) => unknown }>;
  return Object.values(args)[0].factory;
}

function httpContext(req: Partial<AuthenticatedRequest>): ExecutionContext {
  const request = { headers: {}, ...req } as AuthenticatedRequest;
  return new ExecutionContextHost([request, {}, () => undefined]);
}

const actor = { kind: 'api_token' as const, id: '018f0000-0000-7000-8000-000000000001', name: 'exporter' };

describe('request context decorators', () => {
  it('CurrentAuditContext: the acting caller, the source address and the request id', () => {
    const ctx = httpContext({ actor, ip: '192.0.2.7', id: 'req-1', headers: { 'user-agent': 'curl/8' } } as Partial<AuthenticatedRequest>);
    expect(resolverOf(CurrentAuditContext)(undefined, ctx)).toEqual({
      actorKind: 'api_token',
      actorId: actor.id,
      actorName: 'exporter',
      sourceAddress: '192.0.2.7',
      requestId: 'req-1',
    });
  });

  it('CurrentAuditContext: anonymous on a route where nobody is authenticated', () => {
    const ctx = httpContext({ ip: '192.0.2.8' } as Partial<AuthenticatedRequest>);
    expect(resolverOf(CurrentAuditContext)(undefined, ctx)).toEqual({
      actorKind: 'anonymous',
      actorId: null,
      actorName: null,
      sourceAddress: '192.0.2.8',
      requestId: null,
    });
  });

  it('CurrentRequestOrigin: user agent, address and request id', () => {
    const ctx = httpContext({ ip: '192.0.2.9', id: 'req-2', headers: { 'user-agent': 'browser' } } as Partial<AuthenticatedRequest>);
    expect(resolverOf(CurrentRequestOrigin)(undefined, ctx)).toEqual({ userAgent: 'browser', address: '192.0.2.9', requestId: 'req-2' });
  });

  it('hand over what the access guard set', () => {
    const organization = { id: 'acme', membership: { id: actor.id, role: 'editor' as const } };
    const ctx = httpContext({ actor, organization });
    expect(resolverOf(CurrentActor)(undefined, ctx)).toBe(actor);
    expect(resolverOf(CurrentOrganization)(undefined, ctx)).toBe(organization);
  });

  it('fail loudly where the route cannot provide them: a wiring bug, not a caller error', () => {
    const ctx = httpContext({});
    expect(() => resolverOf(CurrentPrincipal)(undefined, ctx)).toThrow(RequestContextMissingError);
    expect(() => resolverOf(CurrentActor)(undefined, ctx)).toThrow(RequestContextMissingError);
    expect(() => resolverOf(CurrentOrganization)(undefined, ctx)).toThrow(RequestContextMissingError);
    const rpc = new ExecutionContextHost([{}, {}, {}]);
    rpc.setType('rpc');
    expect(() => resolverOf(CurrentAuditContext)(undefined, rpc)).toThrow(RequestContextMissingError);
  });
});
