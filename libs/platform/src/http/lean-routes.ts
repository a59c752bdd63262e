import { Injectable, Logger } from '@nestjs/common';
import type { Express } from 'express';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import proxyAddr from 'proxy-addr';
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
  handle(req: LeanRequest, res: ServerResponse, captures: string[]): Promise<void>;
  /** A route that takes no body: a request that sends one goes to Nest, whose route refuses it. */
  bodiless?: boolean;
}

/**
 * What a lean route's handler gets: Node's own request (not Express's), with the fields the shared
 * code reads set once: the client's address as Express's `req.ip` gives it (the same proxy-addr
 * call with the same trusted proxies), the path without the query, and the route's template.
 */
export interface LeanRequest extends IncomingMessage {
  ip: string;
  path: string;
  leanRoute: string;
}

export interface LeanRoutedRequest extends IncomingMessage {
  /** Set when a lean route answered the request: its template. */
  leanRoute?: string;
}

/**
 * A step of the request pipeline that calls `next` before it returns (see configureHttpApp): Node's
 * request and response only, so the same steps serve Express's requests and lean routes'.
 */
export type PipelineStep = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;

/**
 * Routes answered ahead of Express and Nest: for a hot route with its own authentication and body
 * handling. The server's request listener matches them first; a match gets Node's request and
 * response objects as the server made them (see LeanRequest), then the pipeline's common steps
 * (security headers, X-Forwarded-For hygiene, request id, access log, metrics, no-store) called in
 * order, then its handler, with none of Express's router, Nest's router, guards, interceptors or
 * per-request logger binding in between. A thrown error leaves in the contract's Error body as
 * through the exception filter. A request with a query string, another method or a path that is
 * not an exact match goes to Express, and so to Nest, whose route of the same path (kept for
 * OpenAPI and as the reference) applies the usual rules.
 *
 * Why not Express's objects: Express gives each request its request and response prototypes
 * (`Object.setPrototypeOf`), after which V8 stores every property added to the request on its
 * slow path; measured on a session read, that swap and its consequences cost more than half the
 * process's time per request.
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
    // The trusted proxies as Express compiled them from its `trust proxy` setting (looked up when used, as Express does).
    const trusted = (): ((address: string, hop: number) => boolean) => express.get('trust proxy fn') as (address: string, hop: number) => boolean;
    server.removeListener('request', fallback);
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      const matched = this.match(req);
      if (!matched) return fallback(req, res);
      const request = req as LeanRequest;
      request.leanRoute = matched.route.template;
      request.path = matched.path;
      let step = 0;
      const next = (error?: unknown): void => {
        if (error !== undefined) return this.fail(request, res, error);
        const current = steps[step++];
        if (current) return current(request, res, next);
        // After X-Forwarded-For hygiene, as Express's getter would read it.
        request.ip = proxyAddr(request, trusted());
        matched.route.handle(request, res, matched.captures).catch((failure: unknown) => this.fail(request, res, failure));
      };
      next();
    });
  }

  private match(req: IncomingMessage): { route: LeanRoute; path: string; captures: string[] } | null {
    const url = req.url ?? '';
    if (this.routes.length === 0 || url.includes('?')) return null;
    const hasBody = req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] ?? '0') !== '0';
    for (const route of this.routes) {
      if (route.method !== req.method || (route.bodiless && hasBody)) continue;
      const match = route.pattern.exec(url);
      if (!match) continue;
      try {
        return { route, path: url, captures: match.slice(1).map((c) => decodeURIComponent(c)) };
      } catch {
        return null;
      }
    }
    return null;
  }

  private fail(req: LeanRequest, res: ServerResponse, error: unknown): void {
    const response = toErrorResponse(error);
    logFailure(this.logger, req, error, response);
    sendError(res, response);
  }
}
