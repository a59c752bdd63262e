import type { NextFunction, Request, Response } from 'express';
import type { LeanRoutedRequest } from '../http/lean-routes';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** One registry per process: Node's default metrics plus the HTTP request histogram. */
export class Metrics {
  readonly registry = new Registry();
  readonly httpDuration: Histogram<'method' | 'route' | 'status'>;
  readonly httpRequests: Counter<'method' | 'route' | 'status'>;

  constructor() {
    collectDefaultMetrics({ register: this.registry });
    this.httpDuration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Duration of HTTP requests by route template and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
      registers: [this.registry],
    });
    this.httpRequests = new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests by route template and status',
      labelNames: ['method', 'route', 'status'],
      registers: [this.registry],
    });
  }

  /** Express middleware; labels by route template (never the raw path, which would explode cardinality). */
  middleware() {
    return (req: Request, res: Response, next: NextFunction) => {
      const stop = this.httpDuration.startTimer();
      res.on('finish', () => {
        const routePath = (req.route as { path?: string } | undefined)?.path;
        const route = (req as LeanRoutedRequest).leanRoute ?? (routePath ? `${req.baseUrl}${routePath}` : 'unmatched');
        const labels = { method: req.method, route, status: String(res.statusCode) };
        stop(labels);
        this.httpRequests.inc(labels);
      });
      next();
    };
  }
}
