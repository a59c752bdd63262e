import { BadRequestException, NotFoundException, PayloadTooLargeException } from '@nestjs/common';
import { describe, expect, it } from 'vitest';
import { ConflictError, DomainError, ForbiddenError, UnauthenticatedError } from './domain-error';
import { toErrorResponse } from './error-body';

describe('toErrorResponse', () => {
  it('maps domain error codes to statuses and keeps reason, requires and Retry-After', () => {
    expect(toErrorResponse(new UnauthenticatedError('session_expired', 'expired'))).toEqual({
      status: 401,
      body: { error: 'expired', reason: 'session_expired' },
      retryAfterSeconds: undefined,
    });
    expect(toErrorResponse(new ForbiddenError('no', { requires: 'incidents:merge' })).body).toEqual({ error: 'no', requires: 'incidents:merge' });
    expect(toErrorResponse(new ConflictError('taken')).status).toBe(409);
    expect(toErrorResponse(new DomainError('rate_limited', 'slow down', { retryAfterSeconds: 7 }))).toMatchObject({ status: 429, retryAfterSeconds: 7 });
  });

  it("never leaks an unknown error's message", () => {
    expect(toErrorResponse(new Error('password=hunter2 at db.ts:12'))).toEqual({ status: 500, body: { error: 'Internal server error' } });
  });

  it('uses neutral wording for framework exceptions', () => {
    expect(toErrorResponse(new NotFoundException('Cannot GET /x')).body).toEqual({ error: 'Not found' });
    expect(toErrorResponse(new PayloadTooLargeException()).status).toBe(413);
    expect(toErrorResponse(new BadRequestException('x')).status).toBe(400);
  });

  it('maps body-parser failures', () => {
    expect(toErrorResponse(Object.assign(new Error('x'), { status: 400, expose: true, type: 'entity.parse.failed' }))).toEqual({
      status: 400,
      body: { error: 'Malformed JSON body' },
    });
    expect(toErrorResponse(Object.assign(new Error('x'), { status: 413, expose: true, type: 'entity.too.large' })).status).toBe(413);
  });

  it('clips messages to 1024 characters and requires to 128', () => {
    const response = toErrorResponse(new ForbiddenError('x'.repeat(5000), { requires: 'y'.repeat(500) }));
    expect(response.body.error.length).toBe(1024);
    expect(response.body.requires!.length).toBe(128);
  });
});
