import type { Request } from 'express';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LeanRoutedRequest } from '../http/lean-routes';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * One registry per process: Node's default metrics, the HTTP request histogram, and the bytes the
 * outbound client read. Libraries register their own metrics in `registry`.
 */
export class Metrics {
  readonly registry = new Registry();
  readonly httpDuration: Histogram<'method' | 'route' | 'status'>;
  readonly httpRequests: Counter<'method' | 'route' | 'status'>;
  readonly outboundResponseBytes: Counter;

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
    this.outboundResponseBytes = new Counter({
      name: 'outbound_response_bytes_total',
      help: "Bytes of answers read from integrations' servers through the outbound client; each read stops at its cap",
      registers: [this.registry],
    });
  }

  /** The request histogram and counter of each label set, looked up once (prom-client hashes the labels on every call otherwise). */
  private readonly series = new Map<string, { duration: Histogram.Internal<'method' | 'route' | 'status'>; requests: Counter.Internal }>();

  private seriesOf(method: string, route: string, status: string): { duration: Histogram.Internal<'method' | 'route' | 'status'>; requests: Counter.Internal } {
    const key = `${method} ${status} ${route}`;
    let found = this.series.get(key);
    if (!found) {
      const labels = { method, route, status };
      found = { duration: this.httpDuration.labels(labels), requests: this.httpRequests.labels(labels) };
      this.series.set(key, found);
    }
    return found;
  }

  /**
   * A pipeline step; labels by route template (never the raw path, which would explode cardinality):
   * a lean route's, else the one Express's router matched.
   */
  middleware() {
    return (req: IncomingMessage, res: ServerResponse, next: () => void) => {
      const started = performance.now();
      res.on('finish', () => {
        const routed = req as LeanRoutedRequest & Partial<Pick<Request, 'route' | 'baseUrl'>>;
        const routePath = (routed.route as { path?: string } | undefined)?.path;
        const route = routed.leanRoute ?? (routePath ? `${routed.baseUrl ?? ''}${routePath}` : 'unmatched');
        const series = this.seriesOf(req.method ?? '', route, String(res.statusCode));
        series.duration.observe((performance.now() - started) / 1000);
        series.requests.inc();
      });
      next();
    };
  }
}
