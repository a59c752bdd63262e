import { registerDecorator, ValidationOptions } from 'class-validator';
import { Timestamp } from '../time/timestamp';

/** Validates an RFC 3339 date-time in any time zone (it is normalized to UTC microseconds later). */
export function IsRfc3339(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isRfc3339',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: `${String(propertyName)} must be an RFC 3339 date-time with an offset`, ...options },
      validator: { validate: (value: unknown) => typeof value === 'string' && Timestamp.parse(value) !== null },
    });
}
