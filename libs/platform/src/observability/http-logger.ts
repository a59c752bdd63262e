import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';

const NOT_LOGGED = new Set(['/healthz', '/readyz', '/metrics']);

type LoggedRequest = IncomingMessage & { id: string; log?: Logger };

/**
 * One access line per request, written through the process's pino logger when the response has
 * been sent (or the client went away): `req` (id, method, path without the query, user agent,
 * remote address), `res.statusCode`, `responseTime` in ms; level error for 5xx but 503 (warn: load shed or a
 * dependency not answering, which the line of the failure explains). Health probes and
 * metrics scrapes are not logged. `req.log` is a child logger bound to the request id, for the
 * lines code logs while handling the request (not made with `childLogger: false`, for lean routes,
 * whose code runs outside Nest's request-scoped logging). Hand-made rather than pino-http, which serialized
 * the whole request into a child logger up front and cost about a tenth of a webhook delivery.
 */
export function createHttpLogger(logger: Logger, options: { childLogger?: boolean } = {}) {
  const childLogger = options.childLogger ?? true;
  // The access line is made of the fields above only, none of them a secret: it skips the root
  // logger's redaction (about half the cost of writing a line); what code logs keeps it.
  const access = logger.child({}, { redact: { paths: [] } });
  return (req: IncomingMessage, res: ServerResponse, next: () => void): void => {
    const request = req as LoggedRequest;
    const url = req.url ?? '';
    const query = url.indexOf('?');
    const path = query === -1 ? url : url.slice(0, query);
    if (childLogger) request.log = logger.child({ req: { id: request.id } });
    if (NOT_LOGGED.has(path)) {
      next();
      return;
    }
    const started = performance.now();
    const done = (): void => {
      res.removeListener('finish', done);
      res.removeListener('close', done);
      const line = {
        req: { id: request.id, method: req.method, path, userAgent: req.headers['user-agent'], remoteAddress: req.socket?.remoteAddress },
        res: { statusCode: res.statusCode },
        responseTime: Math.round(performance.now() - started),
      };
      if (!res.writableFinished) access.info(line, 'request aborted');
      else if (res.statusCode === 503) access.warn(line, 'request refused: temporarily unavailable');
      else if (res.statusCode >= 500) access.error(line, 'request errored');
      else access.info(line, 'request completed');
    };
    res.on('finish', done);
    res.on('close', done);
    next();
  };
}
