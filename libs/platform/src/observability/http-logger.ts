import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';

/** Access log lines carrying the request id; health probes and metrics scrapes are not logged. */
export function createHttpLogger(logger: Logger) {
  return pinoHttp({
    logger,
    genReqId: (req: IncomingMessage) => (req as IncomingMessage & { id: string }).id,
    autoLogging: { ignore: (req) => ['/healthz', '/readyz', '/metrics'].includes((req.url ?? '').split('?')[0]) },
    customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'info' : 'info'),
    serializers: {
      req: (req: { id: string; method: string; url: string; headers: Record<string, string | undefined>; remoteAddress?: string }) => ({
        id: req.id,
        method: req.method,
        path: req.url.split('?')[0],
        userAgent: req.headers['user-agent'],
        remoteAddress: req.remoteAddress,
      }),
      res: (res: ServerResponse & { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
  });
}
