import { applyDecorators, Param, PipeTransform, Type } from '@nestjs/common';
import { ApiParam, ApiProperty, ApiPropertyOptional, ApiResponse, ApiSchema } from '@nestjs/swagger';
import type { ErrorReason } from './domain-error';
import { uuidParam } from './uuid-param';

const REASONS: ErrorReason[] = ['credential_rejected', 'session_expired', 'session_revoked'];

/** The contract's Error body, the one schema of every error response in the OpenAPI document. */
@ApiSchema({ name: 'Error', description: 'Every error response. No other properties appear.' })
export class ErrorBodyView {
  @ApiProperty({ minLength: 1, maxLength: 1024, description: 'A safe message naming what was wrong (the field, for bad input)' })
  error!: string;

  @ApiPropertyOptional({ enum: REASONS })
  reason?: ErrorReason;

  @ApiPropertyOptional({ minLength: 1, maxLength: 128, description: 'The permission the caller lacks' })
  requires?: string;
}

/** The statuses an operation can answer with the Error body. */
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 412 | 413 | 415 | 429 | 503;

const DEFAULT_DESCRIPTIONS: Record<ErrorStatus, string> = {
  400: 'Invalid input (the field is named), an unknown query parameter or body property',
  401: 'Not authenticated (`reason`: credential_rejected, session_expired or session_revoked)',
  403: 'Not allowed: a role below the minimum (`requires`), an Organization not available (`reason`), a missing Origin',
  404: 'Unknown, or another Organization’s',
  409: 'Conflicts with the current state',
  412: 'The If-Match precondition failed',
  413: 'Request body too large',
  415: 'Unsupported media type: send application/json',
  429: 'Too many requests; `Retry-After` says when to try again',
  503: 'Temporarily unavailable; `Retry-After` says when to try again',
};

const RETRY_AFTER = { 'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer', minimum: 1 } } };

export type ErrorEntry = ErrorStatus | { status: ErrorStatus; description: string };

/**
 * Documents the error statuses an operation (or every operation of a controller) can answer, each
 * with the contract's Error body: `@ApiErrors(404, {status: 409, description: 'Already merged'})`.
 * The access decorators add 401/403/429, `UuidParam` adds 400/404, and the document builder adds
 * what the pipeline answers on every route (400, and 413/415 where a body can be sent); a route
 * declares here what its own logic answers.
 */
export function ApiErrors(...entries: ErrorEntry[]): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ...entries.map((entry) => {
      const { status, description } = typeof entry === 'number' ? { status: entry, description: DEFAULT_DESCRIPTIONS[entry] } : entry;
      return ApiResponse({ status, description, type: ErrorBodyView, headers: status === 429 || status === 503 ? RETRY_AFTER : undefined });
    }),
  );
}

/**
 * A path parameter holding a record's UUID: refused with 400 before any lookup when it is not
 * one, documented as `format: uuid` with the 400 and the 404 of an unknown (or another
 * Organization's) record. Use it instead of `@Param(name)` for every record id in a path.
 */
export function UuidParam(name: string, ...pipes: (Type<PipeTransform> | PipeTransform)[]): ParameterDecorator {
  return (target, key, index) => {
    Param(name, uuidParam(name), ...pipes)(target, key, index);
    const descriptor = Object.getOwnPropertyDescriptor(target, key!)!;
    ApiParam({ name, type: String, format: 'uuid' })(target, key!, descriptor);
    ApiErrors(404)(target, key!, descriptor);
  };
}
