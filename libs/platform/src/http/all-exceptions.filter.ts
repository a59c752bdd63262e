import { ArgumentsHost, Catch, ExceptionFilter, Logger, NotFoundException } from '@nestjs/common';
import type { Request, Response } from 'express';
import { allowedMethods } from './allowed-methods';
import { errorBody, ErrorResponse, toErrorResponse } from './error-body';
import { sendError } from './send-error';

/** Every failure of an HTTP request leaves through here, in the contract's Error body. */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('HTTP');

  catch(exception: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') throw exception;
    const req = host.switchToHttp().getRequest<Request>();
    const res = host.switchToHttp().getResponse<Response>();
    let response = toErrorResponse(exception);
    // Nest's own 404 is a request no route took (the service's handlers throw NotFoundError, a DomainError).
    if (exception instanceof NotFoundException) response = methodNotAllowed(req, res) ?? response;
    logFailure(this.logger, req, exception, response);
    sendError(res, response);
  }
}

/**
 * The one log line of a request that failed on the server's side. A 503 is a warning: PostgreSQL
 * or Redis not answering (named, with the driver's message; /readyz says so too and the code is not
 * at fault), load shed, or readiness reporting a dependency down. Anything else that answered 5xx
 * is an error. Client errors (4xx) are not logged here.
 */
export function logFailure(logger: Logger, req: Pick<Request, 'id' | 'path'> & { method?: string }, error: unknown, response: ErrorResponse): void {
  if (response.unavailable) {
    const err = error as { message?: unknown; code?: unknown };
    logger.warn(
      { requestId: req.id, method: req.method, path: req.path, dependency: response.unavailable, cause: { message: err?.message, code: err?.code } },
      `Request refused with 503: ${response.unavailable} is not answering`,
    );
  } else if (response.status === 503) {
    logger.warn({ requestId: req.id, method: req.method, path: req.path, reason: (error as { message?: unknown })?.message }, 'Request refused with 503');
  } else if (response.status >= 500) {
    logger.error({ err: error, requestId: req.id, method: req.method, path: req.path }, 'Request failed');
  }
}

/** A known path asked with a method it does not take: 405 naming the methods it does take in `Allow`. */
function methodNotAllowed(req: Request, res: Response): ErrorResponse | undefined {
  const allowed = allowedMethods(req);
  if (allowed.length === 0) return undefined;
  res.setHeader('Allow', allowed.join(', '));
  return { status: 405, body: errorBody(405, `Method ${req.method} is not allowed here: this path accepts ${allowed.join(', ')}`) };
}
