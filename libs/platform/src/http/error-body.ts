import { HttpException } from '@nestjs/common';
import { Dependency, unavailableDependency } from './dependency-unavailable';
import { DomainError, ErrorReason, STATUS_OF } from './domain-error';

/** The contract's Error body: `error`, and optionally `reason` and `requires`; nothing else. */
export interface ErrorBody {
  error: string;
  reason?: ErrorReason;
  requires?: string;
}

export interface ErrorResponse {
  status: number;
  body: ErrorBody;
  retryAfterSeconds?: number;
  /** Set when the failure is PostgreSQL or Redis not answering (503), not a fault of the request or the code. */
  unavailable?: Dependency;
}

/**
 * `Retry-After` of a 503 for a database or Redis that cannot be reached: a restart or failover
 * takes seconds, and clients retrying every second would only add load meanwhile.
 */
export const DEPENDENCY_RETRY_AFTER_SECONDS = 5;

const GENERIC: Record<number, string> = {
  400: 'Bad request',
  401: 'Authentication required',
  403: 'Forbidden',
  404: 'Not found',
  405: 'Method not allowed',
  409: 'Conflict',
  413: 'Request body too large',
  415: 'Unsupported media type: send application/json',
  429: 'Too many requests',
  500: 'Internal server error',
  503: 'Service temporarily unavailable',
};

function clip(text: string, max: number): string {
  const single = text.replace(/\s+/g, ' ').trim();
  return single.length > max ? `${single.slice(0, max - 1)}…` : single || 'Error';
}

export function errorBody(status: number, message: string | undefined, extras: { reason?: ErrorReason; requires?: string } = {}): ErrorBody {
  const body: ErrorBody = { error: clip(message ?? GENERIC[status] ?? 'Error', 1024) };
  if (extras.reason) body.reason = extras.reason;
  if (extras.requires) body.requires = clip(extras.requires, 128);
  return body;
}

/**
 * Turns anything thrown into a status and contract-shaped body: PostgreSQL or Redis unreachable or
 * not answering is 503 with `Retry-After` (see unavailableDependency); other unknown errors become
 * a bare 500.
 */
export function toErrorResponse(error: unknown): ErrorResponse {
  if (error instanceof DomainError) {
    const status = STATUS_OF[error.code];
    return { status, body: errorBody(status, error.message, error.details), retryAfterSeconds: error.details.retryAfterSeconds };
  }
  if (error instanceof HttpException) {
    const status = error.getStatus();
    if (status >= 500) return { status, body: errorBody(status, undefined) };
    // Nest's own exceptions (route not found, etc.) carry framework wording; keep the generic text.
    const generic = status === 404 ? 'Not found' : GENERIC[status];
    return { status, body: errorBody(status, generic ?? error.message) };
  }
  const httpish = error as { status?: unknown; statusCode?: unknown; type?: unknown; expose?: unknown } | null;
  const status = typeof httpish?.status === 'number' ? httpish.status : typeof httpish?.statusCode === 'number' ? httpish.statusCode : undefined;
  if (status !== undefined && status >= 400 && status < 500 && httpish?.expose) {
    // body-parser / http-errors: malformed JSON, oversized bodies, bad charsets.
    if (httpish.type === 'entity.parse.failed') return { status: 400, body: errorBody(400, 'Malformed JSON body') };
    if (httpish.type === 'entity.too.large') return { status: 413, body: errorBody(413, 'Request body too large') };
    if (httpish.type === 'charset.unsupported' || httpish.type === 'encoding.unsupported')
      return { status: 415, body: errorBody(415, 'Unsupported body encoding') };
    return { status, body: errorBody(status, undefined) };
  }
  const unavailable = unavailableDependency(error);
  if (unavailable) {
    const what = unavailable === 'PostgreSQL' ? 'The database' : 'A backing service';
    return { status: 503, body: errorBody(503, `${what} is not answering; retry shortly`), retryAfterSeconds: DEPENDENCY_RETRY_AFTER_SECONDS, unavailable };
  }
  return { status: 500, body: errorBody(500, undefined) };
}
