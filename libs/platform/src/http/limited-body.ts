import type { IncomingMessage } from 'node:http';
import getRawBody from 'raw-body';
import { DomainError } from './domain-error';

/** A body over the limit (413); `recordedAs` says how far over, for a record of the refusal. */
export class PayloadTooLarge extends DomainError {
  constructor(
    limit: number,
    readonly recordedAs: string,
  ) {
    super('payload_too_large', `Request body too large: the limit is ${limit} bytes`);
  }
}

/**
 * The raw body of a route that reads its own (webhooks, which authenticate first): at most
 * `limit` bytes, refused from Content-Length before anything is read when it declares more, and
 * while reading otherwise. PayloadTooLarge past the limit; 400 when the body cannot be read.
 */
export async function readLimitedBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (declared > limit) throw new PayloadTooLarge(limit, `Body of ${declared} bytes is over the limit of ${limit}`);
  try {
    return await getRawBody(req, { limit, length: Number.isNaN(declared) ? undefined : declared });
  } catch (error) {
    if ((error as { type?: string }).type === 'entity.too.large') throw new PayloadTooLarge(limit, `Body over the limit of ${limit}`);
    throw new DomainError('invalid_input', 'The request body could not be read');
  }
}
