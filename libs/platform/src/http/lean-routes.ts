import { Injectable, Logger } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { toErrorResponse } from './error-body';
import { sendError } from './send-error';

/** A route answered ahead of Nest's router: `handle` writes the response or throws. */
export interface LeanRoute {
  method: string;
  /** Matched against the path exactly; the captures are passed to `handle`, URI-decoded. */
  pattern: RegExp;
  /** The route's template, for the metrics' route label (as Nest's router would give it). */
  template: string;
  handle(req: Request, res: Response, captures: string[]): Promise<void>;
}

export interface LeanRoutedRequest extends Request {
  /** Set when a lean route answered the request: its template. */
  leanRoute?: string;
}

/**
 * Routes that skip Nest's router, guards, interceptors and per-request logger binding: for a hot
 * public route with its own authentication and body handling. They run after the request id,
 * access log, metrics and no-store middleware (configureHttpApp), so those hold for them as for
 * any route, and a thrown error leaves in the contract's Error body as through the exception
 * filter. A request with a query string, another method or a path that is not an exact match
 * falls through to Nest, whose route of the same path (kept for OpenAPI and as the reference)
 * applies the usual rules.
 */
@Injectable()
export class LeanRoutes {
  private readonly logger = new Logger('HTTP');
  private readonly routes: LeanRoute[] = [];

  register(route: LeanRoute): void {
    this.routes.push(route);
  }

  middleware() {
    return (req: Request, res: Response, next: NextFunction): void => {
      if (this.routes.length === 0 || req.url.includes('?')) return next();
      for (const route of this.routes) {
        if (route.method !== req.method) continue;
        const match = route.pattern.exec(req.url);
        if (!match) continue;
        let captures: string[];
        try {
          captures = match.slice(1).map((c) => decodeURIComponent(c));
        } catch {
          return next();
        }
        (req as LeanRoutedRequest).leanRoute = route.template;
        route.handle(req, res, captures).catch((error: unknown) => {
          const response = toErrorResponse(error);
          if (response.status >= 500) this.logger.error({ err: error, requestId: req.id, method: req.method, path: req.path }, 'Request failed');
          sendError(res, response);
        });
        return;
      }
      next();
    };
  }
}
