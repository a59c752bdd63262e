import { ParseUUIDPipe } from '@nestjs/common';
import { InvalidInputError } from './domain-error';

/** A path parameter that must be a UUID: anything else is a 400 before any lookup. */
export function uuidParam(name: string): ParseUUIDPipe {
  return new ParseUUIDPipe({ exceptionFactory: () => new InvalidInputError(`Invalid input: ${name} must be a UUID`) });
}
