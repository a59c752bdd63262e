import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { toErrorResponse } from './error-body';
import { sendError } from './send-error';

/** Every failure of an HTTP request leaves through here, in the contract's Error body. */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('HTTP');

  catch(exception: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') throw exception;
    const req = host.switchToHttp().getRequest<Request>();
    const res = host.switchToHttp().getResponse<Response>();
    const response = toErrorResponse(exception);
    if (response.status >= 500) {
      this.logger.error({ err: exception, requestId: req.id, method: req.method, path: req.path }, 'Request failed');
    }
    sendError(res, response);
  }
}
