import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import type { Request } from 'express';
import { InvalidInputError } from './domain-error';

interface RouteArg {
  index: number;
  data?: unknown;
}

/**
 * ValidationPipe refuses unknown properties of a declared DTO. This covers the routes that declare
 * none: a query string on a route that takes no query, or a body on one that takes no body, is a
 * client mistake and gets 400 instead of being ignored. A guard (registered after the access guard,
 * so a caller who may not call the route learns nothing about its input first) rather than an
 * interceptor: it only checks, and an interceptor costs every request an Observable chain.
 */
@Injectable()
export class InputShapeGuard implements CanActivate {
  private readonly cache = new WeakMap<Function, { query: boolean; body: boolean }>();

  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    const handler = context.getHandler();
    let accepts = this.cache.get(handler);
    if (!accepts) {
      const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, context.getClass(), handler.name) ?? {}) as Record<string, RouteArg>;
      const kinds = Object.keys(args).map((key) => Number(key.split(':')[0]));
      accepts = { query: kinds.includes(RouteParamtypes.QUERY), body: kinds.includes(RouteParamtypes.BODY) };
      this.cache.set(handler, accepts);
    }
    const req = context.switchToHttp().getRequest<Request>();
    if (!accepts.query) {
      const unknown = Object.keys(req.query ?? {});
      if (unknown.length > 0) throw new InvalidInputError(`Unknown query parameter: ${unknown.slice(0, 5).join(', ')}`);
    }
    if (!accepts.body && req.body !== undefined && req.body !== null) {
      const empty = typeof req.body === 'object' && !Array.isArray(req.body) && Object.keys(req.body as object).length === 0;
      if (!empty) throw new InvalidInputError('This operation takes no request body');
    }
    return true;
  }
}
