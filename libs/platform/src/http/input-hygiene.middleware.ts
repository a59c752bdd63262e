import type { NextFunction, Request, Response } from 'express';
import { errorBody } from './error-body';
import { describeInputFault, findInputFault } from './input-hygiene';
import { sendError } from './send-error';

/**
 * Decisions §4, one check for every `/api` route after the JSON body is parsed and before Nest's
 * validation: a string holding NUL or a lone surrogate in the body or a query parameter, or a body
 * nested deeper than 64 levels, is 400 naming the field. Validation and PostgreSQL never see it
 * (class-transformer recursion would overflow the stack on a 2,000-deep body; PostgreSQL refuses
 * NUL in text, which made a 500, or a dropped connection once a streamed export had begun).
 */
export function inputHygiene(req: Request, res: Response, next: NextFunction): void {
  const fault = findInputFault(req.query, 'query') ?? findInputFault(req.body, 'body');
  if (fault) {
    sendError(res, { status: 400, body: errorBody(400, describeInputFault(fault)) });
    return;
  }
  next();
}
