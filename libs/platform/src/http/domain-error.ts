export type ErrorCode =
  | 'invalid_input'
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'precondition_failed'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'unavailable';

export type ErrorReason = 'credential_rejected' | 'session_expired' | 'session_revoked';

/** The one mapping from error codes to HTTP statuses. */
export const STATUS_OF: Record<ErrorCode, number> = {
  invalid_input: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  precondition_failed: 412,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  unavailable: 503,
};

export interface ErrorDetails {
  reason?: ErrorReason;
  requires?: string;
  retryAfterSeconds?: number;
}

/** An expected failure that a client can act on; anything else is an internal error. */
export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: ErrorDetails = {},
  ) {
    super(message);
  }
}

export class InvalidInputError extends DomainError {
  constructor(message: string) {
    super('invalid_input', message);
  }
}

export class NotFoundError extends DomainError {
  constructor(what: string) {
    super('not_found', `${what} not found`);
  }
}

export class ConflictError extends DomainError {
  constructor(message: string) {
    super('conflict', message);
  }
}

/** An `If-Match` that no longer matches: the client's copy is stale. */
export class PreconditionFailedError extends DomainError {
  constructor(message: string) {
    super('precondition_failed', message);
  }
}

export class UnauthenticatedError extends DomainError {
  constructor(reason: ErrorReason, message = 'Authentication required') {
    super('unauthenticated', message, { reason });
  }
}

export class ForbiddenError extends DomainError {
  constructor(message: string, details: ErrorDetails = {}) {
    super('forbidden', message, details);
  }
}
