import { Injectable, Logger } from '@nestjs/common';
import type { Express, NextFunction, Request, Response } from 'express';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { logFailure } from './all-exceptions.filter';
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
  /** A route that takes no body: a request that sends one goes to Nest, whose route refuses it. */
  bodiless?: boolean;
}

export interface LeanRoutedRequest extends Request {
  /** Set when a lean route answered the request: its template. */
  leanRoute?: string;
}

/** A step of the request pipeline that calls `next` before it returns (see configureHttpApp). */
export type PipelineStep = (req: Request, res: Response, next: NextFunction) => void;

/**
 * Routes answered ahead of Express and Nest: for a hot public route with its own authentication
 * and body handling. The server's request listener matches them first; a match gets Express's
 * request and response objects (as Express itself would make them), then the pipeline's common
 * steps (security headers, X-Forwarded-For hygiene, request id, access log, metrics, no-store)
 * called in order, then its handler, with none of Express's router, Nest's router, guards,
 * interceptors or per-request logger binding in between. A thrown error leaves in the contract's
 * Error body as through the exception filter. A request with a query string, another method or a
 * path that is not an exact match goes to Express, and so to Nest, whose route of the same path
 * (kept for OpenAPI and as the reference) applies the usual rules.
 */
@Injectable()
export class LeanRoutes {
  private readonly logger = new Logger('HTTP');
  private readonly routes: LeanRoute[] = [];

  register(route: LeanRoute): void {
    this.routes.push(route);
  }

  /**
   * Puts the lean routes in front of the server's request listener (Express, which Nest's HTTP
   * server was created with); `steps` run for every lean request before its handler.
   */
  attach(server: Server, express: Express, steps: PipelineStep[]): void {
    const [fallback] = server.listeners('request') as Array<(req: IncomingMessage, res: ServerResponse) => void>;
    server.removeListener('request', fallback);
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      const matched = this.match(req);
      if (!matched) return fallback(req, res);
      // What Express's app.handle does before its router: its request and response prototypes.
      const request = Object.setPrototypeOf(req, express.request as object) as LeanRoutedRequest;
      const response = Object.setPrototypeOf(res, express.response as object) as Response;
      (request as { res?: Response }).res = response;
      (response as { req?: Request }).req = request;
      request.leanRoute = matched.route.template;
      let step = 0;
      const next = (error?: unknown): void => {
        if (error !== undefined) return this.fail(request, response, error);
        const current = steps[step++];
        if (current) return current(request, response, next);
        matched.route.handle(request, response, matched.captures).catch((failure: unknown) => this.fail(request, response, failure));
      };
      next();
    });
  }

  private match(req: IncomingMessage): { route: LeanRoute; captures: string[] } | null {
    const url = req.url ?? '';
    if (this.routes.length === 0 || url.includes('?')) return null;
    const hasBody = req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] ?? '0') !== '0';
    for (const route of this.routes) {
      if (route.method !== req.method || (route.bodiless && hasBody)) continue;
      const match = route.pattern.exec(url);
      if (!match) continue;
      try {
        return { route, captures: match.slice(1).map((c) => decodeURIComponent(c)) };
      } catch {
        return null;
      }
    }
    return null;
  }

  private fail(req: LeanRoutedRequest, res: Response, error: unknown): void {
    const response = toErrorResponse(error);
    logFailure(this.logger, req, error, response);
    sendError(res, response);
  }
}
